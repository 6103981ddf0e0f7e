"""``beliefgraph eval precision`` on the shared PrecisionMemBench suite: the issue's target."""

from __future__ import annotations

import json
from pathlib import Path

from beliefgraph.cli.parser import main
from beliefgraph.store import Store
from tests.conftest import BENCHMARKS

PRECISION = BENCHMARKS / "precision"


def test_the_whole_suite_passes_with_no_drift(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "precision.json"
    status = main(
        [
            "eval",
            "precision",
            "--seed",
            str(PRECISION / "beliefs.seed.json"),
            "--cases",
            str(PRECISION / "retrieval.cases.json"),
            "--sessions",
            str(PRECISION / "session-retrieval.cases.json"),
            "--json",
            str(out),
        ]
    )
    assert status == 0
    result = json.loads(out.read_text())
    failed = [(c["id"], c["failures"]) for c in result["cases"] if not c["passed"]]
    assert failed == []
    assert (result["static_passed"], result["static_total"]) == (60, 60)
    assert (result["session_passed"], result["session_total"]) == (12, 12)
    assert result["max_drift"] == 0.0
    assert result["mean_precision"] == result["mean_recall"] == 1.0
    # every run is isolated: the stored ids carry the run's prefix, the report the seed's ids
    run_id = result["run_id"]
    assert store.get(f"{run_id}.b-db-decision").user == f"{run_id}.test-user"
    assert "b-db-decision" in result["cases"][0]["surfaced"]["pinnedFacts"]


def test_a_broken_case_fails_loudly_instead_of_passing() -> None:
    from beliefgraph.evaluation.precision import check

    surfaced = {
        "personaPrelude": "Prefers direct answers.",
        "pinnedFacts": ["a"],
        "relevantBeliefs": ["b"],
        "openQuestions": [],
    }
    assert check({"relevantBeliefs": {"shouldOnlyInclude": ["b"]}}, surfaced) == []
    assert check({"relevantBeliefs": {"shouldOnlyInclude": []}}, surfaced) != []
    assert check({"personaPrelude": {"contains": ["DIRECT"], "nonEmpty": True}}, surfaced) == []
    assert check({"personaPrelude": {"isNull": True}}, surfaced) != []
    assert check({"noiseCheck": {"mustNotSurface": ["a"]}}, surfaced) != []
    assert check({"relevantBeliefs": {"pinnedFacts": {"mustInclude": ["x"]}}}, surfaced) != []
    assert check({"somethingNew": {}}, surfaced) == ["unknown expectation 'somethingNew'"]
    assert check({"relevantBeliefs": {"_note": "ignored"}}, surfaced) == []


def test_a_case_the_request_refuses_fails_alone(store: Store, tmp_path: Path) -> None:
    cases = json.loads((PRECISION / "retrieval.cases.json").read_text())[:3]
    cases[1] = {**cases[1], "budget": {"maxBeliefs": -1}}
    cases[2] = {**cases[2], "budget": {"maxBeliefs": 0}}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    from beliefgraph.evaluation.precision import run

    report = run(store, PRECISION / "beliefs.seed.json", path).summary()
    assert [c["id"] for c in report["cases"]] == [c["caseId"] for c in cases]
    assert [c["passed"] for c in report["cases"][:2]] == [True, False]
    assert "budget" in report["cases"][1]["failures"][0]
    # a zero budget is an answer: no pinned facts, no relevant beliefs
    assert report["cases"][2]["surfaced"]["pinnedFacts"] == []
    assert report["cases"][2]["surfaced"]["relevantBeliefs"] == []
