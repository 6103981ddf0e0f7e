"""Page cursors: opaque to clients, a (time, id) pair inside.

A cursor is the URL-safe base64 of ``[time (ISO 8601), id]`` without padding. Anything else a
client sends as a cursor, including a well-formed one holding a time Neo4j cannot keep or an
id that is not text, is :class:`~beliefgraph.errors.InvalidInput` naming ``cursor``.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime

from beliefgraph.errors import InvalidInput
from beliefgraph.models import storable


def encode(at: datetime, item_id: str) -> str:
    """The cursor that continues after the item at ``at`` with ``item_id``."""
    raw = json.dumps([at.astimezone(UTC).isoformat(timespec="microseconds"), item_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(cursor: str) -> tuple[datetime, str]:
    """The time and id inside a cursor :func:`encode` made.

    Raises:
        InvalidInput: it is not one (field ``cursor``).
    """
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        at, item_id = json.loads(raw)
        if not isinstance(at, str) or not isinstance(item_id, str):
            raise TypeError("not a time and an id")
        item_id.encode("utf-8")  # an unpaired surrogate is no id
        return storable(datetime.fromisoformat(at)), item_id
    except (binascii.Error, ValueError, TypeError, UnicodeError) as e:
        raise InvalidInput("cursor is not one this service returned", field="cursor") from e
