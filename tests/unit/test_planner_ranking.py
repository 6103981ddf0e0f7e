"""The ranker's last word on who governs, over hand-made candidates and the fitted weights."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from beliefgraph.models import ActionClass, EpistemicStatus, Governs, Kind, Status
from beliefgraph.planner.assess import Assessment, Candidate, Decision
from beliefgraph.planner.precedence import decide
from beliefgraph.planner.ranking import (
    TREES_FILE,
    WEIGHTS_FILE,
    Panel,
    Ranker,
    Trees,
    default_ranker,
    eligible,
    features,
    load_ranker,
    load_trees,
)
from tests.unit.test_planner_precedence import R, X, belief

RULE = belief(
    "rule",
    "Visitor badges must be returned at reception before leaving.",
    kind=Kind.policy,
    names=("visitor badge",),
    similarity=0.40,
)
NOTE = belief(
    "note",
    "Visitor badges are kept in the top drawer at reception.",
    names=("visitor badge",),
    similarity=0.60,
)
QUERY = "where are the visitor badges kept at reception?"
#: a rule whose explicit scope holds QUERY (its writer named its terms)
RULED = belief(
    "ruled",
    "Visitor badges must be returned at reception before leaving.",
    kind=Kind.policy,
    governs=Governs(any_terms=["visitor badges"]),
    similarity=0.2,
)


def _rows(d: Decision) -> dict[str, dict[str, float]]:
    """Each candidate's ranker features, by id, as the rules assessed them."""
    features_of = features(list(d.assessments), {}, None)
    return dict(zip([a.candidate.id for a in d.assessments], features_of, strict=True))


def test_the_rules_alone_decide_when_no_ranker_is_given() -> None:
    assert decide(QUERY, {R}, [RULE, NOTE]).governing == "rule"


def test_a_ranker_that_weighs_similarity_moves_the_governor_and_says_so() -> None:
    d = decide(QUERY, {R}, [RULE, NOTE], ranker=Ranker({"similarity": 5.0}))
    assert d.governing == "note"
    assert any("the ranker puts note first (the rules had rule)" in s for s in d.steps)


def test_a_ranker_without_weights_leaves_the_rules_winner() -> None:
    assert decide(QUERY, {R}, [RULE, NOTE], ranker=Ranker({})).governing == "rule"


class Untouchable:
    """A chooser that fails the test if it is asked at all."""

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
    ) -> Assessment | None:
        raise AssertionError("the ranker was asked")


def test_the_ranker_is_never_asked_where_nothing_governs() -> None:
    other = belief("other", "The canteen opens at eight.", similarity=0.6)
    d = decide("what is the dock router code?", {R}, [other], ranker=Untouchable())
    assert d.governing is None
    assert d.action == ActionClass.answer_context


def test_the_ranker_is_never_asked_of_an_answer_by_meaning() -> None:
    lesson = belief("lesson", "Oscar - Thursday 5pm", similarity=0.83)
    music = belief("music", "Oscar likes film music", similarity=0.7)
    d = decide("When's Oscar's lesson?", {R}, [lesson, music], ranker=Untouchable())
    assert d.governing == "lesson"


def test_a_contested_claim_does_not_displace_what_it_contests() -> None:
    # however much the weights favour it: the trust guard made it a contest, not a successor
    claim = replace(NOTE, epistemic_status=EpistemicStatus.contested)
    d = decide(QUERY, {R}, [RULE, claim], ranker=Ranker({"similarity": 5.0}))
    assert d.governing == "rule"


def test_a_superseded_belief_without_a_head_is_not_eligible() -> None:
    old = belief("old", "Badges go in the blue box.", status=Status.superseded)
    d = decide(QUERY, {R}, [RULE, old], ranker=Ranker({"status:superseded": 50.0}))
    assert d.governing == "rule"
    assessed = {a.candidate.id: a for a in d.assessments}
    assert not eligible(assessed["old"], {})


