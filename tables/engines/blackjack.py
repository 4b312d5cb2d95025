"""Blackjack with a permanent bank, and Pontoon (blackjack with a changing bank) as a variant.

The dealer enters the cards in dealing order: each seat's first card (seat order), the dealer's
up card, each seat's second card. The hole card is entered when it is turned over: after every
seat has acted, or at once when the peek finds a blackjack. With an ace or a ten up the dealer
peeks (``{"action": "peek", "result": "blackjack" | "no_blackjack"}``), after offering
insurance when the ace shows. After that the engine says whose turn it is and what they may do,
or where the next card goes, until the dealer has drawn to 17 and every bet is settled.

>>> doc = {"game": "blackjack", "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 100}],
...        "events": [{"card": "TS"}, {"card": "6H"}, {"card": "9D"},
...                   {"seat": 1, "action": "stand"}, {"card": "KC"}]}
>>> out = BLACKJACK.play(BLACKJACK.load(doc))
>>> out["hands"]["seat:1"]["total"], out["hands"]["dealer"]["total"], out["next"]["say"]
(19, 16, 'Dealer draws on 16')
>>> doc["events"].append({"card": "8S"})
>>> out = BLACKJACK.play(BLACKJACK.load(doc))
>>> out["status"], out["bets"][0]["result"], out["bets"][0]["net"], out["house"]["net"]
('settled', 'win', 100, -100)
"""

from __future__ import annotations

import math
import random
import re
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fractions import Fraction
from itertools import chain
from operator import length_hint
from typing import Any

from tables.engines.base import (
    LIMIT_SETTINGS,
    Bet,
    BetSpec,
    EdgeRow,
    Engine,
    Json,
    Round,
    Setting,
    SettingKind,
    awaiting,
    banked_house,
    bet_result,
    expect_action,
    expect_card,
    rounding_setting,
    settled,
)
from tables.engines.cards import Card, Shoe, full_deck, parse_card
from tables.engines.errors import EngineError
from tables.engines.inputs import amount_input, choice_input, option
from tables.engines.money import Rounding, divide, pay_ratio

DEALER = "dealer"
MAIN_BET = "bet"
INSURANCE_BET = "insurance"
ROW_KEYS = ("id", "seat", "type", "amount")
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
        self._dealt: dict[str, int] = {}

    def remaining(self, card: Card) -> int:
        return self.decks - self._dealt.get(str(card), 0)

    def can_take(self, card: Card) -> bool:
        return self.remaining(card) > 0

    def take(self, card: Card) -> None:
        self.take_text(str(card), card)

    def take_text(self, text: str, card: Card) -> None:
        """Take ``card``, whose canonical spelling ``text`` the caller already has."""
        dealt = self._dealt.get(text, 0)
        if dealt >= self.decks:
            raise EngineError(
                "card_exhausted", f"{card}: the shoe holds {self.decks} deck(s), all {self.decks} {card} already dealt", params={"card": str(card), "decks": self.decks}
            )
        self._dealt[text] = dealt + 1

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


