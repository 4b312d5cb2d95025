"""Pai Gow Poker: 53 cards, seven to each hand, dice for the deal, the dealer set by the house way.

The round: three dice fix which position takes the first seven-card hand (the dealer counts as
position 1, then the seats counter-clockwise: seat 1 is the first player to the dealer's right);
the dealer enters each hand in play as seven cards, positions in dealing order; each seat then
sets its hand (five cards back, two front) or asks for the house way, in seat order; the
dealer's hand is set by the house way and every wager settles: both hands win → win less
commission, one each → push, both lose (copies go to the dealer) → lose; a fouled hand loses.

>>> hands = {"dealer": ["KS", "KD", "9H", "7C", "5S", "4D", "2C"],
...          "seat:1": ["AS", "AH", "QS", "QD", "JC", "8D", "3H"]}
>>> doc = {"game": "pai_gow_poker", "config": {},
...        "bets": [{"id": "b1", "seat": 1, "type": "wager", "amount": 1000}],
...        "events": [{"dice": [3, 2, 3]}]
...                  + [{"card": c, "to": "dealer"} for c in hands["dealer"]]
...                  + [{"card": c, "to": "seat:1"} for c in hands["seat:1"]]
...                  + [{"seat": 1, "action": "set", "back": ["AS", "AH", "JC", "8D", "3H"], "front": ["QS", "QD"]}]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> out["hands"]["dealer"]["back_hand"], out["hands"]["dealer"]["front_hand"]
('pair of kings', 'nine-seven high')
>>> out["bets"][0]["result"], out["bets"][0]["net"], out["bets"][0]["commission"], out["house"]["net"]
('win', 950, 50, -950)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
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
    chip_setting,
    expect_action,
    expect_card,
    rounding_setting,
    settled,
)
from tables.engines.cards import JOKER_CARD, Card, Shoe, full_deck
from tables.engines.errors import EngineError
from tables.engines.house_way import BUILT_IN, STANDARD, HouseWay, set_hand
from tables.engines.inputs import Deck, card_input, dice_input, set_hand_input
from tables.engines.money import Rounding, percent_of
from tables.engines.poker import (
    card_code,
    hand_name,
    hand_speech,
    rank_front2,
    rank_front2_codes,
    rank_paigow5,
    rank_paigow_codes,
)
from tables.engines.profile import Family, GameProfile, OnePerSeat
from tables.engines.result import RoundResult
from tables.engines.seat_cards import DEALER, read_card, read_cards, say_card_of
from tables.engines.speech import Speech, joined, said, speech

SEATS = 6  # one dealer against up to six players (rule book)
POSITIONS = SEATS + 1
HAND_SIZE = 7
WAGER = "wager"
SET, HOUSE_WAY = "set", "house_way"
PARTS = (("back", 5), ("front", 2))  # the hands a seat's seven cards are set into, and their sizes
WIN, LOSE, COPY = "win", "lose", "copy"


def position_name(position: int) -> str:
    """Position 1 is the dealer, position n + 1 is seat n (counter-clockwise from the dealer)."""
    return DEALER if position == 1 else f"seat:{position - 1}"


def first_position(dice_total: int) -> int:
    """The position that takes the first hand: totals 1, 8, 15 → the dealer (1); 2, 9, 16 → seat 1; …"""
    return (dice_total - 1) % POSITIONS + 1


def dealing_order(dice_total: int, seats: Sequence[int]) -> list[str]:
    """The hands in play (the dealer and ``seats``) in the order the dice give them their cards."""
    first = first_position(dice_total)
    in_play = {DEALER} | {position_name(s + 1) for s in seats}
    order = [position_name((first - 1 + k) % POSITIONS + 1) for k in range(POSITIONS)]
    return [p for p in order if p in in_play]


def front_vs(player: int, dealer: int) -> str:
    """win when the player's hand is higher; an identical rank is a copy and goes to the dealer."""
    if player > dealer:
        return WIN
    return COPY if player == dealer else LOSE


def wager_result(back: str, front: str) -> str:
    """Both hands win → win; one each → push; otherwise the dealer takes it."""
    if back == WIN and front == WIN:
        return "win"
    if back == WIN or front == WIN:
        return "push"
    return "lose"


