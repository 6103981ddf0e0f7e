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

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from math import ceil
from typing import Any

import numpy as np

from beliefgraph.access import Caller
from beliefgraph.context_models import (
    BeliefBrief,
    ScoreBreakdown,
    SearchHit,
    SearchRequest,
    SearchResponse,
)
from beliefgraph.embeddings import AsideEmbedder, unpacked
from beliefgraph.index_keys import (
    EDIT_MAX_LENGTH,
    EDIT_MIN_LENGTH,
    EDIT_PREFIX,
    edit_terms,
    scope_clause,
)
from beliefgraph.models import Kind, Status
from beliefgraph.records import native_datetime
from beliefgraph.text import fold, normalize, tokenize, unique

#: statuses that may surface; superseded, archived and retracted beliefs never do
SURFACING_STATUSES = (
    Status.active.value,
    Status.provisional.value,
    Status.inferred.value,
    Status.exploratory.value,
)

# Function words and conversational filler: they never make a belief relevant, and they do
# not count when measuring how much of a query a text covers.
_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did didn do does doesn doing don dont down
    during each either else even ever every few for from further get gets getting give got
    had has have having he her here hers herself him himself his how i if im in into is it
    its itself just let lets like me might more most much must my myself need needs no nor
    not now of off ok okay on once one only or other our ours ourselves out over own please
    quite rather really same say she should so some still such sure than thanks that thats
    the their theirs them themselves then there these they thing things this those though
    through to too under until up upon us use using very via want wants was we well were
    what whats when where whether which while who whom whose why will with would yeah yes
    yet you your yours yourself yourselves ugh um uh hey hi basically honestly actually
    maybe kind sort lot bit anything something tell know think thinking thought wondering
    ive youre weve theyre its
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Weights of the score parts; the admission rules above, not these numbers, keep noise out.
CANONICAL_WEIGHT = 10.0
ALIAS_WEIGHT = 8.0
FUZZY_PENALTY = 3.0
PARTIAL_NAME_WEIGHT = 2.0
CONTENT_WEIGHT = 3.0
#: text evidence admits a belief when it covers this share of the query's content words ...
TEXT_COVERAGE = 0.75
#: ... and at least this many of them (fewer only when the query has fewer)
TEXT_MIN_WORDS = 2
#: fuzzy matching: both words this long, the longer one at least FUZZY_MIN_LONGER, the
#: first FUZZY_PREFIX letters the same (the index's name_edits are made to the same rules)
FUZZY_MIN_LENGTH = EDIT_MIN_LENGTH
FUZZY_MIN_LONGER = 5
#: ... and neither longer than this (a pasted hash is not misspelt)
FUZZY_MAX_LENGTH = EDIT_MAX_LENGTH
FUZZY_PREFIX = EDIT_PREFIX
#: longest canonical name (in words) looked up as a snake_case shingle
MAX_SHINGLE = 4
#: most distinct query words sent to the index (a 20k-character message is not 20k clauses)
MAX_QUERY_WORDS = 48
#: most content words of a message tried one edit away
MAX_FUZZY_WORDS = 12


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or
    transposition of neighbours (optimal string alignment distance 1)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@lru_cache(maxsize=65536)  # the same word pairs recur across every candidate of a request
def fuzzy_equal(query_word: str, name_word: str) -> bool:
    """One edit apart, same first letters, long enough that one edit is a typo, not a new
    word ("eror"/"error", "mongod"/"mongo"; not "mango"/"mongo", not "k9s"/"k8s")."""
    if query_word in STOPWORDS or query_word.isdigit() or name_word.isdigit():
        return False
    if min(len(query_word), len(name_word)) < FUZZY_MIN_LENGTH:
        return False
    if not FUZZY_MIN_LONGER <= max(len(query_word), len(name_word)) <= FUZZY_MAX_LENGTH:
        return False
    if query_word[:FUZZY_PREFIX] != name_word[:FUZZY_PREFIX]:
        return False
    return within_one_edit(query_word, name_word)


