"""The pit manager's live dashboard, a table's history and a round's trail; the accountant's download."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from accounting.models import Alert
from accounting.money import money_words
from accounting.reports.labels import Names
from floor.labels import alert_text
from tables.models import Round
from tables.services import rounds
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout
from tests.tables.helpers import BANKER_WIN

pytestmark = pytest.mark.browser

PIT_LAYOUT = [
    "header.app nav a",
    "header.app button",
    "h1",
    ".live-note",
    ".tile",
    ".roll",
    ".chart-box",
    "#chart-note",
]
PAGE_LAYOUT = ["header.app nav a", "header.app button", "main > p", "h1", "h2", ".kv div", "table", ".now"]


def settle_round(table, dealer, bets) -> Round:
    """A whole baccarat round through the services, as the dealer's screen would post it (BANKER_WIN)."""
    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
    for seat, bet_type, amount in bets:
        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=seat, type=bet_type, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=dealer)
    for card in BANKER_WIN:
        rounds.event_post(round_id=rnd.pk, actor=dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=dealer)
    return rnd


def test_the_dashboard_updates_live_when_a_round_settles_at_a_table(screens, floor):
    # given the pit manager's dashboard is open on an idle floor
    page = screens.page("pm")
    expect(page).to_have_url(f"{screens.base_url}/pit/")
    tile = page.locator('[data-table="BAC1"]')
    expect(tile.locator('[data-field="rounds"]')).to_have_text("0")
    expect(tile.locator('[data-field="dealer"]')).to_have_text("dealer")
    expect(page.locator('[data-table="BAC2"]')).to_have_count(0)  # another pit's table
    expect(page.locator("#big-bets")).to_have_text("None this shift.")

    # when the dealer opens a round at BAC1 (the page is not reloaded)
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    # then the tile shows the round in play within a poll
    expect(tile.locator('[data-field="current"]')).to_contain_text("Round #1 · Open for bets · Place your bets")

    # when the round settles: banker 5000.00 wins (pays 4750.00), player 10.00 loses
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=500_000)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=2, type="player", amount=1000)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in BANKER_WIN:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)

    # then, still without a reload, the figures, the big bet and the charts' data follow
    expect(tile.locator('[data-field="rounds"]')).to_have_text("1")
    expect(tile.locator('[data-field="handle"]')).to_have_text(money_words(501000))
    expect(tile.locator('[data-field="win"]')).to_have_text(money_words(-474000))  # −475000 + 1000
    expect(tile.locator('[data-field="hold"]')).to_have_text("-94.61 %")  # −474000 / 501000
    expect(tile.locator('[data-field="current"]')).to_have_text("No round in play")
    expect(page.locator("#big-bets")).to_contain_text("BAC1 #1")
    expect(page.locator("#big-bets")).to_contain_text("seat 1 · Banker")
    expect(page.locator("#big-bets")).to_contain_text(money_words(500000))
    charts = json.loads(page.locator("#chart-data").text_content())
    assert charts["by_table"] == [
        {"table": "BAC1", "win": -474000, "handle": 501000, "rounds": 1, "hold_pct": -94.61, "hold_basis": "handle"}
    ]
    assert sum(h["win"] for h in charts["by_hour"]) == -474000
    assert int(page.evaluate("document.body.dataset.chartsDrawn")) >= 2  # redrawn after a poll
    for alert in Alert.objects.filter(table=floor.table):  # accounting's alerts, if its jobs raised any
        expect(page.locator("#alerts")).to_contain_text(alert_text(alert))  # worded from its kind and figures
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, PIT_LAYOUT)
        screens.shot(page, "pit-dashboard")
    page.set_viewport_size(TABLET)

    # and the table page lists the round, which opens to its full trail
    tile.get_by_role("link", name="BAC1").click()
    expect(page).to_have_url(f"{screens.base_url}/pit/tables/BAC1/")
    expect(page.locator("tr[data-round='1']")).to_contain_text("Settled")
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, PAGE_LAYOUT)
        screens.shot(page, "pit-table")
    page.set_viewport_size(TABLET)
    page.get_by_role("link", name="Round 1: open its trail").click()
    expect(page).to_have_url(f"{screens.base_url}/pit/rounds/{rnd.pk}/")
    trail = page.locator("table.trail tbody tr")
    expect(trail).to_have_count(6)
    expect(trail.nth(3)).to_contain_text("3♣")
    expect(trail.nth(3)).to_contain_text("Player draws on 4")
    expect(trail.nth(3)).to_contain_text("dealer")
    expect(trail.nth(5)).to_contain_text("Banker wins 7 over 6")
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, PAGE_LAYOUT)
        screens.shot(page, "pit-round-trail")


