"""Verbs by the kind of act they name (read / write / execute), in every form a text uses."""

from __future__ import annotations

from functools import lru_cache

from beliefgraph.language.words import CACHE
from beliefgraph.text import word_set

# Verbs by what doing them does. Destroying something (delete, wipe, shred, purge) cannot be
# undone: it is an execution, not an edit. A request names them in the base form ("send", "mark") or
# as "-ing" ("reconciling"); past forms ("sent", "paid", "logged") describe what already
# happened and never make a request a write or an execution. Words that are mostly nouns in
# requests ("book", "note", "order", "record", "log") are left out: "my books" is no booking.
WRITE_VERBS = word_set(
    """
    mark update change edit save store add rename modify adjust correct
    overwrite amend enter register remember forget cancel reschedule assign reconcile write
    archive tweak alter configure reconfigure
    """
)
EXECUTE_VERBS = word_set(
    """
    send release export share pay process transfer wire initiate provision grant approve
    authorize authorise confirm issue enable disable deploy execute launch fill refill quote
    disclose publish email forward refund reverse submit sign buy purchase connect install
    invite upload withdraw dispense administer let allow move give sell disburse remit onboard
    enroll enrol rotate reset revoke unlock
    delete erase remove wipe shred purge destroy drop decommission dispose discard scrap
    incinerate demolish terminate paste hand reply respond pass
    """
)
READ_VERBS = word_set(
    """
    what who when where which how show tell remind read look lookup pull find check recall
    retrieve see summarize summarise view display fetch know whats advise
    """
)
# Belief texts describe the acts they govern in any form: "before marking", "must be
# issued", "used to fill". These irregular forms are not reachable by suffix rules.
_IRREGULAR = {
    "sent": "send",
    "paid": "pay",
    "given": "give",
    "gave": "give",
    "shown": "show",
    "told": "tell",
    "sold": "sell",
    "bought": "buy",
    "wrote": "write",
    "written": "write",
    "let": "let",
    "set": "set",
    "run": "run",
    "read": "read",
}


def base_forms(token: str, *, past: bool) -> list[str]:
    """Candidate base forms of a verb token: itself, "-ing" and, if ``past``, "-ed" forms."""
    forms = [token]
    suffixes = ["ing"] + (["ed"] if past else [])
    for suffix in suffixes:
        if token.endswith(suffix) and len(token) > len(suffix) + 2:
            stem = token[: -len(suffix)]
            forms += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:  # "logging" -> "log"
                forms.append(stem[:-1])
    if past and token in _IRREGULAR:
        forms.append(_IRREGULAR[token])
    if past and token.endswith("s") and len(token) > 3:  # "sends": someone else's act
        forms.append(token[:-1])
    return forms


@lru_cache(maxsize=CACHE)
def is_act(token: str) -> bool:
    """Whether ``token`` names an act (in any form): acts are action types, not topics."""
    return any(
        form in WRITE_VERBS or form in EXECUTE_VERBS or form in READ_VERBS
        for form in base_forms(token, past=True)
    )
