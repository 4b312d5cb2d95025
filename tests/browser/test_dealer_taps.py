"""Taps per round on the dealer's screen, game by game (issue 30's closing table).

The round each game plays in tests/browser/test_dealer_games.py is tapped in again with the taps
counted on the page: every button tapped, from "Open round" to the pay list. "Before" counts every card
as rank then suit, as the screen took it before; "after" sends a card entered twice running by one tap
("Again") where the shoe holds copies of each card; with a keyboard, every card is keyed and no card is
tapped. The time from the tap that sends a card to the screen's next step is taken in the page's clock
and reported, not asserted (speed is measured, never held to a figure in a test). Each game's figures
go to artifacts/dealer-taps/<game>.json.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounting.services.counts import denominations_for
from floor.selectors import decks_of, layout_bets
from tables.engines.registry import GAME_MODULES, get_engine
from tests.browser.tap_round import Screen, play_round_by_taps
from tests.browser.test_dealer_games import round_for, table_for

pytestmark = pytest.mark.browser
OUT = Path(__file__).resolve().parents[2] / "artifacts" / "dealer-taps"


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_taps_per_round_are_counted_and_a_repeated_card_takes_one_tap(screens, floor, game):
    # given the game's table and the round its browser test plays
    table, dealer = table_for(game, floor)
    engine = get_engine(game)
    doc = round_for(game, engine.resolve_config(table.engine_config()), table.seats)
    page = screens.page(dealer.username)
    screen = Screen(page, screens, game, denominations_for(table), decks=decks_of(table))
    screen.count_taps()

    # when the round is tapped in to its pay list
    play_round_by_taps(screen, doc, layout_bets(game))
    expect(page.locator("#confirm-settle")).to_be_visible()

    # then the taps are counted: each card sent by "Again" saved one tap of the rank and suit pad
    counted = screen.taps()
    cards = [e["card"] for e in doc["events"] if "card" in e]
    one_tap = sum(1 for c in cards if c == "JK" or engine.profile.deck.value == "triangle")
    card_taps_before = 2 * len(cards) - one_tap
    after = counted["taps"]
    before = after + screen.again
    assert screen.again == sum(1 for a, b in zip(cards, cards[1:], strict=False) if a == b) * (decks_of(table) > 1)
    assert len(counted["cards"]) == len(cards)
    figures = {
        "game": game, "cards": len(cards), "taps_before": before, "taps_after": after,
        "taps_with_keyboard": before - card_taps_before,
        "median_ms_card_to_next_step": round(statistics.median(counted["cards"]), 1) if counted["cards"] else None,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{game}.json").write_text(json.dumps(figures))
    print(json.dumps(figures))
