"""The screens: the pit dashboard's player panels, the dealer's slip panel, the players pages."""

from __future__ import annotations

from django.test import Client

from players.services import slips
from tests.players.helpers import BANKER_WINS, compliance_user, make_player, play_round


def _web(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_pit_dashboard_shows_who_is_playing_the_open_slips_and_the_top_theo(floor, clock):
    # given a rated player at BAC1 (edge cached), one round played, and an anonymous slip
    from players.edges import edges_for

    edges_for("baccarat", floor.table.engine_config(), compute=True)
    player = make_player(floor)
    slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk)
    slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=5, description="red scarf")
    clock.set(2)
    play_round(floor.table, floor.dealer, [(1, "banker", 10_000)], BANKER_WINS)
    clock.set(32)
    # when the pit manager polls the live part
    page = _web(floor.manager).get("/pit/live/").content.decode()
    # then the panels are there, with the figures so far (theo 10,000 × 1.0579 % = 105.79 → 1.06)
    assert 'id="playing"' in page
    assert 'id="top-theo"' in page
    assert 'id="open-slips-title"' in page
    assert "Ada Lovelace" in page
    assert "anonymous (red scarf)" in page
    assert "1.06" in page
    assert "no bets recorded at the seat" in page  # the anonymous seat 5 had a round and no bet
    assert 'data-slip-action="pause"' in page


def test_the_other_pit_does_not_see_bac1s_slips(floor):
    make_player(floor)
    slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, card_number="C1001")
    page = _web(floor.other_manager).get("/pit/live/").content.decode()
    assert "Ada Lovelace" not in page


def test_the_dealer_screen_has_the_slip_panel(floor):
    page = _web(floor.dealer).get("/dealer/BAC1/").content.decode()
    assert 'id="slips-panel"' in page
    assert f'data-table-id="{floor.table.pk}"' in page
    assert "croupier/slips.js" in page


def test_a_players_page_lists_their_slips(floor):
    player = make_player(floor)
    slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=3, player_id=player.pk)
    page = _web(floor.manager).get(f"/players/{player.pk}/").content.decode()
    assert "Ada Lovelace" in page
    assert "BAC1" in page
    directory = _web(floor.manager).get("/players/?q=love").content.decode()
    assert f'href="/players/{player.pk}/"' in directory


def test_compliance_lands_on_the_cash_log(floor):
    client = _web(compliance_user())
    home = client.get("/")
    assert (home.status_code, home["Location"]) == (302, "/players/compliance/")
    assert "Cash transaction log" in client.get("/players/compliance/").content.decode()
