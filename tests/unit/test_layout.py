"""The layout shows the architecture, and stays that way.

Every import between the project's packages (a module of ``beliefgraph/`` counts as a package
of one) points one way: the outer ring (the command line, the launcher, the evaluations, the
sample) -> ``api/`` -> the adapters it serves (the Python client, the PrecisionMemBench
router) -> the domain packages (planner, gate, store, importer, search, ...) -> ``db`` (the
query runner) -> ``cypher`` (the named queries) -> the base every layer may use (errors,
settings, text). Imports inside functions and under ``TYPE_CHECKING`` count too; relative
imports, which this would not see, are refused by ruff (``ban-relative-imports``).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("beliefgraph", "api")

#: the rings, outermost first; a package not named here is a domain package
RINGS: dict[str, int] = {
    **dict.fromkeys(
        ["beliefgraph.cli", "beliefgraph.launcher", "beliefgraph.evaluation", "beliefgraph.sample"],
        6,
    ),
    "api": 5,
    **dict.fromkeys(["beliefgraph.client", "beliefgraph.compat_pmb"], 4),
    # domain packages: 3
    "beliefgraph.db": 2,
    "beliefgraph.cypher": 1,
    **dict.fromkeys(
        [
            "beliefgraph.errors",
            "beliefgraph.config",
            "beliefgraph.text",
            "beliefgraph.resources",
            "beliefgraph.heap",
            "beliefgraph.llm",
        ],
        0,
    ),
}
DOMAIN = 3
MOST_LINES = 600


def _package(module: str) -> str:
    """The package of ``module``: ``api``, or ``beliefgraph.planner`` for ``.planner.assess``."""
    parts = module.split(".")
    return "api" if parts[0] == "api" else ".".join(parts[:2])


def _modules() -> Iterator[tuple[str, Path]]:
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(p for p in parts if p != "__init__"), path


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "beliefgraph":  # from beliefgraph import audit
                yield from (f"beliefgraph.{alias.name}" for alias in node.names)
            elif node.module.split(".")[0] in SOURCES:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] in SOURCES)


def package_imports() -> dict[str, dict[str, str]]:
    """package -> {package it imports: one module that does}."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for module, path in _modules():
        source = _package(module)
        for imported in _imports(path):
            target = _package(imported)
            if target not in (source, "beliefgraph"):
                found[source].setdefault(target, module)
    return found


def _circles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return circles


def test_no_packages_import_each_other_in_a_circle() -> None:
    assert _circles(package_imports()) == []


def test_every_import_points_inward() -> None:
    outward = [
        f"{where} ({source}) imports {target}"
        for source, targets in package_imports().items()
        for target, where in targets.items()
        if RINGS.get(source, DOMAIN) < RINGS.get(target, DOMAIN)
    ]
    assert outward == []


def test_the_check_sees_a_circle_and_an_outward_arrow() -> None:
    assert _circles({"a": {"b": "a.x"}, "b": {"a": "b.y"}}) == [["a", "b", "a"]]
    graph = package_imports()
    assert "beliefgraph.db" in graph["beliefgraph.store"]  # the graph is read at all
    assert RINGS.get("beliefgraph.planner.planner", DOMAIN) < RINGS["api"]


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for _, path in _modules()
        if (n := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert long == {}
