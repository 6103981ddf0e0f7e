"""Precision-first scoring: what admits a belief, what never does, and how hits are ordered."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import UTC, datetime

import numpy as np
import pytest

from beliefgraph.embeddings import packed
from beliefgraph.index_keys import (
    edit_terms,
    name_edits,
    namespace_key,
    text_words,
    user_key,
)
from beliefgraph.models import EpistemicStatus, Kind, Status
from beliefgraph.search.context_models import BeliefBrief, SearchHit
from beliefgraph.search.find import TieForecast, cosine_similarities
from beliefgraph.search.query import (
    MAX_FUZZY_WORDS,
    MAX_QUERY_WORDS,
    Lookups,
    Query,
    analyze,
    coverage_groups,
    fuzzy_equal,
    lookups,
    within_one_edit,
)
from beliefgraph.search.scoring import ranked, weigh
from beliefgraph.text import normalize


def score(q: Query, belief: BeliefBrief, similarity: float | None = None) -> SearchHit | None:
    """What search makes of one belief for ``q``: its evidence, then its hit."""
    evidence = weigh(q, belief.canonical_name, belief.aliases, belief.text)
    return None if evidence is None else evidence.hit(belief, similarity)


def rank(
    q: Query,
    beliefs: Iterable[tuple[BeliefBrief, float | None]],
    *,
    limit: int,
    kind_budgets: dict[str, int] | None = None,
) -> list[SearchHit]:
    """``beliefs`` (each with its similarity, if known) scored and ranked as search does."""
    hits = [hit for b, similarity in beliefs if (hit := score(q, b, similarity)) is not None]
    return ranked(hits, limit=limit, kind_budgets=kind_budgets)


def brief(
    id_: str,
    text: str,
    *,
    canonical: str | None = None,
    aliases: list[str] | None = None,
    kind: Kind = Kind.preference,
    why: str | None = None,
    pinned: bool = False,
    confidence: float = 0.9,
    reinforced: datetime | None = None,
) -> BeliefBrief:
    return BeliefBrief(
        id=id_,
        text=text,
        kind=kind,
        status=Status.active,
        epistemic_status=EpistemicStatus.reported,
        canonical_name=canonical,
        aliases=aliases or [],
        why_it_matters=why,
        pinned=pinned,
        confidence=confidence,
        user="u",
        namespaces=["domain:code"],
        last_reinforced_at=reinforced,
    )


MONGO = brief(
    "mongo",
    "Uses the MongoDB raw driver with explicit Collection types.",
    canonical="mongodb_raw_driver",
    aliases=["MongoDB", "Mongo", "moongoose"],
    why="prevents ORM suggestions such as Mongoose or Prisma",
)
ERRORS = brief(
    "errors",
    "Go-style explicit error returns. Error tuples or Result<T> types.",
    canonical="error_handling_explicit",
    aliases=["error handling", "exceptions", "error"],
)
COMPOSITION = brief(
    "composition",
    "Prefers composition over inheritance. Factory functions, not class hierarchies.",
    canonical="composition_over_inheritance",
    aliases=["base class", "class hierarchies"],
)
TS = brief(
    "ts",
    "Writes TypeScript with strict mode and no implicit any.",
    canonical="language_typescript",
    aliases=["TypeScript", "TS"],
)
K8S = brief(
    "k8s",
    "Deploys services to a Kubernetes cluster on EKS.",
    canonical="kubernetes",
    aliases=["k8s", "kube"],
    kind=Kind.entity,
)
REACT = brief(
    "react",
    "Frontend is React 18 with TanStack Query and Tailwind.",
    canonical="react",
    aliases=["ReactJS", "react.js"],
    why="assume React rather than Vue or Svelte",
    kind=Kind.entity,
)
PIPE = brief(
    "pipe",
    "Uses functional composition patterns with pipe() instead of imperative loops.",
    canonical="functional_pipeline",
    aliases=["pipe", "compose", "fp"],
)


def admitted(query: str, *beliefs: BeliefBrief) -> list[str]:
    q = analyze(query)
    return [b.id for b in beliefs if score(q, b) is not None]


ALL = (MONGO, ERRORS, COMPOSITION, TS, K8S, REACT, PIPE)


def test_analyze_drops_function_words_and_possessives() -> None:
    q = analyze("tell me about Mara's backstory with her father")
    assert q.significant == ("mara", "backstory", "father")
    assert analyze("   ").empty


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("eror", "error", True),  # deletion
        ("reedis", "redis", True),  # insertion
        ("typsecript", "typescript", True),  # neighbours swapped
        ("allkeyslfu", "allkeyslru", True),  # substitution
        ("mongo", "mongo", False),  # equal is not an edit
        ("typscrpt", "typescript", False),  # two edits
    ],
)
def test_within_one_edit(a: str, b: str, expected: bool) -> None:
    assert within_one_edit(a, b) is expected
    assert within_one_edit(b, a) is expected


@pytest.mark.parametrize(
    ("query_word", "name_word", "expected"),
    [
        ("eror", "error", True),
        ("mongod", "mongo", True),
        ("mango", "mongo", False),  # the prefix guard: "ma" is not "mo"
        ("k9s", "k8s", False),  # too short for a typo to be told from another name
        ("mara", "mark", False),  # two four-letter words: a different word, not a typo
        ("would", "world", False),  # function words never match fuzzily
    ],
)
def test_fuzzy_guards(query_word: str, name_word: str, expected: bool) -> None:
    assert fuzzy_equal(query_word, name_word) is expected


def test_plural_s_is_the_same_word_but_class_stays() -> None:
    assert normalize("errors") == "error"
    assert normalize("class") == "class"
    assert normalize("k8s") == "k8s"


def test_aliases_and_counter_signal_aliases_admit() -> None:
    assert admitted("what's my k8s deploy story?", *ALL) == ["k8s"]
    assert admitted("how should I structure my REACTJS components", *ALL) == ["react"]
    # "moongoose" is the counter-signal alias: the rejected ORM finds the raw-driver belief
    assert admitted("suggest a good Mongoose schema for my user model", *ALL) == ["mongo"]


def test_canonical_name_is_a_phrase_not_a_bag_of_words() -> None:
    assert admitted("composition over inheritance, what's our pattern?", *ALL) == ["composition"]
    # one word of a canonical name is not a name: "language", "pipeline", "composition"
    assert admitted("what language do I write in?", *ALL) == []
    assert admitted("how does our data pipeline handle secrets?", *ALL) == []
    assert "composition" not in admitted("use the composition pattern with pipe()", *ALL)
    assert admitted("functional pipeline transforms", *ALL) == ["pipe"]


def test_fuzzy_names_behind_the_prefix_guard() -> None:
    assert admitted("eror handling patterns", *ALL) == ["errors"]
    assert admitted("typsecript compilation config", *ALL) == ["ts"]
    assert admitted("mongod", *ALL) == ["mongo"]
    assert admitted("mango connection pooling", *ALL) == []
    assert admitted("k9s pod scheduling", *ALL) == []


def test_why_it_matters_is_never_matched() -> None:
    assert admitted("Vue component architecture", *ALL) == []
    assert admitted("Prisma migrations", *ALL) == []


def test_text_alone_needs_most_of_the_query() -> None:
    wifi = brief("wifi", "The office Wi-Fi password is tulip-42.", kind=Kind.credential)
    assert admitted("office wifi password?", wifi) == ["wifi"]
    assert admitted("wifi", wifi) == ["wifi"]
    # one word of three is a coincidence, not a match
    assert admitted("what's the guest network password policy?", wifi) == []


def test_breakdown_says_what_admitted_and_what_matched() -> None:
    hit = score(analyze("how do kube pods restart?"), K8S, 0.5)
    assert hit is not None
    assert hit.breakdown.admitted_by == "alias"
    assert hit.breakdown.matched == ["kube"]
    assert hit.breakdown.semantic == 0.5
    assert hit.score == hit.breakdown.total == hit.breakdown.name  # no other evidence


def test_similarity_breaks_ties_only() -> None:
    q = analyze("tabs")
    close = brief("close", "note", aliases=["tabs"])
    far = brief("far", "note", aliases=["tabs"], pinned=True)
    stronger = brief("stronger", "tabs everywhere", aliases=["tabs"])
    hits = rank(q, [(far, 0.1), (close, 0.9), (stronger, 0.0)], limit=3)
    assert [h.belief.id for h in hits] == ["stronger", "close", "far"]


def test_cosine_similarities_are_scaled_as_neo4j_scales_them() -> None:
    rng = np.random.default_rng(7)
    query = rng.normal(size=384)
    stored = {f"b{i}": rng.normal(size=384).tolist() for i in range(5)}
    stored["same"] = (query * 3).tolist()  # the length does not count
    stored["opposite"] = (-query).tolist()
    got = cosine_similarities(query.tolist(), stored)
    assert list(got) == list(stored)
    for id_, vector in stored.items():
        cos = np.dot(vector, query) / (np.linalg.norm(vector) * np.linalg.norm(query))
        assert got[id_] == pytest.approx((1 + cos) / 2, abs=1e-6)
    assert got["same"] == pytest.approx(1.0, abs=1e-6)
    assert got["opposite"] == pytest.approx(0.0, abs=1e-6)
    assert cosine_similarities(query.tolist(), {}) == {}


def test_packed_vectors_give_the_lists_similarities() -> None:
    rng = np.random.default_rng(8)
    query = rng.normal(size=384).tolist()
    lists = {f"b{i}": rng.normal(size=384).astype(np.float32).tolist() for i in range(4)}
    packed_ = {id_: packed(vector) for id_, vector in lists.items()}
    assert cosine_similarities(query, packed_) == cosine_similarities(query, lists)
    # beliefs written before there were bytes come as lists, beside packed ones
    mixed = {"b0": lists["b0"], "b1": packed_["b1"], "b2": lists["b2"], "b3": packed_["b3"]}
    assert cosine_similarities(query, mixed) == cosine_similarities(query, lists)


def test_a_similarity_orders_without_changing_the_score() -> None:
    q = analyze("how do kube pods restart?")
    evidence = weigh(q, K8S.canonical_name, K8S.aliases, K8S.text)
    assert evidence is not None
    plain, ordered = evidence.hit(K8S), evidence.hit(K8S, 0.123456)
    assert plain.breakdown.semantic is None
    assert ordered.breakdown.semantic == 0.1235
    assert ordered.score == plain.score


def test_ties_are_forecast_from_recent_searches_of_the_same_user_and_namespaces() -> None:
    ties = TieForecast(weight=0.5, threshold=0.5, capacity=2)
    assert not ties.likely("u", ["a", "b"])  # nothing seen: embed only once a tie shows
    ties.observe("u", ["b", "a"], tied=True)
    assert ties.likely("u", ["a", "b"])  # the namespaces' order does not matter
    assert not ties.likely("v", ["a", "b"])
    assert not ties.likely("u", ["a"])
    ties.observe("u", ["a", "b"], tied=False)
    ties.observe("u", ["a", "b"], tied=False)
    assert not ties.likely("u", ["a", "b"])  # 0.5 -> 0.25 -> 0.125
    ties.observe("v", ["a"], tied=True)
    ties.observe("w", ["a"], tied=True)  # over capacity: the least recently used goes
    assert ties.likely("v", ["a"])
    assert ties.likely("w", ["a"])
    ties.observe("u", ["a", "b"], tied=True)  # forgotten: starts again from nothing
    assert ties.likely("u", ["a", "b"])  # 0 -> 0.5
    assert not ties.likely("v", ["a"])


def test_the_embedding_orders_but_never_admits() -> None:
    q = analyze("observability dashboards")
    assert score(q, K8S, 0.99) is None


def test_rank_orders_by_score_then_deterministically() -> None:
    newer = datetime(2026, 10, 5, tzinfo=UTC)
    older = datetime(2026, 9, 1, tzinfo=UTC)
    a = brief("a", "note", aliases=["tabs"], reinforced=older)
    b = brief("b", "note", aliases=["tabs"], reinforced=newer)
    c = brief("c", "note", aliases=["tabs"], pinned=True, reinforced=older)
    hits = rank(analyze("tabs"), [(a, None), (b, None), (c, None)], limit=10)
    assert [h.belief.id for h in hits] == ["c", "b", "a"]


def test_each_kind_has_its_own_budget() -> None:
    observations = [
        brief(f"o{i}", f"used tabs in file {i}", aliases=["tabs"], kind=Kind.observation)
        for i in range(40)
    ]
    preference = brief("pref", "prefers tabs", aliases=["tabs"], confidence=0.1)
    hits = rank(
        analyze("tabs"),
        [*((o, None) for o in observations), (preference, None)],
        limit=5,
        kind_budgets={"observation": 3},
    )
    assert len([h for h in hits if h.belief.kind == Kind.observation]) == 3
    assert "pref" in [h.belief.id for h in hits]


def test_lookups_escape_shingle_and_cap_fuzzy_terms() -> None:
    asked = lookups(analyze("switch to allkeys-lru for the error handling (now)"))
    assert "allkeys\\-lru" in asked.names  # the index cuts "allkeys-lru" like this
    assert "~" not in asked.names  # no Lucene fuzzy term: edit terms, looked up exactly
    assert "name_edits:(" in asked.names
    assert " eror " in asked.names  # "error" less an "r"
    assert "error_handling" in asked.canonical  # a snake_case canonical name, looked up whole
    assert asked.text.startswith("+text_words:(")
    scoped = lookups(analyze("redis"), user="me", namespaces=["domain:code"])
    assert scoped.names.startswith(f"+search_keys:({namespace_key('domain:code')}) ")
    assert f"+search_keys:{user_key('me')}" in scoped.text
    assert lookups(analyze("   ")) == Lookups("", "", [])
    long = lookups(analyze(" ".join(f"word{i}x" for i in range(40))))
    edits = long.names.split("name_edits:(")[1]
    assert f"word{MAX_FUZZY_WORDS - 1}x" in edits  # the first MAX_FUZZY_WORDS words ...
    assert f"word{MAX_FUZZY_WORDS}x" not in edits  # ... and no more


def test_a_message_of_long_words_stays_within_lucenes_clause_limit() -> None:
    # pasted hashes, tokens and class paths are single long words: a message of 20,000
    # characters of them must not ask the index more than its 1024 clauses
    rng = random.Random(3)
    words = ["".join(rng.choice("abcdef0123456789") for _ in range(200)) for _ in range(100)]
    message = " ".join(f"{w[:2]}x{w}.Foo-{w[:40]}" for w in words)[:20_000]
    asked = lookups(analyze(message), user="me", namespaces=["domain:code"])
    for query in (asked.names, asked.text):
        clauses = len([t for t in query.replace("(", " ").replace(")", " ").split() if t])
        assert clauses < 1024
    assert edit_terms("a" * 30) == ["a" * 30]  # too long to be misspelt
    assert not fuzzy_equal("ab" + "c" * 25, "ab" + "c" * 24)


def test_edit_terms_meet_for_every_fuzzy_match() -> None:
    # name_edits is how the index finds what fuzzy_equal admits: every pair it admits must
    # share an edit term (or search would never see the belief), over random near-misses
    rng = random.Random(7)
    letters = "abcdeklmnorst"
    checked = 0
    for _ in range(20_000):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
        i = rng.randrange(len(word) + 1)
        other = rng.choice(
            [
                word[:i] + rng.choice(letters) + word[i:],  # insertion
                word[:i] + word[i + 1 :],  # deletion
                word[:i] + rng.choice(letters) + word[i + 1 :],  # substitution
                word[:i] + word[i + 1 : i + 2] + word[i : i + 1] + word[i + 2 :],  # swap
            ]
        )
        if fuzzy_equal(word, other):
            checked += 1
            assert set(edit_terms(word)) & set(edit_terms(other)), (word, other)
    assert checked > 5_000


def test_name_edits_find_plurals_and_snake_case_words() -> None:
    indexed = set(name_edits(["kubernetes_pods", "CI pipeline"]).split())
    assert {"kubernetes", "pods", "pod", "pipeline"} <= indexed
    assert "ci" not in indexed  # two letters: exact terms find those
    assert set(edit_terms("pipelines")) & indexed  # plural query, singular name
    assert set(edit_terms("kubernets")) & indexed  # a typo
    assert not set(edit_terms("pipedream")) & indexed


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 13, 60])
def test_every_text_that_may_be_admitted_holds_a_whole_coverage_group(n: int) -> None:
    # the text query asks for whole groups: any text weigh() would admit on text evidence
    # must hold one, whatever the words it leaves out
    words = [f"w{i}x" for i in range(n)]
    query = analyze(" ".join(words))
    groups = coverage_groups(words)
    assert sorted(w for g in groups for w in g) == sorted(words[:MAX_QUERY_WORDS])
    rng = random.Random(n)
    for _ in range(300):
        text = " ".join(rng.sample(words, rng.randint(1, n)))
        held = set(text.split())
        if weigh(query, None, (), text) is not None:
            assert any(set(g) <= held for g in groups), (groups, text)


def test_coverage_groups_ask_less_than_any_word() -> None:
    assert coverage_groups([]) == []
    assert coverage_groups(["redis"]) == [["redis"]]
    assert coverage_groups(["a1", "b1", "c1"]) == [["a1", "b1", "c1"]]  # 3 of 3
    assert len(coverage_groups([f"w{i}" for i in range(8)])) == 3  # 6 of 8: miss at most 2


def test_text_words_are_the_words_search_compares() -> None:
    assert text_words("Mom's Wi-Fi password changed; passwords rotate") == (
        "mom wifi password changed rotate"
    )
    assert text_words("") == ""