class Table:
    """One round being replayed: every event is checked against the rules, then applied."""

    def __init__(self, rules: Rules, bets: Sequence[Bet]) -> None:
        self.rules = rules
        self.shoe = LazyShoe(rules.decks)
        self.bets = bets
        self.main: dict[int, Bet] = {}
        banker = rules.banker_seat if rules.pontoon else None
        for i, bet in enumerate(bets):
            if bet.seat > rules.seats:
                raise EngineError(
                    "bad_bet", f"bet {bet.id}: the table has seats 1 to {rules.seats}", field=f"bets[{i}].seat", params={"bet": bet.id, "seats": rules.seats}
                )
            if bet.seat in self.main:
                raise EngineError("bad_bet", f"bet {bet.id}: seat {bet.seat} already has a bet", field=f"bets[{i}].seat", params={"bet": bet.id, "seat": bet.seat})
            if bet.seat == banker:
                raise EngineError(
                    "bad_bet", f"bet {bet.id}: seat {bet.seat} holds the bank and does not bet", field=f"bets[{i}].seat", params={"bet": bet.id, "seat": bet.seat}
                )
            self.main[bet.seat] = bet
        if any(bet.id.endswith(":insurance") for bet in bets):  # rare: only then is the full check worth it
            ids = {b.id for b in bets}
            for bet in bets:
                if f"{bet.id}:insurance" in ids:
                    raise EngineError("duplicate_bet",
                                      f"bet id {bet.id}:insurance is kept for the insurance of {bet.id}", params={"bet": bet.id})
        if not self.main:
            raise EngineError(
                "bad_bet", "no seat has a bet: the deal starts once at least one 'bet' is down", field="bets"
            )
        if rules.pontoon:
            banker = rules.banker_seat or 0
            # play goes round to the banker's left: the seats after the bank, then those before it
            self.seats = sorted(s for s in self.main if s > banker) + sorted(s for s in self.main if s < banker)
        else:
            self.seats = sorted(self.main)
        self.hands: dict[int, list[Hand]] = {s: [Hand(s, 0, self.main[s].amount)] for s in self.seats}
        self.splits = dict.fromkeys(self.seats, 0)
        self.dealer_hand = Hand(0, 0, 0)  # its running total; the seat and stake mean nothing
        self.dealer: list[str] = self.dealer_hand.cards
        self.dealer_ranks: list[str] = self.dealer_hand.ranks
        targets: list[int | None] = [*self.seats, None, *self.seats]
        if rules.pontoon:
            targets.append(None)
        self.targets = targets
        self.target_to = [DEALER if t is None else f"seat:{t}" for t in targets]
        self.dealt = 0
        self.phase = PH_DEAL
        self.insurance: dict[int, int] = {}  # seat → amount taken (0: declined)
        self.insurance_queue: list[int] = []
        self.peek: str | None = None
        self.turn = 0
        self.current: Hand | None = None
        self.dealer_natural = False

    # -- what comes next ------------------------------------------------------------------
    def to_of(self, hand: Hand) -> str:
        return hand.to

    def dealer_total(self) -> tuple[int, bool]:
        hand = self.dealer_hand
        return hand.total, hand.soft

    def allowed(self, hand: Hand) -> list[str]:
        """What the hand may do now; a hand that needs a card has no choice."""
        r = self.rules
        n = len(hand.ranks)
        can_split = (
            n == 2
            and self.splits[hand.seat] < r.max_splits
            and (
                hand.ranks[0] == hand.ranks[1]
                or (r.split_unlike_tens and hand.ranks[0] in TEN_RANKS and hand.ranks[1] in TEN_RANKS)
            )
            and (hand.ranks[0] != "A" or not hand.split or r.resplit_aces)
        )
        if hand.split_aces and n == 2:  # split aces take one card; only a resplit is still open
            return [A_SPLIT, A_STAND]
        acts = [A_HIT, A_STAND]
        if n == 2 and (not hand.split or r.double_after_split) and r.may_double(hand.total, hand.soft):
            acts.append(A_DOUBLE)
        if can_split:
            acts.append(A_SPLIT)
        if r.surrender and n == 2 and len(self.hands[hand.seat]) == 1:
            acts.append(A_SURRENDER)
        return acts

    def can_resplit_aces(self, hand: Hand) -> bool:
        return self.rules.resplit_aces and hand.ranks == ["A", "A"] and self.splits[hand.seat] < self.rules.max_splits

    def next_card_to(self) -> str | None:
        """Where the next card goes, or None when a choice (or nothing) is due."""
        ph = self.phase
        if ph is PH_DEAL:
            return self.target_to[self.dealt]
        if ph is PH_HOLE_BLACKJACK or ph is PH_HOLE or ph is PH_DEALER_CARD:
            return DEALER
        if ph is PH_PLAYERS and self.current is not None and self.current.needs_card:
            return self.to_of(self.current)
        return None

    def due_choice(self) -> tuple[int | None, int | str | None, list[str]] | None:
        """(seat, hand, allowed) of the choice due now, or None when a card (or nothing) is due."""
        ph = self.phase
        if ph is PH_PLAYERS:
            hand = self.current
            if hand is None or hand.needs_card:
                return None
            return hand.seat, hand.index, self.allowed(hand)
        if ph is PH_INSURANCE:
            return self.insurance_queue[0], None, [A_INSURANCE, A_NO_INSURANCE]
        if ph is PH_PEEK:
            return None, None, [A_PEEK]
        if ph is PH_DEALER_ACTION:
            return self.rules.banker_seat, DEALER, [A_HIT, A_STAND]
        return None

    def next_step(self) -> Json | None:
        """What the dealer must do next, in the words of the dealer screen."""
        ph = self.phase
        r = self.rules
        if ph is PH_DEAL:
            seat = self.targets[self.dealt]
            second = self.dealt > len(self.seats)
            word = "second" if second else "first"
            if seat is None:
                say = ("Dealer: second card" if second else "Dealer: first card") if r.pontoon else "Dealer: up card"
                return expect_card(DEALER, say)
            return expect_card(f"seat:{seat}", f"Seat {seat}: {word} card")
        if ph is PH_INSURANCE:
            seat = self.insurance_queue[0]
            most = self.main[seat].amount // 2
            decline = {"seat": seat, "action": str(A_NO_INSURANCE)}
            full = {"seat": seat, "action": str(A_INSURANCE), "amount": most}
            return expect_action(
                seat,
                [str(A_INSURANCE), str(A_NO_INSURANCE)],
                f"Seat {seat}: insurance? (up to {most})",
                max_amount=most,
                inp=amount_input(
                    seat, "Insurance", 1, most, {"seat": seat, "action": str(A_INSURANCE)}, "amount",
                    options=[option("insurance", full, "Full insurance"), option("no_insurance", decline)],
                ),
            )
        if ph is PH_PEEK:
            shows = "an ace" if self.dealer_ranks[0] == "A" else "a ten"
            return expect_action(
                None, [str(A_PEEK)], f"Dealer shows {shows}: peek for blackjack", results=list(PEEK_RESULTS),
                inp=choice_input(None, [option(result, {"action": str(A_PEEK), "result": result},
                                               PEEK_LABELS[result]) for result in PEEK_RESULTS]),
            )
        if ph is PH_HOLE_BLACKJACK:
            return expect_card(DEALER, "Dealer has blackjack: turn the hole card")
        if ph is PH_PLAYERS:
            hand = self.current
            assert hand is not None
            who = self._who(hand)
            if hand.needs_card:
                return expect_card(self.to_of(hand), f"{who}: card")
            allowed = self.allowed(hand)
            soft = "soft " if hand.soft else ""
            words = [str(a) for a in allowed]
            if r.pontoon:
                n = len(hand.ranks)
                held = f", {n}-card charlie on " if n >= 5 else " on "
                say = f"{who}{held}{soft}{hand.total}: {_or_list(words)}?"
            else:
                say = f"{who}: {soft}{hand.total} against {_rank_word(self.dealer_ranks[0])}: {_or_list(words)}?"
            return expect_action(hand.seat, words, say, hand=hand.index)
        if ph is PH_HOLE:
            return expect_card(DEALER, "Turn the dealer's hole card")
        if ph is PH_DEALER_CARD:
            total, soft = self.dealer_total()
            return expect_card(DEALER, f"Dealer draws on {'soft ' if soft else ''}{total}")
        if ph is PH_DEALER_ACTION:
            total, soft = self.dealer_total()
            return expect_action(
                r.banker_seat,
                [str(A_HIT), str(A_STAND)],
                f"Dealer (seat {r.banker_seat}) on {'soft ' if soft else ''}{total}: hit or stand?",
                hand=DEALER,
            )
        return None

    def _who(self, hand: Hand) -> str:
        if len(self.hands[hand.seat]) == 1:
            return f"Seat {hand.seat}"
        return f"Seat {hand.seat}, {ORDINALS[hand.index]} hand"

    # -- applying events ------------------------------------------------------------------
    def apply(self, event: Mapping[str, Any], index: int) -> None:
        if "card" in event:
            if "action" in event or "bet" in event:
                raise EngineError("bad_event", f"event {index}: a card or a choice, not both", event=index)
            self.apply_card(event, index)
        elif "action" in event:
            if "bet" in event:
                raise EngineError("bad_event", f"event {index}: a choice or a bet, not both", event=index)
            self.apply_action(event, index)
        elif "bet" in event:
            raise EngineError(
                "bad_event",
                f"event {index}: {self.game} takes no bets once the deal has started; "
                "doubles, splits and insurance are actions",
                event=index, params={"game": self.game},
            )
        else:
            raise EngineError("bad_event", f"event {index}: an event is a card or a choice", event=index)

    @property
    def game(self) -> str:
        return "pontoon" if self.rules.pontoon else "blackjack"

    def apply_card(self, event: Mapping[str, Any], index: int) -> None:
        expected = self.next_card_to()
        if expected is None:
            if self.phase is PH_DONE:
                raise EngineError("out_of_turn", f"event {index}: the round is complete, no more cards", event=index)
            step = self.next_step()
            assert step is not None
            raise EngineError(
                "out_of_turn", f"event {index}: a choice is due next ({step['say']}), not a card", event=index
            )
        if len(event) > 1:
            for key in event:
                if key != "card" and key != "to":
                    raise EngineError("bad_event", f"event {index}: unknown field {key!r} on a card", event=index, params={"field": key})
            to = event.get("to")
            if to is not None and to != expected and not (to == expected + ":0" and expected.count(":") == 1):
                if not isinstance(to, str) or _TO.fullmatch(to) is None:
                    raise EngineError(
                        "bad_event", f"event {index}: 'to' is 'dealer', 'seat:N' or 'seat:N:H'", event=index
                    )
                raise EngineError(
                    "out_of_turn", f"event {index}: the next card goes to {expected}, not {to}", event=index, params={"expected": expected, "to": to}
                )
        text = event["card"]
        card = _CARDS.get(text) if type(text) is str else None
        try:
            if card is None:
                card = parse_card(text)
                text = str(card)
            self.shoe.take_text(text, card)
        except EngineError as exc:
            raise exc.at(index) from None
        ph = self.phase
        if ph is PH_DEAL:
            self.deal_card(text)
        elif ph is PH_PLAYERS:
            hand = self.current
            assert hand is not None
            hand.add(text)
            self.after_card(hand)
            self.advance_players()
        else:
            self.dealer_card(text, index)

    def deal_card(self, text: str) -> None:
        seat = self.targets[self.dealt]
        self.dealt += 1
        if seat is None:
            self.dealer_hand.add(text)
        else:
            hand = self.hands[seat][0]
            hand.add(text)
            if len(hand.ranks) == 2 and hand.total == 21:
                hand.status = ST_NATURAL
        if self.dealt == len(self.targets):
            self.after_deal()

    def dealer_card(self, card: str, index: int) -> None:
        r = self.rules
        ph = self.phase
        ranks = [*self.dealer_ranks, card[0]]
        if ph is PH_HOLE_BLACKJACK and not is_natural(ranks):
            raise EngineError(
                "impossible_card",
                f"event {index}: the peek found a blackjack, so the hole card "
                f"must make 21 with the {_rank_word(ranks[0])}, not {card}",
                event=index, params={"card": str(card)},
            )
        if ph is PH_HOLE and self.peek == "no_blackjack" and is_natural(ranks):
            raise EngineError(
                "impossible_card",
                f"event {index}: the peek found no blackjack, so the hole card cannot be {card}",
                event=index, params={"card": str(card)},
            )
        self.dealer_hand.add(card)
        if ph is PH_HOLE_BLACKJACK:
            self.dealer_natural = True
            self.phase = PH_DONE
            return
        total, soft = self.dealer_total()
        if r.pontoon:
            self.phase = PH_DONE if total >= 21 else PH_DEALER_ACTION
            return
        if not self.live_hands():
            self.phase = PH_DONE
        elif total < 17 or (total == 17 and soft and r.dealer_hits_soft_17):
            self.phase = PH_DEALER_CARD
        else:
            self.phase = PH_DONE

    def apply_action(self, event: Mapping[str, Any], index: int) -> None:
        for key in event:
            if key not in ("seat", "action", "hand", "amount", "result"):
                raise EngineError("bad_event", f"event {index}: unknown field {key!r} on a choice", event=index, params={"field": key})
        action = event["action"]
        if not isinstance(action, str) or action not in _ACTIONS:
            raise EngineError(
                "bad_event",
                f"event {index}: unknown action {action!r} ({', '.join(a.value for a in Action)})",
                event=index, params={"action": action, "actions": [a.value for a in Action]},
            )
        if "amount" in event and action != A_INSURANCE:
            raise EngineError("bad_event", f"event {index}: only insurance carries an amount", event=index)
        if "result" in event and action != A_PEEK:
            raise EngineError("bad_event", f"event {index}: only the peek carries a result", event=index)
        due = self.due_choice()
        if due is None:
            step = self.next_step()
            if step is None:
                raise EngineError("out_of_turn", f"event {index}: the round is complete, no more choices", event=index)
            raise EngineError(
                "out_of_turn", f"event {index}: a card is due next ({step['say']}), not {_describe(event)}", event=index
            )
        due_seat, due_hand, allowed = due
        seat = event.get("seat")
        if (seat is not None and not _is_int(seat)) or (seat is None and due_seat is not None and action != A_PEEK):
            raise EngineError("bad_event", f"event {index}: a choice names its 'seat' by number", event=index)
        if seat != due_seat:
            who = "the dealer's peek" if due_seat is None else f"seat {due_seat}"
            raise EngineError("out_of_turn", f"event {index}: it is {who}'s turn ({self.say_due()})", event=index, params={"seat": due_seat, "seat_given": seat})
        if "hand" in event and event["hand"] != (due_hand if due_hand is not None else 0):
            raise EngineError(
                "out_of_turn",
                f"event {index}: {self.say_due()} (hand {due_hand or 0}), not hand {event['hand']!r}",
                event=index, params={"hand": due_hand or 0, "hand_given": event['hand']},
            )
        if action not in allowed:
            raise EngineError(
                "illegal_action", f"event {index}: {action} is not allowed here: {self.say_due()}", event=index, params={"action": action}
            )
        ph = self.phase
        if ph is PH_INSURANCE:
            self.take_insurance(event, index)
        elif ph is PH_PEEK:
            result = event.get("result")
            if result not in PEEK_RESULTS:
                raise EngineError(
                    "bad_event", f"event {index}: a peek's result is 'blackjack' or 'no_blackjack'", event=index
                )
            self.peek = result
            if result == "blackjack":
                self.phase = PH_HOLE_BLACKJACK
            else:
                self.no_dealer_natural()
                self.start_players()
        elif ph is PH_DEALER_ACTION:
            self.phase = PH_DEALER_CARD if action == A_HIT else PH_DONE
        else:
            hand = self.current
            assert hand is not None
            self.play_hand(hand, action)
            self.advance_players()

    def say_due(self) -> str:
        step = self.next_step()
        return step["say"] if step else "the round is complete"

    def take_insurance(self, event: Mapping[str, Any], index: int) -> None:
        seat = self.insurance_queue.pop(0)
        if event["action"] == A_INSURANCE:
            most = self.main[seat].amount // 2
            amount = event.get("amount", most)
            if not _is_int(amount) or not 1 <= amount <= most:
                raise EngineError(
                    "bad_amount",
                    f"event {index}: insurance is a whole amount from 1 to {most} (half the bet)",
                    event=index, params={"min": 1, "max": most, "amount": amount},
                )
            self.insurance[seat] = amount
        else:
            self.insurance[seat] = 0
        if not self.insurance_queue:
            self.to_peek()

    def play_hand(self, hand: Hand, action: str) -> None:
        if action == A_HIT:
            hand.pending = True
        elif action == A_STAND:
            self.stand(hand)
        elif action == A_DOUBLE:
            hand.stake += self.main[hand.seat].amount
            hand.doubled = True
            hand.pending = True
        elif action == A_SPLIT:
            hands = self.hands[hand.seat]
            new = Hand(hand.seat, len(hands), self.main[hand.seat].amount, split=True)
            card = hand.cards[-1]
            hand.remove_last()
            new.add(card)
            hand.split = True
            hand.to = f"seat:{hand.seat}:{hand.index}"
            hands.append(new)
            self.splits[hand.seat] += 1
        else:  # surrender: the house keeps half, the odd chip by the rounding setting
            hand.status = ST_SURRENDERED
            back = divide(hand.stake, 2, self.rules.surrender_rounding)
            hand.decide("surrender", back - hand.stake)

    def stand(self, hand: Hand) -> None:
        hand.status = ST_STOOD
        if self.rules.pontoon:
            self.pontoon_bonus(hand)

    def after_card(self, hand: Hand) -> None:
        total = hand.total
        n = len(hand.ranks)
        if total > 21:
            hand.status = ST_BUST
            hand.decide("lose", -hand.stake)
        elif hand.split_aces and n == 2:
            if not self.can_resplit_aces(hand):
                self.stand(hand)
        elif hand.doubled or total == 21:
            self.stand(hand)

    def pontoon_bonus(self, hand: Hand) -> None:
        """A Pontoon bonus hand collects at once and cannot lose afterwards."""
        chart = self.rules.bonus
        n = len(hand.ranks)
        if n >= 5:
            hand.decide("win", hand.stake * chart["five_card_charlie"] * 2 ** (n - 5), "five_card_charlie")
        elif n == 3 and hand.ranks == ["7", "7", "7"]:
            hand.decide("win", hand.stake * chart["three_sevens"], "three_sevens")
        elif n == 3 and sorted(hand.ranks) == ["6", "7", "8"]:
            hand.decide("win", hand.stake * chart["six_seven_eight"], "six_seven_eight")

    # -- stage transitions ----------------------------------------------------------------
    def after_deal(self) -> None:
        r = self.rules
        if r.pontoon:
            if is_natural(self.dealer_ranks):
                self.dealer_natural = True
                self.phase = PH_DONE
            else:
                self.no_dealer_natural()
                self.start_players()
            return
        if self.dealer_ranks[0] == "A" and r.insurance:
            self.insurance_queue = [s for s in self.seats if self.main[s].amount >= 2]
            if self.insurance_queue:
                self.phase = PH_INSURANCE
                return
        self.to_peek()

    def to_peek(self) -> None:
        up = self.dealer_ranks[0]
        if up == "A" or up in TEN_RANKS:
            self.phase = PH_PEEK
        else:
            self.no_dealer_natural()
            self.start_players()

    def no_dealer_natural(self) -> None:
        """The dealer cannot hold a natural: every player natural is paid at once."""
        r = self.rules
        for seat in self.seats:
            hand = self.hands[seat][0]
            if hand.status is ST_NATURAL:
                if r.pontoon:
                    hand.decide("win", hand.stake * r.bonus["natural"], "natural")
                else:
                    num, den = r.blackjack_pays
                    hand.decide("win", pay_ratio(hand.stake, num, den, r.blackjack_rounding), "natural")

    def start_players(self) -> None:
        self.phase = PH_PLAYERS
        self.turn = 0
        self.current = None
        self.advance_players()

    def advance_players(self) -> None:
        """Find the first open hand from the current seat on, or hand over to the dealer."""
        while self.turn < len(self.seats):
            for hand in self.hands[self.seats[self.turn]]:
                if hand.status is ST_OPEN:
                    self.current = hand
                    return
            self.turn += 1
        self.current = None
        self.to_dealer()

    def live_hands(self) -> bool:
        return any(h.status is ST_STOOD and h.result is None for hs in self.hands.values() for h in hs)

    def to_dealer(self) -> None:
        if not self.rules.pontoon:
            self.phase = PH_HOLE
        elif self.live_hands():
            self.phase = PH_DEALER_ACTION
        else:
            self.phase = PH_DONE

    # -- the answer -----------------------------------------------------------------------
    def settle_hands(self) -> None:
        r = self.rules
        if self.dealer_natural:
            for hands in self.hands.values():
                for hand in hands:
                    if hand.result is not None:
                        continue
                    if hand.status is ST_NATURAL:
                        if r.pontoon:  # "the player pays just the amount of his bet"
                            hand.decide("lose", -hand.stake)
                        else:
                            hand.decide("push", 0)
                    else:
                        hand.decide("lose", -hand.stake * (r.dealer_natural_collects if r.pontoon else 1))
            return
        total, _ = self.dealer_total()
        bust = total > 21
        for hands in self.hands.values():
            for hand in hands:
                if hand.result is not None:
                    continue
                mine = hand.total
                if bust or mine > total:
                    hand.decide("win", hand.stake)
                elif mine == total and not r.pontoon:
                    hand.decide("push", 0)
                else:  # Pontoon: ties pay the dealer
                    hand.decide("lose", -hand.stake)

    def rows(self) -> list[Json]:
        """One row per bet whose result is known, and a row per insurance bet once the peek is made."""
        out: list[Json] = []
        for bet in self.bets:
            seat = bet.seat
            hands = self.hands[seat]
            if len(hands) == 1:
                hand = hands[0]
                if hand.result is not None:
                    paid = _paid_as(hand)
                    parts = [{"hand": 0, "stake": hand.stake, "result": hand.result, "net": hand.net, **paid}]
                    out.append(bet_result(bet, hand.result, hand.net or 0, staked=hand.stake, hands=parts, **paid))
            elif all(h.result is not None for h in hands):
                net = sum(h.net or 0 for h in hands)
                result = "win" if net > 0 else "lose" if net < 0 else "push"
                parts = [
                    {"hand": h.index, "stake": h.stake, "result": h.result, "net": h.net, **_paid_as(h)} for h in hands
                ]
                out.append(bet_result(bet, result, net, staked=sum(h.stake for h in hands), hands=parts))
            taken = self.insurance.get(seat, 0)
            if taken and self.peek is not None:
                ins = Bet(f"{bet.id}:insurance", seat, INSURANCE_BET, taken, {"insures": bet.id})
                if self.peek == "blackjack":
                    out.append(bet_result(ins, "win", 2 * taken, insures=bet.id))
                else:
                    out.append(bet_result(ins, "lose", -taken, insures=bet.id))
        return out

    def hands_doc(self) -> Json:
        total, soft = self.dealer_total() if self.dealer_ranks else (0, False)
        dealer: Json = {
            "cards": list(self.dealer),
            "total": total,
            "soft": soft,
            "blackjack": self.dealer_natural,
            "bust": total > 21,
        }
        if self.rules.pontoon:
            dealer["seat"] = self.rules.banker_seat
        doc: Json = {DEALER: dealer}
        for seat in self.seats:
            for hand in self.hands[seat]:
                row: Json = {
                    "seat": seat,
                    "hand": hand.index,
                    "cards": list(hand.cards),
                    "total": hand.total,
                    "soft": hand.soft,
                    "stake": hand.stake,
                    "doubled": hand.doubled,
                    "status": hand.status.value,
                    "result": hand.result,
                    "net": hand.net,
                }
                row.update(_paid_as(hand))
                doc[self.to_of(hand)] = row
        return doc

    def report(self) -> Json:
        if self.phase is not PH_DONE:
            step = self.next_step()
            assert step is not None
            return awaiting(step, hands=self.hands_doc(), bets=self.rows())
        self.settle_hands()
        rows = self.rows()
        total, _ = self.dealer_total()
        outcome: Json = {"dealer_total": total, "dealer_blackjack": self.dealer_natural, "dealer_bust": total > 21}
        if self.dealer_natural:
            say = "Dealer blackjack"
        elif total > 21:
            say = f"Dealer busts with {total}"
        else:
            say = f"Dealer {total}"
        if not self.rules.pontoon:
            return settled(hands=self.hands_doc(), outcome=outcome, bets=rows, house=banked_house(rows), say=say)
        banker = self.rules.banker_seat
        next_banker = banker
        if not self.dealer_natural:
            for seat in self.seats:  # the natural nearest the dealer's left takes the bank
                if self.hands[seat][0].status is ST_NATURAL:
                    next_banker = seat
                    break
        outcome.update(next_banker=next_banker, bank_passes=next_banker != banker)
        return settled(
            hands=self.hands_doc(),
            outcome=outcome,
            bets=rows,
            house={"net": 0, "commission": 0, "rake": 0},
            banker={"seat": banker, "net": -sum(r["net"] for r in rows)},
            say=say,
        )