@dataclass(frozen=True)
class Query:
    """A query as search reads it."""

    text: str
    tokens: tuple[str, ...]
    normalized: tuple[str, ...]
    significant: tuple[str, ...]
    #: where each normalized word occurs
    positions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: the words that may match a name one edit away, with their positions, by their first
    #: FUZZY_PREFIX letters (the prefix guard: only those words can match a name word)
    fuzzy_words: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    #: the content words, normalized: what text coverage is measured against
    content_words: frozenset[str] = frozenset()
    #: where a name starting with a given word may start in the query (filled by scoring:
    #: the candidates of one query share their names' first words)
    starts: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        """Whether the query has no words at all."""
        return not self.tokens


def analyze(text: str) -> Query:
    """Tokenize a query with the shared tokenizer (possessives dropped, "Wi-Fi" = "wifi")."""
    tokens = tuple(tokenize(text))
    significant = tuple(unique(t for t in tokens if t not in STOPWORDS))
    normalized = tuple(normalize(t) for t in tokens)
    positions: dict[str, list[int]] = {}
    for i, t in enumerate(normalized):
        positions.setdefault(t, []).append(i)
    fuzzy_words: dict[str, list[tuple[int, str]]] = {}
    for i, t in enumerate(tokens):
        if len(t) >= FUZZY_MIN_LENGTH and t not in STOPWORDS and not t.isdigit():
            fuzzy_words.setdefault(t[:FUZZY_PREFIX], []).append((i, t))
    return Query(
        text,
        tokens,
        normalized,
        significant,
        {t: tuple(p) for t, p in positions.items()},
        {prefix: tuple(words) for prefix, words in fuzzy_words.items()},
        frozenset(normalize(t) for t in significant),
    )


_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_EDGE_PUNCTUATION = re.compile(r"^[^\w]+|[^\w]+$")


def _raw_words(text: str) -> list[str]:
    """The query's words as the index's own analyzer will cut them ("allkeys-lru",
    "react.js"), escaped for the Lucene query parser: aliases are indexed that way."""
    out = []
    for word in fold(text).split():
        word = _EDGE_PUNCTUATION.sub("", word)
        if word and not word.isalnum() and any(t not in STOPWORDS for t in tokenize(word)):
            out.append(_LUCENE_SPECIAL.sub(r"\\\1", word))
    return out


@dataclass(frozen=True)
class Lookups:
    """What the candidate read asks the indexes.

    Attributes:
        names: a Lucene query over ``canonical_name`` and ``aliases_text`` ('' for none):
            the content words and the raw punctuated words ("allkeys-lru", as the index cuts
            them); and over ``name_edits``, the :func:`~beliefgraph.index_keys.edit_terms`
            of the first content words, which meet those of any name word one edit away
            (or the word with a plural "s").
        text: a Lucene query over ``text_words`` ('' for none): the content words, as
            :func:`coverage_groups` (only texts that may cover enough of them).
        canonical: snake_case shingles of two to four words, looked up exactly in the
            ``belief_canonical_name`` index (the full-text analyzer keeps
            ``composition_over_inheritance`` as one term, so no word query reaches it).
    """

    names: str
    text: str
    canonical: list[str]


def lookups(query: Query, *, user: str | None = None, namespaces: Sequence[str] = ()) -> Lookups:
    """The index lookups of a query, kept by the index itself inside ``namespaces`` (and the
    beliefs of ``user``) when given (:mod:`beliefgraph.index_keys`). Our tokens are
    ``[a-z0-9]+``: nothing needs escaping."""
    words = list(query.significant[:MAX_QUERY_WORDS])
    raw = unique(_raw_words(query.text))[:MAX_QUERY_WORDS]
    fuzzy = [w for w in words if len(w) >= FUZZY_MIN_LENGTH and not w.isdigit()]
    # A long message gets edit terms for its first content words only (typos of names live
    # in short queries; long ones name things whole).
    edits = unique(t for w in fuzzy[:MAX_FUZZY_WORDS] for t in edit_terms(w))
    name_terms = unique([*raw, *words])
    joined = " ".join(name_terms)
    scope = f"{scope_clause(user, namespaces)} " if namespaces else ""
    names = ""
    if name_terms:
        clauses = f"canonical_name:({joined}) OR aliases_text:({joined})"
        if edits:
            clauses += f" OR name_edits:({' '.join(edits)})"
        names = f"{scope}+({clauses})"
    tokens = query.tokens[: MAX_QUERY_WORDS * 2]
    canonical = unique(
        "_".join(tokens[i : i + n])
        for n in range(2, MAX_SHINGLE + 1)
        for i in range(len(tokens) - n + 1)
        if tokens[i] not in STOPWORDS and tokens[i + n - 1] not in STOPWORDS
    )
    groups = coverage_groups(unique(normalize(t) for t in query.significant))
    text = ""
    if groups:
        alternatives = " ".join(f"({' '.join(f'+{w}' for w in group)})" for group in groups)
        text = f"{scope}+text_words:({alternatives})"
    return Lookups(names=names, text=text, canonical=canonical)


