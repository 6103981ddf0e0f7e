"""The named queries: every file loads, every query is used, every $param is supplied."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from beliefgraph.cypher import cypher_dir, load_queries, parse_query
from beliefgraph.errors import QueryNotFound
from beliefgraph.schema import SEARCH_INDEX_PROPERTIES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*ROOT.glob("beliefgraph/**/*.py"), *ROOT.glob("api/**/*.py")]
# method name -> position of the query name
CALLERS = {"run_read": 0, "tx_run": 1, "read_rows": 0, "tx_rows": 1}
#: these read the `rows` column of the one record a query returns
ROWS_CALLERS = {"read_rows", "tx_rows"}


def query_calls(callers: Iterable[str] = CALLERS) -> list[tuple[str, set[str], str]]:
    """(query name, keyword names passed, where) for every literal call in the code through
    one of ``callers`` (method names, all of :data:`CALLERS` by default)."""
    wanted = {name: CALLERS[name] for name in callers}
    calls = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            position = wanted.get(node.func.attr)
            if position is None or len(node.args) <= position:
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
    # schema, await_indexes and belief_search_drop run through schema.init_schema, which
    # names them directly
    indirect = {"schema", "await_indexes", "belief_search_drop"}
    assert set(queries) - indirect <= used, f"unused: {set(queries) - indirect - used}"
    for name, kwargs, where in calls:
        assert name in queries, f"{where}: unknown query {name!r}"
        assert kwargs == queries[name].params, f"{where}: {name} takes {queries[name].params}"


def collects_into_rows(text: str) -> bool:
    """Whether a query's last RETURN is one aggregate, ``collect(...) AS rows``: one record."""
    clause = " ".join(text.rsplit("RETURN", 1)[-1].split())
    return clause.startswith("collect(") and clause.endswith(") AS rows")


def test_a_query_read_by_rows_returns_one_record_and_only_those_do() -> None:
    queries = load_queries()
    by_rows = query_calls(ROWS_CALLERS)
    assert by_rows, "no call of read_rows or tx_rows found"
    for name, _, where in by_rows:
        assert collects_into_rows(queries[name].text), f"{where}: {name} returns many records"
    for name, _, where in query_calls(CALLERS.keys() - ROWS_CALLERS):
        assert not collects_into_rows(queries[name].text), f"{where}: {name} is read by rows"
    assert not collects_into_rows("MATCH (b) RETURN b.id AS id, collect(b) AS rows")


def test_no_query_formats_values_into_text() -> None:
    for query in load_queries().values():
        assert "{0}" not in query.text
        assert "%s" not in query.text
        assert "+ $" not in query.text.replace(" + $", "")  # no string-built labels


def test_init_knows_what_the_schema_makes_belief_search_over() -> None:
    # schema.init_schema remakes belief_search when it covers other properties than these:
    # were they to drift from the schema's, every start would drop and rebuild the index
    schema = load_queries()["schema"].text
    found = re.search(
        r"INDEX belief_search IF NOT EXISTS FOR \(b:Belief\)\s+ON EACH \[([^]]*)\]", schema
    )
    assert found is not None
    covered = tuple(p.strip().removeprefix("b.") for p in found.group(1).split(","))
    assert covered == SEARCH_INDEX_PROPERTIES
