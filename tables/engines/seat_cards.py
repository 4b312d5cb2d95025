"""Reading the cards of the seat-by-seat hand games (Pai Gow Poker, Pusoy): one card at a time as
they are dealt to the positions in dealing order, and a seat's setting as lists of cards."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tables.engines.card_events import read_card_event
from tables.engines.cards import Card, Shoe, parse_card
from tables.engines.errors import EngineError
from tables.engines.speech import Speech, speech

DEALER = "dealer"


def position_label(position: str) -> str:
    """``"dealer"`` → Dealer, ``"seat:3"`` → Seat 3."""
    return "Dealer" if position == DEALER else f"Seat {position.split(':')[1]}"


def say_card_of(position: str, n: int, of: int) -> Speech:
    """The dealer's words for card ``n`` of ``of`` to ``position``: "Seat 3: card 2 of 7"."""
    if position == DEALER:
        return speech("dealer_card_of", n=n, m=of)
    return speech("seat_card_of", seat=int(position.split(":")[1]), n=n, m=of)


def read_card(event: Mapping[str, Any], index: int, expected: str, order: Sequence[str], shoe: Shoe, *,
              describe: Callable[[Mapping[str, Any]], str], allow_joker: bool = False) -> Card:
    """The card of event ``index``, which must go to ``expected`` (a ``to`` may say so) and be in the shoe."""
    return read_card_event(
        event, index, expected, shoe,
        not_a_card=lambda e: f"a card for {position_label(expected).lower()} is due, not {describe(e)}",
        is_place=lambda to: to in order, places_said=lambda: f"one of the hands in play: {', '.join(order)}",
        places=order, allow_joker=allow_joker,
    )


def read_cards(raw: Any, count: int, name: str, index: int, *, allow_joker: bool = False) -> list[Card]:
    """The ``count`` cards of the field ``name`` of event ``index`` (a hand as a seat sets it)."""
    if not isinstance(raw, list) or len(raw) != count:
        raise EngineError("bad_event", f"event {index}: '{name}' must be a list of {count} cards", event=index, params={"name": name, "count": count})
    cards = []
    for text in raw:
        try:
            cards.append(parse_card(text, allow_joker=allow_joker))
        except EngineError as exc:
            raise exc.at(index) from None
    return cards
