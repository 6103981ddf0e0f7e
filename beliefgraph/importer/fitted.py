"""A reader fitted on labelled conversation lines, for what the extractor's rules leave.

The rules (:mod:`~beliefgraph.importer.kinds`) read a sentence by its cues; but people say
what they keep in more ways than cues reach ("we def want tokyo and kyoto", "fully remote
only"). A sentence the rules neither keep nor refuse (no cue, and no question, request,
hedge, irony or report of another's words: :func:`~beliefgraph.importer.kinds.unmarked`) is
read by this reader instead: a multinomial logistic model (``fitted.json``, fitted by
``bench/train_extractor.py`` on the blind-written lines of ``bench/extraction/`` that are
read) gives each of its clauses a probability of holding nothing (``none``) or a statement of
a kind, and :class:`~beliefgraph.importer.extract.RuleExtractor` keeps a clause of
:data:`MIN_WORDS` words or more where nothing is read at less than :data:`FILL`. What the
rules keep, and what they refuse, the reader never changes.

Its features are the clause's words and word pairs, its first words and its length. It is
deterministic: the same turn always gives the same statements.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from beliefgraph.importer.kinds import CLAUSE_END
from beliefgraph.importer.sentences import tidy
from beliefgraph.logit import Logit, read_logit
from beliefgraph.models import Kind

#: the model's file, beside this module
MODEL = Path(__file__).with_name("fitted.json")

#: a clause is kept where the reader reads "nothing" at less than this: left out one author's
#: file at a time, 0.2 found 1.7 points more of what was to keep than the rules alone, at the
#: same precision; 0.3 found 2.4 more, but kept "The new season is starting next week." as a
#: decision (``bench/results/extraction_model.md``)
FILL = 0.2
#: nor is a clause of fewer words kept: "I'm only asking.", "we're not kidding."
MIN_WORDS = 4

#: the model's classes, the lines' labels: what each keeps as
KINDS: Mapping[str, Kind] = {
    "decision": Kind.decision,
    "preference": Kind.preference,
    "directive": Kind.policy,
    "correction": Kind.correction,
    "open_question": Kind.open_question,
}
NONE = "none"

_WORD = re.compile(r"[a-z0-9']+")


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence as the model reads them: split at a comma, a semicolon, a
    dash, "but" or "so", each tidied (:func:`~beliefgraph.importer.sentences.tidy`).

    >>> clauses("ok train it is, not enough days - just lisbon")
    ['train it is', 'not enough days', 'just lisbon']
    """
    return [c for c in (tidy(part) for part in CLAUSE_END.split(sentence)) if c]


def clause_features(clause: str) -> dict[str, float]:
    """What the model weighs of one clause: its words and word pairs, its first one and two
    words, whether it asks, and its length."""
    words = _WORD.findall(clause.lower())
    out = {f"w={w}": 1.0 for w in words}
    out.update({f"b={a}_{b}": 1.0 for a, b in itertools.pairwise(words)})
    if words:
        out[f"first={words[0]}"] = 1.0
    if len(words) > 1:
        out[f"first2={words[0]}_{words[1]}"] = 1.0
    out["q"] = float(clause.rstrip().endswith("?"))
    out["len"] = min(len(words), 30) / 30
    out["short"] = float(len(words) <= 3)
    return out


@dataclass(frozen=True)
class Reading:
    """One clause as the model reads it: the kind most likely, and how likely nothing is."""

    clause: str
    kind: str
    nothing: float


class Reader:
    """The fitted model (``fitted.json`` by default) reading a sentence's clauses."""

    def __init__(self, model: Logit) -> None:
        if NONE not in model.classes or not set(model.classes) - {NONE} <= set(KINDS):
            raise ValueError(f"the reader's classes are {NONE!r} and {sorted(KINDS)}")
        self.model = model
        self._none = model.classes.index(NONE)

    def read(self, sentence: str) -> list[Reading]:
        """Each clause of ``sentence``, read."""
        out = []
        for clause in clauses(sentence):
            _, p = self.model.least_cost(clause_features(clause))
            best = max(
                (i for i in range(len(p)) if i != self._none), key=lambda i: p[i], default=None
            )
            kind = NONE if best is None else self.model.classes[best]
            out.append(Reading(clause, kind, p[self._none]))
        return out


@functools.cache
def default_reader() -> Reader:
    """The reader of ``fitted.json``, read once."""
    return Reader(read_logit(MODEL, Logit))
