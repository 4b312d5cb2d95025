"""Measured skill in theoretical win (issue 35) on the pit's screens: a careless player's closed slip shows the
assumed edge and the measured one with its decisions, the theo from the measured one, and the player's page says
per game which edge is in use — at 1024×768 and 390×844, axe-core clean."""

from __future__ import annotations

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from accounting.money import money_words
from players.models import SlipRating
from players.services import slips
from tables.models import Table
from tests.browser.conftest import PHONE, TABLET, axe_violations
from tests.players.helpers import make_player
from tests.players.skill_helpers import play_shoe_rounds, seed_edge

pytestmark = pytest.mark.browser

PLAYER_LAYOUT = ["header.app nav a", "h1", "table.slips", "#advantage-play h2", "#advantage-skill"]


@pytest.fixture
def minimum() -> int:
    return 10


@pytest.fixture
def careless(floor, settings, minimum):
    """A careless player's closed slip (12 rounds at BAC1 made a blackjack table), rated at the casino's minimum
    of rounds for the measured edge (10 by default)."""
    settings.CROUPIER = {**settings.CROUPIER, "MEASURED_EDGE_MIN_ROUNDS": minimum}
    Table.objects.filter(pk=floor.table.pk).update(game="blackjack", config={})
    floor.table.refresh_from_db()
    seed_edge("blackjack", {})
    player = make_player(floor, first="Cara", last="Careless", card="C2002")
    slip = slips.slip_open(actor=floor.manager, table_id=floor.table.pk, seat=1, player_id=player.pk)
    play_shoe_rounds(floor.table, floor.manager, kind="careless", rounds_played=12, seed=8)
    slips.slip_close(actor=floor.manager, slip_id=slip.pk)
    return player, slip


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_the_pit_sees_the_assumed_and_the_measured_edge_on_the_players_slip(screens, careless, size):
    player, slip = careless
    rating = SlipRating.objects.get(slip=slip)
    skill = rating.data["skill"]
    # given the pit manager on the dashboard, where the player's play is on the advantage panel
    page = screens.page("pm", size=size)
    page.goto("/pit/")
    row = page.locator(f"#advantage tr[data-player='{player.pk}']")
    # when they follow the player's link
    row.get_by_role("link", name="Cara Careless").click()
    # then the slip shows both edges, the measured one with its decisions, and the theo from the measured one
    slip_row = page.locator(f"table.slips tr[data-slip='{slip.pk}']")
    cell = slip_row.locator("td.slip-edge")
    assumed = f"{float(Fraction(skill['assumed_edge'])) * 100:.2f}"
    measured = f"{float(Fraction(skill['measured_edge'])) * 100:.2f}"
    expect(cell.locator("[data-edge=assumed]")).to_have_text(f"Assumed edge {assumed} %")
    expect(cell.locator("[data-edge=measured]")).to_have_text(
        f"Measured edge {measured} % ({skill['decisions']} decisions)")
    expect(cell).to_contain_text("Theo from the measured edge")
    expect(cell).to_have_attribute("data-edge-used", "measured")
    assert skill["theo_measured"] > skill["theo_assumed"]
    expect(slip_row).to_contain_text(money_words(rating.theoretical_win))
    # and the advantage section says, for blackjack, both edges and that the measured one is in use
    game = page.locator("#advantage-skill li[data-game=blackjack]")
    expect(game).to_have_attribute("data-edge-used", "measured")
    expect(game).to_contain_text(f"assumed edge {assumed} %")
    expect(game).to_contain_text("Theoretical win on this player's slips uses the measured edge.")
    screens.shots(page, "player-measured-edge", PLAYER_LAYOUT)
    assert axe_violations(page) == []


@pytest.mark.parametrize("minimum", [200])
@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_under_the_minimum_the_slip_keeps_the_assumed_edge_and_says_why(screens, careless, size):
    player, slip = careless
    rating = SlipRating.objects.get(slip=slip)
    assert (rating.data["skill"]["used"], rating.data["skill"]["reason"]) == ("assumed", "too_few_rounds")
    assert rating.theoretical_win == rating.data["skill"]["theo_assumed"]
    # when the pit manager opens the player's page
    page = screens.page("pm", size=size, at=f"/players/{player.pk}/")
    # then the slip shows both edges, and says the theo kept the assumed one: 12 rounds of the 200 needed
    cell = page.locator(f"table.slips tr[data-slip='{slip.pk}'] td.slip-edge")
    expect(cell).to_have_attribute("data-edge-used", "assumed")
    expect(cell).to_contain_text("Theo from the assumed edge: 12 rounds recorded, 200 needed")
    expect(page.locator(f"table.slips tr[data-slip='{slip.pk}']")).to_contain_text(
        money_words(rating.theoretical_win))
    game = page.locator("#advantage-skill li[data-game=blackjack]")
    expect(game).to_have_attribute("data-edge-used", "assumed")
    expect(game).to_contain_text("Theoretical win keeps the assumed edge until 200 rounds are recorded.")
    screens.shots(page, "player-assumed-edge", PLAYER_LAYOUT)
    assert axe_violations(page) == []
