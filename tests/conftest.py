"""Fixtures shared by the test files."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture()
def benchmark_script(monkeypatch) -> Callable[[str], ModuleType]:
    """A loader of the scripts of ``benchmarks/`` by module name (``"startup"``): imported afresh, with ``benchmarks/``
    on the path for this test only (the scripts import their siblings, e.g. ``_trees``)."""

    def load(name: str) -> ModuleType:
        monkeypatch.syspath_prepend(str(BENCHMARKS))
        sys.modules.pop(name, None)
        return importlib.import_module(name)

    return load
