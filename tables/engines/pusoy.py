"""Pusoy: thirteen cards each, set back 5 / middle 5 / front 3 against the dealer's three hands.

The whole 52-card pack is dealt, thirteen cards to each of four positions clockwise from the
dealer's left: seats 1, 2, 3, then the dealer. The dealer enters each hand in play as thirteen
cards in that order; each seat then sets its hand (or surrenders, or claims royalties, where the
table allows), in seat order; then the dealer sets (or surrenders). Each of the three hands is
compared with the dealer's (exact ties go to the dealer): three won pays 2×, two 1×, one loses
1×, none loses 2×; a hand not set back ≥ middle ≥ front is fouled and loses 2×.

>>> hands = {"seat:1": ["AS", "AH", "AD", "KC", "KD", "QS", "QH", "JD", "9C", "7S", "5H", "3D", "2C"],
...          "dealer": ["TS", "TH", "9S", "9H", "8D", "8C", "6S", "6H", "5C", "4D", "3S", "2H", "JS"]}
>>> doc = {"game": "pusoy", "config": {}, "bets": [{"id": "b1", "seat": 1, "type": "wager", "amount": 500}],
...        "events": [{"card": c, "to": "seat:1"} for c in hands["seat:1"]]
...                  + [{"card": c, "to": "dealer"} for c in hands["dealer"]]
...                  + [{"seat": 1, "action": "set", "back": ["AS", "AH", "AD", "KC", "KD"],
...                      "middle": ["QS", "QH", "JD", "9C", "7S"], "front": ["5H", "3D", "2C"]},
...                     {"seat": "dealer", "action": "set", "back": ["TS", "TH", "9S", "9H", "2H"],
...                      "middle": ["8D", "8C", "6S", "6H", "3S"], "front": ["JS", "5C", "4D"]}]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> row = out["bets"][0]
>>> row["back"], row["middle"], row["front"], row["result"], row["net"], out["house"]["net"]
('win', 'lose', 'lose', 'lose', -500, 500)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
from tables.engines.cards import RANKS, Card, Shoe, full_deck
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck, option, set_hand_input
from tables.engines.poker import card_code, hand_name, hand_speech, rank5, rank_codes, rank_front3, rank_front3_codes
from tables.engines.profile import Family, GameProfile, OnePerSeat
from tables.engines.result import RoundResult
from tables.engines.seat_cards import DEALER, read_card, read_cards, say_card_of
from tables.engines.speech import Speech, joined, speech

SEATS = 3  # exactly four participants in casino play (rule book): the dealer and three seats
HAND_SIZE = 13
WAGER = "wager"
SET, HOUSE_WAY, SURRENDER, ROYALTY = "set", "house_way", "surrender", "royalty"
WIN, LOSE, COPY = "win", "lose", "copy"
PARTS = (("back", 5), ("middle", 5), ("front", 3))
ROYALTY_LABELS = {ROYALTY: "Claim royalties"}
ROYALTY_LINES = ("straight_flush", "four_of_a_kind", "six_pairs")


def position_name(seat: int | None) -> str:
    """``seat:n``, or ``dealer`` for None."""
    return DEALER if seat is None else f"seat:{seat}"


# -- the three hands -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PusoyHand:
    """Thirteen cards set into three hands, with their ranks on one scale (poker.rank5 / rank_front3)."""

    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, int, int]:
        return rank5(self.back), rank5(self.middle), rank_front3(self.front)

    @property
    def fouled(self) -> bool:
        """Back ≥ middle ≥ front is required; anything else is a foul ("totyo")."""
        b, m, f = self.ranks
        return not b >= m >= f


def compare(player: Sequence[int], dealer: Sequence[int]) -> tuple[str, str, str]:
    """Each hand against the dealer's: win only when strictly higher; an exact tie is a copy, the dealer's."""
    out = []
    for p, d in zip(player, dealer, strict=True):
        out.append(WIN if p > d else COPY if p == d else LOSE)
    return out[0], out[1], out[2]


def units_for(won: int) -> int:
    """Units the player wins (+) or loses (−) for 0 … 3 hands won: −2, −1, +1, +2."""
    return (-2, -1, 1, 2)[won]


def royalty_of(cards: Sequence[Card], chart: Mapping[str, int]) -> str | None:
    """The royalty line the thirteen cards hold (straight flush, four of a kind, six pairs), if the chart pays it.

    Six pairs counts pairs within ranks: trips hold one pair, four of a kind two.
    """
    by_rank = Counter(c.rank for c in cards)
    found = {
        "straight_flush": _has_straight_flush(cards),
        "four_of_a_kind": max(by_rank.values()) >= 4,
        "six_pairs": sum(n // 2 for n in by_rank.values()) >= 6,
    }
    for line in ROYALTY_LINES:
        if found[line] and chart.get(line, 0) > 0:
            return line
    return None


def _has_straight_flush(cards: Sequence[Card]) -> bool:
    by_suit: dict[str, set[int]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, set()).add(_value(c))
    for values in by_suit.values():
        if 14 in values:
            values.add(1)  # the ace also plays low, in 5-4-3-2-A
        if any(all(v in values for v in range(low, low + 5)) for low in range(1, 11)):
            return True
    return False


# -- the simple setting strategy (the "house way" for pusoy) -------------------------------


_VALUES: dict[str, int] = {r: i + 2 for i, r in enumerate(RANKS)}


def _value(card: Card) -> int:
    return _VALUES[card.rank]


def _kickers(pool: Sequence[Card], n: int) -> list[Card]:
    """The n lowest cards of ``pool``, taking unpaired ranks first so pairs stay for the next hand."""
    counts = Counter(c.rank for c in pool)
    return sorted(pool, key=lambda c: (counts[c.rank] > 1, _value(c)))[:n]


def _straight_from(cards: Sequence[Card]) -> list[Card] | None:
    """The highest straight among the cards (one card per rank), ace low only in 5-4-3-2-A."""
    by_value: dict[int, Card] = {}
    for c in sorted(cards, key=_value):
        by_value.setdefault(_value(c), c)
    if 14 in by_value:
        by_value[1] = by_value[14]
    for top in range(14, 4, -1):
        if all(v in by_value for v in range(top - 4, top + 1)):
            return [by_value[v] for v in range(top, top - 5, -1)]
    return None


def strongest_five(cards: Sequence[Card]) -> list[Card]:
    """Five cards making the best category the cards hold, core first and the lowest kickers.

    The category's own cards are the best of that category (highest straight flush, quads,
    trips, flush, straight, pairs); kickers are the lowest cards, unpaired ranks first, so that
    pairs and high cards stay for the hands still to set.
    """
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, key=_value, reverse=True):
        groups.setdefault(_value(c), []).append(c)
    suited: dict[str, list[Card]] = {}
    for c in sorted(cards, key=_value, reverse=True):
        suited.setdefault(c.suit, []).append(c)

    def rest(*core: Sequence[Card]) -> list[Card]:
        used = {id(c) for group in core for c in group}
        return [c for c in cards if id(c) not in used]

    straight_flushes = [s for s in (_straight_from(v) for v in suited.values() if len(v) >= 5) if s]
    if straight_flushes:
        return max(straight_flushes, key=lambda s: rank5(s))
    quads = [v for v, g in groups.items() if len(g) == 4]
    trips = [v for v, g in groups.items() if len(g) == 3]
    pairs = [v for v, g in groups.items() if len(g) == 2]
    if quads:
        core = groups[quads[0]]
        return core + _kickers(rest(core), 1)
    if trips and (len(trips) > 1 or pairs):
        core = groups[trips[0]]
        lowest_pair = min(trips[1:] + pairs)
        return core + groups[lowest_pair][:2]
    flushes = [v[:5] for v in suited.values() if len(v) >= 5]
    if flushes:
        return max(flushes, key=lambda f: rank5(f))
    straight = _straight_from(cards)
    if straight:
        return straight
    if trips:
        core = groups[trips[0]]
        return core + _kickers(rest(core), 2)
    if len(pairs) >= 2:
        core = groups[pairs[0]] + groups[pairs[1]]
        return core + _kickers(rest(core), 1)
    if pairs:
        core = groups[pairs[0]]
        return core + _kickers(rest(core), 3)
    core = [next(iter(groups.values()))[0]]
    return core + _kickers(rest(core), 4)


def house_set(cards: Sequence[Card]) -> PusoyHand:
    """The simple strategy: the strongest five in back, the strongest five of the rest in middle, three in front.

    Each five keeps only the cards its category needs plus the lowest kickers (see
    :func:`strongest_five`), so it never fouls.
    """
    back = strongest_five(cards)
    taken = {id(c) for c in back}
    left = [c for c in cards if id(c) not in taken]
    middle = strongest_five(left)
    taken = {id(c) for c in middle}
    front = [c for c in left if id(c) not in taken]
    return PusoyHand(_display(back), _display(middle), _display(front))


def _display(cards: Sequence[Card]) -> tuple[Card, ...]:
    counts = Counter(c.rank for c in cards)
    return tuple(sorted(cards, key=lambda c: (counts[c.rank], _value(c)), reverse=True))


# -- the round -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """What one position did: set (by hand or by the house way), surrendered, or claimed royalties."""

    action: str
    hand: PusoyHand | None = None
    royalty: str | None = None


@dataclass
class PusoyTable:
    order: list[str] = field(default_factory=list)
    cards: dict[str, list[Card]] = field(default_factory=dict)
    seats: dict[int, Decision] = field(default_factory=dict)
    dealer: Decision | None = None

    def next_card_to(self) -> str | None:
        for position in self.order:
            if len(self.cards.get(position, [])) < HAND_SIZE:
                return position
        return None

    def seats_in(self) -> list[int]:
        """Seats still in the game: they set a hand (not surrendered, not paid royalties)."""
        return [s for s, d in self.seats.items() if d.action in (SET, HOUSE_WAY)]


class Pusoy(Engine):
    name = "pusoy"
    title = "Pusoy"
    settings = (
        Setting("surrender", SettingKind.CHOICE, "off",
                "who may concede before setting and pay the single bet: nobody, the players, or the dealer too",
                choices=("off", "players", "players_and_dealer")),
        Setting("royalties", SettingKind.BOOL, False,
                "a player dealt a royalty hand may show it instead of playing and win at once"),
        Setting("royalty_pays", SettingKind.CHART, {"straight_flush": 1, "four_of_a_kind": 1, "six_pairs": 1},
                "what each royalty hand wins, in units of the wager (0: not a royalty)"),
        *LIMIT_SETTINGS,
    )  # fmt: skip
    bet_types = {
        WAGER: BetSpec("The seat's wager against the dealer: three hands won pays 2:1, two 1:1; one loses the "
                       "wager, none or a foul loses it twice"),
    }  # fmt: skip

    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.seat > SEATS:
            raise EngineError("bad_bet", f"bet {bet.id}: the table has seats 1 to {SEATS}", field=f"{where}.seat", params={"bet": bet.id, "seats": SEATS})

    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(WAGER,),
                          one_per_seat=OnePerSeat((WAGER,), "a wager (one per seat)", "why_has_wager"))

    def seat_actions(self, config: Mapping[str, Any]) -> list[str]:
        allowed = [SET, HOUSE_WAY]
        if config["surrender"] != "off":
            allowed.append(SURRENDER)
        if config["royalties"]:
            allowed.append(ROYALTY)
        return allowed

    def dealer_actions(self, config: Mapping[str, Any]) -> list[str]:
        allowed = [SET, HOUSE_WAY]
        if config["surrender"] == "players_and_dealer":
            allowed.append(SURRENDER)
        return allowed

    def replay(self, rnd: Round) -> PusoyTable:
        """Apply the events in order, refusing the first that the rules do not allow."""
        seats = sorted(b.seat for b in rnd.bets)
        table = PusoyTable(order=[position_name(s) for s in seats] + [DEALER])
        shoe = Shoe(1)
        for index, event in enumerate(rnd.events):
            to = table.next_card_to()
            if to is not None:
                card = read_card(event, index, to, table.order, shoe, describe=_describe)
                table.cards.setdefault(to, []).append(card)
                continue
            seat = next((s for s in seats if s not in table.seats), None)
            if seat is not None:
                table.seats[seat] = self._read_decision(
                    event, index, seat, table.cards[position_name(seat)], self.seat_actions(rnd.config), rnd.config
                )
                continue
            if table.dealer is None and table.seats_in():
                table.dealer = self._read_decision(
                    event, index, None, table.cards[DEALER], self.dealer_actions(rnd.config), rnd.config
                )
                continue
            raise EngineError("out_of_turn", f"event {index}: the round is complete, nothing more is due", event=index)
        return table

    def _read_decision(
        self,
        event: Mapping[str, Any],
        index: int,
        seat: int | None,
        cards: list[Card],
        allowed: list[str],
        config: Mapping[str, Any],
    ) -> Decision:
        who_name = "the dealer" if seat is None else f"seat {seat}"
        if "action" not in event:
            raise EngineError("out_of_turn", f"event {index}: {who_name} must act, not {_describe(event)}", event=index)
        who = event.get("seat")
        expected: int | str = DEALER if seat is None else seat
        if isinstance(who, bool) or not (isinstance(who, int) or who == DEALER):
            raise EngineError("bad_event", f"event {index}: 'seat' must be a seat number or 'dealer'", event=index)
        if who != expected:
            raise EngineError(
                "out_of_turn",
                f"event {index}: {who_name} acts next, not {'the dealer' if who == DEALER else f'seat {who}'}",
                event=index, params={"seat": expected, "seat_given": who,
                        **({"reason": "seat_turn"} if isinstance(expected, int) and isinstance(who, int) else {})},
            )
        action = event["action"]
        if action not in allowed:
            raise EngineError(
                "illegal_action", f"event {index}: {who_name} may {', '.join(allowed)}, not {action!r}", event=index, params={"allowed": list(allowed), "action": action}
            )
        fields = {"seat", "action", "back", "middle", "front"} if action == SET else {"seat", "action"}
        extra = set(event) - fields
        if extra:
            raise EngineError(
                "bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))} for '{action}'", event=index, params={"fields": sorted(extra), "action": action}
            )
        if action == SURRENDER:
            return Decision(SURRENDER)
        if action == ROYALTY:
            line = royalty_of(cards, config["royalty_pays"])
            if line is None:
                raise EngineError(
                    "illegal_action",
                    f"event {index}: {who_name} holds no royalty (straight flush, four of a kind or six pairs)",
                    event=index,
                )
            return Decision(ROYALTY, royalty=line)
        if action == HOUSE_WAY:
            return Decision(HOUSE_WAY, house_set(cards))
        parts = [read_cards(event.get(name), size, name, index) for name, size in PARTS]
        if Counter(parts[0] + parts[1] + parts[2]) != Counter(cards):
            raise EngineError(
                "bad_event",
                f"event {index}: {who_name}'s setting must use exactly the thirteen "
                f"cards dealt ({' '.join(str(c) for c in cards)})",
                event=index, params={"cards": [str(c) for c in cards]},
            )
        return Decision(SET, PusoyHand(tuple(parts[0]), tuple(parts[1]), tuple(parts[2])))

    def play(self, rnd: Round) -> RoundResult:
        table = self.replay(rnd)
        hands = _hands_doc(table)
        to = table.next_card_to()
        if to is not None:
            n = len(table.cards.get(to, []))
            say = say_card_of(to, n + 1, HAND_SIZE)
            return awaiting(expect_card(to, say), hands=hands, dealing_order=table.order)
        decided = [
            self._early_row(b, table.seats[b.seat], rnd.config)
            for b in rnd.bets
            if b.seat in table.seats and table.seats[b.seat].action in (SURRENDER, ROYALTY)
        ]
        seat = next((b.seat for b in sorted(rnd.bets, key=lambda b: b.seat) if b.seat not in table.seats), None)
        if seat is not None:
            allowed = self.seat_actions(rnd.config)
            cards = table.cards[position_name(seat)]
            step = expect_action(
                seat,
                allowed,
                speech("seat_choices", seat=seat, choices=_choice_words(allowed)),
                position=position_name(seat),
                hand=[str(c) for c in cards],
                inp=self._set_input(seat, cards, allowed, rnd.config),
            )
            return awaiting(step, hands=hands, bets=decided, dealing_order=table.order)
        if table.dealer is None and table.seats_in():
            allowed = self.dealer_actions(rnd.config)
            step = expect_action(
                None,
                allowed,
                speech("dealer_choices", choices=_choice_words(allowed)),
                position=DEALER,
                hand=[str(c) for c in table.cards[DEALER]],
                inp=self._set_input(DEALER, table.cards[DEALER], allowed, rnd.config),
            )
            return awaiting(step, hands=hands, bets=decided, dealing_order=table.order)
        return self.settle(rnd, table, hands)

    def _set_input(self, who: int | str, cards: Sequence[Card], allowed: Sequence[str],
                   config: Mapping[str, Any]) -> Json:
        """Set three hands from the thirteen cards, the house way one tap away; surrender and
        royalties offered beside (royalties only when the cards hold one)."""
        way = house_set(cards)
        others = [
            option(action, {"seat": who, "action": action}, ROYALTY_LABELS.get(action))
            for action in allowed
            if action == SURRENDER or (action == ROYALTY and royalty_of(cards, config["royalty_pays"]) is not None)
        ]
        return set_hand_input(
            who, [str(c) for c in cards], PARTS,
            {"back": [str(c) for c in way.back], "middle": [str(c) for c in way.middle],
             "front": [str(c) for c in way.front]},
            {"seat": who, "action": SET}, {"seat": who, "action": HOUSE_WAY}, options=others,
        )

    def check_set(self, cards: Sequence[str], hands: Mapping[str, Any]) -> str | None:
        """Why setting ``cards`` (thirteen) as ``hands`` (``back``, ``middle``, ``front``) fouls, in a
        dealer's words, or None when it does not; a setting that does not use exactly the cards is refused.

        >>> ENGINE.check_set(["AS", "AH", "KD", "KC", "2S", "3D", "4C", "5H", "7S", "8D", "9C", "JH", "QS"],
        ...                  {"back": ["2S", "3D", "4C", "5H", "7S"], "middle": ["AS", "AH", "8D", "9C", "JH"],
        ...                   "front": ["KD", "KC", "QS"]})
        "the middle's pair of aces outranks the back's seven-five high"
        """
        thirteen = read_cards(list(cards), HAND_SIZE, "cards", 0)
        parts = [read_cards(hands.get(name), size, name, 0) for name, size in PARTS]
        if Counter(parts[0] + parts[1] + parts[2]) != Counter(thirteen):
            raise EngineError(
                "bad_set",
                f"the setting must use exactly the thirteen cards ({' '.join(str(c) for c in thirteen)})",
                params={"cards": [str(c) for c in thirteen]},
            )
        hand = PusoyHand(tuple(parts[0]), tuple(parts[1]), tuple(parts[2]))
        b, m, f = hand.ranks
        if m > b:
            return f"the middle's {hand_name(m)} outranks the back's {hand_name(b)}"
        if f > m:
            return f"the front's {hand_name(f)} outranks the middle's {hand_name(m)}"
        return None

    def _early_row(self, bet: Bet, decision: Decision, config: Mapping[str, Any]) -> Json:
        if decision.action == SURRENDER:
            return bet_result(bet, "surrender", -bet.amount)
        assert decision.royalty is not None
        return bet_result(bet, "win", bet.amount * config["royalty_pays"][decision.royalty], royalty=decision.royalty)

    def settle(self, rnd: Round, table: PusoyTable, hands: Json) -> RoundResult:
        dealer = table.dealer
        dealer_hand = dealer.hand if dealer is not None else None
        dealer_ranks = dealer_hand.ranks if dealer_hand is not None else None
        dealer_foul = dealer_hand is not None and dealer_hand.fouled
        rows: list[Json] = []
        calls: list[Speech] = []
        for bet in sorted(rnd.bets, key=lambda b: b.seat):
            decision = table.seats[bet.seat]
            if decision.action in (SURRENDER, ROYALTY):
                rows.append(self._early_row(bet, decision, rnd.config))
                calls.append(speech("seat_surrendered" if decision.action == SURRENDER else "seat_royalty", seat=bet.seat))
                continue
            assert dealer is not None
            assert decision.hand is not None
            if dealer.action == SURRENDER:
                rows.append(bet_result(bet, "win", bet.amount, dealer_surrender=True))
                calls.append(speech("seat_paid", seat=bet.seat))
                continue
            assert dealer_ranks is not None
            player_foul = decision.hand.fouled
            if player_foul or dealer_foul:
                units = 0 if player_foul and dealer_foul else -2 if player_foul else 2
                result = "push" if units == 0 else "win" if units > 0 else "lose"
                rows.append(bet_result(bet, result, units * bet.amount, foul=player_foul, dealer_foul=dealer_foul))
                calls.append(speech("seat_fouls" if player_foul else "seat_wins_double", seat=bet.seat))
                continue
            back, middle, front = compare(decision.hand.ranks, dealer_ranks)
            won = [back, middle, front].count(WIN)
            units = units_for(won)
            rows.append(
                bet_result(
                    bet,
                    "win" if units > 0 else "lose",
                    units * bet.amount,
                    foul=False,
                    back=back,
                    middle=middle,
                    front=front,
                    hands_won=won,
                    pusoy=won in (0, 3),
                )
            )
            call = f"seat_{'wins' if units > 0 else 'loses'}_of" + ("_pusoy" if won in (0, 3) else "")
            calls.append(speech(call, seat=bet.seat, n=won, m=3))
        outcome: Json = {"dealing_order": table.order, "dealer": None}
        say = joined(", ", calls) if calls else speech("no_wagers")
        if dealer is not None:
            outcome["dealer"] = {"action": dealer.action, "foul": dealer_foul}
            if dealer.action == SURRENDER:
                say = speech("dealer_surrenders").then(". ", say)
            elif dealer_hand is not None:
                b, m, f = dealer_hand.ranks
                outcome["dealer"].update(back=hand_name(b), middle=hand_name(m), front=hand_name(f))
                say = (speech("dealer_back", hand=hand_speech(b)).then("; ", speech("middle", hand=hand_speech(m)))
                       .then("; ", speech("front", hand=hand_speech(f))).then(". ", say))
        placed = [b.id for b in rnd.bets]
        rows.sort(key=lambda row: placed.index(row["id"]))  # rows in the order the bets were placed
        return settled(hands=hands, outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge -----------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Seeded simulation: four hands a deal set by :func:`house_set`, every hand against every other."""
        cfg = self.resolve_config(config)
        deals = 4000
        chart = cfg["royalty_pays"] if cfg["royalties"] else None
        edge, ci = simulate_edge(deals, seed, chart)
        method = (
            f"simulation: {deals} seeded deals (seed {seed}) of the 52 cards to four hands, all set by the "
            f"simple strategy (strongest five back, strongest five of the rest middle); each hand played as "
            f"the dealer against the other three ({deals * 12} wagers); 95 % CI from the per-deal means"
        )
        note = "nobody surrenders" + ("; a player always claims a royalty" if chart else "")
        return [EdgeRow(WAGER, edge, method, ci95=ci, note=note)]


