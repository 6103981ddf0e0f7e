"""The named queries: every file loads, every query is used, every $param is supplied."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from beliefgraph.cypher import cypher_dir, load_queries, parse_query
from beliefgraph.errors import QueryNotFound
from beliefgraph.store import SEARCH_INDEX_PROPERTIES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*ROOT.glob("beliefgraph/**/*.py"), *ROOT.glob("api/**/*.py")]
# method name -> position of the query name
CALLERS = {"run_read": 0, "tx_run": 1, "read_rows": 0, "tx_rows": 1}
ROWS_CALLERS = {"read_rows", "tx_rows"}  # these take a single record's `rows` column


def query_calls(callers: Iterable[str] = CALLERS) -> list[tuple[str, set[str], str]]:
    """(query name, keyword names passed, where) for every literal call in the code."""
    callers = set(callers)
    calls = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            position = CALLERS.get(node.func.attr)
            if node.func.attr not in callers or position is None or len(node.args) <= position:
                continue
            name = node.args[position]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                kwargs = {k.arg for k in node.keywords if k.arg}
                calls.append((name.value, kwargs, f"{path.name}:{node.lineno}"))
    return calls


def test_every_file_loads_with_a_matching_name() -> None:
    queries = load_queries()
    assert len(queries) == len(list(cypher_dir().glob("*.cypher")))  # browser/ is not loaded
    assert "schema" in queries


def test_unknown_names_fail_fast() -> None:
    with pytest.raises(QueryNotFound):
        load_queries()["no_such_query"]


def test_a_wrong_header_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "one.cypher"
    bad.write_text("// name: other\nRETURN 1\n")
    with pytest.raises(QueryNotFound, match="name: one"):
        parse_query(bad)


def test_every_query_is_used_and_every_param_supplied() -> None:
    queries = load_queries()
    calls = query_calls()
    used = {name for name, _, _ in calls}
    # schema, await_indexes and belief_search_drop run through Store.init_schema, which
    # names them directly
    indirect = {"schema", "await_indexes", "belief_search_drop"}
    assert set(queries) - indirect <= used, f"unused: {set(queries) - indirect - used}"
    for name, kwargs, where in calls:
        assert name in queries, f"{where}: unknown query {name!r}"
        assert kwargs == queries[name].params, f"{where}: {name} takes {queries[name].params}"


def test_a_query_read_by_rows_collects_them_into_one_record() -> None:
    queries = load_queries()
    for name, _, where in query_calls(ROWS_CALLERS):
        last = queries[name].text.rstrip().splitlines()[-1]
        assert last.endswith("AS rows"), f"{where}: {name} does not end in `... AS rows`"


def test_no_query_formats_values_into_text() -> None:
    for query in load_queries().values():
        assert "{0}" not in query.text
        assert "%s" not in query.text
        assert "+ $" not in query.text.replace(" + $", "")  # no string-built labels


def test_init_knows_what_the_schema_makes_belief_search_over() -> None:
    # Store.init_schema remakes belief_search when it covers other properties than these:
    # were they to drift from the schema's, every start would drop and rebuild the index
    schema = load_queries()["schema"].text
    found = re.search(
        r"INDEX belief_search IF NOT EXISTS FOR \(b:Belief\)\s+ON EACH \[([^]]*)\]", schema
    )
    assert found is not None
    covered = tuple(p.strip().removeprefix("b.") for p in found.group(1).split(","))
    assert covered == SEARCH_INDEX_PROPERTIES
