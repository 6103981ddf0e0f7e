"""Importing conversation logs into the real Neo4j with the real model.

Each format round-trips its sample; provenance links every belief to its turn; speakers stay
true; a second import writes nothing; a ``kill -9`` mid-run and a rerun end with exactly the
graph an uninterrupted run makes; broken input stops (or is skipped) as documented.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from beliefgraph.config import Settings
from beliefgraph.embeddings import OnnxEmbedder
from beliefgraph.errors import MalformedRecord, UnknownFormat
from beliefgraph.importer.extract import RuleExtractor
from beliefgraph.importer.input import HEAD_BYTES, LogFormat, Reject
from beliefgraph.importer.pipeline import Importer, RejectFile, import_logs
from beliefgraph.importer.statements import ASSISTANT_PREFIX, Statement
from beliefgraph.importer.summary import ImportOptions, ImportSummary
from beliefgraph.store import Store

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"


# -- helpers -------------------------------------------------------------------------------


def beliefs_in(driver: Driver, ns: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        """
        MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns})
        OPTIONAL MATCH (t:Turn)-[a:ASSERTED]->(b)
        OPTIONAL MATCH (t)-[:PART_OF]->(c:Conversation)
        RETURN b {.*, embedding: null} AS b, collect(t {.*}) AS turns,
               collect(c.conversation_id) AS conversations, collect(a.speaker) AS speakers
        """,
        ns=ns,
    )
    return [
        {
            **r["b"],
            "turns": r["turns"],
            "conversations": r["conversations"],
            "speakers": r["speakers"],
        }
        for r in records
    ]


def dump(driver: Driver, ns: str) -> dict[str, Any]:
    """Everything an import wrote in ``ns``, with ids (which hash the namespace) replaced by
    what identifies a node across namespaces: a turn by conversation and index, a belief by
    its text and the turns that asserted it. Write times and namespace-derived keys are left out."""
    records, _, _ = driver.execute_query(
        """
        MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns})
        OPTIONAL MATCH (t:Turn)-[:ASSERTED]->(b)
        WITH b, collect([t.conversation_id, t.index]) AS turns
        RETURN b.id AS id, b {.*} AS props, turns
        """,
        ns=ns,
    )
    label = {r["id"]: json.dumps([r["props"]["text"], sorted(r["turns"])]) for r in records}
    beliefs = sorted(
        json.dumps(
            {
                k: v
                for k, v in r["props"].items()
                # search_keys hashes the namespace, like the id
                if k not in ("id", "embedding", "search_keys") and not k.endswith("_at")
            }
            | {"label": label[r["id"]]},
            sort_keys=True,
            default=str,
        )
        for r in records
    )
    edges, _, _ = driver.execute_query(
        """
        MATCH (a:Belief)-[:IN]->(:Namespace {name: $ns})
        MATCH (a)-[r]->(b:Belief)
        RETURN a.id AS a, type(r) AS type, b.id AS b
        """,
        ns=ns,
    )
    turns, _, _ = driver.execute_query(
        """
        MATCH (t:Turn {namespace: $ns})-[:PART_OF]->(c:Conversation)-[:IMPORTED_FROM]->(s:Source)
        OPTIONAL MATCH (t)-[a:ASSERTED]->(b:Belief)
        RETURN t {.*, id: null, namespace: null} AS turn, c.conversation_id AS conversation,
               c.title AS title, s.records_done AS done, s.completed AS completed,
               collect([a.speaker, a.cue, b.id]) AS asserted
        """,
        ns=ns,
    )
    return {
        "beliefs": beliefs,
        "edges": sorted((label.get(e["a"], "?"), e["type"], label.get(e["b"], "?")) for e in edges),
        "turns": sorted(
            json.dumps(
                {
                    **r,
                    "asserted": sorted([s, c, label.get(b, "?")] for s, c, b in r["asserted"]),
                },
                sort_keys=True,
                default=str,
            )
            for r in turns
        ),
    }


def full_state(driver: Driver, ns: str) -> list[str]:
    """Every property of every node and relationship an import touches in ``ns`` (write
    times included): equal before and after means nothing was written."""
    records, _, _ = driver.execute_query(
        """
        MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns})
        OPTIONAL MATCH (b)-[r]-(o)
        RETURN b {.*, embedding: null} AS b,
               collect([type(r), properties(r), o {.*, embedding: null}]) AS rels
        """,
        ns=ns,
    )
    return sorted(json.dumps(dict(r), sort_keys=True, default=str) for r in records)


def synthetic_log(path: Path, *, conversations: int, turns: int, seed: int) -> None:
    """A JSONL log of user and assistant turns with every cue the extractor knows."""
    rng = random.Random(seed)
    user = [
        "I prefer {a} over {b}.",
        "We decided to use {a} because {b} is too slow.",
        "Actually, the {a} server moved to {b}.",
        "Never deploy {a} on Fridays.",
        "I'm thinking about trying {a} someday but haven't decided.",
        "Can you explain how {a} works?",
        "Thanks, that helps.",
    ]
    assistant = [
        "Sure, here is how {a} works.",
        "You prefer {a}, so I suggest {b}.",
        "Noted, you've decided on {a}.",
    ]
    words = ["Postgres", "Redis", "Kafka", "Rust", "tea", "jazz", "Berlin", "Zoom", "vim", "tabs"]
    with path.open("w") as f:
        for i in range(turns):
            c = rng.randrange(conversations)
            role = "user" if i % 2 == 0 else "assistant"
            text = rng.choice(user if role == "user" else assistant).format(
                a=rng.choice(words) + str(rng.randrange(50)), b=rng.choice(words)
            )
            f.write(
                json.dumps(
                    {
                        "conversation_id": f"conv-{c}",
                        "role": role,
                        "content": text,
                        "ts": f"2025-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z",
                    }
                )
                + "\n"
            )


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "beliefgraph.cli", "import", "logs", *args, "--no-progress"]


# -- formats and provenance ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt", "conversations"),
    [
        ("chat.jsonl", "jsonl", 2),
        ("openai.jsonl", "openai", 2),
        ("conversations.json", "chatgpt", 2),
        # the other shapes people export, read by the same three readers
        ("assistants-thread.jsonl", "jsonl", 1),
        ("gemini.jsonl", "openai", 1),
        ("text-and-message-fields.jsonl", "jsonl", 2),
        ("responses-api.jsonl", "openai", 1),
        ("sharegpt.jsonl", "openai", 1),
        ("langchain.jsonl", "openai", 1),
        ("claude-export.json", "chatgpt", 1),
        ("pretty-printed.jsonl", "jsonl", 1),
        # a log of nothing but plain facts the user states is not imported as nothing
        ("plain-facts.jsonl", "jsonl", 1),
    ],
)
def test_each_format_round_trips_its_sample(
    store: Store, driver: Driver, ns: str, name: str, fmt: str, conversations: int
) -> None:
    summary = import_logs(store, LOGS / name, ImportOptions(namespace=ns))
    assert summary.format == fmt
    assert summary.conversations == conversations
    assert summary.rejects == 0
    assert summary.added == summary.statements > 0
    stored = beliefs_in(driver, ns)
    assert len(stored) == summary.added
    for b in stored:
        assert b["write_path"] == "import"
        assert len(b["turns"]) == 1, b  # every belief links back to the turn that said it
        assert b["speakers"] == [b["author"]]
        assert b["turns"][0]["role"] in ("user", "assistant")
        if b["author"] == "assistant":
            assert b["status"] == "inferred"
            assert b["trust"] < 0.5
            assert b["kind"] in ("observation", "suggestion")
            assert b["text"].startswith(ASSISTANT_PREFIX)
        else:
            assert b["turns"][0]["role"] == "user"


def test_jsonl_sample_beliefs_are_speaker_true(store: Store, driver: Driver, ns: str) -> None:
    import_logs(store, LOGS / "chat.jsonl", ImportOptions(namespace=ns))
    by_text = {b["text"]: b for b in beliefs_in(driver, ns)}
    page = by_text["I'm thinking about making you a page someday but haven't decided."]
    assert (page["kind"], page["status"]) == ("open_question", "exploratory")
    assert not any("not yet" in t.lower() for t in by_text)
    assert by_text["I prefer short answers without emojis."]["kind"] == "preference"
    assert by_text["Never deploy on Fridays."]["kind"] == "policy"
    remembered = by_text["the on-call phone is in the second drawer"]
    assert remembered["pinned"] is True
    paraphrase = by_text[ASSISTANT_PREFIX + "Great choice, you've decided on Postgres."]
    assert (paraphrase["kind"], paraphrase["status"]) == ("observation", "inferred")
    assert not any(b["kind"] == "decision" and b["author"] == "assistant" for b in by_text.values())
    # nothing from the system prompt, nothing from the code block
    assert not any("French" in t or "CREATE TABLE" in t for t in by_text)


def test_follows_and_caused_edges(store: Store, driver: Driver, ns: str) -> None:
    import_logs(store, LOGS / "chat.jsonl", ImportOptions(namespace=ns))
    edges = dump(driver, ns)["edges"]
    caused = [(json.loads(a)[0], json.loads(b)[0]) for a, t, b in edges if t == "CAUSED"]
    assert caused == [("we need JSONB.", "We decided to use Postgres for the billing service")]
    follows = {(json.loads(a)[0], json.loads(b)[0]) for a, t, b in edges if t == "FOLLOWS"}
    # c-standup in time order; c-site is a chain of its own, never linked to c-standup
    assert ("Never deploy on Fridays.", "the on-call phone is in the second drawer") in follows
    assert (
        ASSISTANT_PREFIX + "I'll remember that you prefer short answers.",
        "I prefer short answers without emojis.",
    ) in follows
    site = "I'm thinking about making you a page someday but haven't decided."
    assert not any(site in (a, b) for a, b in follows if "static page" not in a + b)


def test_follows_goes_back_in_time_when_the_log_is_out_of_order(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    said = {  # line order: 10:00, 12:00, 11:00 (a late line), then one without a time
        "10:00": "I prefer tea.",
        "12:00": "We decided to use Postgres.",
        "11:00": "Never deploy on Fridays.",
        None: "I always use tabs.",
    }
    log = tmp_path / "late.jsonl"
    log.write_text(
        "".join(
            json.dumps(
                {"conversation_id": "c", "role": "user", "content": text}
                | ({"ts": f"2026-11-30T{at}:00Z"} if at else {})
            )
            + "\n"
            for at, text in said.items()
        )
    )
    import_logs(store, log, ImportOptions(namespace=ns))
    edges = dump(driver, ns)["edges"]
    follows = {(json.loads(a)[0], json.loads(b)[0]) for a, t, b in edges if t == "FOLLOWS"}
    tea, postgres, fridays, tabs = said.values()
    # the late line goes in between (the edge from 12:00 to 10:00 stays, back in time too);
    # the line without a time takes the time of the line before it in the file
    assert follows == {
        (postgres, tea),
        (fridays, tea),
        (postgres, fridays),
        (tabs, fridays),
        (postgres, tabs),
    }


def test_a_repeated_statement_is_embedded_once_and_reinforces(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    said = "I prefer short answers without emojis."
    log = tmp_path / "repeats.jsonl"
    log.write_text(
        "".join(
            json.dumps({"conversation_id": f"c{i}", "role": "user", "content": said}) + "\n"
            for i in range(3)
        ),
        encoding="utf-8",
    )
    importer = Importer(store, ImportOptions(namespace=ns, batch_size=2))
    summary = importer.run(log)
    assert (importer.embedder.asked, importer.embedder.embedded) == (3, 1)
    assert (summary.added, summary.noop) == (1, 2)
    [belief] = beliefs_in(driver, ns)
    assert belief["reinforcement_count"] == 2
    assert sorted(belief["conversations"]) == ["c0", "c1", "c2"]


# -- idempotence and resumption ------------------------------------------------------------


def test_reimport_writes_nothing(store: Store, driver: Driver, ns: str) -> None:
    for name in ("chat.jsonl", "openai.jsonl", "conversations.json"):
        import_logs(store, LOGS / name, ImportOptions(namespace=ns))
    before = full_state(driver, ns)
    for name in ("chat.jsonl", "openai.jsonl", "conversations.json"):
        again = import_logs(store, LOGS / name, ImportOptions(namespace=ns))
        assert again.added == 0
        assert again.already == again.statements > 0
        # and without the checkpoint: every statement is found done, nothing written
        restarted = import_logs(store, LOGS / name, ImportOptions(namespace=ns, restart=True))
        assert restarted.added == 0
        assert restarted.resumed_at == 0
    assert full_state(driver, ns) == before


def test_dry_run_writes_nothing(store: Store, driver: Driver, ns: str) -> None:
    summary = import_logs(store, LOGS / "chat.jsonl", ImportOptions(namespace=ns, dry_run=True))
    assert summary.added == summary.statements == 10
    assert beliefs_in(driver, ns) == []


def test_kill_9_mid_run_then_rerun_equals_an_uninterrupted_run(
    store: Store, driver: Driver, neo4j_uri: str, ns: str, tmp_path: Path
) -> None:
    log = tmp_path / "big.jsonl"
    synthetic_log(log, conversations=12, turns=900, seed=7)
    clean_ns, killed_ns = ns, ns + "-k"
    env = {**os.environ, "NEO4J_URI": neo4j_uri}
    batch = ["--batch-size", "16"]

    clean = subprocess.run(
        cli(str(log), "--namespace", clean_ns, *batch),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert clean.returncode == 0, clean.stderr
    expected = json.loads(clean.stdout)

    proc = subprocess.Popen(
        cli(str(log), "--namespace", killed_ns, *batch),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        records, _, _ = driver.execute_query(
            "MATCH (s:Source {namespace: $ns}) RETURN s.records_done AS done", ns=killed_ns
        )
        done = records[0]["done"] if records else 0
        if done >= 200:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the import ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert 0 < done < 900
    partial = dump(driver, killed_ns)
    assert len(partial["beliefs"]) < expected["added"]

    rerun = subprocess.run(
        cli(str(log), "--namespace", killed_ns, *batch),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert rerun.returncode == 0, rerun.stderr
    resumed = json.loads(rerun.stdout)
    assert resumed["resumed_at"] >= 200
    written = ("added", "noop")  # the gate may fold a repeated statement into an earlier one
    assert resumed["already"] + sum(resumed[k] for k in written) == sum(
        expected[k] for k in written
    )
    assert dump(driver, killed_ns) == dump(driver, clean_ns)


class Rephrasing:
    """The rules' statements, reworded by ``tag``: an extractor (a model's) that may answer
    differently from one run to the next. It keeps what it was asked."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.asked: list[str] = []

    def extract(self, role: str, content: str, replying_to: str | None = None) -> list[Statement]:
        self.asked.append(content)
        said = RuleExtractor().extract(role, content, replying_to)
        return [replace(s, text=f"{s.text.rstrip('.')} ({self.tag}).") for s in said]


