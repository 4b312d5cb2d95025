"""Errors raised by the game engines.

Every refusal an engine makes is an :class:`EngineError` with a stable ``code``, a human
message and, where one event is at fault, its index in the round's ``events``. ``params`` holds
the facts the message states as plain values (amounts as integers in minor units, limits, the
seat, the card, the bet id…) so a screen can word the refusal itself, with money in major units.
The API and ``settle_round`` turn it into ``{"error": {"code", "message", "event", "field",
"params"}}`` (``field`` and ``params`` only when there are some).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Every code a game engine refuses with, and what it means: a screen words each for the dealer.
ERROR_CODES: dict[str, str] = {
    "bad_document": "the round document is not an object, or has keys other than game, config, bets, events",
    "unknown_game": "no engine plays this game",
    "unknown_setting": "the config names a setting the game does not have",
    "bad_config": "a setting has a wrong type or value, or settings contradict each other",
    "bad_bet": "a bet is malformed, or the rules do not take it here (seat, field, set of bets)",
    "bad_bet_type": "the game takes no bet of this type",
    "bad_amount": "an amount is not a positive whole number, or not the one the rules fix (ante, forfeit, insurance)",
    "under_table_min": "a stake under the table minimum",
    "over_table_max": "a stake over the table maximum",
    "over_pot": "a pot bet larger than the pot",
    "over_bank": "the punters cover more than the bank",
    "duplicate_bet": "a bet id used twice in the round",
    "join_refused": "a seat may not join or rejoin while a carry is in play",
    "bad_event": "an event is malformed (unknown fields, a wrong place, a bad list of cards)",
    "bad_card": "a card is not spelled as a card of this game's deck",
    "card_exhausted": "the shoe no longer holds this card",
    "impossible_card": "a card the rules say cannot come now (the peek said otherwise)",
    "out_of_turn": "something other than what is due next: a card for a choice, another seat, another place",
    "illegal_action": "an action the rules do not allow here",
    "no_such_bet": "a correction or withdrawal names no bet in play",
    "correction_too_late": "a bet placed between stages corrected after a card has followed it",
    "bad_set": "a hand set from cards that are not the seat's",
    "no_set": "the game has no hands to set",
    "no_house_edge": "the game has no house-edge calculation",
}


class EngineError(Exception):
    """Bad input to an engine: refused whole, never partly applied."""

    def __init__(self, code: str, message: str, *, event: int | None = None, field: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
        self.field = field
        self.params: dict[str, Any] = dict(params or {})

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message, "event": self.event}
        if self.field is not None:
            body["field"] = self.field
        if self.params:
            body["params"] = dict(self.params)
        return body

    def at(self, event: int | None) -> EngineError:
        """The same error, pinned to an event index (kept if already pinned)."""
        if self.event is None:
            self.event = event
        return self


class BetSetError(EngineError):
    """A refusal of the round's bets as a set, not of one bet (its ``field`` is ``bets``): too few
    players, no bank, punters covering more than the bank. While betting is open a set that is not
    yet complete is left for closing the betting to judge (:meth:`Engine.check_placement
    <tables.engines.base.Engine.check_placement>`)."""

    def __init__(self, code: str, message: str, *, event: int | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code, message, event=event, field="bets", params=params)
