"""Bulk import of conversation logs: streaming readers, batches, checkpoints (DESIGN §6).

Three formats, told apart by their first record when ``format="auto"``:

``jsonl``
    one message per line: ``{"conversation_id", "role", "content", "ts"}``, ``turn_id``
    optional.
``openai``
    one conversation per line: ``{"messages": [{"role", "content"}, ...]}``, with an optional
    ``id``/``conversation_id`` (otherwise the line's content hash names the conversation).
``chatgpt``
    the ChatGPT data export, ``conversations.json``: an array of conversations whose
    ``mapping`` is a tree of message nodes; the branch ending at ``current_node`` is read.

Files are streamed, never loaded whole (a ChatGPT export is cut into its conversations as
it is read). Each record is extracted (:mod:`beliefgraph.extract`) and the statements are
written in batches through the store's create path with ``write_path=import``, so whatever
the store does on a write (the curation gate, the audit log) applies to imports too.

Idempotent and resumable:

* every id is a hash of the namespace, the conversation id, the turn (its id; else, in a
  JSONL log, what it says and how often its conversation said it before, see
  :func:`read_jsonl`; else its index in its record) and the statement's text, so a rerun
  computes the same ids;
* a statement counts as done once its turn's ``ASSERTED`` edge (carrying the statement's
  key) exists; done statements are never written again, so importing the same log twice
  writes nothing;
* after each batch, a checkpoint on the log's ``Source`` node records how many records are
  fully in. A rerun reads the records before it again, to rebuild the per-conversation order
  in time that ``FOLLOWS`` needs, but writes none of them, and extracts them only to order
  what an older version wrote: their statements are read back from the graph
  (:meth:`Importer._recall`), so a model's extraction is not asked again, and what follows
  is linked to what was written. (With ``skip_invalid``, the records from the first one
  skipped on are read as new: a skipped record may be mended.)

Each batch is one transaction: the beliefs through :meth:`Store.create_in` (the store's
create path, curation gate and audit included; the embedding is done before, by
:meth:`Store.prepare`), their provenance (``Conversation``, ``Turn``, ``ASSERTED``,
``FOLLOWS``, ``CAUSED``) and the checkpoint. A batch is therefore in whole or not at all: a
``kill -9`` loses at most the batch in flight, which the rerun writes as the first run
would have — with the same gate verdicts, since batches are cut at the same records, and the
same vectors though the rerun remembers none from before the kill (a text's vector does not
depend on the texts embedded with it: ``tests/integration/test_embeddings.py``).

>>> summary = import_logs(store, Path("conversations.json"),   # doctest: +SKIP
...                       ImportOptions(namespace="user:me"))
>>> summary.added                                                # doctest: +SKIP
42
"""

from __future__ import annotations

import bisect
import codecs
import hashlib
import io
import json
import logging
import math
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, Any, BinaryIO, Protocol

from neo4j import ManagedTransaction
from pydantic import BaseModel, Field

from beliefgraph.access import Caller
from beliefgraph.embeddings import Remembering
from beliefgraph.errors import BeliefGraphError, InvalidInput, MalformedRecord, UnknownFormat
from beliefgraph.extract import Extractor, RuleExtractor, Statement
from beliefgraph.models import (
    NAMESPACE_PATTERN,
    BeliefCreate,
    GateDecision,
    WritePath,
    storable,
)
from beliefgraph.store import Store

log = logging.getLogger(__name__)

#: bytes read to tell the format and to fingerprint a source for its checkpoint
HEAD_BYTES = 64 * 1024
#: characters of a turn's text kept on its ``Turn`` node (the provenance, not an archive)
TURN_TEXT_CHARS = 2000
#: distinct statements whose vectors an import keeps (about 61 MB at 384 dimensions)
EMBEDDINGS_REMEMBERED = 20_000
#: statements of one conversation whose place in time an import keeps, for ``FOLLOWS``
TIMELINE_KEPT = 10_000
#: turns a resumed import reads back (their statements) per query, for those written before
RECALLED_TURNS = 2000
#: half of a UTF-16 pair, which JSON's escapes can leave in a string
_SURROGATE = re.compile("[\ud800-\udfff]")
_TOO_DEEP = "JSON nested too deeply to read"


class LogFormat(StrEnum):
    """The conversation-log formats the importer reads."""

    auto = "auto"
    jsonl = "jsonl"
    openai = "openai"
    chatgpt = "chatgpt"


FORMATS = tuple(f.value for f in LogFormat if f is not LogFormat.auto)
MESSAGE_ROLES = frozenset(
    {"user", "human", "assistant", "ai", "model", "system", "developer", "tool", "function"}
)


# -- what a log is made of -----------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One message of a conversation, where it was read, and its place in the conversation."""

    conversation_id: str
    index: int
    role: str
    content: str
    line: int
    turn_id: str | None = None
    ts: datetime | None = None
    title: str | None = None
    #: what identifies a turn the log gives no id: see :func:`read_jsonl`
    anchor: str | None = None

    @property
    def key(self) -> str:
        """The basis of the turn's ids: the log's id for it, else its anchor, else its index."""
        if self.turn_id is not None:
            return self.turn_id
        return self.anchor if self.anchor is not None else f"#{self.index}"


@dataclass(frozen=True)
class Record:
    """One record of a log: a line (jsonl, openai) or a conversation (chatgpt)."""

    line: int
    turns: list[Turn]


@dataclass(frozen=True)
class Reject:
    """A record that could not be read: where, why, and its raw text (cut to 10 kB)."""

    line: int
    reason: str
    raw: str
    fatal: bool = False  # the reader cannot go past it (broken JSON in an array)


# -- streaming input -----------------------------------------------------------------------


class _Counted(io.RawIOBase):
    """A raw stream that serves ``head`` first, then ``rest``, counting bytes read."""

    def __init__(self, head: bytes, rest: BinaryIO, *, owns: bool) -> None:
        self._head = head
        self._rest = rest
        self._owns = owns
        self.consumed = 0

    def close(self) -> None:
        if self._owns and not self.closed:
            self._rest.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
        else:
            data = self._rest.read(len(view))
            n = len(data)
            view[:n] = data
        self.consumed += n
        return n