def _paid_as(hand: Hand) -> Json:
    """``natural: true`` for a paid natural, ``bonus: <line>`` for a Pontoon bonus hand."""
    if hand.bonus is None:
        return {}
    return {"natural": True} if hand.bonus == "natural" else {"bonus": hand.bonus}


def _rank_word(rank: str | None) -> str:
    if rank == "A":
        return "an ace"
    if rank in ("8",):
        return "an 8"
    if rank in TEN_RANKS:
        return "a ten"
    return f"a {rank}"


def _or_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# -- basic strategy ------------------------------------------------------------------------
# Multi-deck basic strategy (4–8 decks) with late surrender, as published (Wizard of Odds,
# Griffin). Columns: dealer up card 2 3 4 5 6 7 8 9 T A. Codes: H hit, S stand, D double else
# hit, d double else stand, P split, R surrender else hit, r surrender else stand,
# p surrender else split, '-' (pairs only) play the hand by its total.
_HARD_S17 = {
    **dict.fromkeys(range(4, 9), "HHHHHHHHHH"),
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHRH",
    16: "SSSSSHHRRR",
    **dict.fromkeys(range(17, 22), "SSSSSSSSSS"),
}
_SOFT_S17 = {
    12: "HHHHHHHHHH",
    13: "HHHDDHHHHH",
    14: "HHHDDHHHHH",
    15: "HHDDDHHHHH",
    16: "HHDDDHHHHH",
    17: "HDDDDHHHHH",
    18: "SddddSSHHH",
    19: "SSSSSSSSSS",
    20: "SSSSSSSSSS",
    21: "SSSSSSSSSS",
}
_PAIRS_DAS = {
    1: "PPPPPPPPPP",
    2: "PPPPPP----",
    3: "PPPPPP----",
    4: "---PP-----",
    5: "----------",
    6: "PPPPP-----",
    7: "PPPPPP----",
    8: "PPPPPPPPPP",
    9: "PPPPP-PP--",
    10: "----------",
}
_PAIRS_NO_DAS = {**_PAIRS_DAS, 2: "--PPPP----", 3: "--PPPP----", 4: "----------", 6: "-PPPP-----"}
# what hitting soft 17 changes: (table, total or pair, up card) → code
_H17_CHANGES = (
    ("hard", 11, 1, "D"),
    ("hard", 15, 1, "R"),
    ("hard", 17, 1, "r"),
    ("soft", 18, 2, "d"),
    ("soft", 19, 6, "d"),
    ("pair", 8, 1, "p"),
)


