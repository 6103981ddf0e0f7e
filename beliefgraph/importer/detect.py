"""Telling a log's format from its first record (``format="auto"``)."""

from __future__ import annotations

import json

from beliefgraph.errors import UnknownFormat
from beliefgraph.importer.formats import (
    CONVERSATION_FIELDS,
    MESSAGE_LISTS,
    ROLE_FIELDS,
    TEXT_FIELDS,
    pretty_printed,
)
from beliefgraph.importer.input import (
    FORMATS,
    LogFormat,
)


def detect_format(head: bytes, name: str) -> LogFormat:
    """Tell a log's format from its first bytes; an empty log is read as ``jsonl``.

    Raises:
        UnknownFormat: nothing in the first record says which format it is.
    """
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:256].count(b"\x00") > 8:
        raise UnknownFormat(
            f"{name}: the log is UTF-16, not UTF-8: convert it first "
            "(iconv -f UTF-16 -t UTF-8 in > out)",
            field="format",
        )
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not text:
        return LogFormat.jsonl
    first_line = text.split("\n", 1)[0].strip()
    if text.startswith("["):
        exported = '"mapping"' in text or '"chat_messages"' in text
        if exported or text[1:].lstrip(" \t\r\n").startswith("]"):
            return LogFormat.chatgpt  # an export, maybe of no conversation at all
    elif text.startswith("{"):
        try:
            first = json.loads(first_line)
        except (ValueError, RecursionError):  # broken, or past the parser's limits
            first = None
        if first is None and pretty_printed(head):
            try:
                first = json.JSONDecoder().raw_decode(text)[0]
            except (ValueError, RecursionError):  # cut off by the head: look at the keys
                first = None
        if isinstance(first, dict):
            if "mapping" in first or "chat_messages" in first:
                return LogFormat.chatgpt
            if any(isinstance(first.get(f), list) for f in MESSAGE_LISTS):
                return LogFormat.openai
            if any(f in first for f in ROLE_FIELDS) and any(f in first for f in TEXT_FIELDS):
                return LogFormat.jsonl
        elif '"mapping"' in text or '"chat_messages"' in text:
            return LogFormat.chatgpt  # one pretty-printed conversation
        elif first_line != "{":
            # a broken record on a line of its own: its reader says what is wrong with it
            listed = any(f'"{f}"' in first_line for f in MESSAGE_LISTS)
            return LogFormat.openai if listed else LogFormat.jsonl
    raise UnknownFormat(
        f"{name}: cannot tell the format from its first record; the formats are "
        f"{', '.join(FORMATS)}. jsonl: one message per line "
        f"with a speaker ({', '.join(ROLE_FIELDS)}), its text ({', '.join(TEXT_FIELDS)}) "
        f"and a conversation ({', '.join(CONVERSATION_FIELDS)}); openai: one conversation "
        f"per line, an object with a list of messages ({', '.join(MESSAGE_LISTS)}); chatgpt: "
        "a JSON array of exported conversations (ChatGPT's mapping, Claude.ai's "
        "chat_messages). Choose one with --format on the command line, format= over HTTP",
        field="format",
    )
