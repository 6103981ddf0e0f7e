"""Generate realistic, heavily overlapping belief stores plus an answer key.

What it generates
-----------------
Each namespace is one agent's memory for a user or team: N ordinary beliefs about many
similar *things* at similar places. A thing is "<qualifier> <head>", e.g. "dock router",
"south laptop", "Maria's van", "the finance team's contract". Heads (router, door, drone,
contract, ...) and qualifiers (places such as north/dock/annex/east wing, and owners such
as "Maria's" or "the finance team's") come from shared vocabularies, and every namespace
reuses each of its heads with several qualifiers and each qualifier with several heads, so
near-miss things ("dock drone" vs "dock router" vs "north router") are everywhere.

Beliefs are rendered from several wording templates per type: change policies, codes /
PINs / passwords, costs, moves, preferences, schedule notes and decisions. Kinds follow the
type but are sometimes mislabelled the way real stores are (a code filed as "fact").

Each namespace also gets about ten questions, worded differently from the beliefs:
  * "exact": asks about (thing, type) where the namespace holds a belief of that type
    about that exact thing ("What is the dock router code?");
  * "absent": asks about a thing the namespace holds NO belief about at all, although its
    qualifier and its head each occur in other beliefs there (and, where possible, the same
    question type exists for a sibling thing, e.g. "dock drone code", "north router code").

How the answer key is computed
------------------------------
Every belief record carries "thing" and "type", the structured facts it was rendered from.
After the store is built, the key is derived only from the stored records:
  * about    = ids of all stored beliefs whose "thing" equals the asked thing;
  * expected = the id of the unique stored belief with that thing and the type the question
    asks for ("code"->code, "change"->policy, "cost"->cost, "where"->move,
    "schedule"->note, "plan"->decision, "preference"->preference), else null.
Absent questions therefore have expected=null and about=[] by construction, and the
generator asserts this (plus text uniqueness) before writing.

Usage:
    python3 bench/realistic_stores.py --namespaces 300 --beliefs 50 --seed 7 --out stores.json
Output is deterministic for a given (namespaces, beliefs, seed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

# ---------------------------------------------------------------------------
# Output record shapes


class Belief(TypedDict):
    id: str
    text: str
    kind: str
    priority: str
    thing: str
    type: str


class Question(TypedDict):
    query: str
    asked_thing: str
    asked_type: str
    expected: str | None
    about: list[str]
    kind_of_question: str


class Namespace(TypedDict):
    name: str
    beliefs: list[Belief]
    questions: list[Question]


class Store(TypedDict):
    generator: str
    seed: int
    namespaces: list[Namespace]


# ---------------------------------------------------------------------------
# Vocabularies


@dataclass(frozen=True)
class Head:
    noun: str
    category: str  # used in decisions ("get a new network device instead")
    types: tuple[str, ...]  # belief types that make sense for this head
    code_word: str = "code"  # what its code is called ("PIN", "password", ...)
    aspect: str = "settings"  # what a change policy protects
    upkeep: str = "serviced"  # verb for its schedule notes


MOVABLE = ("policy", "code", "cost", "move", "preference", "note", "decision")
# Nobody "prefers" a boiler or a safe for deliveries: fixed things get no preferences.
FIXED = ("policy", "code", "cost", "note", "decision")
MOVABLE_NO_CODE = ("policy", "cost", "move", "preference", "note", "decision")
FIXED_NO_CODE = ("policy", "cost", "note", "decision")
DOCUMENT = ("policy", "cost", "note", "decision")
LOGIN = ("policy", "code", "cost", "note", "decision")

HEADS: tuple[Head, ...] = (
    Head("router", "network device", MOVABLE, "password"),
    Head("door", "entrance", FIXED, "PIN"),
    Head("drone", "aircraft", MOVABLE),
    Head("laptop", "computer", MOVABLE, "password"),
    Head("server", "machine", MOVABLE, "password"),
    Head("printer", "office machine", MOVABLE_NO_CODE),
    Head("contract", "agreement", DOCUMENT, aspect="terms", upkeep="reviewed"),
    Head("locker", "storage unit", FIXED, "combination"),
    Head("van", "vehicle", MOVABLE, "alarm code"),
    Head("safe", "storage unit", FIXED, "combination"),
    Head("alarm", "security system", FIXED),
    Head("badge", "access card", MOVABLE, "PIN"),
    Head("thermostat", "climate control", FIXED),
    Head("camera", "security device", MOVABLE, "password"),
    Head("gate", "entrance", FIXED),
    Head("freezer", "appliance", MOVABLE_NO_CODE),
    Head("forklift", "vehicle", MOVABLE_NO_CODE),
    Head("account", "login", LOGIN, "password", upkeep="audited"),
    Head("vault", "storage room", FIXED),
    Head("kiosk", "terminal", MOVABLE, "PIN"),
    Head("projector", "AV device", MOVABLE_NO_CODE),
    Head("generator", "power unit", MOVABLE_NO_CODE),
    Head("scanner", "office machine", MOVABLE_NO_CODE),
    Head("truck", "vehicle", MOVABLE, "alarm code"),
    Head("cabinet", "storage unit", FIXED, "combination"),
    Head("terminal", "computer", MOVABLE, "password"),
    Head("boiler", "heating system", FIXED_NO_CODE),
    Head("elevator", "lift", FIXED, "override code"),
    Head("lease", "agreement", DOCUMENT, aspect="terms", upkeep="reviewed"),
    Head("tablet", "device", MOVABLE, "passcode"),
    Head("phone", "device", MOVABLE, "PIN"),
    Head("modem", "network device", MOVABLE, "password"),
    Head("keypad", "access panel", FIXED),
)

PLACES = (
    "north",
    "south",
    "east",
    "west",
    "annex",
    "dock",
    "lab",
    "warehouse",
    "lobby",
    "garage",
    "east wing",
    "west wing",
    "basement",
    "rooftop",
    "front desk",
    "loading bay",
    "back office",
    "clinic",
    "studio",
    "workshop",
    "mezzanine",
    "yard",
)
OWNERS = (
    "Maria's",
    "Omar's",
    "Priya's",
    "Jonas's",
    "Lena's",
    "the finance team's",
    "the ops team's",
    "the design team's",
    "the night crew's",
)
# Authorities deliberately reuse owner names so "Maria" appears outside her own things.
AUTHORITIES = (
    "legal",
    "facilities",
    "IT",
    "the security desk",
    "Maria",
    "the finance team",
    "the site manager",
    "procurement",
    "Omar",
    "the ops lead",
)
# Destinations overlap with place qualifiers on purpose: "the north drone moved to the lab".
DESTINATIONS = (
    "garage",
    "basement",
    "storage room",
    "loading bay",
    "lab",
    "annex",
    "second floor",
    "server room",
    "back office",
    "lobby",
    "warehouse",
    "mezzanine",
    "workshop",
)
PURPOSES = (
    "deliveries",
    "client visits",
    "night shifts",
    "weekend jobs",
    "quick errands",
    "training sessions",
    "demos",
    "the Monday stand-up",
    "urgent jobs",
    "audits",
)
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

# Codes and policies are what agents get asked about most, so they are stored most.
TYPE_WEIGHTS = {
    "policy": 5,
    "code": 5,
    "cost": 3,
    "move": 3,
    "preference": 2,
    "note": 2,
    "decision": 2,
}
# Question type -> the belief type that answers it.
ANSWERED_BY = {
    "code": "code",
    "change": "policy",
    "cost": "cost",
    "where": "move",
    "schedule": "note",
    "plan": "decision",
    "preference": "preference",
}
ASKED_FOR = {belief_type: asked for asked, belief_type in ANSWERED_BY.items()}
ASK_WEIGHTS = {
    "code": 4,
    "change": 4,
    "cost": 2,
    "where": 2,
    "schedule": 1,
    "plan": 1,
    "preference": 1,
}


# ---------------------------------------------------------------------------
# Noun phrases


@dataclass(frozen=True)
class Thing:
    qual: str
    head: Head

    @property
    def key(self) -> str:
        return f"{self.qual} {self.head.noun}"

    @property
    def np(self) -> str:
        """Phrase as used mid-sentence: 'the dock router', "Maria's router"."""
        if self.qual.endswith("'s"):
            return self.key
        return f"the {self.key}"

    @property
    def bare(self) -> str:
        """Label form without an article: 'dock router', "finance team's router"."""
        return self.key.removeprefix("the ")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------------------
# Belief rendering: each returns (text, kind, priority)

Rendered = tuple[str, str, str]


@dataclass
class Ctx:
    """Per-namespace random source plus values that must stay unique in the namespace."""

    rng: random.Random
    used_codes: set[str]

    def code(self) -> str:
        # Random digits (leading zeros allowed), unique so a code names one thing only.
        while True:
            width = self.rng.choice((4, 4, 4, 5, 6))
            value = "".join(self.rng.choice("0123456789") for _ in range(width))
            if value not in self.used_codes:
                self.used_codes.add(value)
                return value


def render_policy(t: Thing, c: Ctx) -> Rendered:
    auth, asp = c.rng.choice(AUTHORITIES), t.head.aspect
    text = c.rng.choice(
        (
            f"Any change to {t.np} must be approved by {auth} first.",
            f"Don't change {t.np} {asp} without asking {auth}.",
            f"Never modify {t.np} unless {auth} signs off.",
            f"{cap(t.np)} {asp} may only be changed with written approval from {auth}.",
            f"Before editing {t.np} {asp}, check with {auth}.",
        )
    )
    return text, "policy", c.rng.choice(("high", "critical"))


def render_code(t: Thing, c: Ctx) -> Rendered:
    code, sec = c.code(), t.head.code_word
    text = c.rng.choice(
        (
            f"{cap(t.np)} {sec} is {code}.",
            f"{cap(t.bare)} {sec}: {code}",
            f"The {sec} for {t.np} is {code}.",
            f"Use {code} to get into {t.np}.",
            f"{cap(t.np)}: {sec} {code}, don't share it.",
        )
    )
    # Real stores mislabel secrets as plain facts or context now and then.
    kind = c.rng.choices(("credential", "fact", "context"), (75, 15, 10))[0]
    return text, kind, c.rng.choice(("high", "high", "normal"))


def render_cost(t: Thing, c: Ctx) -> Rendered:
    amount = f"${c.rng.randrange(40, 25000):,}"
    text = c.rng.choice(
        (
            f"{cap(t.np)} cost {amount}.",
            f"We paid {amount} for {t.np}.",
            f"{cap(t.np)} was bought for {amount}.",
            f"Price of {t.np}: {amount}.",
            f"Spent {amount} on {t.np} last year.",
        )
    )
    return text, "fact", c.rng.choice(("normal", "normal", "low"))


def render_move(t: Thing, c: Ctx) -> Rendered:
    dest, old = c.rng.sample(DESTINATIONS, 2)
    options = (
        (f"{cap(t.np)} moved to the {dest}.", "fact"),
        (f"{cap(t.np)} is now kept in the {dest}.", "fact"),
        (f"We relocated {t.np} to the {dest}.", "context"),
        (f"Heads up, {t.np} now lives in the {dest}.", "context"),
        (f"Correction: {t.np} is in the {dest}, not the {old}.", "correction"),
    )
    text, kind = c.rng.choice(options)
    return text, kind, c.rng.choice(("normal", "low"))


def render_preference(t: Thing, c: Ctx) -> Rendered:
    purpose = c.rng.choice(PURPOSES)
    text = c.rng.choice(
        (
            f"I prefer {t.np} for {purpose}.",
            f"Please use {t.np} for {purpose} if it's free.",
            f"For {purpose} I like {t.np} best.",
            f"{cap(t.np)} is my go-to for {purpose}.",
        )
    )
    return text, "preference", c.rng.choice(("normal", "low"))


def render_note(t: Thing, c: Ctx) -> Rendered:
    month, day, up = c.rng.choice(MONTHS), c.rng.choice(WEEKDAYS), t.head.upkeep
    text = c.rng.choice(
        (
            f"{cap(t.np)} is {up} every {month}.",
            f"{cap(t.np)} gets {up} on the first {day} of {month}.",
            f"{cap(t.np)} is {up} every {day} morning.",
            f"Reminder: {t.np} has to be {up} each {month}.",
        )
    )
    kind = c.rng.choice(("fact", "context"))
    return text, kind, c.rng.choice(("normal", "low"))


def render_decision(t: Thing, c: Ctx) -> Rendered:
    month, cat = c.rng.choice(MONTHS), t.head.category
    text = c.rng.choice(
        (
            f"We decided to replace {t.np} next quarter.",
            f"Decision: {t.np} stays until {month}.",
            f"We agreed to upgrade {t.np} in {month}.",
            f"Decision: retire {t.np} and get a new {cat} instead.",
            f"We're keeping {t.np}, no new {cat} this year.",
        )
    )
    return text, "decision", c.rng.choice(("normal", "high"))


RENDERERS: dict[str, Callable[[Thing, Ctx], Rendered]] = {
    "policy": render_policy,
    "code": render_code,
    "cost": render_cost,
    "move": render_move,
    "preference": render_preference,
    "note": render_note,
    "decision": render_decision,
}


# ---------------------------------------------------------------------------
# Question wording (deliberately different from the belief templates)


def ask(asked: str, t: Thing, rng: random.Random) -> str:
    h = t.head
    options: dict[str, tuple[str, ...]] = {
        "code": (
            f"What is {t.np} {h.code_word}?",
            f"What's the {h.code_word} for {t.np}?",
            f"How do I get into {t.np}?",
            f"I need the {h.code_word} of {t.np}, do you have it?",
        ),
        "change": (
            f"Can I change {t.np} {h.aspect} now?",
            f"Is it OK to update {t.np} {h.aspect} today?",
            f"Am I allowed to modify {t.np}?",
            f"I'd like to tweak {t.np} {h.aspect}. Anything I should know first?",
        ),
        "cost": (
            f"How much did {t.np} cost?",
            f"What did we pay for {t.np}?",
            f"What was the price of {t.np}?",
        ),
        "where": (
            f"Where is {t.np} now?",
            f"Where can I find {t.np}?",
            f"Which room is {t.np} in these days?",
        ),
        "schedule": (
            f"When is {t.np} {h.upkeep}?",
            f"How often does {t.np} get {h.upkeep}?",
        ),
        "plan": (
            f"What did we decide about {t.np}?",
            f"Are there any plans for {t.np}?",
        ),
        "preference": (
            f"What do I like to use {t.np} for?",
            f"Do I have a preference about {t.np}?",
        ),
    }
    return rng.choice(options[asked])


# ---------------------------------------------------------------------------
# Namespace layout: which things exist and which belief types each one gets


def pick_vocab(rng: random.Random, n_things: int) -> tuple[list[Head], list[str]]:
    # A roughly square head x qualifier grid with ~40% empty cells leaves room for
    # absent questions whose qualifier and head both occur in the namespace.
    side = max(2, math.ceil(math.sqrt(n_things * 1.7)))
    n_heads = min(len(HEADS), max(2, side + rng.choice((-1, 0, 1))))
    n_quals = max(2, side + rng.choice((-1, 0, 1)))
    n_owners = min(len(OWNERS), rng.randint(0, max(1, n_quals // 3)))
    quals = rng.sample(OWNERS, n_owners) + rng.sample(PLACES, min(len(PLACES), n_quals - n_owners))
    return rng.sample(HEADS, n_heads), quals


def least_used(rng: random.Random, counts: list[int], allowed: list[int]) -> int:
    low = min(counts[i] for i in allowed)
    return rng.choice([i for i in allowed if counts[i] == low])


def pick_cells(
    rng: random.Random, n_heads: int, n_quals: int, target: int, cap_: int
) -> list[tuple[int, int]]:
    """Choose (head, qualifier) cells so each head and qualifier is used at least twice."""
    cells: list[tuple[int, int]] = []
    hc, qc = [0] * n_heads, [0] * n_quals

    def add(h: int, q: int) -> None:
        cells.append((h, q))
        hc[h] += 1
        qc[q] += 1

    def free_quals(h: int) -> list[int]:
        return [q for q in range(n_quals) if (h, q) not in cells]

    def free_heads(q: int) -> list[int]:
        return [h for h in range(n_heads) if (h, q) not in cells]

    # Coverage first: overlap within a namespace is the whole point of these stores.
    for h in rng.sample(range(n_heads), n_heads) * 2:
        if len(cells) < cap_ and free_quals(h):
            add(h, least_used(rng, qc, free_quals(h)))
    for q in range(n_quals):
        while qc[q] < 2 and len(cells) < cap_ and free_heads(q):
            add(least_used(rng, hc, free_heads(q)), q)
    empty = [(h, q) for h in range(n_heads) for q in range(n_quals) if (h, q) not in cells]
    rng.shuffle(empty)
    while len(cells) < min(target, cap_) and empty:
        add(*empty.pop())
    return cells


def weighted(rng: random.Random, items: list[str], weights: dict[str, int]) -> str:
    return rng.choices(items, [weights[i] for i in items])[0]


def assign_types(
    rng: random.Random, things: list[Thing], spare: list[Thing], n_beliefs: int
) -> list[tuple[Thing, str]]:
    """Give every thing one belief type, then spread the rest; one belief per (thing, type)."""
    chosen: dict[str, list[str]] = {t.key: [] for t in things}
    for t in things:
        chosen[t.key].append(weighted(rng, list(t.head.types), TYPE_WEIGHTS))
    total = len(things)
    while total < n_beliefs:
        open_ = [(t, ty) for t in things for ty in t.head.types if ty not in chosen[t.key]]
        if not open_:
            if not spare:
                break  # vocabulary exhausted: store ends up smaller than asked
            extra = spare.pop()
            things.append(extra)
            chosen[extra.key] = []
            continue
        t, ty = rng.choices(open_, [TYPE_WEIGHTS[ty] for _, ty in open_])[0]
        chosen[t.key].append(ty)
        total += 1
    return [(t, ty) for t in things for ty in chosen[t.key]]


def build_beliefs(
    rng: random.Random, pairs: list[tuple[Thing, str]]
) -> tuple[list[Belief], dict[str, Thing]]:
    ctx = Ctx(rng, set())
    rng.shuffle(pairs)  # interleave things and types like a real memory log
    width = max(2, len(str(len(pairs))))
    beliefs: list[Belief] = []
    seen: set[str] = set()
    for i, (t, ty) in enumerate(pairs, start=1):
        text, kind, priority = RENDERERS[ty](t, ctx)
        while text in seen:  # templates make this near-impossible; re-roll just in case
            text, kind, priority = RENDERERS[ty](t, ctx)
        seen.add(text)
        beliefs.append(
            Belief(
                id=f"b{i:0{width}d}",
                text=text,
                kind=kind,
                priority=priority,
                thing=t.key,
                type=ty,
            )
        )
    return beliefs, {t.key: t for t, _ in pairs}


# ---------------------------------------------------------------------------
# Questions and the answer key


def answer_key(beliefs: list[Belief], thing: str, asked: str) -> tuple[str | None, list[str]]:
    """Derive (expected, about) purely from the stored records."""
    about = [b["id"] for b in beliefs if b["thing"] == thing]
    hits = [b["id"] for b in beliefs if b["thing"] == thing and b["type"] == ANSWERED_BY[asked]]
    assert len(hits) <= 1, f"ambiguous key for {thing!r}/{asked}"
    return (hits[0] if hits else None), about


def make_question(
    beliefs: list[Belief], t: Thing, asked: str, kind: str, rng: random.Random
) -> Question:
    expected, about = answer_key(beliefs, t.key, asked)
    return Question(
        query=ask(asked, t, rng),
        asked_thing=t.key,
        asked_type=asked,
        expected=expected,
        about=about,
        kind_of_question=kind,
    )


def exact_questions(
    rng: random.Random, beliefs: list[Belief], things: dict[str, Thing], n: int
) -> list[Question]:
    pool = {b["id"]: b for b in beliefs}
    out: list[Question] = []
    while len(out) < n and pool:
        asked = weighted(rng, sorted({ASKED_FOR[b["type"]] for b in pool.values()}), ASK_WEIGHTS)
        pick = rng.choice([b for b in pool.values() if ASKED_FOR[b["type"]] == asked])
        del pool[pick["id"]]
        out.append(make_question(beliefs, things[pick["thing"]], asked, "exact", rng))
    return out


def absent_candidates(
    beliefs: list[Belief], things: dict[str, Thing], heads: list[Head], quals: list[str]
) -> list[tuple[int, Thing, str]]:
    """(score, thing, asked) for every unstored cell; score counts sibling evidence."""
    by_head: set[tuple[str, str]] = set()
    by_qual: set[tuple[str, str]] = set()
    for b in beliefs:
        t = things[b["thing"]]
        by_head.add((t.head.noun, b["type"]))
        by_qual.add((t.qual, b["type"]))
    used_heads = {t.head.noun for t in things.values()}
    used_quals = {t.qual for t in things.values()}
    out: list[tuple[int, Thing, str]] = []
    for h in heads:
        for q in quals:
            t = Thing(q, h)
            if t.key in things or h.noun not in used_heads or q not in used_quals:
                continue
            for ty in h.types:
                score = ((h.noun, ty) in by_head) + ((q, ty) in by_qual)
                out.append((score, t, ASKED_FOR[ty]))
    return out


def absent_questions(
    rng: random.Random,
    beliefs: list[Belief],
    things: dict[str, Thing],
    vocab: tuple[list[Head], list[str]],
    n: int,
) -> list[Question]:
    cands = absent_candidates(beliefs, things, *vocab)
    rng.shuffle(cands)
    # Prefer the hardest near-misses: same question type stored for a sibling head and qual.
    cands.sort(key=lambda c: -c[0])
    out: list[Question] = []
    asked_things: set[str] = set()
    for _, t, asked in cands:
        if len(out) >= n:
            break
        if t.key not in asked_things:
            asked_things.add(t.key)
            out.append(make_question(beliefs, t, asked, "absent", rng))
    return out


# ---------------------------------------------------------------------------
# Top level


def generate_namespace(index: int, n_beliefs: int, seed: int) -> Namespace:
    # Per-namespace string seed: deterministic and independent of the namespace count.
    # Benchmark data, not crypto: a seeded PRNG is exactly what is wanted here.
    rng = random.Random(f"realistic-stores:{seed}:{index}")  # noqa: S311
    n_things = max(1, round(n_beliefs / 2.2))
    heads, quals = pick_vocab(rng, n_things)
    cells = pick_cells(rng, len(heads), len(quals), n_things, n_beliefs)
    things = [Thing(quals[q], heads[h]) for h, q in cells]
    taken = {t.key for t in things}
    spare = [Thing(q, h) for h in heads for q in quals if f"{q} {h.noun}" not in taken]
    rng.shuffle(spare)
    beliefs, by_key = build_beliefs(rng, assign_types(rng, things, spare, n_beliefs))
    n_absent = 5
    questions = absent_questions(rng, beliefs, by_key, (heads, quals), n_absent)
    questions += exact_questions(rng, beliefs, by_key, 10 - len(questions))
    rng.shuffle(questions)
    return Namespace(name=f"ns-{index:04d}", beliefs=beliefs, questions=questions)


def generate(namespaces: int, beliefs: int, seed: int) -> Store:
    return Store(
        generator="bench/realistic_stores.py",
        seed=seed,
        namespaces=[generate_namespace(i, beliefs, seed) for i in range(1, namespaces + 1)],
    )


def validate(store: Store) -> None:
    """Re-check the answer key against the stored beliefs; raises AssertionError."""
    for ns in store["namespaces"]:
        texts = [b["text"] for b in ns["beliefs"]]
        assert len(texts) == len(set(texts)), f"{ns['name']}: duplicate belief text"
        ids = {b["id"] for b in ns["beliefs"]}
        stored_things = {b["thing"] for b in ns["beliefs"]}
        for q in ns["questions"]:
            about = [b["id"] for b in ns["beliefs"] if b["thing"] == q["asked_thing"]]
            assert q["about"] == about
            assert set(about) <= ids
            if q["kind_of_question"] == "exact":
                assert q["expected"] is not None
                assert q["expected"] in q["about"]
            else:
                assert q["expected"] is None
                assert q["about"] == []
                assert q["asked_thing"] not in stored_things


def summary(store: Store) -> str:
    nss = store["namespaces"]
    qs = [q for ns in nss for q in ns["questions"]]
    exact = sum(q["kind_of_question"] == "exact" for q in qs)
    n_beliefs = sum(len(ns["beliefs"]) for ns in nss)
    return (
        f"realistic_stores: seed={store['seed']} namespaces={len(nss)} beliefs={n_beliefs}"
        f" questions={len(qs)} exact={exact} absent={len(qs) - exact}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--namespaces", type=int, default=300)
    parser.add_argument("--beliefs", type=int, default=50, help="beliefs per namespace")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="-", help="output path, '-' for stdout")
    args = parser.parse_args(argv)
    store = generate(args.namespaces, args.beliefs, args.seed)
    validate(store)
    payload = json.dumps(store, indent=1, ensure_ascii=False)
    if args.out == "-":
        sys.stdout.write(payload + "\n")
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(payload + "\n")
    print(summary(store), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
