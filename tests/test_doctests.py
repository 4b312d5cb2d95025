"""The examples in the modules' docstrings run. pytest collects those under ``tables/engines`` itself
(``testpaths`` and ``--doctest-modules``) and tests/engines/test_layout.py runs ``tables/simulation``'s;
this runs every other first-party module that has one."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("casino", "tables", "accounting", "players", "cardroom", "slots", "floor")


def _modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] in (("tables", "engines"), ("tables", "simulation")) or "migrations" in rel.parts \
                    or ">>> " not in path.read_text():
                continue
            found.append(".".join(rel.with_suffix("").parts).removesuffix(".__init__"))
    return found


MODULES = _modules_with_examples()


def test_the_modules_with_examples_are_found():
    assert {"accounting.figures", "tables.scoring.hearts", "casino.money"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_module_run(name):
    result = doctest.testmod(importlib.import_module(name), report=True)
    assert result.failed == 0
    # every module runs examples, but one whose examples are all marked to skip (they need a database)
    assert result.attempted > 0 or name == "tables.scoring.base"
