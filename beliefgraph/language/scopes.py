"""Whether a request falls inside a belief's jurisdiction: :func:`match_governs` for an explicit
``governs`` scope, :func:`match_derived` for the scope derived from what a belief says and is
about (:class:`ScopeMatch`).

All word comparisons go through :func:`beliefgraph.text.tokenize` (so "Wi-Fi" is "wifi")
plus a light plural folding (:func:`~beliefgraph.language.words.fold_plural`), applied to
both sides alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from beliefgraph.language.verbs import is_act
from beliefgraph.language.words import CACHE, STOPWORDS, Terms, words
from beliefgraph.models import ActionType
from beliefgraph.text import unique

# -- scope matching --------------------------------------------------------------------------


@dataclass(frozen=True)
class ScopeMatch:
    """How a request falls inside (or outside) a belief's jurisdiction.

    ``weight`` is the specificity: 1 per matched term of ``governs.any_terms`` or of what
    the belief is about, 1.5 per ``all_terms`` term (all must match), 0.5 per other word of
    the belief's text the request shares. ``excluded_by`` names the excluded term that put
    the request out of scope; ``outside`` says why the request falls outside a condition the
    belief sets (every sum it names is under the rule's threshold).
    """

    source: str  # "governs" (explicit) or "derived"
    matched: tuple[str, ...] = ()
    weight: float = 0.0
    excluded_by: str | None = None
    missing_all: tuple[str, ...] = ()
    action_types: frozenset[ActionType] = field(default_factory=frozenset)
    outside: str | None = None

    @property
    def in_scope(self) -> bool:
        """Whether the request is inside the scope."""
        return (
            self.weight > 0
            and self.excluded_by is None
            and not self.missing_all
            and self.outside is None
        )

    @property
    def explicit(self) -> bool:
        """Whether the scope is the belief's own ``governs`` (its writer's word), not derived."""
        return self.source == "governs"


#: specificity at or above which a match is *strong* (two terms, or an all-term and more)
STRONG = 2.0


def match_governs(
    request: Terms,
    *,
    any_terms: Sequence[str],
    all_terms: Sequence[str],
    excluded_terms: Sequence[str],
    action_types: Iterable[ActionType],
) -> ScopeMatch:
    """Match a request against an explicit ``governs`` scope.

    Returns:
        The :class:`ScopeMatch` (``source="governs"``).
    """
    kinds = frozenset(action_types)
    for term in excluded_terms:
        if request.has(term):
            return ScopeMatch("governs", excluded_by=term, action_types=kinds)
    missing = tuple(t for t in all_terms if not request.has(t))
    matched_all = [t for t in all_terms if t not in missing]
    matched_any = [t for t in any_terms if request.has(t) and t not in matched_all]
    weight = 1.5 * len(matched_all) + 1.0 * len(matched_any)
    named_any = matched_any or any(t in matched_all for t in any_terms)
    if missing or (any_terms and not named_any):
        # all of all_terms and any of any_terms: "Quay Street car park" (all: quay street;
        # any: car park, bays) does not take a request about unit 3 on Quay Street
        weight = 0.0
    return ScopeMatch(
        "governs",
        matched=tuple(unique([*matched_all, *matched_any])),
        weight=weight,
        missing_all=missing,
        action_types=kinds,
    )


def match_derived(
    request: Terms,
    *,
    text: str,
    names: Sequence[str],
    action_types: Iterable[ActionType],
    topics_only: bool = True,
) -> ScopeMatch:
    """Match a request against the scope derived from a belief's text and names.

    ``names`` are what the belief is about (entity names and aliases, its canonical name
    and aliases): each matched name weighs 1. Words of the text that the request shares
    weigh 0.5 each, except words that belong to a longer name the text uses: "Project
    Sandbox" in the text does not put a request about "Sandbox" alone in scope. Single
    words that name acts ("share", "send", "export") are not topics: what a rule does is
    its action types, what it is about is its scope. With ``topics_only=False`` they count,
    which measures lexical relevance rather than jurisdiction.

    Returns:
        The :class:`ScopeMatch` (``source="derived"``).
    """
    used: set[int] = set()
    matched: list[str] = []
    weight = 0.0
    for name in unique(n for n in names if words(n)):
        if topics_only and len(words(name)) == 1 and is_act(words(name)[0]):
            continue
        span = request.find(name)
        if span is None or any(i in used for i in range(*span)):
            continue
        used.update(range(*span))
        matched.append(name)
        weight += 1.0
    text_words = _topic_words(text, tuple(names), topics_only)
    for i, token in enumerate(request.tokens):
        if i in used or token not in text_words:
            continue
        used.update(j for j, t in enumerate(request.tokens) if t == token)
        matched.append(token)
        weight += 0.5
    return ScopeMatch(
        "derived", matched=tuple(matched), weight=weight, action_types=frozenset(action_types)
    )


@lru_cache(maxsize=CACHE)
def _topic_words(text: str, names: tuple[str, ...], topics_only: bool) -> frozenset[str]:
    """The words of a belief's text that can put a request in its derived scope."""
    # Mask the text's own occurrences of multi-word names, so their parts do not match alone.
    masked = list(words(text))
    for name in names:
        if len(words(name)) < 2:
            continue
        while (span := Terms("", tuple(masked)).find(name)) is not None:
            for i in range(*span):
                masked[i] = ""
    found = {w for w in masked if w and w not in STOPWORDS and not w.isdigit() and len(w) > 1}
    if topics_only:
        found -= {w for w in found if is_act(w)}
    return frozenset(found)


def explicit_scope_is_about(
    *, any_terms: Sequence[str], all_terms: Sequence[str], text: str, names: Sequence[str]
) -> bool:
    """Whether an explicit scope names anything the belief itself says or is about.

    A scope none of whose terms occur in the belief's text or names was written for some
    other belief (a copy-paste or a mis-authored annotation); the planner then falls back to
    the derived scope rather than trust it.
    """
    body = Terms.of(" ".join([text, *names]))
    return any(body.has(t) for t in [*any_terms, *all_terms])
