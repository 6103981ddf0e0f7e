"""PrecisionMemBench's provider contract, spoken natively (served by ``api/routes/compat_pmb.py``).

PrecisionMemBench's public harness scores a memory provider through five calls: ``reset``,
``add``, ``update``, ``search`` and ``wait``. This module maps them onto beliefgraph:

- **Where.** Every harness user gets namespaces of its own under
  ``Settings.compat_pmb_namespace_prefix`` (default ``tenant:pmb-``): a belief of user
  ``test-user`` with scope ``domain:code`` lives in ``tenant:pmb-test-user.domain-code`` and
  belongs to user ``pmb-test-user``. Nothing outside those namespaces is read or written; the
  router acts as a caller of role ``Settings.compat_pmb_role`` over them only.
- **add / update.** ``metadata.beliefId`` is kept as the id search returns (stored as
  ``pmb-<user>.<beliefId>``). The text the harness sends is the canonical name, the aliases,
  the content and why-it-matters joined by spaces; the canonical name (a snake_case word
  first) and the aliases are taken off the front, so they are matched as names, not as text.
  ``type`` → kind, ``pinned``, ``confidence``, ``last_reinforced_at``, ``resolved_at``,
  ``superseded_by`` (a ``SUPERSEDES`` edge as soon as both beliefs are stored; until then
  the old one is archived, never surfacing), ``user_edited`` → confirmed; every other
  metadata field is kept in ``attributes``. ``add`` with a stored ``beliefId`` replaces that
  belief (an upsert); ``update`` of an unknown one is :class:`~beliefgraph.errors.NotFound`.
  New beliefs pass the curation gate like every write.
- **search** answers with the beliefs the query names: :func:`beliefgraph.search.find.find` (the
  code of ``POST /v1/search``) over the user's namespace of that scope, open questions
  excepted, at most ``limit``, best first. The harness lists pinned facts, pinned open
  questions and the persona itself, from its own copy of the seed, and counts anything else
  ``/search`` returns as a claim of relevance: nothing comes back for being pinned, a
  preference or a question. The router answers a search after the writes of its user that
  arrived before it (the harness does not always wait for an update before searching).
- **update** without an ``aliases`` field (the harness's session adapter sends new aliases
  only inside the text) reads them from between the canonical name and the stored text.
- **reset** deletes the beliefs whose every namespace is a compat namespace: the one
  physical delete in beliefgraph, because the harness needs an empty store between suites.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from neo4j import ManagedTransaction
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)

from beliefgraph.access import Caller, Role, as_written_by, write_refusal
from beliefgraph.errors import Forbidden, InvalidInput, NotFound
from beliefgraph.models import (
    BELIEF_ID_PATTERN,
    AttributeValue,
    BeliefCreate,
    EntityRef,
    EpistemicStatus,
    Instant,
    Kind,
    Status,
    WritePath,
)
from beliefgraph.search.context_models import MAX_MESSAGE_LENGTH
from beliefgraph.search.find import find, kinds_except
from beliefgraph.search.query import STOPWORDS, analyze
from beliefgraph.text import entity_key, tokenize

_SLUG = re.compile(r"[^a-z0-9]+")
_SNAKE = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
#: punctuation trimmed off an alias word read from the text ("(allkeys-lru)," -> "allkeys-lru")
_EDGE_PUNCTUATION = re.compile(r"^[^\w@]+|[^\w]+$")
#: metadata fields that map onto belief fields; the rest are kept in ``attributes``
_MAPPED = {
    "beliefId",
    "scope",
    "type",
    "pinned",
    "superseded_by",
    "resolved_at",
    "user_edited",
    "confidence",
    "last_reinforced_at",
}
#: the longest namespace name after its ``kind:`` (models.NAMESPACE_PATTERN)
_NAMESPACE_ROOM = 64
#: the most namespaces one belief may be in (as for every belief)
_MAX_SCOPES = 20
ACTOR = "compat:precisionmembench"


def _harness_id(value: str) -> str:
    if not re.match(BELIEF_ID_PATTERN, value):
        raise ValueError(
            "letters, digits, '.', '_', ':', '-' only, starting with one of the first two"
        )
    return value


#: a harness's belief id, as it goes into a stored id
HarnessId = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_harness_id)]


class Metadata(BaseModel):
    """The harness's metadata: ``beliefId`` and ``scope`` at least; unknown fields kept."""

    model_config = ConfigDict(extra="allow")

    beliefId: HarnessId  # noqa: N815  (the harness's name)
    scope: str | list[str] = Field(min_length=1)
    type: str | None = None
    pinned: bool = False
    superseded_by: str | None = None
    resolved_at: Instant | None = None
    user_edited: bool = False
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    last_reinforced_at: Instant | None = None

    @field_validator("scope")
    @classmethod
    def _scopes(cls, value: str | list[str]) -> str | list[str]:
        scopes = [value] if isinstance(value, str) else value
        if not scopes or len(scopes) > _MAX_SCOPES or not all(_slug(s) for s in scopes):
            raise ValueError(f"1 to {_MAX_SCOPES} scopes, each with a letter or digit")
        return value

    def scopes(self) -> list[str]:
        """The scopes as a list."""
        return [self.scope] if isinstance(self.scope, str) else list(self.scope)


