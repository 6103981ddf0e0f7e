"""The command line's parser and its entry point, :func:`main`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from pydantic import ValidationError
from pydantic_settings import SettingsError

from beliefgraph.access import Role
from beliefgraph.cli.commands import (
    EXIT_REFUSED,
    EXIT_USAGE,
    cmd_add,
    cmd_audit_verify,
    cmd_chain,
    cmd_eval_governance,
    cmd_eval_precision,
    cmd_get,
    cmd_import_beliefs,
    cmd_import_logs,
    cmd_init,
    cmd_keys_create,
    cmd_keys_list,
    cmd_keys_revoke,
    cmd_mcp,
    cmd_neo4j,
    cmd_query,
    cmd_serve,
    cmd_up,
)
from beliefgraph.config import get_settings
from beliefgraph.errors import BeliefGraphError
from beliefgraph.evaluation.packets import NOISE_VARIANTS
from beliefgraph.launcher.home import LauncherError
from beliefgraph.models import Kind, Priority

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
