"""What a dealer's fingers do on the screen, as reusable steps for the browser tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

RANK_NAMES = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# the visible key elements of the dealer's screen, checked for overlaps at each size
DEALER_LAYOUT = [
    "header.app nav a",
    "header.app button",
    "#table-title",
    "#round-label",
    "#say",
    "#error",
    "#controls button",
    ".stake-amount",
    "#controls .hint",
    ".hand",
    ".bets-list li",
    "#pay-list",
    "#offline",
]


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def idle(page: Any) -> None:
    """The last action was answered: the controls are enabled again."""
    # a selector wait (expect() backs off to 1 s between checks: too slow for 40 taps; wait_for_function
    # evaluates a string, which the screens' Content-Security-Policy rightly refuses)
    page.locator("#dealer[aria-busy='false']").wait_for(state="attached")


def open_round(page: Any) -> None:
    button(page, "Open round").click()
    expect(page.locator("#say")).to_have_text("Place your bets")


def bet_label(bet_type: str) -> str:
    return bet_type.replace("_", " ").capitalize()


def place_bet(page: Any, seat: int, bet_type: str | None, chips: list[str]) -> None:
    """Tap the seat, the bet (where the table takes more than one), the chips, then Place bet; waits
    for the server's answer. Chips are named as the screen shows them (``"€25.00"``)."""
    button(page, f"Seat {seat}").click()
    if bet_type is not None:
        button(page, bet_label(bet_type)).click()
    for chip in chips:
        button(page, f"Add chip {chip}").click()
    button(page, "Place bet").click()
    idle(page)


def close_betting(page: Any) -> None:
    button(page, "No more bets").click()
    idle(page)


def tap_card(page: Any, code: str) -> None:
    """Rank then suit: the second tap sends the card."""
    rank, suit = code[0], code[1]
    button(page, f"Rank {RANK_NAMES.get(rank, rank)}").click()
    button(page, f"Suit {SUIT_NAMES[suit]}").click()
    idle(page)


def say(page: Any) -> Any:
    return page.locator("#say")


def pay_rows(page: Any) -> list[list[str]]:
    """The pay list's body as text, row by row."""
    rows = page.locator("#pay-list tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("th, td").all_inner_texts()] for i in range(rows.count())]
