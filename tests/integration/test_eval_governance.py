"""The judgment evaluation on the real Neo4j with the real model: the planner's targets on
every configuration, the baselines' published numbers, and bad packets loading nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from beliefgraph.evaluation.governance import (
    V22,
    Configuration,
    configurations,
    evaluate,
    load_scenario,
    read_configuration,
)
from beliefgraph.evaluation.packets import read_packet
from beliefgraph.store import Store
from tests.conftest import BENCHMARKS

GOVERNANCE = BENCHMARKS / "governance"


@pytest.mark.parametrize("config", configurations(), ids=lambda c: c.label)
def test_the_planner_meets_every_target(store: Store, config: Configuration) -> None:
    packet = read_configuration(GOVERNANCE, config)
    [summary] = evaluate(store, packet, ["planner"])
    misses = [
        (r["scenario"], r["selected_role"], r["action"], r["expected_action"])
        for r in summary["rows"]
        if not (r["target_selected"] and r["action_correct"])
    ]
    assert not misses
    n = summary["scenarios"]
    assert summary["target_selected"] == summary["action_correct"] == n
    assert summary["trap_failures"] == summary["false_certainty"] == 0
    assert summary["overblocking"] == summary["weighted_loss"] == 0


def test_the_baselines_reproduce_the_published_numbers(store: Store) -> None:
    """Published on v2.2: BM25 3/5 target, 4/5 action; authority lane 5/5, 5/5. Within one
    scenario is the check that the harness measures what the source measured."""
    packet = read_packet(GOVERNANCE / V22)
    bm25, lane, vector = evaluate(store, packet, ["bm25", "authority_lane", "vector"])
    assert abs(bm25["target_selected"] - 3) <= 1
    assert abs(bm25["action_correct"] - 4) <= 1
    assert lane["target_selected"] >= 4
    assert lane["action_correct"] >= 4
    assert vector["scenarios"] == 5
    clutter = read_configuration(GOVERNANCE, configurations()[4])
    [lane_on_clutter] = evaluate(store, clutter, ["authority_lane"])
    # published: 2/5 target, 3/5 action on clutter
    assert abs(lane_on_clutter["target_selected"] - 2) <= 1
    assert abs(lane_on_clutter["action_correct"] - 3) <= 1


def test_the_answer_key_never_reaches_the_store(store: Store) -> None:
    packet = read_packet(GOVERNANCE / "fresh_claude_v0_4_v2_top5.json")
    run = uuid.uuid4().hex[:8]
    for i, scenario in enumerate(packet.scenarios):
        loaded = load_scenario(store, scenario, run=run, index=i)
        stored = json.dumps([b.model_dump(mode="json") for b in store.get_many(loaded.ids)])
        for memory in scenario.memory_store:
            extra = memory.model_extra or {}
            for field in ("why_tempting", "id"):  # top5's own ids name roles
                if field in extra:
                    assert str(extra[field]) not in stored
        assert "should_fire" not in stored
        assert "should_not_fire" not in stored


def test_a_malformed_packet_is_named_and_loads_nothing(store: Store, tmp_path: Path) -> None:
    data = json.loads((GOVERNANCE / V22).read_text())
    del data["scenarios"][2]["memory_store"][1]["text"]
    # scenario ids of this test's own, so that what it may have stored is told apart from
    # any other evaluation that shares the Neo4j
    mark = f"x{uuid.uuid4().hex[:12]}"
    for scenario in data["scenarios"]:
        scenario["id"] = f"{scenario['id']}-{mark}"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, "-m", "beliefgraph.cli", "eval", "governance", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert f"scenario fresh_stale_superseded_vpn_v2-{mark}, memory 2: text" in done.stderr
    stored = store.db.driver.execute_query(
        "MATCH (b:Belief) WHERE b.id CONTAINS $mark RETURN count(b) AS n",
        mark=mark,
        database_=store.db.database,
    ).records[0]["n"]
    assert stored == 0


def test_the_cli_writes_the_promised_json(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "beliefgraph.cli",
            "eval",
            "governance",
            str(GOVERNANCE / V22),
            "--annotations",
            str(GOVERNANCE / "fresh_governs_annotations_v0_2.json"),
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "target 5/5" in done.stdout
    result = json.loads(out.read_text())
    assert set(result) >= {
        "packet",
        "strategy",
        "scenarios",
        "target_selected",
        "action_correct",
        "trap_failures",
        "false_certainty",
        "downgrade_miss",
        "overblocking",
        "dangerous_overcaution",
        "weighted_loss",
        "rows",
    }
    assert result["strategy"] == "planner"
    assert len(result["rows"]) == 5