@dataclass
class LogInput:
    """An opened log: its name for messages, a buffered byte stream, its size if known."""

    name: str
    stream: io.BufferedReader
    head: bytes
    size: int | None
    counter: _Counted

    @property
    def bytes_read(self) -> int:
        """How far the reader has got (for the progress bar's ETA)."""
        return self.counter.consumed

    def close(self) -> None:
        """Close the stream, and the file under it if :func:`open_log` opened it."""
        self.stream.close()

    def __enter__(self) -> LogInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_log(source: Path | str | BinaryIO, *, name: str | None = None) -> LogInput:
    """Open a log for streaming: a path, ``"-"`` for standard input, or a binary stream.

    Only a file opened here is closed with the returned :class:`LogInput`.

    Raises:
        InvalidInput: the path does not exist, is not a file, or cannot be read.
    """
    size: int | None = None
    raw: BinaryIO
    owns = False
    if isinstance(source, str | Path) and str(source) == "-":
        raw, label = sys.stdin.buffer, name or "<stdin>"
    elif isinstance(source, str | Path):
        path = Path(source)
        if not path.is_file():
            what = "is a directory, not a file" if path.is_dir() else "no such file"
            raise InvalidInput(f"{path}: {what}", field="path")
        try:
            raw = path.open("rb")
        except OSError as e:  # unreadable: permissions, a broken mount
            raise InvalidInput(f"{path}: cannot read: {e.strerror}", field="path") from None
        label, size, owns = name or str(path), path.stat().st_size, True
    else:
        raw, label = source, name or "<stream>"
    head = b""
    while len(head) < HEAD_BYTES:
        chunk = raw.read(HEAD_BYTES - len(head))
        if not chunk:
            break
        head += chunk
    counter = _Counted(head, raw, owns=owns)
    return LogInput(label, io.BufferedReader(counter, buffer_size=1 << 16), head, size, counter)


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
        if first is None and _pretty_printed(head):
            try:
                first = json.JSONDecoder().raw_decode(text)[0]
            except (ValueError, RecursionError):  # cut off by the head: look at the keys
                first = None
        if isinstance(first, dict):
            if "mapping" in first or "chat_messages" in first:
                return LogFormat.chatgpt
            if any(isinstance(first.get(f), list) for f in _MESSAGE_LISTS):
                return LogFormat.openai
            if any(f in first for f in _ROLE_FIELDS) and any(f in first for f in _TEXT_FIELDS):
                return LogFormat.jsonl
        elif '"mapping"' in text or '"chat_messages"' in text:
            return LogFormat.chatgpt  # one pretty-printed conversation
        elif first_line != "{":
            # a broken record on a line of its own: its reader says what is wrong with it
            listed = any(f'"{f}"' in first_line for f in _MESSAGE_LISTS)
            return LogFormat.openai if listed else LogFormat.jsonl
    raise UnknownFormat(
        f"{name}: cannot tell the format from its first record; the formats are "
        f"{', '.join(FORMATS)}. jsonl: one message per line "
        f"with a speaker ({', '.join(_ROLE_FIELDS)}), its text ({', '.join(_TEXT_FIELDS)}) "
        f"and a conversation ({', '.join(_CONVERSATION_FIELDS)}); openai: one conversation "
        f"per line, an object with a list of messages ({', '.join(_MESSAGE_LISTS)}); chatgpt: "
        "a JSON array of exported conversations (ChatGPT's mapping, Claude.ai's "
        "chat_messages). Choose one with --format on the command line, format= over HTTP",
        field="format",
    )


