"""Extraction on labelled conversation lines (``bench/extraction_results.py``).

A lines file (``bench/extraction/``) holds JSON Lines of turns written by authors who never
read the extractor: ``{id, conversation_id, role, content, expect: [{kind, text}]}``, where
``expect`` is what a careful human would keep from the turn (nothing for an assistant's turn,
a question, a reaction, sarcasm, what the user pastes or forwards). Each user turn goes through
the extractor (:class:`~beliefgraph.importer.extract.RuleExtractor` by default) with the
assistant's turn it answers, as an import gives it (the turn before it in the same
conversation, when that is the assistant's); ``expect`` is read only to score.

A kept statement of a user's turn *matches* an expected one when its kind is the expected
kind (a rule the user sets counts as a ``directive`` whether the extractor calls it a policy
or a directive) and the two texts share at least half of their content words (the smaller
side's). Precision is matched / kept, recall matched / expected, over every user turn; an
assistant's statement is never expected of the user (the extractor marks it the assistant's,
inferred) and is not counted either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from beliefgraph.errors import InvalidInput
from beliefgraph.gate.classifier import content_tokens
from beliefgraph.importer.extract import RuleExtractor
from beliefgraph.importer.statements import Extractor, Replies

#: the extractor's kind -> the label it answers to
_LABEL = {"policy": "directive", "directive": "directive"}


@dataclass
class LineResult:
    """One user turn: what was expected, what was kept, what matched."""

    id: str
    expected: list[dict[str, str]]
    kept: list[dict[str, str]]
    matched: int


@dataclass
class ExtractionReport:
    """Every user turn's result; :meth:`summary` is the figures."""

    lines: list[LineResult] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        kept = sum(len(r.kept) for r in self.lines)
        expected = sum(len(r.expected) for r in self.lines)
        matched = sum(r.matched for r in self.lines)
        silent = [r for r in self.lines if not r.expected]
        return {
            "user_turns": len(self.lines),
            "expected": expected,
            "kept": kept,
            "matched": matched,
            "precision": round(matched / kept, 3) if kept else None,
            "recall": round(matched / expected, 3) if expected else None,
            "kept_from_turns_with_nothing_to_keep": sum(len(r.kept) for r in silent),
            "wrong": [
                {"id": r.id, "expected": r.expected, "kept": r.kept}
                for r in self.lines
                if r.matched != len(r.expected) or r.matched != len(r.kept)
            ],
        }


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The turns of one lines file.

    Raises:
        InvalidInput: a line is not JSON or lacks a field (file and line named).
    """
    turns = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            turn = json.loads(line)
            if not isinstance(turn.get("content"), str) or not isinstance(turn.get("expect"), list):
                raise ValueError("needs content (text) and expect (a list)")
        except (ValueError, AttributeError) as e:
            raise InvalidInput(f"{path}:{number}: {e}", field="line") from e
        turns.append(turn)
    return turns


def _matches(kept: dict[str, str], expected: dict[str, str]) -> bool:
    if kept["kind"] != expected["kind"]:
        return False
    a, b = content_tokens(kept["text"]), content_tokens(expected["text"])
    return bool(a and b) and len(a & b) >= 0.5 * min(len(a), len(b))


def evaluate_lines(
    turns: list[dict[str, Any]], extractor: Extractor | None = None
) -> ExtractionReport:
    """Extract every user turn and score it against its ``expect``."""
    extractor = extractor or RuleExtractor()
    report = ExtractionReport()
    replies = Replies()
    for turn in turns:
        replying_to = replies.answered(
            str(turn.get("conversation_id")), str(turn.get("role")), turn["content"]
        )
        if turn.get("role") != "user":
            continue
        kept = [
            {"kind": _LABEL.get(s.kind.value, s.kind.value), "text": s.text}
            for s in extractor.extract("user", turn["content"], replying_to)
        ]
        expected = [{"kind": e.get("kind", ""), "text": e.get("text", "")} for e in turn["expect"]]
        free = list(expected)
        matched = 0
        for k in kept:
            hit = next((e for e in free if _matches(k, e)), None)
            if hit is not None:
                free.remove(hit)
                matched += 1
        report.lines.append(LineResult(str(turn.get("id")), expected, kept, matched))
    return report
