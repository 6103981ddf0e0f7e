"""The examples in the language readers' docstrings are run: each says what the reader does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import beliefgraph.language

MODULES = sorted(m.name for m in pkgutil.iter_modules(beliefgraph.language.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(f"beliefgraph.language.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_package_example_holds() -> None:
    assert doctest.testmod(beliefgraph.language).failed == 0
