"""A search query read once: its words, phrases and the index lookups they make."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil

from beliefgraph.index_keys import (
    EDIT_MAX_LENGTH,
    EDIT_MIN_LENGTH,
    EDIT_PREFIX,
    edit_terms,
    scope_clause,
)
from beliefgraph.models import Status
from beliefgraph.text import FUNCTION_WORDS, fold, normalize, tokenize, unique, word_set

#: statuses that may surface; superseded, archived and retracted beliefs never do
SURFACING_STATUSES = (
    Status.active.value,
    Status.provisional.value,
    Status.inferred.value,
    Status.exploratory.value,
)

# Function words and conversational filler: they never make a belief relevant, and they do
# not count when measuring how much of a query a text covers.
STOPWORDS = FUNCTION_WORDS | word_set(
    """
    above actually after against anything basically because before below between bit didn
    doesn doing don dont down during either else even ever every few get gets getting give
    got hers herself hey hi himself honestly im itself ive kind know let lets like lot maybe
    much myself need needs no nor not ok okay only ours ourselves please quite rather really
    say something sort still sure tell thanks thats theirs themselves theyre thing things
    think thinking though thought through ugh uh um until upon use using via want wants well
    weve whats whether while wondering yeah yes yet youre yours yourself yourselves
    """
)

# Weights of the score parts; the admission rules above, not these numbers, keep noise out.
CANONICAL_WEIGHT = 10.0
ALIAS_WEIGHT = 8.0
FUZZY_PENALTY = 3.0
PARTIAL_NAME_WEIGHT = 2.0
CONTENT_WEIGHT = 3.0
#: text evidence admits a belief when it covers this share of the query's content words ...
TEXT_COVERAGE = 0.75
#: ... and at least this many of them (fewer only when the query has fewer)
TEXT_MIN_WORDS = 2
#: fuzzy matching: both words this long, the longer one at least FUZZY_MIN_LONGER, the
#: first FUZZY_PREFIX letters the same (the index's name_edits are made to the same rules)
FUZZY_MIN_LENGTH = EDIT_MIN_LENGTH
FUZZY_MIN_LONGER = 5
#: ... and neither longer than this (a pasted hash is not misspelt)
FUZZY_MAX_LENGTH = EDIT_MAX_LENGTH
FUZZY_PREFIX = EDIT_PREFIX
#: longest canonical name (in words) looked up as a snake_case shingle
MAX_SHINGLE = 4
#: most distinct query words sent to the index (a 20k-character message is not 20k clauses)
MAX_QUERY_WORDS = 48
#: most content words of a message tried one edit away
MAX_FUZZY_WORDS = 12


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or
    transposition of neighbours (optimal string alignment distance 1)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@lru_cache(maxsize=65536)  # the same word pairs recur across every candidate of a request
def fuzzy_equal(query_word: str, name_word: str) -> bool:
    """One edit apart, same first letters, long enough that one edit is a typo, not a new
    word ("eror"/"error", "mongod"/"mongo"; not "mango"/"mongo", not "k9s"/"k8s")."""
    if query_word in STOPWORDS or query_word.isdigit() or name_word.isdigit():
        return False
    if min(len(query_word), len(name_word)) < FUZZY_MIN_LENGTH:
        return False
    if not FUZZY_MIN_LONGER <= max(len(query_word), len(name_word)) <= FUZZY_MAX_LENGTH:
        return False
    if query_word[:FUZZY_PREFIX] != name_word[:FUZZY_PREFIX]:
        return False
    return within_one_edit(query_word, name_word)


@dataclass(frozen=True)
class Query:
    """A query as search reads it."""

    text: str
    tokens: tuple[str, ...]
    normalized: tuple[str, ...]
    significant: tuple[str, ...]
    #: where each normalized word occurs
    positions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: the words that may match a name one edit away, with their positions, by their first
    #: FUZZY_PREFIX letters (the prefix guard: only those words can match a name word)
    fuzzy_words: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    #: the content words, normalized: what text coverage is measured against
    content_words: frozenset[str] = frozenset()
    #: where a name starting with a given word may start in the query (filled by scoring:
    #: the candidates of one query share their names' first words)
    starts: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        """Whether the query has no words at all."""
        return not self.tokens


def analyze(text: str) -> Query:
    """Tokenize a query with the shared tokenizer (possessives dropped, "Wi-Fi" = "wifi")."""
    tokens = tuple(tokenize(text))
    significant = tuple(unique(t for t in tokens if t not in STOPWORDS))
    normalized = tuple(normalize(t) for t in tokens)
    positions: dict[str, list[int]] = {}
    for i, t in enumerate(normalized):
        positions.setdefault(t, []).append(i)
    fuzzy_words: dict[str, list[tuple[int, str]]] = {}
    for i, t in enumerate(tokens):
        if len(t) >= FUZZY_MIN_LENGTH and t not in STOPWORDS and not t.isdigit():
            fuzzy_words.setdefault(t[:FUZZY_PREFIX], []).append((i, t))
    return Query(
        text,
        tokens,
        normalized,
        significant,
        {t: tuple(p) for t, p in positions.items()},
        {prefix: tuple(words) for prefix, words in fuzzy_words.items()},
        frozenset(normalize(t) for t in significant),
    )


_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_EDGE_PUNCTUATION = re.compile(r"^[^\w]+|[^\w]+$")


def _raw_words(text: str) -> list[str]:
    """The query's words as the index's own analyzer will cut them ("allkeys-lru",
    "react.js"), escaped for the Lucene query parser: aliases are indexed that way."""
    out = []
    for word in fold(text).split():
        word = _EDGE_PUNCTUATION.sub("", word)
        if word and not word.isalnum() and any(t not in STOPWORDS for t in tokenize(word)):
            out.append(_LUCENE_SPECIAL.sub(r"\\\1", word))
    return out


@dataclass(frozen=True)
class Lookups:
    """What the candidate read asks the indexes.

    Attributes:
        names: a Lucene query over ``canonical_name`` and ``aliases_text`` ('' for none):
            the content words and the raw punctuated words ("allkeys-lru", as the index cuts
            them); and over ``name_edits``, the :func:`~beliefgraph.index_keys.edit_terms`
            of the first content words, which meet those of any name word one edit away
            (or the word with a plural "s").
        text: a Lucene query over ``text_words`` ('' for none): the content words, as
            :func:`coverage_groups` (only texts that may cover enough of them).
        canonical: snake_case shingles of two to four words, looked up exactly in the
            ``belief_canonical_name`` index (the full-text analyzer keeps
            ``composition_over_inheritance`` as one term, so no word query reaches it).
    """

    names: str
    text: str
    canonical: list[str]


def lookups(query: Query, *, user: str | None = None, namespaces: Sequence[str] = ()) -> Lookups:
    """The index lookups of a query, kept by the index itself inside ``namespaces`` (and the
    beliefs of ``user``) when given (:mod:`beliefgraph.index_keys`). Our tokens are
    ``[a-z0-9]+``: nothing needs escaping."""
    words = list(query.significant[:MAX_QUERY_WORDS])
    raw = unique(_raw_words(query.text))[:MAX_QUERY_WORDS]
    fuzzy = [w for w in words if len(w) >= FUZZY_MIN_LENGTH and not w.isdigit()]
    # A long message gets edit terms for its first content words only (typos of names live
    # in short queries; long ones name things whole).
    edits = unique(t for w in fuzzy[:MAX_FUZZY_WORDS] for t in edit_terms(w))
    name_terms = unique([*raw, *words])
    joined = " ".join(name_terms)
    scope = f"{scope_clause(user, namespaces)} " if namespaces else ""
    names = ""
    if name_terms:
        clauses = f"canonical_name:({joined}) OR aliases_text:({joined})"
        if edits:
            clauses += f" OR name_edits:({' '.join(edits)})"
        names = f"{scope}+({clauses})"
    tokens = query.tokens[: MAX_QUERY_WORDS * 2]
    canonical = unique(
        "_".join(tokens[i : i + n])
        for n in range(2, MAX_SHINGLE + 1)
        for i in range(len(tokens) - n + 1)
        if tokens[i] not in STOPWORDS and tokens[i + n - 1] not in STOPWORDS
    )
    groups = coverage_groups(unique(normalize(t) for t in query.significant))
    text = ""
    if groups:
        alternatives = " ".join(f"({' '.join(f'+{w}' for w in group)})" for group in groups)
        text = f"{scope}+text_words:({alternatives})"
    return Lookups(names=names, text=text, canonical=canonical)


def coverage_groups(words: Sequence[str]) -> list[list[str]]:
    """Groups of ``words`` such that a text covering enough of them for admission (see
    :func:`weigh`) holds every word of at least one group.

    A text that covers ``need`` of the ``n`` words misses at most ``n - need`` of them, so of
    ``n - need + 1`` disjoint groups one is missed by none: the index need only look for texts
    with a whole group (a conjunction, which it answers from its rarest word's postings),
    not for texts with any word, which in a store of a narrow vocabulary is thousands of
    them. Beyond MAX_QUERY_WORDS words, only the first are asked for, each group then
    smaller by what was left out; when that leaves nothing to require, any word will do.

    >>> coverage_groups(["redis", "eviction", "policy", "memory"])  # 3 of 4 needed
    [['redis', 'policy'], ['eviction', 'memory']]
    >>> coverage_groups(["redis", "eviction"])
    [['redis', 'eviction']]
    """
    n = len(words)
    if n == 0:
        return []
    need = max(min(TEXT_MIN_WORDS, n), ceil(TEXT_COVERAGE * n))
    asked = list(words[:MAX_QUERY_WORDS])
    need = max(need - (n - len(asked)), 1)
    count = len(asked) - need + 1
    return [asked[i::count] for i in range(count)]
