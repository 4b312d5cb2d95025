"""Every registered game played on the dealer's screen, from sign-in to the confirmed payout, by taps.

Each round is a seeded round of the game (tables/simulation/autoplay.py) chosen to show what the game
asks of a dealer (blackjack: a split and a double; pai gow: one hand set by taps and one by the house
way; red dog: a pot bet and a forfeit; the Calcutta: an auction). It is tapped in on the screen
(tests/browser/tap_round.py); afterwards the round document is read back from the API and replayed
through the engine, and every line of the pay list on the screen must equal that settlement.

The same round counts the dealer's taps (issue 30's closing table): every button tapped, from "Open round" to the
pay list. "Before" counts every card as rank then suit, as the screen took it before; "after" sends a card
entered twice running by one tap ("Again") where the shoe holds copies of each card; with a keyboard, every card is
keyed and no card is tapped. The time from the tap that sends a card to the screen's next step is taken in the
page's clock and reported, not asserted (speed is measured, never held to a figure in a test). Each game's figures
go to artifacts/dealer-taps/<game>.json. (One round tapped in once for both: they were two tests of the same
round, half of the browser tests' time.)
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from accounting.services.counts import denominations_for
from casino.core.roles import Role
from floor.selectors import decks_of, layout_bets
from tables.demo import SPECS
from tables.engines.registry import GAME_MODULES, get_engine
from tables.models import Round, Settlement
from tables.simulation.autoplay import play_round
from tests.browser.dealer_steps import button, idle, pay_rows
from tests.browser.pay_list import expected_rows, expected_totals, settle
from tests.browser.tap_round import Screen, play_round_by_taps
from tests.factories import TableFactory, UserFactory, assign
from tests.fixtures import as_user

pytestmark = pytest.mark.browser
Json = dict[str, Any]
TAPS_OUT = Path(__file__).resolve().parents[2] / "artifacts" / "dealer-taps"


def _actions(doc: Json) -> list[str]:
    return [e.get("action") for e in doc["events"] if e.get("action")]


def _bet_events(doc: Json) -> list[str]:
    return [e["bet"]["type"] for e in doc["events"] if isinstance(e.get("bet"), dict)]


def _set_one_by_hand(doc: Json) -> Json:
    """The first hand the house way set, set instead by the dealer's taps into the same hands (pai gow)."""
    engine = get_engine(doc["game"])
    for k, event in enumerate(doc["events"]):
        step = engine.play(engine.load({**doc, "events": doc["events"][:k]})).to_json()["next"]["input"]
        if step["kind"] == "set_hand" and event == step["house_way_event"]:
            by_hand = {**step["event"], **step["house_way"]}
            return {**doc, "events": [*doc["events"][:k], by_hand, *doc["events"][k + 1:]]}
    raise AssertionError("no hand set by the house way")


# what each game's round must show, and how the document is adjusted before it is tapped
WANTED: dict[str, Callable[[Json], bool]] = {
    "blackjack": lambda d: "split" in _actions(d) and "double" in _actions(d),
    "pai_gow_poker": lambda d: sum(1 for e in d["events"] if e.get("action") == "house_way") >= 2,
    "pusoy": lambda d: len(d["bets"]) >= 1,
    "red_dog": lambda d: "pot_bet" in _bet_events(d) and "forfeit" in _bet_events(d),
    "calcutta_horse_race": lambda d: any("bid" in e for e in d["events"]),
    "chemin_de_fer": lambda d: len(d["bets"]) <= 3,
}
ADJUST: dict[str, Callable[[Json], Json]] = {"pai_gow_poker": _set_one_by_hand}


def round_for(game: str, config: Json, seats: int) -> Json:
    """The shortest of the first seeded rounds that shows what the game must show."""
    engine = get_engine(game)
    if any(s.name == "seats" for s in engine.settings):
        config = {**config, "seats": seats}  # as the round service opens it: the engine knows the turns
    wanted = WANTED.get(game, lambda d: True)
    found = []
    for seed in range(60):
        doc = play_round(engine, config, random.Random(seed), seats=seats)
        if wanted(doc):
            found.append(doc)
        if len(found) >= 6:
            break
    assert found, f"no seeded round of {game} shows what it must"
    doc = min(found, key=lambda d: len(d["events"]) + 3 * len(d["bets"]))
    return ADJUST.get(game, lambda d: d)(doc)


