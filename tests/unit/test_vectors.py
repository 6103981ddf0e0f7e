"""The gate's in-process vector copies: ranking, sync checks, growth, eviction."""

from __future__ import annotations

import numpy as np
import pytest

from beliefgraph.embeddings import packed
from beliefgraph.gate.vectors import (
    CODED_FROM,
    CODED_VECTORS,
    Copy,
    Held,
    Ranked,
    VectorCache,
    as_matrix,
    rank,
    related,
    subjects_of,
)


def unit(*values: float) -> list[float]:
    v = np.asarray(values, dtype=np.float64)
    return list(v / np.linalg.norm(v))


def copy_of(token: str | None, beliefs: dict[str, list[float]], user: str | None = None) -> Copy:
    held = [Held(i, user) for i in beliefs]
    return Copy.of(token, held, as_matrix(list(beliefs.values()), 3))


def test_rank_orders_by_cosine_and_breaks_ties_by_id() -> None:
    copy = copy_of("t", {"b": unit(1, 0, 0), "a": unit(1, 0, 0), "c": unit(0, 1, 0)})
    [ranked] = rank([copy], as_matrix([unit(1, 0.1, 0)], 3), None, 2)
    assert ranked.ids == ["a", "b"]
    assert ranked.scores[0] > 0.99
    assert not ranked.complete  # c was never looked at


def test_rank_counts_a_belief_in_two_namespaces_once() -> None:
    shared = unit(1, 0, 0)
    one = copy_of("t1", {"x": shared, "y": unit(0, 1, 0)})
    two = copy_of("t2", {"x": shared, "z": unit(0, 0, 1)})
    [ranked] = rank([one, two], as_matrix([unit(1, 0.2, 0.1)], 3), None, 3)
    assert ranked.ids == ["x", "y", "z"]
    assert ranked.complete


def test_rank_keeps_to_the_writers_user() -> None:
    rows = Copy.of(
        "t",
        [Held("mine", "ann"), Held("theirs", "bob"), Held("shared", None)],
        as_matrix([unit(1, 0, 0), unit(1, 0, 0), unit(1, 0, 0)], 3),
    )
    query = as_matrix([unit(1, 0, 0)], 3)
    assert rank([rows], query, "ann", 5)[0].ids == ["mine"]
    assert rank([rows], query, None, 5)[0].ids == ["shared"]
    assert rank([rows], query, "carol", 5)[0].ids == []


def test_a_copy_is_in_sync_only_with_the_token_and_count_the_lock_saw() -> None:
    copy = copy_of("t1", {"a": unit(1, 0, 0)})
    copies = {"ns": copy}
    assert VectorCache.in_sync(copies, {"ns": ("t1", 1)}) == {"ns"}
    assert VectorCache.in_sync(copies, {"ns": ("t2", 1)}) == set()  # another writer
    assert VectorCache.in_sync(copies, {"ns": ("t1", 2)}) == set()  # an ungated write
    assert VectorCache.in_sync(copies, {"ns": (None, 1)}) == set()  # never locked


def test_extend_appends_in_place_and_an_older_copy_keeps_its_view() -> None:
    cache = VectorCache(100)
    base = copy_of("t1", {"a": unit(1, 0, 0)})
    cache.extend("ns", base, "t2", [Held("b", None)], as_matrix([unit(0, 1, 0)], 3))
    grown = cache.get(["ns"])["ns"]
    assert (grown.token, grown.count) == ("t2", 2)
    assert grown.rows is base.rows  # appended, not copied
    assert rank([base], as_matrix([unit(0, 1, 0)], 3), None, 5)[0].ids == ["a"]
    # a write that rolled back grew `base` too; growing it again must not touch `grown`
    cache.extend("ns", base, "t3", [Held("c", None)], as_matrix([unit(0, 0, 1)], 3))
    again = cache.get(["ns"])["ns"]
    assert again.rows is not base.rows
    assert rank([again], as_matrix([unit(0, 0, 1)], 3), None, 5)[0].ids == ["c", "a"]
    assert rank([grown], as_matrix([unit(0, 1, 0)], 3), None, 5)[0].ids == ["b", "a"]