class CancelAfter:
    """A progress display that cancels the import once ``batches`` batches are written."""

    def __init__(self, batches: int) -> None:
        self.batches = batches
        self.cancel = threading.Event()

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        if summary.batches >= self.batches:
            self.cancel.set()

    def close(self, summary: ImportSummary) -> None:
        pass


PREFERRED = ["tea", "jazz", "vim", "Lisbon", "sailing", "chess", "rye bread", "opera"]
RULES = [
    "Never deploy on Fridays.",
    "Always run the tests before merging.",
    "We decided to use Postgres for billing.",
    "Never share the staging password in chat.",
    "Always tag releases with the date.",
    "We decided to hold standups at nine.",
    "Never delete a customer's backups.",
    "Always answer support mail within a day.",
]


def two_a_turn(path: Path) -> list[str]:
    """Write a log of one conversation whose every turn says two things; return the turns."""
    said = [f"I prefer {p} above all. {rule}" for p, rule in zip(PREFERRED, RULES, strict=True)]
    path.write_text(
        "".join(
            json.dumps({"conversation_id": "c", "role": "user", "content": text}) + "\n"
            for text in said
        )
    )
    return said


def interrupted(store: Store, log: Path, options: ImportOptions, extractor: Rephrasing) -> None:
    """Import ``log`` and stop it part way (after its third batch: the progress display
    asks to stop once one is written, and the two prepared meanwhile are written too)."""
    stop = CancelAfter(batches=1)
    first = import_logs(store, log, options, extractor=extractor, progress=stop, cancel=stop.cancel)
    assert 0 < first.added < 2 * len(PREFERRED)


