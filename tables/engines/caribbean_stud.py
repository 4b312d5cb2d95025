"""Caribbean Stud Poker: ante, fold or raise against the dealer's up card, dealer qualifies with A-K.

The cards are entered in this order: the five cards of each seat holding an ante, seat by
seat in seat order; the dealer's up card; then each seat's action (``fold`` or ``raise``) in
seat order; then the dealer's four hole cards as the dealer turns them over. When every seat
has folded the round settles without the hole cards. A raise is ``raise_multiple`` times the
ante (default 2). A dealer without ace-king or better does not qualify: antes win 1:1, raises
push. A qualifying dealer is compared with each raised hand: the higher wins the ante 1:1 and
the raise by the ``raise_pays`` chart; the lower loses both; an exact tie pushes both.

>>> seat = ["AS", "AD", "9C", "7H", "2S"]
>>> doc = {"game": "caribbean_stud", "config": {}, "bets": [{"id": "a1", "seat": 1, "type": "ante", "amount": 100}],
...        "events": [{"card": c} for c in seat + ["KH"]] + [{"seat": 1, "action": "raise"}]
...                  + [{"card": c} for c in ["KD", "5S", "8C", "3D"]]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> out["say"]
'Dealer qualifies with pair of kings'
>>> row = out["bets"][0]
>>> row["result"], row["net"], row["staked"], row["hand"], out["house"]["net"]
('win', 300, 300, 'pair of aces', -300)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from math import comb
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
    card_code,
    card_codes,
    chart_line,
    hand_name,
    hand_speech,
    make_rank,
    rank_codes,
)
from tables.engines.profile import Family, GameProfile, OnePerSeat
from tables.engines.result import RoundResult
from tables.engines.speech import speech

ANTE = "ante"
DEALER = "dealer"
FOLD, RAISE = "fold", "raise"
HAND_SIZE = 5

RAISE_CHART = {
    "royal_flush": 100,
    "straight_flush": 50,
    "four_of_a_kind": 20,
    "full_house": 7,
    "flush": 5,
    "straight": 4,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "pair": 1,
    "high_card": 1,  # ace-king: the only no-pair hand that can beat a qualifying dealer
}

QUALIFIER = make_rank(Category.HIGH_CARD, 13, 12, 3, 2, 1)
"""The lowest qualifying dealer hand, A-K-4-3-2: the dealer plays with this or better."""


def qualifies(rank: int) -> bool:
    """Whether a dealer hand of this rank (from :func:`tables.engines.poker.rank5`) plays: A-K or better."""
    return rank >= QUALIFIER


@dataclass
class SeatHand:
    seat: int
    bet: Bet
    cards: list[Card] = field(default_factory=list)
    action: str | None = None


@dataclass
class CaribbeanStudTable:
    """Where the next card or action goes, from the events so far."""

    seats: list[SeatHand]
    dealer: list[Card] = field(default_factory=list)

    def seat_dealing(self) -> SeatHand | None:
        for hand in self.seats:
            if len(hand.cards) < HAND_SIZE:
                return hand
        return None

    def seat_to_act(self) -> SeatHand | None:
        if not self.dealer:
            return None
        for hand in self.seats:
            if hand.action is None:
                return hand
        return None

    def live(self) -> list[SeatHand]:
        return [h for h in self.seats if h.action == RAISE]

    def next_step(self) -> tuple[str, str | int] | None:
        """``("card", to)``, ``("action", seat)`` or None when the round is complete."""
        if not self.seats:
            return None
        dealing = self.seat_dealing()
        if dealing is not None:
            return ("card", f"seat:{dealing.seat}")
        if not self.dealer:
            return ("card", DEALER)
        acting = self.seat_to_act()
        if acting is not None:
            return ("action", acting.seat)
        if self.live() and len(self.dealer) < HAND_SIZE:
            return ("card", DEALER)
        return None


class CaribbeanStud(Engine):
    name = "caribbean_stud"
    title = "Caribbean Stud Poker"
    settings = (
        Setting(
            "raise_multiple",
            SettingKind.INT,
            2,
            "the raise is N times the ante (rule book: equal to the ante; common casino rule: twice)",
            minimum=1,
            maximum=5,
        ),
        Setting(
            "raise_pays",
            SettingKind.CHART,
            RAISE_CHART,
            "a winning raise pays N to 1 by the player's hand (high_card: ace-king)",
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        ANTE: BetSpec("The ante: one per seat; the seat then folds (loses it) or raises raise_multiple × ante"),
    }

    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(ANTE,), one_per_seat=OnePerSeat((ANTE,), "an ante", "why_has_ante"))

    # -- replaying the events -------------------------------------------------------------------
    def replay(self, rnd: Round) -> CaribbeanStudTable:
        table = CaribbeanStudTable([SeatHand(b.seat, b) for b in sorted(rnd.bets, key=lambda b: b.seat)])
        shoe = Shoe(1)
        for index, event in enumerate(rnd.events):
            step = table.next_step()
            if step is None:
                raise EngineError("out_of_turn", f"event {index}: the round is complete", event=index)
            kind, where = step
            if kind == "card":
                card = _read_card(event, index, str(where), shoe)
                hand = table.seat_dealing()
                if hand is not None:
                    hand.cards.append(card)
                else:
                    table.dealer.append(card)
            else:
                hand = table.seat_to_act()
                assert hand is not None
                hand.action = _read_action(event, index, hand.seat)
        return table

    def play(self, rnd: Round) -> RoundResult:
        table = self.replay(rnd)
        step = table.next_step()
        if step is None:
            return self.settle(rnd, table)
        kind, where = step
        folded = [bet_result(h.bet, FOLD, -h.bet.amount, staked=h.bet.amount) for h in table.seats if h.action == FOLD]
        if kind == "action":
            hand = next(h for h in table.seats if h.seat == where)
            amount = hand.bet.amount * rnd.config["raise_multiple"]
            say = speech("fold_or_raise", seat=int(where), amount=amount)
            nxt = expect_action(int(where), [FOLD, RAISE], say, raise_amount=amount)
        elif where == DEALER:
            n = len(table.dealer)
            say = speech("dealer_up_card_stud") if n == 0 else speech("dealer_hole_card", n=n, m=4)
            nxt = expect_card(DEALER, say)
        else:
            dealing = table.seat_dealing()
            assert dealing is not None
            nxt = expect_card(str(where), speech("seat_card_of", seat=dealing.seat, n=len(dealing.cards) + 1, m=5))
        return awaiting(nxt, hands=self.hands_doc(table), bets=folded)

    def hands_doc(self, table: CaribbeanStudTable) -> Json:
        hands: Json = {}
        for h in table.seats:
            doc: Json = {"cards": [str(c) for c in h.cards], "action": h.action}
            if len(h.cards) == HAND_SIZE:
                doc["hand"] = hand_name(best5(h.cards)[0])
            hands[f"seat:{h.seat}"] = doc
        dealer: Json = {"cards": [str(c) for c in table.dealer], "up": str(table.dealer[0]) if table.dealer else None}
        if len(table.dealer) == HAND_SIZE:
            rank = best5(table.dealer)[0]
            dealer["hand"] = hand_name(rank)
            dealer["qualifies"] = qualifies(rank)
        hands[DEALER] = dealer
        return hands

    # -- settlement -----------------------------------------------------------------------------
    def settle(self, rnd: Round, table: CaribbeanStudTable) -> RoundResult:
        cfg = rnd.config
        chart: Mapping[str, int] = cfg["raise_pays"]
        dealer_rank = best5(table.dealer)[0] if len(table.dealer) == HAND_SIZE else None
        dealer_plays = dealer_rank is not None and qualifies(dealer_rank)
        rows = []
        for h in table.seats:
            ante = h.bet.amount
            rank, five = best5(h.cards)
            extra: Json = {"hand": hand_name(rank), "cards": [str(c) for c in five]}
            if h.action == FOLD:
                rows.append(
                    bet_result(h.bet, FOLD, -ante, staked=ante, raise_amount=0, ante_net=-ante, raise_net=0, **extra)
                )
                continue
            raised = ante * cfg["raise_multiple"]
            assert dealer_rank is not None
            if not dealer_plays:
                ante_net, raise_net, result = ante, 0, "win"
            elif rank > dealer_rank:
                line = chart_line(rank)
                ante_net, raise_net, result = ante, raised * chart[line], "win"
                extra["line"] = line
            elif rank < dealer_rank:
                ante_net, raise_net, result = -ante, -raised, "lose"
            else:
                ante_net, raise_net, result = 0, 0, "push"
            rows.append(
                bet_result(
                    h.bet,
                    result,
                    ante_net + raise_net,
                    staked=ante + raised,
                    raise_amount=raised,
                    ante_net=ante_net,
                    raise_net=raise_net,
                    **extra,
                )
            )
        outcome: Json = {
            "dealer_hand": hand_name(dealer_rank) if dealer_rank is not None else None,
            "dealer_qualifies": dealer_plays if dealer_rank is not None else None,
            "raised": [h.seat for h in table.live()],
            "folded": [h.seat for h in table.seats if h.action == FOLD],
        }
        if dealer_rank is None:
            say = speech("every_seat_folded") if table.seats else speech("no_antes")
        elif dealer_plays:
            say = speech("dealer_qualifies", hand=hand_speech(dealer_rank))
        else:
            say = speech("dealer_not_qualify", hand=hand_speech(dealer_rank))
        return settled(hands=self.hands_doc(table), outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge -----------------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact: every deal of player hand, dealer up card and four hole cards, optimal fold/raise."""
        cfg = self.resolve_config(config)
        loss, raised, deals = optimal_return(cfg["raise_multiple"], tuple(sorted(cfg["raise_pays"].items())))
        edge = Fraction(-loss, deals)
        wagered = 1 + Fraction(raised * cfg["raise_multiple"], deals)
        method = (
            f"exact enumeration of all {deals:,} deals (player hand, dealer up card, four hole cards) "
            "with the raise decision that maximises each hand's return given the up card"
        )
        note = (
            f"per ante; the player raises {float(Fraction(raised, deals)) * 100:.2f} % of hands, "
            f"{float(edge / wagered) * 100:.3f} % of all money wagered"
        )
        return [EdgeRow(ANTE, edge, method, note=note)]


