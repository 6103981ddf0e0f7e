"""The last word on how two plain-text beliefs relate: a model learned from labelled pairs.

The default classifier's rules (:mod:`beliefgraph.gate.classifier`) read a pair by its
structure: the same words, a negation, a slot of a named subject, a change announced, the same
values in other words. Each reading is right more often than not, and each was written for the
pairs it was diagnosed on; a correction said as "we're doing it at home instead" or a
restatement that shares two words with what it restates slips past all of them. Here the rules'
verdict is one feature beside the pair's cosine, how many content words the two share, the
numbers one keeps, adds or drops, a negation on one side only, the words that announce a change
("now", "instead", "anymore", ...), the words only one side has, and what the two statements'
frames say of each other (:func:`~beliefgraph.language.frames.compared`: the same subject or
not, the same values or others, whose each is). A multinomial logistic model
(``relation.json`` beside this module, fitted by ``bench/train_gate.py`` on the labelled pairs
already read, and on the neighbours the notes of the stores of ordinary notes meet, counted
less: what a store holds beside a note is nearly never its correction) gives each label a
probability, and the gate reads the pair as the relation that
costs least in expectation - the second *corrects* the first, *restates* it, or stands
*beside* it: replacing what was not corrected costs 6, and so does merging what should stay
apart (the second statement is not stored), any other miss 1. It never undoes a change the rules
read (a correction dropped or merged would lose its new value), never reads otherwise than the
rules two texts one of which says all the other says, nor reads one of a numbered row as
correcting another ("web-02" / "web-01"), and a restatement keeps every number, in digits or
words. Left out one author at a time, it applied more corrections and merged more
restatements than the rules, with fewer false merges, and replaced a few more beliefs that were
not corrected (``bench/results/gate_model.md``).

It decides only two beliefs of the same kind that name no subject (no ``about``, no canonical
name), as the labelled pairs are (it was fitted on all of them), from the cosine
``gate_model_similarity`` up, or a lower one the rules read at (the floor of
:meth:`~beliefgraph.gate.classifier.DefaultClassifier.floor_for`). A subject
named by the writer is the rules' to compare, slot by slot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path

from beliefgraph.language import frames
from beliefgraph.language.quantities import in_other_units
from beliefgraph.language.values import by_kind, same_values, values
from beliefgraph.logit import Logit, read_logit
from beliefgraph.models import Verdict
from beliefgraph.text import NEGATIONS, tokenize, word_set

#: where the fitted model lives (written by bench/train_gate.py)
RELATION_FILE = Path(__file__).with_name("relation.json")

#: the relations the model tells apart, in the order of its classes
RELATIONS = ("corrects", "restates", "beside")
#: what each relation makes of the pair
_VERDICTS = {"corrects": Verdict.contradicts, "restates": Verdict.noop}
#: verdicts that merge the two into one belief: a "restates" reading keeps them as they are
_MERGING = frozenset({Verdict.noop, Verdict.subsumes, Verdict.subsumed})
#: verdicts that replace or merge: a "beside" reading undoes them
_ACTING = _MERGING | {Verdict.contradicts}
#: the words a correction announces itself with
CHANGE_WORDS = word_set(
    """actually now instead anymore longer changed moved switched new no not stopped scratch
    update turns cancelled canceled replaced moving switching changing going"""
)
_NUMBER = re.compile(r"\d+(?:[.:,]\d+)?")
#: numbers in words ("one" and "once" are function words, never content): "twice a week" does
#: not restate "three times a week"
NUMBER_WORDS = word_set(
    """zero two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred thousand twice thrice half quarter dozen double triple first second third fourth
    fifth"""
)


def relation_features(
    new: str, old: str, similarity: float, rules: Verdict, words: tuple[frozenset[str], ...]
) -> dict[str, float]:
    """What the model reads of a pair: the rules' verdict, the cosine, the content words shared
    and not (``words``: the new text's content words, then the old one's), numbers,
    negations, change words, and what the frames compare."""
    b, a = words
    shared = len(a & b)
    found: dict[str, float] = {
        f"rules={rules.value}": 1.0,
        "cosine": similarity,
        "cosine_squared": similarity * similarity,
        "shared_of_all": shared / max(1, len(a | b)),
        "shared_of_shorter": shared / max(1, min(len(a), len(b))),
        "shared_of_longer": shared / max(1, max(len(a), len(b))),
        "length_ratio": min(len(a), len(b)) / max(1, len(a), len(b)),
    }
    before, after = set(_NUMBER.findall(old)), set(_NUMBER.findall(new))
    found["number_kept"] = float(bool(before & after))
    found["number_added"] = float(bool(after - before))
    found["number_dropped"] = float(bool(before - after))
    found["numbers_all_new"] = float(bool(before) and bool(after) and not before & after)
    said, was = _tokens(new), _tokens(old)
    found["negation_one_side"] = float(_negations(said) != _negations(was))
    found |= {f"change:{w}": 1.0 for w in set(said) & CHANGE_WORDS}
    found |= {f"new:{w}": 1.0 for w in set(said)}
    found |= {f"new_only:{w}": 1.0 for w in b - a}
    found |= {f"old_only:{w}": 1.0 for w in a - b}
    found |= frames.compared(old, new)
    return found


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    """:func:`tokenize`, read once a text: an import compares each belief with many."""
    return tuple(tokenize(text))


def _negations(tokens: Sequence[str]) -> int:
    return sum(t in NEGATIONS for t in tokens)


class RelationModel(Logit):
    """A multinomial logistic model of a pair's label (``classes``: the labels it was fitted
    on), and the cost of reading a pair of each label as each relation of :data:`RELATIONS`
    (``costs[label][relation]``)."""

    def read(self, found: Mapping[str, float]) -> tuple[str, list[float]]:
        """The relation of least expected cost, and each label's probability."""
        at, p = self.least_cost(found)
        return RELATIONS[at], p

    def settle(
        self,
        new: str,
        old: str,
        old_id: str,
        similarity: float,
        rules: Verdict,
        words: tuple[frozenset[str], ...],
        *,
        compatible_from: float,
    ) -> tuple[Verdict, str] | None:
        """The verdict and reason where the model reads the pair otherwise than ``rules``, else
        ``None``. ``compatible_from``: the cosine from which a pair kept apart is
        ``compatible`` (the older one takes the redundancy penalty) rather than ``add``."""
        if read_exactly(rules, words):
            return None
        found = relation_features(new, old, similarity, rules, words)
        relation, p = self.read(found)
        if relation == "restates" and counts_otherwise(new, old, found, words):
            return None
        # how likely the labels are that this reading costs nothing for
        at = RELATIONS.index(relation)
        sure = f"{sum(q for q, row in zip(p, self.costs, strict=True) if row[at] == 0):.2f}"
        cos = f"cosine {similarity:.2f}"
        if relation == "beside":
            if rules not in _ACTING:
                return None
            verdict = Verdict.compatible if similarity >= compatible_from else Verdict.add
            why = (
                f"kept beside {old_id}: the pair model reads neither a correction nor a restatement"
            )
            return verdict, f"{why} (p {sure}; {cos}; the rules said {rules.value})"
        verdict = _VERDICTS[relation]
        if rules == verdict or (relation == "restates" and rules in _MERGING):
            return None
        if relation == "corrects" and row_mates(new, old):
            return None
        what = "corrects" if relation == "corrects" else "says in other words"
        return verdict, f"{what} {old_id}, by the pair model (p {sure}; {cos})"


