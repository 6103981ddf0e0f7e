"""Scope terms a request names in words of its own: "Advil" for a rule on "nsaid".

A rule about a class ("anti-inflammatories", "cardholder data", "lithium cells") governs an
instance that shares no word with it ("a couple of Advil", "her Mastercard number", "the dead
power packs"). :func:`meant_terms` lets the embedding model propose such bridges, term by term:
a term of a candidate's ``governs`` scope that the request does not name is *meant* when a
word or a pair of words of the request sits within :data:`MEANT_SIMILARITY` of it. The scope
match, the lanes and precedence then decide as they would had the request said the term.

What the model cannot tell apart is left to the words: a term that shares a word with the
request (a sibling thing, "the east shutter" for "the west shutter": its qualifier is what
differs), a term or a word that names an act ("erase" for "wipe": the act is read from
the request by :mod:`beliefgraph.language.acts`, and a rule on the act for another thing is
the trap), and two words spelled alike ("Whitford" for "Whitfield", "Harbour Lights" for
"Harbor Inn": another name, not a meaning).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from beliefgraph.embeddings import Embedder
from beliefgraph.language.acts import is_act
from beliefgraph.language.words import STOPWORDS, Terms, words
from beliefgraph.planner.assess import Candidate

#: cosine from which a request's words mean a scope term (all-MiniLM-L6-v2: "advil" and
#: "painkiller" 0.57, "fingerprint templates" and "biometric" 0.61; "lisbon" and "madrid" 0.56
#: is a sibling, "nephew" and "unaccompanied minor" 0.23 beyond reach)
MEANT_SIMILARITY = 0.55


#: words and terms whose vectors a planner keeps (3 KB each: about 30 MB)
REMEMBERED = 10_000


class TermVectors:
    """The vectors of short texts (a request's words, scope terms), each embedded once while
    remembered, the least recently used forgotten first. Safe to share between the threads
    that answer queries: the model runs outside the lock."""

    def __init__(self, embedder: Embedder, capacity: int = REMEMBERED) -> None:
        self._embedder = embedder
        self._capacity = capacity
        self._vectors: OrderedDict[str, np.ndarray[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        """One row per text, in order."""
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
            for t in known:
                self._vectors.move_to_end(t)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        fresh = dict(zip(missing, np.array(self._embedder.embed(missing)), strict=True))
        if fresh:
            with self._lock:
                self._vectors.update(fresh)
                while len(self._vectors) > self._capacity:
                    self._vectors.popitem(last=False)
        return np.array([known[t] if t in known else fresh[t] for t in texts])


_SHARED: weakref.WeakKeyDictionary[Embedder, TermVectors] = weakref.WeakKeyDictionary()
_SHARED_LOCK = threading.Lock()


def term_vectors(embedder: Embedder) -> TermVectors:
    """The vectors kept for ``embedder``: one memory for every planner that uses it (the API
    makes a planner per request)."""
    with _SHARED_LOCK:
        kept = _SHARED.get(embedder)
        if kept is None:
            kept = _SHARED[embedder] = TermVectors(embedder)
        return kept


def _units(request: Terms) -> list[str]:
    """The request's words that may name a thing, and each two of them side by side."""
    kept = [
        t
        for t in request.tokens
        if t not in STOPWORDS and len(t) > 2 and not t.isdigit() and not is_act(t)
    ]
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(kept)]
    return list(dict.fromkeys(kept + pairs))


def _spelled_alike(a: str, b: str) -> bool:
    """Whether two phrases hold words that begin alike ("whitford", "whitfield")."""
    return any(x[:4] == y[:4] for x in words(a) for y in words(b) if len(x) > 3 and len(y) > 3)


def _open_terms(request: Terms, c: Candidate) -> list[str]:
    """The terms of ``c``'s scope the request does not name and might mean."""
    if c.governs is None:
        return []
    asked = set(request.tokens)
    return [
        t.lower()
        for t in (*c.governs.any_terms, *c.governs.all_terms)
        if not request.has(t) and not set(words(t)) & asked and not any(is_act(w) for w in words(t))
    ]


def meant_terms(
    request: Terms, candidates: Sequence[Candidate], vectors: TermVectors
) -> frozenset[str]:
    """The ``governs`` terms of ``candidates`` that ``request`` names in other words.

    A word the belief itself says is no other word for its terms: "heart" in "if a
    heart-medication question includes chest pain ..." (scope: chest, fainting, ...) was
    left out of its scope by whoever wrote it, and does not reach "chest" by meaning.
    """
    open_terms = {c.id: _open_terms(request, c) for c in candidates}
    terms = list(dict.fromkeys(t for ts in open_terms.values() for t in ts))
    units = _units(request)
    if not terms or not units:
        return frozenset()
    rows = vectors.of(units + terms)
    similarity = dict(zip(terms, rows[len(units) :] @ rows[: len(units)].T, strict=True))
    meant: set[str] = set()
    for c in candidates:
        text = Terms.of(c.text)
        said = {*text.tokens, *text.parts}
        for term in open_terms[c.id]:
            row = similarity[term]
            close = (units[j] for j in np.argsort(-row) if row[j] >= MEANT_SIMILARITY)
            if any(
                not _spelled_alike(term, unit) and not set(unit.split()) & said for unit in close
            ):
                meant.add(term)
    return frozenset(meant)