@dataclass(frozen=True, slots=True)
class SeatHand:
    """A seat's seven cards as set, and how."""

    back: tuple[Card, ...]
    front: tuple[Card, ...]
    set_by: str  # "player" or "house_way"
    foul: bool = False  # the player's own setting fouled (back not above front)
    reset: bool = False  # …and the house re-set it by the house way (foul_rule "house_way")
    rule: str | None = None  # the house-way rule, when the house way set it


@dataclass
class PaiGowTable:
    """Where the round stands after replaying the events."""

    dice: tuple[int, int, int] | None = None
    order: list[str] = field(default_factory=list)
    cards: dict[str, list[Card]] = field(default_factory=dict)
    sets: dict[int, SeatHand] = field(default_factory=dict)

    def next_card_to(self) -> str | None:
        for position in self.order:
            if len(self.cards.get(position, [])) < HAND_SIZE:
                return position
        return None


def _cards_text(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _describe(event: Mapping[str, Any]) -> str:
    if "action" in event:
        return f"an action ({event.get('action')!r})"
    if "card" in event:
        return "a card"
    if "dice" in event:
        return "the dice"
    if "bet" in event:
        return "a bet"
    return "this event"


def house_way_of(config: Mapping[str, Any]) -> HouseWay:
    """The configured house way: a built-in one by name, or ``house_way_rules`` when ``custom``."""
    if config["house_way"] == "custom":
        return HouseWay.from_chart(config["house_way_rules"])
    return BUILT_IN[config["house_way"]]


class PaiGowPoker(Engine):
    name = "pai_gow_poker"
    title = "Pai Gow Poker"
    settings = (
        Setting("commission_bp", SettingKind.INT, 500, "commission on a winning wager, basis points (500 = 5 %)",
                minimum=0, maximum=2000),
        rounding_setting("commission_rounding", Rounding.DOWN,
                         "rounding of the commission to a whole minor unit (down: never more than the rate)"),
        chip_setting("commission"),
        Setting("house_way", SettingKind.CHOICE, "standard",
                "how the dealer's hand (and a player's, on request) is set: a built-in way, or custom "
                "(then house_way_rules)", choices=(*BUILT_IN, "custom")),
        Setting("house_way_rules", SettingKind.CHART, STANDARD.as_chart(),
                "the custom house way, one number per rule (see docs); only with house_way custom"),
        Setting("foul_rule", SettingKind.CHOICE, "lose",
                "a fouled hand (back not above front): lose the wager (rule book), or be re-set by the house way",
                choices=("lose", "house_way")),
        *LIMIT_SETTINGS,
    )  # fmt: skip
    bet_types = {
        WAGER: BetSpec("The seat's wager against the dealer: both hands win pays 1:1 less commission, "
                       "one each pushes, both lose (copies to the dealer) or a foul loses"),
    }  # fmt: skip

    def check_config(self, config: dict[str, Any]) -> None:
        if config["house_way"] != "custom":
            if config["house_way_rules"] != STANDARD.as_chart():
                raise EngineError(
                    "bad_config",
                    "config.house_way_rules only applies with house_way 'custom'",
                    field="config.house_way_rules",
                )
            return
        try:
            HouseWay.from_chart(config["house_way_rules"])
        except ValueError as exc:
            raise EngineError("bad_config", f"config.house_way_rules: {exc}", field="config.house_way_rules") from None

    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.seat > SEATS:
            raise EngineError("bad_bet", f"bet {bet.id}: the table has seats 1 to {SEATS}", field=f"{where}.seat", params={"bet": bet.id, "seats": SEATS})

    profile = GameProfile(Family.BANKED, Deck.STANDARD_JOKER, before_deal=(WAGER,),
                          one_per_seat=OnePerSeat((WAGER,), "a wager (one per seat)", "why_has_wager"), commission=True)

    # -- replay ---------------------------------------------------------------------------
    def replay(self, rnd: Round) -> PaiGowTable:
        """Apply the events in order, refusing the first that the rules do not allow."""
        way = house_way_of(rnd.config)
        seats = sorted(b.seat for b in rnd.bets)
        shoe = Shoe(1, jokers=1)
        table = PaiGowTable()
        for index, event in enumerate(rnd.events):
            if table.dice is None:
                table.dice = _read_dice(event, index)
                table.order = dealing_order(sum(table.dice), seats)
                continue
            to = table.next_card_to()
            if to is not None:
                card = read_card(event, index, to, table.order, shoe, describe=_describe, allow_joker=True)
                table.cards.setdefault(to, []).append(card)
                continue
            seat = next((s for s in seats if s not in table.sets), None)
            if seat is None:
                raise EngineError(
                    "out_of_turn", f"event {index}: the round is complete, nothing more is due", event=index
                )
            table.sets[seat] = self._read_setting(
                event, index, seat, table.cards[position_name(seat + 1)], rnd.config, way
            )
        return table

    def _read_setting(
        self,
        event: Mapping[str, Any],
        index: int,
        seat: int,
        hand: list[Card],
        config: Mapping[str, Any],
        way: HouseWay,
    ) -> SeatHand:
        if "action" not in event:
            raise EngineError(
                "out_of_turn", f"event {index}: seat {seat} must set the hand, not {_describe(event)}", event=index, params={"seat": seat}
            )
        who = event.get("seat")
        if isinstance(who, bool) or not isinstance(who, int):
            raise EngineError("bad_event", f"event {index}: 'seat' must be a seat number", event=index)
        if who != seat:
            raise EngineError(
                "out_of_turn", f"event {index}: seat {seat} sets the hand next, not seat {who}", event=index, params={"seat": seat, "seat_given": who, "reason": "seat_turn"}
            )
        action = event["action"]
        if action not in (SET, HOUSE_WAY):
            raise EngineError(
                "illegal_action",
                f"event {index}: seat {seat} may 'set' or ask for the 'house_way', not {action!r}",
                event=index, params={"seat": seat, "action": action},
            )
        allowed = {"seat", "action", "back", "front"} if action == SET else {"seat", "action"}
        extra = set(event) - allowed
        if extra:
            raise EngineError(
                "bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))} for '{action}'", event=index, params={"fields": sorted(extra), "action": action}
            )
        if action == HOUSE_WAY:
            s = set_hand(hand, way)
            return SeatHand(s.back, s.front, "house_way", rule=s.rule)
        back = read_cards(event.get("back"), 5, "back", index, allow_joker=True)
        front = read_cards(event.get("front"), 2, "front", index, allow_joker=True)
        if Counter(back + front) != Counter(hand):
            raise EngineError(
                "bad_event",
                f"event {index}: seat {seat}'s setting must use exactly its seven cards "
                f"({' '.join(_cards_text(hand))})",
                event=index, params={"seat": seat, "cards": _cards_text(hand)},
            )
        if rank_paigow5(back) > rank_front2(front):
            return SeatHand(tuple(back), tuple(front), "player")
        if config["foul_rule"] == "house_way":
            s = set_hand(hand, way)
            return SeatHand(s.back, s.front, "house_way", foul=True, reset=True, rule=s.rule)
        return SeatHand(tuple(back), tuple(front), "player", foul=True)

    # -- play -----------------------------------------------------------------------------
    def play(self, rnd: Round) -> RoundResult:
        table = self.replay(rnd)
        hands = _hands_doc(table)
        if table.dice is None:
            return awaiting({"expect": "dice", **said(speech("throw_dice")), "input": dice_input(3, 6)}, hands=hands)
        to = table.next_card_to()
        if to is not None:
            n = len(table.cards.get(to, []))
            say = say_card_of(to, n + 1, HAND_SIZE)
            if not table.cards:
                total = sum(table.dice)
                first = position_name(first_position(total))
                dice = (speech("dice_first_dealer", n=total) if first == DEALER
                        else speech("dice_first_seat", n=total, seat=int(first.split(":")[1])))
                say = dice.then(". ", say)
            step = expect_card(to, say, inp=card_input(to, Deck.STANDARD_JOKER))
            return awaiting(step, hands=hands, dice=list(table.dice), dealing_order=table.order)
        decided = [self._foul_row(b) for b in rnd.bets if b.seat in table.sets and _lost_by_foul(table.sets[b.seat])]
        seat = next((b.seat for b in sorted(rnd.bets, key=lambda b: b.seat) if b.seat not in table.sets), None)
        if seat is not None:
            hand = table.cards[position_name(seat + 1)]
            way = set_hand(hand, house_way_of(rnd.config))
            step = expect_action(
                seat,
                [SET, HOUSE_WAY],
                speech("set_or_house_way", seat=seat),
                hand=_cards_text(hand),
                inp=set_hand_input(
                    seat, _cards_text(hand), PARTS, {"back": _cards_text(way.back), "front": _cards_text(way.front)},
                    {"seat": seat, "action": SET}, {"seat": seat, "action": HOUSE_WAY},
                ),
            )
            return awaiting(step, hands=hands, bets=decided, dice=list(table.dice), dealing_order=table.order)
        return self.settle(rnd, table, hands)

    def check_set(self, cards: Sequence[str], hands: Mapping[str, Any]) -> str | None:
        """Why setting ``cards`` (a seat's seven) as ``hands`` (``back``, ``front``) fouls, in a dealer's
        words, or None when it does not; a setting that does not use exactly the cards is refused.

        >>> ENGINE.check_set(["KS", "KD", "9H", "9C", "5S", "4D", "2C"],
        ...                  {"back": ["9H", "9C", "5S", "4D", "2C"], "front": ["KS", "KD"]})
        "the front's pair of kings outranks the back's pair of nines"
        """
        seven = read_cards(list(cards), HAND_SIZE, "cards", 0, allow_joker=True)
        back = read_cards(hands.get("back"), 5, "back", 0, allow_joker=True)
        front = read_cards(hands.get("front"), 2, "front", 0, allow_joker=True)
        if Counter(back + front) != Counter(seven):
            raise EngineError(
                "bad_set", f"the setting must use exactly the seven cards ({' '.join(_cards_text(seven))})",
                params={"cards": _cards_text(seven)},
            )
        back_rank, front_rank = rank_paigow5(back), rank_front2(front)
        if back_rank > front_rank:
            return None
        if front_rank > back_rank:
            return f"the front's {hand_name(front_rank)} outranks the back's {hand_name(back_rank)}"
        return f"the back's {hand_name(back_rank)} must outrank the front's {hand_name(front_rank)}"

    def _foul_row(self, bet: Bet) -> Json:
        return bet_result(bet, "lose", -bet.amount, foul=True, back=None, front=None)

    def settle(self, rnd: Round, table: PaiGowTable, hands: Json) -> RoundResult:
        cfg = rnd.config
        dealer = set_hand(table.cards[DEALER], house_way_of(cfg))
        d_back, d_front = rank_paigow5(dealer.back), rank_front2(dealer.front)
        hands[DEALER].update(_set_doc(dealer.back, dealer.front, d_back, d_front), set_by="house_way", rule=dealer.rule)
        rows: list[Json] = []
        calls: list[Speech] = []
        for bet in sorted(rnd.bets, key=lambda b: b.seat):
            seat_hand = table.sets[bet.seat]
            if _lost_by_foul(seat_hand):
                rows.append(self._foul_row(bet))
                calls.append(speech("seat_fouls", seat=bet.seat))
                continue
            back = front_vs(rank_paigow5(seat_hand.back), d_back)
            front = front_vs(rank_front2(seat_hand.front), d_front)
            result = wager_result(back, front)
            extra: dict[str, Any] = {"foul": seat_hand.foul, "back": back, "front": front}
            if result == "win":
                commission = percent_of(bet.amount, cfg["commission_bp"], Rounding(cfg["commission_rounding"]),
                                        cfg["chip"])
                rows.append(bet_result(bet, "win", bet.amount - commission, commission, **extra))
                calls.append(speech("seat_wins", seat=bet.seat))
            elif result == "push":
                rows.append(bet_result(bet, "push", 0, **extra))
                calls.append(speech("seat_pushes", seat=bet.seat))
            else:
                rows.append(bet_result(bet, "lose", -bet.amount, **extra))
                calls.append(speech("seat_loses", seat=bet.seat))
        assert table.dice is not None
        total = sum(table.dice)
        outcome = {
            "dice": list(table.dice),
            "dice_total": total,
            "first_hand": position_name(first_position(total)),
            "dealing_order": table.order,
            "dealer": {"back": hand_name(d_back), "front": hand_name(d_front), "house_way_rule": dealer.rule},
        }
        say = speech("dealer_behind", hand=hand_speech(d_back)).then("; ", speech("in_front", hand=hand_speech(d_front)))
        if calls:
            say = say.then(". ", joined(", ", calls))
        placed = [b.id for b in rnd.bets]
        rows.sort(key=lambda row: placed.index(row["id"]))  # rows in the order the bets were placed
        return settled(hands=hands, outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge -----------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Seeded simulation: every deal gives seven hands, each set by the house way, each pair played both ways."""
        cfg = self.resolve_config(config)
        deals = 5000
        edge, ci = simulate_edge(house_way_of(cfg), Fraction(cfg["commission_bp"], 10_000), deals, seed)
        method = (
            f"simulation: {deals} seeded deals (seed {seed}) of seven hands from 53 cards, all set by the "
            f"'{cfg['house_way']}' house way; each hand played as the dealer against the other six "
            f"({deals * 42} wagers); 95 % CI from the per-deal means"
        )
        return [
            EdgeRow(
                WAGER,
                edge,
                method,
                ci95=ci,
                note="player sets by the house way too; the dealer's edge is the commission and the copies",
            )
        ]


def simulate_edge(way: HouseWay, commission: Fraction, deals: int, seed: int) -> tuple[float, tuple[float, float]]:
    """The house's share of a unit wager when both sides set by ``way``, and its 95 % confidence interval."""
    rng = random.Random(seed)
    deck = full_deck() + [JOKER_CARD]
    win = 1 - float(commission)
    means: list[float] = []
    for _ in range(deals):
        rng.shuffle(deck)
        ranks = []
        for h in range(POSITIONS):
            s = set_hand(deck[h * HAND_SIZE : (h + 1) * HAND_SIZE], way)
            ranks.append(
                (rank_paigow_codes([card_code(c) for c in s.back]), rank_front2_codes([card_code(c) for c in s.front]))
            )
        total = 0.0
        for i, (db, df) in enumerate(ranks):
            for j, (pb, pf) in enumerate(ranks):
                if i == j:
                    continue
                if pb > db:
                    if pf > df:
                        total += win
                elif pf <= df:
                    total -= 1.0
        means.append(-total / (POSITIONS * (POSITIONS - 1)))
    mean = sum(means) / deals
    var = sum((m - mean) ** 2 for m in means) / (deals - 1)
    half = 1.96 * math.sqrt(var / deals)
    return mean, (mean - half, mean + half)


def _lost_by_foul(seat_hand: SeatHand) -> bool:
    return seat_hand.foul and not seat_hand.reset



def _set_doc(back: Sequence[Card], front: Sequence[Card], back_rank: int, front_rank: int) -> Json:
    return {
        "back": _cards_text(back),
        "front": _cards_text(front),
        "back_hand": hand_name(back_rank),
        "front_hand": hand_name(front_rank),
    }


def _hands_doc(table: PaiGowTable) -> Json:
    hands: Json = {}
    for position in table.order:
        doc: Json = {"cards": _cards_text(table.cards.get(position, []))}
        if position != DEALER:
            seat_hand = table.sets.get(int(position.split(":")[1]))
            if seat_hand is not None:
                doc.update(
                    _set_doc(
                        seat_hand.back, seat_hand.front, rank_paigow5(seat_hand.back), rank_front2(seat_hand.front)
                    )
                )
                doc.update(set_by=seat_hand.set_by, foul=seat_hand.foul)
                if seat_hand.rule is not None:
                    doc["rule"] = seat_hand.rule
        hands[position] = doc
    return hands


def _read_dice(event: Mapping[str, Any], index: int) -> tuple[int, int, int]:
    if "dice" not in event:
        raise EngineError("out_of_turn", f"event {index}: the dice come first, not {_describe(event)}", event=index)
    extra = set(event) - {"dice"}
    if extra:
        raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
    dice = event["dice"]
    if (
        not isinstance(dice, list)
        or len(dice) != 3
        or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice)
    ):
        raise EngineError("bad_event", f"event {index}: 'dice' must be three numbers from 1 to 6", event=index)
    return dice[0], dice[1], dice[2]




ENGINE = PaiGowPoker()