def _read_card(event: Mapping[str, Any], index: int, expected_to: str, shoe: Shoe) -> Card:
    return read_card_event(
        event, index, expected_to, shoe,
        not_a_card=lambda e: f"a card for {expected_to} is due next, not {_event_word(e)}",
        is_place=lambda to: isinstance(to, str) and (to == DEALER or to.startswith("seat:")),
        places_said=lambda: "'dealer' or 'seat:N'",
    )


def _event_word(event: Mapping[str, Any]) -> str:
    return "an action" if "action" in event else "a bet" if "bet" in event else "this event"


def _read_action(event: Mapping[str, Any], index: int, seat: int) -> str:
    if "action" not in event:
        what = "a card" if "card" in event else "a bet" if "bet" in event else "this event"
        raise EngineError("out_of_turn", f"event {index}: seat {seat} must fold or raise, not {what}", event=index, params={"seat": seat})
    extra = set(event) - {"seat", "action"}
    if extra:
        raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
    who = event.get("seat")
    if type(who) is not int or who != seat:  # a bool or 1.0 is not a seat number
        raise EngineError(
            "out_of_turn", f"event {index}: seat {seat} acts next, not {event.get('seat')!r}", event=index, params={"seat": seat, "seat_given": who, **({"reason": "seat_turn"} if type(who) is int else {})}
        )
    action = event["action"]
    if action not in (FOLD, RAISE):
        raise EngineError(
            "illegal_action", f"event {index}: seat {seat} may fold or raise, not {action!r}", event=index, params={"seat": seat, "action": action}
        )
    return str(action)


