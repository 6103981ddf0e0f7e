"""The README stays true: every CLI command is documented, every documented one exists."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from beliefgraph.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _children(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_commands(parser: argparse.ArgumentParser | None = None, prefix: str = "") -> set[str]:
    """Every leaf command, e.g. {"add", "neo4j", "eval governance"}."""
    found = set()
    for name, child in _children(parser or build_parser()).items():
        nested = cli_commands(child, f"{prefix}{name} ")
        found |= nested or {f"{prefix}{name}"}
    return found


def test_every_command_is_in_the_readme() -> None:
    missing = {c for c in cli_commands() if f"beliefgraph {c}" not in README}
    assert not missing, f"commands missing from README.md: {sorted(missing)}"


def test_the_readme_names_no_command_that_does_not_exist() -> None:
    known = {c.split()[0] for c in cli_commands()}
    named = set(re.findall(r"`beliefgraph ([a-z][a-z0-9-]*)", README))
    unknown = named - known
    assert not unknown, f"README.md names commands the CLI lacks: {sorted(unknown)}"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./dev test" in README
    assert "./dev test" in ci
