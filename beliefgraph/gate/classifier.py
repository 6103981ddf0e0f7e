"""Classifiers for the curation gate: how an incoming belief relates to an existing one.

A classifier judges *pairs* (incoming, existing) and answers one
:class:`~beliefgraph.models.Verdict` per pair with a reason. The gate (``gate/``) picks
the candidates, applies the hard rules and guards, and acts on the verdicts.

:class:`DefaultClassifier` is deterministic — structure first, similarity second:

1. **Same statement** — the same content words (function words aside) and cosine at least
   ``gate_noop_similarity``: ``noop`` (unless a relation turned round, below).
2. **Polarity** — the same content words but for a negation ("deploys go out on Fridays"
   / "deploys never go out on Fridays"), or the same words with a relation turned round
   ("I prefer coffee over tea" / "I prefer tea over coffee"), cosine at least
   ``gate_polarity_similarity``: ``contradicts``. Embeddings put such pairs at 0.95+, so
   similarity alone would merge them.
3. **Same subject, same attribute, different value** — when both beliefs are about a shared
   entity (``about``) or have the same ``canonical_name``, each text is split at its first
   copula or change verb ("is", "was", "changed", ":", ...): the words before it, minus
   the entity's own words, are the attribute ("the office Wi-Fi **password** is ...");
   the words after it are the value. Same attribute and a different value is
   ``contradicts`` from a cosine of ``gate_structure_similarity`` up — "the Wi-Fi password
   is tulip-42" / "the Wi-Fi password changed; IT has the current one" sit at 0.67 with
   the bundled model. A change verb ("changed", "rotated", ...), or a negation beside the
   old value ("is no longer hunter2, it is ..."), always reads as a new value. The same
   value is ``noop``; a value that adds to the old is ``subsumes``.
4. **Containment** — one text holds every content word of the other, cosine at least
   ``gate_subsume_similarity``: the longer one ``subsumes`` the shorter.
5. **Redundancy** — cosine at least ``gate_compatible_similarity``: ``compatible``.
6. Otherwise ``add``.
7. **The pair model** has the last word on two plain-text beliefs of one kind: :mod:`.relation`.

Without an entity or canonical name, a **correction** (or a credential against a
credential) is split as in 3: its writer said it replaces something, and its attribute words
must equal the old belief's - "Actually, my Wi-Fi password changed to ..." replaces "my Wi-Fi
password is hunter2". Other plain text is read by :mod:`beliefgraph.language.frames`: a
statement that says the same thing changed ("The standup moved to 10am.") ``contradicts`` it
from ``gate_correction_similarity``; the same values of the same thing in other words ("FY
ends 30 June." / "Our fiscal year ends on June 30.") are ``noop`` from
``gate_same_values_similarity``, and from ``gate_restate_similarity`` even when the two share
a single word. Two memories about different things can share a sentence shape, so nothing
else is inferred from free text; give beliefs an ``about`` or use the LLM classifier for that.

:class:`LLMClassifier` asks any OpenAI-compatible chat endpoint (``POST {url}/chat/
completions``), all pairs of a write in one request, and keeps each reason verbatim. On a
failure, a timeout or an answer it cannot read it logs why and the default classifier
decides the pairs it lacks: a write never fails because the LLM did.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from beliefgraph.config import Settings
from beliefgraph.errors import LLMUnavailable
from beliefgraph.gate.relation import RelationModel, default_relation_model, holds_the_other
from beliefgraph.language import frames
from beliefgraph.language.things import ATTRIBUTES
from beliefgraph.language.words import fold_plural
from beliefgraph.llm import ChatEndpoint
from beliefgraph.models import Verdict
from beliefgraph.text import CORRECTION_OPENING, FUNCTION_WORDS, NEGATIONS, tokenize, word_set

log = logging.getLogger(__name__)


DEFAULT = "default"

#: words that never make two statements differ: the function words and a few more; negations
#: are *not* among them
STOPWORDS = FUNCTION_WORDS | word_set(
    """
    also currently may mine ones s shall still t
    """
)
#: a copula or change verb: what comes before is the subject, what comes after the value
_PIVOT = re.compile(
    r"\s*(?::|=|\b(?:is|are|was|were|equals|became|becomes|changed|changes|moved|moves|"
    r"switched|switches|rotated|replaced|reset|updated)\b)\s*",
    re.IGNORECASE,
)
#: pivots that say the value changed, whatever the new value is
_CHANGE_VERBS = word_set(
    "became becomes changed changes moved moves switched switches rotated replaced reset updated"
)
#: how a correction opens ("Actually, ...", "Correction: ..."): talk about the statement, not
#: part of its attribute (nor is a colon after it the statement's pivot)
_CORRECTION_LEAD = re.compile(rf"^\s*{CORRECTION_OPENING}[\s,:;-]*", re.IGNORECASE)
#: words that relate the content word before them to the one after ("tea over coffee")
_RELATIONS = word_set("over than to from into instead versus vs before after above below")
#: words between a relation's left side and the relation ("better than", "rather than")
_COMPARATIVES = word_set("better worse rather preferable superior inferior")
#: kinds whose writer says the statement replaces what was said of the same thing before
CORRECTION_KINDS = frozenset({"correction"})
#: kinds that hold one value at a time: a second value for the same thing replaces the first
SINGLE_VALUED_KINDS = frozenset({"credential"})


@dataclass(frozen=True)
class BeliefView:
    """What a classifier may know of a belief: never an evaluation answer key."""

    id: str
    text: str
    kind: str
    trust: float
    canonical_name: str | None
    namespaces: tuple[str, ...]
    #: entity key -> the words of its name, key and aliases
    entities: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: the user the belief belongs to (``None``: everyone in its namespaces)
    user: str | None = None


@dataclass(frozen=True)
class Pair:
    """An incoming belief, an existing one, and the cosine similarity of their texts."""

    new: BeliefView
    old: BeliefView
    similarity: float


@dataclass(frozen=True)
class Judgement:
    """A verdict on one pair, with the reason and the classifier that gave it."""

    verdict: Verdict
    reason: str
    classifier: str = DEFAULT


class Classifier(Protocol):
    """Judges pairs; one judgement per pair, in order."""

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        """One :class:`Judgement` per pair, in order."""
        ...


@functools.lru_cache(maxsize=8192)
def content_tokens(text: str) -> frozenset[str]:
    """The words of ``text`` that carry content: tokens minus :data:`STOPWORDS`.

    Cached: a batch compares each text with many others (an import's 256 beliefs with
    their 20 nearest each), and tokenizing is most of a judgement's cost.
    """
    return frozenset(t for t in tokenize(text) if t not in STOPWORDS)


def relations(text: str) -> frozenset[tuple[str, str, str]]:
    """``(left, relation, right)`` for each relation word of ``text`` between two content
    words: "I prefer tea over coffee" holds ``("tea", "over", "coffee")``."""
    tokens = tokenize(text)
    skipped = STOPWORDS | _RELATIONS
    found = set()
    for i, token in enumerate(tokens):
        if token not in _RELATIONS:
            continue
        left = next(
            (t for t in reversed(tokens[:i]) if t not in skipped and t not in _COMPARATIVES), None
        )
        right = next((t for t in tokens[i + 1 :] if t not in skipped), None)
        if left and right:
            found.add((left, token, right))
    return frozenset(found)


def reversed_relation(new: str, old: str) -> tuple[str, str, str] | None:
    """A relation of ``new`` that ``old`` holds the other way round ("coffee over tea" /
    "tea over coffee"), or ``None``."""
    ours, theirs = relations(new), relations(old)
    return next(
        (
            (left, rel, right)
            for left, rel, right in sorted(ours)
            if (right, rel, left) in theirs and (left, rel, right) not in theirs
        ),
        None,
    )


@dataclass(frozen=True)
class Slot:
    """A statement split at its pivot: attribute words, value words, whether it announces a
    change, and the value words a negation stands right before ("no longer hunter2")."""

    attribute: frozenset[str]
    value: frozenset[str]
    change: bool
    negated: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=8192)
def slot(text: str, subject_words: frozenset[str]) -> Slot | None:
    """Split ``text`` at its first copula or change verb; ``None`` when it has none.

    ``subject_words`` (the entity's own words) are removed from the attribute, so "the
    office Wi-Fi password" about ``office_wifi`` has the attribute ``{"password"}``. A
    correction's opening ("Actually, ...") is neither attribute nor pivot. Cached, as
    :func:`content_tokens` is: a correction is split against each of its neighbours.
    """
    text = _CORRECTION_LEAD.sub("", text)
    match = _PIVOT.search(text)
    if match is None:
        return None
    pivot = match.group(0).strip().lower()
    before, after = text[: match.start()], text[match.end() :]
    negated: set[str] = set()
    after_negation = False
    for token in tokenize(after):
        if token in NEGATIONS:
            after_negation = True
        elif token not in STOPWORDS:
            if after_negation:
                negated.add(token)
            after_negation = False
    return Slot(
        attribute=content_tokens(before) - subject_words,
        value=content_tokens(after),
        change=pivot in _CHANGE_VERBS,
        negated=frozenset(negated),
    )


def shared_subject(new: BeliefView, old: BeliefView) -> frozenset[str] | None:
    """The words of what both beliefs are about (shared entities, same canonical name),
    or ``None`` when they share no subject."""
    shared = new.entities.keys() & old.entities.keys()
    same_name = new.canonical_name is not None and new.canonical_name == old.canonical_name
    if not shared and not same_name:
        return None
    words: set[str] = set()
    for key in shared:
        words |= new.entities[key] | old.entities[key]
    if same_name and new.canonical_name:
        words |= set(tokenize(new.canonical_name))
    return frozenset(words)


def different_subjects(new: BeliefView, old: BeliefView) -> str | None:
    """Why two beliefs are about different things (never merged), or ``None``."""
    if new.user != old.user:
        # one user's belief never folds into, replaces or archives another's (or a shared one)
        return (
            f"different users ({new.user or 'shared'} vs {old.user or 'shared'}): "
            "never merged, however similar the text"
        )
    if new.entities and old.entities and not (new.entities.keys() & old.entities.keys()):
        return (
            f"different entities ({', '.join(sorted(new.entities))} vs "
            f"{', '.join(sorted(old.entities))}): never merged, however similar the text"
        )
    if new.canonical_name and old.canonical_name and new.canonical_name != old.canonical_name:
        return (
            f"different canonical names ({new.canonical_name} vs {old.canonical_name}): "
            "never merged, however similar the text"
        )
    return None


class DefaultClassifier:
    """The deterministic classifier: structure first, then similarity thresholds."""

    name = DEFAULT

    def __init__(self, settings: Settings, relation: RelationModel | None = None) -> None:
        self.settings = settings
        self.relation = relation or default_relation_model()  # the fitted one: read at start-up

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        """One judgement per pair (see the module docstring for the rules)."""
        return [self.judge_one(p) for p in pairs]

    @property
    def floor(self) -> float:
        """The cosine below which every pair is ``add``: each other verdict needs at least
        one of the thresholds."""
        s = self.settings
        return min(
            s.gate_noop_similarity,
            s.gate_polarity_similarity,
            s.gate_structure_similarity,
            s.gate_correction_similarity,
            s.gate_subsume_similarity,
            s.gate_compatible_similarity,
        )

    def floor_for(self, new: BeliefView) -> float:
        """The cosine below which every pair with ``new`` is ``add``, whatever the old belief.

        Only a structural pair (a shared subject, or a correction or credential where neither
        names one) is judged from :attr:`floor` up; any other from the pair model's threshold
        or a lower one of the text's own. A belief that names a
        subject, or may replace one by slot, keeps the structural floor.
        """
        s = self.settings
        structural = bool(new.entities or new.canonical_name) or (
            new.kind in CORRECTION_KINDS or new.kind in SINGLE_VALUED_KINDS
        )
        if structural:
            return self.floor
        own = min(
            s.gate_noop_similarity,
            s.gate_polarity_similarity,
            s.gate_subsume_similarity,
            s.gate_compatible_similarity,
            s.gate_model_similarity,
        )
        if frames.read(new.text).comparable:
            return min(own, s.gate_correction_similarity)
        return own

    def judge_one(self, pair: Pair) -> Judgement:
        """The verdict on one pair: the rules' (:meth:`by_rules`), unless the pair model reads
        a plain-text pair of one kind otherwise (:mod:`beliefgraph.gate.relation`)."""
        judged, new, old = self.by_rules(pair), pair.new, pair.old
        named = new.entities or old.entities or new.canonical_name or old.canonical_name
        if named or new.kind != old.kind or pair.similarity < self.floor_for(new):
            return judged
        words = (content_tokens(new.text), content_tokens(old.text))
        settled = self.relation.settle(
            new.text,
            old.text,
            old.id,
            pair.similarity,
            judged.verdict,
            words,
            compatible_from=self.settings.gate_compatible_similarity,
        )
        return judged if settled is None else Judgement(*settled)

    def by_rules(self, pair: Pair) -> Judgement:
        """The verdict of the rules alone on one pair."""
        s = self.settings
        new, old, sim = pair.new, pair.old, pair.similarity
        cos = f"cosine {sim:.2f}"
        new_words, old_words = content_tokens(new.text), content_tokens(old.text)
        if not new_words and not old_words:  # only function words: compare every token
            new_words, old_words = frozenset(tokenize(new.text)), frozenset(tokenize(old.text))
        same_kind = new.kind == old.kind

        if new_words == old_words and sim >= s.gate_polarity_similarity:
            # the same words the other way round: embeddings put these at 0.98+ too
            turned = reversed_relation(new.text, old.text)
            if turned is not None:
                left, rel, right = turned
                return Judgement(
                    Verdict.contradicts,
                    f"reverses {old.id}: {left} {rel} {right}, not {right} {rel} {left} ({cos})",
                )
        if new_words == old_words and sim >= s.gate_noop_similarity:
            if same_kind:
                return Judgement(Verdict.noop, f"the same statement as {old.id} ({cos})")
            return Judgement(
                Verdict.compatible,
                f"the same words as {old.id} but a different kind ({old.kind} -> {new.kind})",
            )
        flipped = new_words ^ old_words
        if flipped and flipped <= NEGATIONS and sim >= s.gate_polarity_similarity:
            return Judgement(
                Verdict.contradicts,
                f"negates {old.id}: the same statement with "
                f"{'/'.join(sorted(flipped))} added or removed ({cos})",
            )

        subject = shared_subject(new, old)
        replaces = new.kind in CORRECTION_KINDS or {new.kind, old.kind} <= SINGLE_VALUED_KINDS
        unnamed = not (new.entities or old.entities or new.canonical_name or old.canonical_name)
        structural = subject is not None or (replaces and unnamed)
        if structural and sim >= s.gate_structure_similarity:
            # when neither names its subject, only a correction (or a second credential) is
            # split, and its attribute words must be the old one's exactly: they are the subject
            judged = self._by_slot(new, old, subject, cos, replaces=replaces)
            if judged is not None:
                return judged
        if unnamed and sim >= s.gate_correction_similarity:
            judged = self._by_frame(
                new,
                old,
                cos,
                restates=sim >= s.gate_same_values_similarity,
                close=sim >= s.gate_restate_similarity,
            )
            if judged is not None:
                return judged
        if same_kind and sim >= s.gate_subsume_similarity and holds_the_other(new_words, old_words):
            if old_words < new_words:
                return Judgement(Verdict.subsumes, f"says all {old.id} says, and more ({cos})")
            if new_words < old_words:
                return Judgement(Verdict.subsumed, f"{old.id} already says all of it ({cos})")
        if sim >= s.gate_compatible_similarity:
            return Judgement(Verdict.compatible, f"close to {old.id} without conflict ({cos})")
        return Judgement(Verdict.add, f"nothing close enough to merge or replace ({cos})")

    @staticmethod
    def _by_frame(
        new: BeliefView, old: BeliefView, cos: str, *, restates: bool, close: bool
    ) -> Judgement | None:
        """Judge plain text that names no subject by what it says
        (:mod:`beliefgraph.language.frames`): a correction of the same thing replaces it, the
        same values in other words are the same statement; ``None`` when the texts alone
        cannot tell.

        A change announced is read from a lower cosine than a restatement: "moved the
        nightly backup to 04:30" sits at 0.40 with "nightly backups run at 02:00", while one
        shared value ("R01") is too little to call "Dana joined the R01" a restatement of
        "Kenji and Ruth are on the R01 grant" at such a distance. ``restates``: the cosine
        is at least ``gate_same_values_similarity``, so the same values may be the same
        statement; ``close``: at least ``gate_restate_similarity``, so one shared word or the
        same names may do."""
        if new.kind != old.kind and new.kind not in CORRECTION_KINDS:
            return None
        found = frames.relation(old.text, new.text, close=close)
        if found == "corrects":
            return Judgement(
                Verdict.contradicts,
                f"says what {old.id} said has changed: the same subject, another value or a "
                f"change announced ({cos})",
            )
        if found == "restates" and restates:
            shown = ", ".join(sorted(frames.read(new.text).values))
            return Judgement(
                Verdict.noop,
                f"{old.id} in other words: the same subject and values ({shown}; {cos})",
            )
        return None

    @staticmethod
    def _by_slot(
        new: BeliefView,
        old: BeliefView,
        subject: frozenset[str] | None,
        cos: str,
        *,
        replaces: bool,
    ) -> Judgement | None:
        """Judge by attribute and value; ``None`` when that does not decide.

        ``subject`` is the shared entity's words, or ``None`` for a correction or credential
        without one; ``replaces`` says the new belief is such a kind.
        """
        a, b = slot(new.text, subject or frozenset()), slot(old.text, subject or frozenset())
        if a is None or b is None:
            return None
        # "no longer hunter2, it is ...": a negation before the old value announces a change
        announces = a.change or bool(a.negated & b.value and not b.value & NEGATIONS)
        if subject is None:
            same_attribute = bool(a.attribute) and a.attribute == b.attribute
        elif not a.attribute and not b.attribute:
            # the entity is the attribute ("Wi-Fi password"), or both say something of the
            # entity as a whole ("Redis is ...", "Redis moved ..."): only a correction or a
            # one-value kind says which, so only they decide on the value alone
            same_attribute = replaces
        else:
            # One attribute inside the other ("password" in "wifi password") names the same
            # property only when what they share is a property: sharing a name ("Rosa ...",
            # "Rosa's new address ...") says they are about one person, not one property.
            shared = {fold_plural(w) for w in a.attribute & b.attribute}
            same_attribute = bool(a.attribute and b.attribute) and (
                a.attribute == b.attribute
                or (
                    bool(shared & ATTRIBUTES)
                    and (a.attribute <= b.attribute or b.attribute <= a.attribute)
                )
            )
        if not same_attribute:
            return None
        attribute = " ".join(sorted(a.attribute & b.attribute or a.attribute)) or "(the entity)"
        what = f"the same subject and attribute ({attribute!r}) as {old.id}"
        crossed = bool(a.value - b.value) and bool(b.value - a.value)
        if announces or crossed or (a.value and not b.value):
            shown = " ".join(sorted(a.value - b.value - NEGATIONS)) or "changed"
            return Judgement(
                Verdict.contradicts, f"{what} with a different value ({shown!r}; {cos})"
            )
        if a.value == b.value:
            if new.kind == old.kind:
                return Judgement(Verdict.noop, f"{what} with the same value ({cos})")
            return None
        if b.value < a.value and new.kind == old.kind:
            return Judgement(Verdict.subsumes, f"{what}, adding to its value ({cos})")
        if a.value < b.value and new.kind == old.kind:
            return Judgement(Verdict.subsumed, f"{what}; its value already holds this ({cos})")
        return None


_INSTRUCTIONS = """You curate an AI agent's long-term memory. For each numbered pair, say how
the NEW belief relates to the EXISTING one:
- "noop": it says the same thing (keep the existing one, reinforced);
- "compatible": related, both true, a little redundant;
- "contradicts": they cannot both be true now; the new one replaces the existing one;
- "subsumes": the new one says everything the existing one says, and more;
- "subsumed": the existing one already says everything the new one says;
- "add": unrelated enough to keep both as they are.
Answer with JSON only: {"verdicts": [{"pair": <number>, "verdict": "<one of the six>",
"reason": "<one sentence>"}]}, one entry per pair."""


class LLMClassifier:
    """Asks an OpenAI-compatible chat endpoint; falls back to ``fallback`` pair by pair.

    Args:
        url: the API base, e.g. ``http://127.0.0.1:8080/v1`` (``/chat/completions`` is added).
        model: the model name sent in the request.
        timeout: seconds before the request is abandoned.
        fallback: decides whatever the LLM does not.
        api_key: sent as ``Authorization: Bearer`` when given.
    """

    def __init__(
        self,
        url: str,
        model: str,
        *,
        timeout: float,
        fallback: Classifier,
        api_key: str | None = None,
    ) -> None:
        self.endpoint = ChatEndpoint(url, model, timeout, api_key)
        self.fallback = fallback
        self.name = f"llm:{model}"

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        """One judgement per pair: the LLM's where it gave a valid one, else the fallback's."""
        if not pairs:
            return []
        try:
            answers = self._ask(pairs)
        except LLMUnavailable as e:
            log.warning("LLM classifier unavailable, the default decides: %s", e)
            answers = {}
        missing = [i for i in range(len(pairs)) if i not in answers]
        if answers and missing:
            log.warning("LLM classifier gave no valid verdict for pairs %s", missing)
        fallen = dict(zip(missing, self.fallback.judge([pairs[i] for i in missing]), strict=True))
        return [answers.get(i) or fallen[i] for i in range(len(pairs))]

    def _ask(self, pairs: Sequence[Pair]) -> dict[int, Judgement]:
        listing = [
            {
                "pair": i,
                "new": {"text": p.new.text, "kind": p.new.kind},
                "existing": {"text": p.old.text, "kind": p.old.kind},
            }
            for i, p in enumerate(pairs)
        ]
        answer = self.endpoint.ask_json(
            _INSTRUCTIONS, json.dumps({"pairs": listing}, ensure_ascii=False)
        )
        if "verdicts" not in answer:
            raise LLMUnavailable(f"{self.endpoint.url} answered no 'verdicts'")
        verdicts = answer["verdicts"]
        return self._valid(verdicts, len(pairs))

    def _valid(self, verdicts: Any, count: int) -> dict[int, Judgement]:
        if not isinstance(verdicts, list):
            raise LLMUnavailable(f"'verdicts' is not a list: {verdicts!r:.200}")
        answers: dict[int, Judgement] = {}
        for item in verdicts:
            if not isinstance(item, dict):
                log.warning("LLM classifier: ignoring a malformed verdict %r", item)
                continue
            index, verdict, reason = item.get("pair"), item.get("verdict"), item.get("reason")
            valid = (
                isinstance(index, int)
                and 0 <= index < count
                and verdict in Verdict.__members__
                and isinstance(reason, str)
                and reason.strip()
            )
            if not valid:
                log.warning("LLM classifier: ignoring a malformed verdict %r", item)
                continue
            assert isinstance(index, int)  # narrowed by `valid`, which mypy cannot follow
            assert isinstance(reason, str)
            assert isinstance(verdict, str)
            answers[index] = Judgement(Verdict(verdict), reason, self.name)
        return answers


def build_classifier(settings: Settings) -> Classifier:
    """The classifier the settings ask for: the LLM's when ``gate_llm_url`` is set."""
    default = DefaultClassifier(settings)
    if not settings.gate_llm_url:
        return default
    key = settings.gate_llm_api_key.get_secret_value() if settings.gate_llm_api_key else None
    return LLMClassifier(
        settings.gate_llm_url,
        settings.gate_llm_model,
        timeout=settings.gate_llm_timeout,
        fallback=default,
        api_key=key,
    )
