"""A reader fitted on labelled conversation lines, for what the extractor's rules leave.

The rules (:mod:`~beliefgraph.importer.kinds`) read a sentence by its cues; but people say
what they keep in more ways than cues reach ("we def want tokyo and kyoto", "fully remote
only"). A sentence in which the rules find no claim and which they do not refuse either (no
question, request, hedge, irony or report of another's words:
:func:`~beliefgraph.importer.kinds.refused`) is read by this reader instead: a multinomial
logistic model (``fitted.json``, fitted by ``bench/train_extractor.py`` on the blind-written
lines of ``bench/extraction/`` that are read) gives each of its clauses a probability of
holding nothing (``none``) or a statement of a kind. :meth:`Reader.kept` keeps a clause of
:data:`MIN_WORDS` to :data:`MAX_WORDS` words where nothing is read at less than
:data:`MAX_NOTHING`, in the speaker's words. What the rules keep, and what they refuse, the
reader never changes.

Its features are a clause's words and word pairs, its first one and two words, whether it
asks, and its length; quoted words are blanked first, as they carry no cue. It is
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
from beliefgraph.importer.sentences import is_mentioned, tidy
from beliefgraph.logit import Logit, read_logit
from beliefgraph.models import Kind

#: the model's file, beside this module
MODEL = Path(__file__).with_name("fitted.json")

#: a clause is kept where the reader reads "nothing" at less than this: left out one author's
#: file at a time, 0.2 found 1.7 points more of what was to keep than the rules alone, at the
#: same precision; 0.3 found 2.4 more, but kept "The new season is starting next week." as a
#: decision (``bench/results/extraction_model.md``)
MAX_NOTHING = 0.2
#: nor is a clause of fewer words kept ("I'm only asking.", "we're not kidding."), nor one of
#: more: a statement worth keeping is said in a few words
MIN_WORDS = 4
MAX_WORDS = 40

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


def _clauses(sentence: str) -> list[tuple[tuple[int, int], str]]:
    """Each clause of a sentence, where it stands and how the model reads it: split at a
    comma, a semicolon, a dash, or before "but" or "so"; tidied
    (:func:`~beliefgraph.importer.sentences.tidy`), quoted words blanked."""
    spans, start = [], 0
    for m in CLAUSE_END.finditer(sentence):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(sentence)))
    read = [((a, b), tidy(is_mentioned(sentence[a:b]))) for a, b in spans]
    return [(span, text) for span, text in read if text]


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence as the model reads them.

    >>> clauses("ok train it is, not enough days - just lisbon")
    ['train it is', 'not enough days', 'just lisbon']
    """
    return [text for _, text in _clauses(sentence)]


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
    """One clause as the model reads it: where it stands in its sentence, the kind most
    likely, and how likely nothing is."""

    span: tuple[int, int]
    kind: str
    nothing: float
    words: int


class Reader:
    """The fitted model (``fitted.json`` by default) reading a sentence's clauses.

    Raises:
        ValueError: the model's classes are not ``none`` and the kinds of :data:`KINDS`.
    """

    def __init__(self, model: Logit) -> None:
        if NONE not in model.classes or not set(model.classes) - {NONE} <= set(KINDS):
            raise ValueError(f"the reader's classes are {NONE!r} and {sorted(KINDS)}")
        self.model = model
        self._none = model.classes.index(NONE)

    def read(self, sentence: str) -> list[Reading]:
        """Each clause of ``sentence``, read."""
        out = []
        for span, clause in _clauses(sentence):
            p = self.model.probabilities(clause_features(clause))
            best = max((i for i in range(len(p)) if i != self._none), key=lambda i: p[i])
            words = len(_WORD.findall(clause.lower()))
            out.append(Reading(span, self.model.classes[best], float(p[self._none]), words))
        return out

    def kept(self, sentence: str) -> list[tuple[str, Kind]]:
        """What the reader keeps of ``sentence``: each clause it reads as a statement (see the
        module docstring), neighbouring clauses of one kind as one (up to :data:`MAX_WORDS`
        words), in the speaker's words."""
        out: list[tuple[tuple[int, int], Kind, int]] = []
        last = None
        for i, r in enumerate(self.read(sentence)):
            if r.nothing >= MAX_NOTHING or not MIN_WORDS <= r.words <= MAX_WORDS:
                continue
            kind = KINDS[r.kind]
            if last == i - 1 and out[-1][1] is kind and out[-1][2] + r.words <= MAX_WORDS:
                out[-1] = ((out[-1][0][0], r.span[1]), kind, out[-1][2] + r.words)
            else:
                out.append((r.span, kind, r.words))
            last = i
        return [(tidy(sentence[a:b]), kind) for (a, b), kind, _ in out]


@functools.cache
def default_reader() -> Reader:
    """The reader of ``fitted.json``, read once."""
    return Reader(read_logit(MODEL, Logit))
