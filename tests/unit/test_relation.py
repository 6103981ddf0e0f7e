"""The gate's pair model: its last word on two plain-text beliefs, and the fitted model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from beliefgraph.config import Settings
from beliefgraph.gate.classifier import BeliefView, DefaultClassifier, Pair, content_tokens
from beliefgraph.gate.relation import (
    RELATION_FILE,
    RELATIONS,
    RelationModel,
    counts_otherwise,
    default_relation_model,
    load_relation_model,
    relation_features,
    row_mates,
)
from beliefgraph.models import Verdict

SETTINGS = Settings()
LABELS = ("contradicts", "same", "compatible", "unrelated")
#: replacing what was not corrected, or merging what should stay apart, costs 6; a miss 1
COSTS = ((0.0, 1.0, 1.0), (6.0, 0.0, 1.0), (6.0, 6.0, 0.0), (6.0, 6.0, 0.0))
OLD = "Our rental van in Leeds is with Avis."
NEW = "We ended up going with Sixt for the Leeds van."


def model(intercept: tuple[float, float, float, float]) -> RelationModel:
    """A model that reads every pair the same way, by its intercept alone."""
    return RelationModel(LABELS, {}, intercept, COSTS)


CORRECTS = model((9.0, 0.0, 0.0, 0.0))
RESTATES = model((0.0, 9.0, 0.0, 0.0))
BESIDE = model((0.0, 0.0, 9.0, 0.0))


def view(id_: str, text: str, kind: str = "fact", about: set[str] | None = None) -> BeliefView:
    entities = {"leeds_van": frozenset(about)} if about else {}
    return BeliefView(id_, text, kind, 0.9, None, ("user:me",), entities)


def judged(relation: RelationModel, new: BeliefView, old: BeliefView, cosine: float) -> Verdict:
    return DefaultClassifier(SETTINGS, relation).judge_one(Pair(new, old, cosine)).verdict


def test_the_relation_of_least_expected_cost_is_read_not_the_likeliest() -> None:
    # "corrects" is the likeliest label (about 0.5), but replacing what was not corrected
    # costs six times a miss: the pair stays beside
    leaning = model((1.0, -9.0, 0.9, -9.0))
    relation, p = leaning.read({})
    assert max(p) == p[0]
    assert relation == "beside"
    assert CORRECTS.read({})[0] == "corrects"


def test_a_correction_the_rules_missed_replaces_and_says_so() -> None:
    new = view("n", "The team offsite will be in Porto.")
    old = view("o", "The team offsite is in Lisbon.")
    rules = DefaultClassifier(SETTINGS).by_rules(Pair(new, old, 0.85)).verdict
    assert rules is Verdict.compatible
    j = DefaultClassifier(SETTINGS, CORRECTS).judge_one(Pair(new, old, 0.85))
    assert j.verdict is Verdict.contradicts
    assert "by the pair model" in j.reason


def test_the_model_never_reads_one_of_a_numbered_row_as_correcting_another() -> None:
    new = view("n", "web-02 got a new ssl cert")
    old = view("o", "web-01 is out of disk")
    assert row_mates(new.text, old.text)
    assert judged(CORRECTS, new, old, 0.85) is not Verdict.contradicts
    # codes given as values are no row: the rules and the model may decide
    assert not row_mates("the wifi password is tulip42", "the wifi password is maple77")
    assert not row_mates("Wifi is maple78", "Wifi is maple77")
    assert not row_mates("UA456 is our flight", "UA123 is our flight")


def test_a_pair_read_as_standing_beside_undoes_a_merge_never_a_change_read() -> None:
    new, old = view("n", NEW), view("o", OLD)
    assert DefaultClassifier(SETTINGS).by_rules(Pair(new, old, 0.6)).verdict is Verdict.contradicts
    for relation in (BESIDE, RESTATES):  # a correction is neither dropped nor merged
        assert judged(relation, new, old, 0.6) is Verdict.contradicts
    fiscal, short = view("o", "Our fiscal year ends on June 30."), view("n", "FY ends 30 June.")
    assert DefaultClassifier(SETTINGS).by_rules(Pair(short, fiscal, 0.68)).verdict is Verdict.noop
    assert judged(BESIDE, short, fiscal, 0.68) is Verdict.add
    assert judged(BESIDE, short, fiscal, 0.85) is Verdict.compatible  # close: the penalty
    # one says all the other says, or the same words: the rules read those exactly
    subsumed = view("s", "Our rental van is with Avis.")
    assert judged(BESIDE, subsumed, old, 0.95) is Verdict.subsumed
    assert judged(BESIDE, view("same", OLD), old, 0.99) is Verdict.noop


def test_a_restatement_keeps_every_number() -> None:
    old = view("o", "The gym opens at 6 on weekdays.")
    again = view("n", "Weekday opening at the gym is 6.")
    later = view("n", "Weekday opening at the gym is 7.")
    assert judged(RESTATES, again, old, 0.85) is Verdict.noop
    assert judged(RESTATES, later, old, 0.85) is not Verdict.noop
    runs = view("o", "I run three times a week.")
    fewer = view("n", "I'm down to running twice a week.")
    assert judged(RESTATES, fewer, runs, 0.85) is not Verdict.noop


def test_the_same_numbers_written_otherwise_are_a_restatement() -> None:
    pairs = (
        ("My next dental cleaning is on May 14 at 3:30 pm.", "Dentist cleaning: 5/14, 15:30."),
        ("I contribute 6% of my salary to my 401(k).", "401k contribution: six percent of pay."),
        ("The trademark serial number is 97/441,208.", "Trademark serial no. 97441208."),
        ("Monthly AWS spend is capped at $42,000.", "AWS budget cap: 42k/mo"),
    )
    for first, second in pairs:
        assert judged(RESTATES, view("n", second), view("o", first), 0.8) is Verdict.noop
    # a number word the value reader does not read is a number all the same
    for first, second in (
        ("Storage unit 12 on the third floor", "Storage unit 12 on the second floor"),
        ("Pay rent on the 1st, half by transfer", "Pay rent on the 1st, a quarter by transfer"),
    ):
        words = (content_tokens(second), content_tokens(first))
        found = relation_features(second, first, 0.85, Verdict.add, words)
        assert counts_otherwise(second, first, found, words)
    # another value of a kind both give is no restatement, whatever digits they share
    japan = view("o", "going to Japan oct 2025")
    assert judged(RESTATES, view("n", "japan trip: april 2025"), japan, 0.8) is not Verdict.noop
    # other values in other words stay apart: the value reader reads them otherwise
    dentist = view("o", "My next dental cleaning is on May 14 at 3:30 pm.")
    assert judged(RESTATES, view("n", "Dentist cleaning: 5/21, 15:30."), dentist, 0.8) not in (
        Verdict.noop,
        Verdict.subsumes,
        Verdict.subsumed,
    )


def test_the_model_reads_what_the_frames_compare() -> None:
    found = relation_features(
        "leo's lunch PIN is 7720",
        "Leo's lunch account PIN is 3391",
        0.84,
        Verdict.compatible,
        (
            content_tokens("leo's lunch PIN is 7720"),
            content_tokens("Leo's lunch account PIN is 3391"),
        ),
    )
    assert found["frame_values_both"] == found["frame_values_disjoint"] == 1.0
    assert found["frame_core_nested"] == 1.0
    assert found["frame_values_same"] == found["frame_owners_differ"] == 0.0
    mine = relation_features(
        "my wife's chase card ends in 0923",
        "my chase card ends in 4417",
        0.79,
        Verdict.compatible,
        (
            content_tokens("my wife's chase card ends in 0923"),
            content_tokens("my chase card ends in 4417"),
        ),
    )
    assert mine["frame_owners_differ"] == 1.0


def test_the_model_leaves_named_subjects_other_kinds_and_far_pairs_to_the_rules() -> None:
    rules = DefaultClassifier(SETTINGS)
    named = view("n", NEW, about={"leeds", "van"}), view("o", OLD, about={"leeds", "van"})
    kinds = view("n", NEW, kind="decision"), view("o", OLD)
    far = view("n", "We ended up going with a new supplier."), view("o", "The cat is grey.")
    for (new, old), cosine in ((named, 0.6), (kinds, 0.6), (far, 0.1)):
        assert cosine < rules.floor_for(new) or new.entities or new.kind != old.kind
        expected = rules.by_rules(Pair(new, old, cosine)).verdict
        assert judged(CORRECTS, new, old, cosine) is expected
        assert judged(BESIDE, new, old, cosine) is expected


def test_features_read_the_words_numbers_and_changes_of_the_pair() -> None:
    old, new = "The standup is at 9am.", "The standup moved to 10am now."
    words = (content_tokens(new), content_tokens(old))
    found = relation_features(new, old, 0.79, Verdict.contradicts, words)
    assert found["rules=contradicts"] == 1.0
    assert found["cosine"] == 0.79
    assert found["number_added"] == found["number_dropped"] == found["numbers_all_new"] == 1.0
    assert found["number_kept"] == 0.0
    assert found["change:now"] == 1.0
    assert found["new_only:moved"] == found["old_only:9am"] == 1.0
    assert 0.0 < found["shared_of_all"] < found["shared_of_shorter"] <= 1.0


def test_the_fitted_model_loads_with_a_cost_for_each_label_and_relation() -> None:
    fitted = default_relation_model()
    assert set(fitted.classes) == set(LABELS)
    assert all(len(row) == len(RELATIONS) for row in fitted.costs)
    assert all(len(w) == len(fitted.classes) for w in fitted.weights.values())
    same, compatible = fitted.classes.index("same"), fitted.classes.index("compatible")
    corrects, restates = RELATIONS.index("corrects"), RELATIONS.index("restates")
    # replacing a restatement, and merging what should stay apart, cost more than a miss
    assert fitted.costs[same][corrects] > 1.0
    assert fitted.costs[compatible][restates] > 1.0
    data = json.loads(RELATION_FILE.read_text(encoding="utf-8"))
    assert data["fitted_by"] == "bench/train_gate.py"
    gate = Path(__file__).resolve().parents[2] / "bench" / "gate"
    assert data["sets"]
    assert all((gate / folder).is_dir() for folder in data["sets"])


def test_a_model_without_a_cost_for_each_label_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "relation.json"
    data = {"classes": ["same", "unrelated"], "weights": {}, "intercept": [0, 0]}
    bad.write_text(json.dumps(data | {"costs": [[0, 1, 1]]}), encoding="utf-8")
    with pytest.raises(ValueError, match="a cost for each label"):
        load_relation_model(bad)


def test_one_quantity_in_another_unit_is_a_restatement() -> None:
    rules = DefaultClassifier(SETTINGS).by_rules
    weight = view("o", "Biscuit weighs 22 lbs")
    assert rules(Pair(view("n", "biscuit is ~10 kg"), weight, 0.82)).verdict is Verdict.noop
    oven = view("o", "bake bread at 230C")
    assert rules(Pair(view("n", "oven for bread: 450°F"), oven, 0.69)).verdict is Verdict.noop
    # another amount is no restatement, in whatever unit
    tyres = view("o", "tire pressure 35 psi")
    assert rules(Pair(view("n", "tires: 2.8 bar"), tyres, 0.6)).verdict is not Verdict.noop


def test_a_negation_among_the_words_added_is_no_saying_more() -> None:
    allergic = view("o", "rex is allergic to chicken")
    taken_back = view("n", "vet says rex isn't allergic to chicken, it was the grain all along")
    rules = DefaultClassifier(SETTINGS).by_rules
    assert rules(Pair(taken_back, allergic, 0.85)).verdict is not Verdict.subsumes
    # nor do the rules' words stand against the model there: it may read a correction
    assert judged(CORRECTS, taken_back, allergic, 0.85) is Verdict.contradicts
    more = view("n", "rex is allergic to chicken and to beef")
    assert rules(Pair(more, allergic, 0.9)).verdict is Verdict.subsumes