def table_for(game: str, floor: Any) -> tuple[Any, Any]:
    spec = SPECS[game]
    code = f"{game.replace('_', '-')[:12].upper()}-T"
    table = TableFactory(code=code, name=f"{get_engine(game).title} 1", pit=floor.pit, game=game,
                         config=dict(spec.config), min_bet=spec.min_bet, max_bet=spec.max_bet, seats=spec.seats,
                         status="open")
    dealer = UserFactory(username=f"d-{game}", roles=[Role.DEALER])
    assign(dealer, table, floor.shift, floor.manager)
    return table, dealer


def counted_taps(screen: Screen, engine: Any, doc: Json, decks: int) -> Json:
    """The taps the round took on the page: each card sent by "Again" saved one tap of the rank and suit pad.
    Written to artifacts/dealer-taps/<game>.json and printed."""
    counted = screen.taps()
    cards = [e["card"] for e in doc["events"] if "card" in e]
    one_tap = sum(1 for c in cards if c == "JK" or engine.profile.deck.value == "triangle")
    card_taps_before = 2 * len(cards) - one_tap
    after = counted["taps"]
    before = after + screen.again
    assert screen.again == sum(1 for a, b in zip(cards, cards[1:], strict=False) if a == b) * (decks > 1)
    assert len(counted["cards"]) == len(cards)
    figures = {
        "game": screen.game, "cards": len(cards), "taps_before": before, "taps_after": after,
        "taps_with_keyboard": before - card_taps_before,
        "median_ms_card_to_next_step": round(statistics.median(counted["cards"]), 1) if counted["cards"] else None,
    }
    TAPS_OUT.mkdir(parents=True, exist_ok=True)
    (TAPS_OUT / f"{screen.game}.json").write_text(json.dumps(figures))
    print(json.dumps(figures))
    return figures


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_a_round_of_every_game_by_taps_pays_what_the_engine_settles(screens, floor, game):
    # given the game's table with its dealer signed in on it
    table, dealer = table_for(game, floor)
    engine = get_engine(game)
    config = engine.resolve_config(table.engine_config())
    doc = round_for(game, config, table.seats)
    page = screens.page(dealer.username)
    expect(page).to_have_url(f"{screens.base_url}/dealer/{table.code}/")
    layout = layout_bets(game)
    decks = decks_of(table)
    screen = Screen(page, screens, game, denominations_for(table), decks=decks)
    screen.count_taps()

    # when the dealer taps the whole round in
    play_round_by_taps(screen, doc, layout)
    expect(page.locator("#confirm-settle")).to_be_visible()
    counted_taps(screen, engine, doc, decks)

    # then every line of the pay list is the engine's settlement of the round as recorded
    rnd = Round.objects.get(table=table)
    recorded = as_user(dealer).get(f"/api/rounds/{rnd.pk}/").json()
    state = settle(recorded["document"])
    assert state["status"] == "settled"
    labels = {b["type"]: b["label"] for b in layout}
    assert pay_rows(page) == expected_rows(state, labels)
    expect(page.locator("#pay-totals")).to_have_text(expected_totals(state))
    assert len(recorded["document"]["events"]) == len(doc["events"])

    # and the dealer confirms: the settlement written is that one, and the next round can open
    button(page, "Paid and collected: confirm").click()
    idle(page)
    expect(button(page, "Open next round")).to_be_visible()
    screen.step("settled")
    settlement = Settlement.objects.get(round=rnd)
    assert settlement.house_net == state["house"]["net"]
    assert sorted((ln.bet.client_id, ln.result, ln.net) for ln in settlement.lines.select_related("bet")) == sorted(
        (b["id"], b["result"], b["net"]) for b in state["bets"])
    assert pay_rows(page) == expected_rows(state, labels)
