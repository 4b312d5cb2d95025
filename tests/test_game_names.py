"""No code outside the engines knows a game by name: what a service, a report or a screen needs to know
about a game it reads from the engine's profile (docs/extending.md). A game's name may appear in
``tables/engines`` (where games are defined), docs, tests and their fixtures, migrations (history), and
the demo: the demo floor (``tables/demo.py``, ``accounting/demo.py``, ``slots/demo.py``, the card room's
``cardroom/demo.py`` and the demo's counter ``players/demo.py``) and the players it
simulates (``tables/simulation``: each game's betting and playing strategy).

Checked in code, not prose: every string constant of a Python module that is not a docstring, and every
quoted string of a template or script, is compared with the game names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tables.engines.registry import GAME_MODULES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("casino", "tables", "accounting", "players", "cardroom", "slots", "floor")
OUTSIDE = ("tables/engines/", "tables/simulation/", "tables/demo.py", "accounting/demo.py", "slots/demo.py",
           "players/demo.py", "cardroom/demo.py")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _python_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
            and node.value in GAME_MODULES}


def _quoted_names(path: Path) -> set[str]:
    return {m.group(2) for m in re.finditer(r"([\"'])([a-z_]+)\1", path.read_text()) if m.group(2) in GAME_MODULES}


def test_no_game_name_outside_the_engines_docs_tests_and_the_demo():
    found = []
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    files += [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static").rglob("*.js")]
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(OUTSIDE) or "/migrations/" in rel:
            continue
        names = _python_names(path) if path.suffix == ".py" else _quoted_names(path)
        found += [(rel, name) for name in sorted(names)]
    assert found == []


def test_the_check_sees_a_game_name():
    # given a module that names a game in code, and one that names it in a docstring only
    assert _python_names(ROOT / "tables" / "demo.py")
    assert "blackjack" not in _python_names(ROOT / "accounting" / "figures.py")