def test_a_rule_that_requires_a_word_the_request_lacks_is_not_eligible() -> None:
    def freeze(terms: list[str]) -> Candidate:
        text = "All payments to Nordhamn Logistik, the freight forwarder, are frozen."
        return belief("freeze", text, kind=Kind.policy, governs=Governs(all_terms=terms))

    asked = "Release the payment to Lindqvist for the bracket order."
    for terms, ranked in (
        (["nordhamn", "payments"], False),
        (["forwarder", "payments"], False),
        (["bracket", "payment"], True),
    ):
        d = decide(asked, {X}, [freeze(terms), NOTE])
        held = {a.candidate.id: a for a in d.assessments}["freeze"]
        assert held.scope is not None
        assert bool(held.scope.missing_all) is not ranked
        assert eligible(held, {}) is ranked


def test_relative_features_are_measured_among_the_candidates() -> None:
    d = decide(QUERY, {R}, [RULE, NOTE])
    rows = _rows(d)
    assert rows["note"]["most_similar"] == 1.0
    assert rows["rule"]["most_similar"] == 0.0
    assert abs(rows["rule"]["similarity_gap"] - -0.2) < 1e-9
    assert rows["rule"]["lane:authority"] == 1.0


def test_what_a_belief_says_of_the_property_asked_is_a_feature() -> None:
    code = belief("code", "The visitor badge cupboard code is 4412.", names=("visitor badge",))
    lost = belief(
        "lost", "Visitor badges are unrecoverable once lost at reception.", names=("visitor badge",)
    )
    query = "where are the recoverable visitor badges kept at reception?"
    d = decide(query, {R}, [NOTE, code, lost])
    rows = _rows(d)
    assert rows["note"]["asked_property"] == 1.0  # kept where: the place asked for
    assert rows["code"]["other_property"] == 1.0  # a code, asked where they are kept
    assert rows["lost"]["denies_asked"] == 1.0  # "unrecoverable", asked for recoverable ones
    assert rows["note"]["denies_asked"] == rows["note"]["other_property"] == 0.0


@pytest.mark.parametrize(
    ("feature", "text", "query"),
    [
        (
            "undecided",
            "Stand-up: Priya floated opening the cafe on Sundays. Nothing was decided.",
            "Open the cafe this Sunday like we said at stand-up.",
        ),
        (
            "someone_elses_act",
            "Lay-away refunds are done only at the till by a supervisor.",
            "Refund the lay-away deposit to Mrs Kaur now.",
        ),
    ],
)
def test_a_reading_of_the_beliefs_words_is_a_feature(feature: str, text: str, query: str) -> None:
    held = belief("held", text, kind=Kind.context)
    rows = _rows(decide(query, {X}, [NOTE, held]))
    assert rows["held"][feature] == 1.0
    assert rows["note"][feature] == 0.0


def test_the_fitted_weights_name_only_features_the_planner_computes() -> None:
    d = decide(QUERY, {R}, [RULE, NOTE])
    computed = set(features(list(d.assessments), {}, None)[0])
    weights = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))["weights"]
    assert set(weights) == computed
    trees = json.loads(TREES_FILE.read_text(encoding="utf-8"))["features"]
    assert set(trees) == computed
    panel = default_ranker()
    assert isinstance(panel.members[0], Trees)
    assert panel.members[0].features == tuple(trees)
    assert isinstance(panel.members[1], Ranker)
    assert panel.members[1].weights == load_ranker().weights


#: a rule that checks handing a badge out, and a note on where badges are (closer in meaning)
CHECKED = replace(
    RULE, text="Visitor badges must be checked at reception before they are handed out."
)
HAND_OUT = "hand out a visitor badge from reception"
#: one tree, one split: a candidate more similar than 0.5 scores 1, any other -1
BY_SIMILARITY = Trees(["similarity"], [[[0, 0.5, 1, 2], [-1.0], [1.0]]])


def test_trees_send_a_candidate_down_each_split_and_sum_the_leaves() -> None:
    two = Trees(
        ["similarity", "strong"],
        [
            [[0, 0.5, 1, 2], [-1.0], [0, 0.7, 3, 4], [0.5], [2.0]],
            [[1, 0.5, 1, 2], [0.25], [-0.25]],
        ],
    )
    rows = [{"similarity": 0.4}, {"similarity": 0.6, "strong": 1.0}, {"similarity": 0.9}]
    assert two.scores(rows) == [-0.75, 0.25, 2.25]
    # a value equal to the threshold goes left, as the trees were grown
    assert BY_SIMILARITY.scores([{"similarity": 0.5}]) == [-1.0]