def _column(up: int) -> int:
    return 9 if up == 1 else up - 2


class BasicStrategy:
    """The published multi-deck basic strategy for a rule set (S17/H17, DAS, surrender).

    ``decide`` takes a hand as card values (ace 1, tens 10) and the dealer's up card value, and
    returns one of ``hit stand double split surrender`` limited to what is allowed.

    >>> bs = BasicStrategy(dealer_hits_soft_17=False, double_after_split=True)
    >>> bs.decide([10, 6], 10, ["hit", "stand", "surrender"]), bs.decide([1, 7], 6, ["hit", "stand"])
    ('surrender', 'stand')
    """

    def __init__(self, *, dealer_hits_soft_17: bool, double_after_split: bool) -> None:
        hard = {t: list(row) for t, row in _HARD_S17.items()}
        soft = {t: list(row) for t, row in _SOFT_S17.items()}
        pairs = {v: list(row) for v, row in (_PAIRS_DAS if double_after_split else _PAIRS_NO_DAS).items()}
        if dealer_hits_soft_17:
            tables = {"hard": hard, "soft": soft, "pair": pairs}
            for table, key, up, code in _H17_CHANGES:
                tables[table][key][_column(up)] = code
        # indexed [total][up value], the ace column at index 1
        self.hard = {t: ["", row[9], *row[:9]] for t, row in hard.items()}
        self.soft = {t: ["", row[9], *row[:9]] for t, row in soft.items()}
        self.pairs = {v: ["", row[9], *row[:9]] for v, row in pairs.items()}
        self.hard[22] = ["S"] * 11  # a busted hand never asks, but keep lookups total

    def code(
        self, total: int, soft: bool, pair: int, up: int, can_double: bool, can_split: bool, can_surrender: bool
    ) -> str:
        """One of H S D P R for a hand given by its total (``pair`` is the paired value or 0)."""
        if pair and can_split:
            c = self.pairs[pair][up]
            if c == "P":
                return "P"
            if c == "p":
                return "R" if can_surrender else "P"
        c = (self.soft if soft else self.hard)[total][up]
        if c == "D":
            return "D" if can_double else "H"
        if c == "d":
            return "D" if can_double else "S"
        if c == "R":
            return "R" if can_surrender else "H"
        if c == "r":
            return "R" if can_surrender else "S"
        return c

    def decide(self, values: Sequence[int], up: int, allowed: Collection[str]) -> str:
        hard = sum(values)
        soft = 1 in values and hard <= 11
        total = hard + 10 if soft else hard
        pair = values[0] if len(values) == 2 and values[0] == values[1] else 0
        code = self.code(total, soft, pair, up, "double" in allowed, "split" in allowed, "surrender" in allowed)
        if "hit" not in allowed:  # split aces waiting on a resplit
            return "split" if code == "P" else "stand"
        return {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}[code]


