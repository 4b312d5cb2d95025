"""Reading a card event: the one reader of ``{"card": …, "to": …}`` the card-dealt games share.

An event where a card is due must hold a card (and nothing but ``card`` and ``to``); its ``to``,
when given, must name a place of the game and the place the rules send the next card; the card
must be spelled right and still be in the shoe. Each game says its refusals in its own words
(what is due, which places it has), so the messages read as the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engines.cards import Card, Shoe, parse_card
from tables.engines.errors import EngineError


def read_card_event(
    event: Mapping[str, Any],
    index: int,
    expected: str | None,
    shoe: Shoe,
    *,
    not_a_card: Callable[[Mapping[str, Any]], str],
    is_place: Callable[[Any], bool],
    places_said: str,
    the: str = "",
    complete: str = "the round is complete, no more cards",
    places: list[str] | None = None,
    allow_joker: bool = False,
) -> Card:
    """The card of event ``index``, due at ``expected`` (None: no card is due any more), taken from ``shoe``.

    ``not_a_card(event)`` words the refusal of an event that is not a card; ``is_place(to)`` says
    whether ``to`` names a place of the game, ``places_said`` which they are ("one of player,
    banker"); ``the`` is the article before a place's name ("the player").

    >>> shoe = Shoe(1)
    >>> words = {"not_a_card": lambda e: "a card is due", "is_place": lambda t: t in ("a", "b"), "places_said": "a or b"}
    >>> str(read_card_event({"card": "10h", "to": "a"}, 0, "a", shoe, **words))
    'TH'
    >>> read_card_event({"card": "TH"}, 1, "a", shoe, **words)
    Traceback (most recent call last):
    ...
    tables.engines.errors.EngineError: TH: the shoe holds 1 deck(s), all 1 TH already dealt
    """
    if "card" not in event:
        raise EngineError("out_of_turn", f"event {index}: {not_a_card(event)}", event=index,
                          params={"expected": expected} if expected is not None else None)
    extra = set(event) - {"card", "to"}
    if extra:
        raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index,
                          params={"fields": sorted(extra)})
    if expected is None:
        raise EngineError("out_of_turn", f"event {index}: {complete}", event=index)
    to = event.get("to")
    if to is not None and to != expected:
        if not is_place(to):
            raise EngineError("bad_event", f"event {index}: 'to' must be {places_said}", event=index,
                              params={"places": places} if places is not None else None)
        raise EngineError("out_of_turn", f"event {index}: the next card goes to {the}{expected}, not {the}{to}",
                          event=index, params={"expected": expected, "to": to})
    try:
        card = parse_card(event["card"], allow_joker=allow_joker)
        shoe.take(card)
    except EngineError as exc:
        raise exc.at(index) from None
    return card
