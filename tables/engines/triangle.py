"""The Carousel games' pack and pools: the triangle deck (rank n present n times, 1 to 10), pool
arithmetic (splitting a pot in whole chips, the rake on a carry) and the betting order from the button."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engines.base import (
    Json,
)
from tables.engines.errors import EngineError
from tables.engines.money import Rounding, divide

TOP_RANK = 10  # the triangle deck: rank n present n times, 1..10
DECK_SIZE = TOP_RANK * (TOP_RANK + 1) // 2
MAX_SEAT = 99
COUNT, PONY, LIVING_WIN, HIGH_CARD = "count", "pony", "living_win", "high_card"  # the Carousel games' bets


# -- the triangle deck -------------------------------------------------------------------


def parse_triangle_card(text: object) -> int:
    """Read one triangle-deck card, ``"1"`` to ``"10"``; the deck has no suits.

    >>> parse_triangle_card(" 7 ")
    7
    """
    if isinstance(text, str):
        raw = text.strip()
        if raw.isdigit() and 1 <= int(raw) <= TOP_RANK and raw == str(int(raw)):
            return int(raw)
    raise EngineError("bad_card", f"{text!r} is not a Carousel card: the triangle deck has ranks '1' to '10', no suits", params={"card": str(text)})


class TriangleShoe:
    """What is left of the triangle deck: rank n starts with n copies (55 cards)."""

    def __init__(self) -> None:
        self._left = {rank: rank for rank in range(1, TOP_RANK + 1)}

    def take(self, rank: int) -> None:
        if self._left[rank] <= 0:
            raise EngineError(
                "card_exhausted", f"{rank}: the triangle deck holds {rank} card(s) of rank {rank}, all already dealt", params={"rank": rank}
            )
        self._left[rank] -= 1

    def remaining(self) -> int:
        return sum(self._left.values())

    def counts(self) -> dict[int, int]:
        return dict(self._left)


# -- pool arithmetic -----------------------------------------------------------------------


def split_pot(pot: int, winners: int, chip: int) -> tuple[int, int]:
    """Each winner's share in whole chips, and the odd chips left over (they carry).

    >>> split_pot(9, 2, 1)
    (4, 1)
    """
    share = (pot // (winners * chip)) * chip
    return share, pot - share * winners


def carry_rake(carry: int, basis_points: int, rounding: Rounding, chip: int) -> int:
    """The house's take of a carry: ``basis_points`` of it in whole chips, rounded as told.

    >>> carry_rake(5, 1000, Rounding.UP, 1), carry_rake(10, 1000, Rounding.UP, 1), carry_rake(0, 1000, Rounding.UP, 1)
    (1, 1, 0)
    """
    if carry <= 0:
        return 0
    return min(carry, chip * divide(carry * basis_points, 10_000 * chip, rounding))


@dataclass(slots=True)
class Pool:
    """One pool's chips through a game: what came in, was staked, paid, raked and carried."""

    name: str
    carry_in: int
    carry: int
    stakes: int = 0
    paid: int = 0
    rake: int = 0

    def settle(self, stakes: int, winners: int, *, bp: int, rounding: Rounding, chip: int) -> Json:
        """Add this round's stakes, pay ``winners`` equal shares of the whole pot, carry and rake the rest."""
        pot = self.carry + stakes
        self.stakes += stakes
        share, left = split_pot(pot, winners, chip) if winners else (0, pot)
        self.paid += share * winners
        rake = carry_rake(left, bp, rounding, chip)
        self.rake += rake
        self.carry = left - rake
        return {
            "pot": pot,
            "stakes": stakes,
            "shares": winners,
            "share": share,
            "paid": share * winners,
            "left": left,
            "rake": rake,
            "carry": self.carry,
        }

    def as_dict(self) -> Json:
        return {
            "carry_in": self.carry_in,
            "stakes": self.stakes,
            "paid": self.paid,
            "rake": self.rake,
            "carry_out": self.carry,
        }


def seat_order_key(seat: int, button: int) -> int:
    """Betting order: the button's seat first, then up the seat numbers, wrapping after 99."""
    return (seat - button) % MAX_SEAT