# -- the engines ---------------------------------------------------------------------------
_SHARED = (
    Setting(
        "double_on",
        SettingKind.CHOICE,
        "9_10_11",
        "two-card hard totals that may double: 9_10_11 (seed), 10_11, or any_two",
        choices=DOUBLE_ON,
    ),
    Setting("double_after_split", SettingKind.BOOL, True, "whether a split hand may double (seed silent)"),
    Setting(
        "max_splits",
        SettingKind.INT,
        3,
        "splits one seat may make in a round (3: up to four hands)",
        minimum=0,
        maximum=7,
    ),
    Setting("resplit_aces", SettingKind.BOOL, False, "whether split aces that draw an ace may split again"),
    Setting(
        "split_unlike_tens",
        SettingKind.BOOL,
        False,
        "whether two unlike ten-cards (J-Q) may split; the seed says same denomination",
    ),
)


class Blackjack(Engine):
    name = "blackjack"
    title = "Blackjack (permanent bank)"
    settings = (
        Setting(
            "decks",
            SettingKind.INT,
            6,
            "52-card packs in the shoe (the seed: six is the most popular)",
            minimum=1,
            maximum=8,
        ),
        Setting(
            "seats", SettingKind.INT, 7, "seats at the table (the seed: up to seven players)", minimum=1, maximum=7
        ),
        Setting("dealer_hits_soft_17", SettingKind.BOOL, False, "H17 instead of the seed's stand on all 17s"),
        Setting(
            "blackjack_pays_numerator",
            SettingKind.INT,
            3,
            "a natural pays numerator:denominator (3:2)",
            minimum=1,
            maximum=10,
        ),
        Setting(
            "blackjack_pays_denominator",
            SettingKind.INT,
            2,
            "a natural pays numerator:denominator (3:2)",
            minimum=1,
            maximum=10,
        ),
        rounding_setting(
            "blackjack_rounding", Rounding.DOWN, "rounding of a natural's pay on an odd bet (down: 3:2 on 5 pays 7)"
        ),
        *_SHARED,
        Setting("insurance", SettingKind.BOOL, True, "insurance (up to half the bet, pays 2:1) against an ace"),
        Setting(
            "surrender",
            SettingKind.CHOICE,
            "none",
            "late surrender after the peek: none or late",
            choices=("none", "late"),
        ),
        rounding_setting(
            "surrender_rounding",
            Rounding.DOWN,
            "rounding of the half bet a surrender gives back (down: the house keeps the odd chip)",
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        MAIN_BET: BetSpec("The seat's bet: wins 1:1, a natural pays blackjack_pays; doubles and splits add stakes"),
        INSURANCE_BET: BetSpec(
            "Taken with the action 'insurance' when the dealer shows an ace; pays 2:1. "
            "Appears in results as '<bet id>:insurance'",
            limits_apply=False,
        ),
    }

    def stakes_taken_by_choices(self, rows: Sequence[Json], events: Sequence[Mapping[str, Any]],
                                placed: Collection[str]) -> list[tuple[Bet, int]]:
        """Insurance is put down by the ``insurance`` action, not placed as a bet: its row
        (``"<bet id>:insurance"``) becomes a bet of the event that took it (the action named after
        the row's type, at its seat)."""
        taken = []
        for row in rows:
            if row["id"] in placed:
                continue
            index = next((i for i, e in enumerate(events)
                          if e.get("action") == row["type"] and e.get("seat") == row["seat"]), None)
            if index is None:
                continue
            extra = {k: v for k, v in row.items() if k not in (*ROW_KEYS, "result", "net", "commission")}
            taken.append((Bet(row["id"], row["seat"], row["type"], row["amount"], extra), index))
        return taken
    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.type == INSURANCE_BET:
            raise EngineError(
                "bad_bet_type",
                f"bet {bet.id}: insurance is taken with the action 'insurance' when the dealer shows an ace",
                field=f"{where}.type", params={"bet": bet.id},
            )

    def rules(self, config: Mapping[str, Any]) -> Rules:
        return Rules.of(config, pontoon=False)

    def play(self, rnd: Round) -> Json:
        table = Table(self.rules(rnd.config), rnd.bets)
        for index, event in enumerate(rnd.events):
            table.apply(event, index)
        return table.report()

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1, rounds: int | None = None) -> list[EdgeRow]:
        """The main bet by seeded simulation (``rounds``, default :data:`SIMULATED_ROUNDS`); insurance exactly."""
        cfg = self.resolve_config(config)
        rules = self.rules(cfg)
        rounds = rounds or SIMULATED_ROUNDS
        mean, half = simulate(rules, rounds, seed)
        num, den = rules.blackjack_pays
        method = (
            f"seeded simulation (random.Random({seed})) of {rounds:,} rounds: one seat playing the "
            f"published multi-deck basic strategy for these rules, {rules.decks}-deck shoe cut at 75 %; "
            "95 % CI from the per-round spread"
        )
        rows = [
            EdgeRow(
                MAIN_BET,
                -mean,
                method,
                ci95=(-mean - half, -mean + half),
                note=f"per initial bet; natural pays {num}:{den}, no insurance taken",
            )
        ]
        if rules.insurance:
            tens, others = 16 * rules.decks, 52 * rules.decks - 1
            p = Fraction(tens, others)
            rows.append(
                EdgeRow(
                    INSURANCE_BET,
                    1 - 3 * p,
                    f"exact: {tens} ten-cards among the {others} cards other than the up ace",
                    note="off the top of the shoe, ignoring the players' cards",
                )
            )
        return rows


