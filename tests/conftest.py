"""Shared test helpers (no services here: see tests/integration/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: the evaluation data the shared packets and PrecisionMemBench's fixtures come from: not in
#: this repository (its licences), but beside the checkout, or where BELIEFGRAPH_SHARED says
BENCHMARKS = (
    Path(os.environ.get("BELIEFGRAPH_SHARED") or Path(__file__).resolve().parents[2] / "shared")
    / "benchmarks"
)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Fail at once, naming what is missing, rather than in dozens of tests one by one."""
    if not (BENCHMARKS / "governance").is_dir() or not (BENCHMARKS / "precision").is_dir():
        raise pytest.UsageError(
            f"the evaluation data is missing: {BENCHMARKS} should hold governance/ and "
            "precision/ (the shared benchmarks folder, beside the checkout as ../shared, or "
            "BELIEFGRAPH_SHARED=/path/to/shared)"
        )
