"""Who is asking, and what they may touch (DESIGN §7).

A :class:`Caller` carries a role and the namespaces it may read and write. The API builds
one per request from its credentials; the library takes it as an input and filters by it.
``namespaces=None`` means every namespace; only an admin, or development mode with auth
off, gets that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from beliefgraph.models import (
    AUTHORITY_KINDS,
    BeliefCreate,
    EpistemicStatus,
    Kind,
    Priority,
    Status,
)


class Role(StrEnum):
    """What a key may do: readers read; agents write observations and inferences;
    curators write anything in their namespaces; admins also manage keys."""

    reader = "reader"
    agent = "agent"
    curator = "curator"
    admin = "admin"


@dataclass(frozen=True)
class Caller:
    """The identity behind a request.

    ``unconfirmed_key`` is the hash of the caller's API key when the API recognised the key
    from memory instead of reading it (``api/auth.py``): whether it has been revoked since is
    then still to be read, and the request's own read does that in the same round trip (the
    planner's; :func:`beliefgraph.keys.confirm` otherwise). ``None``: nothing to confirm.
    """

    name: str
    role: Role
    namespaces: frozenset[str] | None
    # a hash, not a usable key, but nothing for logs either
    unconfirmed_key: str | None = field(default=None, repr=False)

    def can_see(self, namespace: str) -> bool:
        """Whether the caller may read ``namespace``."""
        return self.namespaces is None or namespace in self.namespaces

    def visible(self, requested: Iterable[str]) -> list[str]:
        """The requested namespaces the caller may read, in order, without repeats."""
        return [ns for ns in dict.fromkeys(requested) if self.can_see(ns)]

    def can_grant(self, namespaces: Iterable[str] | None) -> bool:
        """Whether the caller's own grant covers a grant of ``namespaces`` (``None``: all),
        so that a key it makes or manages could do nothing the caller cannot."""
        if self.namespaces is None:
            return True
        return namespaces is not None and set(namespaces) <= self.namespaces


#: the caller of a development server with auth off, and of the local CLI
DEVELOPMENT_CALLER = Caller(name="development", role=Role.admin, namespaces=None)


# -- who may write what (DESIGN §7) -----------------------------------------------------------

#: kinds an agent key may write whatever their status; other non-authority kinds only as
#: ``inferred`` (an agent's inference), authority kinds never
AGENT_KINDS = frozenset({Kind.observation})
#: the most an agent key's belief is trusted, and its trust when the write names none; an
#: agent changes nothing trusted above it (:func:`agent_may_change`), so what a person stated
#: (a curator's default is 0.8) is only ever contested by an agent, never superseded
AGENT_TRUST = 0.6
#: what an agent key's belief may claim of itself: states that give it no standing to govern
#: (``precedence.WITHOUT_STANDING``), so an agent's rule - "always share the wifi password",
#: stored as an observation - stays evidence however it is worded; ``unverified`` when the
#: write names none
AGENT_EPISTEMIC = frozenset(
    {EpistemicStatus.unverified, EpistemicStatus.floated, EpistemicStatus.contested}
)
#: priorities above which an agent's belief may not rank
AGENT_PRIORITIES = frozenset({Priority.normal, Priority.low})
#: kinds an agent key may never replace or retract: authority, and directives
AGENT_UNCHANGEABLE = AUTHORITY_KINDS | {Kind.directive}


def write_refusal(caller: Caller, belief: BeliefCreate) -> tuple[str, str] | None:
    """Why ``caller`` may not store ``belief``, with the field at fault; or ``None``.

    An agent key writes evidence, never authority: besides the kinds it may not write, it
    may not give a belief what lets it govern or outrank - a scope (``governs``), an action
    hint, a pin, a high priority, a confirmed or reported standing, or trust above
    :data:`AGENT_TRUST`. What such a write leaves unset, :func:`as_written_by` fills in.
    """
    if caller.role is Role.reader:
        return "a reader key only reads", "kind"
    if caller.role is not Role.agent:
        return None
    kind, status = belief.kind, belief.status
    if kind in AUTHORITY_KINDS:
        return f"an agent key cannot write a {kind}: authority beliefs need a curator", "kind"
    if kind not in AGENT_KINDS and status != Status.inferred:
        return (
            f"an agent key writes observations, and other kinds only as inferences "
            f"(status 'inferred'), not a {status} {kind}",
            "status",
        )
    authority = "; that needs a curator key"
    if belief.governs is not None:
        return f"an agent key cannot give a belief a scope to govern{authority}", "governs"
    if belief.allowed_action is not None:
        return f"an agent key cannot set a belief's action hint{authority}", "allowed_action"
    if belief.pinned:
        return f"an agent key cannot pin a belief{authority}", "pinned"
    if belief.priority not in AGENT_PRIORITIES:
        return f"an agent key cannot give a belief {belief.priority} priority{authority}", (
            "priority"
        )
    if "epistemic_status" in belief.model_fields_set and (
        belief.epistemic_status not in AGENT_EPISTEMIC
    ):
        allowed = ", ".join(sorted(AGENT_EPISTEMIC))
        return (
            f"an agent key's belief is {allowed}, not {belief.epistemic_status}{authority}",
            "epistemic_status",
        )
    if "trust" in belief.model_fields_set and belief.trust > AGENT_TRUST:
        return f"an agent key's belief is trusted at most {AGENT_TRUST}{authority}", "trust"
    return None


def as_written_by(caller: Caller, belief: BeliefCreate) -> BeliefCreate:
    """``belief`` as ``caller`` stores it: an agent key's, unless the write says otherwise,
    is ``unverified`` and trusted at :data:`AGENT_TRUST` (see :func:`write_refusal`)."""
    if caller.role is not Role.agent:
        return belief
    unset = {
        "epistemic_status": EpistemicStatus.unverified,
        "trust": AGENT_TRUST,
    }
    update = {k: v for k, v in unset.items() if k not in belief.model_fields_set}
    return belief.model_copy(update=update) if update else belief


def precedence_refusal(caller: Caller, edge: str) -> str | None:
    """Why ``caller`` may not set or remove explicit precedence (an ``edge``), or ``None``.

    Precedence decides which rule governs, so it is a curator's. ``NARROWS`` joins scopes,
    which beliefs of every namespace share: only a key over every namespace may set it.
    """
    if caller.role is Role.reader:
        return "a reader key only reads"
    if caller.role is Role.agent:
        return f"an agent key cannot set {edge}: explicit precedence needs a curator"
    if edge == "NARROWS" and caller.namespaces is not None:
        return "scopes are shared by every namespace: only a key over all of them relates two"
    return None


def agent_may_change(kind: str, trust: float) -> bool:
    """Whether an agent key may replace (supersede, archive) or retract a belief: only what an
    agent could have written itself. Not an authority kind, nor a directive (which the planner
    reads as one), nor anything trusted above :data:`AGENT_TRUST` - what a person stated,
    whatever the gate's trust ratio is set to."""
    return kind not in AGENT_UNCHANGEABLE and trust <= AGENT_TRUST + 1e-9


def change_refusal(caller: Caller, kind: str, trust: float, action: str) -> str | None:
    """Why ``caller`` may not ``action`` (supersede, retract) a belief of ``kind`` and
    ``trust``, or ``None``."""
    if caller.role is Role.reader:
        return "a reader key only reads"
    if caller.role is Role.agent and not agent_may_change(kind, trust):
        return (
            f"an agent key cannot {action} a {kind} trusted at {trust:.2f}: it changes only "
            f"what an agent could write (no authority, trust at most {AGENT_TRUST})"
        )
    return None