class AddRequest(BaseModel):
    """``POST /add``: one belief of one user."""

    model_config = ConfigDict(extra="allow")

    text: str = Field(min_length=1, max_length=20_000)
    user_id: str = Field(min_length=1, max_length=200)
    metadata: Metadata
    aliases: list[str] = Field(default_factory=list, max_length=100)


class UpdateRequest(AddRequest):
    """``PUT /update``: the same body plus the ``beliefId`` to replace."""

    beliefId: HarnessId  # noqa: N815  (the harness's name)


class CompatSearchRequest(BaseModel):
    """``POST /search``."""

    model_config = ConfigDict(extra="allow")

    query: str = Field(max_length=MAX_MESSAGE_LENGTH)
    user_id: str = Field(min_length=1, max_length=200)
    limit: int = Field(default=10, ge=1, le=100)
    scope: str | list[str] | None = None


class SearchResult(BaseModel):
    """One result: the harness's own ``beliefId``, the text it sent, a score (best first)."""

    id: str
    memory: str
    score: float


class CompatSearchResponse(BaseModel):
    """``{"results": [...]}``."""

    results: list[SearchResult]


class Ok(BaseModel):
    """``{"ok": true}``, with the time spent in the database."""

    ok: bool = True
    db_overhead_ms: float | None = None


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")


