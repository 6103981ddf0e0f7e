"""The terms the full-text index ``belief_search`` holds besides names: scope keys, and the
words and edits search finds texts and misspelt names by.

Lucene cannot filter by a graph relationship or by a property it does not index, so a search
over a shared store would read every match of every tenant and filter afterwards: at 100k
beliefs that is most of the work. Each belief therefore carries ``search_keys``, one string of
index terms, ``u<hash>`` for its user and ``n<hash>`` for each namespace, indexed by
``belief_search``; a query adds ``+search_keys:(...)`` clauses and Lucene skips everything
else. Hashes (not the names) because the analyzer would cut ``tenant:a-b`` into several words,
and ``a-b`` and ``a_b`` must never meet.

A belief's names also carry ``name_edits``: each name word and, for words long enough to have
typos, the word with one letter left out (never one of the first two: search's prefix guard).
Two words one edit apart (insertion, deletion, substitution, neighbours swapped) behind the
same two letters always share one of those terms, so search finds a misspelt name with exact
term lookups instead of a Lucene ``word~1`` per query word, which intersects an automaton
with the whole term dictionary (without a prefix: its query syntax cannot carry one).

>>> user_key("test-user") != user_key("test_user")
True
>>> sorted(edit_terms("error"))
['eror', 'erro', 'error', 'errr']
>>> set(edit_terms("eror")) & set(edit_terms("error"))
{'eror'}
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from beliefgraph.text import normalize, tokenize, unique

#: words shorter than this get no variants (search's FUZZY_MIN_LENGTH): one edit makes
#: another word of them, not a typo
EDIT_MIN_LENGTH = 4
#: ... and so do words longer than this (search's FUZZY_MAX_LENGTH): a hash, a token or a
#: class path pasted into a message is one long word, and each of its letters a variant
#: would take the index query past Lucene's 1024 clauses
EDIT_MAX_LENGTH = 24
#: letters never left out (search's FUZZY_PREFIX): the prefix guard
EDIT_PREFIX = 2
#: name words this long are indexed (as they are, when shorter than EDIT_MIN_LENGTH): a
#: query's "pods" finds the name "pod" by leaving its "s" out
NAME_WORD_MIN_LENGTH = 3


def _digest(kind: str, value: str) -> str:
    return kind + hashlib.sha256(f"{kind}\x00{value}".encode()).hexdigest()[:24]


def user_key(user: str) -> str:
    """The index term of a user."""
    return _digest("u", user)


def namespace_key(namespace: str) -> str:
    """The index term of a namespace."""
    return _digest("n", namespace)


def search_keys(user: str | None, namespaces: Iterable[str]) -> str:
    """The ``search_keys`` property of a belief: its user's and namespaces' terms."""
    keys = [namespace_key(ns) for ns in sorted(set(namespaces))]
    if user is not None:
        keys.insert(0, user_key(user))
    return " ".join(keys)


def scope_clause(user: str | None, namespaces: Iterable[str]) -> str:
    """The Lucene clauses that keep a query inside these namespaces (and this user's beliefs)."""
    clause = f"+search_keys:({' '.join(namespace_key(ns) for ns in namespaces)})"
    if user is not None:
        clause += f" +search_keys:{user_key(user)}"
    return clause


def edit_terms(word: str) -> list[str]:
    """``word`` and, when it is long enough (but not too long) and not a number, the word
    with each letter after the first two left out (duplicates once)."""
    if not EDIT_MIN_LENGTH <= len(word) <= EDIT_MAX_LENGTH or word.isdigit():
        return [word]
    return unique([word, *(word[:i] + word[i + 1 :] for i in range(EDIT_PREFIX, len(word)))])


def text_words(text: str) -> str:
    """The ``text_words`` property of a belief with this text: its words as search compares
    them (the shared tokenizer, a plural "s" dropped: :func:`~beliefgraph.text.normalize`),
    each once. The index's own analyzer would cut "Wi-Fi" and "mom's" otherwise than a
    query's words.

    >>> text_words("Mom's Wi-Fi passwords: the passwords changed")
    'mom wifi password the changed'
    """
    return " ".join(unique(normalize(t) for t in tokenize(text)))


def name_edits(names: Iterable[str | None]) -> str:
    """The ``name_edits`` property of a belief with these names (canonical name, aliases;
    ``None`` for none): the :func:`edit_terms` of their words (snake_case split), as one
    space-separated string.

    >>> name_edits(["k8s", "ci_pipeline", None])
    'k8s pipeline pieline pipline pipeine pipelne pipelie pipelin'
    """
    words = unique(w for name in names if name for w in tokenize(name))
    return " ".join(
        unique(t for w in words if len(w) >= NAME_WORD_MIN_LENGTH for t in edit_terms(w))
    )