def read_exactly(rules: Verdict, words: tuple[frozenset[str], ...]) -> bool:
    """Whether the rules' reading stands, whatever the model would say: a change read (a
    correction kept beside what it corrects, or merged into it, would lose its new value), or
    two texts one of which says all the other says (the same statement, one negated, one
    that holds the other and takes none of it back with a negation: the rules read those
    exactly)."""
    new, old = words
    return rules is Verdict.contradicts or holds_the_other(new, old) or (new ^ old) <= NEGATIONS


def holds_the_other(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether one of two texts' content words holds all the other's, and what it adds takes
    none of it back with a negation ("rex isn't allergic to chicken, ..." holds no "rex is
    allergic to chicken")."""
    return (a <= b or b <= a) and not (a ^ b) & NEGATIONS


#: a code: letters, then digits (its stem and its number)
_CODE = re.compile(r"([a-z]+)\d+")


def row_mates(new: str, old: str) -> bool:
    """Whether the two texts name two of a numbered row, and no one thing twice: codes of one
    stem with other numbers that say which thing ("web-01" / "web-02"), not what value it has
    ("the wifi is maple77" / "... maple78"). A statement about one is no correction of a
    statement about the other."""
    new_said, old_said = frames.read(new).said, frames.read(old).said
    if new_said and new_said == old_said:
        return False  # "UA456 is our flight" after "UA123 is our flight": one thing's new value
    a, b = _naming_codes(new, new_said), _naming_codes(old, old_said)
    return bool(a) and bool(b) and not a & b and bool({_stem(c) for c in a} & {_stem(c) for c in b})


def _naming_codes(text: str, given: frozenset[str]) -> frozenset[str]:
    """The words of ``text`` made of letters and digits both ("web01", "b12"), but those it
    gives as a value (``given``: its words after its verb)."""
    return frozenset(t for t in tokenize(text) if _CODE.fullmatch(t) and t not in given)


def _stem(code: str) -> str:
    return _CODE.sub(lambda m: m.group(1), code)


def counts_otherwise(
    new_text: str, old_text: str, found: Mapping[str, float], words: tuple[frozenset[str], ...]
) -> bool:
    """Whether a number changed, in digits or words, or another value of a kind both give
    ("oct 2025" / "april 2025"): no restatement then. The same numbers written otherwise are
    no change where :mod:`~beliefgraph.language.values` reads them the same and reads every
    number word one of them has alone: "May 14 at 3:30 pm" gives what "5/14, 15:30" gives,
    "six percent" what "6%" gives; "the third floor" is no "second floor". Nor is one quantity
    in another unit (:mod:`~beliefgraph.language.quantities`), the other numbers the same."""
    new, old = words
    spelled = (new ^ old) & NUMBER_WORDS
    given, had = frames.read(new_text).values, frames.read(old_text).values
    if given and had:
        ours, theirs = by_kind(given), by_kind(had)
        if any(not same_values(ours[k], theirs[k]) for k in ours.keys() & theirs.keys()):
            return True
        if same_values(given, had) and all(
            _read_as_value(w, new_text if w in new else old_text) for w in spelled
        ):
            return False
    if in_other_units(new_text, old_text):
        return False  # one quantity in another unit: "22 lbs" / "~10 kg"
    return bool(found["number_added"] or found["number_dropped"] or spelled)


def _read_as_value(word: str, text: str) -> bool:
    """Whether the value reader reads ``word`` of ``text`` as (part of) a value: the text's
    values change without it ("six" of "six percent", not "third" of "the third floor")."""
    without = re.sub(rf"\b{re.escape(word)}\b", " ", text, flags=re.IGNORECASE)
    return values(without) != values(text)


def load_relation_model(path: Path = RELATION_FILE) -> RelationModel:
    """The model ``path`` holds (``{"classes", "weights", "intercept", "costs"}``).

    Raises:
        ValueError: a width does not match the labels and :data:`RELATIONS`, or a cost is not
            a finite number.
    """
    return read_logit(path, RelationModel, len(RELATIONS), label="label")


@cache
def default_relation_model() -> RelationModel:
    """The fitted model, read once."""
    return load_relation_model()
