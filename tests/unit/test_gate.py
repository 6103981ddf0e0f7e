"""The gate's decisions and guards, without a database: candidates are given directly."""

from __future__ import annotations

from typing import Any

from beliefgraph.access import DEVELOPMENT_CALLER, Caller, Role
from beliefgraph.config import Settings
from beliefgraph.gate.classifier import BeliefView, DefaultClassifier, Judgement, Pair
from beliefgraph.gate.gate import Gate
from beliefgraph.gate.incoming import Neighbour, incoming_from_rows
from beliefgraph.gate.write import audit_entries
from beliefgraph.models import Verdict
from tests.fakes import HashingEmbedder

SETTINGS = Settings()
EMBED = HashingEmbedder()


class RulesOnly(DefaultClassifier):
    """The default classifier's rules without the pair model: the cosines here are chosen."""

    def judge_one(self, pair: Pair) -> Judgement:
        return self.by_rules(pair)


GATE = Gate(None, None, SETTINGS, RulesOnly(SETTINGS))  # type: ignore[arg-type]  # decide() reads nothing
GATE.default = RulesOnly(SETTINGS)  # what decides the pairs the configured classifier did not
AGENT = Caller("agent-key", Role.agent, frozenset({"user:me"}))


def row(
    text: str,
    *,
    id: str,
    kind: str = "fact",
    trust: float = 0.8,
    namespaces: tuple[str, ...] = ("user:me",),
    about: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "props": {"id": id, "text": text, "kind": kind, "trust": trust},
        "embedding": EMBED.embed([text])[0],
        "namespaces": list(namespaces),
        "about": [{"key": a, "name": a.replace("_", " "), "aliases": []} for a in about],
        "scope": None,
    }


def stored(
    text: str,
    similarity: float,
    *,
    id: str = "old",
    kind: str = "fact",
    trust: float = 0.8,
    namespaces: tuple[str, ...] = ("user:me",),
    about: tuple[str, ...] = (),
) -> Neighbour:
    entities = {a: frozenset(a.split("_")) for a in about}
    return Neighbour(BeliefView(id, text, kind, trust, None, namespaces, entities), similarity)


WIFI_OLD = ("The office Wi-Fi password is tulip-42.", 0.67)
WIFI_NEW = "The Wi-Fi password changed; IT has the current one."


def decide_one(new: dict[str, Any], *candidates: Neighbour, caller: Caller = DEVELOPMENT_CALLER):
    incoming = incoming_from_rows([new])
    decisions, effects = GATE.decide(incoming, {0: list(candidates)}, caller)
    return decisions[0], effects


def test_nothing_to_compare_with_is_add() -> None:
    decision, effects = decide_one(row("first belief", id="n"))
    assert decision.verdict is Verdict.add
    assert decision.target is None
    assert effects.store == [0]


def test_a_contradiction_supersedes() -> None:
    old = stored(*WIFI_OLD, kind="credential", about=("office_wifi",))
    decision, effects = decide_one(
        row(WIFI_NEW, id="n", kind="correction", about=("office_wifi",)), old
    )
    assert (decision.verdict, decision.target, decision.contested) == (
        Verdict.contradicts,
        "old",
        False,
    )
    assert effects.supersede == [{"old_id": "old", "new_id": "n", "reason": decision.reason}]
    assert effects.store == [0]


def test_trust_guard_stores_a_low_trust_contradiction_as_contested() -> None:
    old = stored(*WIFI_OLD, trust=0.9, about=("office_wifi",))
    decision, effects = decide_one(row(WIFI_NEW, id="n", trust=0.7, about=("office_wifi",)), old)
    # 0.7 < 0.8 x 0.9 = 0.72
    assert (decision.verdict, decision.contested, decision.guard) == (
        Verdict.contradicts,
        True,
        "trust",
    )
    assert effects.supersede == []
    assert [c["old_id"] for c in effects.contest] == ["old"]
    # at the ratio exactly, it may supersede
    decision, _ = decide_one(row(WIFI_NEW, id="n", trust=0.72, about=("office_wifi",)), old)
    assert not decision.contested


def test_an_agent_never_replaces_an_authority_whatever_its_trust() -> None:
    old = stored(*WIFI_OLD, kind="decision", trust=0.5, about=("office_wifi",))
    new = row(WIFI_NEW, id="n", kind="observation", trust=1.0, about=("office_wifi",))
    decision, effects = decide_one(new, old, caller=AGENT)
    assert (decision.contested, decision.guard) == (True, "role")
    assert effects.supersede == []
    decision, _ = decide_one(new, old)  # a curator may
    assert not decision.contested


def test_a_belief_other_namespaces_rely_on_is_not_replaced() -> None:
    old = stored(*WIFI_OLD, namespaces=("user:me", "user:team"), about=("office_wifi",))
    decision, _ = decide_one(row(WIFI_NEW, id="n", about=("office_wifi",)), old)
    assert (decision.contested, decision.guard) == (True, "namespace")
    # counted, not named, even to a writer who sees it: the reason is stored and read by others
    assert "1 namespace this write is not in" in decision.reason
    assert "user:team" not in decision.reason


def test_noop_reinforces_and_stores_nothing() -> None:
    old = stored("The user prefers dark mode.", 0.96)
    decision, effects = decide_one(row("User prefers dark mode", id="n"), old)
    assert (decision.verdict, decision.belief_id) == (Verdict.noop, "old")
    assert effects.store == []
    assert effects.reinforce == {"old": 1}