def simulate_edge(deals: int, seed: int, royalty_chart: Mapping[str, int] | None) -> tuple[float, tuple[float, float]]:
    """The house's share of a unit wager when every hand is set by :func:`house_set`, and its 95 % CI."""
    rng = random.Random(seed)
    deck = full_deck()
    n = 4
    means: list[float] = []
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [deck[h * HAND_SIZE : (h + 1) * HAND_SIZE] for h in range(n)]
        ranks = []
        royalties = []
        for cards in hands:
            s = house_set(cards)
            ranks.append(
                (
                    rank_codes([card_code(c) for c in s.back]),
                    rank_codes([card_code(c) for c in s.middle]),
                    rank_front3_codes([card_code(c) for c in s.front]),
                )
            )
            line = royalty_of(cards, royalty_chart) if royalty_chart else None
            royalties.append(royalty_chart[line] if royalty_chart and line else 0)
        total = 0
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                if royalties[j]:
                    total += royalties[j]
                    continue
                d, p = ranks[i], ranks[j]
                won = (p[0] > d[0]) + (p[1] > d[1]) + (p[2] > d[2])
                total += units_for(won)
        means.append(-total / (n * (n - 1)))
    mean = sum(means) / deals
    var = sum((m - mean) ** 2 for m in means) / (deals - 1)
    half = 1.96 * math.sqrt(var / deals)
    return mean, (mean - half, mean + half)