@dataclass(frozen=True)
class Compat:
    """The compat surface over one store: which namespaces, which caller.

    Args:
        store: a :class:`beliefgraph.store.Store`.
        prefix: every compat namespace starts with it (``tenant:pmb-``).
        role: the role the router acts as (it has no key of its own: the harness sends none).
    """

    store: Any
    prefix: str
    role: Role

    # -- names ------------------------------------------------------------------------------

    def user_key(self, user_id: str) -> str:
        """A namespace-safe key for a harness user: its slug, plus a hash when the slug is
        not the id itself (so ``Test User`` and ``test-user`` stay apart)."""
        slug = _slug(user_id)[:24] or "user"
        if slug != user_id:
            slug = f"{slug}-{hashlib.sha256(user_id.encode()).hexdigest()[:8]}"
        return slug

    @property
    def tag(self) -> str:
        """The prefix without its kind (``pmb-``): it starts every compat user and id, so two
        compat deployments with different prefixes never share a belief."""
        return self.prefix.partition(":")[2]

    def user(self, user_id: str) -> str:
        """The ``user`` of a harness user's beliefs."""
        return f"{self.tag}{self.user_key(user_id)}"

    def home(self, user_id: str) -> str:
        """The namespace every compat namespace of this user starts with."""
        return f"{self.prefix}{self.user_key(user_id)}"

    def namespace(self, user_id: str, scope: str) -> str:
        """The compat namespace of one user and one harness scope.

        Raises:
            InvalidInput: the prefix and user leave no room for the scope in a namespace name.
        """
        home = self.home(user_id)
        room = _NAMESPACE_ROOM - len(home.partition(":")[2]) - 1
        if room < 8:
            raise InvalidInput("user_id is too long for a compat namespace", field="user_id")
        scope_slug = _slug(scope)
        if len(scope_slug) > room:
            digest = hashlib.sha256(scope.encode()).hexdigest()[:8]
            scope_slug = f"{scope_slug[: room - 9]}-{digest}"
        return f"{home}.{scope_slug}"

    def belief_id(self, user_id: str, belief_id: str) -> str:
        """The stored id of a harness belief id (at most 24 + 33 + 1 + 64 characters)."""
        return f"{self.user(user_id)}.{belief_id}"

    def caller(self, namespaces: Sequence[str]) -> Caller:
        """The caller the router acts as, over these compat namespaces only."""
        for ns in namespaces:
            if not ns.startswith(self.prefix):
                raise InvalidInput(f"{ns!r} is not a compat namespace", field="scope")
        return Caller(name=ACTOR, role=self.role, namespaces=frozenset(namespaces))

    def persona_namespaces(self, user_id: str) -> list[str]:
        """The server's persona namespaces, mapped into this user's compat namespaces."""
        return [
            self.namespace(user_id, ns) for ns in self.store.settings.context_persona_namespaces
        ]

    # -- writes -----------------------------------------------------------------------------

    def to_belief(
        self, body: AddRequest, stored: StoredNames | None = None
    ) -> tuple[BeliefCreate, str | None]:
        """The belief an ``add`` body describes, and the harness id it is superseded by.

        ``stored`` is what the belief with this ``beliefId`` holds now, if any: a body that
        sends no ``aliases`` field has its aliases read from between the canonical name and
        the stored text (:func:`_names_inside`).

        Raises:
            InvalidInput: what the body describes is no belief (say, a text of spaces).
        """
        meta = body.metadata
        canonical, text = _split_text(body.text, body.aliases)
        aliases = [a.strip() for a in body.aliases if a.strip()][:100]
        if not body.aliases and stored is not None:
            canonical, text, aliases = _names_inside(canonical, text, stored)
        kind = (
            Kind(meta.type)
            if meta.type is not None and meta.type in Kind.__members__
            else Kind.fact
        )
        attributes: dict[str, AttributeValue] = {
            k: _attribute(v) for k, v in (meta.model_extra or {}).items() if k not in _MAPPED
        }
        attributes["memory"] = body.text
        if meta.type is not None and kind.value != meta.type:
            attributes["type"] = meta.type
        superseded = meta.superseded_by
        try:
            belief = BeliefCreate(
                id=self.belief_id(body.user_id, meta.beliefId),
                text=text,
                kind=kind,
                # until its replacement is stored, a superseded belief must not surface
                status=Status.archived if superseded else _status(kind),
                canonical_name=canonical,
                aliases=aliases,
                pinned=meta.pinned,
                confidence=meta.confidence,
                last_reinforced_at=meta.last_reinforced_at,
                user=self.user(body.user_id),
                resolved_at=meta.resolved_at,
                attributes=attributes,
                about=[EntityRef(name=canonical, aliases=aliases)]
                if canonical and entity_key(canonical)
                else [],
                namespaces=[self.namespace(body.user_id, s) for s in meta.scopes()],
                # left unset unless the user edited it: the writer's default (reported, or for
                # an agent unverified) stands
                **({"epistemic_status": EpistemicStatus.confirmed} if meta.user_edited else {}),
            )
        # the body passed its own model, but what it maps to can still be no belief: a text
        # of spaces, an alias or a canonical name over 200 characters, too many aliases
        except ValidationError as e:
            error = e.errors()[0]
            where = ".".join(str(part) for part in error["loc"])
            raise InvalidInput(f"the body maps to no belief: {error['msg']}", field=where) from None
        return belief, superseded

    def add(self, body: AddRequest, *, replace_only: bool = False) -> Ok:
        """Store a belief, or replace the stored one with the same ``beliefId``.

        Raises:
            NotFound: ``replace_only`` and no belief has that ``beliefId``.
            InvalidInput: a text is too long for the store.
            Forbidden: acting as an agent, a belief an agent key may not write (pinned, a
                policy, a user edit: see :func:`beliefgraph.access.write_refusal`).
        """
        started = time.perf_counter()
        stored = None
        if not body.aliases:
            found = self.store.db.run_read(
                "compat_pmb_names",
                id=self.belief_id(body.user_id, body.metadata.beliefId),
                prefix=self.prefix,
            )
            stored = StoredNames(**found[0]) if found else None
        belief, superseded_by = self.to_belief(body, stored)
        assert belief.id is not None  # to_belief always names it
        store = self.store
        caller = self.caller(belief.namespaces)
        # acting as an agent, it writes as an agent key would (DESIGN §7)
        refusal = write_refusal(caller, belief)
        if refusal is not None:
            raise Forbidden(refusal[0], field=refusal[1])
        belief = as_written_by(caller, belief)
        [row] = store.prepare([belief], write_path=WritePath.api, actor=ACTOR)
        harness_id = body.metadata.beliefId
        replacement = self.belief_id(body.user_id, superseded_by) if superseded_by else None

        def work(tx: ManagedTransaction) -> bool:
            found = store.db.tx_run(tx, "compat_pmb_lookup", id=belief.id, prefix=self.prefix)
            if found and not found[0]["compat"]:
                raise InvalidInput(
                    f"belief {harness_id!r} exists outside the compat namespaces",
                    field="metadata.beliefId",
                )
            if not found:
                if replace_only:
                    return False
                store.create_in(tx, [row], caller=caller, actor=ACTOR)
            else:
                props = dict(row["props"])
                for key in ("created_at", "reinforcement_count", "write_path", "author", "id"):
                    props.pop(key, None)
                for key in _REPLACEABLE:
                    props.setdefault(key, None)  # what the new body lacks is removed
                store.db.tx_run(
                    tx,
                    "compat_pmb_replace",
                    id=belief.id,
                    props=props,
                    embedding=row["embedding"],
                    embedding_f32=row["embedding_f32"],
                    namespaces=row["namespaces"],
                    about=row["about"],
                )
            store.db.tx_run(
                tx,
                "compat_pmb_link",
                id=belief.id,
                superseded_by=replacement,
                by=ACTOR,
                now=datetime.now(UTC),
            )
            return True

        if not store.db.write(work):
            raise NotFound(f"no belief with beliefId {harness_id!r}", field="beliefId")
        return Ok(db_overhead_ms=round((time.perf_counter() - started) * 1000, 2))

    def reset(self) -> int:
        """Delete every belief whose namespaces are all compat namespaces; return how many."""

        def work(tx: ManagedTransaction) -> int:
            done = self.store.db.tx_run(tx, "compat_pmb_reset", prefix=self.prefix)
            return int(done[0]["deleted"]) if done else 0

        deleted: int = self.store.db.write(work)
        return deleted

    def wait(self, seconds: int = 300) -> None:
        """Return when every index is online."""
        self.store.db.run_read("await_indexes", seconds=seconds)

    # -- reads ------------------------------------------------------------------------------

    def search(self, body: CompatSearchRequest) -> CompatSearchResponse:
        """The beliefs the query names, best first: the code of ``POST /v1/search``.

        The harness builds the other layers of its context itself from its own copy of the
        seed (pinned facts, pinned open questions, the persona), so ``/search`` answers only
        for the relevant layer: what precision-first search admits for the query in the
        turn's scope, never a belief because it is pinned, a preference or a question.
        """
        if body.scope is None:
            persona = set(self.persona_namespaces(body.user_id))
            namespaces = [
                r["name"]
                for r in self.store.db.run_read(
                    "compat_pmb_namespaces", home=self.home(body.user_id) + "."
                )
                if r["name"] not in persona
            ]
        else:
            scopes = [body.scope] if isinstance(body.scope, str) else body.scope
            namespaces = [self.namespace(body.user_id, s) for s in scopes if _slug(s)]
        namespaces = namespaces[:_MAX_SCOPES]
        if not namespaces:
            return CompatSearchResponse(results=[])
        settings = self.store.settings
        caller = self.caller(namespaces)
        hits = find(
            self.store.db,
            self.store.embedder,
            analyze(body.query),
            namespaces,
            user=self.user(body.user_id),
            limit=body.limit,
            kinds=kinds_except(Kind.open_question),
            candidate_budget=settings.search_candidate_budget,
            fetch=settings.search_fetch,
            visible=caller.namespaces,
        )
        prefix = f"{self.user(body.user_id)}."
        return CompatSearchResponse(
            results=[
                SearchResult(
                    id=hit.belief.id.removeprefix(prefix),
                    memory=hit.belief.text,
                    score=round(hit.score, 4),
                )
                for hit in hits
            ]
        )


