"""Context assembly and precision search on the real Neo4j with the real model.

The PrecisionMemBench seed is imported once per module under a prefix of its own; each test
class covers one category of the suite's cases, asserting on the layers themselves.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from beliefgraph.access import DEVELOPMENT_CALLER, Caller, Role
from beliefgraph.embeddings import PACKED
from beliefgraph.errors import MalformedDocument
from beliefgraph.importer.documents import (
    Isolation,
    import_documents,
    load_documents,
    parse_documents,
)
from beliefgraph.models import BeliefCreate, Kind
from beliefgraph.search.context import assemble
from beliefgraph.search.context_models import ContextRequest, ContextResponse
from beliefgraph.search.find import TIES
from beliefgraph.store import Store
from tests.conftest import BENCHMARKS

SEED = BENCHMARKS / "precision" / "beliefs.seed.json"


@pytest.fixture(scope="module")
def seeded(store: Store) -> Isolation:
    isolation = Isolation.run(f"t{uuid.uuid4().hex[:8]}")
    report = import_documents(store, load_documents(SEED), isolation=isolation)
    assert report.created == 29
    assert report.supersessions == 4
    return isolation


def ctx(
    store: Store,
    iso: Isolation,
    message: str,
    scope: Sequence[str] = ("domain:code",),
    *,
    user: str = "test-user",
    budget: int | None = None,
    caller: Caller = DEVELOPMENT_CALLER,
) -> ContextResponse:
    request = ContextRequest(
        user=iso.user(user),
        namespaces=[iso.namespace(n) for n in scope],
        message=message,
        budget=budget,
        persona_namespaces=[iso.namespace("user:universal")],
    )
    return assemble(store.db, store.embedder, request, caller=caller)


def ids(iso: Isolation, items: Sequence[Any]) -> list[str]:
    return [iso.original_id(i.belief.id) for i in items]


class TestAliases:
    def test_an_alias_finds_its_belief_and_nothing_else(
        self, store: Store, seeded: Isolation
    ) -> None:
        c = ctx(store, seeded, "what's my k8s deploy story?")
        assert ids(seeded, c.relevant_beliefs) == ["b-kubernetes-entity"]
        assert c.relevant_beliefs[0].belief.why_it_matters

    def test_a_counter_signal_alias_finds_the_belief_that_rejected_it(
        self, store: Store, seeded: Isolation
    ) -> None:
        c = ctx(store, seeded, "suggest a good Mongoose schema for my user model")
        assert ids(seeded, c.relevant_beliefs) == ["b-mongo-raw-driver"]

    def test_six_names_in_one_message_all_surface(self, store: Store, seeded: Isolation) -> None:
        c = ctx(
            store,
            seeded,
            "When our React frontend catches error handling exceptions, how should the "
            "Kubernetes pods running MongoDB TypeScript services report to GitHub Actions?",
        )
        assert set(ids(seeded, c.relevant_beliefs)) == {
            "b-react-entity",
            "b-error-handling",
            "b-ci-gha-entity",
            "b-kubernetes-entity",
            "b-mongo-raw-driver",
            "b-ts-pref",
        }


class TestScopes:
    def test_the_same_name_means_what_the_scope_says(self, store: Store, seeded: Isolation) -> None:
        code = ctx(store, seeded, "What are we using Redis for?", ["domain:code"])
        writing = ctx(store, seeded, "What's Redis doing in chapter three?", ["domain:writing"])
        both = ctx(store, seeded, "What's Redis doing?", ["domain:code", "domain:writing"])
        assert ids(seeded, code.relevant_beliefs) == ["b-redis-code"]
        assert ids(seeded, writing.relevant_beliefs) == ["b-redis-writing"]
        assert set(ids(seeded, both.relevant_beliefs)) == {"b-redis-code", "b-redis-writing"}

    def test_out_of_scope_beliefs_never_surface(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "tell me about Mara")
        assert c.relevant_beliefs == []
        assert "b-protagonist-entity" not in ids(seeded, c.pinned_facts)

    def test_a_caller_never_reads_a_namespace_it_may_not_see(
        self, store: Store, seeded: Isolation
    ) -> None:
        writer = Caller(
            name="w", role=Role.reader, namespaces=frozenset({seeded.namespace("domain:writing")})
        )
        c = ctx(store, seeded, "What are we using Redis for?", caller=writer)
        assert c.relevant_beliefs == []
        assert c.persona_prelude is None  # user:universal is not the caller's either


class TestSupersessionAndResolution:
    def test_a_superseded_chain_never_surfaces(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "ESLint rules and TSLint configuration")
        assert c.relevant_beliefs == []
        assert "b-linting-current" in ids(seeded, c.pinned_facts)
        chain = store.chain(seeded.belief_id("b-linting-v0"))
        assert [seeded.original_id(b.id) for b in chain.beliefs] == [
            "b-linting-v0",
            "b-linting-v1",
            "b-linting-current",
        ]

    def test_a_resolved_question_never_surfaces(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "should we self-host the auth service or go with Fly.io?")
        assert "b-hosting-resolved" not in ids(
            seeded, [*c.relevant_beliefs, *c.open_questions, *c.pinned_facts]
        )


class TestFuzzy:
    @pytest.mark.parametrize(
        ("message", "expected"),
        [
            ("eror handling patterns", ["b-error-handling"]),
            ("typsecript compilation config", ["b-ts-pref"]),
            ("mongod", ["b-mongo-raw-driver"]),
            ("Reedis cache eviction strategy", ["b-redis-code"]),
            ("mango connection pooling", []),
            ("k9s pod scheduling", []),
        ],
    )
    def test_one_edit_behind_the_prefix_guard(
        self, store: Store, seeded: Isolation, message: str, expected: list[str]
    ) -> None:
        assert ids(seeded, ctx(store, seeded, message).relevant_beliefs) == expected


class TestTypeRouting:
    def test_open_questions_have_their_own_layer(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "JWT authentication token strategy")
        assert ids(seeded, c.open_questions) == ["b-auth-open-q"]
        assert "b-auth-open-q" not in ids(seeded, [*c.pinned_facts, *c.relevant_beliefs])

    def test_pinned_facts_without_a_query(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "   ")
        pinned = ids(seeded, c.pinned_facts)
        # the user-confirmed writing preference follows the user into the code scope
        assert set(pinned) == {"b-db-decision", "b-linting-current", "b-prose-style-user-edited"}
        assert pinned[0] == "b-db-decision"  # most recently reinforced first (a tie: confidence)
        assert c.relevant_beliefs == []

    def test_pinned_facts_of_the_writing_scope(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "", ["domain:writing"])
        assert set(ids(seeded, c.pinned_facts)) == {
            "b-narrator-voice",
            "b-protagonist-entity",
            "b-prose-style-user-edited",
        }
        assert ids(seeded, c.open_questions) == ["b-chapter-structure-q"]


class TestBudgets:
    def test_a_budget_at_the_pinned_count_leaves_no_relevant_slot(
        self, store: Store, seeded: Isolation
    ) -> None:
        message = "How should I handle errors in my repository layer?"
        assert ids(seeded, ctx(store, seeded, message).relevant_beliefs) == ["b-error-handling"]
        c = ctx(store, seeded, message, budget=3)
        assert len(c.pinned_facts) == 3
        assert c.relevant_beliefs == []

    def test_a_budget_of_zero_gives_no_beliefs_but_the_prelude_and_questions(
        self, store: Store, seeded: Isolation
    ) -> None:
        c = ctx(store, seeded, "How should I handle errors in my repository layer?", budget=0)
        assert (c.pinned_facts, c.relevant_beliefs) == ([], [])
        assert c.persona_prelude is not None
        assert ids(seeded, c.open_questions) == ["b-auth-open-q"]

    def test_a_preference_survives_forty_newer_observations(
        self, store: Store, ns: str, uid: str
    ) -> None:
        user = f"{uid}-user"
        start = datetime(2026, 1, 1, tzinfo=UTC)
        store.create(
            [
                BeliefCreate(
                    id=f"{uid}-pref",
                    text="Prefers tabs over spaces for indentation in every file.",
                    kind=Kind.preference,
                    canonical_name="indentation_style",
                    aliases=["tabs", "indentation"],
                    user=user,
                    last_reinforced_at=start,
                    namespaces=[ns],
                )
            ]
        )
        store.create(
            [
                BeliefCreate(
                    id=f"{uid}-obs{i}",
                    text=f"Day {i}: the user indented file_{i}.py with tabs again.",
                    kind=Kind.observation,
                    aliases=["tabs"],
                    user=user,
                    last_reinforced_at=start + timedelta(days=i + 1),
                    namespaces=[ns],
                )
                for i in range(40)
            ]
        )
        request = ContextRequest(user=user, namespaces=[ns], message="tabs or spaces here?")
        c = assemble(store.db, store.embedder, request, caller=DEVELOPMENT_CALLER)
        kinds = [i.belief.kind for i in c.relevant_beliefs]
        assert f"{uid}-pref" in [i.belief.id for i in c.relevant_beliefs]
        assert kinds.count(Kind.observation) == store.settings.context_kind_budgets["observation"]


class TestPersonaAndUsers:
    def test_the_prelude_is_the_users_universal_preferences(
        self, store: Store, seeded: Isolation
    ) -> None:
        c = ctx(store, seeded, "what's our stack?")
        assert c.persona_prelude is not None
        assert "direct" in c.persona_prelude.text
        assert "preamble" in c.persona_prelude.text
        assert {i.belief.kind for i in c.persona_prelude.beliefs} == {Kind.preference}

    def test_another_users_beliefs_never_leak(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "what language do I write in? Haskell?")
        everything = ids(seeded, [*c.pinned_facts, *c.relevant_beliefs, *c.open_questions])
        assert "b-other-user-leak-check" not in everything
        assert c.persona_prelude is not None
        assert "Haskell" not in c.persona_prelude.text

    def test_the_prelude_is_the_best_live_universal_preferences_among_many(
        self, store: Store, driver: Any, uid: str
    ) -> None:
        user, universal, code = f"{uid}-user", f"tenant:{uid}-u", f"tenant:{uid}-c"
        topics = [
            "tabs for indentation", "dark editor themes", "short commit messages",
            "British spelling", "metric units", "24-hour clocks", "vim keybindings",
            "bullet lists over prose", "morning meetings", "Python type hints",
            "SQL in upper case", "ISO dates", "terse code reviews", "green tea",
            "standing desks", "quiet music", "plain-text email", "late-night deploys",
            "long answers",
        ]  # fmt: skip

        def pref(i: int, confidence: float, namespace: str, **extra: Any) -> BeliefCreate:
            return BeliefCreate(
                id=f"{uid}-p{i}",
                text=f"The user prefers {topics[i]}.",
                kind=Kind.preference,
                confidence=confidence,
                user=user,
                namespaces=[namespace],
                **extra,
            )

        store.create(
            [
                # the most confident ones are elsewhere or resolved: they must not take a place
                *(pref(i, 0.99, code) for i in range(2)),
                pref(2, 0.98, universal, resolved_at=datetime(2026, 1, 1, tzinfo=UTC)),
                pref(17, 0.96, universal, valid_to=datetime(2026, 6, 1, tzinfo=UTC)),  # expired
                pref(18, 1.0, universal, status="inferred"),  # an inference: not the user's word
                # written before search_keys existed (removed below): the graph decides
                pref(3, 0.97, universal),
                *(pref(i, 0.5 + i / 100, universal) for i in range(4, 16)),
                # pinned goes first whatever its confidence; the kinds merge by confidence
                pref(16, 0.3, universal, pinned=True),
                BeliefCreate(
                    id=f"{uid}-d",
                    text="Always answer in English.",
                    kind=Kind.directive,
                    confidence=0.605,
                    user=user,
                    namespaces=[universal],
                ),
            ]
        )
        driver.execute_query("MATCH (b:Belief {id: $id}) REMOVE b.search_keys", id=f"{uid}-p3")
        request = ContextRequest(
            user=user, namespaces=[code], message="", persona_namespaces=[universal]
        )
        c = assemble(store.db, store.embedder, request, caller=DEVELOPMENT_CALLER)
        assert c.persona_prelude is not None
        assert [i.belief.id for i in c.persona_prelude.beliefs] == [
            f"{uid}-p16",
            *(f"{uid}-p{i}" for i in (3, 15, 14, 13, 12, 11)),
            f"{uid}-d",
            f"{uid}-p10",
            f"{uid}-p9",
        ]

    def test_an_unknown_user_gets_empty_layers(self, store: Store, seeded: Isolation) -> None:
        c = ctx(store, seeded, "how should I structure my repository layer?", user="nobody")
        assert c.persona_prelude is None
        assert c.pinned_facts == c.relevant_beliefs == c.open_questions == []


class TestDocumentsImport:
    def test_a_malformed_document_writes_nothing(self, store: Store, tmp_path: Path) -> None:
        prefix = f"t{uuid.uuid4().hex[:8]}."
        good = json.loads(SEED.read_text())[:3]
        bad = dict(good[1], scope=["not a namespace"])
        path = tmp_path / "beliefs.json"
        path.write_text(json.dumps([good[0], bad, good[2]]))
        with pytest.raises(MalformedDocument, match=r"b-comm-pushback.*'scope"):
            import_documents(
                store, load_documents(path), isolation=Isolation(prefix, "." + prefix[:-1])
            )
        assert store.get_many([f"{prefix}{g['_id']}" for g in good]) == []

    def test_an_unknown_replacement_writes_nothing(self, store: Store) -> None:
        prefix = f"t{uuid.uuid4().hex[:8]}."
        docs = json.loads(SEED.read_text())[:2]
        docs[0] = dict(docs[0], superseded_by="b-nowhere", epistemic_status="superseded")
        from beliefgraph.importer.documents import parse_documents

        with pytest.raises(MalformedDocument, match="b-nowhere"):
            import_documents(
                store, parse_documents(docs), isolation=Isolation(prefix, "." + prefix[:-1])
            )
        assert store.get_many([f"{prefix}{d['_id']}" for d in docs]) == []

    def test_reimport_changes_nothing(self, store: Store, seeded: Isolation) -> None:
        report = import_documents(store, load_documents(SEED), isolation=seeded)
        assert (report.created, report.already_present, report.supersessions) == (0, 29, 0)


class TestApi:
    def test_context_over_http(self, client: TestClient, seeded: Isolation) -> None:
        r = client.post(
            "/v1/context",
            json={
                "user": seeded.user("test-user"),
                "namespaces": [seeded.namespace("domain:code")],
                "message": "GHA secrets config",
                "budget": 8,
            },
        )
        assert r.status_code == 200, r.text
        body = r.json()
        assert [seeded.original_id(i["belief"]["id"]) for i in body["relevant_beliefs"]] == [
            "b-ci-gha-entity"
        ]
        assert body["relevant_beliefs"][0]["belief"]["why_it_matters"]
        assert set(body) == {
            "persona_prelude",
            "pinned_facts",
            "relevant_beliefs",
            "open_questions",
        }

    def test_a_negative_budget_is_a_422(self, client: TestClient, seeded: Isolation) -> None:
        r = client.post(
            "/v1/context",
            json={"user": "u", "namespaces": ["domain:code"], "message": "x", "budget": -3},
        )
        assert r.status_code == 422
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["errors"][0]["field"] == "body.budget"

    def test_search_ranks_with_a_breakdown(self, client: TestClient, seeded: Isolation) -> None:
        r = client.post(
            "/v1/search",
            json={
                "query": "explicit error returns in pipe transforms",
                "namespaces": [seeded.namespace("domain:code")],
                "user": seeded.user("test-user"),
            },
        )
        assert r.status_code == 200, r.text
        hits = r.json()["hits"]
        assert {seeded.original_id(h["belief"]["id"]) for h in hits} == {
            "b-functional-pipeline",
            "b-error-handling",
        }
        assert hits[0]["score"] >= hits[1]["score"]
        assert {h["breakdown"]["admitted_by"] for h in hits} == {"alias"}
        assert hits[0]["score"] > hits[1]["score"]
        # no tie to break: the query was not even embedded
        assert [h["breakdown"]["semantic"] for h in hits] == [None, None]

    def test_the_embedding_breaks_a_tie(
        self, client: TestClient, seeded: Isolation, store: Store
    ) -> None:
        query = "What's Redis doing?"
        namespaces = [seeded.namespace("domain:code"), seeded.namespace("domain:writing")]
        body = {"query": query, "namespaces": namespaces, "user": seeded.user("test-user")}
        r = client.post("/v1/search", json=body)
        hits = r.json()["hits"]
        assert hits[0]["score"] == hits[1]["score"]
        first, second = (h["breakdown"]["semantic"] for h in hits)
        assert first is not None
        assert second is not None
        assert first >= second
        # the semantic part is what Neo4j's own cosine says of the stored vectors
        with store.db.driver.session(database=store.db.database) as session:
            neo4j_says = dict(
                session.run(
                    "UNWIND $ids AS id MATCH (b:Belief {id: id}) "
                    "RETURN id, vector.similarity.cosine(b.embedding, $vector)",
                    ids=[h["belief"]["id"] for h in hits[:2]],
                    vector=store.embedder.embed([query])[0],
                ).values()
            )
        assert [round(neo4j_says[h["belief"]["id"]], 4) for h in hits[:2]] == [first, second]
        # the candidates' vectors travel as embedding_f32 bytes: the vector property's numbers
        ids = [h["belief"]["id"] for h in hits]
        with store.db.driver.session(database=store.db.database) as session:
            for vector, packed in session.run(
                "UNWIND $ids AS id MATCH (b:Belief {id: id}) RETURN b.embedding, b.embedding_f32",
                ids=ids,
            ).values():
                assert np.frombuffer(packed, dtype=PACKED).tolist() == vector
            # a belief written before there were bytes is read through its list: same answer
            session.run(
                "UNWIND $ids AS id MATCH (b:Belief {id: id}) REMOVE b.embedding_f32", ids=ids
            ).consume()
        assert client.post("/v1/search", json=body).json()["hits"] == hits
        # once ties are the rule here, the query is embedded beside the read: same answer
        for _ in range(3):
            assert client.post("/v1/search", json=body).json()["hits"] == hits
        assert TIES.likely(seeded.user("test-user"), namespaces)

    def test_search_without_a_user_still_stays_in_its_namespaces(
        self, client: TestClient, seeded: Isolation, ns: str
    ) -> None:
        r = client.post("/v1/search", json={"query": "k8s", "namespaces": [ns]})
        assert r.status_code == 200
        assert r.json()["hits"] == []

    def test_bad_search_bodies_name_the_field(self, client: TestClient) -> None:
        r = client.post("/v1/search", json={"query": "x", "namespaces": ["nope"]})
        assert r.status_code == 422
        assert r.json()["errors"][0]["field"].startswith("body.namespaces")
        r = client.post("/v1/search", json={"query": "x", "namespaces": ["user:a"], "limit": 0})
        assert r.json()["errors"][0]["field"] == "body.limit"


class TestImportCommand:
    def test_import_beliefs_from_the_command_line(
        self, store: Store, tmp_path: Path, ns: str, uid: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        from beliefgraph.cli.parser import main

        doc = [
            {
                "_id": f"{uid}-new",
                "user_id": uid,
                "type": "decision",
                "canonical_name": "linter",
                "aliases": ["Biome"],
                "content": "Lints with Biome.",
                "scope": [ns],
            },
            {
                "_id": f"{uid}-old",
                "user_id": uid,
                "type": "decision",
                "canonical_name": "linter_old",
                "content": "Linted with ESLint.",
                "scope": [ns],
                "epistemic_status": "superseded",
                "superseded_by": f"{uid}-new",
            },
        ]
        path = tmp_path / "beliefs.json"
        path.write_text(json.dumps(doc))
        assert main(["import", "beliefs", str(path)]) == 0
        out = json.loads(capsys.readouterr().out)
        assert (out["created"], out["supersessions"]) == (2, 1)
        assert store.get(f"{uid}-old").status == "superseded"
        assert store.chain(f"{uid}-old").head == f"{uid}-new"
        assert main(["import", "beliefs", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["already_present"] == 2

        doc[0]["type"] = "opinion"
        path.write_text(json.dumps(doc))
        assert main(["import", "beliefs", str(path)]) == 1
        assert f"belief '{uid}-new': field 'type'" in capsys.readouterr().err


def test_a_relation_brings_the_beliefs_it_links(store: Store, uid: str) -> None:
    user, scope = f"{uid}-user", f"domain:{uid}"
    seed = [
        {
            "_id": f"{uid}-api",
            "user_id": user,
            "type": "entity",
            "canonical_name": "billing_api",
            "content": "The billing API is written in Go.",
            "scope": [scope],
        },
        {
            "_id": f"{uid}-team",
            "user_id": user,
            "type": "entity",
            "canonical_name": "payments_team",
            "content": "The payments team is four people in Lisbon.",
            "scope": [scope],
        },
        {
            "_id": f"{uid}-elsewhere",
            "user_id": user,
            "type": "entity",
            "canonical_name": "payments_office",
            "content": "Rented desks.",
            "scope": [f"{scope}x"],
        },
        {
            "_id": f"{uid}-owns",
            "user_id": user,
            "type": "relation",
            "canonical_name": "ownership_of_billing",
            "aliases": ["owns billing"],
            "content": "The payments team owns the billing API.",
            "scope": [scope],
            "participants": [f"{uid}-team", f"{uid}-api", f"{uid}-elsewhere"],
        },
    ]
    report = import_documents(store, parse_documents(seed))
    assert report.relations == 3
    request = ContextRequest(user=user, namespaces=[scope], message="who owns billing?")
    c = assemble(store.db, store.embedder, request, caller=DEVELOPMENT_CALLER)
    # the relation, then what it links in the turn's scope (not the belief outside it)
    assert [i.belief.id for i in c.relevant_beliefs] == [f"{uid}-owns", f"{uid}-api", f"{uid}-team"]
    again = import_documents(store, parse_documents(seed))
    assert (again.created, again.relations) == (0, 3)  # MERGE: no second edge
