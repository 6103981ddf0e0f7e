"""Settings: one pydantic-settings class, read from the environment once and cached.

Environment variables use the ``BELIEFGRAPH_`` prefix (``BELIEFGRAPH_MAX_TEXT_LENGTH``);
the Neo4j connection also accepts the conventional ``NEO4J_URI``, ``NEO4J_USER`` and
``NEO4J_PASSWORD`` so an Aura or cluster URI can be dropped in unchanged.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, BaseModel, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: the password the project's own launcher never uses (auth is off there); any
#: deployment that needs a password must set a real one
PLACEHOLDER_PASSWORDS = frozenset({"", "neo4j", "password", "changeme"})


def default_cache_dir() -> Path:
    """Where downloads (Neo4j jars, the exported ONNX model) are kept, outside any checkout."""
    return Path.home() / ".cache" / "beliefgraph"


class Neo4jSettings(BaseModel):
    """How to reach Neo4j. The default is the server ``beliefgraph neo4j start`` runs."""

    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr = SecretStr("")
    database: str = "neo4j"
    #: seconds to open a connection: TCP and the Bolt handshake
    connect_timeout: float = 2.0
    #: seconds to get a connection from the pool, opening one included
    acquire_timeout: float = 3.0
    #: seconds a transaction is retried on transient errors (a lost connection, a deadlock)
    retry_seconds: float = 3.0


class Settings(BaseSettings):
    """Every knob of the service. Build with :func:`get_settings`; override in tests."""

    model_config = SettingsConfigDict(
        env_prefix="BELIEFGRAPH_",
        env_nested_delimiter="__",
        extra="ignore",
    )

    environment: Literal["development", "production"] = "development"

    neo4j_uri: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_URI", "BELIEFGRAPH_NEO4J_URI")
    )
    neo4j_user: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_USER", "BELIEFGRAPH_NEO4J_USER")
    )
    neo4j_password: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("NEO4J_PASSWORD", "BELIEFGRAPH_NEO4J_PASSWORD"),
    )
    neo4j_database: str = Field(
        default="neo4j",
        validation_alias=AliasChoices("NEO4J_DATABASE", "BELIEFGRAPH_NEO4J_DATABASE"),
    )
    #: every wait on Neo4j is bounded: a connection, one from the pool, a transaction's retries
    neo4j_connect_timeout: float = Field(default=2.0, gt=0, le=120)
    neo4j_acquire_timeout: float = Field(default=3.0, gt=0, le=120)
    neo4j_retry_seconds: float = Field(default=3.0, ge=0, le=300)
    #: longest a write waits for other writes of this process to the same namespaces
    write_queue_timeout: float = Field(default=30.0, gt=0, le=600)

    cache_dir: Path = Field(default_factory=default_cache_dir)

    #: longest accepted ``text`` / ``why_it_matters`` (characters)
    max_text_length: int = Field(default=4000, gt=0)
    #: largest accepted request body (bytes)
    max_body_bytes: int = Field(default=1_000_000, gt=0)
    #: most beliefs in one batch write
    max_batch_size: int = Field(default=1000, gt=0)
    #: largest page of ``GET /v1/beliefs``
    max_page_size: int = Field(default=500, gt=0)

    # -- search and context assembly (beliefgraph/search/) --
    #: most candidates search scores per kind and per source (names, canonical, text)
    search_candidate_budget: int = Field(default=20, gt=0)
    #: best full-text hits read per source (the index already keeps to the scope)
    search_fetch: int = Field(default=100, gt=0)
    #: where a user's universal preferences live: the persona prelude reads them
    context_persona_namespaces: list[str] = Field(default_factory=lambda: ["user:universal"])
    #: most beliefs per context layer
    context_persona_limit: int = Field(default=10, gt=0)
    context_pinned_limit: int = Field(default=20, gt=0)
    context_questions_limit: int = Field(default=10, gt=0)
    context_relevant_limit: int = Field(default=10, gt=0)
    #: read budget per kind among relevant beliefs, so a frequent writer (daily
    #: observations) cannot push out what the user said; other kinds get the default
    context_kind_budgets: dict[str, int] = Field(
        default_factory=lambda: {"observation": 3, "state": 3, "context": 3, "suggestion": 2}
    )
    context_default_kind_budget: int = Field(default=5, gt=0)

    # -- PrecisionMemBench-compatible endpoints (beliefgraph/compat_pmb.py) --
    #: serve the harness's unauthenticated contract under /compat/precisionmembench
    compat_pmb: bool = False
    #: every namespace the compat router reads, writes or resets starts with this
    compat_pmb_namespace_prefix: str = Field(
        default="tenant:pmb-", pattern=r"^(user|domain|project|tenant):[a-z0-9][a-z0-9._-]{2,23}$"
    )
    #: the role the compat router acts as over those namespaces (the harness sends no key)
    compat_pmb_role: Literal["agent", "curator"] = "curator"

    #: ``keys``: every request needs ``Authorization: Bearer <key>``; ``off``: every request
    #: is an admin over every namespace, allowed only with ``environment=development``
    auth: Literal["keys", "off"] = "keys"

    # -- the curation gate (DESIGN §5); see beliefgraph/gate/ for how each is used --
    #: nearest active neighbours compared with each incoming belief
    gate_neighbours: int = Field(default=10, ge=1, le=100)
    #: near-identical: same content words and at least this cosine -> ``noop``
    gate_noop_similarity: float = Field(default=0.90, ge=0.0, le=1.0)
    #: one text holds all the other's content words, at least this cosine -> ``subsumes``
    gate_subsume_similarity: float = Field(default=0.80, ge=0.0, le=1.0)
    #: related enough that the older belief is redundant -> ``compatible``
    gate_compatible_similarity: float = Field(default=0.80, ge=0.0, le=1.0)
    #: the same statement with a negation added or removed -> ``contradicts``
    gate_polarity_similarity: float = Field(default=0.85, ge=0.0, le=1.0)
    #: same subject and attribute, different value -> ``contradicts`` from this cosine up
    gate_structure_similarity: float = Field(default=0.30, ge=0.0, le=1.0)
    #: plain text naming no subject: a statement that says the same thing changed
    #: (beliefgraph/language/frames.py) contradicts it from this cosine up
    gate_correction_similarity: float = Field(default=0.30, ge=0.0, le=1.0)
    #: plain text naming no subject: the same values said of the same thing in other words
    #: are the same statement from this cosine up
    gate_same_values_similarity: float = Field(default=0.45, ge=0.0, le=1.0)
    #: plain text close in meaning from this cosine up: the same values sharing one word, or
    #: the same names with no value, are the same statement in other words
    gate_restate_similarity: float = Field(default=0.75, ge=0.0, le=1.0)
    #: plain text naming no subject, two beliefs of one kind: the pair model
    #: (beliefgraph/gate/relation.py) reads them from this cosine up
    gate_model_similarity: float = Field(default=0.55, ge=0.0, le=1.0)
    #: a write whose trust is below this share of the old belief's cannot supersede it
    gate_trust_ratio: float = Field(default=0.8, ge=0.0, le=1.0)
    #: ``compatible``: the older belief's importance is multiplied by (1 - penalty)
    gate_redundancy_penalty: float = Field(default=0.05, ge=0.0, le=1.0)
    #: ``contradicts``: the superseded belief's importance is multiplied by this
    gate_supersede_decay: float = Field(default=0.5, ge=0.0, le=1.0)
    #: namespaces up to this many beliefs are scanned exactly; larger ones use the index
    #: (the two cost the same near 1,000-3,000 beliefs: bench/results/write_latency.md)
    gate_exact_scan_limit: int = Field(default=2_000, ge=0)
    #: the index is asked for ``gate_neighbours`` x this many nodes before the namespace filter
    gate_index_overfetch: int = Field(default=20, ge=1)
    #: most belief vectors the gate keeps in memory (float32, 1.5 kB each, and int8 codes of
    #: 384 bytes, beside ~0.8 kB of the belief's id, text and names; matrices grow by
    #: doubling, so up to twice the vectors' share may be allocated) to find
    #: neighbours exactly without reading them back from Neo4j (beliefgraph/gate/vectors.py);
    #: 0 turns it off.
    #: A namespace larger than this is searched as above.
    gate_vector_cache: int = Field(default=200_000, ge=0)
    #: an OpenAI-compatible endpoint (``http://host:port/v1``) for the LLM classifier; unset:
    #: the deterministic classifier decides alone
    gate_llm_url: str | None = None
    gate_llm_model: str = "gpt-4o-mini"
    gate_llm_api_key: SecretStr | None = None
    #: seconds to wait for the LLM before the deterministic classifier decides instead
    gate_llm_timeout: float = Field(default=5.0, gt=0.0)

    @property
    def neo4j(self) -> Neo4jSettings:
        """The Neo4j connection, defaults filled in."""
        return Neo4jSettings(
            uri=self.neo4j_uri or Neo4jSettings().uri,
            user=self.neo4j_user or "neo4j",
            password=self.neo4j_password or SecretStr(""),
            database=self.neo4j_database,
            connect_timeout=self.neo4j_connect_timeout,
            acquire_timeout=self.neo4j_acquire_timeout,
            retry_seconds=self.neo4j_retry_seconds,
        )

    @model_validator(mode="after")
    def _no_placeholder_secret_in_production(self) -> Settings:
        password = self.neo4j_password.get_secret_value() if self.neo4j_password else ""
        if self.environment == "production" and password in PLACEHOLDER_PASSWORDS:
            raise ValueError(
                "NEO4J_PASSWORD is empty or a placeholder; set a real password "
                "or BELIEFGRAPH_ENVIRONMENT=development"
            )
        return self

    @model_validator(mode="after")
    def _plain_text_thresholds_in_order(self) -> Settings:
        # a change announced is read from the lowest cosine, the same values in other words
        # from a higher one, and one shared word from the highest: out of order, one setting
        # would silently undo another
        order = (
            self.gate_correction_similarity,
            self.gate_same_values_similarity,
            self.gate_restate_similarity,
        )
        if list(order) != sorted(order):
            raise ValueError(
                "BELIEFGRAPH_GATE_CORRECTION_SIMILARITY <= BELIEFGRAPH_GATE_SAME_VALUES_SIMILARITY"
                " <= BELIEFGRAPH_GATE_RESTATE_SIMILARITY is required"
            )
        return self

    @model_validator(mode="after")
    def _auth_off_only_in_development(self) -> Settings:
        if self.auth == "off" and self.environment != "development":
            raise ValueError(
                "BELIEFGRAPH_AUTH=off is a development setting; "
                "it needs BELIEFGRAPH_ENVIRONMENT=development"
            )
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings, read from the environment on first call."""
    return Settings()
