"""Let It Ride: three equal bets on a five-card hand, two of which the player may pull back.

Each seat's ``ride`` bet stands for three equal bets of ``amount`` (the circles 1, 2 and $).
The cards are entered in this order: three cards to each seat with a bet, seat by seat in seat
order; each seat's choice for bet 1 (``pull_back`` or ``let_it_ride``) in seat order; the first
community card as the dealer turns it up; each seat's choice for bet 2; the second community
card. The seat's three cards and the two community cards are its hand; each bet still riding
wins ``N × amount`` by the ``pays`` chart, or loses ``amount`` below a pair of tens.

>>> doc = {"game": "let_it_ride", "config": {}, "bets": [{"id": "r1", "seat": 1, "type": "ride", "amount": 100}],
...        "events": [{"card": c} for c in ["TS", "TD", "4C"]]
...                  + [{"seat": 1, "action": "let_it_ride"}, {"card": "9H"}, {"seat": 1, "action": "pull_back"},
...                     {"card": "KD"}]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> row = out["bets"][0]
>>> row["result"], row["net"], row["riding"], row["hand"], out["house"]["net"]
('win', 200, [True, False, True], 'pair of tens', -200)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
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
    settled,
)
from tables.engines.card_events import read_card_event
from tables.engines.cards import Card, Shoe
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.poker import (
    FLUSH_TABLE,
    RANK_COUNTS_TABLE,
    RANK_UNIT,
    Category,
    best5,
    category_of,
    chart_line,
    hand_name,
    make_rank,
)
from tables.engines.profile import Family, GameProfile, OnePerSeat
from tables.engines.result import RoundResult
from tables.engines.speech import speech

RIDE = "ride"
COMMUNITY = "community"
PULL_BACK, LET_IT_RIDE = "pull_back", "let_it_ride"
SEAT_CARDS = 3

PAYS = {
    "royal_flush": 1000,
    "straight_flush": 200,
    "four_of_a_kind": 50,
    "full_house": 11,
    "flush": 8,
    "straight": 5,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "tens_or_better": 1,
}

TENS = make_rank(Category.PAIR, 9)
"""The lowest paying hand: a pair of tens with nothing behind it (every real pair of tens is above)."""


def pay_line(rank: int) -> str | None:
    """The chart line a five-card rank pays on, or None when the hand loses (below a pair of tens)."""
    if rank < TENS:
        return None
    if category_of(rank) is Category.PAIR:
        return "tens_or_better"
    return chart_line(rank)


@dataclass
class SeatHand:
    seat: int
    bet: Bet
    cards: list[Card] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)  # bet 1, bet 2: pull_back or let_it_ride


@dataclass
class LetItRideTable:
    seats: list[SeatHand]
    community: list[Card] = field(default_factory=list)

    def next_step(self) -> tuple[str, Any] | None:
        """``("card", to)``, ``("action", (seat, bet number))`` or None when the round is complete."""
        if not self.seats:
            return None
        for hand in self.seats:
            if len(hand.cards) < SEAT_CARDS:
                return ("card", f"seat:{hand.seat}")
        decided = len(self.community) + 1  # bet 1 before the first community card, bet 2 before the second
        if decided <= 2:
            for hand in self.seats:
                if len(hand.choices) < decided:
                    return ("action", (hand.seat, decided))
        if len(self.community) < 2:
            return ("card", COMMUNITY)
        return None

    def hand(self, seat: int) -> SeatHand:
        return next(h for h in self.seats if h.seat == seat)


class LetItRide(Engine):
    name = "let_it_ride"
    title = "Let It Ride"
    settings = (
        Setting("pays", SettingKind.CHART, PAYS, "each riding bet wins N to 1 by the final hand; below tens loses"),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        RIDE: BetSpec(
            "Three equal bets of amount each (circles 1, 2, $); bets 1 and 2 may be pulled back, $ always rides"
        ),
    }

    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(RIDE,),
                          one_per_seat=OnePerSeat((RIDE,), "its three bets", "why_has_three_bets"))

    def replay(self, rnd: Round) -> LetItRideTable:
        table = LetItRideTable([SeatHand(b.seat, b) for b in sorted(rnd.bets, key=lambda b: b.seat)])
        shoe = Shoe(1)
        for index, event in enumerate(rnd.events):
            step = table.next_step()
            if step is None:
                raise EngineError("out_of_turn", f"event {index}: the round is complete", event=index)
            kind, where = step
            if kind == "card":
                card = _read_card(event, index, where, shoe)
                if where == COMMUNITY:
                    table.community.append(card)
                else:
                    table.hand(int(where.split(":")[1])).cards.append(card)
            else:
                seat, number = where
                table.hand(seat).choices.append(_read_action(event, index, seat, number))
        return table

    def play(self, rnd: Round) -> RoundResult:
        table = self.replay(rnd)
        step = table.next_step()
        if step is None:
            return self.settle(rnd, table)
        kind, where = step
        if kind == "action":
            seat, number = where
            nxt = expect_action(
                seat, [PULL_BACK, LET_IT_RIDE], speech("pull_back_or_ride", seat=seat, n=number), bet=number
            )
        elif where == COMMUNITY:
            word = "first" if not table.community else "second"
            nxt = expect_card(COMMUNITY, speech(f"turn_{word}_community"))
        else:
            hand = table.hand(int(where.split(":")[1]))
            nxt = expect_card(where, speech("seat_card_of", seat=hand.seat, n=len(hand.cards) + 1, m=3))
        return awaiting(nxt, hands=self.hands_doc(table))

    def hands_doc(self, table: LetItRideTable) -> Json:
        hands: Json = {}
        for h in table.seats:
            doc: Json = {"cards": [str(c) for c in h.cards], "riding": _riding(h)}
            if len(table.community) == 2:
                doc["hand"] = hand_name(best5(h.cards + table.community)[0])
            hands[f"seat:{h.seat}"] = doc
        hands[COMMUNITY] = {"cards": [str(c) for c in table.community]}
        return hands

    def settle(self, rnd: Round, table: LetItRideTable) -> RoundResult:
        pays: Mapping[str, int] = rnd.config["pays"]
        rows = []
        winners = 0
        for h in table.seats:
            rank = best5(h.cards + table.community)[0]
            line = pay_line(rank)
            riding = _riding(h)
            n = sum(riding)
            unit = h.bet.amount
            net = n * unit * pays[line] if line is not None else -n * unit
            winners += line is not None
            rows.append(
                bet_result(h.bet, "win" if line is not None else "lose", net, staked=n * unit, riding=riding,
                           hand=hand_name(rank), line=line)
            )  # fmt: skip
        outcome: Json = {"community": [str(c) for c in table.community], "paying_hands": winners}
        say = (speech("community_paying", cards=outcome["community"], count=winners) if table.seats
               else speech("no_bets"))
        return settled(hands=self.hands_doc(table), outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge -----------------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact: every three-card start, every fourth and fifth card, optimal pull-back decisions."""
        cfg = self.resolve_config(config)
        value, ride1, ride2 = optimal_value(tuple(sorted(cfg["pays"].items())))
        method = (
            "exact enumeration of all 22,100 three-card starts × 49 fourth × 48 fifth cards "
            "(all 2,598,960 hands in every order), pulling back a bet whenever that returns more"
        )
        wagered = 1 + ride1 + ride2
        note = (
            f"per unit (one of the three bets); bet 1 rides {float(ride1) * 100:.2f} % and bet 2 "
            f"{float(ride2) * 100:.2f} % of the time, {float(-value / wagered) * 100:.3f} % of all money wagered"
        )
        return [EdgeRow(RIDE, -value, method, note=note)]


