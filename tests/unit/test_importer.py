"""The log readers: formats, detection, streaming, bad input, ids. No services needed."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from beliefgraph.errors import MalformedRecord, UnknownFormat
from beliefgraph.importer.detect import detect_format
from beliefgraph.importer.formats import READERS
from beliefgraph.importer.input import (
    HEAD_BYTES,
    TIMELINE_KEPT,
    LogFormat,
    Record,
    Reject,
    Turn,
    open_log,
)
from beliefgraph.importer.summary import Timeline, statement_key, turn_node_id

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"


def read(data: bytes | Path, fmt: LogFormat | None = None) -> list[Record | Reject]:
    with open_log(data if isinstance(data, Path) else io.BytesIO(data), name="test.log") as log:
        return list(READERS[fmt or detect_format(log.head, log.name)](log))


def turns(items: list[Record | Reject]) -> list[Turn]:
    return [t for r in items if isinstance(r, Record) for t in r.turns]


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("chat.jsonl", LogFormat.jsonl),
        ("openai.jsonl", LogFormat.openai),
        ("conversations.json", LogFormat.chatgpt),
    ],
)
def test_each_sample_is_detected(name: str, fmt: LogFormat) -> None:
    with open_log(LOGS / name) as log:
        assert detect_format(log.head, log.name) is fmt


def test_jsonl_sample_reads_every_message_in_order() -> None:
    items = read(LOGS / "chat.jsonl")
    assert all(isinstance(r, Record) for r in items)
    standup = [t for t in turns(items) if t.conversation_id == "c-standup"]
    assert [t.index for t in standup] == list(range(len(standup)))
    assert standup[0].turn_id == "u1"
    assert standup[0].ts is not None
    assert standup[0].ts.year == 2025
    assert [t.line for t in turns(items)] == list(range(1, 11))


def test_openai_sample_names_conversations_by_id_or_content() -> None:
    items = read(LOGS / "openai.jsonl")
    trip, other = (r for r in items if isinstance(r, Record))
    assert {t.conversation_id for t in trip.turns} == {"conv-trip"}
    assert [t.role for t in trip.turns] == ["system", "user", "assistant", "user"]
    assert "07:10 train" in trip.turns[3].content  # a content-parts list is joined
    assert other.turns[0].conversation_id.startswith("sha256:")
    assert read(LOGS / "openai.jsonl")[1] == other  # the content hash is stable


def test_chatgpt_export_follows_the_current_branch() -> None:
    laptops, recipes = (r for r in read(LOGS / "conversations.json") if isinstance(r, Record))
    assert [t.turn_id for t in laptops.turns] == ["m1", "m2", "m3b", "m4b"]  # not m3a/m4a
    assert laptops.turns[0].title == "Team laptop policy"
    assert laptops.line == 2
    assert laptops.turns[3].content == "Twelve works too."  # the image part is dropped
    assert [t.turn_id for t in recipes.turns] == ["r1"]  # a code message is not text
    assert recipes.line > laptops.line


def test_chatgpt_without_current_node_takes_the_latest_children() -> None:
    conversation = {
        "id": "x",
        "mapping": {
            "a": {"id": "a", "parent": None, "children": ["b", "c"], "message": None},
            "b": {"id": "b", "parent": "a", "children": [], "message": _msg("b", "old")},
            "c": {"id": "c", "parent": "a", "children": [], "message": _msg("c", "new")},
        },
    }
    [record] = read(json.dumps([conversation]).encode(), LogFormat.chatgpt)
    assert isinstance(record, Record)
    assert [t.content for t in record.turns] == ["new"]


def _msg(ident: str, text: str) -> dict[str, object]:
    return {
        "id": ident,
        "author": {"role": "user"},
        "content": {"content_type": "text", "parts": [text]},
    }


def test_a_large_chatgpt_export_is_streamed_one_conversation_at_a_time() -> None:
    # well over the head and the first read chunk, with long strings crossing chunk ends
    conversations = [
        {
            "id": f"c{i}",
            "current_node": "m",
            "mapping": {
                "m": {"id": "m", "parent": None, "message": _msg("m", "x" * 5000 + str(i))}
            },
        }
        for i in range(200)
    ]
    data = json.dumps(conversations, indent=1).encode()
    assert len(data) > 8 * HEAD_BYTES
    records = read(data)
    assert len(records) == 200
    assert all(isinstance(r, Record) for r in records)
    assert [r.turns[0].content[-3:] for r in records if isinstance(r, Record)][-1] == "199"


def test_empty_input_reads_nothing() -> None:
    assert read(b"") == []
    assert read(b"\n\n  \n") == []


def test_unknown_format_lists_the_formats() -> None:
    log = open_log(io.BytesIO(b"hello, this is not a log\n"), name="notes.txt")
    with pytest.raises(UnknownFormat) as e:
        detect_format(log.head, log.name)
    assert "notes.txt" in e.value.detail
    # it names each format and the fields that make a record one of it
    for said in ("jsonl:", "openai:", "chatgpt:", "conversation_id", "messages", "mapping"):
        assert said in e.value.detail
    with pytest.raises(UnknownFormat):
        detect_format(b'{"speaker": "me", "said": "hi"}\n', "x")


def test_malformed_jsonl_records_are_rejects_with_their_line() -> None:
    data = b"\n".join(
        [
            b'{"conversation_id": "c", "role": "user", "content": "I prefer tea."}',
            b'{"conversation_id": "c", "role": "user", "content": ',  # cut off
            b'{"role": "user", "content": "no conversation"}',
            b'{"conversation_id": "c", "role": "narrator", "content": "x"}',
            b'{"conversation_id": "c", "role": "user", "content": "x", "ts": "yesterday"}',
            b"\xff\xfe not utf-8",
            b'{"conversation_id": "c", "role": "user", "content": "I like jazz."}',
        ]
    )
    items = read(data, LogFormat.jsonl)
    rejects = [r for r in items if isinstance(r, Reject)]
    assert [r.line for r in rejects] == [2, 3, 4, 5, 6]
    assert "conversation_id" in rejects[1].reason
    assert "role" in rejects[2].reason
    assert "ts" in rejects[3].reason
    assert "UTF-8" in rejects[4].reason
    good = turns(items)
    assert [t.index for t in good] == [0, 1]  # rejects take no index


def test_a_mended_line_leaves_the_ids_of_the_lines_after_it_as_they_were() -> None:
    lines = [
        {"conversation_id": "c", "role": "user", "content": "Always lock the door."},
        {"conversation_id": "c", "role": "user", "content": "x", "ts": "yesterday"},
        {"conversation_id": "c", "role": "user", "content": "Never push to main."},
        {"conversation_id": "c", "role": "user", "content": "Never push to main."},
    ]
    broken = turns(read("\n".join(json.dumps(x) for x in lines).encode(), LogFormat.jsonl))
    lines[1]["ts"] = "2025-03-01T10:00:00Z"
    mended = turns(read("\n".join(json.dumps(x) for x in lines).encode(), LogFormat.jsonl))
    assert [t.line for t in broken] == [1, 3, 4]
    assert [t.key for t in mended if t.line != 2] == [t.key for t in broken]
    assert len({t.key for t in mended}) == 4  # the same words said twice are two turns


def test_a_repeated_turn_id_is_a_reject_naming_the_first() -> None:
    data = b"\n".join(
        [
            b'{"conversation_id": "c", "turn_id": 1, "role": "user", "content": "I like tea."}',
            b'{"conversation_id": "c", "turn_id": 1, "role": "assistant", "content": "Noted."}',
            b'{"conversation_id": "d", "turn_id": 1, "role": "user", "content": "Hi."}',
        ]
    )
    items = read(data, LogFormat.jsonl)
    assert isinstance(items[1], Reject)
    assert "already line 1's" in items[1].reason
    assert isinstance(items[2], Record)  # another conversation may use the same id
    twice = {"messages": [{"id": "m", "role": "user", "content": "a"}] * 2}
    [reject] = read(json.dumps(twice).encode(), LogFormat.openai)
    assert isinstance(reject, Reject)
    assert "messages[1].id" in reject.reason


def test_broken_json_on_a_line_says_the_column_not_another_line() -> None:
    [reject] = read(b'{"conversation_id": "c", "role": "user" "content": "x"}\n')
    assert isinstance(reject, Reject)
    assert reject.line == 1
    assert reject.reason == "broken JSON: Expecting ',' delimiter at column 41"


def test_edge_inputs_read_as_nothing_or_a_clear_reject() -> None:
    assert read("\ufeff\n".encode()) == []  # only a byte order mark
    assert detect_format(b"[]", "x") is LogFormat.chatgpt  # an export of no conversation
    assert read(b"[ ]") == []
    [reject] = read(b'{"conversation_id": "c", "role": "user", "content": "x", "ts": 1e400}')
    assert isinstance(reject, Reject)
    assert reject.reason.startswith("ts is not a time")
    line = (
        b'{"conversation_id": "c", "role": "user", "content": "x", "ts": "2026-01-01T00:00+23:00"}'
    )
    [reject] = read(line)
    assert isinstance(reject, Reject)
    assert reject.reason.startswith("ts: the UTC offset must be within")


@pytest.mark.parametrize("fmt", [LogFormat.jsonl, LogFormat.openai, LogFormat.chatgpt])
def test_json_past_the_parsers_limits_is_a_reject_with_its_line(fmt: LogFormat) -> None:
    good = b'{"conversation_id": "c", "role": "user", "content": "hi"}\n'
    deep = b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    huge = b'{"conversation_id": "c", "role": "user", "content": "x", "ts": ' + b"9" * 5000
    for data, reason in ((deep, "nested too deeply"), (huge + b"}\n", "4300 digits")):
        if fmt is LogFormat.chatgpt:
            items = read(b"[" + data + b"]", fmt)
        else:
            items = read(good + data, fmt)[1:]
            assert detect_format(data, "x") is LogFormat.jsonl  # its reader says what is wrong
        [reject] = items
        assert isinstance(reject, Reject)
        assert reason in reject.reason
        assert reject.line == (1 if fmt is LogFormat.chatgpt else 2)


def test_half_a_utf16_pair_is_a_reject_naming_the_field() -> None:
    """JSON may escape a lone surrogate; no such string can be hashed into an id or stored."""
    lines = [
        {"conversation_id": "c", "role": "user", "content": "I prefer \ud800 tea"},
        {"conversation_id": "c\udc00", "role": "user", "content": "tea", "turn_id": "t"},
    ]
    data = "\n".join(json.dumps(line) for line in lines).encode()  # ASCII, escapes and all
    content, conversation = read(data, LogFormat.jsonl)
    assert isinstance(content, Reject)
    assert content.reason.startswith("content holds half of a UTF-16 pair")
    assert isinstance(conversation, Reject)
    assert conversation.reason.startswith("conversation_id holds half")
    node = {"id": "m", "parent": None, "message": _msg("m", "I prefer \udfff tea")}
    export = {"id": "a", "current_node": "m", "mapping": {"m": node}}
    [reject] = read(json.dumps([export]).encode(), LogFormat.chatgpt)
    assert isinstance(reject, Reject)
    assert "content.parts holds half" in reject.reason


def test_broken_json_in_a_chatgpt_export_is_a_fatal_reject_with_its_line() -> None:
    good = json.dumps({"id": "a", "mapping": {}})
    data = f'[\n{good},\n{{"id": "b", "mapping": {{]\n]'.encode()
    first, broken = read(data, LogFormat.chatgpt)
    assert isinstance(first, Record)
    assert isinstance(broken, Reject)
    assert broken.fatal
    assert broken.line == 3


def test_a_chatgpt_conversation_without_mapping_is_a_skippable_reject() -> None:
    items = read(b'[{"id": "a"}, {"id": "b", "mapping": {}}]', LogFormat.chatgpt)
    assert isinstance(items[0], Reject)
    assert not items[0].fatal
    assert isinstance(items[1], Record)


def test_ids_depend_on_namespace_conversation_turn_and_text() -> None:
    turn = Turn("c1", 3, "user", "I prefer tea.", 1)
    key = statement_key("user:me", turn, "I prefer tea.")
    assert key == statement_key("user:me", turn, "I prefer tea.")
    assert key != statement_key("user:you", turn, "I prefer tea.")
    assert key != statement_key("user:me", turn, "I prefer coffee.")
    assert key != statement_key("user:me", Turn("c1", 4, "user", "", 1), "I prefer tea.")
    with_id = Turn("c1", 3, "user", "", 1, turn_id="m7")
    assert statement_key("user:me", with_id, "x") != statement_key("user:me", turn, "x")
    assert turn_node_id("user:me", turn) != turn_node_id("user:me", with_id)


def test_malformed_record_error_names_file_and_line() -> None:
    e = MalformedRecord("chat.jsonl", 17, "role must be one of ...")
    assert e.detail == "chat.jsonl:17: role must be one of ..."
    assert e.line == 17


def said_at(timeline: Timeline, hour: int | None, *keys: str) -> list[tuple[str | None, ...]]:
    """Place the statements of one turn of conversation "c" at ``hour`` (``None``: no ts)."""
    ts = None if hour is None else datetime(2026, 11, 30, hour, tzinfo=UTC)
    when = timeline.when(Turn("c", 0, "user", "", 1, ts=ts))
    return [timeline.place("c", when, key) for key in keys]


def test_the_timeline_places_a_late_line_between_its_neighbours_in_time() -> None:
    timeline = Timeline()
    assert said_at(timeline, 10, "tea") == [(None, None)]
    assert said_at(timeline, 12, "postgres") == [("tea", None)]
    # read after 12:00, said at 11:00: it follows tea, and postgres follows it
    assert said_at(timeline, 11, "fridays", "tabs") == [
        ("tea", "postgres"),
        ("fridays", "postgres"),  # a turn's statements in the order they were said
    ]


def test_a_turn_without_a_time_takes_the_time_of_the_turn_before_it() -> None:
    timeline = Timeline()
    said_at(timeline, 10, "tea")
    said_at(timeline, 12)  # a turn that says nothing still sets the time
    said_at(timeline, 11, "fridays")
    assert said_at(timeline, None, "tabs") == [("fridays", None)]
    other = Timeline()
    assert said_at(other, None, "a") + said_at(other, None, "b") == [(None, None), ("a", None)]


def test_the_timeline_keeps_the_latest_statements_of_a_conversation() -> None:
    timeline = Timeline()
    for i in range(TIMELINE_KEPT + 5):
        said_at(timeline, 12, f"s{i}")
    # said before every statement kept: the earliest kept follows it, and it follows none
    assert said_at(timeline, 9, "early") == [(None, "s5")]


# Every shape of log people export, one small sample each (tests/data/logs/), and what it
# must give: its format, and each turn's conversation, speaker, text and time.
SHAPES = [
    (
        "assistants-thread.jsonl",
        LogFormat.jsonl,
        [
            ("thread_trip", "user", "I always want an aisle seat on long flights.", 1717000000),
            ("thread_trip", "assistant", "Noted: aisle seats on long flights.", 1717000005),
        ],
    ),
    (
        "gemini.jsonl",
        LogFormat.openai,
        [
            (
                "g-garden",
                "user",
                "We decided to plant tomatoes along the south fence this year.",
                None,
            ),
            ("g-garden", "assistant", "Good choice; they will get the most sun there.", None),
        ],
    ),
    (
        "text-and-message-fields.jsonl",
        LogFormat.jsonl,
        [
            ("c-text", "user", "My dentist is Dr. Alvarez on Pine Street.", None),
            ("s-msg", "user", "I prefer morning appointments.", 1717000000),  # ms since 1970
        ],
    ),
    (
        "responses-api.jsonl",
        LogFormat.openai,
        [  # the tool call and its output are not turns; the conversation is kept whole
            ("resp_db", "user", "We decided to use Postgres for the billing service.", None),
            ("resp_db", "assistant", "Postgres it is for billing.", None),
        ],
    ),
    (
        "sharegpt.jsonl",
        LogFormat.openai,
        [
            ("sg-1", "user", "I prefer window seats on trains.", None),
            ("sg-1", "assistant", "I'll keep that in mind.", None),
        ],
    ),
    (
        "langchain.jsonl",
        LogFormat.openai,
        [
            ("lc-1", "user", "Our team standup is at 9:30 every weekday.", None),
            ("lc-1", "assistant", "Got it.", None),
            ("lc-1", "user", "I prefer tea over coffee.", None),
        ],
    ),
    (
        "claude-export.json",
        LogFormat.chatgpt,
        [
            (
                "c0ffee00-0000-4000-8000-000000000001",
                "user",
                "We chose oak for the kitchen floor.",
                1714557600,
            ),
            (
                "c0ffee00-0000-4000-8000-000000000001",
                "assistant",
                "Oak is durable; good pick.",
                1714557605,
            ),
        ],
    ),
    (
        "pretty-printed.jsonl",
        LogFormat.jsonl,
        [
            ("c-pretty", "user", "I prefer the 7:40 train to work.", None),
            ("c-pretty", "assistant", "Noted.", None),
        ],
    ),
]


@pytest.mark.parametrize(("name", "fmt", "expected"), SHAPES, ids=[s[0] for s in SHAPES])
def test_each_shape_of_log_gives_its_turns(
    name: str, fmt: LogFormat, expected: list[tuple[str, str, str, int | None]]
) -> None:
    with open_log(LOGS / name) as log:
        assert detect_format(log.head, log.name) is fmt
    items = read(LOGS / name)
    assert [r for r in items if isinstance(r, Reject)] == []
    got = [
        (t.conversation_id, t.role, t.content, int(t.ts.timestamp()) if t.ts else None)
        for t in turns(items)
    ]
    assert got == expected


def test_a_utf16_log_is_named_as_an_encoding_problem() -> None:
    with open_log(LOGS / "utf16.jsonl") as log, pytest.raises(UnknownFormat, match="UTF-16"):
        detect_format(log.head, log.name)


def test_a_message_whose_text_cannot_be_found_is_a_reject_not_an_empty_turn() -> None:
    [reject] = read(b'{"conversation_id": "c", "role": "user", "body": "x"}\n', LogFormat.jsonl)
    assert isinstance(reject, Reject)
    assert "has no text" in reject.reason


def test_chatgpt_custom_instructions_are_what_the_user_said() -> None:
    hidden = {
        "id": "ci",
        "author": {"role": "user"},
        "content": {
            "content_type": "user_editable_context",
            "user_profile": "I'm a nurse on night shifts.",
            "user_instructions": "Always answer in metric units.",
        },
        "metadata": {"is_visually_hidden_from_conversation": True},
    }
    mapping = {
        "ci": {"id": "ci", "parent": None, "children": ["m"], "message": hidden},
        "m": {"id": "m", "parent": "ci", "message": _msg("m", "hello")},
    }
    export = [{"id": "c", "current_node": "m", "mapping": mapping}]
    first, second = turns(read(json.dumps(export).encode(), LogFormat.chatgpt))
    assert (first.role, first.content) == (
        "user",
        "I'm a nurse on night shifts.\nAlways answer in metric units.",
    )
    assert second.content == "hello"


def test_a_line_that_is_not_utf8_keeps_its_bytes_escaped() -> None:
    [reject] = read(
        b'{"conversation_id": "c", "role": "user", "content": "caf\xe9"}\n', LogFormat.jsonl
    )
    assert isinstance(reject, Reject)
    assert "UTF-8" in reject.reason
    assert "caf\\xe9" in reject.raw  # enough to mend the line by hand


def test_an_export_cut_short_says_so() -> None:
    node = {"id": "m", "parent": None, "message": _msg("m", "I prefer tea.")}
    whole = json.dumps([{"id": "c", "current_node": "m", "mapping": {"m": node}}])
    items = read(whole[: len(whole) - 30].encode(), LogFormat.chatgpt)
    assert isinstance(items[-1], Reject)
    assert items[-1].fatal
    assert "cut short" in items[-1].reason


def test_the_progress_bar_shows_turns_per_second_and_where_in_the_file() -> None:
    from beliefgraph.importer.summary import ImportSummary, TerminalProgress

    out = io.StringIO()
    bar = TerminalProgress(out, every=0.0)
    summary = ImportSummary(source="x", namespace="user:x", format="jsonl", turns=500, added=40)
    bar.update(summary, 2_500_000, 10_000_000)
    shown = out.getvalue()
    for said in ("25%", "2.5/10.0 MB", "500 turns", "turns/s", "ETA"):
        assert said in shown