def test_the_least_recently_used_namespace_is_evicted_and_a_too_large_one_never_held() -> None:
    cache = VectorCache(3)
    cache.put("one", copy_of("t", {"a": unit(1, 0, 0), "b": unit(0, 1, 0)}))
    cache.put("two", copy_of("t", {"c": unit(0, 0, 1)}))
    cache.get(["one"])  # "two" is now the least recently used
    cache.put("three", copy_of("t", {"d": unit(1, 1, 0)}))
    assert set(cache.get(["one", "two", "three"])) == {"one", "three"}
    cache.put("big", copy_of("t", {str(i): unit(1, i, 0) for i in range(4)}))
    assert cache.get(["big"]) == {}
    assert not VectorCache(0).fits(0)


def test_related_finds_the_newest_beliefs_sharing_a_subject_of_the_same_user() -> None:
    wifi = subjects_of(["office_wifi"], None)
    beliefs = [
        Held("old", None, wifi),
        Held("other", None, subjects_of(["printer"], None)),
        Held("named", None, subjects_of([], "wifi_password")),
        Held("new", None, wifi),
        Held("anns", "ann", wifi),
    ]
    copy = Copy.of("t", beliefs, as_matrix([unit(1, i, 0) for i in range(5)], 3))
    query = np.asarray(unit(1, 0, 0), dtype=np.float32)
    found = related([copy], query, None, wifi | subjects_of([], "wifi_password"), 2)
    assert [i for i, _ in found] == ["new", "named"]  # newest first, at most 2
    assert found[0][1] == pytest.approx(unit(1, 3, 0)[0], abs=1e-6)  # its cosine
    assert related([copy], query, None, frozenset(), 5) == []


def test_with_a_floor_the_newest_at_least_that_close_are_taken_and_the_others_not_counted() -> None:
    wifi = subjects_of(["office_wifi"], None)
    # oldest first: two close to the query, then two far from it (the newest)
    vectors = [unit(1, 0, 0), unit(1, 0.2, 0), unit(0, 0, 1), unit(0, 1, 0)]
    copy = Copy.of("t", [Held(i, None, wifi) for i in "abcd"], as_matrix(vectors, 3))
    query = np.asarray(unit(1, 0, 0), dtype=np.float32)
    assert [i for i, _ in related([copy], query, None, wifi, 2)] == ["d", "c"]
    # the far ones would only be judged `add`: they do not take the two places
    assert [i for i, _ in related([copy], query, None, wifi, 2, floor=0.3)] == ["b", "a"]


def test_beliefs_seen_no_longer_live_are_not_proposed_again() -> None:
    wifi = subjects_of(["office_wifi"], None)
    copy = Copy.of(
        "t",
        [Held("old", None, wifi), Held("new", None, wifi), Held("far", None)],
        as_matrix([unit(1, 0, 0), unit(1, 0.1, 0), unit(0, 0, 1)], 3),
    )
    query = as_matrix([unit(1, 0, 0)], 3)
    assert rank([copy], query, None, 1)[0].ids == ["old"]
    copy.rows.bury(["old", "unknown-id"])
    [ranked] = rank([copy], query, None, 1)
    assert ranked.ids == ["new"]
    assert rank([copy], query, None, 5)[0].ids == ["new", "far"]
    assert rank([copy], query, None, 5)[0].complete
    assert [i for i, _ in related([copy], query[0], None, wifi, 5)] == ["new"]