def _parse_ts(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{where} is not a time")
    if isinstance(value, int | float):
        seconds = float(value)
        if abs(seconds) >= 1e11:  # milliseconds since 1970, as most exporters write them
            seconds /= 1000
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            raise ValueError(
                f"{where} is not a time: {value!r} read as seconds since 1970 is out of range"
            ) from None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{where} is not an ISO 8601 time: {value!r}") from None
        try:
            return storable(parsed)
        except ValueError as e:
            raise ValueError(f"{where}: {e}: {value!r}") from None
    raise ValueError(f"{where} is not a time")


def _unicode(value: str, where: str) -> str:
    """``value``, unless JSON's ``\\ud800``-style escapes left half a character in it (no
    text can be stored or hashed with one)."""
    if not value.isascii() and _SURROGATE.search(value):
        raise ValueError(f"{where} holds half of a UTF-16 pair (an unpaired \\u escape)")
    return value


def _part_text(part: Any) -> str | None:
    """The text of one content part: a string, ``{"type": "text", "text": ...}`` (OpenAI,
    Anthropic, the Responses API's ``input_text``/``output_text``), ``{"text": {"value":
    ...}}`` (an Assistants thread), ``{"text": ...}`` (a Gemini part); ``None`` for a part that
    holds no text (an image, a tool call or its result)."""
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return None
    if part.get("type") not in (None, "text", "input_text", "output_text"):
        return None
    text = part.get("text")
    if isinstance(text, dict):
        text = text.get("value")
    return text if isinstance(text, str) else None


def _text(content: Any, where: str) -> str:
    """A message's text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return _unicode(content, where)
    if content is None:
        return ""
    if isinstance(content, list):
        parts = [t for t in (_part_text(p) for p in content) if t is not None]
        return _unicode("\n".join(parts), where)
    if isinstance(content, dict) and (text := _part_text(content)) is not None:
        return _unicode(text, where)
    raise ValueError(f"{where} is neither text nor a list of parts")


#: what exporters call the speaker (ShareGPT's gpt, LangChain's human and ai, Gemini's
#: model), read as the roles every turn is stored with
_ROLE_NAMES = {
    "human": "user",
    "gpt": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "bot": "assistant",
    "chatbot": "assistant",
}
#: where a message keeps its speaker and its text, in the order they are looked for
_ROLE_FIELDS = ("role", "from", "sender", "type")
_TEXT_FIELDS = ("content", "text", "message", "value", "parts")
#: items of a message list that are not messages: tool calls, their outputs, reasoning
_NOT_MESSAGES = frozenset(
    {
        "function_call",
        "function_call_output",
        "tool_call",
        "tool_result",
        "reasoning",
        "computer_call",
        "computer_call_output",
        "web_search_call",
        "file_search_call",
    }
)


def _message(message: Any, where: str) -> tuple[str, str] | None:
    """``(role, text)`` of one message of any common shape — OpenAI and Anthropic
    (``role``, ``content``), ShareGPT (``from``, ``value``), Claude.ai (``sender``, ``text``),
    LangChain (``type``, ``content`` or ``data.content``), Gemini (``role``, ``parts``),
    Assistants threads, lines that say ``text`` or ``message`` — or ``None`` for an item
    that is no message (a tool call, its output, reasoning).

    Raises:
        ValueError: a message whose speaker or text cannot be found (never an empty turn).
    """
    if not isinstance(message, dict):
        raise ValueError(f"{where} is not an object")
    if message.get("type") in _NOT_MESSAGES:
        return None
    data: dict[str, Any] = message["data"] if isinstance(message.get("data"), dict) else {}
    author: dict[str, Any] = message["author"] if isinstance(message.get("author"), dict) else {}

    def at(field: str) -> str:
        return f"{where}.{field}" if where else field

    said_by = next(
        (
            f
            for f in _ROLE_FIELDS
            if isinstance(message.get(f), str) and message[f].lower() != "message"
        ),
        None,
    )
    spoken = message[said_by] if said_by else author.get("role") or data.get("type")
    if not isinstance(spoken, str) or not spoken:
        raise ValueError(f"{where or 'the record'} names no speaker (role, from, sender or type)")
    role = _ROLE_NAMES.get(spoken.lower(), spoken.lower())
    if role not in MESSAGE_ROLES:
        raise ValueError(
            f"{at(said_by or 'role')} must be one of {', '.join(sorted(MESSAGE_ROLES))}"
        )
    if role in ("tool", "function"):
        return None
    field = next((f for f in _TEXT_FIELDS if message.get(f) is not None), None)
    raw = message[field] if field is not None else data.get("content")
    if raw is None:
        if message.get("tool_calls") or message.get("function_call"):
            return None  # an assistant turn that only calls a tool
        raise ValueError(
            f"{where or 'the record'} has no text (content, text, message, value, parts or "
            "data.content)"
        )
    if isinstance(raw, list) and raw and all(_part_text(p) is None for p in raw):
        return None  # only images, files or tool blocks: nothing to read
    return role, _text(raw, at(field or "data.content"))


#: where a record keeps its conversation's id, and its messages
_CONVERSATION_FIELDS = ("conversation_id", "thread_id", "session_id", "chat_id")
_MESSAGE_LISTS = ("messages", "conversations", "contents", "chat_messages", "input")
_TIME_FIELDS = ("ts", "timestamp", "created_at", "create_time", "time")


def _first(obj: dict[str, Any], fields: Sequence[str]) -> Any:
    return next((obj[f] for f in fields if obj.get(f) is not None), None)


def _ident(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or str(value).strip() == "":
        raise ValueError(f"{where} must be a non-empty string or integer")
    return _unicode(str(value), where)


def _pretty_printed(head: bytes) -> bool:
    """Whether a log of JSON objects spreads each over several lines (pretty-printed), so
    that its records are told apart by where each object ends, not by line breaks."""
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    first = text.split("\n", 1)[0].strip()
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return first == "{" or first.endswith(("{", "[", ","))
    return False


def _lines(log: LogInput) -> Iterator[tuple[int, str | None, str, str]]:
    """``(line number, decoded line or None, what is wrong with it, its raw text)`` for every
    non-blank line — or, in a pretty-printed log, for every object, with the line it starts
    on. An undecodable line keeps its bytes, escaped, so that it can be mended."""
    if _pretty_printed(log.head):
        for item in _json_values(log):
            if isinstance(item, Reject):
                yield item.line, None, item.reason, item.raw
                return
            yield item[0], json.dumps(item[1]), "", ""
        return
    for number, raw in enumerate(log.stream, start=1):
        try:
            line = raw.decode("utf-8").lstrip("\ufeff")
        except UnicodeDecodeError as e:
            # the raw bytes stay in the reject, escaped, so the line can be mended
            escaped = raw.decode("utf-8", errors="backslashreplace")[:10_000]
            yield number, None, f"not UTF-8 ({e.reason} at byte {e.start})", escaped
            continue
        if line.strip():
            yield number, line, "", ""


def _json_line(line: str) -> Any:
    """The JSON value on one line of a log; a syntax error says where in the line."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"broken JSON: {e.msg} at column {e.colno}") from None
    except RecursionError:
        raise ValueError(_TOO_DEEP) from None


def read_jsonl(log: LogInput) -> Iterator[Record | Reject]:
    """One :class:`Record` per message line of a ``jsonl`` log, or a :class:`Reject`.

    A message without a ``turn_id`` is known by what it is (role, content, time) and how
    many times its conversation said exactly that before, not by its place: so mending a
    broken line and importing again leaves the ids of the lines after it as they were.
    A ``turn_id`` its conversation already used is a broken record.
    """
    counts: dict[str, int] = {}
    said: dict[tuple[str, str], int] = {}  # (conversation, anchor digest) -> times so far
    ids: dict[tuple[str, str], int] = {}  # (conversation, turn_id) -> its line
    for number, line, problem, raw in _lines(log):
        if line is None:
            yield Reject(number, problem, raw)
            continue
        try:
            obj = _json_line(line)
            if not isinstance(obj, dict):
                raise ValueError("a record must be a JSON object")
            named = next((f for f in _CONVERSATION_FIELDS if obj.get(f) is not None), None)
            conversation = _ident(
                obj.get(named or "conversation_id"),
                named or "conversation_id (or thread_id, session_id, chat_id)",
            )
            message = _message(obj, "")
            if message is None:
                continue  # a tool call or its output: no text to remember
            role, content = message
            ts = _parse_ts(_first(obj, _TIME_FIELDS), "ts")
            turn_id = None if obj.get("turn_id") is None else _ident(obj["turn_id"], "turn_id")
            if turn_id is not None and (conversation, turn_id) in ids:
                raise ValueError(
                    f"turn_id {turn_id!r} is already line {ids[conversation, turn_id]}'s "
                    f"in conversation {conversation!r}"
                )
        except ValueError as e:  # JSONDecodeError is a ValueError
            yield Reject(number, str(e), line[:10_000])
            continue
        index = counts.get(conversation, 0)
        counts[conversation] = index + 1
        anchor = None
        if turn_id is None:
            what = _digest(role, content, ts.isoformat() if ts else "")[:16]
            times = said.get((conversation, what), 0)
            said[conversation, what] = times + 1
            anchor = f"~{what}.{times}"
        else:
            ids[conversation, turn_id] = number
        turn = Turn(
            conversation, index, role, content, number, turn_id=turn_id, ts=ts, anchor=anchor
        )
        yield Record(number, [turn])


def read_openai(log: LogInput) -> Iterator[Record | Reject]:
    """One :class:`Record` per ``{"messages": [...]}`` line of an ``openai`` log."""
    for number, line, problem, raw in _lines(log):
        if line is None:
            yield Reject(number, problem, raw)
            continue
        try:
            obj = _json_line(line)
            listed = next(
                (
                    f
                    for f in _MESSAGE_LISTS
                    if isinstance(obj, dict) and isinstance(obj.get(f), list)
                ),
                None,
            )
            if listed is None:
                raise ValueError(
                    f"a record must be an object with a list of messages "
                    f"({' or '.join(_MESSAGE_LISTS)})"
                )
            given = _first(obj, (*_CONVERSATION_FIELDS, "id"))
            conversation = (
                _ident(given, "conversation_id")
                if given is not None
                else "sha256:" + hashlib.sha256(line.strip().encode()).hexdigest()[:24]
            )
            turns: list[Turn] = []
            ids: set[str] = set()
            for i, message in enumerate(obj[listed]):
                where = f"{listed}[{i}]"
                read = _message(message, where)
                if read is None:
                    continue  # a tool call, its output, reasoning: not a turn
                given_id = _first(message, ("id", "uuid"))
                given_id = None if given_id is None else str(given_id)
                if given_id is not None:
                    if given_id in ids:
                        raise ValueError(f"{where}.id {given_id!r} repeats an earlier message's")
                    ids.add(given_id)
                turns.append(
                    Turn(
                        conversation,
                        len(turns),
                        read[0],
                        read[1],
                        number,
                        turn_id=given_id,
                        ts=_parse_ts(_first(message, _TIME_FIELDS), f"{where}.ts"),
                    )
                )
        except ValueError as e:
            yield Reject(number, str(e), line[:10_000])
            continue
        yield Record(number, turns)


def _json_values(log: LogInput) -> Iterator[tuple[int, Any] | Reject]:
    """The top-level values of a JSON array (or of concatenated values), one at a time.

    Only one value is held in memory at once; a syntax error ends the stream with a fatal
    :class:`Reject`, since nothing after it can be located.
    """
    decoder = json.JSONDecoder()
    utf8 = codecs.getincrementaldecoder("utf-8")()
    buf, pos, line, eof, chunk = "", 0, 1, False, 1 << 16
    in_array: bool | None = None

    def more() -> bool:
        nonlocal buf, pos, eof, chunk
        data = log.stream.read(chunk)
        if not data:
            eof = True
            buf = buf[pos:] + utf8.decode(b"", final=True)
        else:
            buf = buf[pos:] + utf8.decode(data)
            chunk = min(chunk * 2, 1 << 24) if len(buf) > chunk else chunk
        pos = 0
        return not eof

    def skip(chars: str) -> None:
        nonlocal pos, line
        while True:
            while pos < len(buf) and buf[pos] in chars:
                line += buf[pos] == "\n"
                pos += 1
            if pos < len(buf) or not more():
                return

    try:
        skip("\ufeff \t\r\n")
        if pos < len(buf) and buf[pos] == "[":
            in_array, pos = True, pos + 1
        while True:
            skip(" \t\r\n," if in_array else " \t\r\n")
            if pos >= len(buf):
                if in_array:
                    yield Reject(line, "the array is not closed with ']'", "", fatal=True)
                return
            if in_array and buf[pos] == "]":
                return
            try:
                value, end = decoder.raw_decode(buf, pos)
            except json.JSONDecodeError as e:
                truncated = e.pos >= len(buf) - 8 or e.msg.startswith("Unterminated string")
                if truncated and not eof:
                    more()
                    continue
                where = line + buf.count("\n", pos, e.pos)
                reason = (
                    "the file is cut short: it ends inside a record (an export that did not "
                    "finish downloading?)"
                    if eof and (not buf[e.pos :].strip() or e.msg.startswith("Unterminated"))
                    else f"broken JSON: {e.msg}"
                )
                yield Reject(where, reason, buf[pos : pos + 200], fatal=True)
                return
            except (ValueError, RecursionError) as e:  # past the parser's limits
                reason = _TOO_DEEP if isinstance(e, RecursionError) else f"unreadable JSON: {e}"
                yield Reject(line, reason, buf[pos : pos + 200], fatal=True)
                return
            yield line, value
            line += buf.count("\n", pos, end)
            pos = end
    except UnicodeDecodeError as e:
        yield Reject(line, f"not UTF-8 ({e.reason})", "", fatal=True)


def _current_branch(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    """The nodes from the root to ``current`` (or, without it, along the last children)."""
    if isinstance(current, str) and current in mapping:
        path, node_id, seen = [], current, set()
        while node_id is not None and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            path.append(mapping[node_id])
            node_id = mapping[node_id].get("parent")
        return path[::-1]
    roots = [n for n in mapping.values() if n.get("parent") not in mapping]
    path, node, seen = [], roots[0] if roots else None, set()
    while node is not None and node.get("id") not in seen:
        seen.add(node.get("id"))
        path.append(node)
        children = node.get("children") or []
        node = mapping.get(children[-1]) if children else None
    return path


_CHATGPT_TEXT_TYPES = frozenset({"text", "multimodal_text"})


def _claude_record(line: int, obj: dict[str, Any]) -> Record:
    """A conversation of a Claude.ai export: ``{uuid, name, chat_messages: [{uuid, sender,
    text, content, created_at}]}``."""
    conversation = _ident(obj.get("uuid", obj.get("id")), "uuid")
    title = _unicode(obj["name"], "name") if isinstance(obj.get("name"), str) else None
    turns: list[Turn] = []
    for i, message in enumerate(obj["chat_messages"]):
        where = f"chat_messages[{i}]"
        read = _message(message, where)
        if read is None or not read[1].strip():
            continue
        turns.append(
            Turn(
                conversation,
                len(turns),
                read[0],
                read[1],
                line,
                turn_id=_ident(_first(message, ("uuid", "id")) or f"#{i}", f"{where}.uuid"),
                ts=_parse_ts(_first(message, _TIME_FIELDS), f"{where}.created_at"),
                title=title,
            )
        )
    return Record(line, turns)


def _chatgpt_record(line: int, obj: Any) -> Record:
    if not isinstance(obj, dict):
        raise ValueError("a conversation must be a JSON object")
    if isinstance(obj.get("chat_messages"), list):
        return _claude_record(line, obj)
    mapping = obj.get("mapping")
    if not isinstance(mapping, dict) or not all(isinstance(n, dict) for n in mapping.values()):
        raise ValueError('a conversation needs a "mapping" object of message nodes')
    conversation = _ident(obj.get("conversation_id", obj.get("id")), "id")
    title = _unicode(obj["title"], "title") if isinstance(obj.get("title"), str) else None
    turns: list[Turn] = []
    for node in _current_branch(mapping, obj.get("current_node")):
        message = node.get("message")
        if not isinstance(message, dict):
            continue  # the root and other structural nodes carry no message
        content = message.get("content") or {}
        metadata = message.get("metadata") or {}
        role = ((message.get("author") or {}).get("role")) or ""
        if content.get("content_type") == "user_editable_context":
            # the user's custom instructions: their standing rules, said by the user (the
            # export hides them from the conversation view, not from what the user said)
            said = (content.get(k) for k in ("user_profile", "user_instructions"))
            text = "\n".join(s.strip() for s in said if isinstance(s, str) and s.strip())
            role = "user"
        elif content.get("content_type") not in _CHATGPT_TEXT_TYPES or metadata.get(
            "is_visually_hidden_from_conversation"
        ):
            continue
        else:
            text = "\n".join(p for p in content.get("parts") or [] if isinstance(p, str))
        text = text.strip()
        text = _unicode(text, "content.parts")
        if not text or role.lower() not in MESSAGE_ROLES:
            continue
        turns.append(
            Turn(
                conversation,
                len(turns),
                role.lower(),
                text,
                line,
                turn_id=_ident(message.get("id", node.get("id")), "message.id"),
                ts=_parse_ts(message.get("create_time"), "create_time"),
                title=title,
            )
        )
    return Record(line, turns)


def read_chatgpt(log: LogInput) -> Iterator[Record | Reject]:
    """One :class:`Record` per conversation of a ChatGPT export, streamed."""
    for item in _json_values(log):
        if isinstance(item, Reject):
            yield item
            continue
        line, obj = item
        try:
            yield _chatgpt_record(line, obj)
        except (ValueError, AttributeError, TypeError) as e:
            yield Reject(line, str(e), json.dumps(obj)[:10_000])


READERS: dict[LogFormat, Callable[[LogInput], Iterator[Record | Reject]]] = {
    LogFormat.jsonl: read_jsonl,
    LogFormat.openai: read_openai,
    LogFormat.chatgpt: read_chatgpt,
}


# -- ids -----------------------------------------------------------------------------------


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def conversation_node_id(namespace: str, conversation_id: str) -> str:
    """The ``Conversation`` node id: per namespace, so two namespaces never share one."""
    return "conv-" + _digest(namespace, conversation_id)


def turn_node_id(namespace: str, turn: Turn) -> str:
    """The ``Turn`` node id."""
    return "turn-" + _digest(namespace, turn.conversation_id, turn.key)


def statement_key(namespace: str, turn: Turn, text: str) -> str:
    """The deterministic id of a statement's belief (and its ``ASSERTED`` key)."""
    return "imp-" + _digest(namespace, turn.conversation_id, turn.key, text)


# -- the import ----------------------------------------------------------------------------


@dataclass
class ImportOptions:
    """How to import one log."""

    namespace: str
    format: LogFormat = LogFormat.auto
    #: the user the beliefs belong to (what ``/v1/context`` reads for that user)
    user: str | None = None
    dry_run: bool = False
    #: write broken records to the reject sink and go on, instead of stopping
    skip_invalid: bool = False
    #: ignore the source's checkpoint and read every record (the result is the same)
    restart: bool = False
    #: statements per write batch (one embedding call, one checkpoint)
    batch_size: int = 256
    #: records per batch at most, so a log with few statements still checkpoints often
    max_batch_records: int = 2000


@dataclass
class ImportSummary:
    """What an import did. ``already`` counts statements an earlier run had written.

    For the records before the checkpoint (``resumed_at``), which are not extracted again,
    ``statements`` and ``already`` count what the graph holds of their turns: a statement too
    long to store, or said twice in one turn, counts as it was written (not at all, once).
    """

    source: str
    namespace: str
    format: str = ""
    records: int = 0
    turns: int = 0
    conversations: int = 0
    statements: int = 0
    added: int = 0
    noop: int = 0
    superseded: int = 0
    contested: int = 0
    already: int = 0
    too_long: int = 0
    rejects: int = 0
    batches: int = 0
    resumed_at: int = 0
    seconds: float = 0.0
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-able data."""
        return asdict(self)


class Progress(Protocol):
    """Told how an import goes, after every record and at the end."""

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        """Called often; implementations decide how often to show anything."""
        ...

    def close(self, summary: ImportSummary) -> None:
        """Called once when the import ends, however it ends."""
        ...


class TerminalProgress:
    """A one-line progress bar on a terminal: turns/s, beliefs/s, percent and ETA."""

    def __init__(self, stream: IO[str] | None = None, *, every: float = 0.25) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.started = time.monotonic()
        self._shown = 0.0
        self._width = 0

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        """Redraw the line at most every ``every`` seconds."""
        now = time.monotonic()
        if now - self._shown < self.every:
            return
        self._shown = now
        self._draw(summary, bytes_read, total_bytes, now)

    def _draw(
        self, summary: ImportSummary, bytes_read: int, total_bytes: int | None, now: float
    ) -> None:
        elapsed = max(now - self.started, 1e-6)
        line = (
            f"{summary.turns:,} turns  {summary.turns / elapsed:,.0f} turns/s  "
            f"{summary.added:,} beliefs  {summary.added / elapsed:,.1f} beliefs/s"
        )
        if total_bytes:
            done = min(bytes_read / total_bytes, 1.0)
            eta = elapsed * (1 - done) / done if done > 0 else 0.0
            bar = "#" * int(done * 20)
            where = f"{bytes_read / 1e6:,.1f}/{total_bytes / 1e6:,.1f} MB"
            line = f"[{bar:<20}] {done:4.0%} {where}  " + line + f"  ETA {_clock(eta)}"
        self._width = max(self._width, len(line))
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()

    def close(self, summary: ImportSummary) -> None:
        """End the line so the summary prints below it."""
        if self._width:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


@dataclass
class _Planned:
    """A statement on its way to the store, with what its provenance needs: the statement
    it explains, and its neighbours in its conversation's time (:class:`_Timeline`)."""

    key: str
    turn: Turn
    statement: Statement
    #: its place among its turn's statements (kept on ``ASSERTED``: see Importer._recall)
    order: int
    caused_key: str | None
    follows_key: str | None
    #: a statement read before this one but said after it (the log is out of time order)
    followed_by: str | None = None
    #: when it was said: its turn's time, else the time of the turn before it (a null
    #: ``create_time`` must not make a belief the newest)
    said_at: datetime | None = None


class _Timeline:
    """The statements of each conversation in the order they were said, for ``FOLLOWS``.

    Ordered by the turn's ``ts``; a turn without one takes the time of the turn before it
    in the file, and ties keep the order of the file. A statement read after one said later
    goes in between its neighbours in time: it follows the earlier, and the later follows
    it; the edge between the two neighbours stays. The latest :data:`TIMELINE_KEPT`
    statements in time of each conversation are kept: one said before all of them is
    followed by the earliest kept, and follows none.
    """

    def __init__(self) -> None:
        self._times: dict[str, list[tuple[float, int]]] = {}
        self._keys: dict[str, list[str]] = {}
        self._last: dict[str, float] = {}  # conversation -> its previous turn's time
        self._read = 0

    def when(self, turn: Turn) -> float:
        """The time ``turn`` takes in its conversation (called for every turn, in order)."""
        if turn.ts is not None:
            when = turn.ts.timestamp()
        else:
            when = self._last.get(turn.conversation_id, -math.inf)
        self._last[turn.conversation_id] = when
        return when

    def place(self, conversation: str, when: float, key: str) -> tuple[str | None, str | None]:
        """Put a statement said at ``when`` in its conversation's order; return the
        statements just before and just after it in time (``None`` when there is none)."""
        times = self._times.setdefault(conversation, [])
        keys = self._keys.setdefault(conversation, [])
        self._read += 1
        at = bisect.bisect_right(times, (when, self._read))
        times.insert(at, (when, self._read))
        keys.insert(at, key)
        placed = (keys[at - 1] if at else None), (keys[at + 1] if at + 1 < len(keys) else None)
        if len(keys) > TIMELINE_KEPT:
            del times[0], keys[0]
        return placed


@dataclass
class _Batch:
    planned: list[_Planned] = field(default_factory=list)
    records: int = 0
    last_record: int = 0  # ordinal (1-based) of the batch's last record
    completed: bool = False  # the last batch of the log
    skipped: int | None = None  # the run's first record skipped as invalid, up to this batch


@dataclass
class _Prepared:
    """A batch made ready to commit: what is left to write, embedded (no writes yet)."""

    batch: _Batch
    todo: list[_Planned]
    done: dict[str, str]  # statement key -> belief, for statements an earlier run wrote
    rows: list[dict[str, Any]]  # prepared belief rows, in the order of ``row_keys``
    row_keys: list[str]


RejectSink = Callable[[str, Reject], None]


class Importer:
    """Runs one import; see :func:`import_logs`.

    Batches move through two stages: *prepare* (which statements are new, and embedding
    them: reads and CPU only) and *commit* (one write transaction: the beliefs through the
    store's gate, their provenance and the checkpoint). A worker thread prepares batch N+1
    while batch N commits; commits stay strictly in order, so the gate sees every batch
    after the ones before it, as in a run without the overlap.
    """

    def __init__(
        self,
        store: Store,
        options: ImportOptions,
        *,
        extractor: Extractor | None = None,
        progress: Progress | None = None,
        on_reject: RejectSink | None = None,
        cancel: threading.Event | None = None,
        caller: Caller | None = None,
    ) -> None:
        if not re.fullmatch(NAMESPACE_PATTERN, options.namespace):
            raise InvalidInput(
                f"namespace {options.namespace!r} does not match {NAMESPACE_PATTERN}",
                field="namespace",
            )
        self.store = store
        self.options = options
        self.extractor = extractor or RuleExtractor()
        self.progress = progress
        self.on_reject = on_reject
        self._reading = ""  # the log being read, as rejects name it
        self.cancel = cancel
        self.caller = caller
        #: whom the audit names as writing: the API key's name, or the command line's import
        self.actor = caller.name if caller is not None else "import"
        self.limit = store.settings.max_text_length
        self.batch_size = max(1, min(options.batch_size, store.settings.max_batch_size))
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[_Prepared] | None = None
        self._source: dict[str, str] = {}
        #: a statement repeated in the log is embedded once (while remembered)
        self.embedder = Remembering(store.embedder, capacity=EMBEDDINGS_REMEMBERED)

    def run(self, source: Path | str | BinaryIO, *, name: str | None = None) -> ImportSummary:
        """Import one log; return its summary.

        Raises:
            UnknownFormat: ``auto`` could not tell the format.
            MalformedRecord: a record is broken and ``skip_invalid`` is off; every record
                before it is committed.
        """
        started = time.monotonic()
        log = open_log(source, name=name)
        summary = ImportSummary(source=log.name, namespace=self.options.namespace)
        summary.dry_run = self.options.dry_run
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-prepare")
        try:
            fmt = self.options.format
            if fmt is LogFormat.auto:
                fmt = detect_format(log.head, log.name)
            summary.format = fmt.value
            self._run(log, fmt, summary)
        finally:
            if self._pending is not None:  # an error left a prepared batch: drop it
                self._pending.cancel()
                self._pending = None
            self._pool.shutdown(wait=True)
            summary.seconds = round(time.monotonic() - started, 3)
            log.close()
            if self.progress is not None:
                self.progress.close(summary)
        return summary

    def _run(self, log: LogInput, fmt: LogFormat, summary: ImportSummary) -> None:
        ns = self.options.namespace
        source_key = "src-" + _digest(ns, fmt.value, hashlib.sha256(log.head).hexdigest())
        done_before = 0
        if not self.options.restart:
            found = self.store.db.run_read("import_checkpoint_get", key=source_key)
            if found:
                done_before = max(int(found[0]["records_done"]), 0)
                # a record skipped as invalid may be mended since: read again from there
                if found[0]["skipped"] is not None:
                    done_before = min(done_before, int(found[0]["skipped"]) - 1)
        summary.resumed_at = done_before
        self._source = {"key": source_key, "namespace": ns, "name": log.name, "format": fmt.value}
        timeline = _Timeline()
        recalled: list[tuple[Turn, float]] = []  # turns an earlier run wrote, not yet placed
        seen_conversations: set[str] = set()
        batch = _Batch()
        ordinal = 0
        skipped: int | None = None
        self._reading = log.name
        for item in READERS[fmt](log):
            ordinal += 1
            if isinstance(item, Reject):
                summary.rejects += 1
                if ordinal <= done_before:
                    continue
                if not self.options.skip_invalid or item.fatal:
                    self._submit(batch, summary)
                    self._drain(summary)
                    if self.options.skip_invalid and self.on_reject is not None:
                        self.on_reject(log.name, item)
                    raise MalformedRecord(log.name, item.line, item.reason)
                if self.on_reject is not None:
                    self.on_reject(log.name, item)
                if skipped is None:
                    skipped = ordinal
                batch.records += 1
                batch.last_record = ordinal
                batch.skipped = skipped
                continue
            summary.records += 1
            for turn in item.turns:
                summary.turns += 1
                seen_conversations.add(turn.conversation_id)
                if ordinal <= done_before:
                    recalled.append((turn, timeline.when(turn)))
                    if len(recalled) >= RECALLED_TURNS:
                        self._recall(recalled, timeline, summary)
                    continue
                if recalled:  # what was said before this turn takes its place first
                    self._recall(recalled, timeline, summary)
                batch.planned.extend(self._plan(turn, timeline, summary))
            summary.conversations = len(seen_conversations)
            if ordinal > done_before:
                batch.records += 1
                batch.last_record = ordinal
                if len(batch.planned) >= self.batch_size or batch.records >= (
                    self.options.max_batch_records
                ):
                    self._submit(batch, summary)
                    batch = _Batch(skipped=skipped)
                    if self.cancel is not None and self.cancel.is_set():
                        self._drain(summary)
                        return
            if self.progress is not None:
                self.progress.update(summary, log.bytes_read, log.size)
        self._recall(recalled, timeline, summary)
        batch.last_record = max(batch.last_record, ordinal)
        batch.completed = True
        self._submit(batch, summary)
        self._drain(summary)

    def _plan(self, turn: Turn, timeline: _Timeline, summary: ImportSummary) -> list[_Planned]:
        when = timeline.when(turn)
        statements = self._extract(turn)
        ns = self.options.namespace
        keys = [statement_key(ns, turn, s.text) for s in statements]
        out = []
        for order, (statement, key) in enumerate(zip(statements, keys, strict=True)):
            summary.statements += 1
            if len(statement.text) > self.limit:
                # not stored, and not lost without a word: the rejects file has it, with
                # its line (the import goes on: the turn's other statements are fine)
                summary.too_long += 1
                if self.on_reject is not None:
                    reason = (
                        f"a statement of {len(statement.text)} characters is over the "
                        f"limit of {self.limit} (BELIEFGRAPH_MAX_TEXT_LENGTH); not stored"
                    )
                    self.on_reject(
                        self._reading, Reject(turn.line, reason, statement.text[:10_000])
                    )
                continue
            caused = keys[statement.caused] if statement.caused is not None else None
            before, after = timeline.place(turn.conversation_id, when, key)
            said_at = turn.ts or (
                datetime.fromtimestamp(when, UTC) if math.isfinite(when) else None
            )
            out.append(
                _Planned(key, turn, statement, order, caused, before, after, said_at=said_at)
            )
        return out

    def _recall(
        self, turns: list[tuple[Turn, float]], timeline: _Timeline, summary: ImportSummary
    ) -> None:
        """Place the statements an earlier run wrote for ``turns`` (each with its time) in
        their conversations' time, as the graph holds them (the turns' ``ASSERTED`` keys),
        and empty ``turns``.

        They are not extracted again: a model's extraction would cost its calls once more,
        and could answer differently, so that the statements after them would follow
        statements that were never written. Only a turn of several statements written
        before ``ASSERTED`` kept their order is extracted, to order them (by the statements
        the extractor finds now; one it no longer finds goes last).
        """
        if not turns:
            return
        ns = self.options.namespace
        ids = [turn_node_id(ns, turn) for turn, _ in turns]
        found = {
            r["turn"]: (r["keys"], r["ordered"])
            for r in self.store.db.read_rows("import_turn_keys", turns=list(dict.fromkeys(ids)))
        }
        for (turn, when), turn_id in zip(turns, ids, strict=True):
            keys, ordered = found.get(turn_id, ([], True))
            if not ordered and len(keys) > 1:  # written before ASSERTED kept its order
                said = [statement_key(ns, turn, s.text) for s in self._extract(turn)]
                keys = sorted(keys, key=lambda k: said.index(k) if k in said else len(said))
            for key in keys:
                summary.statements += 1
                summary.already += 1
                timeline.place(turn.conversation_id, when, key)
        turns.clear()

    def _extract(self, turn: Turn) -> list[Statement]:
        """What the extractor finds in ``turn``, in the order it was said."""
        return self.extractor.extract(turn.role, turn.content)

    # -- the pipeline ----------------------------------------------------------------------

    def _submit(self, batch: _Batch, summary: ImportSummary) -> None:
        """Start preparing ``batch``; commit the batch prepared before it meanwhile."""
        if batch.records == 0 and not batch.planned and not batch.completed:
            return
        assert self._pool is not None
        upcoming = self._pool.submit(self._prepare, batch)
        self._drain(summary)
        self._pending = upcoming

    def _drain(self, summary: ImportSummary) -> None:
        """Commit the prepared batch waiting, if any."""
        if self._pending is None:
            return
        prepared = self._pending.result()
        self._pending = None
        self._commit(prepared, summary)

    def _prepare(self, batch: _Batch) -> _Prepared:
        """Find which statements are new, and embed them (runs in the worker thread)."""
        keys = list(dict.fromkeys(p.key for p in batch.planned))
        done = {r["key"]: r["belief"] for r in self.store.db.read_rows("import_done", keys=keys)}
        todo = [p for p in batch.planned if p.key not in done]
        if self.options.dry_run or not todo:
            return _Prepared(batch, todo, done, [], [])
        # a belief with a statement's id but no ASSERTED edge comes from outside this
        # importer's transactions (ids are hashes, so only a deliberate copy): link, don't write
        stored = set(self.store.db.read_rows("belief_existing_ids", ids=[p.key for p in todo]))
        done.update({key: key for key in stored})
        creates = [p for p in todo if p.key not in stored]
        beliefs = [_belief(p, self.options) for p in creates]
        rows = self.store.prepare(
            beliefs, write_path=WritePath.import_, actor=self.actor, embedder=self.embedder
        )
        return _Prepared(batch, todo, done, rows, [p.key for p in creates])

    def _commit(self, prepared: _Prepared, summary: ImportSummary) -> None:
        """Write one prepared batch in one transaction: beliefs, provenance, checkpoint."""
        batch, todo = prepared.batch, prepared.todo
        summary.already += len(batch.planned) - len(todo)
        summary.batches += 1 if batch.records else 0
        if self.options.dry_run:
            summary.added += len(todo)
            return
        rows = self._provenance_rows(todo)
        decisions: list[GateDecision] = []

        def work(tx: ManagedTransaction) -> None:
            decisions.clear()
            targets = dict(prepared.done)
            if prepared.rows:
                decisions.extend(
                    self.store.create_in(tx, prepared.rows, caller=self.caller, actor=self.actor)
                )
                targets.update(
                    zip(prepared.row_keys, (d.belief_id for d in decisions), strict=True)
                )
            wanted = sorted(
                {
                    k
                    for p in batch.planned  # statements written before are linked too
                    for k in (p.key, p.follows_key, p.followed_by, p.caused_key)
                    if k and k not in targets
                }
            )
            if wanted:  # statements of earlier batches that these follow or explain
                found = self.store.db.tx_rows(tx, "import_done", keys=wanted)
                targets.update({r["key"]: r["belief"] for r in found})
            self._write_provenance(tx, todo, targets, rows, batch)

        self.store.db.write(work)
        for d in decisions:
            verdict = str(d.verdict)
            if verdict in ("noop", "subsumed"):
                summary.noop += 1
            else:
                summary.added += 1
            if d.contested:
                summary.contested += 1
            elif verdict == "contradicts":
                summary.superseded += 1

    def _provenance_rows(self, todo: list[_Planned]) -> dict[str, list[dict[str, Any]]]:
        ns = self.options.namespace
        conversations = {
            p.turn.conversation_id: {
                "id": conversation_node_id(ns, p.turn.conversation_id),
                "conversation_id": p.turn.conversation_id,
                "namespace": ns,
                "title": p.turn.title,
            }
            for p in todo
        }
        turns = {
            turn_node_id(ns, p.turn): {
                "id": turn_node_id(ns, p.turn),
                "conversation": conversation_node_id(ns, p.turn.conversation_id),
                "index": p.turn.index,
                "turn_id": p.turn.turn_id,
                "role": p.turn.role,
                "ts": p.turn.ts,
                "text": p.turn.content[:TURN_TEXT_CHARS],
                "line": p.turn.line,
                "namespace": ns,
            }
            for p in todo
        }
        return {"conversations": list(conversations.values()), "turns": list(turns.values())}

    def _write_provenance(
        self,
        tx: ManagedTransaction,
        todo: list[_Planned],
        targets: dict[str, str],
        rows: dict[str, list[dict[str, Any]]],
        batch: _Batch,
    ) -> None:
        source = self._source
        ns = self.options.namespace
        self.store.db.tx_run(
            tx,
            "import_checkpoint",
            key=source["key"],
            namespace=source["namespace"],
            source_name=source["name"],
            format=source["format"],
            records_done=batch.last_record,
            completed=batch.completed,
            skipped=batch.skipped,
            now=datetime.now(UTC),
        )
        # every statement is linked to its neighbours in time, those written before too: a
        # mended line is new between two of them (an edge already there is not written again)
        follows = _edges(
            pair
            for p in batch.planned
            for pair in (
                (targets.get(p.key), targets.get(p.follows_key or "")),
                (targets.get(p.followed_by or ""), targets.get(p.key)),
            )
        )
        if follows:
            self.store.db.tx_run(
                tx, "import_follows", rows=[{"later": a, "earlier": b} for a, b in follows]
            )
        if not todo:
            return
        asserted = [
            {
                "turn": turn_node_id(ns, p.turn),
                "key": p.key,
                "belief": targets[p.key],
                "speaker": p.statement.speaker,
                "cue": p.statement.cue,
                "order": p.order,
            }
            for p in todo
        ]
        caused = _edges((targets.get(p.key), targets.get(p.caused_key or "")) for p in todo)
        self.store.db.tx_run(
            tx, "import_conversations", source=source["key"], rows=rows["conversations"]
        )
        self.store.db.tx_run(tx, "import_turns", rows=rows["turns"])
        self.store.db.tx_run(tx, "import_asserted", rows=asserted)
        if caused:
            self.store.db.tx_run(
                tx, "import_caused", rows=[{"reason": a, "claim": b} for a, b in caused]
            )


def _edges(pairs: Iterable[tuple[str | None, str | None]]) -> list[tuple[str, str]]:
    """Distinct ``(from, to)`` belief pairs, without gaps or self-loops, in order."""
    out: dict[tuple[str, str], None] = {}
    for a, b in pairs:
        if a and b and a != b:
            out[(a, b)] = None
    return list(out)


def _belief(p: _Planned, options: ImportOptions) -> BeliefCreate:
    s = p.statement
    return BeliefCreate(
        id=p.key,
        text=s.text,
        kind=s.kind,
        status=s.status,
        epistemic_status=s.epistemic_status,
        priority=s.priority,
        trust=s.trust,
        importance=s.importance,
        confidence=s.confidence,
        pinned=s.pinned,
        why_it_matters=s.why_it_matters,
        valid_from=p.said_at,
        author=s.speaker,
        user=options.user,
        namespaces=[options.namespace],
    )


def import_logs(
    store: Store,
    source: Path | str | BinaryIO,
    options: ImportOptions,
    *,
    name: str | None = None,
    extractor: Extractor | None = None,
    progress: Progress | None = None,
    on_reject: RejectSink | None = None,
    cancel: threading.Event | None = None,
    caller: Caller | None = None,
) -> ImportSummary:
    """Import a conversation log into ``options.namespace``; return what was done.

    ``source`` is a path, ``"-"`` (standard input) or a binary stream. Importing the same
    log again writes nothing; an interrupted import picks up at its last checkpoint.

    Raises:
        InvalidInput: the namespace is malformed.
        UnknownFormat: the format is ``auto`` and cannot be told from the first record.
        MalformedRecord: a record is broken (file, line, reason) and ``skip_invalid`` is
            off; every record before it is committed.
        StoreUnavailable: Neo4j cannot be reached.

    >>> import_logs(store, "chat.jsonl", ImportOptions(namespace="user:me"))  # doctest: +SKIP
    ImportSummary(source='chat.jsonl', namespace='user:me', format='jsonl', ...)
    """
    importer = Importer(
        store,
        options,
        extractor=extractor,
        progress=progress,
        on_reject=on_reject,
        cancel=cancel,
        caller=caller,
    )
    return importer.run(source, name=name)


class RejectFile:
    """Writes rejected records to a JSON Lines file, one ``{source, line, reason, raw}`` each.

    The file is opened on the first reject, so a clean import leaves no file behind.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0
        self._file: IO[str] | None = None

    def __call__(self, source: str, reject: Reject) -> None:
        """Append one reject."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        entry = {"source": source, "line": reject.line, "reason": reject.reason, "raw": reject.raw}
        self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()
        self.count += 1

    def close(self) -> None:
        """Close the file if it was opened."""
        if self._file is not None:
            self._file.close()


# -- background jobs -----------------------------------------------------------------------


class JobState(StrEnum):
    """Where an import job is."""

    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"


@dataclass
class ImportJob:
    """An import running in a background thread, and what it has done so far."""

    id: str
    namespace: str
    format: str
    state: JobState = JobState.queued
    summary: ImportSummary | None = None
    error: dict[str, Any] | None = None
    rejects: list[dict[str, Any]] = field(default_factory=list)
    bytes_read: int = 0
    total_bytes: int | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    finished_at: datetime | None = None

    def public(self) -> ImportJobPublic:
        """The job as clients see it (``GET /v1/imports/{id}``)."""
        fraction = None
        if self.total_bytes:
            fraction = round(min(self.bytes_read / self.total_bytes, 1.0), 4)
        return ImportJobPublic(
            id=self.id,
            state=self.state,
            namespace=self.namespace,
            format=self.format,
            summary=self.summary.as_dict() if self.summary else None,
            progress=ImportProgress(
                bytes_read=self.bytes_read, total_bytes=self.total_bytes, fraction=fraction
            ),
            error=self.error,
            rejects=list(self.rejects),
            created_at=self.created_at,
            finished_at=self.finished_at,
        )


class ImportProgress(BaseModel):
    """How far a job has got."""

    bytes_read: int
    total_bytes: int | None
    fraction: float | None = Field(description="Share of the log read, 0..1, when known.")


class ImportJobPublic(BaseModel):
    """An import job as clients see it; ``summary`` grows while it runs."""

    id: str
    state: JobState
    namespace: str
    format: str
    summary: dict[str, Any] | None
    progress: ImportProgress
    error: dict[str, Any] | None = Field(
        description="Why the job failed: `type`, `detail`, and `line`/`reason` for a broken "
        "record (every record before it is committed; resubmit the fixed log to continue)."
    )
    rejects: list[dict[str, Any]] = Field(
        description="Skipped records (`line`, `reason`) when `skip_invalid` is on; the first 100."
    )
    created_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        """Whether the job has stopped, one way or the other."""
        return self.state in (JobState.succeeded, JobState.failed)


class _JobProgress:
    def __init__(self, job: ImportJob) -> None:
        self.job = job

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        self.job.summary = summary
        self.job.bytes_read = bytes_read
        self.job.total_bytes = total_bytes

    def close(self, summary: ImportSummary) -> None:
        self.job.summary = summary


class ImportJobs:
    """Import jobs of this process, each in its own thread.

    Job state lives in memory, in the process that runs the job: it is a view of progress,
    not a record. The record is in Neo4j — the beliefs, their provenance and the source's
    checkpoint — so a job lost with its process is finished by submitting the same log
    again, which resumes at the checkpoint. With several API replicas, ask the replica that
    took the job (or read the ``Source`` node's checkpoint).

    Args:
        store: the process's store.
        max_rejects: rejects kept per job for ``skip_invalid`` (the count is always exact).
        max_jobs: finished jobs kept before the oldest are forgotten.
    """

    def __init__(self, store: Store, *, max_rejects: int = 100, max_jobs: int = 1000) -> None:
        self.store = store
        self.max_rejects = max_rejects
        self.max_jobs = max_jobs
        self._jobs: dict[str, ImportJob] = {}
        self._lock = threading.Lock()
        # one import at a time: they all compete for the same two cores and the same model
        self._run_lock = threading.Lock()

    def submit(
        self,
        path: Path,
        options: ImportOptions,
        *,
        remove_after: bool = False,
        caller: Caller | None = None,
    ) -> ImportJob:
        """Start importing the log at ``path`` in a background thread; return the job.

        With ``remove_after`` the file is deleted when the job ends (an uploaded body).
        """
        job = ImportJob(id=uuid.uuid4().hex, namespace=options.namespace, format=options.format)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
        thread = threading.Thread(
            target=self._run,
            args=(job, path, options, remove_after, caller),
            daemon=True,
            name=f"import-{job.id[:8]}",
        )
        thread.start()
        return job

    def get(self, job_id: str) -> ImportJob | None:
        """The job with that id, or ``None``."""
        with self._lock:
            return self._jobs.get(job_id)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished_at is not None]
        for job in sorted(finished, key=lambda j: j.created_at)[
            : max(0, len(self._jobs) - self.max_jobs)
        ]:
            del self._jobs[job.id]

    def _run(
        self,
        job: ImportJob,
        path: Path,
        options: ImportOptions,
        remove_after: bool,
        caller: Caller | None,
    ) -> None:
        def keep_reject(source: str, reject: Reject) -> None:
            if len(job.rejects) < self.max_rejects:
                job.rejects.append({"line": reject.line, "reason": reject.reason})

        try:
            with self._run_lock:
                job.state = JobState.running
                job.summary = import_logs(
                    self.store,
                    path,
                    options,
                    name=f"upload-{job.id[:8]}",
                    progress=_JobProgress(job),
                    on_reject=keep_reject,
                    caller=caller,
                )
            job.state = JobState.succeeded
        except BeliefGraphError as e:
            job.error = {"type": e.slug, "detail": e.detail}
            if isinstance(e, MalformedRecord):
                job.error.update(line=e.line, reason=e.reason)
            job.state = JobState.failed
        except Exception as e:  # a job thread must record any failure, never die silently
            log.exception("import job %s failed", job.id)
            job.error = {"type": "internal", "detail": f"{type(e).__name__}: {e}"}
            job.state = JobState.failed
        finally:
            if job.summary is not None and job.summary.format:
                job.format = job.summary.format  # what auto found, failed job or not
            job.finished_at = datetime.now(UTC)
            if remove_after:
                path.unlink(missing_ok=True)
