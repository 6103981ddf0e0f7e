"""The fitted reader: what it reads, and that it only reads what the rules leave unmarked."""

from __future__ import annotations

import pytest

from beliefgraph.importer.extract import RuleExtractor
from beliefgraph.importer.fitted import (
    KINDS,
    NONE,
    Reader,
    clause_features,
    clauses,
    default_reader,
)
from beliefgraph.logit import Logit
from beliefgraph.models import Kind

#: a reader by hand: "tokyo" and "kyoto" read as a decision, "tabs" as a preference, the rest
#: as nothing
CLASSES = ("decision", NONE, "preference")


def hand_reader() -> Reader:
    weights = {
        "w=tokyo": (6.0, 0.0, 0.0),
        "w=kyoto": (6.0, 0.0, 0.0),
        "w=tabs": (0.0, 0.0, 6.0),
    }
    costs = [[0.0 if i == j else 1.0 for j in range(3)] for i in range(3)]
    return Reader(Logit(CLASSES, weights, (0.0, 2.0, 0.0), costs))


def test_a_sentence_splits_at_commas_dashes_and_but_into_tidy_clauses() -> None:
    assert clauses("ok we def want tokyo, but not osaka - kyoto too") == [
        "we def want tokyo",
        "not osaka",
        "kyoto too",
    ]


def test_a_clause_is_read_by_its_words_word_pairs_opening_and_length() -> None:
    found = clause_features("We def want Tokyo?")
    assert found["w=tokyo"] == found["b=def_want"] == found["first=we"] == 1.0
    assert found["first2=we_def"] == found["q"] == 1.0
    assert found["len"] == pytest.approx(4 / 30)
    assert found["short"] == 0.0


def test_the_fitted_model_reads_nothing_and_the_five_kinds_of_the_lines() -> None:
    reader = default_reader()
    assert set(reader.model.classes) == {NONE, *KINDS}
    # the module's own example, with the fitted model: a plan said without a cue
    said = "we def want tokyo and kyoto for the trip"
    assert reader.kept(said) == [(said, Kind.decision)]
    assert reader.kept("The new season is starting next week.") == []


def test_quoted_words_are_blanked_to_read_but_kept_as_said() -> None:
    said = 'we def want tokyo and the "Ryokan Deluxe" room for the trip'
    [kept] = RuleExtractor(hand_reader()).extract("user", said)
    assert kept.text == said
    assert clauses(said) == ['we def want tokyo and the "…" room for the trip']


def test_a_remember_that_is_no_command_is_not_read() -> None:
    said = "we def want tokyo for the trip /remember the key is under the mat"
    assert all(s.cue != "fitted" for s in RuleExtractor(hand_reader()).extract("user", said))


def test_a_clause_of_more_than_forty_words_is_never_kept() -> None:
    said = "we def want tokyo " + " ".join(["again"] * 40)
    assert RuleExtractor(hand_reader()).extract("user", said) == []


def test_a_model_of_other_classes_is_refused() -> None:
    costs = [[0.0, 1.0], [1.0, 0.0]]
    with pytest.raises(ValueError, match="classes"):
        Reader(Logit(("yes", "no"), {}, (0.0, 0.0), costs))


def test_an_unmarked_sentence_keeps_what_the_reader_reads_in_it() -> None:
    extractor = RuleExtractor(hand_reader())
    said = "so we def want tokyo for the trip, and kyoto for a few days"
    [kept] = extractor.extract("user", said)
    # neighbouring clauses of one kind are one statement, in the speaker's words
    assert (kept.text, kept.kind, kept.cue) == (
        "we def want tokyo for the trip, and kyoto for a few days",
        Kind.decision,
        "fitted",
    )


def test_a_clause_of_three_words_or_less_is_never_kept() -> None:
    assert RuleExtractor(hand_reader()).extract("user", "tokyo and kyoto.") == []


def test_what_the_rules_keep_or_refuse_the_reader_never_reads() -> None:
    extractor = RuleExtractor(hand_reader())
    # a cue of the rules: their kind, not the reader's
    [kept] = extractor.extract("user", "We decided on tokyo for the whole trip.")
    assert (kept.kind, kept.cue) == (Kind.decision, "decision")
    # a hedge: the rules' open question
    [kept] = extractor.extract("user", "maybe we want tokyo for the whole trip.")
    assert (kept.kind, kept.cue) == (Kind.open_question, "hedge")
    # refused by the rules: a question, another's words, a quotation
    for said in (
        "do we really want tokyo for the whole trip?",
        "my sister says we want tokyo for the whole trip.",
        'Translate "we want tokyo for the whole trip" into Japanese.',
    ):
        assert extractor.extract("user", said) == [], said


def test_the_rules_alone_keep_nothing_of_an_unmarked_sentence() -> None:
    said = "we def want tokyo for the trip"
    assert RuleExtractor(hand_reader(), rules_only=True).extract("user", said) == []
    assert len(RuleExtractor(hand_reader()).extract("user", said)) == 1


def test_the_preference_kind_is_the_readers_too() -> None:
    [kept] = RuleExtractor(hand_reader()).extract("user", "tabs for every single file here")
    assert kept.kind is Kind.preference


def test_neighbouring_clauses_merge_only_up_to_forty_words() -> None:
    clause = "we def want tokyo for the trip"
    kept = RuleExtractor(hand_reader()).extract("user", ", ".join([clause] * 12))
    assert len(kept) > 1
    assert all(len(s.text.split()) <= 40 for s in kept)