def coverage_groups(words: Sequence[str]) -> list[list[str]]:
    """Groups of ``words`` such that a text covering enough of them for admission (see
    :func:`weigh`) holds every word of at least one group.

    A text that covers ``need`` of the ``n`` words misses at most ``n - need`` of them, so of
    ``n - need + 1`` disjoint groups one is missed by none: the index need only look for texts
    with a whole group (a conjunction, which it answers from its rarest word's postings),
    not for texts with any word, which in a store of a narrow vocabulary is thousands of
    them. Beyond MAX_QUERY_WORDS words, only the first are asked for, each group then
    smaller by what was left out; when that leaves nothing to require, any word will do.

    >>> coverage_groups(["redis", "eviction", "policy", "memory"])  # 3 of 4 needed
    [['redis', 'policy'], ['eviction', 'memory']]
    >>> coverage_groups(["redis", "eviction"])
    [['redis', 'eviction']]
    """
    n = len(words)
    if n == 0:
        return []
    need = max(min(TEXT_MIN_WORDS, n), ceil(TEXT_COVERAGE * n))
    asked = list(words[:MAX_QUERY_WORDS])
    need = max(need - (n - len(asked)), 1)
    count = len(asked) - need + 1
    return [asked[i::count] for i in range(count)]


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
    a core from Neo4j meanwhile. Measured on the context benchmark's 100k store, library
    path, interleaved: beside the read on every request, the harsh profile (a tie in two
    requests of three) went from 15.2-15.5 to 13.3-13.7 ms p50, and the realistic one (one
    in seven) from 4.8 to 7.1 ms. So the query is embedded beside the read only for whom
    ties have been the rule lately: harsh 16.3 -> 14.3 ms, realistic 4.85 -> 4.9 (noise).
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
    store: Any,
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
        store: a :class:`beliefgraph.store.Store`.
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
        embedder = store.embedder
        aside = embedder.embed_aside if isinstance(embedder, AsideEmbedder) else embedder.embed
        early = _EMBEDDING.submit(aside, [query.text])
    rows = store.db.read_rows(
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
        embedded = (early.result() if early is not None else store.embedder.embed([query.text]))[0]
        # The vectors came with the candidates: cheaper than a second read for the tied
        # ones after the embedding (harsh context profile, 100k store: 14.1-14.6 ms p50
        # against 17.6-18.1, with the persona index). Embedding the query on another thread
        # beside the scoring measured no faster: on two cores, the model's two threads and
        # the scoring slowed each other down. Only the tied hits get a semantic part: it
        # orders, it never admits.
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


def search(store: Any, request: SearchRequest, *, caller: Caller) -> SearchResponse:
    """Answer ``POST /v1/search``: ranked beliefs with a score breakdown.

    Namespaces the caller may not read are dropped before anything is read.

    >>> search(store, SearchRequest(query="k8s?", namespaces=["domain:code"]),  # doctest: +SKIP
    ...        caller=DEVELOPMENT_CALLER).hits[0].belief.canonical_name
    'kubernetes'

    Raises:
        StoreUnavailable: Neo4j cannot be reached.
    """
    settings = store.settings
    hits = find(
        store,
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