def _choice_words(allowed: Sequence[str]) -> list[str]:
    """The choices as the dealer's prompt names them (``set`` → set three hands)."""
    words = {SET: "set three hands", HOUSE_WAY: "house way", SURRENDER: "surrender", ROYALTY: "royalties"}
    return [words[a] for a in allowed]



def _hand_doc(hand: PusoyHand) -> Json:
    b, m, f = hand.ranks
    return {
        "back": [str(c) for c in hand.back],
        "middle": [str(c) for c in hand.middle],
        "front": [str(c) for c in hand.front],
        "back_hand": hand_name(b),
        "middle_hand": hand_name(m),
        "front_hand": hand_name(f),
        "foul": hand.fouled,
    }


def _hands_doc(table: PusoyTable) -> Json:
    hands: Json = {}
    for position in table.order:
        doc: Json = {"cards": [str(c) for c in table.cards.get(position, [])]}
        decision = table.dealer if position == DEALER else table.seats.get(int(position.split(":")[1]))
        if decision is not None:
            doc["action"] = decision.action
            if decision.hand is not None:
                doc.update(_hand_doc(decision.hand))
            if decision.royalty is not None:
                doc["royalty"] = decision.royalty
        hands[position] = doc
    return hands


def _describe(event: Mapping[str, Any]) -> str:
    if "action" in event:
        return f"an action ({event.get('action')!r})"
    if "card" in event:
        return "a card"
    if "bet" in event:
        return "a bet"
    return "this event"




ENGINE = Pusoy()
