"""Which candidates a query admits, and in what order (:func:`weigh`, :func:`ranked`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from beliefgraph.search.context_models import (
    BeliefBrief,
    ScoreBreakdown,
    SearchHit,
)
from beliefgraph.search.query import (
    ALIAS_WEIGHT,
    CANONICAL_WEIGHT,
    CONTENT_WEIGHT,
    FUZZY_PENALTY,
    FUZZY_PREFIX,
    PARTIAL_NAME_WEIGHT,
    STOPWORDS,
    TEXT_COVERAGE,
    TEXT_MIN_WORDS,
    Query,
    fuzzy_equal,
)
from beliefgraph.text import normalize, tokenize, unique

# -- scoring ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _PhraseMatch:
    fuzzy: bool


def _match_phrase(query: Query, phrase: tuple[str, ...]) -> _PhraseMatch | None:
    """Find ``phrase`` (tokens) as a contiguous run of the query, exact words first."""
    n = len(phrase)
    if n == 0 or n > len(query.tokens):
        return None
    norm_phrase = _normalized(phrase)
    # Only positions where the first word matches can start the phrase: look them up
    # instead of walking the whole (possibly long) message for every name.
    starts = query.starts.get(phrase[0])
    if starts is None:
        found = set(query.positions.get(norm_phrase[0], ()))
        found.update(
            i
            for i, t in query.fuzzy_words.get(phrase[0][:FUZZY_PREFIX], ())
            if fuzzy_equal(t, phrase[0])
        )
        starts = query.starts[phrase[0]] = tuple(sorted(found))
    best: _PhraseMatch | None = None
    for i in starts:
        if i + n > len(query.tokens):
            continue
        fuzzy = False
        for j in range(n):
            if query.normalized[i + j] == norm_phrase[j]:
                continue
            if fuzzy_equal(query.tokens[i + j], phrase[j]):
                fuzzy = True
                continue
            break
        else:
            if not fuzzy:
                return _PhraseMatch(fuzzy=False)
            best = _PhraseMatch(fuzzy=True)
    return best


# Beliefs come back request after request: their names and texts are tokenized once per
# process, not once per candidate (tokenizing folds accents character by character).
@lru_cache(maxsize=65536)
def _name_tokens(name: str) -> tuple[str, ...]:
    return tuple(tokenize(name))


@lru_cache(maxsize=65536)
def _normalized(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(normalize(t) for t in tokens)


@lru_cache(maxsize=65536)
def _content_words(text: str) -> frozenset[str]:
    return frozenset(normalize(t) for t in tokenize(text) if t not in STOPWORDS)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the query says about one belief, before it is a :class:`SearchHit`: the
    parts of its score (see :class:`ScoreBreakdown`) and what admitted it."""

    name: float
    fuzzy: bool
    partial_name: float
    content: float
    total: float
    admitted_by: str
    matched: list[str]

    def hit(self, belief: BeliefBrief, semantic: float | None = None) -> SearchHit:
        """The hit of ``belief``, with ``semantic`` (the cosine similarity) when known."""
        breakdown = ScoreBreakdown(
            name=self.name,
            fuzzy=self.fuzzy,
            partial_name=self.partial_name,
            content=self.content,
            semantic=None if semantic is None else round(semantic, 4),
            total=self.total,
            admitted_by=self.admitted_by,
            matched=self.matched,
        )
        return SearchHit(belief=belief, score=self.total, breakdown=breakdown)


def weigh(
    query: Query, canonical_name: str | None, aliases: Sequence[str], text: str
) -> Evidence | None:
    """The evidence for a belief with these names and text; ``None`` when nothing admits
    it (see the module docstring)."""
    matched: list[str] = []
    name = 0.0
    fuzzy = False
    admitted_by = ""

    canonical = _name_tokens(canonical_name or "")
    if canonical:
        m = _match_phrase(query, canonical)
        if m is not None:
            name = CANONICAL_WEIGHT - (FUZZY_PENALTY if m.fuzzy else 0.0)
            fuzzy = m.fuzzy
            admitted_by = "canonical_name"
            matched.append(canonical_name or "")
    for alias in aliases:
        m = _match_phrase(query, _name_tokens(alias))
        if m is None:
            continue
        value = ALIAS_WEIGHT - (FUZZY_PENALTY if m.fuzzy else 0.0)
        matched.append(alias)
        if value > name:
            name, fuzzy, admitted_by = value, m.fuzzy, "alias"

    significant = query.content_words
    partial = 0.0
    name_words = _content_words(canonical_name or "")
    if name_words and significant:
        partial = len(name_words & significant) / len(name_words)

    text_content = _content_words(text)
    covered = sorted(significant & text_content)
    content = len(covered) / len(significant) if significant else 0.0
    if not admitted_by and (
        len(covered) >= min(TEXT_MIN_WORDS, len(significant)) and content >= TEXT_COVERAGE
    ):
        admitted_by = "text"
        matched.extend(covered)
    if not admitted_by:
        return None
    total = name + PARTIAL_NAME_WEIGHT * partial + CONTENT_WEIGHT * content
    return Evidence(
        name=name,
        fuzzy=fuzzy,
        partial_name=round(partial, 4),
        content=round(content, 4),
        total=round(total, 4),
        admitted_by=admitted_by,
        matched=unique(matched),
    )


def _order_key(hit: SearchHit) -> tuple[Any, ...]:
    reinforced = hit.belief.last_reinforced_at
    semantic = hit.breakdown.semantic
    return (
        -hit.score,
        -(semantic if semantic is not None else -1.0),
        not hit.belief.pinned,
        -hit.belief.confidence,
        -(reinforced.timestamp() if reinforced else 0.0),
        hit.belief.id,
    )


def ranked(
    hits: Iterable[SearchHit],
    *,
    limit: int,
    kind_budgets: Mapping[str, int] | None = None,
    default_kind_budget: int | None = None,
) -> list[SearchHit]:
    """Hits, best first, at most ``limit``, at most a kind's budget per kind.

    Ties go to the higher cosine similarity (when known), then pinned beliefs, then
    confidence, then the most recently reinforced, then id, so the order is deterministic.
    """
    hits = sorted(hits, key=_order_key)
    taken: Counter[str] = Counter()
    out: list[SearchHit] = []
    for hit in hits:
        kind = hit.belief.kind.value
        cap = (kind_budgets or {}).get(kind, default_kind_budget)
        if cap is not None and taken[kind] >= cap:
            continue
        taken[kind] += 1
        out.append(hit)
        if len(out) == limit:
            break
    return out
