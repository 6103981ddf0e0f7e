"""The ``beliefgraph`` command line.

    beliefgraph up                  start Neo4j, set up the schema, load the sample, serve
    beliefgraph serve               set up the schema and serve the REST API (and MCP at /mcp)
    beliefgraph mcp                 serve the MCP tools over stdio (or --transport http)
    beliefgraph init                create constraints and indexes (idempotent)
    beliefgraph neo4j start|stop|status
    beliefgraph add TEXT --namespace user:me [--kind policy ...]
    beliefgraph get ID
    beliefgraph chain ID

Errors go to stderr as ``error: ...``; exit status 1 for a refused request, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from beliefgraph.config import Settings
from beliefgraph.errors import InvalidInput
from beliefgraph.launcher.server import Neo4jLauncher
from beliefgraph.models import BeliefCreate, WritePath
from beliefgraph.schema import init_schema

EXIT_REFUSED = 1
EXIT_USAGE = 2


@contextmanager
def open_store(settings: Settings) -> Iterator[Any]:
    """A store over a fresh driver, closed on exit; the model loads only if something embeds."""
    from beliefgraph.db import connect
    from beliefgraph.embeddings import LazyEmbedder
    from beliefgraph.store import Store

    driver = connect(settings.neo4j)
    try:
        yield Store(
            driver,
            LazyEmbedder(settings.cache_dir),
            database=settings.neo4j.database,
            settings=settings,
        )
    finally:
        driver.close()


def _print(value: BaseModel | list[BaseModel] | dict[str, Any]) -> None:
    if isinstance(value, BaseModel):
        print(value.model_dump_json(indent=2))
    elif isinstance(value, list):
        print(json.dumps([v.model_dump(mode="json") for v in value], indent=2))
    else:
        print(json.dumps(value, indent=2))


# -- commands ------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace, settings: Settings) -> int:
    with open_store(settings) as store:
        init_schema(store.db)
    print(f"schema ready on {settings.neo4j.uri}")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.app import create_app
    from api.protocol import HTTP_PROTOCOL

    if not args.no_init:
        cmd_init(args, settings)
    print(f"API:     http://{args.host}:{args.port}/  (docs at /docs)", flush=True)
    print(f"MCP:     http://{args.host}:{args.port}/mcp  (streamable HTTP)", flush=True)
    if settings.auth == "off":
        print("auth:    OFF (BELIEFGRAPH_AUTH=off, development only): no key needed", flush=True)
    else:
        print("auth:    API keys (Authorization: Bearer; make one: beliefgraph keys create)")
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level="info",
        http=HTTP_PROTOCOL,
    )
    return 0


def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    if args.transport == "http":
        if args.url:
            raise InvalidInput("--url is for stdio: over HTTP the tools call this server")
        return cmd_serve(args, settings)
    import anyio
    import httpx2

    from api.mcp_server import serve_stdio

    if args.url is not None:
        try:
            url = httpx2.URL(args.url)
        except httpx2.InvalidURL as e:
            raise InvalidInput(f"{args.url!r}: {e}", field="--url") from e
        if url.scheme not in ("http", "https") or not url.host:
            raise InvalidInput(f"{args.url!r} is not an http(s) URL", field="--url")
    # stdout is the protocol's: whatever is said goes to stderr
    if not os.environ.get("BELIEFGRAPH_API_KEY") and (args.url or settings.auth != "off"):
        print(
            "warning: BELIEFGRAPH_API_KEY is not set: every call will be refused", file=sys.stderr
        )
    if not args.url and not args.no_init:
        with open_store(settings) as store:
            init_schema(store.db)
    try:
        anyio.run(serve_stdio, settings, args.url)
    except KeyboardInterrupt:
        return 130
    return 0


def cmd_up(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.sample import load_sample

    if settings.neo4j_uri is None:
        status = _launcher(args).start()
        print(f"Neo4j:   {status.bolt_uri} (home {status.home})")
        print(f"Browser: {status.http_url}/browser/")
    with open_store(settings) as store:
        init_schema(store.db)
        added = load_sample(store)
    print(f"sample:  {added} beliefs added" if added else "sample:  already loaded")
    return cmd_serve(argparse.Namespace(**{**vars(args), "no_init": True}), settings)


def _launcher(args: argparse.Namespace) -> Neo4jLauncher:
    return Neo4jLauncher(bolt_port=args.bolt_port, http_port=args.http_port)


def cmd_neo4j(args: argparse.Namespace, settings: Settings) -> int:
    launcher = _launcher(args)
    if args.action == "start":
        status = launcher.start()
        print(f"Neo4j running (pid {status.pid}): {status.bolt_uri}, {status.http_url}/browser/")
    elif args.action == "stop":
        print("Neo4j stopped" if launcher.stop() else "Neo4j was not running")
    else:
        status = launcher.status()
        print(
            json.dumps(
                {
                    "running": status.running,
                    "pid": status.pid,
                    "bolt_uri": status.bolt_uri,
                    "http_url": status.http_url,
                    "home": str(status.home),
                    "version": status.version,
                },
                indent=2,
            )
        )
        return 0 if status.running else 3
    return 0


def cmd_add(args: argparse.Namespace, settings: Settings) -> int:
    fields: dict[str, Any] = {
        "text": args.text,
        "kind": args.kind,
        "priority": args.priority,
        "namespaces": args.namespace,
        "about": args.about,
    }
    if args.id:
        fields["id"] = args.id
    if args.governs:
        fields["governs"] = {"any_terms": args.governs}
    belief = BeliefCreate.model_validate(fields)
    with open_store(settings) as store:
        _print(store.create([belief], write_path=WritePath.cli, actor="cli")[0])
    return 0


def cmd_get(args: argparse.Namespace, settings: Settings) -> int:
    with open_store(settings) as store:
        _print(store.get(args.id))
    return 0


def cmd_chain(args: argparse.Namespace, settings: Settings) -> int:
    with open_store(settings) as store:
        _print(store.chain(args.id))
    return 0


def cmd_import_logs(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from beliefgraph.importer.extract import LLMExtractor
    from beliefgraph.importer.input import LogFormat
    from beliefgraph.importer.pipeline import RejectFile, import_logs
    from beliefgraph.importer.statements import Extractor
    from beliefgraph.importer.summary import ImportOptions, TerminalProgress

    options = ImportOptions(
        namespace=args.namespace,
        format=LogFormat(args.log_format),
        user=args.user,
        dry_run=args.dry_run,
        skip_invalid=args.skip_invalid,
        restart=args.restart,
        batch_size=args.batch_size,
    )
    default_rejects = "import.rejects.jsonl" if args.path == "-" else args.path + ".rejects.jsonl"
    rejects = RejectFile(Path(args.rejects or default_rejects))
    if args.skip_invalid and not rejects.path.absolute().parent.is_dir():
        # said now, not at the first reject, after batches before it are written
        raise InvalidInput(f"{rejects.path}: its directory does not exist", field="--rejects")
    extractor: Extractor | None = None
    if args.llm_url:
        extractor = LLMExtractor(
            args.llm_url, args.llm_model, api_key=os.environ.get("OPENAI_API_KEY")
        )
    progress = None if args.no_progress or not sys.stderr.isatty() else TerminalProgress()
    try:
        with open_store(settings) as store:
            summary = import_logs(
                store,
                args.path,
                options,
                extractor=extractor,
                progress=progress,
                on_reject=rejects,
            )
    finally:
        rejects.close()
        if rejects.count:
            print(f"{rejects.count} rejected record(s) written to {rejects.path}", file=sys.stderr)
    _print(summary.as_dict())
    if summary.statements == 0 and summary.user_turns:
        print(
            f"note: none of the {summary.user_turns} user turns said anything to keep (questions, "
            "requests, small talk and what others said give nothing: README, 'What becomes a "
            "belief')",
            file=sys.stderr,
        )
    return 0


def cmd_import_beliefs(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from beliefgraph.importer.documents import import_documents, load_documents

    docs = load_documents(Path(args.path))  # all validated before anything is written
    with open_store(settings) as store:
        report = import_documents(store, docs)
    _print(
        {
            "created": report.created,
            "already_present": report.already_present,
            "supersessions": report.supersessions,
            "merged": report.merged,
        }
    )
    return 0


def cmd_eval_precision(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from beliefgraph.evaluation.precision import render, run

    with open_store(settings) as store:
        init_schema(store.db)
        report = run(
            store,
            Path(args.seed),
            Path(args.cases),
            Path(args.sessions) if args.sessions else None,
        )
    summary = report.summary()
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2, default=str) + "\n")
    print(render(summary))
    return 0


def cmd_audit_verify(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.audit import verify

    with open_store(settings) as store:
        report = verify(store.db, args.chain)
    if args.json:
        _print(report)
    elif report.ok:
        print(f"audit log intact: {report.events} events in {report.chains} chain(s)")
        # one digest of every head: keep it elsewhere, and a rewritten log will not match it
        print(f"heads digest: {report.heads_digest()}")
        for head in report.heads if args.heads else []:
            print(f"  {head.chain}: {head.length} events, head {head.head}")
    else:
        first = report.broken[0]
        print(
            f"audit log BROKEN: chain {first.chain}, event {first.seq}"
            + (f" ({first.event_id})" if first.event_id else "")
            + f": {first.problem}"
        )
        for other in report.broken[1:]:
            print(f"  also chain {other.chain}, event {other.seq}: {other.problem}")
    return 0 if report.ok else EXIT_REFUSED


def cmd_keys_create(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.keys import KeyCreate, create_key

    request = KeyCreate(name=args.name, role=args.role, namespaces=args.namespace or None)
    with open_store(settings) as store:
        created = create_key(store.db, request, actor=f"cli:{getpass.getuser()}")
    if args.quiet:
        print(created.key)
    else:
        _print(created)
        print("keep the key now: it is not stored and cannot be shown again", file=sys.stderr)
    return 0


def cmd_keys_list(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.keys import list_keys

    with open_store(settings) as store:
        _print(list_keys(store.db))  # type: ignore[arg-type]  # a list of models prints as one
    return 0


def cmd_keys_revoke(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.keys import revoke_key

    with open_store(settings) as store:
        _print(revoke_key(store.db, args.id, actor=f"cli:{getpass.getuser()}"))
    return 0


def cmd_query(args: argparse.Namespace, settings: Settings) -> int:
    from beliefgraph.planner.models import QueryRequest
    from beliefgraph.planner.planner import Planner

    request = QueryRequest.model_validate(
        {"query": args.query, "namespaces": args.namespace, "action_type": args.action_type}
    )
    with open_store(settings) as store:
        result = Planner(store.db, store.embedder).query(request)
    if args.json:
        _print(result)
        return 0
    governing = result.governing
    print(f"action:    {result.action.value}")
    print(f"governing: {governing.id + ': ' + governing.text if governing else '(none)'}")
    print(f"why:       {result.reason}")
    for step in result.trace.steps:
        print(f"  - {step}")
    for contest in result.contests:
        print(f"contested: {contest.id} (trust {contest.trust:.2f}; {contest.guard} guard)")
    print(f"candidates ({result.trace.discovery}):")
    for c in result.trace.candidates:
        print(f"  {c.outcome:<8} {c.id}  [{c.lane}; found by {', '.join(c.found_by)}]  {c.why}")
    if len(result.trace.chain) > 1:
        print(f"chain:     {' -> '.join(result.trace.chain)}")
    print(f"timings:   {result.timings['total']:.1f} ms")
    return 0


def cmd_eval_governance(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from beliefgraph.evaluation.governance import evaluate, table, write_json
    from beliefgraph.evaluation.packets import noise_variant, read_packet

    packet = read_packet(Path(args.packet), [Path(a) for a in args.annotations])
    if args.noise:
        packet = noise_variant(packet, args.noise)
    strategies = args.strategy or ["planner"]
    with open_store(settings) as store:
        init_schema(store.db)
        summaries = evaluate(store, packet, strategies)
    for summary in summaries:
        summary["annotations"] = [Path(a).name for a in args.annotations]
        summary["noise"] = args.noise or "none"
    if args.json:
        write_json(Path(args.json), summaries[0] if len(summaries) == 1 else summaries)
    print(table(summaries))
    return 0