def test_trees_move_the_governor_as_the_weights_do() -> None:
    d = decide(QUERY, {R}, [RULE, NOTE], ranker=BY_SIMILARITY)
    assert d.governing == "note"
    assert any("the ranker puts note first (the rules had rule)" in s for s in d.steps)
    assert load_trees().scores([{}]) == load_trees().scores([{}])  # the fitted trees load


def test_a_panels_outright_answer_gives_way_to_a_more_protective_choice() -> None:
    closer, rules = Ranker({"similarity": 5.0}), Ranker({})
    assert decide(HAND_OUT, {R}, [CHECKED, NOTE], ranker=closer).action == ActionClass.answer
    d = decide(HAND_OUT, {R}, [CHECKED, NOTE], ranker=Panel((closer, rules)))
    assert (d.governing, d.action) == ("rule", ActionClass.verify_first)
    assert d.steps[-1] == (
        "another ranker would have note govern (answer): the more protective choice stands"
    )
    d = decide(HAND_OUT, {R}, [CHECKED, NOTE], ranker=Panel((rules, closer)))
    assert (d.governing, d.action) == ("rule", ActionClass.verify_first)
    assert d.steps[-1] == "another ranker would have note govern (answer): the first choice stands"


#: a rule that refuses handing a badge out to contractors (closer in meaning than CHECKED)
REFUSED = replace(
    RULE,
    id="refused",
    text="Visitor badges must never be handed out to contractors at reception.",
    similarity=0.70,
)


def test_a_panels_first_choice_that_checks_stands_over_a_later_refusal() -> None:
    closer, farther = Ranker({"similarity": 5.0}), Ranker({"similarity": -5.0})
    alone = decide(HAND_OUT, {R}, [CHECKED, REFUSED], ranker=closer)
    assert (alone.governing, alone.action) == ("refused", ActionClass.block)
    alone = decide(HAND_OUT, {R}, [CHECKED, REFUSED], ranker=farther)
    assert (alone.governing, alone.action) == ("rule", ActionClass.verify_first)
    # a later member guards against an outright answer only: a check is no such answer
    d = decide(HAND_OUT, {R}, [CHECKED, REFUSED], ranker=Panel((farther, closer)))
    assert (d.governing, d.action) == ("rule", ActionClass.verify_first)
    assert d.steps[-1] == (
        "another ranker would have refused govern (block): the first choice (verify_first) "
        "does not answer outright, and stands"
    )
    # the other way round the refusal is the first choice, and stands
    d = decide(HAND_OUT, {R}, [CHECKED, REFUSED], ranker=Panel((closer, farther)))
    assert (d.governing, d.action) == ("refused", ActionClass.block)
    assert (
        d.steps[-1]
        == "another ranker would have rule govern (verify_first): the first choice stands"
    )


def _decided(governing: str, action: ActionClass) -> Decision:
    return Decision(governing, action, f"{governing} governs", (), ())


@pytest.mark.parametrize(
    ("actions", "taken", "why"),
    [
        # an outright answer gives way to the most protective later choice, wherever it sits
        (("answer", "warn", "block"), "c", "the more protective choice stands"),
        (("answer", "block", "warn"), "b", "the more protective choice stands"),
        (("answer_context", "verify_first"), "b", "the more protective choice stands"),
        # ... but not to another answer, nor to history, which is on no such scale
        (("answer", "answer"), "a", "the first choice stands"),
        (("answer", "archive_only"), "a", "the first choice stands"),
        # a first choice that warns, or is history, stands
        (("warn", "answer"), "a", "the first choice stands"),
        (("warn", "block"), "a", "the first choice (warn) does not answer outright, and stands"),
        (("archive_only", "block"), "a", "the first choice stands"),
    ],
)
def test_a_panels_verdict_guards_only_an_outright_answer(
    actions: tuple[str, ...], taken: str, why: str
) -> None:
    decisions = [_decided(g, ActionClass(a)) for g, a in zip("abc", actions, strict=False)]
    d = Panel.verdict(decisions)
    assert d.governing == taken
    assert d.steps[-1].endswith(f": {why}")