#: belief properties an update may change (a missing one is removed)
_REPLACEABLE = (
    "text",
    "kind",
    "status",
    "epistemic_status",
    "canonical_name",
    "aliases",
    "aliases_text",
    "pinned",
    "resolved_at",
    "confidence",
    "last_reinforced_at",
    "attributes_json",
    "why_it_matters",
)


def _status(kind: Kind) -> Status:
    return Status.exploratory if kind == Kind.open_question else Status.active


def _split_text(text: str, aliases: Sequence[str]) -> tuple[str | None, str]:
    """Take the canonical name and the aliases off the front of the harness's joined text."""
    text = " ".join(text.split())
    head, _, rest = text.partition(" ")
    canonical = head if _SNAKE.match(head) and rest else None
    if canonical is None:
        return None, text
    joined = " ".join(" ".join(a.split()) for a in aliases if a.strip())
    if joined and rest.startswith(joined + " "):
        rest = rest[len(joined) + 1 :]
    return canonical, rest.strip() or text


@dataclass(frozen=True)
class StoredNames:
    """A stored compat belief's names and text (``cypher/compat_pmb_names.cypher``)."""

    canonical_name: str | None
    aliases: list[str]
    text: str


def _names_inside(
    canonical: str | None, rest: str, stored: StoredNames
) -> tuple[str | None, str, list[str]]:
    """The canonical name, text and aliases of a body that sends its aliases only inside its
    text, as the harness's session adapter does when it adds aliases to a stored belief:
    ``canonical name, aliases..., content and why-it-matters``, joined by spaces.

    When the text is the stored canonical name, then words, then the stored text, those words
    are the aliases: the stored aliases first (kept whole, when they lead), then the new ones.
    Where one new alias ends and the next begins is not in the text, so each new word that is
    not a function word becomes an alias of its own ("eviction policy" is found by
    "eviction"). Any other text is taken as it came, with no aliases.

    >>> _names_inside("redis_cache", "Redis allkeys-lru eviction policy Used as a cache.",
    ...               StoredNames("redis_cache", ["Redis"], "Used as a cache."))
    ('redis_cache', 'Used as a cache.', ['Redis', 'allkeys-lru', 'eviction', 'policy'])
    """
    if canonical != stored.canonical_name or not rest.endswith(stored.text):
        return canonical, rest, []
    inside = rest[: len(rest) - len(stored.text)].split()
    joined = " ".join(stored.aliases).split()
    kept: list[str] = []
    if joined and inside[: len(joined)] == joined:
        kept, inside = list(stored.aliases), inside[len(joined) :]
    known = {a.casefold() for a in kept}
    for word in inside:
        name = _EDGE_PUNCTUATION.sub("", word)
        if name and name.casefold() not in known and not set(tokenize(name)) <= STOPWORDS:
            known.add(name.casefold())
            kept.append(name)
    return canonical, stored.text, kept[:100]


def _attribute(value: Any) -> AttributeValue:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list) and all(
        v is None or isinstance(v, str | int | float | bool) for v in value
    ):
        return list(value)
    return json.dumps(value, sort_keys=True, default=str)
