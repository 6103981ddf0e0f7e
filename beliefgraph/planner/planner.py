"""The query planner: which stored belief governs a request, and what may the agent do.

:class:`Planner` takes the query runner (:class:`~beliefgraph.db.Db`) and an embedder, and
answers a :class:`~beliefgraph.planner.models.QueryRequest` in three steps:

1. **Discovery** (``planner_candidates``): vector similarity, full-text, and exact
   entity/alias matches, all inside the caller's namespaces; small namespaces are scored
   exactly, large ones through the over-fetched vector index.
2. **Graph walk** (the same query, one round trip): from the query's terms to ``Entity``
   nodes, to the ``Scope`` nodes that ``COVER`` them, to the beliefs that ``GOVERN`` those
   scopes; for every candidate its entities, scope, ``OVERRIDES`` and ``NARROWS`` edges,
   and the head of its ``SUPERSEDES`` chain.
3. **Decision** (:func:`beliefgraph.planner.precedence.decide`): lanes, precedence, supersession,
   fallback and the action class; the governing belief's open contests (live beliefs that
   ``CONTRADICT`` it, kept from superseding it by the gate's guards) are reported with it.

The API route, the CLI and the evaluation all call :meth:`Planner.query`.

>>> planner = Planner(store.db, store.embedder)                           # doctest: +SKIP
>>> result = planner.query(QueryRequest(query="what's the office wifi password?",
...                                     namespaces=["user:me"]))          # doctest: +SKIP
>>> result.action, result.governing.id                                    # doctest: +SKIP
(<ActionClass.verify_first: 'verify_first'>, 'wifi-rotated')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from beliefgraph.access import DEVELOPMENT_CALLER, Caller
from beliefgraph.db import Db
from beliefgraph.embeddings import Embedder, Vector
from beliefgraph.keys import confirm, raise_for_state
from beliefgraph.language.scopes import STRONG
from beliefgraph.language.stakes import request_acts
from beliefgraph.language.words import STOPWORDS, Terms, fold_plural
from beliefgraph.models import ActionClass, BeliefPublic, ChainLink
from beliefgraph.planner.actions import Actions, default_actions
from beliefgraph.planner.assess import Assessment, Candidate, Decision
from beliefgraph.planner.candidates import CandidateRow, contest_from_map, planner_rows
from beliefgraph.planner.cautions import figure_at_stake
from beliefgraph.planner.models import (
    CandidateTrace,
    Contest,
    Edge,
    NamespaceReport,
    QueryRequest,
    QueryResult,
    QueryTrace,
    ScopeTrace,
)
from beliefgraph.planner.precedence import decide
from beliefgraph.planner.ranking import Chooser, Panel, default_ranker
from beliefgraph.records import link_from_map
from beliefgraph.text import tokenize, unique

#: the longest phrase (in words) the query's entity keys are built from
MAX_KEY_WORDS = 4


@dataclass(frozen=True)
class PlannerSettings:
    """How much discovery does. One configuration serves every store and every query.

    Attributes:
        k: hits kept per discovery lane (vector, full-text, each entity walk).
        exact_limit: namespaces holding at most this many beliefs are scored exactly.
        max_fetch: the most index hits read before the namespace filter.
    """

    k: int = 16
    exact_limit: int = 2000
    max_fetch: int = 2000


def query_keys(raw: Sequence[str]) -> list[str]:
    """The entity keys a query of these tokens could name: every 1..4-word run, as written
    and singular."""
    keys: list[str] = []
    for tokens in (list(raw), [fold_plural(t) for t in raw]):
        for n in range(1, MAX_KEY_WORDS + 1):
            for i in range(len(tokens) - n + 1):
                run = tokens[i : i + n]
                if n == 1 and run[0] in STOPWORDS:
                    continue
                keys.append("_".join(run))
    return unique(keys)


def lucene_words(tokens: Sequence[str]) -> str:
    """A query's words (its tokens) as a Lucene OR query ('' when it has none).

    Tokens are ``[a-z0-9]+`` only, so nothing needs escaping; the operators ``AND``/``OR``/
    ``NOT`` are upper-case in Lucene and cannot be formed.
    """
    raw = [t for t in tokens if t not in STOPWORDS and len(t) > 1]
    return " ".join(unique([*raw, *(fold_plural(t) for t in raw)]))


def query_terms(tokens: Sequence[str]) -> list[str]:
    """A query's content words (of its tokens), for a substring scan of a small namespace."""
    return unique(t for t in tokens if t not in STOPWORDS and len(t) > 2)