def test_a_panel_whose_members_agree_decides_as_one_of_them() -> None:
    alone = decide(HAND_OUT, {R}, [CHECKED, NOTE], ranker=Ranker({}))
    both = decide(HAND_OUT, {R}, [CHECKED, NOTE], ranker=Panel((Ranker({}), Ranker({}))))
    assert both == alone


def test_a_curators_override_is_not_undone_by_the_ranker() -> None:
    strict = belief(
        "strict", "Visitor badges must be logged at reception.", kind=Kind.policy, similarity=0.3
    )
    loose = belief("loose", "Visitor badges may be kept at reception overnight.", kind=Kind.policy)
    ranker = Ranker({"similarity": 9.0})
    assert decide(QUERY, {R}, [strict, loose], ranker=ranker).governing == "loose"
    kept = decide(QUERY, {R}, [strict, loose], overrides=[("strict", "loose")], ranker=ranker)
    assert kept.governing == "strict"


def test_a_rule_whose_explicit_scope_holds_the_request_is_weighed_like_the_rest() -> None:
    # the rules keep the rule whose scope holds the request; a ranker may put a note first
    assert decide(QUERY, {R}, [RULED, NOTE]).governing == "ruled"
    assert decide(QUERY, {R}, [RULED, NOTE], ranker=Ranker({})).governing == "ruled"
    closer = decide(QUERY, {R}, [RULED, NOTE], ranker=Ranker({"similarity": 9.0}))
    assert closer.governing == "note"
    assert any("the ranker puts note first (the rules had ruled)" in s for s in closer.steps)


def test_a_rule_that_asks_for_a_check_does_not_give_way_to_a_provisional_report() -> None:
    dose = "Remind me of mom's heart pill dose so I can fill the pillbox"
    rule = belief(
        "rule",
        "Any medication dose must be confirmed against the current prescription label before "
        "it is used to fill a pillbox or to advise anyone.",
        kind=Kind.policy,
        names=("medication", "dose"),
        verify=True,
        similarity=0.3,
    )
    heard = belief(
        "heard",
        "Mom's heart pill dose was mentioned as 25mg three weeks ago.",
        names=("heart pill", "dose", "mom"),
        status=Status.provisional,
        epistemic=EpistemicStatus.reported,
        similarity=0.9,
    )
    closer = Ranker({"similarity": 9.0})
    assert decide(dose, {R}, [rule, heard]).governing == "rule"
    assert decide(dose, {R}, [rule, heard], ranker=closer).governing == "rule"
    # confirmed, the same note may be chosen over the rule; so may a provisional one over a
    # rule that asks for no check
    confirmed = replace(heard, status=Status.active, epistemic_status=EpistemicStatus.confirmed)
    assert decide(dose, {R}, [rule, confirmed], ranker=closer).governing == "heard"
    unchecked = replace(rule, verification_required=False)
    assert decide(dose, {R}, [unchecked, heard], ranker=closer).governing == "heard"
    # the writer's label asks for the check, or forbids, as well as the flag does
    for label in (ActionClass.verify_first, ActionClass.block):
        labelled = replace(unchecked, allowed_action=label)
        assert decide(dose, {R}, [labelled, heard], ranker=closer).governing == "rule"
    # an old version that asked for none stands for its head, which does
    old = replace(unchecked, id="old", status=Status.superseded, head="new")
    new = belief(
        "new",
        "Medication doses are checked against the prescription label.",
        kind=Kind.policy,
        names=("medication",),
        verify=True,
        similarity=0.1,
    )
    assert decide(dose, {R}, [old, new, heard], ranker=closer).governing == "new"


