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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_settings import SettingsError

from beliefgraph.access import Role
from beliefgraph.config import Settings, get_settings
from beliefgraph.errors import BeliefGraphError, InvalidInput
from beliefgraph.evaluation.packets import NOISE_VARIANTS
from beliefgraph.launcher import LauncherError, Neo4jLauncher
from beliefgraph.models import BeliefCreate, Kind, Priority, WritePath
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

    from beliefgraph.extract import Extractor, LLMExtractor
    from beliefgraph.importer import (
        ImportOptions,
        LogFormat,
        RejectFile,
        TerminalProgress,
        import_logs,
    )

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
    return 0


def cmd_import_beliefs(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from beliefgraph.documents import import_documents, load_documents

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
    from beliefgraph.planner import Planner
    from beliefgraph.planner_models import QueryRequest

    request = QueryRequest.model_validate(
        {"query": args.query, "namespaces": args.namespace, "action_type": args.action_type}
    )
    with open_store(settings) as store:
        result = Planner(store).query(request)
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


# -- parser --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="beliefgraph",
        description="A graph-backed belief store for AI agents, on Neo4j.",
        epilog="Neo4j: NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD (default: the local launcher's "
        "bolt://127.0.0.1:7687). Other settings: BELIEFGRAPH_* (see README).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[..., int], help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(handler=handler)
        return p

    def server_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--host", default="127.0.0.1", help="address to listen on")
        p.add_argument("--port", type=int, default=8000, help="port to listen on")

    def launcher_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--bolt-port", type=int, default=7687, help="Bolt port of the local Neo4j")
        p.add_argument("--http-port", type=int, default=7474, help="HTTP port (Browser)")

    p = add(
        "up",
        cmd_up,
        "start the local Neo4j (unless NEO4J_URI is set), set up the "
        "schema, load the sample and serve the API",
    )
    server_options(p)
    launcher_options(p)

    p = add("serve", cmd_serve, "set up the schema and serve the REST API")
    server_options(p)
    p.add_argument("--no-init", action="store_true", help="skip the schema set-up")

    add("init", cmd_init, "create the constraints and indexes (idempotent)")

    p = add(
        "mcp",
        cmd_mcp,
        "serve the Model Context Protocol tools: over stdio for an MCP host (the key from "
        "BELIEFGRAPH_API_KEY), or over streamable HTTP at /mcp beside the REST API",
    )
    p.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default), or http: serve the REST API with MCP at /mcp (as serve does)",
    )
    p.add_argument(
        "--url",
        help="stdio: call the REST API at this URL (e.g. http://127.0.0.1:8000) instead of "
        "opening Neo4j and the model in this process",
    )
    server_options(p)
    p.add_argument("--no-init", action="store_true", help="skip the schema set-up")

    p = add("neo4j", cmd_neo4j, "run a local Neo4j 5.26 server from Maven Central jars")
    p.add_argument("action", choices=["start", "stop", "status"])
    launcher_options(p)

    p = add("add", cmd_add, "store one belief and print it as JSON")
    p.add_argument("text", help="what the belief says")
    p.add_argument(
        "--namespace",
        action="append",
        required=True,
        help="a namespace such as user:me (repeatable)",
    )
    p.add_argument("--kind", default=Kind.fact.value, choices=[k.value for k in Kind])
    p.add_argument("--priority", default=Priority.normal.value, choices=[p.value for p in Priority])
    p.add_argument("--about", action="append", default=[], help="an entity name (repeatable)")
    p.add_argument(
        "--governs",
        action="append",
        default=[],
        help="a term of the scope the belief governs (repeatable)",
    )
    p.add_argument("--id", help="the belief id (default: generated)")

    p = add("get", cmd_get, "print one belief as JSON")
    p.add_argument("id")

    p = add("chain", cmd_chain, "print the supersession chain through a belief, oldest first")
    p.add_argument("id")

    evaluate = sub.add_parser(
        "eval",
        help="run an evaluation against the real store",
        description="run an evaluation against the real store",
    )
    eval_sub = evaluate.add_subparsers(dest="suite", required=True, metavar="SUITE")
    # -- eval suites: each adds its parser to eval_sub here --
    p = eval_sub.add_parser(
        "governance",
        help="the judgment evaluation: which memory governs, on a memory-store packet",
        description="Load each scenario of a governance packet into its own namespace, ask its "
        "query through a strategy (the planner by default) and score target, action, traps "
        "and weighted loss (benign 0, overblock 1, downgrade 4, false certainty 7).",
    )
    p.set_defaults(handler=cmd_eval_governance)
    p.add_argument("packet", help="a memory-store packet (../shared/benchmarks/governance)")
    p.add_argument(
        "--annotations",
        action="append",
        default=[],
        help="a governs annotation file, applied in order (repeatable)",
    )
    p.add_argument(
        "--strategy",
        action="append",
        choices=["planner", "bm25", "vector", "authority_lane"],
        help="planner (default), bm25, vector or authority_lane (repeatable: side by side)",
    )
    p.add_argument(
        "--noise",
        choices=NOISE_VARIANTS,
        help="run a metadata-noise variant of the packet instead",
    )
    p.add_argument("--json", help="write the results as JSON to this file")
    p = eval_sub.add_parser(
        "precision",
        help="PrecisionMemBench typed-belief cases through the /v1/context code path",
        description="Import the seed under a run-unique prefix, answer every static case and "
        "session turn with the context assembly of /v1/context, and score the layers.",
    )
    p.set_defaults(handler=cmd_eval_precision)
    p.add_argument("--seed", required=True, help="beliefs.seed.json")
    p.add_argument("--cases", required=True, help="retrieval.cases.json")
    p.add_argument("--sessions", help="session-retrieval.cases.json")
    p.add_argument("--json", help="write the results as JSON to this file")

    importer = sub.add_parser(
        "import",
        help="bulk-import beliefs or conversation logs",
        description="bulk-import beliefs or conversation logs",
    )
    import_sub = importer.add_subparsers(dest="format", required=True, metavar="WHAT")
    # -- import kinds: each adds its parser to import_sub here --
    p = import_sub.add_parser(
        "beliefs",
        help="import a structured belief document (the beliefs.seed.json format)",
        description="Import typed beliefs (canonical names, aliases, scopes, supersession) in "
        "one transaction; a malformed entry is named and nothing of the file is written.",
    )
    p.set_defaults(handler=cmd_import_beliefs)
    p.add_argument("path", help="the JSON document")
    p = import_sub.add_parser(
        "logs",
        help="import conversation logs (JSONL messages, OpenAI messages, ChatGPT export)",
        description="Extract speaker-true beliefs from conversation logs, in resumable batches. "
        "Importing the same log again writes nothing; an interrupted import resumes.",
    )
    p.set_defaults(handler=cmd_import_logs)
    p.add_argument("path", help="the log file, or - for standard input")
    p.add_argument(
        "--format",
        dest="log_format",
        default="auto",
        choices=["auto", "jsonl", "openai", "chatgpt"],
        help="the log format (default: told from the first record)",
    )
    p.add_argument("--namespace", default="user:me", help="where the beliefs go (default user:me)")
    p.add_argument("--user", help="the user the beliefs belong to (what their context reads)")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="extract and count, write nothing; the gate is not asked, so every statement "
        "not imported before counts as added",
    )
    p.add_argument(
        "--skip-invalid",
        action="store_true",
        help="write broken records to the rejects file and go on (default: stop at the first)",
    )
    p.add_argument(
        "--rejects",
        help="the rejects file (default: PATH.rejects.jsonl; for -, import.rejects.jsonl here)",
    )
    p.add_argument("--restart", action="store_true", help="ignore the checkpoint, read all")
    p.add_argument("--batch-size", type=int, default=256, help="statements per write batch")
    p.add_argument("--llm-url", help="extract with an OpenAI-compatible endpoint (…/v1)")
    p.add_argument("--llm-model", default="gpt-4o-mini", help="the model for --llm-url")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")

    # -- more commands: each feature adds its parsers here --
    p = add(
        "query",
        cmd_query,
        "which stored belief governs a request, and what the agent may do (with the trace)",
    )
    p.add_argument("query", help="the request, as the user or agent put it")
    p.add_argument("--namespace", action="append", required=True, help="where to look (repeatable)")
    p.add_argument(
        "--action-type",
        choices=["read", "write", "execute"],
        help="what the request would do (default: inferred from the query)",
    )
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    audit_parser = sub.add_parser(
        "audit", help="the hash-chained audit log", description="the hash-chained audit log"
    )
    audit_sub = audit_parser.add_subparsers(dest="audit_action", required=True, metavar="ACTION")
    p = audit_sub.add_parser(
        "verify",
        help="walk the audit chains and name the first broken link (exit 1 if any)",
        description="Recompute every event's hash and check every link and chain head; "
        "print each intact chain's head (keep a copy) or the first broken link.",
    )
    p.set_defaults(handler=cmd_audit_verify)
    p.add_argument("--chain", help="one chain only, e.g. ns:user:me (default: all)")
    p.add_argument("--heads", action="store_true", help="print every chain's head hash")
    p.add_argument("--json", action="store_true", help="print the whole report as JSON")

    keys_parser = sub.add_parser(
        "keys", help="API keys and their roles", description="API keys and their roles"
    )
    keys_sub = keys_parser.add_subparsers(dest="keys_action", required=True, metavar="ACTION")
    p = keys_sub.add_parser("create", help="make a key; it is printed once, only its hash kept")
    p.set_defaults(handler=cmd_keys_create)
    p.add_argument("--name", required=True, help="who or what the key is for")
    p.add_argument(
        "--role", required=True, choices=[r.value for r in Role], help="what the key may do"
    )
    p.add_argument(
        "--namespace",
        action="append",
        default=[],
        help="a namespace the key may touch (repeatable; admins may omit it for all)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the key")
    p = keys_sub.add_parser("list", help="list keys (never their secrets)")
    p.set_defaults(handler=cmd_keys_list)
    p = keys_sub.add_parser("revoke", help="revoke a key at once")
    p.set_defaults(handler=cmd_keys_revoke)
    p.add_argument("id", help="the key id (from keys list)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        settings = get_settings()
        result: int = args.handler(args, settings)
    except ValidationError as e:
        for err in e.errors():
            field = ".".join(str(x) for x in err["loc"]) or "input"
            print(f"error: {field}: {err['msg']}", file=sys.stderr)
        return EXIT_USAGE
    except BeliefGraphError as e:
        where = f"{e.field}: " if e.field and not e.says_where else ""
        print(f"error: {where}{e.detail}", file=sys.stderr)
        return EXIT_REFUSED
    except SettingsError as e:  # an environment variable that is not what it should be
        print(f"error: settings: {e}", file=sys.stderr)
        return EXIT_USAGE
    except (LauncherError, OSError) as e:  # OSError: a file to read or write, with its name
        print(f"error: {e}", file=sys.stderr)
        return EXIT_REFUSED
    return result


if __name__ == "__main__":
    sys.exit(main())