def test_an_accountant_downloads_a_report(screens, floor):
    # given a settled round
    settle_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000)])
    # when the accountant signs in and downloads a report from their home
    page = screens.page("accountant")
    expect(page).to_have_url(re.compile(r"/(accounting|reports)/$"))
    screens.shot(page, "accountant-home")
    assert_layout(page, ["header.app nav a", "header.app button", "h1", "h2", "main li span", "main a.btn"])
    # the accounting pages when they are installed, else the screens' fallback list: both name the link so
    link = page.get_by_role("link", name=re.compile(r"Settled bets as CSV$"))
    with page.expect_download() as info:
        link.click()
    download = info.value
    # then a CSV arrives with the report's header and the round's two bets
    assert download.suggested_filename.endswith(".csv")
    lines = open(download.path(), encoding="utf-8-sig").read().splitlines()
    # the first line says what the report covers; then the header, and the bets in words
    assert lines[0].startswith('"Settled bets. Covers: Every settled bet, on open and closed shifts alike.')
    assert lines[1] == (
        "Settled,Gaming date,Table,Round,Bet,Seat,Type,Stake as placed (EUR),Result,Player net (EUR),Commission (EUR),"
        "Dealer"
    )
    dealer = Names().person(floor.dealer.username)
    assert [line.split(",")[2:] for line in lines[2:4]] == [
        ["BAC1", "1", "b1", "1", "Banker", "25.00", "Won", "23.75", "1.25", dealer],
        ["BAC1", "1", "b2", "2", "Player", "10.00", "Lost", "-10.00", "0.00", dealer],
    ]


def test_a_closed_shift_stays_on_the_pit_screen_with_its_counts_and_variance(screens, floor):
    # given BAC1's worked shift, counted, closed at the table and for the casino, and reconciled
    from accounting.services import reconcile, shifts
    from tests.accounting.test_worked_shift import work_the_shift

    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    reconcile.reconcile_shift(shift_id=floor.shift.pk)

    # when the pit manager opens the dashboard and picks that shift
    page = screens.page("pm")
    page.get_by_role("combobox", name="Shift").select_option(str(floor.shift.pk))
    page.get_by_role("button", name="Show").click()

    # then the closed shift is shown, its tile on the rounds basis, its counts beside the variance they explain
    expect(page.locator("#shift-now")).to_contain_text("closed")
    tile = page.locator('article[data-table="BAC1"]')
    expect(tile.locator('[data-field="rounds"]')).to_have_text("2")
    expect(tile.locator('[data-field="handle"]')).to_have_text(money_words(14000))
    expect(tile.locator('[data-field="win"]')).to_have_text(money_words(9125))
    expect(tile.locator('[data-field="hold"]')).to_have_text("65.18 %")  # 9 125 ÷ 14 000
    row = page.locator('#counts tr[data-table="BAC1"]')
    for field_name, text in (("drop", money_words(80000)), ("count_win", money_words(9000)), ("count_hold", "11.25 %"),
                             ("rounds_win", money_words(9125)), ("pool_change", money_words(0)),
                             ("marker_payments", money_words(5000)), ("variance", money_words(-125))):
        expect(row.locator(f'[data-field="{field_name}"]')).to_have_text(text)
    expect(row).to_contain_text("Closed")
    expect(row).to_contain_text("Differences found")  # the reconciliation found the same −1.25
    expect(page.get_by_role("heading", name="Rounds win and statistical hold by table")).to_be_visible()
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, [*PIT_LAYOUT, ".counts"])
        screens.shot(page, "pit-closed-shift")
