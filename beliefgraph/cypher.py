"""Load the named Cypher queries of ``cypher/`` once, into an immutable mapping.

Each ``*.cypher`` file holds one query and starts with a header of ``//`` comments::

    // name: belief_get_many
    // Reads beliefs by id ...
    // $ids: list<string>

The header's ``name`` must match the file name. ``schema.cypher`` holds several
statements separated by ``;``. Unknown names fail fast with :class:`QueryNotFound`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import LiteralString

from beliefgraph.errors import QueryNotFound
from beliefgraph.resources import resource_dir

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_NAME = re.compile(r"^//\s*name:\s*(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class NamedQuery:
    """One named query: its Cypher text and the ``$params`` it uses."""

    name: str
    text: LiteralString
    params: frozenset[str]

    def statements(self) -> list[LiteralString]:
        """The ``;``-separated statements of the query (one, except for the schema)."""
        body = "\n".join(ln for ln in self.text.splitlines() if not ln.lstrip().startswith("//"))
        return [s.strip() for s in body.split(";") if s.strip()]


class Queries(Mapping[str, NamedQuery]):
    """An immutable name → :class:`NamedQuery` mapping."""

    def __init__(self, queries: dict[str, NamedQuery]) -> None:
        self._queries = dict(queries)

    def __getitem__(self, name: str) -> NamedQuery:
        try:
            return self._queries[name]
        except KeyError:
            raise QueryNotFound(f"no Cypher query named {name!r} in cypher/") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)


def cypher_dir() -> Path:
    """The directory holding the queries: the checkout's ``cypher/``, or the wheel's copy."""
    try:
        return resource_dir("cypher")
    except FileNotFoundError as e:
        raise QueryNotFound(str(e)) from e


def parse_query(path: Path) -> NamedQuery:
    """Read one query file and check its header.

    Raises:
        QueryNotFound: the header has no ``// name:`` or it differs from the file name.
    """
    text = path.read_text(encoding="utf-8")
    match = _NAME.search(text)
    if match is None or match.group(1) != path.stem:
        raise QueryNotFound(f"{path}: the header must say '// name: {path.stem}'")
    code = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
    # The text comes from the project's own files, never from a request: that is what
    # LiteralString promises the driver.
    return NamedQuery(path.stem, text, frozenset(_PARAM.findall(code)))


@lru_cache(maxsize=1)
def load_queries(directory: Path | None = None) -> Queries:
    """Read every ``*.cypher`` file of ``directory`` (default :func:`cypher_dir`).

    Only the top level: ``cypher/browser/`` holds Neo4j Browser favourites, for people.
    """
    root = directory or cypher_dir()
    return Queries({p.stem: parse_query(p) for p in sorted(root.glob("*.cypher"))})
