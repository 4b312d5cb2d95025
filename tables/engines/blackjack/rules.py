"""Blackjack and Pontoon: the rules of one table, hand totals, the hand and the lazily counted shoe."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from tables.engines.base import (
    Json,
)
from tables.engines.cards import Card, Shoe, full_deck
from tables.engines.errors import EngineError
from tables.engines.money import Rounding
from tables.engines.speech import Speech, speech

DEALER = "dealer"
MAIN_BET = "bet"
INSURANCE_BET = "insurance"
TEN_RANKS = frozenset("TJQK")
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10,
          "K": 10}  # fmt: skip
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
# the canonical spelling of every card, so the common case skips re-parsing; anything else
# (lower case, "10H", garbage) goes through parse_card, which also words the refusal
_CARDS: dict[str, Card] = {str(c): c for c in full_deck()}
_TO = re.compile(r"dealer|seat:[1-9][0-9]?(:[0-9])?")


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    NO_INSURANCE = "no_insurance"
    PEEK = "peek"


class Status(StrEnum):
    """Where one hand stands; ``OPEN`` hands still take cards or decisions."""

    OPEN = "open"
    STOOD = "stood"
    BUST = "bust"
    NATURAL = "natural"
    SURRENDERED = "surrendered"


class Phase(IntEnum):
    DEAL = 0
    INSURANCE = 1
    PEEK = 2
    HOLE_BLACKJACK = 3  # the peek found a blackjack: the hole card is turned at once
    PLAYERS = 4
    HOLE = 5
    DEALER_CARD = 6
    DEALER_ACTION = 7  # Pontoon: the banker draws at will
    DONE = 8


# Reading an enum member (Phase.DEAL) costs about 0.6 µs on CPython 3.11, a global about 0.04 µs:
# the replay loop reads these aliases.
(PH_DEAL, PH_INSURANCE, PH_PEEK, PH_HOLE_BLACKJACK, PH_PLAYERS, PH_HOLE, PH_DEALER_CARD, PH_DEALER_ACTION, PH_DONE) = (
    Phase
)
ST_OPEN, ST_STOOD, ST_BUST, ST_NATURAL, ST_SURRENDERED = Status
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER, A_INSURANCE, A_NO_INSURANCE, A_PEEK = Action
_ACTIONS = frozenset(a.value for a in Action)
PEEK_RESULTS = ("blackjack", "no_blackjack")
PEEK_LABELS = {"blackjack": "Dealer has blackjack", "no_blackjack": "No blackjack"}
DOUBLE_ON = ("9_10_11", "10_11", "any_two")


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved config of one table, in the shape the round and the simulations read."""

    pontoon: bool
    decks: int
    seats: int
    dealer_hits_soft_17: bool
    blackjack_pays: tuple[int, int]
    blackjack_rounding: Rounding
    double_on: str
    double_after_split: bool
    max_splits: int
    resplit_aces: bool
    split_unlike_tens: bool
    insurance: bool
    surrender: bool
    surrender_rounding: Rounding
    banker_seat: int | None
    bonus: Mapping[str, int]
    dealer_natural_collects: int

    @classmethod
    def of(cls, cfg: Mapping[str, Any], *, pontoon: bool) -> Rules:
        """The rules of a resolved config; tables keep few configs, so they are built once each."""
        key: tuple[Any, ...] = (pontoon, *cfg.values())
        try:
            rules = _RULES.get(key)
        except TypeError:  # a chart (dict) setting: key it by its lines
            key = (pontoon, *(tuple(v.items()) if isinstance(v, dict) else v for v in cfg.values()))
            rules = _RULES.get(key)
        if rules is None:
            if len(_RULES) > 256:
                _RULES.clear()
            rules = _RULES[key] = cls.build(cfg, pontoon=pontoon)
        return rules

    @classmethod
    def build(cls, cfg: Mapping[str, Any], *, pontoon: bool) -> Rules:
        return cls(
            pontoon=pontoon,
            decks=cfg["decks"],
            seats=cfg["seats"],
            dealer_hits_soft_17=cfg.get("dealer_hits_soft_17", False),
            blackjack_pays=(cfg.get("blackjack_pays_numerator", 3), cfg.get("blackjack_pays_denominator", 2)),
            blackjack_rounding=Rounding(cfg.get("blackjack_rounding", "down")),
            double_on=cfg["double_on"],
            double_after_split=cfg["double_after_split"],
            max_splits=cfg["max_splits"],
            resplit_aces=cfg["resplit_aces"],
            split_unlike_tens=cfg["split_unlike_tens"],
            insurance=cfg.get("insurance", False),
            surrender=cfg.get("surrender", "none") == "late",
            surrender_rounding=Rounding(cfg.get("surrender_rounding", "down")),
            banker_seat=cfg.get("banker_seat"),
            bonus=dict(cfg.get("bonus_pays") or {}),
            dealer_natural_collects=cfg.get("dealer_natural_collects", 1),
        )

    def may_double(self, total: int, soft: bool) -> bool:
        """Whether a two-card total may be doubled; 9-11 means the hard totals (A-8 is 19, not 9)."""
        if self.double_on == "any_two":
            return True
        return not soft and total in ((10, 11) if self.double_on == "10_11" else (9, 10, 11))


