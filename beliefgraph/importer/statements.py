"""A statement extracted from a turn, who said it and how far it is trusted; what extractors are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from beliefgraph.importer.input import OFFER_KEPT
from beliefgraph.models import EpistemicStatus, Kind, Priority, Status

#: roles whose words may become beliefs; everything else (system, tool, ...) yields nothing
USER_ROLES = frozenset({"user", "human"})
ASSISTANT_ROLES = frozenset({"assistant", "ai", "model"})

#: how far an assistant's words are trusted: well under a user's 0.9, so the gate's trust
#: guard never lets them supersede what the user said
ASSISTANT_TRUST = 0.3
USER_TRUST = 0.9
REMEMBER_TRUST = 0.95

REMEMBER_WHY = "The user asked to remember this."

#: the prefix that makes an assistant statement read as the assistant's, wherever it shows
ASSISTANT_PREFIX = "The assistant said: "


@dataclass(frozen=True)
class Statement:
    """One belief-to-be extracted from a turn.

    ``caused`` is the index (in the same turn's list) of the statement this one is the
    reason for, or ``None``.
    """

    text: str
    kind: Kind
    speaker: str
    status: Status
    epistemic_status: EpistemicStatus
    trust: float
    confidence: float
    importance: float
    priority: Priority = Priority.normal
    pinned: bool = False
    why_it_matters: str | None = None
    cue: str = ""
    caused: int | None = None


class Extractor(Protocol):
    """Turns one message into statements."""

    def extract(self, role: str, content: str, replying_to: str | None = None) -> list[Statement]:
        """The statements of one message by ``role``, in the order they were said.

        ``replying_to`` is the assistant's message that ``content`` answers, where known (an
        import knows it: the turn before in the same conversation); "fargate." says what
        was picked only beside the message that offered it.
        """
        ...


class Replies:
    """What each turn answers: the assistant's message just before it in its conversation.

    Fed every turn in the order read (conversations may interleave); keeps, per conversation,
    the first :data:`~beliefgraph.importer.input.OFFER_KEPT` characters of its last message
    when that is the assistant's.
    """

    def __init__(self) -> None:
        self._offered: dict[str, str | None] = {}  # conversation -> its assistant's last word

    def answered(self, conversation: str, role: str, content: str) -> str | None:
        """The assistant's message the turn (``role``, ``content``) answers, or ``None``."""
        before = self._offered.get(conversation)
        said = role.lower() in ASSISTANT_ROLES
        self._offered[conversation] = content[:OFFER_KEPT] if said else None
        return before
