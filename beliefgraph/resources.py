"""Find the project's data directories (``cypher/``, ``samples/``) in a checkout or a wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The checkout's ``<name>/`` beside the package, or the wheel's ``beliefgraph/_<name>``.

    Raises:
        FileNotFoundError: neither exists.
    """
    for candidate in (_PACKAGE.parent / name, _PACKAGE / f"_{name}"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no {name}/ directory beside {_PACKAGE}")
