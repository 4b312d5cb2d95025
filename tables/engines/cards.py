"""Playing cards in the notation of docs/round_format.md, and the shoe that bounds what can be dealt.

>>> parse_card("10h")
Card(rank='T', suit='H')
>>> str(parse_card("jk", allow_joker=True))
'JK'
>>> shoe = Shoe(decks=1)
>>> shoe.take(parse_card("KS"))
>>> shoe.take(parse_card("KS"))
Traceback (most recent call last):
...
tables.engines.errors.EngineError: KS: the shoe holds 1 deck(s), all 1 KS already dealt
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tables.engines.errors import EngineError

RANKS = "23456789TJQKA"  # ascending, ace high; games that count A low say so
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
JOKER = "JK"

RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A standard card (rank in ``RANKS``, suit in ``SUITS``) or the joker (``rank == 'JK'``)."""

    rank: str
    suit: str

    def __str__(self) -> str:
        return JOKER if self.is_joker else self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def high_index(self) -> int:
        """2 → 0 … A → 12 (ace high); the joker has none."""
        return RANKS.index(self.rank)


JOKER_CARD = Card(JOKER, "")


_PARSED: dict[str, Card] = {}  # every spelling seen → its one Card object (at most a few hundred)


def parse_card(text: object, *, allow_joker: bool = False) -> Card:
    """Read one card, case-insensitive, ``10`` accepted for ``T``."""
    card = _PARSED.get(text) if isinstance(text, str) else None
    if card is not None and (allow_joker or card.rank != JOKER):
        return card
    card = _parse_card(text, allow_joker=allow_joker)
    if len(_PARSED) < 4096:
        _PARSED[text] = card  # type: ignore[index]
    return card


def _parse_card(text: object, *, allow_joker: bool = False) -> Card:
    if not isinstance(text, str):
        raise EngineError("bad_card", f"a card must be a string like 'AS' or '10H', got {text!r}", params={"card": str(text)})
    raw = text.strip().upper()
    if raw == JOKER:
        if not allow_joker:
            raise EngineError("bad_card", "JK: this game is played without a joker")
        return JOKER_CARD
    if len(raw) == 3 and raw.startswith("10"):
        raw = "T" + raw[2]
    if len(raw) != 2 or raw[0] not in RANKS or raw[1] not in SUITS:
        raise EngineError(
            "bad_card", f"{text!r} is not a card: rank A 2-9 T(10) J Q K then suit S H D C, e.g. 'AS', '10H'", params={"card": str(text)}
        )
    return Card(raw[0], raw[1])


def full_deck() -> list[Card]:
    return [Card(r, s) for s in SUITS for r in RANKS]


class Shoe:
    """What is left to deal: each standard card ``decks`` times, plus ``jokers`` jokers.

    It refuses a card the shoe can no longer hold, so a 9th KS in eight decks is bad input.
    Only the cards dealt are counted: a round deals a dozen of the shoe's 416 cards, and building
    a full count per round was the largest single cost of settling one.
    """

    __slots__ = ("_dealt", "decks", "jokers")

    def __init__(self, decks: int, *, jokers: int = 0, exclude: tuple[Card, ...] = ()) -> None:
        self.decks = decks
        self.jokers = jokers
        self._dealt: dict[Card, int] = {}
        for card in exclude:
            self._dealt[card] = self._dealt.get(card, 0) + 1

    def _holds(self, card: Card) -> int:
        return self.jokers if card.rank == JOKER else self.decks

    def remaining(self, card: Card) -> int:
        return self._holds(card) - self._dealt.get(card, 0)

    def can_take(self, card: Card) -> bool:
        return self.remaining(card) > 0

    def take(self, card: Card) -> None:
        dealt = self._dealt.get(card, 0)
        if dealt >= self._holds(card):
            if card.is_joker:
                raise EngineError("card_exhausted", f"JK: the shoe holds {self.jokers} joker(s), all already dealt", params={"jokers": self.jokers})
            raise EngineError(
                "card_exhausted",
                f"{card}: the shoe holds {self.decks} deck(s), all {self.decks} {card} already dealt", params={"card": str(card), "decks": self.decks},
            )
        self._dealt[card] = dealt + 1

    def counts(self) -> Counter[Card]:
        every = full_deck() + ([JOKER_CARD] if self.jokers else [])
        return Counter({c: left for c in every if (left := self.remaining(c)) > 0})