def test_a_belief_whose_explicit_scope_excludes_the_request_is_not_ranked() -> None:
    fenced = belief(
        "fenced",
        "Never hand out visitor badges without a booking.",
        kind=Kind.policy,
        governs=Governs(any_terms=["badges"], excluded_terms=["kept"]),
        similarity=0.95,
    )
    d = decide(QUERY, {R}, [RULE, NOTE, fenced], ranker=Ranker({"similarity": 9.0}))
    assert d.governing == "note"


def _ranked_with(feature: str, query: str, kept: Candidate, flagged: Candidate) -> None:
    """``flagged`` is ranked with ``feature`` set (``kept`` without it): a closer reading
    alone puts it first, and a weight against the feature keeps ``kept``."""
    both = [kept, flagged]
    assessed = {a.candidate.id: a for a in decide(query, {R}, both).assessments}
    assert eligible(assessed[flagged.id], {})
    rows = dict(zip(assessed, features(list(assessed.values()), {}, None), strict=True))
    assert (rows[flagged.id][feature], rows[kept.id][feature]) == (1.0, 0.0)
    closer = Ranker({"similarity": 9.0})
    assert decide(query, {R}, both, ranker=closer).governing == flagged.id
    against = Ranker({"similarity": 9.0, feature: -20.0})
    assert decide(query, {R}, both, ranker=against).governing == kept.id


def test_a_rule_whose_explicit_scope_the_request_misses_is_ranked_with_its_miss() -> None:
    # "Controlled drugs" may name a class the tramadol belongs to, though the writer's terms
    # miss the request: the rule is ranked, and its miss counts as the weights say
    shelf = belief("shelf", "Shelf C holds the cough syrups and the tramadol boxes.")
    drugs = belief(
        "drugs",
        "Controlled drugs that come back are never restocked; they go to quarantine.",
        kind=Kind.policy,
        governs=Governs(any_terms=["controlled drugs"]),
        similarity=0.9,
    )
    _ranked_with("out_of_scope", "pop the spare tramadol boxes back on shelf C", shelf, drugs)


def test_a_belief_read_as_about_another_thing_is_ranked_with_that_reading() -> None:
    # the locker 5 note reads as about another locker than the one asked; the ranker sees
    # the reading as a feature, and a weight against it keeps the note about locker 4
    query = "where is the spare key for locker 4 kept?"
    four = belief("four", "The spare key for locker 4 is kept in the red box.", similarity=0.6)
    five = belief("five", "The spare key for locker 5 is kept at reception.", similarity=0.9)
    assessed = {a.candidate.id: a for a in decide(query, {R}, [four, five]).assessments}
    assert assessed["five"].about.other
    _ranked_with("about_other", query, four, five)


def test_an_old_version_about_something_else_does_not_bring_its_head_in() -> None:
    old = belief("old", "Deploys happen on Tuesdays.", status=Status.superseded, head="new")
    new = belief("new", "Deploys are on Fridays now.", similarity=0.1)
    ranker = Ranker({"status:superseded": 50.0, "similarity": 1.0})
    d = decide(QUERY, {R}, [RULE, NOTE, old, new], ranker=ranker)
    assert d.governing == "note"


def test_an_old_version_whose_head_is_retracted_is_not_ranked() -> None:
    old = belief(
        "old", "Visitor badges are kept in the blue box.", status=Status.superseded, head="gone"
    )
    gone = belief("gone", "Visitor badges are kept in the safe.", status=Status.retracted)
    d = decide(QUERY, {R}, [NOTE, old, gone], ranker=Ranker({"status:superseded": 50.0}))
    assert d.governing == "note"


#: the record of how things were, and a question about that time
RECORD = belief(
    "record",
    "Visitor badges were kept in the blue box at reception until 2023.",
    names=("visitor badge",),
    status=Status.archived,
    similarity=0.3,
)
BACK_THEN = "back in 2023, where were the visitor badges kept at reception?"


def test_a_question_about_the_past_keeps_the_record_it_asks_for() -> None:
    rules = decide(BACK_THEN, {R}, [NOTE, RECORD])
    ranked = decide(BACK_THEN, {R}, [NOTE, RECORD], ranker=Ranker({"similarity": 9.0}))
    assert rules.governing == ranked.governing == "record"
    assert ranked.action == ActionClass.archive_only
