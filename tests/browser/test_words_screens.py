"""The back office in the reader's words, as a pit manager uses it: a round read as bets, cards and
settlement (no JSON, limits in money), money typed as the screens show it (and refused in words when it
could be read two ways), and a screen their role may not open refused as a page. Screenshots at 1024x768
and 390x844, axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.money import money_words
from tables.models import Table
from tables.services import rounds
from tests.browser.conftest import axe_violations
from tests.tables.helpers import BANKER_WIN
from tests.wording.scan import report, scan_html

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "h2"]


def test_a_round_reads_as_bets_cards_and_settlement(screens, floor):
    # given a settled baccarat round: a banker bet that won, a player bet that lost
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=2_500)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=2, type="player", amount=1_000)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in BANKER_WIN:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)
    rnd.refresh_from_db()
    # when the pit manager opens it
    page = screens.page("pm", at=f"/pit/rounds/{rnd.pk}/")
    # then its limits are money, its bets are the layout's words with their results, its cards are cards
    limits = page.locator("dl.kv div", has=page.locator("dt", has_text="Limits")).locator("dd")
    expect(limits).to_have_text(f"{money_words(rnd.config['min_bet'])} – {money_words(rnd.config['max_bet'])}")
    banker = page.locator("tr[data-bet]", has_text="Seat 1")
    expect(banker).to_contain_text("Banker")
    expect(banker).to_contain_text(money_words(2_500))
    expect(banker).to_contain_text("Won")
    player = page.locator("tr[data-bet]", has_text="Seat 2")
    expect(player).to_contain_text("Lost")
    expect(player).to_contain_text(money_words(-1_000))
    expect(page.locator("table.trail tbody tr").first).to_contain_text("9♠")
    # and nothing on it is code, JSON or cents
    found = scan_html(page.content())
    assert found == [], report(found, "the round page")
    screens.shots(page, "words-round", LAYOUT + ["table.trail", "dl.kv"])
    assert axe_violations(page) == []


def test_limits_are_typed_as_the_screen_shows_money(screens, floor):
    page = screens.page("pm", at="/pit/tables/BAC1/")
    # when the pit manager types the maximum with its currency and thousands
    page.get_by_label("Minimum bet").fill("10")
    page.get_by_label("Maximum bet").fill("€1,000.00")
    page.get_by_role("button", name="Change limits").click()
    # then it is taken as written
    expect(page.locator(".messages")).to_contain_text("BAC1's limits are changed")
    assert Table.objects.values_list("min_bet", "max_bet").get(code="BAC1") == (1_000, 100_000)
    expect(page.get_by_label("Maximum bet")).to_have_value("1,000.00")
    # and an amount that could be a thousand or one is refused in words, nothing changed
    page.get_by_label("Maximum bet").fill("2.000")
    page.get_by_role("button", name="Change limits").click()
    expect(page.locator(".messages")).to_contain_text("“2.000” could be read two ways: write €2,000.00")
    assert Table.objects.values_list("min_bet", "max_bet").get(code="BAC1") == (1_000, 100_000)
    screens.shots(page, "words-limits-refused", LAYOUT + [".messages li"])
    assert axe_violations(page) == []


def test_a_screen_the_role_may_not_open_is_refused_as_a_page(screens, floor):
    # given a pit manager, who may not read the audit trail
    page = screens.page("pm", at="/pit/")
    # when they open it
    answer = page.goto("/audit/")
    # then they read why, on the screens' page, with the way back
    assert answer is not None
    assert answer.status == 403
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("auditors")
    expect(page.get_by_role("link", name="Back to your home screen")).to_be_visible()
    screens.shots(page, "words-refused", LAYOUT + ["[role=alert]"])
    assert axe_violations(page) == []
