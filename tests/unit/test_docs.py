"""The README stays true: every CLI command, setting and REST route is documented, and every
documented one exists."""

from __future__ import annotations

import argparse
import json
import re
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import AliasChoices, BaseModel, SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings
from starlette.routing import Mount, Route

from api.app import create_app
from beliefgraph.cli.parser import build_parser
from beliefgraph.config import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _children(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_commands(parser: argparse.ArgumentParser | None = None, prefix: str = "") -> set[str]:
    """Every leaf command, e.g. {"add", "neo4j", "eval governance"}."""
    found = set()
    for name, child in _children(parser or build_parser()).items():
        nested = cli_commands(child, f"{prefix}{name} ")
        found |= nested or {f"{prefix}{name}"}
    return found


def test_every_command_is_in_the_readme() -> None:
    missing = {c for c in cli_commands() if f"beliefgraph {c}" not in README}
    assert not missing, f"commands missing from README.md: {sorted(missing)}"


def test_the_readme_names_no_command_that_does_not_exist() -> None:
    known = {c.split()[0] for c in cli_commands()}
    named = set(re.findall(r"`beliefgraph ([a-z][a-z0-9-]*)", README))
    unknown = named - known
    assert not unknown, f"README.md names commands the CLI lacks: {sorted(unknown)}"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./dev test" in README
    assert "./dev test" in ci


# -- the settings table ---------------------------------------------------------------------


def _section(heading: str) -> str:
    """The README's text under ``## heading``, up to the next heading of that level."""
    start = README.index(f"\n## {heading}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else len(README)]


def _first_table(text: str) -> list[list[str]]:
    """The cells of the first Markdown table in ``text``, header and rule excluded."""
    rows: list[list[str]] = []
    for line in text[text.index("\n|") + 1 :].splitlines():
        if not line.startswith("|"):
            break
        # a cell may hold an escaped pipe (`stdio\|http`); it does not split the row
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        rows.append(cells)
    return rows[2:]


def _model_class(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model a field holds (``Neo4jSettings``, ``Neo4jSettings | None``), if any."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _env_roots(name: str, field: FieldInfo, prefix: str) -> set[str]:
    """The variables that set one field: its validation aliases (used as they are, without the
    prefix), else the prefix and its name. Environment names are not case-sensitive here
    (pydantic-settings' default), so they are compared upper-case."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return {c.upper() for c in alias.choices if isinstance(c, str)}
    if isinstance(alias, str):
        return {alias.upper()}
    return {f"{prefix}{name}".upper()}


def setting_variables(
    settings: type[BaseSettings] = Settings,
) -> dict[str, tuple[set[str], FieldInfo]]:
    """Every setting of ``settings``, with the variables pydantic-settings reads it from:
    ``{"neo4j_uri": ({"NEO4J_URI", "BELIEFGRAPH_NEO4J_URI"}, field), ...}``.

    The prefix and the nested delimiter come from the class's ``model_config``. A field that
    holds a model (nested settings) is not one setting but one per field of that model, named
    ``<PREFIX><FIELD><DELIMITER><SUBFIELD>`` (``BELIEFGRAPH_NEO4J__URI``).
    """
    config = settings.model_config
    prefix = config.get("env_prefix") or ""
    delimiter = config.get("env_nested_delimiter")
    found: dict[str, tuple[set[str], FieldInfo]] = {}

    def walk(
        model: type[BaseModel], roots_of: Callable[[str, FieldInfo], set[str]], path: str
    ) -> None:
        for name, field in model.model_fields.items():
            roots = roots_of(name, field)
            nested = _model_class(field.annotation)
            if nested is None:
                found[f"{path}{name}"] = (roots, field)
                continue
            assert delimiter, f"{name} holds nested settings, but no env_nested_delimiter is set"
            walk(
                nested,
                lambda sub, _f, roots=roots: {f"{r}{delimiter}{sub}".upper() for r in roots},
                f"{path}{name}.",
            )

    walk(settings, lambda name, field: _env_roots(name, field, prefix), "")
    return found


def _documented_default(cell: str, default: object) -> bool:
    """Whether the README's default cell (the first `value` in it) says ``default``."""
    shown = re.search(r"`([^`]*)`", cell)
    if shown is None:
        return False
    value = shown.group(1)
    if isinstance(default, Path):
        return value == f"~/{default.relative_to(Path.home())}"
    if isinstance(default, str):
        return value == default
    try:
        return bool(json.loads(value) == default)
    except ValueError:
        return False


def test_the_settings_table_lists_exactly_the_settings() -> None:
    settings = setting_variables()
    setting_of = {var: name for name, (variables, _) in settings.items() for var in variables}
    rows = _first_table(_section("Settings"))
    documented: dict[str, str] = {}  # setting -> its row's default cell
    for variable_cell, default_cell, _meaning in rows:
        variables = set(re.findall(r"`([A-Z][A-Z0-9_]*)`", variable_cell))
        unknown = {v for v in variables if v not in setting_of}
        assert not unknown, f"README.md's settings table names no setting: {sorted(unknown)}"
        names = {setting_of[v] for v in variables}
        assert len(names) == 1, f"one setting a row: {variable_cell!r} names {sorted(names)}"
        [name] = names
        assert name not in documented, f"{name} has two rows in README.md's settings table"
        documented[name] = default_cell
    missing = {sorted(settings[n][0])[0] for n in settings.keys() - documented.keys()}
    assert not missing, f"settings missing from README.md's settings table: {sorted(missing)}"
    for name, cell in documented.items():
        default = settings[name][1].get_default(call_default_factory=True)
        # None and secrets are "unset" or the effective default in words (``NEO4J_URI``'s None
        # means the launcher's bolt://127.0.0.1:7687): no value to compare
        if default is None or isinstance(default, SecretStr):
            continue
        assert _documented_default(cell, default), (
            f"README.md gives {name} the default {cell}; Settings has {default!r}"
        )


# -- the REST table -------------------------------------------------------------------------

#: FastAPI's own documentation routes (served by api/docs.py): the OpenAPI document, the two
#: pages that show it, and their scripts. They describe the API rather than being part of it,
#: and the README names them in prose. Mounted FastAPI apps (the PrecisionMemBench contract)
#: have their own docs routes too; those are left out by reading only their OpenAPI paths.
DOCS_ROUTES = frozenset({"/openapi.json", "/docs", "/redoc", "/docs-static"})
#: stands for every method: a route whose endpoint is an ASGI app (MCP's streamable HTTP)
#: takes whatever methods its protocol does, so only its path can be checked
ANY = "*"


#: the keys of an OpenAPI path item that are operations (the others: summary, parameters, ...)
HTTP_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


def _operations(app: FastAPI, prefix: str = "") -> set[tuple[str, str]]:
    """(method, path) of every operation in ``app``'s OpenAPI document."""
    return {
        (method.upper(), prefix + path)
        for path, item in app.openapi()["paths"].items()
        for method in item.keys() & HTTP_METHODS
    }


def app_routes() -> set[tuple[str, str]]:
    """Every (method, path) the app serves, its docs excepted (:data:`DOCS_ROUTES`).

    Built by ``create_app`` without a database (Neo4j and the model are opened in the
    lifespan, which never runs here), with the PrecisionMemBench contract on so that its
    routes are counted. The routers' routes are read from the OpenAPI document (FastAPI keeps
    included routers as objects of its own in ``app.routes``); what is not in it (mounts,
    plain Starlette routes) from the app's route list.
    """
    app = create_app(Settings(compat_pmb=True))
    routes = _operations(app)
    for route in app.routes:
        path = getattr(route, "path", None)
        if path in DOCS_ROUTES or isinstance(route, APIRoute) or path is None:
            continue  # FastAPI's docs; routes in the OpenAPI document; included routers
        if isinstance(route, Mount):
            assert isinstance(route.app, FastAPI), f"a mount the test cannot read: {path}"
            routes |= _operations(route.app, path)
        elif isinstance(route, Route):
            assert route.include_in_schema, f"a hidden route the README cannot know: {path}"
            methods = (route.methods or {ANY}) - {"HEAD"}
            routes |= {(m, path) for m in methods}
    return routes


def test_the_rest_table_lists_exactly_the_apps_routes() -> None:
    rows = _first_table(_section("REST API (v1)"))
    documented = set()
    for method, path_cell, _what in rows:
        [path] = re.findall(r"`([^`]+)`", path_cell)
        documented.add((method, path))
    served = app_routes()
    any_method = {path for method, path in served if method == ANY}
    missing = {(m, p) for m, p in served if (m, p) not in documented and m != ANY}
    missing |= {(ANY, p) for p in any_method - {p for _, p in documented}}
    unknown = {(m, p) for m, p in documented if (m, p) not in served and p not in any_method}
    assert not missing, f"routes missing from README.md's REST table: {sorted(missing)}"
    assert not unknown, f"README.md's REST table names routes the app lacks: {sorted(unknown)}"


def test_no_heading_or_table_row_of_the_readme_appears_twice() -> None:
    """A section or a figure copied twice by an edit says two things, one of them stale."""
    lines = [
        line
        for line in README.splitlines()
        if line.startswith("#") or (line.startswith("| ") and not line.startswith("|---"))
    ]
    repeated = sorted({line for line in lines if lines.count(line) > 1})
    assert repeated == []