class Pontoon(Engine):
    name = "pontoon"
    title = "Pontoon (blackjack with a changing bank)"
    banked = False  # a player holds the bank; the house is no party to the bets
    settings = (
        Setting(
            "decks", SettingKind.INT, 1, "52-card packs (the seed: a single pack is always used)", minimum=1, maximum=2
        ),
        Setting(
            "seats",
            SettingKind.INT,
            14,
            "seats at the table, the banker's included (the seed: 2 to 14)",
            minimum=2,
            maximum=14,
        ),
        Setting(
            "banker_seat",
            SettingKind.INT,
            None,
            "the seat holding the bank this round (required)",
            minimum=1,
            maximum=14,
        ),
        Setting(
            "bonus_pays",
            SettingKind.CHART,
            {"natural": 2, "five_card_charlie": 2, "three_sevens": 3, "six_seven_eight": 2},
            "the banker pays N times the bet: a natural; five cards of 21 or under (doubling for each card "
            "more); 7-7-7; 8-7-6",
        ),
        Setting(
            "dealer_natural_collects",
            SettingKind.INT,
            2,
            "a banker's natural collects N times each bet (a player natural pays just the bet)",
            minimum=1,
            maximum=5,
        ),
        *_SHARED,
        *LIMIT_SETTINGS,
    )
    bet_types = {MAIN_BET: BetSpec("The seat's bet against the banker; doubles and splits add stakes")}

    def carry_over(self, previous: Mapping[str, Any] | None) -> tuple[Json, list[Any] | None]:
        """The bank passes: the next round opens with the banker the last one named (``outcome.next_banker``)."""
        outcome = previous.get("outcome") if isinstance(previous, Mapping) else None
        if isinstance(outcome, Mapping) and isinstance(outcome.get("next_banker"), int):
            return {"banker_seat": outcome["next_banker"]}, None
        return super().carry_over(previous)
    def rules(self, config: Mapping[str, Any]) -> Rules:
        return Rules.of(config, pontoon=True)

    def check_config(self, config: dict[str, Any]) -> None:
        banker = config["banker_seat"]
        if banker is not None and banker > config["seats"]:
            raise EngineError(
                "bad_config",
                f"config.banker_seat must be a seat from 1 to {config['seats']}",
                field="config.banker_seat", params={"seats": config['seats']},
            )

    def play(self, rnd: Round) -> Json:
        if rnd.config["banker_seat"] is None:
            raise EngineError(
                "bad_config", "pontoon needs config.banker_seat: the seat holding the bank", field="config.banker_seat"
            )
        table = Table(self.rules(rnd.config), rnd.bets)
        for index, event in enumerate(rnd.events):
            table.apply(event, index)
        return table.report()

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1, rounds: int | None = None) -> list[EdgeRow]:
        """The banker's edge over one punter, by seeded simulation."""
        cfg = self.resolve_config(config)
        rules = self.rules(cfg)
        rounds = rounds or SIMULATED_ROUNDS
        mean, half = simulate(rules, rounds, seed)
        method = (
            f"seeded simulation (random.Random({seed})) of {rounds:,} rounds: one punter playing casino "
            "basic strategy (standing on any charlie it could bust), the banker drawing to 17; "
            f"{rules.decks}-pack shuffled at 75 %; 95 % CI from the per-round spread"
        )
        return [
            EdgeRow(
                MAIN_BET,
                -mean,
                method,
                ci95=(-mean - half, -mean + half),
                note="the banker's edge: a player holds the bank, not the house",
            )
        ]


