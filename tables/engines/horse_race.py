"""Horse Race (banked) and Calcutta Horse Race (a pool auction).

The four aces are the horses and stay out of the pack. The dealer deals a course row from
the other 48 cards; a suit with so many cards in the row that its horse can no longer win
(5 or more by default) voids the row and the course is dealt again. Race cards then move
the horse of their suit one step; a horse finishes on its ``cards_to_win``-th card.

``horse_race``: the house lays odds on each horse by how many cards of its suit lie in the
row (a chart: evens, 2-1, 3-1, 5-1, 10-1); the dealer may change them before the first bet;
the first horse home wins. ``calcutta_horse_race``: the horses are auctioned to the players,
longshots first, and the race runs until two horses have finished; the first horse's owner
takes 2/3 of the pool and the second's 1/3 (a remainder of 1 chip to the winner, 2 chips one
each).

>>> course = [{"card": c} for c in "2S 3S 4H 5H 6D 7D 8C 9C".split()]
>>> bet = {"bet": {"id": "b1", "seat": 1, "type": "horse", "horse": "S", "amount": 100}}
>>> race = [{"card": c} for c in "TS JS QS KS 5S 6S 7S 8S".split()]
>>> out = ENGINES["horse_race"].play(ENGINES["horse_race"].load({"game": "horse_race", "events": course + [bet] + race})).to_json()
>>> out["outcome"]["winner"], out["bets"][0]["result"], out["bets"][0]["net"]
('S', 'win', 300)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any, ClassVar

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
    expect_card,
    handover,
    parse_bet,
    rounding_setting,
    settled,
)
from tables.engines.cards import SUITS, Card, Shoe, parse_card
from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import BetField, Deck, FieldKind, bid_input, card_input, fresh_bet_id, open_bet
from tables.engines.money import Rounding, divide
from tables.engines.profile import Bank, Family, GameProfile, TurnOrder
from tables.engines.result import RoundResult
from tables.engines.speech import said, speech

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
HORSE_FIELD = BetField("horse", FieldKind.CHOICE, "Horse", options=tuple((h, n.capitalize()) for h, n in SUIT_NAMES.items()))
PER_SUIT = 12  # cards of each suit in the pack once the ace is out
ACES = tuple(Card("A", s) for s in SUITS)
MAX_SEAT = 99
COURSE, RACE = "course", "race"


def odds_text(odds: int) -> str:
    return "evens" if odds == 1 else "no bets" if odds == 0 else f"{odds}-1"


def parse_horse(value: Any) -> str | None:
    """A horse is named by its suit letter, ``S H D C`` (case-insensitive); None if it is not one."""
    if isinstance(value, str) and value.strip().upper() in SUIT_NAMES:
        return value.strip().upper()
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- exact race probabilities --------------------------------------------------------------


@lru_cache(maxsize=4096)
def win_chance(own: int, others: tuple[int, ...], target: int) -> Fraction:
    """P(a horse with ``own`` cards of its suit left in the pack finishes first).

    ``others`` are the other suits' cards left, ``target`` the cards a horse needs. The pack
    holds only these suits' cards (the others do not move anyone); the horse wins when its
    ``target``-th card comes while every other suit has fewer.
    """
    if own < target:
        return Fraction(0)
    total = own + sum(others)
    chance = Fraction(0)
    for drawn in product(*(range(min(n, target - 1) + 1) for n in others)):
        before = target - 1 + sum(drawn)  # cards dealt before the winning one
        ways = comb(own, target - 1)
        for n, b in zip(others, drawn):
            ways *= comb(n, b)
        chance += Fraction(ways, comb(total, before)) * Fraction(own - target + 1, total - before)
    return chance


def course_rows(course: int, cap: int) -> list[tuple[tuple[int, ...], int]]:
    """Every playable course row by suit counts (each ≤ ``cap``), with its number of deals."""
    rows = []
    for counts in product(range(min(cap, course) + 1), repeat=4):
        if sum(counts) == course:
            ways = 1
            for k in counts:
                ways *= comb(PER_SUIT, k)
            rows.append((counts, ways))
    return rows


def win_chance_by_row_cards(course: int, target: int) -> dict[int, Fraction]:
    """P(a horse wins | k cards of its suit lie in the course), k = 0.., over playable rows."""
    cap = PER_SUIT - target
    weight: dict[int, int] = {}
    wins: dict[int, Fraction] = {}
    for counts, ways in course_rows(course, cap):
        left = tuple(PER_SUIT - k for k in counts)
        k = counts[0]  # the horse's suit; the suits are exchangeable
        weight[k] = weight.get(k, 0) + ways
        wins[k] = wins.get(k, Fraction(0)) + ways * win_chance(left[0], tuple(sorted(left[1:])), target)
    return {k: wins[k] / weight[k] for k in sorted(weight)}


# -- one race, replayed event by event -----------------------------------------------------


class Stage(StrEnum):
    COURSE = "course"
    BETTING = "betting"  # horse_race: odds and bets
    AUCTION = "auction"  # calcutta_horse_race: bids and sales
    RACE = "race"
    OVER = "over"


class Race:
    """The state of one race after the events so far."""

    def __init__(self, engine: HorseRaceEngine, config: Mapping[str, Any]) -> None:
        self.engine = engine
        self.cfg = config
        self.course_len = config["course"]
        self.target = config["cards_to_win"]
        self.cap = PER_SUIT - self.target  # more of a suit in the row and its horse cannot win
        self.shoe = Shoe(1, exclude=ACES)
        self.course: list[Card] = []
        self.void: list[Json] = []
        self.stage = Stage.COURSE
        self.race: list[Card] = []
        self.moves = dict.fromkeys(SUIT_NAMES, 0)
        self.finished: list[str] = []
        # horse_race
        self.odds: dict[str, int] = {}
        self.odds_by: dict[str, str] = {}
        self.bets: list[Bet] = []
        self.bet_ids: set[str] = set()
        # calcutta_horse_race
        self.sold: dict[str, tuple[int, int]] = {}  # horse -> (seat, price)
        self.purchases: dict[str, Bet] = {}
        self.lot: str | None = None  # the horse under the hammer
        self.high: tuple[int, int] | None = None  # (seat, amount) of the best bid on it
        self.bids: list[Json] = []

    def row_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(SUIT_NAMES, 0)
        for card in self.course:
            counts[card.suit] += 1
        return counts

    # -- events ---------------------------------------------------------------------------
    def apply(self, index: int, event: Mapping[str, Any]) -> None:
        kinds = [k for k in ("card", *self.engine.event_kinds) if k in event]
        if len(kinds) != 1:
            names = ", ".join(("card", *self.engine.event_kinds))
            raise EngineError("bad_event", f"event {index}: expected one of: {names}", event=index)
        kind = kinds[0]
        extra = set(event) - ({"card", "to"} if kind == "card" else {kind})
        if extra:
            raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
        if kind == "card":
            self.take_card(index, event)
        elif kind == "odds":
            self.take_odds(index, event["odds"])
        elif kind == "bid":
            self.take_bid(index, event["bid"])
        elif self.engine.calcutta:
            self.take_sale(index, event["bet"])
        else:
            self.take_bet(index, event["bet"])

    def expected_to(self) -> str | None:
        if self.stage is Stage.COURSE:
            return COURSE
        if self.stage in (Stage.BETTING, Stage.RACE):
            return RACE
        return None

    def take_card(self, index: int, event: Mapping[str, Any]) -> None:
        expected = self.expected_to()
        if expected is None:
            if self.stage is Stage.OVER:
                raise EngineError("out_of_turn", f"event {index}: the race is over, no more cards", event=index)
            raise EngineError(
                "out_of_turn",
                f"event {index}: the auction is not over: "
                f"{', '.join(SUIT_NAMES[h] for h in SUIT_NAMES if h not in self.sold)} still to sell",
                event=index,
            )
        to = event.get("to")
        if to is not None and to != expected:
            if to not in (COURSE, RACE):
                raise EngineError("bad_event", f"event {index}: 'to' must be 'course' or 'race'", event=index)
            raise EngineError(
                "out_of_turn", f"event {index}: the next card goes to the {expected}, not the {to}", event=index, params={"expected": expected, "to": to}
            )
        try:
            card = parse_card(event["card"])
            if card.rank == "A":
                raise EngineError("bad_card", f"{card}: the aces are the horses, they are not in the pack", params={"card": str(card)})
            self.shoe.take(card)
        except EngineError as exc:
            raise exc.at(index) from None
        if self.stage is Stage.COURSE:
            self.course.append(card)
            counts = self.row_counts()
            if counts[card.suit] > self.cap:
                # the horse of that suit cannot win any more: the row is void and dealt again
                self.void.append(
                    {"cards": [str(c) for c in self.course], "suit": card.suit, "count": counts[card.suit]}
                )
                self.course = []
                self.shoe = Shoe(1, exclude=ACES)
            elif len(self.course) == self.course_len:
                self.open_stakes()
            return
        self.stage = Stage.RACE
        self.race.append(card)
        self.moves[card.suit] += 1
        if self.moves[card.suit] == self.target:
            self.finished.append(card.suit)
            if len(self.finished) == self.engine.places:
                self.stage = Stage.OVER

    def open_stakes(self) -> None:
        counts = self.row_counts()
        if self.engine.calcutta:
            self.stage = Stage.AUCTION
            return
        chart = self.cfg["odds"]
        self.odds = {h: chart[str(counts[h])] for h in SUIT_NAMES}
        self.odds_by = dict.fromkeys(SUIT_NAMES, "chart")
        self.stage = Stage.BETTING

    def take_odds(self, index: int, odds: Any) -> None:
        if self.stage is not Stage.BETTING or self.bets:
            raise EngineError(
                "out_of_turn",
                f"event {index}: the dealer sets odds after the course is dealt and "
                "before the first bet and the first race card",
                event=index,
            )
        if not isinstance(odds, Mapping) or not odds:
            raise EngineError(
                "bad_event",
                f'event {index}: odds must be an object of horse -> odds to 1, e.g. {{"S": 4}}',
                event=index,
            )
        new = {}
        for key, value in odds.items():
            horse = parse_horse(key)
            if horse is None:
                raise EngineError("bad_event", f"event {index}: {key!r} is not a horse (S, H, D or C)", event=index, params={"field": key})
            if not _is_int(value) or not 0 <= value <= 1000:
                raise EngineError(
                    "bad_event",
                    f"event {index}: odds on {SUIT_NAMES[horse]} must be a whole number "
                    "0 to 1000 (to 1; 0 takes no bets)",
                    event=index, params={"horse": horse},
                )
            new[horse] = value
        for horse, value in new.items():
            self.odds[horse] = value
            self.odds_by[horse] = "dealer"

    def take_bet(self, index: int, raw: Any) -> None:
        where = f"events[{index}].bet"
        bet = parse_bet(raw, self.engine.spec_for, where=where, event=index)
        if self.stage is not Stage.BETTING:
            doing = {
                Stage.COURSE: "the course is still being dealt",
                Stage.RACE: "the race has started",
                Stage.OVER: "the race is over",
            }[self.stage]
            raise EngineError("out_of_turn", f"event {index}: bet {bet.id}: {doing}", event=index, params={"bet": bet.id})
        if bet.id in self.bet_ids:
            raise EngineError(
                "duplicate_bet", f"event {index}: bet id {bet.id} is used twice", event=index, field=f"{where}.id", params={"bet": bet.id}
            )
        horse = parse_horse(bet.get("horse"))
        if horse is None:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: horse must be S, H, D or C",
                event=index,
                field=f"{where}.horse", params={"bet": bet.id},
            )
        if self.odds[horse] == 0:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: the house offers no odds on {SUIT_NAMES[horse]}",
                event=index,
                field=f"{where}.horse", params={"bet": bet.id, "horse": horse},
            )
        self.engine.check_limits(bet, self.cfg, event=index, where=where)
        self.bet_ids.add(bet.id)
        self.bets.append(Bet(bet.id, bet.seat, bet.type, bet.amount, {"horse": horse, "odds": self.odds[horse]}))

    def auction_next(self) -> list[str]:
        """The horses that may go under the hammer next: the unsold ones with most cards in the row."""
        if self.lot is not None:
            return [self.lot]
        counts = self.row_counts()
        unsold = [h for h in SUIT_NAMES if h not in self.sold]
        most = max(counts[h] for h in unsold)
        return [h for h in unsold if counts[h] == most]

    def take_bid(self, index: int, raw: Any) -> None:
        if self.stage is not Stage.AUCTION:
            raise EngineError(
                "out_of_turn",
                f"event {index}: bids are taken in the auction, after the course is dealt and before the race",
                event=index,
            )
        if not isinstance(raw, Mapping) or set(raw) != {"seat", "horse", "amount"}:
            raise EngineError("bad_event", f'event {index}: a bid is {{"seat", "horse", "amount"}}', event=index)
        seat, horse, amount = raw["seat"], parse_horse(raw["horse"]), raw["amount"]
        if not _is_int(seat) or not 1 <= seat <= MAX_SEAT:
            raise EngineError(
                "bad_bet",
                f"event {index}: seat must be a whole number from 1 to {MAX_SEAT}",
                event=index,
                field=f"events[{index}].bid.seat", params={"max_seat": MAX_SEAT},
            )
        if horse is None:
            raise EngineError(
                "bad_bet", f"event {index}: horse must be S, H, D or C", event=index, field=f"events[{index}].bid.horse"
            )
        if horse not in self.auction_next():
            up = " or ".join(SUIT_NAMES[h] for h in self.auction_next())
            why = "already sold" if horse in self.sold else f"{up} first (longshots go first)"
            raise EngineError(
                "out_of_turn",
                f"event {index}: {SUIT_NAMES[horse]}: {why}",
                event=index,
                field=f"events[{index}].bid.horse", params={"horse": horse},
            )
        lowest = self.cfg["min_bid"] if self.high is None else self.high[1] + self.cfg["min_raise"]
        if not _is_int(amount) or amount < lowest:
            raise EngineError(
                "bad_amount",
                f"event {index}: a bid on {SUIT_NAMES[horse]} must be a whole number of at least {lowest} chips",
                event=index,
                field=f"events[{index}].bid.amount",
                params={"horse": horse, "min": lowest, "reason": "bid_low", **({"amount": amount} if _is_int(amount) else {}),
                        **({"high": self.high[1]} if self.high is not None else {})},
            )
        if self.high is not None and self.high[0] == seat:
            raise EngineError(
                "illegal_action",
                f"event {index}: seat {seat} already holds the high bid on {SUIT_NAMES[horse]}",
                event=index,
                field=f"events[{index}].bid.seat", params={"seat": seat, "horse": horse, "reason": "high_bidder"},
            )
        self.lot = horse
        self.high = (seat, amount)
        self.bids.append({"seat": seat, "horse": horse, "amount": amount})

    def take_sale(self, index: int, raw: Any) -> None:
        """The hammer falls: the buyer's purchase arrives as a bet, the high bid's seat and amount."""
        where = f"events[{index}].bet"
        bet = parse_bet(raw, self.engine.spec_for, where=where, event=index)
        if self.stage is not Stage.AUCTION:
            raise EngineError(
                "out_of_turn", f"event {index}: bet {bet.id}: horses are sold in the auction", event=index, params={"bet": bet.id}
            )
        if bet.id in self.bet_ids:
            raise EngineError(
                "duplicate_bet", f"event {index}: bet id {bet.id} is used twice", event=index, field=f"{where}.id", params={"bet": bet.id}
            )
        horse = parse_horse(bet.get("horse"))
        if horse is None:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: horse must be S, H, D or C",
                event=index,
                field=f"{where}.horse", params={"bet": bet.id},
            )
        if self.lot != horse or self.high is None:
            raise EngineError(
                "out_of_turn", f"event {index}: {SUIT_NAMES[horse]} cannot be sold: it has no bid", event=index, params={"horse": horse}
            )
        seat, amount = self.high
        if (bet.seat, bet.amount) != (seat, amount):
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: the high bid on {SUIT_NAMES[horse]} is {amount} by seat {seat}, "
                f"not {bet.amount} by seat {bet.seat}",
                event=index, params={"bet": bet.id, "horse": horse, "amount": amount, "seat": seat, "amount_given": bet.amount, "seat_given": bet.seat},
            )
        self.bet_ids.add(bet.id)
        self.sold[horse] = self.high
        self.purchases[horse] = Bet(bet.id, seat, bet.type, amount, {"horse": horse})
        self.lot, self.high = None, None
        if len(self.sold) == len(SUIT_NAMES):
            self.stage = Stage.RACE

    # -- output ---------------------------------------------------------------------------
    def hands_doc(self) -> Json:
        counts = self.row_counts()
        # sorted by suit, the suit with most cards on the left (the rule book's Calcutta layout)
        order = sorted(SUIT_NAMES, key=lambda h: -counts[h])
        horses: Json = {}
        for h in SUIT_NAMES:
            doc: Json = {
                "row_cards": counts[h],
                "moves": self.moves[h],
                "cards": [str(c) for c in self.race if c.suit == h],
            }
            if self.odds:
                doc.update(odds=self.odds[h], odds_by=self.odds_by[h])
            if h in self.sold:
                doc.update(owner=self.sold[h][0], price=self.sold[h][1])
            horses[h] = doc
        return {
            COURSE: {
                "cards": [str(c) for c in self.course],
                "sorted": [str(c) for c in sorted(self.course, key=lambda c: order.index(c.suit))],
                "void": self.void,
            },
            RACE: {"cards": [str(c) for c in self.race], "finished": list(self.finished)},
            "horses": horses,
        }

    def next_step(self, bet_id: str | None = None) -> Json:
        """What comes next; ``bet_id`` is the id the engine gives a bet placed by the next event."""
        if self.stage is Stage.COURSE:
            say = speech("course_card", n=len(self.course) + 1, m=self.course_len)
            if self.void and not self.course:
                last = self.void[-1]
                say = (speech("course_void", n=last["count"], suit=last["suit"])
                       .then(". ", speech("course_again")).then(". ", say))
            return expect_card(COURSE, say, inp=card_input(COURSE, Deck.STANDARD_NO_ACES))
        if self.stage is Stage.BETTING:
            # bets (and, before the first, odds changes) may come; the first race card closes the betting
            betting = {
                "bet_types": list(self.engine.bet_types),
                "odds": dict(self.odds),
                "odds_open": not self.bets,
                "placed": [
                    {"id": b.id, "seat": b.seat, "horse": b.get("horse"), "amount": b.amount} for b in self.bets
                ],
            }
            say = speech("take_bets", odds=[speech("horse_odds", suit=h, odds=o) for h, o in self.odds.items()])
            offered = [h for h, o in self.odds.items() if o > 0]
            horse = BetField("horse", FieldKind.CHOICE, "Horse",
                             options=tuple((h, speech("horse_odds", suit=h, odds=self.odds[h]))
                                           for h in offered))
            bets_open = [open_bet(t, "Back a horse", [horse], bet_id=bet_id) for t in self.engine.bet_types]
            return expect_card(RACE, say, betting=betting,
                               inp=card_input(RACE, Deck.STANDARD_NO_ACES, bets_open=bets_open))
        if self.stage is Stage.AUCTION:
            up = self.auction_next()
            counts = self.row_counts()
            if self.high is None:
                say = speech("auction", bids=[speech("horse_in_row", suit=h, n=counts[h]) for h in up])
            else:
                say = (speech("high_bid", suit=up[0], amount=self.high[1], seat=self.high[0])
                       .then(". ", speech("any_more")))
            high_bid = None if self.high is None else {"seat": self.high[0], "amount": self.high[1]}
            minimum = self.cfg["min_bid"] if self.high is None else self.high[1] + self.cfg["min_raise"]
            # the bet event that sells the horse to the high bidder (give it an id)
            sell = (None if self.high is None
                    else {"type": "horse", "horse": up[0], "seat": self.high[0], "amount": self.high[1]})
            labels = {h: SUIT_NAMES[h].capitalize() for h in up}
            sell_event = None if sell is None else {"bet": {"id": bet_id, **sell}}
            return {
                "expect": "bid",
                "horses": up,
                "high_bid": high_bid,
                "minimum": minimum,
                "sell": sell,
                **said(say),
                "input": bid_input(up, labels, high_bid, minimum, None, sell_event),
            }
        leaders = [speech("horse_moves", suit=h, n=self.moves[h]) for h in SUIT_NAMES]
        return expect_card(RACE, speech("race_card", race=leaders), inp=card_input(RACE, Deck.STANDARD_NO_ACES))


# -- the engines ---------------------------------------------------------------------------

DEFAULT_ODDS = {"0": 1, "1": 2, "2": 3, "3": 5, "4": 10, "5": 0, "6": 0}


class HorseRaceEngine(Engine):
    """Both horse races share the course, the pack and the race; they differ in the stakes."""

    calcutta: ClassVar[bool] = False
    places: ClassVar[int] = 1  # horses that must finish before the race is over
    event_kinds: ClassVar[tuple[str, ...]] = ()

    def check_config(self, config: dict[str, Any]) -> None:
        cap = PER_SUIT - config["cards_to_win"]
        if 4 * cap < config["course"]:
            raise EngineError(
                "bad_config",
                f"config.course: a row of {config['course']} cards always holds more "
                f"than {cap} of some suit, so every row would be void",
                field="config.course", params={"course": config['course'], "cap": cap},
            )

    def parse_bets(self, raw_bets: Any, config: Mapping[str, Any]) -> tuple[Bet, ...]:
        if raw_bets:
            raise BetSetError(
                "bad_bet",
                f"{self.name} takes its stakes as events after the course is dealt "
                "(the odds depend on it), not in the top-level bets list",
                params={"game": self.name},
            )
        return ()

    def replay(self, rnd: Round) -> Race:
        race = Race(self, rnd.config)
        for index, event in enumerate(rnd.events):
            race.apply(index, event)
        return race

    def play(self, rnd: Round) -> RoundResult:
        race = self.replay(rnd)
        if race.stage is not Stage.OVER:
            return awaiting(race.next_step(fresh_bet_id(rnd.bets, rnd.events)), hands=race.hands_doc())
        return self.settle(rnd, race)

    def settle(self, rnd: Round, race: Race) -> RoundResult:  # pragma: no cover - abstract
        raise NotImplementedError


class HorseRace(HorseRaceEngine):
    name = "horse_race"
    title = "Horse Race"
    event_kinds = ("odds", "bet")
    settings = (
        Setting("course", SettingKind.INT, 8, "cards in the course row (Scarne: 6)", minimum=4, maximum=10),
        Setting(
            "cards_to_win",
            SettingKind.INT,
            8,
            "cards of its suit a horse needs to finish (Scarne: 6)",
            minimum=6,
            maximum=PER_SUIT,
        ),
        Setting(
            "odds",
            SettingKind.CHART,
            DEFAULT_ODDS,
            "odds laid on a horse (to 1) by the cards of its suit in the row; 0 takes no bets on it",
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        "horse": BetSpec("The horse of this suit (S H D C) finishes first; pays its odds to 1", required=("horse",),
                         fields=(HORSE_FIELD,))
    }
    profile = GameProfile(Family.BANKED, Deck.STANDARD_NO_ACES, before_deal=(), during_deal=("horse",),
                          turn_order=TurnOrder.ANY)

    def settle(self, rnd: Round, race: Race) -> RoundResult:
        winner = race.finished[0]
        rows = []
        for bet in race.bets:
            horse, odds = bet.get("horse"), bet.get("odds")
            if horse == winner:
                rows.append(bet_result(bet, "win", bet.amount * odds, 0, horse=horse, odds=odds))
            else:
                rows.append(bet_result(bet, "lose", -bet.amount, 0, horse=horse, odds=odds))
        counts = race.row_counts()
        outcome = {
            "winner": winner,
            "row_cards": counts,
            "odds": dict(race.odds),
            "odds_by": dict(race.odds_by),
            "redeals": len(race.void),
            "race_cards": len(race.race),
        }
        say = speech("horse_wins", suit=winner, odds=race.odds[winner])
        return settled(hands=race.hands_doc(), outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact: over every playable course row, the chance that a horse with k row cards wins."""
        cfg = self.resolve_config(config)
        chances = win_chance_by_row_cards(cfg["course"], cfg["cards_to_win"])
        method = (
            f"exact enumeration over course rows of {cfg['course']} from the 48-card pack and the race "
            f"to {cfg['cards_to_win']} cards"
        )
        rows = []
        for k, p in chances.items():
            odds = cfg["odds"][str(k)]
            if odds:
                rows.append(
                    EdgeRow(
                        f"horse ({k} in row)",
                        1 - (odds + 1) * p,
                        method,
                        note=f"pays {odds_text(odds)}; wins {float(p):.2%} of races",
                    )
                )
        return rows


