"""Precision-first retrieval over typed beliefs (``POST /v1/search`` and context assembly).

A vector store returns the nearest beliefs whatever they are; here a belief is returned only
when the query *names* it, or when its text covers most of what the query says:

1. **Candidates** come from the full-text index ``belief_search`` (names, name words one
   edit away, texts holding enough of the query's words) and the canonical-name index
   (snake_case shingles), inside the caller's namespaces (the index itself keeps to them),
   for one user when asked, never superseded, retracted, archived or resolved; each kind
   has its own read budget, so a kind with thousands of matches cannot crowd out the
   others (:func:`lookups`).
2. **Admission** (:func:`weigh`) needs one of
   - the canonical name as a phrase ("composition over inheritance"; snake_case split),
   - an alias as a phrase ("CI pipeline", "k8s"), including counter-signal aliases
     (a rejected alternative's name finds the belief that rejected it),
   - a name word one edit away (Damerau) behind a two-letter prefix guard and a length
     floor ("eror" finds "error"; "mango" does not find "mongo", "k9s" not "k8s"),
   - or text evidence: three quarters of the query's content words, and two of them.
   ``why_it_matters`` is never matched: it says what a belief is for, not what it is about.
3. **Ranking**: name evidence first, then partial canonical-name words and text coverage;
   between beliefs with equal lexical evidence, the embedding's cosine similarity to the
   query. The embedding only orders what was admitted: it never lets a belief in on its
   own, which is what keeps noise out (and the query is embedded only when there is a tie
   to break).

>>> q = analyze("what's my k8s deploy story?")
>>> q.significant
('k8s', 'deploy', 'story')
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

import numpy as np

from beliefgraph.access import Caller
from beliefgraph.db import Db
from beliefgraph.embeddings import AsideEmbedder, Embedder, unpacked
from beliefgraph.models import Kind
from beliefgraph.records import native_datetime
from beliefgraph.search.context_models import (
    BeliefBrief,
    SearchHit,
    SearchRequest,
    SearchResponse,
)
from beliefgraph.search.query import SURFACING_STATUSES, Query, analyze, lookups
from beliefgraph.search.scoring import ranked, weigh

# -- the store side ----------------------------------------------------------------------


def brief_from_map(
    b: Mapping[str, Any], namespaces: Sequence[str], visible: Collection[str] | None = None
) -> BeliefBrief:
    """Build a :class:`BeliefBrief` from a belief map returned by a search/context query.

    It names only the ``namespaces`` in ``visible`` (``None``: all), those the reader may
    see: the names of others' are not the reader's to learn.
    """
    return BeliefBrief(
        id=b["id"],
        text=b["text"],
        kind=b["kind"],
        status=b["status"],
        epistemic_status=b["epistemic_status"],
        canonical_name=b.get("canonical_name"),
        aliases=list(b.get("aliases") or []),
        why_it_matters=b.get("why_it_matters"),
        pinned=bool(b.get("pinned", False)),
        confidence=float(b.get("confidence", 0.0)),
        user=b.get("user"),
        namespaces=sorted(ns for ns in namespaces if visible is None or ns in visible),
        last_reinforced_at=native_datetime(b.get("last_reinforced_at")),
    )


class TieForecast:
    """Whether a search will likely break a tie, from how often the recent searches of the
    same user in the same namespaces did (an exponential moving average of yes and no).

    Breaking a tie needs the query's embedding. Embedded once the candidate read showed a
    tie, the model's time adds to the request's; embedded beside the read (on one core:
    ``embed_aside``), it hides behind the read, but is wasted when no tie comes, and takes
    a core from Neo4j meanwhile: faster where ties are the rule, slower where they are rare
    (bench/results/design-notes.md). So the query is embedded beside the read only for whom
    ties have been the rule lately.
    The answer is the same either way: only when the model runs changes.

    At most ``capacity`` (user, namespaces) keys are remembered, least recently used out.
    """

    def __init__(
        self, *, weight: float = 0.25, threshold: float = 0.5, capacity: int = 10_000
    ) -> None:
        self._weight = weight
        self._threshold = threshold
        self._capacity = capacity
        self._rates: OrderedDict[tuple[str | None, tuple[str, ...]], float] = OrderedDict()
        self._lock = threading.Lock()

    def likely(self, user: str | None, namespaces: Sequence[str]) -> bool:
        """Whether ties have been the rule for ``user`` in ``namespaces`` lately."""
        return self._rates.get((user, tuple(sorted(namespaces))), 0.0) >= self._threshold

    def observe(self, user: str | None, namespaces: Sequence[str], *, tied: bool) -> None:
        """Count one search: whether it had a tie to break."""
        key = (user, tuple(sorted(namespaces)))
        with self._lock:
            rate = self._rates.pop(key, 0.0)
            self._rates[key] = rate + self._weight * (float(tied) - rate)
            while len(self._rates) > self._capacity:
                self._rates.popitem(last=False)


# one per process: what find has seen of ties, and the threads that embed beside a read
TIES = TieForecast()
_EMBEDDING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="search-embedding")


def find(
    db: Db,
    embedder: Embedder,
    query: Query,
    namespaces: Sequence[str],
    *,
    user: str | None,
    limit: int,
    kinds: Sequence[str] | None = None,
    kind_budgets: Mapping[str, int] | None = None,
    default_kind_budget: int | None = None,
    candidate_budget: int = 20,
    fetch: int = 100,
    semantic: bool = True,
    visible: Collection[str] | None = None,
) -> list[SearchHit]:
    """Search the store: read candidates, score them, rank them.

    Args:
        db: runs the query; its settings hold the limits.
        embedder: embeds the query when a tie needs it.
        query: the analysed query (:func:`analyze`).
        namespaces: the only namespaces read (already filtered by what the caller may see).
        user: only this user's beliefs; ``None`` for any.
        limit: most hits returned.
        kinds: only these kinds (``None``: every kind).
        kind_budgets, default_kind_budget: most hits per kind.
        candidate_budget: most candidates scored per kind and per source.
        fetch: best full-text hits read per source (names, text), inside the scope.
        semantic: break ties of lexical evidence by the embedding's cosine similarity
            (embeds the query once, only when there is a tie; beside the candidate read
            when :data:`TIES` expects one).
        visible: the namespaces the reader may see (``None``: all); a hit names no other.

    Returns:
        The hits, best first.

    Raises:
        StoreUnavailable: Neo4j cannot be reached.
    """
    if query.empty or not namespaces:
        return []
    asked = lookups(query, user=user, namespaces=namespaces)
    early: Future[list[list[float]]] | None = None
    if semantic and TIES.likely(user, namespaces):
        aside = embedder.embed_aside if isinstance(embedder, AsideEmbedder) else embedder.embed
        early = _EMBEDDING.submit(aside, [query.text])
    rows = db.read_rows(
        "search_candidates",
        names=asked.names,
        text=asked.text,
        canonical=asked.canonical,
        namespaces=list(namespaces),
        user=user,
        kinds=list(kinds) if kinds is not None else None,
        statuses=list(SURFACING_STATUSES),
        per_kind=candidate_budget,
        fetch=fetch,
        vectors=semantic,
    )
    # Weighed on the maps as read (each row a list: unpacked, not looked up by key); only
    # what is admitted becomes a model, once, with its similarity when it has a tie to break.
    admitted = [
        (evidence, belief, scopes, vector)
        for belief, scopes, vector in rows
        if (
            evidence := weigh(
                query, belief["canonical_name"], belief["aliases"] or (), belief["text"]
            )
        )
        is not None
    ]
    scores = Counter(evidence.total for evidence, *_ in admitted)
    tied = any(count > 1 for count in scores.values())
    if semantic:
        TIES.observe(user, namespaces, tied=tied)
    similarities: dict[str, float] = {}
    if semantic and tied:
        embedded = (early.result() if early is not None else embedder.embed([query.text]))[0]
        # The vectors came with the candidates: cheaper than a second read for the tied ones after
        # the embedding (bench/results/design-notes.md). Embedding the query on another thread
        # beside the scoring measured no faster: on two cores, the model's two threads and the
        # scoring slowed each other down. Only the tied hits get a semantic part: it orders, it
        # never admits.
        similarities = cosine_similarities(
            embedded,
            {
                belief["id"]: vector
                for evidence, belief, _, vector in admitted
                if scores[evidence.total] > 1 and vector is not None
            },
        )
    hits = [
        evidence.hit(brief_from_map(belief, scopes, visible), similarities.get(belief["id"]))
        for evidence, belief, scopes, _ in admitted
    ]
    return ranked(
        hits, limit=limit, kind_budgets=kind_budgets, default_kind_budget=default_kind_budget
    )


def cosine_similarities(
    vector: Sequence[float], stored: Mapping[str, bytes | Sequence[float]]
) -> dict[str, float]:
    """Cosine similarity of ``vector`` to each stored vector (``embedding_f32`` bytes or a
    list: :func:`~beliefgraph.embeddings.unpacked`), scaled to 0..1 as Neo4j's
    ``vector.similarity.cosine`` scales it ((1 + cos) / 2), in float32 as Neo4j computes it.

    >>> cosine_similarities([1.0, 0.0], {"same": [2.0, 0.0], "opposite": [-1.0, 0.0]})
    {'same': 1.0, 'opposite': 0.0}
    """
    if not stored:
        return {}
    matrix = unpacked(list(stored.values()))
    query = np.asarray(vector, dtype=np.float32)
    cosines = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return {id_: float((1.0 + c) / 2.0) for id_, c in zip(stored, cosines, strict=True)}


def search(db: Db, embedder: Embedder, request: SearchRequest, *, caller: Caller) -> SearchResponse:
    """Answer ``POST /v1/search``: ranked beliefs with a score breakdown.

    Namespaces the caller may not read are dropped before anything is read.

    >>> search(db, embedder, SearchRequest(query="k8s?", namespaces=["domain:code"]),
    ...        caller=DEVELOPMENT_CALLER).hits[0].belief.canonical_name
    'kubernetes'

    Raises:
        StoreUnavailable: Neo4j cannot be reached.
    """
    settings = db.settings
    hits = find(
        db,
        embedder,
        analyze(request.query),
        caller.visible(request.namespaces),
        user=request.user,
        limit=request.limit,
        kinds=[k.value for k in request.kinds] if request.kinds else None,
        candidate_budget=settings.search_candidate_budget,
        fetch=settings.search_fetch,
        visible=caller.namespaces,
    )
    return SearchResponse(hits=hits)


def kinds_except(*excluded: Kind) -> list[str]:
    """Every kind but ``excluded``, as strings."""
    return [k.value for k in Kind if k not in excluded]


def reinforced_order(beliefs: Iterable[BeliefBrief]) -> list[BeliefBrief]:
    """Most recently reinforced first, then most confident, then id (deterministic)."""

    def key(b: BeliefBrief) -> tuple[float, float, str]:
        at: datetime | None = b.last_reinforced_at
        return (-(at.timestamp() if at else 0.0), -b.confidence, b.id)

    return sorted(beliefs, key=key)