class Planner:
    """Finds the belief allowed to govern a request.

    Args:
        db: runs the planner's one read (``planner_candidates``).
        embedder: embeds the request.
        settings: discovery limits.
        clock: a monotonic clock in seconds, for the timings.
        ranker: has the last word on who governs; the fitted panel (the trees of
            ``ranker_trees.json`` and the weights of ``ranker.json``) when not given.
        actions: has the last word on the action; the fitted models (``actions.json`` for a
            belief with a hint of its action, ``actions_unhinted.json`` for one without) when
            not given.
    """

    def __init__(
        self,
        db: Db,
        embedder: Embedder,
        settings: PlannerSettings | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        ranker: Chooser | Panel | None = None,
        actions: Actions | None = None,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings or PlannerSettings()
        self.ranker = ranker if ranker is not None else default_ranker()
        self.actions = actions if actions is not None else default_actions()
        self._clock = clock

    def query(self, request: QueryRequest, *, caller: Caller = DEVELOPMENT_CALLER) -> QueryResult:
        """Answer one request.

        Namespaces the caller may not read, and namespaces that hold no beliefs, are left
        out and named in ``trace.namespaces``; when none remains the result is empty
        (``governing`` null, action ``answer_context``) and says why - never an error.

        A caller whose API key the API recognised from memory (``Caller.unconfirmed_key``)
        is confirmed in the same read: a key revoked since gets nothing.

        Returns:
            The :class:`QueryResult`.

        Raises:
            Unauthenticated: the caller's key, recognised from memory, has been revoked or no
                longer exists.
            StoreUnavailable: Neo4j cannot be reached.
            EmbeddingUnavailable: the model cannot be loaded.
        """
        start = self._clock()
        timings: dict[str, float] = {}
        requested = unique(request.namespaces)
        visible = caller.visible(requested)
        not_visible = [ns for ns in requested if ns not in visible]
        if request.action_type is not None:
            kinds = frozenset({request.action_type})
            kinds_source = "given"
        else:
            kinds = request_acts(request.query)
            kinds_source = "inferred"
        tokens = tokenize(request.query)  # the request is tokenized once, here
        read = Terms.of(request.query, tokens)
        terms = list(read.tokens)

        def empty(report: NamespaceReport, why: str, discovery: str) -> QueryResult:
            timings["total"] = self._ms(start)
            action = ActionClass.answer_context
            if report.searched and (figure := figure_at_stake(request.query)) is not None:
                action, why = ActionClass.verify_first, f"{why}, but {figure}: verify_first"
            return QueryResult(
                governing=None,
                action=action,
                reason=why,
                trace=QueryTrace(
                    namespaces=report,
                    action_types=sorted(kinds),
                    action_types_source=kinds_source,
                    terms=terms,
                    discovery=discovery,
                    candidates=[],
                    edges=[],
                    chain=[],
                    chain_links=[],
                    steps=[why],
                ),
                timings=timings,
            )

        if not visible:
            confirm(self.db, caller)
            return empty(
                NamespaceReport(searched=[], not_visible=not_visible, unknown=[]),
                "none of the requested namespaces may be read by this caller",
                "none",
            )

        mark = self._clock()
        [embedding] = self.embedder.embed([request.query])
        timings["embed"] = self._ms(mark)

        mark = self._clock()
        rows = self.db.run_read(
            "planner_candidates",
            namespaces=visible,
            embedding=Vector(embedding),
            k=self.settings.k,
            exact_limit=self.settings.exact_limit,
            max_fetch=self.settings.max_fetch,
            words=lucene_words(tokens),
            terms=query_terms(tokens),
            keys=query_keys(tokens),
            key=caller.unconfirmed_key,
        )
        timings["graph"] = self._ms(mark)
        raise_for_state(rows[0]["key_state"])
        known, size, found = planner_rows(rows[0])
        report = NamespaceReport(
            searched=[ns for ns in visible if ns in known],
            not_visible=not_visible,
            unknown=[ns for ns in visible if ns not in known],
        )
        discovery = (
            f"exact cosine over {size} beliefs"
            if size <= self.settings.exact_limit
            else f"vector index over-fetched for {size} beliefs"
        )
        if not any(extra.ways for _, extra, _ in found):
            why = (
                "the requested namespaces hold no beliefs"
                if not report.searched
                else "no belief in the requested namespaces relates to this request"
            )
            return empty(report, why, discovery)

        mark = self._clock()
        candidates = [c for c, _, _ in found]
        overrides = [(c.id, o) for c, extra, _ in found for o in extra.overrides]
        narrows = [
            (extra.scope_key, s) for _, extra, _ in found if extra.scope_key for s in extra.narrows
        ]
        decision = decide(
            read,
            kinds,
            candidates,
            overrides=overrides,
            narrows=narrows,
            ranker=self.ranker,
            actions=self.actions,
        )
        timings["decide"] = self._ms(mark)

        governing: BeliefPublic | None = None
        chain: list[str] = []
        links: list[ChainLink] = []
        contests: list[Contest] = []
        for c, extra, public in found:
            if c.id == decision.governing:
                governing = public()
                chain = list(extra.chain)
                links = [link_from_map(dict(link)) for link in extra.links]
                contests = sorted(
                    (contest_from_map(dict(m), c.id) for m in extra.contested_by),
                    key=lambda x: x.id,
                )
        timings["total"] = self._ms(start)
        return QueryResult(
            governing=governing,
            action=decision.action,
            reason=decision.reason,
            contests=contests,
            trace=QueryTrace(
                namespaces=report,
                action_types=sorted(kinds),
                action_types_source=kinds_source,
                terms=terms,
                discovery=discovery,
                candidates=[_candidate_trace(a) for a in _ordered(decision)],
                edges=_edges([(c, extra) for c, extra, _ in found]),
                chain=chain,
                chain_links=links,
                steps=list(decision.steps),
            ),
            timings=timings,
        )

    def _ms(self, since: float) -> float:
        return round((self._clock() - since) * 1000, 3)


_OUTCOME_ORDER = {"governs": 0, "lost": 1, "excluded": 2}


def _ordered(decision: Decision) -> list[Assessment]:
    """The winner first, then the losers, then the excluded; by relevance within each."""
    return sorted(
        decision.assessments,
        key=lambda a: (_OUTCOME_ORDER[a.outcome], -a.relevance, a.candidate.id),
    )


def _candidate_trace(a: Assessment) -> CandidateTrace:
    c, scope = a.candidate, a.scope
    scope_trace = (
        ScopeTrace(
            source="governs" if scope.source == "governs" else "derived",
            matched=list(scope.matched),
            specificity=scope.weight,
            strong=scope.weight >= STRONG,
            excluded_by=scope.excluded_by,
            missing_all_terms=list(scope.missing_all),
            action_types=sorted(scope.action_types),
            action_type_match=a.type_match,
            note=a.scope_note,
        )
        if scope is not None
        else ScopeTrace(source="none")
    )
    return CandidateTrace(
        id=c.id,
        text=c.text if len(c.text) <= 240 else c.text[:239] + "\u2026",
        kind=c.kind.value,
        status=c.status.value,
        priority=c.priority.value,
        found_by=sorted(c.found_by),
        similarity=None if c.similarity is None else round(c.similarity, 4),
        relevance=round(a.relevance, 4),
        authority=a.authority,
        directive=a.directive.cue,
        lane=a.lane,
        scope=scope_trace,
        head=c.head,
        contested_by=list(c.contested_by),
        outcome=a.outcome,
        why=a.why,
    )


def _edges(found: Sequence[tuple[Candidate, CandidateRow]]) -> list[Edge]:
    """The relationships the walk followed: to matched entities, scopes, heads, between
    candidates (OVERRIDES, NARROWS), and the CONTRADICTS edges of open contests, in a
    stable order."""
    edges: list[Edge] = []
    for belief, extra in found:
        scope = extra.scope_key
        for key in extra.about_hits:
            edges.append(Edge(source=belief.id, type="ABOUT", target=f"entity:{key}"))
        if scope and extra.scope_hits:
            edges.append(Edge(source=belief.id, type="GOVERNS", target=scope))
            for key in extra.scope_hits:
                edges.append(Edge(source=scope, type="COVERS", target=f"entity:{key}"))
        for link in extra.links:
            edges.append(Edge(source=link["newer"], type="SUPERSEDES", target=link["older"]))
        for other in extra.overrides:
            edges.append(Edge(source=belief.id, type="OVERRIDES", target=other))
        if scope:
            for broad in extra.narrows:
                edges.append(Edge(source=scope, type="NARROWS", target=broad))
        for contester in belief.contested_by:
            edges.append(Edge(source=contester, type="CONTRADICTS", target=belief.id))
        for disputed in extra.disputes:
            edges.append(Edge(source=belief.id, type="CONTRADICTS", target=disputed))
    return list(dict.fromkeys(edges))