class CalcuttaHorseRace(HorseRaceEngine):
    name = "calcutta_horse_race"
    title = "Calcutta Horse Race"
    calcutta = True
    # the horses are auctioned (highest bid first, any seat) into one pool the placed horses share
    profile = GameProfile(Family.POOL, Deck.STANDARD_NO_ACES, before_deal=(), during_deal=("horse",),
                          bank=Bank.NOBODY, turn_order=TurnOrder.ANY)
    places = 2
    event_kinds = ("bid", "bet")
    settings = (
        Setting("course", SettingKind.INT, 7, "cards in the course row", minimum=4, maximum=10),
        Setting(
            "cards_to_win",
            SettingKind.INT,
            8,
            "cards of its suit a horse needs to pass the post",
            minimum=6,
            maximum=PER_SUIT,
        ),
        Setting("min_bid", SettingKind.INT, 1, "smallest opening bid, chips", minimum=1),
        Setting("min_raise", SettingKind.INT, 1, "each bid beats the last by at least this, chips", minimum=1),
        Setting(
            "split",
            SettingKind.CHART,
            {"first": 2, "second": 1},
            "the pool is shared first:second in these proportions",
        ),
        rounding_setting(
            "split_rounding",
            Rounding.HALF_UP,
            "rounding of the first horse's share (the second "
            "takes the rest); half_up gives the rule book's rule: 1 odd chip to the first, 2 one each",
        ),
        Setting(
            "carry_in",
            SettingKind.INT,
            0,
            "chips carried into the pool (filled by the service from the "
            "ledger; the pool is always paid out whole, so normally 0)",
            minimum=0,
        ),
        *LIMIT_SETTINGS,  # accepted for every table; the auction has its own min_bid and min_raise
    )
    bet_types = {
        "horse": BetSpec(
            "The purchase of a horse (S H D C) at auction, by the high bidder for the high bid; the event that sells "
            "it. Placed horses share the pool",
            required=("horse",),
            limits_apply=False,
            fields=(HORSE_FIELD,),
        )
    }

    def check_config(self, config: dict[str, Any]) -> None:
        super().check_config(config)
        if config["split"]["first"] + config["split"]["second"] == 0:
            raise EngineError("bad_config", "config.split: the shares cannot both be 0", field="config.split")

    def settle(self, rnd: Round, race: Race) -> RoundResult:
        first_horse, second_horse = race.finished
        stakes = sum(price for _, price in race.sold.values())
        pot = rnd.config["carry_in"] + stakes
        first, second = split_pool(pot, rnd.config["split"], Rounding(rnd.config["split_rounding"]))
        shares = {first_horse: (first, 1), second_horse: (second, 2)}
        rows = []
        for horse in SUIT_NAMES:
            bet = race.purchases[horse]
            price = bet.amount
            share, place = shares.get(horse, (0, None))
            rows.append(
                bet_result(bet, "win" if place else "lose", share - price, 0, horse=horse, place=place, paid=share,
                           handover=handover(at_bet=price, pay=share))
            )
        pool = {"carry_in": rnd.config["carry_in"], "stakes": stakes, "paid": first + second, "rake": 0, "carry_out": 0}
        outcome = {
            "first": first_horse,
            "second": second_horse,
            "row_cards": race.row_counts(),
            "owners": {h: race.sold[h][0] for h in SUIT_NAMES},
            "bids": race.bids,
            "pot": pot,
            "shares": {"first": first, "second": second},
            "redeals": len(race.void),
        }
        say = speech("horse_first", suit=first_horse, seat=race.sold[first_horse][0], amount=first).then(
            "; ", speech("horse_second", suit=second_horse, seat=race.sold[second_horse][0], amount=second))
        return settled(
            hands=race.hands_doc(),
            outcome=outcome,
            bets=rows,
            house={"net": 0, "commission": 0, "rake": 0},
            pool=pool,
            say=say,
        )

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """The house keeps nothing: the auction pool goes whole to the first two horses' owners."""
        cfg = self.resolve_config(config)
        chances = win_chance_by_row_cards(cfg["course"], cfg["cards_to_win"])
        note = "; ".join(f"{k} in row wins {float(p):.2%}" for k, p in chances.items())
        return [EdgeRow("horse", Fraction(0), "exact: no rake, the pool is paid out whole", note=note)]


def split_pool(pot: int, split: Mapping[str, int], rounding: Rounding) -> tuple[int, int]:
    """The first and second horses' shares of ``pot``; the first share is rounded, the second takes the rest.

    >>> [split_pool(p, {"first": 2, "second": 1}, Rounding.HALF_UP) for p in (30, 31, 32)]
    [(20, 10), (21, 10), (21, 11)]
    """
    first = divide(pot * split["first"], split["first"] + split["second"], rounding)
    return first, pot - first


ENGINES: dict[str, HorseRaceEngine] = {e.name: e for e in (HorseRace(), CalcuttaHorseRace())}