def _riding(hand: SeatHand) -> list[bool]:
    return [c == LET_IT_RIDE for c in hand.choices] + [True] * (2 - len(hand.choices)) + [True]


def _read_card(event: Mapping[str, Any], index: int, expected_to: str, shoe: Shoe) -> Card:
    return read_card_event(
        event, index, expected_to, shoe,
        not_a_card=lambda e: f"a card for {expected_to} is due next, not {_event_word(e)}",
        is_place=lambda to: isinstance(to, str) and (to == COMMUNITY or to.startswith("seat:")),
        places_said=lambda: "'community' or 'seat:N'",
    )


def _event_word(event: Mapping[str, Any]) -> str:
    return "an action" if "action" in event else "a bet" if "bet" in event else "this event"


def _read_action(event: Mapping[str, Any], index: int, seat: int, number: int) -> str:
    if "action" not in event:
        what = "a card" if "card" in event else "a bet" if "bet" in event else "this event"
        raise EngineError(
            "out_of_turn", f"event {index}: seat {seat} must pull back bet {number} or let it ride, not {what}",
            event=index, params={"seat": seat, "number": number},
        )  # fmt: skip
    extra = set(event) - {"seat", "action"}
    if extra:
        raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
    who = event.get("seat")
    if type(who) is not int or who != seat:  # a bool or 1.0 is not a seat number
        raise EngineError("out_of_turn", f"event {index}: seat {seat} chooses next, not {event.get('seat')!r}",
                          event=index, params={"seat": seat, "seat_given": who, **({"reason": "seat_turn"} if type(who) is int else {})})  # fmt: skip
    action = event["action"]
    if action not in (PULL_BACK, LET_IT_RIDE):
        raise EngineError(
            "illegal_action", f"event {index}: seat {seat} may pull_back or let_it_ride, not {action!r}", event=index, params={"seat": seat, "action": action}
        )
    return str(action)


