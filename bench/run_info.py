"""What every results file says of its run: when, at which commit, on what machine.

Imported by the benchmark scripts (run as scripts, so this directory is first on their path).
"""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the shared benchmarks folder (not in this repository): beside the checkout as ../shared,
#: or where BELIEFGRAPH_SHARED says, as the tests find it
BENCHMARKS = Path(os.environ.get("BELIEFGRAPH_SHARED") or ROOT.parent / "shared") / "benchmarks"


def commit() -> str:
    """The checkout's commit, short ("unknown" outside a git checkout)."""
    done = subprocess.run(  # noqa: S603
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],  # noqa: S607  (the developer's git)
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown"


def now() -> str:
    """The time of the run, to the minute, UTC."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def machine() -> str:
    """The cores and Python that ran it."""
    return f"{os.cpu_count()} cores, Python {platform.python_version()}"


def read_sets(data: Path, unread: list[str]) -> list[str]:
    """The folders of blind material under ``data`` read and used by now: each one but those
    set aside (``unread``) and those still being written (``new-…``); the first set first, then
    the thirds set aside, in the order they were written (``unread``, ``unread-2``, …)."""

    def written(name: str) -> tuple[bool, int]:
        number = name.rpartition("-")[2]
        return name.startswith("unread"), int(number) if number.isdigit() else 1

    names = [d.name for d in data.iterdir() if d.is_dir() and not d.name.startswith("new-")]
    return sorted((n for n in names if n not in unread), key=written)


def paths_of(data: Path, names: list[str]) -> str:
    """``names``, folders of ``data``, as the results files show them."""
    return ", ".join(str((data / n).relative_to(ROOT)) for n in names)