# -- simulation (house edge) and playing a round out (tests, benchmark, fixtures) -------------
SIMULATED_ROUNDS = 1_000_000
PENETRATION = 0.75


def round_player(rules: Rules) -> Callable[[Callable[[], int]], float]:
    """A function that plays one single-seat round from ``draw()`` (card values, ace 1) and
    returns the seat's net in units of its bet, with basic strategy and the same rules as the
    engine. Cards are drawn in physical order: player, dealer, player, dealer, then the draws.

    Most rounds take the fast path (tables of the first decision and of hit-or-stand per up
    card); a round whose first decision is a split goes through the general path. The tests
    replay both against the engine card for card.
    """
    strategy = BasicStrategy(dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split)
    code = strategy.code
    pontoon = rules.pontoon
    num, den = rules.blackjack_pays
    natural_pays = float(rules.bonus["natural"]) if pontoon else num / den
    natural_vs_natural = -1.0 if pontoon else 0.0
    collects = -float(rules.dealer_natural_collects) if pontoon else -1.0
    h17 = rules.dealer_hits_soft_17 and not pontoon
    das, rsa, max_splits = rules.double_after_split, rules.resplit_aces, rules.max_splits
    surrender = rules.surrender and not pontoon
    may_double = rules.may_double
    bonus = rules.bonus
    charlie, sevens, six_seven_eight = (
        bonus.get("five_card_charlie", 0),
        bonus.get("three_sevens", 0),
        bonus.get("six_seven_eight", 0),
    )

    def first_code(up: int, a: int, b: int) -> str:
        hard = a + b
        soft = (a == 1 or b == 1) and hard <= 11
        total = hard + 10 if soft else hard
        can_split = a == b and max_splits > 0
        return code(total, soft, a if can_split else 0, up, may_double(total, soft), can_split, surrender)

    # [up][first card][second card] → H S D P R; [up][total] → hit? for hands of three cards or more
    first = [[[""] * 11] * 11] + [
        [[""] * 11] + [["", *(first_code(up, a, b) for b in range(1, 11))] for a in range(1, 11)] for up in range(1, 11)
    ]
    hit_hard = [[]] + [
        [4 <= t < 22 and code(t, False, 0, up, False, False, False) == "H" for t in range(23)] for up in range(1, 11)
    ]
    hit_soft = [[]] + [
        [12 <= t < 22 and code(t, True, 0, up, False, False, False) == "H" for t in range(23)] for up in range(1, 11)
    ]

    def dealer_total(hard: int, ace: bool, draw: Callable[[], int]) -> int:
        while True:
            if ace and hard <= 11:
                total = hard + 10
                if total > 17 or (total == 17 and not h17):
                    return total
            elif hard >= 17:
                return hard
            card = draw()
            hard += card
            if card == 1:
                ace = True

    def play(draw: Callable[[], int]) -> float:
        p1 = draw()
        d1 = draw()
        p2 = draw()
        d2 = draw()
        natural = p1 + p2 == 11 and (p1 == 1 or p2 == 1)
        if d1 + d2 == 11 and (d1 == 1 or d2 == 1):
            return natural_vs_natural if natural else collects
        if natural:
            return natural_pays
        up = d2 if pontoon else d1
        action = first[up][p1][p2]
        if action == "P":
            return play_split(p1, p2, d1, d2, up, draw)
        if action == "R":
            return -0.5
        hard = p1 + p2
        ace = p1 == 1 or p2 == 1
        stake = 1.0
        n = 2
        last = p2
        if action == "D":
            last = draw()
            hard += last
            n = 3
            stake = 2.0
            if last == 1:
                ace = True
            if hard > 21:
                return -2.0
        elif action == "H":
            hits, hits_soft = hit_hard[up], hit_soft[up]
            while True:
                last = draw()
                hard += last
                n += 1
                if last == 1:
                    ace = True
                if hard > 21:
                    return -1.0
                if ace and hard <= 11:
                    if hard == 11:
                        break
                    if pontoon and n >= 5:  # a charlie that cannot bust draws on
                        continue
                    if not hits_soft[hard + 10]:
                        break
                else:
                    if hard == 21 or (pontoon and n >= 5 and hard > 11):
                        break
                    if pontoon and n >= 5:
                        continue
                    if not hits[hard]:
                        break
        total = hard + 10 if ace and hard <= 11 else hard
        if pontoon:
            if n >= 5:
                return stake * charlie * 2 ** (n - 5)
            if n == 3 and total == 21:
                if p1 == p2 == last == 7:
                    return stake * sevens
                if sorted((p1, p2, last)) == [6, 7, 8]:
                    return stake * six_seven_eight
        dealer = dealer_total(d1 + d2, d1 == 1 or d2 == 1, draw)
        if dealer > 21 or total > dealer:
            return stake
        if total < dealer or pontoon:
            return -stake
        return 0.0

    def play_split(p1: int, p2: int, d1: int, d2: int, up: int, draw: Callable[[], int]) -> float:
        hands = [[p1, p2]]
        stood: list[tuple[int, int, int, list[int]]] = []
        net = 0.0
        splits = 0
        i = 0
        while i < len(hands):
            h = hands[i]
            stake = 1
            if len(h) == 1:
                h.append(draw())
            while True:
                hard = sum(h)
                soft = 1 in h and hard <= 11
                total = hard + 10 if soft else hard
                n = len(h)
                if total > 21:
                    net -= stake
                    break
                is_split = len(hands) > 1
                if total == 21 or (stake == 2 and n == 3):
                    stood.append((total, stake, n, h))
                    break
                if is_split and h[0] == 1 and n == 2:
                    if rsa and h[1] == 1 and splits < max_splits:
                        splits += 1
                        hands.append([h.pop()])
                        h.append(draw())
                        continue
                    stood.append((total, stake, n, h))
                    break
                if pontoon and n >= 5:
                    if hard <= 11:
                        h.append(draw())
                        continue
                    stood.append((total, stake, n, h))
                    break
                can_split = n == 2 and h[0] == h[1] and splits < max_splits and (h[0] != 1 or not is_split or rsa)
                can_double = n == 2 and (das or not is_split) and may_double(total, soft)
                can_surrender = surrender and n == 2 and not is_split
                a = code(total, soft, h[0] if can_split else 0, up, can_double, can_split, can_surrender)
                if a == "H":
                    h.append(draw())
                elif a == "S":
                    stood.append((total, stake, n, h))
                    break
                elif a == "D":
                    stake = 2
                    h.append(draw())
                elif a == "P":
                    splits += 1
                    hands.append([h.pop()])
                    h.append(draw())
                else:
                    net -= 0.5
                    break
            i += 1
        live = []
        for total, stake, n, h in stood:
            if pontoon and n >= 5:
                net += stake * charlie * 2 ** (n - 5)
            elif pontoon and n == 3 and h == [7, 7, 7]:
                net += stake * sevens
            elif pontoon and n == 3 and sorted(h) == [6, 7, 8]:
                net += stake * six_seven_eight
            else:
                live.append((total, stake))
        if not live:
            return net
        dealer = dealer_total(d1 + d2, d1 == 1 or d2 == 1, draw)
        for total, stake in live:
            if dealer > 21 or total > dealer:
                net += stake
            elif total < dealer or (pontoon and total == dealer):
                net -= stake
        return net

    return play


