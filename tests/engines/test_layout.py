"""The shape of the code the engines helper owns: game rules live in the engines, files stay small."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from pathlib import Path

import pytest

from tables.engines.inputs import InputKind
from tables.engines.registry import available_games, get_engine

ROOT = Path(__file__).resolve().parents[2]
GAME_WORDS = re.compile(r"pontoon|carousel|chemin|blackjack|baccarat|insurance|red[ _-]?dog|in[_-]between", re.I)


def test_no_round_service_names_a_game_or_a_game_rule():
    # given every module of the round services
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "tables" / "services").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if GAME_WORDS.search(line)
    ]
    # then none names a game or one of its rules: the engines answer for them
    assert offenders == []


@pytest.mark.parametrize("module", ["tables.simulation.autoplay", "tables.simulation.baccarat", "tables.simulation.blackjack"])
def test_the_simulation_examples_hold(module):
    # the simulation package lies outside the doctest paths of the engines: its examples run here
    failed, tried = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert (failed, tried > 0) == (0, True)


def test_no_engine_file_is_over_800_lines():
    # given every module of the engines and the simulation package
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text().splitlines())
        for folder in ("tables/engines", "tables/simulation")
        for path in (ROOT / folder).rglob("*.py")
    }
    # then each reads as one concern: none is over 800 lines
    assert {name: n for name, n in sizes.items() if n > 800} == {}


FORBIDDEN = ("django", "rest_framework", "celery", "casino", "accounting", "players", "cardroom", "slots",
             "tables.models", "tables.services", "tables.apis", "tables.selectors", "tables.views")


def test_the_simulation_package_is_pure_python_like_the_engines():
    # given every import of the simulation package, function-level ones included
    imported = set()
    for path in (ROOT / "tables" / "simulation").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    # then none reaches Django, the broker or the apps: it plays the engines and nothing else
    assert sorted(m for m in imported if m.startswith(FORBIDDEN)) == []


def test_the_round_format_shows_every_input_kind_and_the_games_page_every_setting():
    # given the repository's own contracts
    round_format = (ROOT / "docs" / "round_format.md").read_text()
    games = (ROOT / "docs" / "games.md").read_text()
    # then the round format has an example of every input kind…
    assert [k.value for k in InputKind if f'"kind": "{k.value}"' not in round_format] == []
    # …and the games page names every game and every setting of it
    missing = [
        f"{game}.{s.name}"
        for game in available_games()
        for s in get_engine(game).settings
        if f"(`{game}`)" not in games or f"`{s.name}`" not in games
    ]
    assert missing == []


def test_no_file_of_the_engines_cites_a_file_the_repository_lacks():
    cited = re.compile(r"GAMES\.md|ROUND_FORMAT\.md|DEVELOPERS\.md|STYLE\.md")
    folders = ("tables/engines", "tables/simulation", "tables/scoring", "tables/management", "tests/engines", "docs")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in folders
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".md") and cited.search(path.read_text())
    ]
    assert offenders == []