def test_a_buried_row_stays_buried_for_one_user_and_in_a_copy_grown_again() -> None:
    copy = Copy.of(
        "t",
        [Held("a", "ann"), Held("b", "bob"), Held("c", "ann")],
        as_matrix([unit(1, 0, 0), unit(1, 0, 0), unit(0.9, 0.1, 0)], 3),
    )
    copy.rows.bury(["a"])
    query = as_matrix([unit(1, 0, 0)], 3)
    assert rank([copy], query, "ann", 5)[0].ids == ["c"]
    cache = VectorCache(100)
    cache.extend("ns", copy, "t2", [Held("d", "ann")], as_matrix([unit(0, 1, 0)], 3))
    # that write rolled back; growing `copy` again copies its rows, what is buried included
    cache.extend("ns", copy, "t3", [Held("e", "ann")], as_matrix([unit(0, 0, 1)], 3))
    again = cache.get(["ns"])["ns"]
    assert again.rows is not copy.rows
    assert rank([again], query, "ann", 5)[0].ids == ["c", "e"]


def clustered(count: int, seed: int) -> np.ndarray:
    """Unit vectors in tight clusters of 25 (near-duplicates, as a namespace's copies of a fact)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((-(-count // 25), 384))
    rows = np.repeat(centres, 25, axis=0)[:count] + 0.02 * rng.standard_normal((count, 384))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.astype(np.float32)


def test_a_large_copys_estimates_stay_within_their_bound() -> None:
    from beliefgraph.gate.vectors import _estimate

    matrix = clustered(CODED_FROM + 1000, seed=1)
    copy = Copy.of(None, [Held(f"b{j}", None) for j in range(len(matrix))], matrix)
    queries = clustered(250, seed=2)[:8]
    estimates, bound = _estimate(copy.rows, copy.count, queries)
    exact = queries.astype(np.float64) @ matrix.astype(np.float64).T
    assert (np.abs(estimates - exact) <= bound[:, None]).all()
    assert 0 < bound.max() < 0.05  # tight enough to leave only the near ones to rescore


@pytest.mark.parametrize("user", [None, "ann"])
def test_a_large_copy_ranks_exactly_as_a_full_scan(user: str | None) -> None:
    matrix = clustered(CODED_FROM + 1000, seed=3)
    owners = [None if j % 3 else "ann" for j in range(len(matrix))]
    copy = Copy.of(None, [Held(f"b{j:05d}", owners[j]) for j in range(len(matrix))], matrix)
    copy.rows.bury(f"b{j:05d}" for j in range(0, len(matrix), 7))
    rng = np.random.default_rng(4)
    # queries close to stored clusters: the nearest are a dense crowd of near-equal cosines
    queries = matrix[rng.choice(len(matrix), 8)] + 0.01 * rng.standard_normal((8, 384))
    queries = (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)
    eligible = [j for j in range(len(matrix)) if owners[j] == user and j % 7]
    assert len(queries) <= CODED_VECTORS  # ranked through the codes
    for query, ranked in zip(queries, rank([copy], queries, user, 20), strict=True):
        exact = matrix[eligible].astype(np.float64) @ query.astype(np.float64)
        best = np.sort(exact)[::-1][:20]
        assert len(ranked.ids) == len(set(ranked.ids)) == 20
        assert np.allclose(ranked.scores, best, atol=1e-5)
        for belief_id, score in zip(ranked.ids, ranked.scores, strict=True):
            j = int(belief_id[1:])
            assert owners[j] == user
            assert j % 7
            assert score == pytest.approx(float(matrix[j] @ query), abs=1e-5)
        assert not ranked.complete


def test_a_batch_larger_than_coded_vectors_ranks_the_same_through_float32() -> None:
    matrix = clustered(CODED_FROM + 1000, seed=5)
    copy = Copy.of(None, [Held(f"b{j:05d}", None) for j in range(len(matrix))], matrix)
    batch = clustered(250, seed=6)[: CODED_VECTORS + 1]
    together = rank([copy], batch, None, 10)
    alone = [rank([copy], batch[i : i + 1], None, 10)[0] for i in range(len(batch))]
    assert [r.ids for r in together] == [r.ids for r in alone]
    for a, b in zip(together, alone, strict=True):
        assert np.allclose(a.scores, b.scores, atol=1e-5)


def test_a_namespace_copy_loads_packed_vectors_as_it_loads_lists() -> None:
    lists = [unit(1, 0.2, 0), unit(0, 1, 0.5), unit(0.3, 0, 1)]
    from_bytes = as_matrix([packed(v) for v in lists], 3)
    assert np.array_equal(from_bytes, as_matrix(lists, 3))
    # beliefs written before there were bytes come as lists, beside packed ones
    mixed = as_matrix([lists[0], packed(lists[1]), lists[2]], 3)
    assert np.array_equal(mixed, from_bytes)
    from_bytes[0, 0] = 0.0  # a copy of its own, not a view of read-only bytes


def test_a_ranking_at_a_floor_holds_what_is_at_least_that_close_and_is_complete() -> None:
    copy = copy_of("t", {"a": unit(1, 0.1, 0), "b": unit(1, 0.5, 0), "c": unit(0, 1, 0)})
    query = as_matrix([unit(1, 0, 0)], 3)
    [ranked] = rank([copy], query, None, 5, [0.8])
    assert ranked.ids == ["a", "b"]
    assert ranked.complete  # c is below the floor: nothing further down could matter
    [ranked] = rank([copy], query, None, 1, [0.8])
    assert ranked.ids == ["a"]
    assert not ranked.complete  # b is above the floor and was not read
    [ranked] = rank([copy], query, None, 5, [0.999])
    assert ranked == Ranked([], [], True)


@pytest.mark.parametrize("rows", [300, CODED_FROM])
def test_a_ranking_at_a_floor_is_the_full_ranking_cut_there(rows: int) -> None:
    rng = np.random.default_rng(rows)
    base = rng.normal(size=(8, 16))
    # clusters, so that many rows are close to a query and many are far
    matrix = base[rng.integers(0, 8, rows)] + 0.3 * rng.normal(size=(rows, 16))
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    copy = Copy.of("t", [Held(f"r{i:05d}", None) for i in range(rows)], as_matrix(list(matrix), 16))
    copy.rows.bury(f"r{i:05d}" for i in range(0, rows, 7))
    queries = base[:CODED_VECTORS] + 0.3 * rng.normal(size=(CODED_VECTORS, 16))
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    vectors = as_matrix(list(queries), 16)
    full = rank([copy], vectors, None, rows)
    for floor in (-1.0, 0.3, 0.8, 0.95):
        for limit in (3, 40):
            cut = rank([copy], vectors, None, limit, [floor] * len(vectors))
            for whole, ranked in zip(full, cut, strict=True):
                kept = [b for b, s in zip(whole.ids, whole.scores, strict=True) if s >= floor]
                assert ranked.ids == kept[:limit]
                assert np.allclose(ranked.scores, whole.scores[: len(ranked.ids)], atol=1e-6)
                assert ranked.complete == (len(kept) <= limit)


def test_an_estimated_ranking_cut_at_a_floor_is_complete_only_if_nothing_left_out_could_reach_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # exact cosines 0.95, 0.88, 0.82 and 0.78 to the query, among far rows; the estimates
    # put "j" (0.82) below "b" (0.78), both within the bound of 0.03 of the truth
    cosines = {"a": 0.95, "c": 0.88, "j": 0.82, "b": 0.78}
    errors = {"c": -0.02, "j": -0.025, "b": 0.025}
    beliefs = [*cosines, *(f"far{i:04d}" for i in range(CODED_FROM - len(cosines)))]
    exact = [cosines.get(b, 0.1) for b in beliefs]
    copy = Copy.of(
        "t",
        [Held(b, None) for b in beliefs],
        as_matrix([unit(c, (1 - c * c) ** 0.5, 0) for c in exact], 3),
    )

    def estimate(rows: object, count: int, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scores = vectors @ copy.rows.matrix[:count].T
        scores += np.asarray([errors.get(b, 0.0) for b in beliefs], np.float32)
        return scores.astype(np.float32), np.full(len(vectors), 0.03, np.float32)

    monkeypatch.setattr("beliefgraph.gate.vectors._estimate", estimate)
    [ranked] = rank([copy], as_matrix([unit(1, 0, 0)], 3), None, 2, [0.8])
    assert ranked.ids == ["a", "c"]
    assert not ranked.complete  # "j" was left out on its estimate, and is above the floor