def in_time(driver: Driver, ns: str) -> list[tuple[str, str | None]]:
    """Each belief's text and the text of the belief it FOLLOWS, in the order they were said."""
    records, _, _ = driver.execute_query(
        """
        MATCH (t:Turn)-[a:ASSERTED]->(b:Belief)-[:IN]->(:Namespace {name: $ns})
        OPTIONAL MATCH (b)-[:FOLLOWS]->(p:Belief)
        RETURN b.text AS text, p.text AS follows ORDER BY t.index, a.order
        """,
        ns=ns,
    )
    return [(r["text"], r["follows"]) for r in records]


def test_a_resumed_import_does_not_extract_again_what_was_written(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    said = two_a_turn(tmp_path / "chat.jsonl")
    options = ImportOptions(namespace=ns, batch_size=4, max_batch_records=2)
    interrupted(store, tmp_path / "chat.jsonl", options, Rephrasing("first"))

    model = Rephrasing("again")
    rest = import_logs(store, tmp_path / "chat.jsonl", options, extractor=model)
    done = rest.resumed_at
    assert 0 < done < len(said)
    assert model.asked == said[done:]  # the turns written before are not asked again
    assert (rest.already, rest.added) == (2 * done, 2 * (len(said) - done))
    # ... and what comes after them in time follows what was written of them, in order
    timeline = in_time(driver, ns)
    texts = [text for text, _ in timeline]
    assert [follows for _, follows in timeline] == [None, *texts[:-1]]
    assert texts[2 * done - 1] == RULES[done - 1].replace(".", " (first).")
    assert texts[2 * done] == f"I prefer {PREFERRED[done]} above all (again)."


def test_a_resume_orders_what_was_written_before_asserted_kept_its_order(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    log = tmp_path / "chat.jsonl"
    two_a_turn(log)
    extractor = Rephrasing("same")
    # Keys are hashes: so that this test can fail, use a namespace where the last turn
    # written has its two statements in the other order by key than the order said.
    for attempt in range(16):
        space = f"{ns}-{attempt}"
        options = ImportOptions(namespace=space, batch_size=4, max_batch_records=2)
        interrupted(store, log, options, extractor)
        records, _, _ = driver.execute_query(
            """
            MATCH (t:Turn {namespace: $ns})-[a:ASSERTED]->(b:Belief)
            WITH t, a, b ORDER BY t.index DESC, a.key LIMIT 1
            RETURN b.text AS text
            """,
            ns=space,
        )
        if not records[0]["text"].startswith("I prefer"):  # by key, what it said last is first
            break
    else:
        pytest.fail("no namespace of 16 orders a turn's statements against their keys")
    driver.execute_query(  # as an import of an earlier version wrote it
        "MATCH (:Turn {namespace: $ns})-[a:ASSERTED]->() REMOVE a.order", ns=space
    )
    rest = import_logs(store, log, options, extractor=extractor)
    done = rest.resumed_at
    assert done > 0
    # the first statement said after them follows the last of them, the second of its turn:
    # the order of a turn written before comes from extracting it again
    follows = dict(in_time(driver, space))
    assert follows[f"I prefer {PREFERRED[done]} above all (same)."] == RULES[done - 1].replace(
        ".", " (same)."
    )


# -- bad input -----------------------------------------------------------------------------

GOOD = '{"conversation_id": "c", "role": "user", "content": "I prefer %s."}'
BAD = '{"conversation_id": "c", "role": "narrator", "content": "I prefer nothing."}'


def test_a_malformed_record_stops_with_file_and_line_keeping_what_came_before(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    log = tmp_path / "chat.jsonl"
    lines = [GOOD % "tea", GOOD % "jazz", BAD, GOOD % "vim"]
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(MalformedRecord) as e:
        import_logs(store, log, ImportOptions(namespace=ns))
    assert e.value.line == 3
    assert str(log) in e.value.detail
    assert "role" in e.value.reason
    assert sorted(b["text"] for b in beliefs_in(driver, ns)) == ["I prefer jazz.", "I prefer tea."]

    lines[2] = GOOD % "Rust"  # fixed: the rerun continues and adds the rest
    log.write_text("\n".join(lines) + "\n")
    summary = import_logs(store, log, ImportOptions(namespace=ns))
    assert summary.added == 2
    assert summary.already == 2
    assert len(beliefs_in(driver, ns)) == 4


def test_skip_invalid_writes_rejects_and_goes_on(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text("\n".join([GOOD % "tea", BAD, "{not json", GOOD % "jazz"]) + "\n")
    rejects = RejectFile(tmp_path / "rejects.jsonl")
    summary = import_logs(
        store, log, ImportOptions(namespace=ns, skip_invalid=True), on_reject=rejects
    )
    rejects.close()
    assert summary.rejects == 2
    assert summary.added == 2
    written = [json.loads(x) for x in rejects.path.read_text().splitlines()]
    assert [r["line"] for r in written] == [2, 3]
    assert all(r["reason"] and r["raw"] for r in written)


def test_a_mended_record_imports_and_every_belief_keeps_its_own_turn(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    log = tmp_path / "chat.jsonl"
    # past the head that fingerprints the log (HEAD_BYTES): mending leaves it the same source,
    # whose checkpoint says it was all read; the skipped line is read again all the same
    system = '{"conversation_id": "setup", "role": "system", "content": "%s"}'
    padding = [system % ("x" * 1000)] * (HEAD_BYTES // 1000 + 1)
    lines = [*padding, GOOD % "tea", BAD.replace("nothing", "opera"), GOOD % "jazz"]
    log.write_text("\n".join(lines) + "\n")
    first = import_logs(store, log, ImportOptions(namespace=ns, skip_invalid=True))
    assert (first.added, first.rejects) == (2, 1)
    lines[-2] = GOOD % "opera"  # the narrator was the user
    log.write_text("\n".join(lines) + "\n")
    again = import_logs(store, log, ImportOptions(namespace=ns, skip_invalid=True))
    assert again.resumed_at == len(padding) + 1  # from the skipped line on
    assert (again.added, again.already, again.rejects) == (1, 2, 0)
    # nothing is skipped any more: a third import reads nothing again
    third = import_logs(store, log, ImportOptions(namespace=ns))
    assert (third.resumed_at, third.added, third.already) == (len(lines), 0, 3)
    said = {(b["text"], b["turns"][0]["text"]) for b in beliefs_in(driver, ns)}
    assert said == {(f"I prefer {x}.", f"I prefer {x}.") for x in ("tea", "opera", "jazz")}
    # the mended line goes in between: jazz, written before, now follows it too
    edges = dump(driver, ns)["edges"]
    follows = {(json.loads(a)[0], json.loads(b)[0]) for a, t, b in edges if t == "FOLLOWS"}
    tea, opera, jazz = (f"I prefer {x}." for x in ("tea", "opera", "jazz"))
    assert follows == {(jazz, tea), (opera, tea), (jazz, opera)}
    records, _, _ = driver.execute_query(
        "MATCH (a:AuditEvent) WHERE $ns IN a.namespaces RETURN DISTINCT a.actor AS actor", ns=ns
    )
    assert [r["actor"] for r in records] == [
        "import"
    ]  # who wrote, not who said it (that is each belief's author)


def test_empty_file_is_a_summary_of_zero(store: Store, ns: str, tmp_path: Path) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_text("")
    summary = import_logs(store, log, ImportOptions(namespace=ns))
    assert (summary.records, summary.turns, summary.added, summary.rejects) == (0, 0, 0, 0)


def test_unknown_format_is_a_clear_error(store: Store, ns: str, tmp_path: Path) -> None:
    log = tmp_path / "notes.txt"
    log.write_text("Dear diary, today I prefer tea.\n")
    with pytest.raises(UnknownFormat, match="jsonl, openai, chatgpt"):
        import_logs(store, log, ImportOptions(namespace=ns))
    # a forced format reads it as that format, and the broken record is named
    with pytest.raises(MalformedRecord, match=":1: "):
        import_logs(store, log, ImportOptions(namespace=ns, format=LogFormat.jsonl))


def test_cli_import_errors_name_file_and_line(ns: str, tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text("\n".join([GOOD % "tea", BAD]) + "\n")
    out = subprocess.run(
        cli(str(log), "--namespace", ns), capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 1
    assert f"{log}:2:" in out.stderr
    skipped = subprocess.run(
        cli(str(log), "--namespace", ns, "--skip-invalid"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert skipped.returncode == 0, skipped.stderr
    assert json.loads(skipped.stdout)["rejects"] == 1
    assert (tmp_path / "chat.jsonl.rejects.jsonl").is_file()


def test_a_log_with_nothing_to_keep_says_so(ns: str, tmp_path: Path) -> None:
    log = tmp_path / "questions.jsonl"
    turns = [
        ("user", "Can you summarise the thread from yesterday?"),
        ("assistant", "Here is a summary."),
        ("user", "Thanks, that helps."),
    ]
    log.write_text(
        "".join(
            json.dumps({"conversation_id": "c1", "role": r, "content": c}) + "\n" for r, c in turns
        )
    )
    out = subprocess.run(
        cli(str(log), "--namespace", ns), capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["statements"], summary["user_turns"], summary["turns"]) == (0, 2, 3)
    assert "none of the 2 user turns said anything to keep" in out.stderr


def test_a_turn_without_a_time_is_dated_by_the_turn_before_it(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    # a null create_time must not make its belief the newest: it was said after the turn
    # before it, not now
    log = tmp_path / "null-time.jsonl"
    log.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {
                    "conversation_id": "c",
                    "role": "user",
                    "content": "I prefer tea.",
                    "ts": 1717000000,
                },
                {
                    "conversation_id": "c",
                    "role": "user",
                    "content": "I prefer window seats.",
                    "ts": None,
                },
            ]
        )
    )
    import_logs(store, log, ImportOptions(namespace=ns))
    dated = {b["text"]: b["valid_from"].to_native().timestamp() for b in beliefs_in(driver, ns)}
    assert dated == {"I prefer tea.": 1717000000, "I prefer window seats.": 1717000000}


def test_a_statement_over_the_limit_is_a_reject_with_its_line(
    driver: Driver, embedder: OnnxEmbedder, ns: str, tmp_path: Path
) -> None:
    store = Store(driver, embedder, database="neo4j", settings=Settings(max_text_length=70))
    log = tmp_path / "long.jsonl"
    log.write_text(
        json.dumps({"conversation_id": "c", "role": "user", "content": "I prefer tea."})
        + "\n"
        + json.dumps(
            {
                "conversation_id": "c",
                "role": "user",
                "content": "I prefer " + "very " * 20 + "long talks.",
            }
        )
        + "\n"
    )
    rejected: list[Reject] = []
    summary = import_logs(
        store, log, ImportOptions(namespace=ns), on_reject=lambda _, r: rejected.append(r)
    )
    assert (summary.added, summary.too_long) == (1, 1)
    [reject] = rejected
    assert reject.line == 2
    assert "over the limit of 70" in reject.reason


def test_an_option_named_alone_after_the_assistant_offered_it_is_the_users_decision(
    store: Store, driver: Driver, ns: str, tmp_path: Path
) -> None:
    offer = "Fargate unless you need GPUs. EC2 is cheaper at scale but you manage the instances."
    turns = [
        {"conversation_id": "c", "role": "assistant", "content": offer},
        {"conversation_id": "c", "role": "user", "content": "fargate. cost matters less to us"},
        # another conversation's turn never answers this one's assistant
        {"conversation_id": "d", "role": "user", "content": "ec2."},
    ]
    log = tmp_path / "pick.jsonl"
    log.write_text("\n".join(json.dumps(t) for t in turns))
    import_logs(store, log, ImportOptions(namespace=ns))
    by_text = {b["text"]: b for b in beliefs_in(driver, ns)}
    picked = by_text["fargate"]
    assert (picked["kind"], picked["status"], picked["author"]) == ("decision", "active", "user")
    assert "Fargate unless you need GPUs." in picked["why_it_matters"]
    assert "ec2" not in {t.lower().rstrip(".") for t in by_text}
