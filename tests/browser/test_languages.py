"""The floor in Traditional Chinese and Spanish: the dealer screen (baccarat, blackjack, pai gow) and the pit
dashboard at 1024×768, the words shown checked against the catalogs' (莊/閒/和 on baccarat), axe-core clean,
the page's language said in <html lang>. The dealer switches at the table with one tap; the others' pick is
kept on their staff profile and applied at sign-in (docs/languages.md)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from casino.core.models import StaffProfile
from tests.browser.conftest import TABLET, assert_labelled, axe_violations
from tests.browser.dealer_steps import idle
from tests.browser.test_dealer_games import table_for

pytestmark = pytest.mark.browser

LANGUAGE_NAMES = {"zh-hant": "繁體中文", "es": "español"}
BACCARAT = {  # the bet buttons, the prompt before the deal, and after four cards with the player on 2
    "zh-hant": {"banker": "莊", "player": "閒", "tie": "和", "bets": "請下注", "first": "第 1 張牌派給閒家",
                "draws": "閒家 2 點，補牌", "open": "開局", "no_more": "停止下注"},
    "es": {"banker": "Banca", "player": "Jugador", "tie": "Empate", "bets": "Hagan sus apuestas",
           "first": "Carta 1 al jugador", "draws": "El jugador pide carta con 2", "open": "Abrir ronda",
           "no_more": "No va más"},
}
AFTER_CLOSE = {  # the first prompt once betting is closed
    ("blackjack", "zh-hant"): "1 號位：第一張牌", ("blackjack", "es"): "Asiento 1: primera carta",
    ("pai_gow_poker", "zh-hant"): "擲三粒骰子", ("pai_gow_poker", "es"): "Lance los tres dados",
}
PIT = {"zh-hant": ("賭區總覽", "點算及差異", "大額投注"), "es": ("Panel de la zona", "Recuentos y diferencias", "Apuestas grandes")}


def speaks(page: Any, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert_labelled(page)
    assert axe_violations(page) == []


def prefer(username: str, language: str) -> None:
    StaffProfile.objects.filter(user__username=username).update(language=language)


def tap_card(page: Any, rank: str, suit: str) -> None:
    page.locator(f'#deal-work [data-rank="{rank}"]').click()
    page.locator(f'#deal-work [data-suit="{suit}"]').click()
    idle(page)


def bet_at_seat_one(page: Any, bet_type: str | None = None) -> None:
    page.locator('#panel-bets [data-seat="1"]').click()
    if bet_type:
        page.locator(f'#panel-bets [data-type="{bet_type}"]').click()
    page.locator("#panel-bets .chip-grid button").last.click()
    page.locator("#place-bet-submit").click()
    idle(page)


@pytest.mark.parametrize("language", ["zh-hant", "es"])
def test_the_dealer_switches_baccarat_to_their_language_with_one_tap(screens, floor, language):
    # given the dealer at the baccarat table, in English
    page = screens.page("dealer", size=TABLET)
    expect(page).to_have_url(f"{screens.base_url}/dealer/BAC1/")
    expect(page.locator("#say")).to_have_text("Open a round to take bets")
    words = BACCARAT[language]

    # when they tap their language at the table
    page.locator(f'.table-language button[value="{language}"]').click()

    # then the screen speaks it: the table's bets in the floor's own words, the prompts, the page's language
    expect(page.locator(f'.table-language button[value="{language}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".table-language button[aria-pressed='true']")).to_have_text(LANGUAGE_NAMES[language])
    page.locator("#open-round").click()
    idle(page)
    expect(page.locator("#say")).to_have_text(words["bets"])
    for bet in ("banker", "player", "tie"):
        expect(page.locator(f'#panel-bets [data-type="{bet}"]')).to_have_text(words[bet])
    expect(page.locator("#close-betting")).to_have_text(words["no_more"])
    bet_at_seat_one(page, "banker")
    page.locator("#close-betting").click()
    idle(page)
    expect(page.locator("#say")).to_have_text(words["first"])
    for rank, suit in (("9", "H"), ("2", "C"), ("3", "D"), ("4", "S")):
        tap_card(page, rank, suit)
    expect(page.locator("#say")).to_have_text(words["draws"])
    speaks(page, language)
    screens.shot(page, f"dealer-baccarat-{language}")
    # and the choice is theirs, kept for their next sign-in
    assert StaffProfile.objects.get(user=floor.dealer).language == language


@pytest.mark.parametrize("language", ["zh-hant", "es"])
@pytest.mark.parametrize("game", ["blackjack", "pai_gow_poker"])
def test_a_dealers_own_language_is_applied_at_sign_in(screens, floor, game, language):
    # given a dealer who picked their language, at a table of the game
    table, dealer = table_for(game, floor)
    prefer(dealer.username, language)

    # when they sign in, open a round, take a bet and close betting
    page = screens.page(dealer.username, size=TABLET)
    expect(page).to_have_url(f"{screens.base_url}/dealer/{table.code}/")
    page.locator("#open-round").click()
    idle(page)
    expect(page.locator("#say")).to_have_text(BACCARAT[language]["bets"])
    bet_at_seat_one(page)
    page.locator("#close-betting").click()
    idle(page)

    # then what they are asked is in their language, with no code on the screen
    expect(page.locator("#say")).to_have_text(AFTER_CLOSE[(game, language)])
    speaks(page, language)
    screens.shot(page, f"dealer-{game}-{language}")


@pytest.mark.parametrize("language", ["zh-hant", "es"])
def test_the_pit_dashboard_in_the_pit_managers_language(screens, floor, language):
    prefer("pm", language)
    page = screens.page("pm", size=TABLET)
    expect(page).to_have_url(f"{screens.base_url}/pit/")
    title, counts, big_bets = PIT[language]
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator("#counts-title")).to_have_text(counts)
    expect(page.locator("#big-bets-title")).to_contain_text(big_bets)
    expect(page.locator("header.app .language-link")).to_contain_text(LANGUAGE_NAMES[language])
    speaks(page, language)
    screens.shot(page, f"pit-dashboard-{language}")