def test_a_more_trusted_repeat_replaces_the_less_trusted_copy() -> None:
    old = stored("The user prefers dark mode.", 0.96, trust=0.5)
    decision, effects = decide_one(row("User prefers dark mode", id="n", trust=0.9), old)
    assert decision.verdict is Verdict.subsumes
    assert effects.archive == [{"old_id": "old", "new_id": "n"}]


def test_a_guarded_subsumption_keeps_both() -> None:
    old = stored("The user prefers dark mode.", 0.87, kind="decision", trust=0.9)
    new = row("The user prefers dark mode in the editor.", id="n", kind="decision", trust=0.9)
    decision, effects = decide_one(new, old, caller=AGENT)
    assert decision.verdict is Verdict.compatible
    assert effects.archive == []


def test_compatible_penalises_the_older_belief() -> None:
    old = stored("The router runs firmware 1.2.", 0.82)
    decision, effects = decide_one(row("Router firmware updates need a reboot.", id="n"), old)
    assert decision.verdict is Verdict.compatible
    assert effects.penalise == {"old": 1 - SETTINGS.gate_redundancy_penalty}


def test_a_low_trust_echo_does_not_wear_down_what_it_echoes() -> None:
    old = stored("We decided to use Postgres.", 0.89, kind="decision", trust=0.9)
    echo = row(
        "The assistant said: you've decided to use Postgres.",
        id="n",
        kind="observation",
        trust=0.3,
    )
    decision, effects = decide_one(echo, old)
    assert decision.verdict is Verdict.compatible
    assert effects.penalise == {}
    assert "no redundancy penalty: trust 0.30" in decision.reason
    assert effects.store == [0]  # the echo is kept, as what the assistant said


def test_a_correction_without_an_entity_supersedes_the_fact_it_corrects() -> None:
    old = stored("my Wi-Fi password is hunter2", 0.63, trust=0.95)
    new = row(
        "Actually, my Wi-Fi password changed to correct-horse-42.",
        id="n",
        kind="correction",
        trust=0.9,
    )
    decision, effects = decide_one(new, old)
    assert decision.verdict is Verdict.contradicts
    assert not decision.contested
    assert [r["old_id"] for r in effects.supersede] == ["old"]


def test_different_entities_are_added_however_similar() -> None:
    old = stored("Alice's favourite colour is blue", 0.99, about=("alice",))
    decision, _ = decide_one(row("Bob's favourite colour is blue", id="n", about=("bob",)), old)
    assert decision.verdict is Verdict.add


def test_the_strongest_relation_wins() -> None:
    near = stored("Router firmware updates need a reboot soon.", 0.9, id="near")
    same = stored("The user prefers dark mode.", 0.5, id="same")
    decision, _ = decide_one(row("User prefers dark mode", id="n"), near, same)
    # noop outranks compatible, even at a lower similarity... but noop needs 0.90
    assert decision.verdict is Verdict.compatible
    same = stored("The user prefers dark mode.", 0.95, id="same")
    decision, _ = decide_one(row("User prefers dark mode", id="n"), near, same)
    assert (decision.verdict, decision.target) == (Verdict.noop, "same")


def test_a_batch_sees_its_own_earlier_beliefs() -> None:
    rows = [
        row("The user prefers dark mode.", id="a"),
        row("The user prefers dark mode", id="b"),
        row("Completely unrelated: lunch is at noon.", id="c"),
    ]
    incoming = incoming_from_rows(rows)
    decisions, effects = GATE.decide(incoming, {}, DEVELOPMENT_CALLER)
    assert [d.verdict for d in decisions] == [Verdict.add, Verdict.noop, Verdict.add]
    assert decisions[1].belief_id == "a"
    assert effects.store == [0, 2]
    assert effects.reinforce == {"a": 1}


def test_a_superseded_belief_is_not_a_candidate_for_later_beliefs_of_the_batch() -> None:
    old = stored(*WIFI_OLD, about=("office_wifi",))
    rows = [
        row(WIFI_NEW, id="n1", about=("office_wifi",)),
        row("The office Wi-Fi password is tulip-42.", id="n2", about=("office_wifi",)),
    ]
    decisions, effects = GATE.decide(
        incoming_from_rows(rows), {0: [old], 1: [old]}, DEVELOPMENT_CALLER
    )
    assert decisions[0].verdict is Verdict.contradicts
    # n2 repeats the old password; the old belief is gone, so n2 is judged against n1
    assert decisions[1].target != "old"
    assert [s["old_id"] for s in effects.supersede].count("old") == 1


def test_one_audit_entry_per_decision_with_snapshots() -> None:
    old = stored(*WIFI_OLD, about=("office_wifi",))
    incoming = incoming_from_rows([row(WIFI_NEW, id="n", about=("office_wifi",))])
    decisions, _ = GATE.decide(incoming, {0: [old]}, DEVELOPMENT_CALLER)
    [entry] = audit_entries(
        incoming,
        decisions,
        {"old": (WIFI_OLD[0], ("user:me",))},
        actor="tester",
        write_path="api",
    )
    assert entry.action == "contradicts"
    assert entry.beliefs == ["n", "old"]
    assert [s["text"] for s in entry.snapshot] == [WIFI_NEW, WIFI_OLD[0]]
    assert entry.similarity == decisions[0].similarity
    assert (entry.actor, entry.write_path, entry.classifier) == ("tester", "api", "default")