# -- exact counting for the house edge ------------------------------------------------------------
#
# For every player hand P and dealer up card u the raise decision needs, over the 163,185 sets of
# four hole cards, how many dealer hands do not qualify, lose to P, tie P. Dealer hands are counted
# by ranks alone (suits only matter for the dealer's flushes, all in u's suit) with
# inclusion–exclusion over the cards of P: the hole sets avoiding P are Σ over sub-multisets S of
# P's ranks of ±(ways to pick S) × (hole sets containing S), and the latter are precomputed per
# rank multiset S as sorted rank lists with cumulative counts. The four-suited hole sets, which
# are really flushes, are then moved from their rank-only place to their flush place, per set E
# of P's ranks held in u's suit. Player hands are grouped by rank multiset and E, so 13 up-card
# ranks × 6,175 rank multisets × ≤32 suit patterns cover all 122,151,120 (hand, up card) pairs.

_Class = tuple[str | None, int, int, int]  # (chart line or None when P cannot win, no-qualify, P wins, tie)


def _count_vectors(size: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every multiset of ``size`` ranks (at most four of a rank): (rank-count word, ((rank, count), …))."""
    out: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    parts: list[tuple[int, int]] = []

    def rec(r: int, left: int, key: int) -> None:
        if left == 0:
            out.append((key, tuple(parts)))
            return
        if r < 0:
            return
        for c in range(min(4, left), -1, -1):
            if c:
                parts.append((r, c))
            rec(r - 1, left - c, key + c * RANK_UNIT[r])
            if c:
                parts.pop()

    rec(12, size, 0)
    return out


def _sub_multisets(parts: Sequence[tuple[int, int]], max_size: int) -> list[tuple[int, int, int]]:
    """(rank-count word, size, ways to choose it from the cards) of every sub-multiset up to max_size."""
    out = []
    for choice in product(*[range(c + 1) for _, c in parts]):
        size = sum(choice)
        if size > max_size:
            continue
        key, ways = 0, 1
        for (r, c), s in zip(parts, choice):
            if s:
                key += s * RANK_UNIT[r]
                ways *= comb(c, s)
        out.append((key, size, ways))
    return out


def _player_patterns() -> list[tuple[int, list[tuple[int, int]], list[int], list[tuple[int, tuple[tuple[int, str | None, int], ...]]]]]:
    """Per rank multiset of the player's five: (word, signed sub-multisets, thresholds, suit patterns).

    A suit pattern is E, the player's ranks held in the up card's suit, with the player hands it
    stands for: (rank, chart line or None below A-K, number of such hands for one up card).
    """
    out = []
    for key, parts in _count_vectors(HAND_SIZE):
        plain = RANK_COUNTS_TABLE[key]
        mask = 0
        for r, _ in parts:
            mask |= 1 << r
        flush = FLUSH_TABLE[mask] if len(parts) == HAND_SIZE else None
        subs = [(k, -w if s % 2 else w) for k, s, w in _sub_multisets(parts, 4)]
        patterns = []
        for in_suit in product((False, True), repeat=len(parts)):
            held, ways = 0, 1
            for (r, c), e in zip(parts, in_suit):
                if e:
                    held |= 1 << r
                    ways *= comb(3, c - 1)
                else:
                    ways *= comb(3, c)
            if not ways:
                continue
            n_in = sum(in_suit)
            if flush is not None and n_in == HAND_SIZE:
                variants: tuple[tuple[int, int], ...] = ((flush, ways),)
            elif flush is not None and n_in == 0:
                variants = ((flush, 3), (plain, ways - 3))  # a flush in one of the three other suits
            else:
                variants = ((plain, ways),)
            patterns.append((held, tuple((p, chart_line(p) if p >= QUALIFIER else None, w) for p, w in variants)))
        ranks = (plain,) if flush is None else (plain, flush)
        thresholds = sorted({QUALIFIER} | {x for p in ranks if p >= QUALIFIER for x in (p, p + 1)})
        out.append((key, subs, thresholds, patterns))
    return out


@cache
def deal_classes() -> tuple[dict[_Class, int], int]:
    """All (player hand, up card) pairs grouped by what decides their return, and the hole sets per pair.

    Returns ``{(line, no_qualify, wins, ties): number of (hand, up card) pairs}`` and 163,185: a
    pair's other hole sets are dealer wins. ``line`` is None for hands below ace-king, which
    beat no qualifying dealer. Takes several seconds; computed once per process.
    """
    players = _player_patterns()
    holes = [(key, parts, [k for k, _, _ in _sub_multisets(parts, 4)]) for key, parts in _count_vectors(4)]
    per_pair = comb(52 - HAND_SIZE - 1, 4)
    classes: dict[_Class, int] = {}
    get = classes.get
    for up in range(13):
        up_key, shift, up_bit = RANK_UNIT[up], 3 * up, 1 << up
        # hole sets containing a rank multiset S: {S word: {dealer rank (suits ignored): count}}
        by_sub: dict[int, dict[int, int]] = {}
        for hkey, hparts, subs in holes:
            if (hkey >> shift) & 7 == 4:
                continue
            dealer = RANK_COUNTS_TABLE[hkey + up_key]
            for skey in subs:
                ways = 1
                for r, c in hparts:
                    s = (skey >> (3 * r)) & 7
                    if c > s:
                        ways *= comb(4 - (r == up) - s, c - s)
                counts = by_sub.get(skey)
                if counts is None:
                    counts = by_sub[skey] = {}
                counts[dealer] = counts.get(dealer, 0) + ways
        cumulative: dict[int, tuple[list[int], list[int]]] = {}
        for skey, counts in by_sub.items():
            ranks = sorted(counts)
            cum = [0]
            for rank in ranks:
                cum.append(cum[-1] + counts[rank])
            cumulative[skey] = (ranks, cum)
        # four hole cards in the up card's suit: (their ranks, rank suits ignored, real flush rank)
        suited = []
        for four in combinations([r for r in range(13) if r != up], 4):
            mask = sum(1 << r for r in four)
            plain = RANK_COUNTS_TABLE[up_key + sum(RANK_UNIT[r] for r in four)]
            suited.append((mask, plain, FLUSH_TABLE[mask | up_bit]))
        # each ordering of the 495 suited sets is a bit string: the sets avoiding the player's
        # up-suit ranks E are a mask, "rank below x" a prefix, and a count one bit_count()
        by_plain = sorted(suited, key=lambda s: s[1])
        by_flush = sorted(suited, key=lambda s: s[2])
        plain_ranks = [s[1] for s in by_plain]
        flush_ranks = [s[2] for s in by_flush]
        with_rank_plain = [sum(1 << i for i, s in enumerate(by_plain) if s[0] >> r & 1) for r in range(13)]
        with_rank_flush = [sum(1 << i for i, s in enumerate(by_flush) if s[0] >> r & 1) for r in range(13)]
        every = (1 << len(suited)) - 1
        avoiding: dict[int, tuple[int, int]] = {}
        plain_below_q = (1 << bisect_left(plain_ranks, QUALIFIER)) - 1

        for pkey, player_subs, thresholds, patterns in players:
            if (pkey >> shift) & 7 == 4:
                continue
            resolved = [(cumulative[k], w) for k, w in player_subs]
            below: dict[int, tuple[int, int, int]] = {}
            for x in thresholds:
                total = 0
                for (ranks, cum), w in resolved:
                    total += w * cum[bisect_left(ranks, x)]
                below[x] = (total, (1 << bisect_left(plain_ranks, x)) - 1, (1 << bisect_left(flush_ranks, x)) - 1)
            below_q = below[QUALIFIER][0]
            for held, variants in patterns:
                if held & up_bit:
                    continue
                masks = avoiding.get(held)
                if masks is None:
                    hit_plain = hit_flush = 0
                    for r in range(13):
                        if held >> r & 1:
                            hit_plain |= with_rank_plain[r]
                            hit_flush |= with_rank_flush[r]
                    masks = avoiding[held] = (every & ~hit_plain, every & ~hit_flush)
                plain_ok, flush_ok = masks
                # the suited sets are flushes, never below A-K: out of the no-qualify count
                no_qualify = below_q - (plain_ok & plain_below_q).bit_count()
                for p, line, ways in variants:
                    if line is None:
                        key: _Class = (None, no_qualify, 0, 0)
                    else:
                        n, plain_pre, flush_pre = below[p]
                        lt = n - (plain_ok & plain_pre).bit_count() + (flush_ok & flush_pre).bit_count()
                        n, plain_pre, flush_pre = below[p + 1]
                        le = n - (plain_ok & plain_pre).bit_count() + (flush_ok & flush_pre).bit_count()
                        key = (line, no_qualify, lt - no_qualify, le - lt)
                    classes[key] = get(key, 0) + ways * 4  # the up card's four suits alike
    return classes, per_pair


def deal_counts(player: Sequence[Card], up: Card) -> tuple[int, int, int, int]:
    """For one player hand and dealer up card, by brute force over the 163,185 hole sets:
    (dealer does not qualify, qualifies and loses, ties, qualifies and wins)."""
    codes = card_codes(player)
    up_code = card_code(up)
    if len(set(codes)) != HAND_SIZE or up_code in codes:
        raise ValueError("five different player cards and a different up card")
    mine = rank_codes(codes)
    rest = [c for c in range(52) if c not in codes and c != up_code]
    no_qualify = wins = ties = losses = 0
    for hole in combinations(rest, 4):
        dealer = rank_codes((up_code, *hole))
        if dealer < QUALIFIER:
            no_qualify += 1
        elif dealer < mine:
            wins += 1
        elif dealer == mine:
            ties += 1
        else:
            losses += 1
    return no_qualify, wins, ties, losses


@cache
def optimal_return(raise_multiple: int, chart: tuple[tuple[str, int], ...]) -> tuple[int, int, int]:
    """(total return in antes, deals where the player raises, all deals) under the best fold/raise play."""
    classes, per_pair = deal_classes()
    pays = dict(chart)
    total = raised = pairs = 0
    lose_factor = 1 + raise_multiple
    for (line, no_qualify, wins, ties), ways in classes.items():
        losses = per_pair - no_qualify - wins - ties
        value = no_qualify - losses * lose_factor
        if wins:
            value += wins * (1 + raise_multiple * pays[line or "high_card"])
        pairs += ways
        if value > -per_pair:
            total += value * ways
            raised += ways * per_pair
        else:
            total -= per_pair * ways
    return total, raised, pairs * per_pair


ENGINE = CaribbeanStud()
