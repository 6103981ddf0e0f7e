"""What a user's sentence claims, and the statements made of it: kind, status, trust and why
it matters, a reason linked to its claim, a ``/remember`` pinned."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from beliefgraph.importer.kinds import classify_user, user_fact
from beliefgraph.importer.sentences import split_reason, tidy
from beliefgraph.importer.statements import (
    ASSISTANT_PREFIX,
    ASSISTANT_TRUST,
    REMEMBER_TRUST,
    REMEMBER_WHY,
    USER_TRUST,
    Statement,
)
from beliefgraph.models import EpistemicStatus, Kind, Priority, Status

#: why each kind of statement matters, said to whoever reads it back
WHY = {
    Kind.preference: "Follow this preference of the user's unless they say otherwise.",
    Kind.decision: "Treat this as decided; do not reopen it without the user.",
    Kind.correction: "This corrects something said earlier; prefer it over the older statement.",
    Kind.policy: "Apply this rule whenever it is relevant.",
    Kind.open_question: "Still undecided: treat it neither as a decision nor as a refusal.",
    Kind.context: "The reason given for a related statement.",
    Kind.fact: "Stated by the user.",
    Kind.observation: "Only the assistant said this; confirm with the user before relying on it.",
    Kind.suggestion: "A suggestion by the assistant, not a decision of the user's.",
}

#: where one sentence may hold two claims: "I prefer window seats, and never book me ...",
#: "Please stop sending Amazon links, I only buy local". After a bare comma (``weak``) a new
#: claim starts only if it is of another kind: "it's the 23rd not the 22nd, I had it wrong"
#: is one correction
_CLAIM_BREAK = re.compile(
    r"\s*(?:[,;]\s*(?:and|so|but|also)\s+|;\s*|(?P<weak>,\s+(?=(?:i|we|please|don'?t|no)\b)))",
    re.IGNORECASE,
)


def claims(sentence: str) -> list[tuple[str, tuple[str, Kind]]]:
    """What a user's sentence claims, each with its cue and kind: one claim, or two or more
    when it joins claims that each carry a cue of their own (a part without one stays with
    the claim before it: "we decided against it, way too pricey")."""
    return list(_claims(sentence))


@functools.lru_cache(maxsize=4096)
def _claims(sentence: str) -> tuple[tuple[str, tuple[str, Kind]], ...]:
    # cached: each remainder of a sentence is split once, however many ways lead to it
    whole = _claim(sentence)
    if whole is None:
        return ()  # a sentence that carries no cue as a whole carries none in its parts
    for m in _CLAIM_BREAK.finditer(sentence):
        first, rest = sentence[: m.start()], sentence[m.end() :]
        head = _claim(first)
        if head is None or not rest.strip():
            continue
        tail = _claims(rest)
        if tail and not (m["weak"] and tail[0][1][1] is head[1]):
            return ((first, head), *tail)
    return ((sentence, whole),)


@functools.lru_cache(maxsize=8192)
def _claim(sentence: str) -> tuple[str, Kind] | None:
    return classify_user(sentence) or (("fact", Kind.fact) if user_fact(sentence) else None)


def user_statement(text: str, cue: str, kind: Kind) -> Statement:
    """A user's statement of ``kind``: a hedge is exploratory and floated, the rest active."""
    hedged = kind is Kind.open_question
    return Statement(
        text=text,
        kind=kind,
        speaker="user",
        status=Status.exploratory if hedged else Status.active,
        epistemic_status=EpistemicStatus.floated if hedged else EpistemicStatus.reported,
        trust=USER_TRUST,
        confidence=0.5 if hedged else 0.8,
        importance=0.7 if kind in (Kind.policy, Kind.decision, Kind.correction) else 0.5,
        priority=Priority.high if kind is Kind.policy else Priority.normal,
        why_it_matters=WHY.get(kind),
        cue=cue,
    )


def picked(text: str, offer: str) -> Statement:
    """A user's pick of what the assistant offered in ``offer``: a decision, the offer in
    its why."""
    return replace(
        user_statement(text, "pick", Kind.decision),
        why_it_matters=f'Picked from what the assistant offered: "{offer[:200]}". '
        + WHY[Kind.decision],
    )


def assistant_statement(text: str, cue: str) -> Statement:
    """What the assistant said: an inferred, low-trust observation or suggestion."""
    kind = Kind.suggestion if cue == "recommendation" else Kind.observation
    return Statement(
        text=ASSISTANT_PREFIX + text,
        kind=kind,
        speaker="assistant",
        status=Status.inferred,
        epistemic_status=EpistemicStatus.unverified,
        trust=ASSISTANT_TRUST,
        confidence=0.4,
        importance=0.3,
        why_it_matters=WHY[kind],
        cue=cue,
    )


def with_reason(
    out: list[Statement], claim: Statement, reason_text: str | None, *, speaker: str
) -> None:
    """Append ``claim`` to ``out``, and its reason after it, linked ``CAUSED`` to it."""
    out.append(claim)
    if reason_text is None:
        return
    if speaker == "user":
        reason = replace(
            user_statement(reason_text, "reason", Kind.context),
            kind=Kind.context,
            status=claim.status,
            epistemic_status=claim.epistemic_status,
            importance=0.4,
            priority=Priority.normal,
            caused=len(out) - 1,
        )
    else:
        reason = replace(assistant_statement(reason_text, "reason"), caused=len(out) - 1)
    out.append(reason)


def remembered(out: list[Statement], said: str) -> None:
    """Append what a ``/remember`` command says: pinned, in the user's words, with its reason.

    A reason ("… because …") is split off and linked to the claim as any sentence's is, so
    the pinned belief is the thing to remember and the reason its context.
    """
    claim_text, reason_text = split_reason(tidy(said))
    if not claim_text:
        return
    found = classify_user(claim_text)
    cue, kind = found if found else ("remember", Kind.fact)
    statement = user_statement(claim_text, cue, kind)
    claim = replace(
        statement,
        pinned=True,
        trust=REMEMBER_TRUST,
        importance=0.9,
        priority=Priority.high,
        epistemic_status=(
            statement.epistemic_status if kind is Kind.open_question else EpistemicStatus.confirmed
        ),
        why_it_matters=" ".join([REMEMBER_WHY, *([WHY[kind]] if kind is not Kind.fact else [])]),
        cue="remember",
    )
    with_reason(out, claim, reason_text, speaker="user")
