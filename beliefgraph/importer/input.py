"""A conversation log as input: its formats, turns, records and rejects, streamed and detected."""

from __future__ import annotations

import io
import logging
import re
import sys
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, BinaryIO

from beliefgraph.errors import InvalidInput

log = logging.getLogger(__name__)

#: bytes read to tell the format and to fingerprint a source for its checkpoint
HEAD_BYTES = 64 * 1024
#: characters of a turn's text kept on its ``Turn`` node (the provenance, not an archive)
TURN_TEXT_CHARS = 2000
#: distinct statements whose vectors an import keeps (about 61 MB at 384 dimensions)
EMBEDDINGS_REMEMBERED = 20_000
#: statements of one conversation whose place in time an import keeps, for ``FOLLOWS``
TIMELINE_KEPT = 10_000
#: characters of the assistant's last message an import keeps per conversation, to read the
#: user's answer to it ("fargate." after "Fargate unless you need GPUs ...")
OFFER_KEPT = 4000
#: turns a resumed import reads back (their statements) per query, for those written before
RECALLED_TURNS = 2000
#: half of a UTF-16 pair, which JSON's escapes can leave in a string
SURROGATE = re.compile("[\ud800-\udfff]")
TOO_DEEP = "JSON nested too deeply to read"


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
