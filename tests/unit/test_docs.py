"""The README stays true: every CLI command is documented, every documented one exists."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from beliefgraph.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def cli_commands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_command_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = {c for c in cli_commands() if f"beliefgraph {c}" not in readme}
    assert not missing, f"commands missing from README.md: {sorted(missing)}"


def test_the_readme_names_no_command_that_does_not_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"\bbeliefgraph ([a-z][a-z-]+)\b", readme))
    unknown = named - cli_commands()
    assert not unknown, f"README.md names commands the CLI lacks: {sorted(unknown)}"


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./dev test" in readme
    assert "./dev test" in ci