def simulate(rules: Rules, rounds: int, seed: int) -> tuple[float, float]:
    """Mean net per round (units of the bet) over ``rounds`` simulated rounds, and its 95 % half-width."""
    rng = random.Random(seed)
    base = [min(v, 10) for v in range(1, 14)] * 4 * rules.decks
    size = len(base)
    reserve = size - int(size * PENETRATION)  # the cards behind the cut card

    def shuffled() -> list[int]:
        # sorting by random 32-bit keys shuffles in C; a tie (p < 1e-5 a shoe) keeps the prior order
        keys = array("I", rng.randbytes(4 * size))
        return [base[i] for i in sorted(range(size), key=keys.__getitem__)]

    def behind_the_shoe() -> Iterator[int]:
        # a round that runs past the last card is finished from the reshuffled discards
        while True:
            yield from shuffled()

    play = round_player(rules)
    total = 0.0
    squares = 0.0
    left = 0
    cards: Iterator[int] = iter(())
    draw: Callable[[], int] = cards.__next__
    for _ in range(rounds):
        if left <= reserve:
            cards = iter(shuffled())
            draw = chain(cards, behind_the_shoe()).__next__
        net = play(draw)
        left = length_hint(cards)
        total += net
        squares += net * net
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0)
    return mean, 1.96 * math.sqrt(variance / rounds)


Chooser = Callable[[Json, Json], Json]


def basic_chooser(rules: Rules) -> Chooser:
    """A chooser for :func:`play_out`: basic strategy, never insurance, the Pontoon banker draws to 17."""
    strategy = BasicStrategy(dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split)

    def choose(step: Json, out: Json) -> Json:
        allowed = step["allowed"]
        if A_NO_INSURANCE in allowed:
            return {"seat": step["seat"], "action": A_NO_INSURANCE.value}
        hands = out["hands"]
        if step["hand"] == DEALER:
            return {"seat": step["seat"], "action": "hit" if hands[DEALER]["total"] < 17 else "stand"}
        seat, index = step["seat"], step["hand"]
        hand = next(h for h in hands.values() if h.get("hand") == index and h.get("seat") == seat)
        values = [VALUES[c[0]] for c in hand["cards"]]
        if rules.pontoon and len(values) >= 5:
            action = "hit" if sum(values) <= 11 else "stand"
        else:
            dealer = hands[DEALER]["cards"]
            up = VALUES[dealer[-1][0]] if rules.pontoon else VALUES[dealer[0][0]]
            action = strategy.decide(values, up, allowed)
        return {"seat": seat, "action": action, "hand": index}

    return choose


def play_out(
    engine: Engine, config: Mapping[str, Any], bets: list[Json], draw: Callable[[], str], choose: Chooser | None = None
) -> tuple[Json, Json]:
    """Deal and play one round to the end, returning the round document and the engine's answer.

    Cards come from ``draw()`` in physical order: the initial deal, then (blackjack) the hole
    card, which is entered where the engine asks for it, then every draw. ``choose(next, out)``
    makes each seat's choice (basic strategy by default); the peek is answered from the hole card.
    Used by the tests, the benchmark and to build fixtures.
    """
    doc: Json = {"game": engine.name, "config": dict(config), "bets": bets, "events": []}
    events: list[Json] = doc["events"]
    rnd = engine.load(doc)
    rules = Rules.of(rnd.config, pontoon=engine.name == "pontoon")
    if choose is None:
        choose = basic_chooser(rules)
    hole: str | None = None  # dealt face down, entered when the engine asks for it
    initial = 2 * len({b["seat"] for b in bets if b["type"] == MAIN_BET}) + (2 if rules.pontoon else 1)
    while True:
        out = engine.play(engine.load(doc))
        step = out["next"]
        if step is None:
            return doc, out
        if step["expect"] == "card":
            if hole is not None and step["to"] == DEALER:
                card, hole = hole, None
            else:
                card = draw()
                if initial:
                    initial -= 1
                    if not initial and not rules.pontoon:
                        hole = draw()
            events.append({"card": card, "to": step["to"]})
        elif A_PEEK in step["allowed"]:
            assert hole is not None
            up = out["hands"][DEALER]["cards"][0]
            result = "blackjack" if is_natural([up[0], hole[0]]) else "no_blackjack"
            events.append({"action": "peek", "result": result})
        else:
            events.append(choose(step, out))


BLACKJACK = Blackjack()
PONTOON = Pontoon()
ENGINES: dict[str, Engine] = {"blackjack": BLACKJACK, "pontoon": PONTOON}


class ShoeSettler:
    """Settle round after round as a shoe is dealt: the same :class:`Table` the document path
    replays (every card checked against the turn and against the shoe, every choice against the
    rules, the dealer's draws against S17/H17), without the round-document envelope (no parsing
    of config and bets per round, no report) — for replaying recorded shoes and simulations.

    The shoe is the dealer's: cards are counted across rounds until :meth:`new_shoe`. A round
    that fails a check, or is not complete, changes nothing.

    >>> shoe = ShoeSettler()
    >>> shoe.round([(1, 100), (2, 500)], [{"card": "TS"}, {"card": "AH"}, {"card": "6H"}, {"card": "9D"},
    ...     {"card": "KD"}, {"seat": 1, "action": "stand"}, {"card": "KC"}, {"card": "8S"}])
    ([(1, 0, 'win', 100), (2, 0, 'win', 750)], -850)
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        self.rules = Rules.of(BLACKJACK.resolve_config(config or {}), pontoon=False)
        self.dealt: dict[str, int] = {}
        self._bets: dict[tuple[tuple[int, int], ...], list[Bet]] = {}

    def new_shoe(self) -> None:
        self.dealt = {}

    def round(
        self, stakes: Sequence[tuple[int, int]], events: Sequence[Mapping[str, Any]]
    ) -> tuple[list[tuple[int, int, str, int]], int]:
        """``stakes``: (seat, amount) of each main bet; ``events``: the cards and choices in
        document form. Returns each hand's (seat, hand, result, net), insurance as hand -1, and
        the house's net."""
        key = tuple(stakes)
        bets = self._bets.get(key)
        if bets is None:
            bets = [Bet(f"s{seat}", seat, MAIN_BET, amount) for seat, amount in stakes]
            if len(self._bets) < 4096:
                self._bets[key] = bets
        table = Table(self.rules, bets)
        table.shoe._dealt = dict(self.dealt)  # noqa: SLF001 - the round's shoe starts where the last ended
        for index, event in enumerate(events):
            table.apply(event, index)
        if table.phase is not PH_DONE:
            step = table.next_step()
            raise EngineError("incomplete_round", f"the round is not complete: {step['say'] if step else ''}")
        table.settle_hands()
        out = [(h.seat, h.index, h.result or "", h.net or 0) for s in table.seats for h in table.hands[s]]
        if table.peek is not None:
            won = table.peek == "blackjack"
            out += [(seat, -1, "win" if won else "lose", 2 * taken if won else -taken)
                    for seat, taken in table.insurance.items() if taken]
        self.dealt = table.shoe._dealt  # noqa: SLF001
        return out, -sum(row[3] for row in out)
