"""A choice among what the assistant offered, read from the user's answer."""

from __future__ import annotations

import pytest

from beliefgraph.importer.extract import RuleExtractor
from beliefgraph.models import Kind

RULES = RuleExtractor()
OFFER = (
    "United has a 7:40am nonstop and a 12:15pm nonstop. The Corolla drives more like a normal "
    "car; the Prius is slightly more efficient. Look at the Roomba j7+ and the Roborock Q5."
)


@pytest.mark.parametrize(
    ("said", "picked"),
    [
        ("the 7:40. hotel near the loop", "the 7:40"),
        ("corolla.", "corolla"),
        ("ok roomba j7 then", "ok roomba j7 then"),
        ("the 12:15 works for us", "the 12:15 works for us"),
        ("roborock nope. too loud", "roborock nope"),
        ("corolla yes, prius no.", "corolla yes"),
    ],
)
def test_an_option_the_assistant_named_said_alone_is_a_decision(said: str, picked: str) -> None:
    found = [s for s in RULES.extract("user", said, OFFER) if s.cue == "pick"]
    assert [s.text for s in found][:1] == [picked]
    assert found[0].kind is Kind.decision
    assert "the assistant offered" in (found[0].why_it_matters or "")


@pytest.mark.parametrize(
    "said",
    [
        "corolla?",  # a question
        "corolla or prius",  # still weighing
        "prius maybe",  # a hedge
        "ugh the prius",  # a reaction
        "good idea.",  # a courtesy
        "the civic.",  # never offered
        "rent 1600, the corolla is nice",  # a clause, no word of choosing
        "corolla...",  # trailing off
        "ok so corolla.",  # a topic opened
        "had it looked at, the prius is fine",  # a state, in a clause of a longer sentence
    ],
)
def test_no_pick_where_nothing_was_chosen_among_what_was_offered(said: str) -> None:
    assert [s for s in RULES.extract("user", said, OFFER) if s.cue == "pick"] == []


def test_an_answer_read_alone_picks_nothing() -> None:
    assert RULES.extract("user", "corolla.") == []


def test_taking_up_the_assistants_offer_of_its_own_work_is_no_decision() -> None:
    offered = "Want me to make a poster for the bake sale?"
    assert RULES.extract("user", "poster yes pls.", offered) == []


def test_an_assistants_message_is_never_read_as_a_pick() -> None:
    assert all(s.kind is not Kind.decision for s in RULES.extract("assistant", "corolla.", OFFER))
