"""Scope terms a request names in words of its own, with a deterministic fake embedder."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from beliefgraph.language.words import Terms
from beliefgraph.models import Governs, Kind
from beliefgraph.planner.assess import Candidate
from beliefgraph.planner.meanings import MEANT_SIMILARITY, TermVectors, meant_terms, term_vectors
from tests.unit.test_planner_precedence import belief

#: texts the fake model places together; every other text is a direction of its own
NEAR = {"advil": 0, "nsaid": 0, "whitfield": 1, "whitford": 1, "wipe": 2, "erase": 2}


class Fake:
    """Texts in one group of :data:`NEAR` are one direction; others are each their own."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen += texts
        out = []
        for t in texts:
            v = np.zeros(64)
            v[NEAR.get(t, 8 + hash(t) % 56)] = 1.0
            out.append(v.tolist())
        return out


def rule(*terms: str) -> Candidate:
    return belief("r", "a rule", kind=Kind.policy, governs=Governs(any_terms=list(terms)))


def test_a_term_the_request_means_in_other_words_is_meant() -> None:
    found = meant_terms(Terms.of("Can Dad have an Advil?"), [rule("nsaid")], TermVectors(Fake()))
    assert found == frozenset({"nsaid"})
    assert Terms.of("Can Dad have an Advil?").has("nsaid") is False  # only once it is meant


def test_names_spelled_alike_acts_and_terms_sharing_a_word_are_left_to_the_words() -> None:
    vectors = TermVectors(Fake())
    assert meant_terms(Terms.of("Move Dana Whitfield's seat"), [rule("whitford")], vectors) == (
        frozenset()
    )
    assert meant_terms(Terms.of("Wipe the qa box"), [rule("erase")], vectors) == frozenset()
    assert meant_terms(Terms.of("the west shutter"), [rule("east shutter")], vectors) == (
        frozenset()
    )


def test_each_text_is_embedded_once_and_shared_by_every_planner_of_a_model() -> None:
    model = Fake()
    assert term_vectors(model) is term_vectors(model)
    for _ in range(3):
        meant_terms(Terms.of("an Advil"), [rule("nsaid")], term_vectors(model))
    assert sorted(model.seen) == ["advil", "nsaid"]
    assert 0 < MEANT_SIMILARITY < 1