# -- exact house edge ----------------------------------------------------------------------------
#
# Only ranks matter except for flushes, which need all five cards in one suit; so a partial hand
# is its rank multiset plus whether it is still all one suit. A four-card hand's completions are
# counted by rank (4 − held cards of each rank), the one suited card of each missing rank
# becoming a flush; a three-card hand's fourth cards likewise.


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Rank-count vectors (13 entries) of ``size`` cards, at most four of a rank."""
    out: list[tuple[int, ...]] = []
    counts = [0] * 13

    def rec(r: int, left: int) -> None:
        if left == 0:
            out.append(tuple(counts))
            return
        if r == 13:
            return
        for c in range(min(4, left), -1, -1):
            counts[r] = c
            rec(r + 1, left - c)
        counts[r] = 0

    rec(0, size)
    return out


def _word(counts: tuple[int, ...]) -> int:
    return sum(c * RANK_UNIT[r] for r, c in enumerate(counts) if c)


def _mask(counts: tuple[int, ...]) -> int:
    return sum(1 << r for r, c in enumerate(counts) if c)


@cache
def completion_lines() -> dict[tuple[tuple[int, ...], bool], dict[str | None, int]]:
    """Per four-card hand (rank counts, all one suit?): how many of the 48 fifth cards end on each pay line."""
    out: dict[tuple[tuple[int, ...], bool], dict[str | None, int]] = {}
    for counts in _multisets(4):
        word, mask = _word(counts), _mask(counts)
        for suited in (False, True) if mask.bit_count() == 4 else (False,):
            lines: dict[str | None, int] = {}
            for r in range(13):
                left = 4 - counts[r]
                if not left:
                    continue
                line = pay_line(RANK_COUNTS_TABLE[word + RANK_UNIT[r]])
                if suited and not counts[r]:
                    flush = pay_line(FLUSH_TABLE[mask | 1 << r])
                    lines[flush] = lines.get(flush, 0) + 1
                    left -= 1
                if left:
                    lines[line] = lines.get(line, 0) + left
            out[(counts, suited)] = lines
    return out


@cache
def _four_card_sums(pays: tuple[tuple[str, int], ...]) -> dict[tuple[tuple[int, ...], bool], int]:
    """Per four-card hand: the sum over the 48 fifth cards of one riding bet's result, in units."""
    chart = dict(pays)
    return {
        key: sum(n * (chart[line] if line is not None else -1) for line, n in lines.items())
        for key, lines in completion_lines().items()
    }


def _start_sums(
    counts: tuple[int, ...], suited: bool, s4: Mapping[tuple[tuple[int, ...], bool], int]
) -> tuple[int, int, int]:
    """For a three-card start: (Σ over 4th and 5th cards of a riding bet, the same with bet 2's pull-backs, 4th cards riding bet 2)."""
    total = with_pullback = rides = 0
    for r in range(13):
        left = 4 - counts[r]
        if not left:
            continue
        four = counts[:r] + (counts[r] + 1,) + counts[r + 1 :]
        if suited and not counts[r]:  # the one fourth card that keeps the start all in one suit
            v = s4[(four, True)]
            total += v
            with_pullback += max(v, 0)
            rides += v > 0
            left -= 1
        v = s4[(four, False)]
        total += left * v
        with_pullback += left * max(v, 0)
        rides += left * (v > 0)
    return total, with_pullback, rides


def start_value(cards: Sequence[Card], pays: Mapping[str, int] = PAYS) -> Fraction:
    """A three-card start's expected result per unit over its three bets, pulling back whenever that pays."""
    counts = [0] * 13
    for card in cards:
        counts[card.high_index] += 1
    suited = len({c.suit for c in cards}) == 1
    s4 = _four_card_sums(tuple(sorted(pays.items())))
    total, with_pullback, _ = _start_sums(tuple(counts), suited, s4)
    return Fraction(max(total, 0) + with_pullback + total, 49 * 48)


@cache
def optimal_value(pays: tuple[tuple[str, int], ...]) -> tuple[Fraction, Fraction, Fraction]:
    """(expected result per unit, share of hands riding bet 1, share riding bet 2) under the best play.

    Bet 1 rides when the start's expected result is positive, bet 2 when the four cards' is;
    the $ bet always rides; a pulled-back bet returns 0.
    """
    s4 = _four_card_sums(pays)
    total = ride1 = ride2 = starts = 0
    for counts in _multisets(3):
        if _mask(counts).bit_count() == 3:  # three ranks: 4 starts in one suit, 60 others
            kinds: tuple[tuple[bool, int], ...] = ((True, 4), (False, 60))
        else:  # a pair (4 · C(4,2) = 24 starts) or trips (4)
            kinds = ((False, 24 if max(counts) == 2 else 4),)
        for suited, ways in kinds:
            s, with_pullback, rides = _start_sums(counts, suited, s4)
            total += ways * (max(s, 0) + with_pullback + s)
            ride1 += ways * 49 * (s > 0)
            ride2 += ways * rides
            starts += ways
    return Fraction(total, starts * 49 * 48), Fraction(ride1, starts * 49), Fraction(ride2, starts * 49)


ENGINE = LetItRide()