_RULES: dict[tuple[Any, ...], Rules] = {}


def hand_total(ranks: Sequence[str]) -> tuple[int, bool]:
    """Best total and whether it is soft (an ace counted 11): ``("A", "6")`` is ``(17, True)``.

    >>> hand_total(["A", "6"]), hand_total(["A", "6", "T"]), hand_total(["A", "A", "9"])
    ((17, True), (17, False), (21, True))
    """
    hard = sum(VALUES[r] for r in ranks)
    if "A" in ranks and hard <= 11:
        return hard + 10, True
    return hard, False


def is_natural(ranks: Sequence[str]) -> bool:
    return len(ranks) == 2 and hand_total(ranks)[0] == 21


class LazyShoe(Shoe):
    """:class:`cards.Shoe`'s contract, counting only the cards dealt.

    A round deals a dozen of the shoe's 52×decks cards; building the full count of a
    :class:`~tables.engines.cards.Shoe` was the largest single cost of settling a round.
    """

    def __init__(self, decks: int) -> None:  # the full count is deliberately not built
        self.decks = decks
        self.jokers = 0
        self._texts: dict[str, int] = {}

    def remaining(self, card: Card) -> int:
        return self.decks - self._texts.get(str(card), 0)

    def can_take(self, card: Card) -> bool:
        return self.remaining(card) > 0

    def take(self, card: Card) -> None:
        self.take_text(str(card), card)

    def take_text(self, text: str, card: Card) -> None:
        """Take ``card``, whose canonical spelling ``text`` the caller already has."""
        dealt = self._texts.get(text, 0)
        if dealt >= self.decks:
            raise EngineError(
                "card_exhausted", f"{card}: the shoe holds {self.decks} deck(s), all {self.decks} {card} already dealt", params={"card": str(card), "decks": self.decks}
            )
        self._texts[text] = dealt + 1

    def counts(self) -> Counter[Card]:
        return Counter({c: left for c in full_deck() if (left := self.remaining(c)) > 0})


class Hand:
    """One player hand: its cards, stake, status and, once decided, its result."""

    __slots__ = (
        "seat",
        "index",
        "to",
        "ranks",
        "cards",
        "hard",
        "aces",
        "stake",
        "split",
        "doubled",
        "status",
        "pending",
        "result",
        "net",
        "bonus",
    )

    def __init__(self, seat: int, index: int, stake: int, *, split: bool = False) -> None:
        self.seat = seat
        self.index = index
        self.to = f"seat:{seat}:{index}" if split else f"seat:{seat}"  # where its cards go, as `to` says it
        self.cards: list[str] = []
        self.ranks: list[str] = []
        self.hard = 0
        self.aces = 0
        self.stake = stake
        self.split = split
        self.doubled = False
        self.status = ST_OPEN
        self.pending = False  # a hit or a double asked for a card that has not come yet
        self.result: str | None = None
        self.net: int | None = None
        self.bonus: str | None = None

    def add(self, text: str) -> None:
        """Add a card by its canonical spelling (``"TS"``)."""
        rank = text[0]
        self.cards.append(text)
        self.ranks.append(rank)
        self.hard += VALUES[rank]
        if rank == "A":
            self.aces += 1
        self.pending = False

    def remove_last(self) -> str:
        rank = self.ranks.pop()
        self.cards.pop()
        self.hard -= VALUES[rank]
        if rank == "A":
            self.aces -= 1
        return rank

    @property
    def total(self) -> int:
        return self.hard + 10 if self.aces and self.hard <= 11 else self.hard

    @property
    def soft(self) -> bool:
        return bool(self.aces) and self.hard <= 11

    @property
    def split_aces(self) -> bool:
        return self.split and self.ranks[0] == "A"

    @property
    def needs_card(self) -> bool:
        return self.pending or len(self.ranks) < 2

    def decide(self, result: str, net: int, bonus: str | None = None) -> None:
        self.result, self.net, self.bonus = result, net, bonus


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(event: Mapping[str, Any]) -> str:
    if "action" in event:
        return f"an action ({event.get('action')!r})"
    if "card" in event:
        return f"a card ({event.get('card')!r})"
    return "this event"



def _paid_as(hand: Hand) -> Json:
    """``natural: true`` for a paid natural, ``bonus: <line>`` for a Pontoon bonus hand."""
    if hand.bonus is None:
        return {}
    return {"natural": True} if hand.bonus == "natural" else {"bonus": hand.bonus}


def _rank_word(rank: str | None) -> Speech:
    """The dealer's up card as a player's prompt names it: an ace, a ten, an 8, a 9…"""
    if rank == "A":
        return speech("up_ace")
    if rank in ("8",):
        return speech("up_eight")
    if rank in TEN_RANKS:
        return speech("up_ten")
    return speech("up_rank", rank=str(rank))
