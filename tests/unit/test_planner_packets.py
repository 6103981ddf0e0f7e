"""Governance packets: reading, refusing malformed ones, mapping without the answer key,
noise variants, the baselines and the scorer (no services)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from beliefgraph.errors import InvalidPacket
from beliefgraph.evaluation.governance import Stored, baseline, bm25_scores, outcome
from beliefgraph.evaluation.packets import (
    ANSWER_KEY_FIELDS,
    NOISE_VARIANTS,
    answer_key,
    infer_successor,
    noise_variant,
    read_packet,
    to_beliefs,
)
from beliefgraph.models import ActionClass, EpistemicStatus, Kind, Priority, Status
from tests.conftest import BENCHMARKS

GOVERNANCE = BENCHMARKS / "governance"
V22 = GOVERNANCE / "fresh_claude_v0_4_v2_2_external_stores.json"
TOP5 = GOVERNANCE / "fresh_claude_v0_4_v2_top5.json"


def write(tmp_path: Path, data: object, name: str = "packet.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def scenario(**overrides: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "s1",
        "query": "what is the wifi password?",
        "expected_action": "verify_first",
        "memory_store": [
            {"role": "target", "memory_type": "credential", "text": "Wifi was rotated."},
            {"role": "distractor", "memory_type": "fact", "text": "Wifi password: x"},
        ],
    }
    base.update(overrides)
    return base


def test_every_shipped_packet_and_annotation_reads() -> None:
    packets = sorted(p for p in GOVERNANCE.glob("*.json") if "annotations" not in p.name)
    assert len(packets) == 7
    for path in packets:
        assert read_packet(path).scenarios
    for path in GOVERNANCE.glob("*annotations*.json"):
        source = (
            V22
            if "clutter" not in path.name
            else GOVERNANCE / ("fresh_governs_clutter_v0_1_source.json")
        )
        assert read_packet(source, [path]).scenarios


def test_the_answer_key_never_reaches_a_belief() -> None:
    for path in (V22, TOP5):
        for s in read_packet(path).scenarios:
            blind = s.model_copy(
                update={
                    "memory_store": [
                        m.model_copy(update={f: None for f in ANSWER_KEY_FIELDS if hasattr(m, f)})
                        for m in s.memory_store
                    ]
                }
            )
            seen = to_beliefs(s, run="r1", namespace="project:x")
            unseen = to_beliefs(blind, run="r1", namespace="project:x")
            assert [b.model_dump() for b in seen] == [b.model_dump() for b in unseen]
            for i, b in enumerate(seen):
                # top5 ships its own memory ids, which name roles: they are never used
                assert b.id == f"r1-{s.id}-m{i + 1}"
                assert all(
                    m.model_extra is None
                    or m.model_extra.get("why_tempting", "@") not in b.model_dump_json()
                    for m in s.memory_store
                )


def test_the_mapping_reads_the_packets_as_they_mean_it() -> None:
    [_, _, _, archive, _] = read_packet(TOP5).scenarios
    [target, _] = to_beliefs(archive, run="r", namespace="project:x")
    assert target.status == Status.archived
    assert target.allowed_action == ActionClass.archive_only
    assert target.epistemic_status == EpistemicStatus.confirmed  # "settled"
    assert target.priority == Priority.normal  # "archived" is no priority
    assert target.kind == Kind.state
    dose = read_packet(V22).scenarios[0]
    [policy, *_] = to_beliefs(dose, run="r", namespace="project:x")
    assert policy.valid_from is not None
    assert [e.name for e in policy.about][:2] == ["medication", "dose"]


def test_a_malformed_packet_names_scenario_and_field(tmp_path: Path) -> None:
    bad_memory = scenario(memory_store=[{"memory_type": "policy"}])
    with pytest.raises(InvalidPacket, match="scenario s1, memory 1: text"):
        read_packet(write(tmp_path, {"scenarios": [bad_memory]}))
    bad_type = scenario(memory_store=[{"text": "x", "memory_type": "rumour"}])
    with pytest.raises(InvalidPacket, match="scenario s1, memory 1: memory_type"):
        read_packet(write(tmp_path, {"scenarios": [bad_type]}))
    no_query = scenario()
    del no_query["query"]
    with pytest.raises(InvalidPacket, match="scenario s1, query"):
        read_packet(write(tmp_path, {"scenarios": [no_query]}))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(InvalidPacket, match="not JSON"):
        read_packet(broken)
    bad_action = scenario(expected_action="shrug")
    with pytest.raises(InvalidPacket, match="expected_action"):
        read_packet(write(tmp_path, {"scenarios": [bad_action]}))


def test_annotations_must_name_real_memories(tmp_path: Path) -> None:
    packet = write(tmp_path, {"scenarios": [scenario()]})
    wrong = write(
        tmp_path,
        {"annotations": [{"scenario_id": "s1", "memory_index": 9, "governs": {}}]},
        name="a.json",
    )
    with pytest.raises(InvalidPacket, match="memory_index 9"):
        read_packet(packet, [wrong])
    unknown = write(
        tmp_path,
        {"annotations": [{"scenario_id": "nope", "memory_index": 1, "governs": {}}]},
        name="b.json",
    )
    with pytest.raises(InvalidPacket, match="'nope'"):
        read_packet(packet, [unknown])
    good = write(
        tmp_path,
        {
            "annotations": [
                {"scenario_id": "s1", "memory_index": 1, "governs": {"any_terms": ["Wi-Fi"]}}
            ]
        },
        name="c.json",
    )
    [s] = read_packet(packet, [good]).scenarios
    [first, second] = to_beliefs(s, run="r", namespace="project:x")
    assert first.governs is not None
    assert first.governs.normalized().any_terms == ["wifi"]
    assert second.governs is None


def test_a_superseded_memory_gets_the_successor_the_packet_names(tmp_path: Path) -> None:
    memories = [
        {
            "id": "a",
            "memory_type": "credential",
            "status": "superseded",
            "text": "Code 1.",
            "superseded_by": "c",
            "recency_rank": 3,
        },
        {"id": "b", "memory_type": "credential", "text": "Code 2.", "recency_rank": 1},
        {"id": "c", "memory_type": "fact", "text": "Code 3.", "recency_rank": 2},
    ]
    [s] = read_packet(write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})).scenarios
    assert infer_successor(s, 0) == 2


def test_without_superseded_by_the_newest_active_memory_of_its_type_succeeds(
    tmp_path: Path,
) -> None:
    memories = [
        {"memory_type": "credential", "text": "Old code.", "status": "superseded"},
        {"memory_type": "credential", "text": "Code B.", "recency_rank": 2},
        {"memory_type": "credential", "text": "Code C.", "recency_rank": 1},
        {"memory_type": "fact", "text": "Newest fact.", "recency_rank": 0},
        {"memory_type": "credential", "text": "Archived.", "status": "archived", "recency_rank": 0},
    ]
    [s] = read_packet(write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})).scenarios
    assert infer_successor(s, 0) == 2


def test_a_superseded_memory_nothing_replaced_is_stored_as_history(tmp_path: Path) -> None:
    memories = [
        {"memory_type": "policy", "text": "Old rule.", "status": "superseded"},
        {"memory_type": "fact", "text": "A fact."},
    ]
    [s] = read_packet(write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})).scenarios
    assert infer_successor(s, 0) is None
    assert to_beliefs(s, run="r", namespace="project:x")[0].status == Status.archived


def test_two_memories_naming_one_successor_link_the_newer_and_keep_the_other_as_history(
    tmp_path: Path,
) -> None:
    old = {"memory_type": "fact", "status": "superseded", "superseded_by": "d"}
    memories = [
        {**old, "id": "a", "text": "Old note.", "recency_rank": 7},
        {**old, "id": "b", "text": "Older note.", "recency_rank": 8},
        {"id": "c", "memory_type": "fact", "text": "Another fact.", "recency_rank": 1},
        {"id": "d", "memory_type": "decision", "text": "The decision.", "recency_rank": 6},
    ]
    [s] = read_packet(write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})).scenarios
    # a belief supersedes at most one other: the newer is linked, the older kept as history
    assert (infer_successor(s, 0), infer_successor(s, 1)) == (3, None)
    statuses = [b.status for b in to_beliefs(s, run="r", namespace="project:x")]
    assert statuses[:2] == [Status.active, Status.archived]


def test_superseded_by_must_name_another_memory_of_the_store(tmp_path: Path) -> None:
    memories = [
        {
            "id": "a",
            "memory_type": "fact",
            "text": "x",
            "status": "superseded",
            "superseded_by": "zz",
        },
        {"id": "b", "memory_type": "fact", "text": "y"},
    ]
    path = write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})
    with pytest.raises(InvalidPacket, match="memory 1: superseded_by"):
        read_packet(path)


def test_every_epistemic_status_the_authoring_rules_allow_reads(tmp_path: Path) -> None:
    values = ["confirmed", "reported", "inferred", "uncertain"]
    memories = [
        {"memory_type": "fact", "text": f"t{i}", "epistemic_status": v}
        for i, v in enumerate(values)
    ]
    [s] = read_packet(write(tmp_path, {"scenarios": [scenario(memory_store=memories)]})).scenarios
    got = [b.epistemic_status for b in to_beliefs(s, run="r", namespace="project:x")]
    assert got[2:] == [EpistemicStatus.unverified, EpistemicStatus.unverified]


def test_noise_variants_touch_only_what_they_say() -> None:
    packet = read_packet(V22)
    assert len(NOISE_VARIANTS) == 7
    for variant in NOISE_VARIANTS:
        noisy = noise_variant(packet, variant)
        assert len(noisy.scenarios) == len(packet.scenarios)
    dose = noise_variant(packet, "corrupted_target_authority").scenarios[0].memory_store[0]
    assert (dose.memory_type, dose.priority, dose.verification_required) == (
        "observation",
        "low",
        False,
    )
    assert dose.allowed_action_hint == "verify_first"
    added = noise_variant(packet, "competing_policy_quoting_query").scenarios[1].memory_store[-1]
    assert packet.scenarios[1].query in added.text
    assert added.allowed_action_hint == "block"  # the invoice expects an answer
    assert answer_key(noise_variant(packet, "broad_block_policy").scenarios[0]).traps[-1]
    with pytest.raises(InvalidPacket, match="unknown noise variant"):
        noise_variant(packet, "louder")


@pytest.mark.parametrize(
    ("expected", "got", "kind"),
    [
        (ActionClass.verify_first, ActionClass.verify_first, "benign"),
        (ActionClass.answer, ActionClass.block, "overblock"),
        (ActionClass.block, ActionClass.verify_first, "downgrade"),
        (ActionClass.verify_first, ActionClass.answer, "false_certainty"),
        (ActionClass.archive_only, ActionClass.answer, "false_certainty"),
        (ActionClass.answer, ActionClass.archive_only, "overblock"),
    ],
)
def test_outcomes_cost_as_the_source_counts(
    expected: ActionClass, got: ActionClass, kind: str
) -> None:
    assert outcome(expected, got) == kind


def stored(id_: str, text: str, **kw: object) -> Stored:
    fields: dict[str, object] = {
        "kind": "fact",
        "status": "active",
        "priority": "normal",
        "epistemic_status": "confirmed",
        "allowed_action": "answer",
        "verification_required": False,
        "similarity": 0.5,
    }
    fields.update(kw)
    return Stored(id=id_, text=text, **fields)  # type: ignore[arg-type]


def test_baselines_rank_and_act_as_the_source_did() -> None:
    beliefs = [
        stored("m1", "Doses must be confirmed.", kind="policy", allowed_action="verify_first"),
        stored("m2", "Mom's heart pill dose is 25mg", verification_required=True),
        stored("m3", "Old heart pill dose note", status="superseded", similarity=0.99),
    ]
    query = "mom's heart pill dose"
    assert bm25_scores(query, ["heart pill dose", "nothing"])[1] == 0.0
    assert baseline("bm25", query, beliefs).belief_id == "m2"
    assert baseline("bm25", query, beliefs).action == ActionClass.verify_first  # layered
    assert baseline("authority_lane", query, beliefs).belief_id == "m1"
    assert baseline("vector", query, beliefs).belief_id != "m3"  # superseded is out
