"""The dealer screen draws every input an engine asks for: one widget per input kind, one per bet-field
kind, no code per game. Every registered game is walked through seeded rounds; a kind with no widget
in static/croupier/dealer/widgets.js fails here. Also: the demo floor has a dealt table of every game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tables.engines.registry import GAME_MODULES, available_games, get_engine
from tables.simulation.autoplay import play_round

WIDGETS_JS = Path(__file__).resolve().parents[2] / "static" / "croupier" / "dealer" / "widgets.js"
SEEDS = range(4)


def registered(kind: str) -> set[str]:
    """The kinds widgets.js registers: ``widget("card", …)`` or ``field("rank", …)``."""
    return set(re.findall(rf'^\s*{kind}\("(\w+)",', WIDGETS_JS.read_text(), flags=re.MULTILINE))


def emitted(game: str) -> tuple[set[str], set[str]]:
    """Every input kind and every bet-field kind one game asks for over a few seeded rounds."""
    engine = get_engine(game)
    config = {"min_bet": 500, "max_bet": 100_000, **_demo_config(game)}
    kinds: set[str] = set()
    fields = {f["kind"] for spec in engine.describe()["bet_types"].values() for f in spec.get("fields", [])}
    for seed in SEEDS:
        doc = play_round(engine, config, random.Random(seed), seats=7)
        for n in range(len(doc["events"]) + 1):
            state = engine.play(engine.load({**doc, "events": doc["events"][:n]})).to_json()
            step = state.get("next")
            if not step:
                continue
            assert "input" in step, f"{game}: a step with no input: {step}"
            kinds.add(step["input"]["kind"])
            for bet in step["input"].get("bets_open") or []:
                fields |= {f["kind"] for f in bet.get("fields") or []}
    return kinds, fields


def _demo_config(game: str) -> dict:
    from tables.demo import SPECS

    return dict(SPECS[game].config) if game in SPECS else {}


def test_every_game_is_registered_and_walked():
    assert available_games() == list(GAME_MODULES)
    assert len(GAME_MODULES) == 18


def test_the_open_rounds_input_has_its_widget():
    from tables.services.rounds import TAKE_BETS

    assert TAKE_BETS["input"]["kind"] in registered("widget")


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_input_and_field_the_game_asks_for_has_a_widget(game):
    kinds, fields = emitted(game)
    assert kinds, f"{game}: no step was walked"
    assert kinds - registered("widget") == set(), f"{game}: no widget for {kinds - registered('widget')}"
    assert fields - registered("field") == set(), f"{game}: no field widget for {fields - registered('field')}"


def test_the_demo_floor_has_a_table_of_every_game_with_a_dealer_on_it(db, client):
    # given the demo floor
    from django.core.management import call_command

    from tables.demo import DEMO_PASSWORD
    from tables.models import Assignment, Table

    call_command("demo", "--quiet")
    # then every registered game has an open table, and its dealer's screen opens on it
    for game in GAME_MODULES:
        table = Table.objects.get(game=game)
        assert table.status == "open"
        assignment = Assignment.objects.get(table=table, relieved_at__isnull=True)
        assert client.login(username=assignment.dealer.username, password=DEMO_PASSWORD)
        answer = client.get("/dealer/")
        assert answer.status_code == 302, game
        assert answer["Location"] == f"/dealer/{table.code}/", game
        page = client.get(answer["Location"])
        assert page.status_code == 200
        assert b'id="dealer-boot"' in page.content
        client.logout()
