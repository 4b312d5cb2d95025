"""Every dealer step of every game, in every language the screens speak: worded by tables/wording.py, with
no code-like token (card codes, minor units, snake_case, JSON) and no sentence left in the engine's English.

The rounds are the demo's (tables/simulation/autoplay, as ``manage.py demo`` plays them), each replayed
event by event so that every step a dealer meets is asked for its words.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from tables import wording
from tables.engines.registry import available_games, get_engine
from tables.simulation.autoplay import play_round
from tests.engines.helpers import table_config
from tests.wording.scan import report, scan_text

ROUNDS = 4
LANGUAGES = [code for code, _ in settings.LANGUAGES]


@cache
def said(game: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every prompt (``next.say`` and a settled round's ``say``) and every label of the game's demo rounds."""
    engine = get_engine(game)
    config = table_config(game)
    rng = random.Random(f"prompts:{game}")
    first: list[dict[str, Any]] = []
    says: set[str] = set()
    labels: set[str] = set()
    for _ in range(ROUNDS):
        doc = play_round(engine, config, rng, events=first)
        for n in range(len(doc["events"]) + 1):
            out = engine.play(engine.load({**doc, "events": doc["events"][:n]})).to_json()
            if out.get("next"):
                says.add(out["next"]["say"])
                labels.update(wording.labels_in(out["next"]))
            if out.get("say"):
                says.add(out["say"])
        out = engine.play(engine.load(doc)).to_json()
        more, players = engine.carry_over(out)
        first = [{"players": players}] if players else []
        config = {**config, **more}
    for spec in engine.describe()["bet_types"].values():
        labels.update(wording.labels_in(spec.get("fields", [])))
    return tuple(sorted(says)), tuple(sorted(labels))


@pytest.mark.parametrize("game", available_games())
def test_every_prompt_and_label_of_the_game_is_a_form_the_wording_layer_knows(game):
    says, labels = said(game)
    assert says
    assert [s for s in says if wording.prompt_parts(s) is None] == []
    assert [label for label in labels if not wording.label_known(label)] == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_dealer_step_reads_without_codes_or_cents_in_each_language(game, language, settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    says, labels = said(game)
    with translation.override(language):
        worded = [wording.prompt(s) for s in says] + [wording.label_words(label) for label in labels]
    found = [f for text in worded for f in scan_text(text)]
    assert found == [], report(found, f"{game} in {language}")


@pytest.mark.parametrize(
    ("say", "language", "words"),
    [
        ("Turn up a card against seat 1's bet of 5000", "en", "Turn up a card against seat 1's bet of €50.00"),
        ("Seat 2: turn the middle card (3C and JD, bet 2000)", "en", "Seat 2: turn the middle card (3♣ and J♦, bet €20.00)"),
        ("Community cards 8D 2S: 1 paying hand(s)", "en", "Community cards 8♦ 2♠: 1 paying hand"),
        ("Community cards 8D 2S: 3 paying hand(s)", "en", "Community cards 8♦ 2♠: 3 paying hands"),
        ("Deal complete: JH in hock", "en", "Deal complete: J♥ in hock"),
        ("Banker wins 7 over 4", "zh-hant", "莊贏，7 點對 4 點"),
        ("Player wins 9 over 4", "zh-hant", "閒贏，9 點對 4 點"),
        ("Tie", "zh-hant", "和局"),
        ("Banker wins 7 over 4", "es", "Gana la banca, 7 a 4"),
        ("Player wins 9 over 4", "es", "Gana el jugador, 9 a 4"),
        ("Tie", "es", "Empate"),
    ],
)
def test_the_prompts_the_issue_named_carry_money_and_cards_in_the_readers_words(settings, say, language, words):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    with translation.override(language):
        assert wording.prompt(say) == words


def test_a_sentence_the_layer_does_not_know_still_shows_cards_not_codes():
    assert wording.prompt("Something new: QS and TD") == "Something new: Q♠ and 10♦"
