"""Reading each supported export shape into records of turns.

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

(and the shapes beside them: Claude.ai exports, OpenAI Assistants threads, Gemini-style
``parts``, LangChain and ShareGPT dumps, read by the same readers). Files are streamed,
never loaded whole (a ChatGPT export is cut into its conversations as it is read).
"""

from __future__ import annotations

import codecs
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from beliefgraph.importer.input import (
    MESSAGE_ROLES,
    SURROGATE,
    TOO_DEEP,
    LogFormat,
    LogInput,
    Record,
    Reject,
    Turn,
)
from beliefgraph.importer.summary import id_digest
from beliefgraph.models import (
    storable,
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
    if not value.isascii() and SURROGATE.search(value):
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
ROLE_FIELDS = ("role", "from", "sender", "type")
TEXT_FIELDS = ("content", "text", "message", "value", "parts")
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
            for f in ROLE_FIELDS
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
    field = next((f for f in TEXT_FIELDS if message.get(f) is not None), None)
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
CONVERSATION_FIELDS = ("conversation_id", "thread_id", "session_id", "chat_id")
MESSAGE_LISTS = ("messages", "conversations", "contents", "chat_messages", "input")
_TIME_FIELDS = ("ts", "timestamp", "created_at", "create_time", "time")


def _first(obj: dict[str, Any], fields: Sequence[str]) -> Any:
    return next((obj[f] for f in fields if obj.get(f) is not None), None)


def _ident(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or str(value).strip() == "":
        raise ValueError(f"{where} must be a non-empty string or integer")
    return _unicode(str(value), where)


def pretty_printed(head: bytes) -> bool:
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
    if pretty_printed(log.head):
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
        raise ValueError(TOO_DEEP) from None


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
            named = next((f for f in CONVERSATION_FIELDS if obj.get(f) is not None), None)
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
            what = id_digest(role, content, ts.isoformat() if ts else "")[:16]
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
                    for f in MESSAGE_LISTS
                    if isinstance(obj, dict) and isinstance(obj.get(f), list)
                ),
                None,
            )
            if listed is None:
                raise ValueError(
                    f"a record must be an object with a list of messages "
                    f"({' or '.join(MESSAGE_LISTS)})"
                )
            given = _first(obj, (*CONVERSATION_FIELDS, "id"))
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
                reason = TOO_DEEP if isinstance(e, RecursionError) else f"unreadable JSON: {e}"
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
