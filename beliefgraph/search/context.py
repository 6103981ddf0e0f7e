"""Layered context for the start of an agent's turn (DESIGN §4, ``POST /v1/context``).

Given a user, the turn's namespaces and the message, :func:`assemble` returns

- **persona prelude**: the user's universal preferences (``Settings.context_persona_namespaces``),
  as one text to put first and as the beliefs behind it (never an inference); ``None`` when
  there are none;
- **pinned facts**: the user's pinned beliefs of the turn's scope, and pinned beliefs the
  user confirmed themselves in any namespace the caller may read (what the user said
  follows them), most recently reinforced first;
- **relevant beliefs**: what precision-first search (:mod:`beliefgraph.search`) admits for
  the message, minus what is already above, each kind within its own read budget so a
  frequent writer (daily observations) cannot push out what the user said; then, for each
  ``relation`` among them, the beliefs it links (``RELATES``, one hop, in the turn's scope);
- **open questions**: pinned open questions of the scope, then those the message names.

Every item carries ``why_it_matters``. Superseded, retracted, archived, resolved and expired
(``valid_to`` passed) beliefs never appear; another user's beliefs are never read. An unknown
user gets empty layers, not an error. ``budget`` caps pinned facts plus relevant beliefs
(pinned first); a budget of 0 leaves both empty and searches nothing, as PrecisionMemBench's
harness reads a zero budget (the prelude and pinned open questions are not counted).

>>> assemble(db, embedder, ContextRequest(user="me", namespaces=["domain:code"],   # doctest: +SKIP
...                                message="what are we using Redis for?"),
...          caller=DEVELOPMENT_CALLER).relevant_beliefs[0].belief.canonical_name
'redis_cache'
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from beliefgraph.access import Caller
from beliefgraph.db import Db
from beliefgraph.embeddings import Embedder
from beliefgraph.index_keys import namespace_key
from beliefgraph.keys import raise_for_state
from beliefgraph.models import Kind
from beliefgraph.search.context_models import (
    BeliefBrief,
    ContextItem,
    ContextRequest,
    ContextResponse,
    PersonaPrelude,
    SearchHit,
)
from beliefgraph.search.find import brief_from_map, find, reinforced_order
from beliefgraph.search.query import SURFACING_STATUSES, analyze

#: kinds that make up the persona prelude
PERSONA_KINDS = (Kind.preference.value, Kind.directive.value)
# One small pool per process for the search half of a context request (I/O-bound: it waits
# on Neo4j), so the two reads of a request overlap.
_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="context-search")


def assemble(
    db: Db, embedder: Embedder, request: ContextRequest, *, caller: Caller
) -> ContextResponse:
    """Build the layered context of one turn.

    Args:
        db: runs the reads; its settings hold the layer limits.
        embedder: embeds the message when the search needs it.
        request: who, which namespaces, the message, an optional budget.
        caller: who asks; namespaces it may not read are dropped before anything is read.

    Returns:
        The four layers (see the module docstring).

    Raises:
        StoreUnavailable: Neo4j cannot be reached.
        Unauthenticated: the caller's key, recognised from memory by the API
            (``Caller.unconfirmed_key``), was revoked since; the layers' read confirms it.
    """
    settings = db.settings
    namespaces = caller.visible(request.namespaces)
    persona_namespaces = caller.visible(
        request.persona_namespaces
        if request.persona_namespaces is not None
        else settings.context_persona_namespaces
    )
    # The search and the layers are independent reads: run them side by side.
    query = analyze(request.message)
    searching: Future[list[SearchHit]] | None = None
    if not query.empty and namespaces and request.budget != 0:
        # Search embeds the query only to break ties of lexical evidence: beside its read
        # where ties have been the rule lately, after the read shows one otherwise
        # (search.TieForecast). Embedding beside the reads on every request kept the two
        # cores busy with the model while Neo4j served the reads. (Running the search here
        # and the layers' read on the pool instead measured the same.)
        searching = _POOL.submit(
            find,
            db,
            embedder,
            query,
            namespaces,
            user=request.user,
            # room for hits that turn out to be shown in another layer already
            limit=(request.budget or settings.context_relevant_limit)
            + settings.context_persona_limit
            + settings.context_pinned_limit
            + settings.context_questions_limit,
            kind_budgets=settings.context_kind_budgets,
            default_kind_budget=settings.context_default_kind_budget,
            candidate_budget=settings.search_candidate_budget,
            fetch=settings.search_fetch,
            visible=caller.namespaces,
        )
    records = db.run_read(
        "context_layers",
        user=request.user,
        namespaces=namespaces,
        persona_namespaces=persona_namespaces,
        persona_keys=[namespace_key(ns) for ns in persona_namespaces],
        persona_kinds=list(PERSONA_KINDS),
        visible=sorted(caller.namespaces) if caller.namespaces is not None else None,
        statuses=list(SURFACING_STATUSES),
        persona_limit=settings.context_persona_limit,
        pinned_limit=settings.context_pinned_limit,
        questions_limit=settings.context_questions_limit,
        key=caller.unconfirmed_key,
    )
    # A key revoked since the API recognised it: refused before anything found is used. The
    # search beside this read may have read beliefs; none of them leaves this function, and
    # the search is left to finish on the pool (its result, or error, is dropped).
    raise_for_state(records[0]["key_state"] if records else None)
    layers: dict[str, list[BeliefBrief]] = {"persona": [], "pinned": [], "question": []}
    for layer, belief, namespaces in records[0]["rows"]:
        layers[layer].append(brief_from_map(belief, namespaces, caller.namespaces))

    persona = layers["persona"]
    pinned = reinforced_order(layers["pinned"])
    questions = reinforced_order(layers["question"])
    if request.budget is not None:
        pinned = pinned[: request.budget]
        relevant_slots = request.budget - len(pinned)
    else:
        relevant_slots = settings.context_relevant_limit

    seen = {b.id for b in (*persona, *pinned, *questions)}
    relevant: list[ContextItem] = []
    if searching is not None:
        for hit in searching.result():
            if hit.belief.id in seen:
                continue
            seen.add(hit.belief.id)
            if hit.belief.kind == Kind.open_question:
                if len(questions) < settings.context_questions_limit:
                    questions.append(hit.belief)
            elif len(relevant) < relevant_slots:
                relevant.append(ContextItem(belief=hit.belief, score=hit.score))
    relations = [i.belief.id for i in relevant if i.belief.kind == Kind.relation]
    if relations and len(relevant) < relevant_slots:
        for belief, belief_namespaces in db.read_rows(
            "context_participants",
            ids=relations,
            user=request.user,
            namespaces=namespaces,
            statuses=list(SURFACING_STATUSES),
        ):
            brief = brief_from_map(belief, belief_namespaces, caller.namespaces)
            if brief.id not in seen and len(relevant) < relevant_slots:
                seen.add(brief.id)
                relevant.append(ContextItem(belief=brief))

    prelude = (
        PersonaPrelude(
            text="\n".join(b.text for b in persona),
            beliefs=[ContextItem(belief=b) for b in persona],
        )
        if persona
        else None
    )
    return ContextResponse(
        persona_prelude=prelude,
        pinned_facts=[ContextItem(belief=b) for b in pinned],
        relevant_beliefs=relevant,
        open_questions=[ContextItem(belief=b) for b in questions],
    )
