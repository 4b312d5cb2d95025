"""The Pai Gow Poker house way: how the dealer (or a player who asks) sets seven cards.

A house way is data. :class:`HouseWay` holds one whole number per rule (a rank threshold or a
0/1 switch), so a casino that splits two pair differently or keeps four sevens together changes
a number, not code; the engine takes a built-in way by name (``config.house_way``) or a custom
one from ``config.house_way_rules`` (a chart of these numbers). :func:`set_hand` applies a way to
seven cards and says which rule decided (``HandSetting.rule``), for the dealer screen and audits.

Ranks in the rules count 2 … 10, jack 11, queen 12, king 13, ace 14; the joker counts as an ace
(it pairs with an ace, and a lone joker is an ace singleton), except that it may complete a
straight or flush in the back (:func:`tables.engines.poker.rank_paigow5`). A threshold of 15
means "never", 2 means "always".

The default, :data:`STANDARD`, is the common Las Vegas house way as dealer schools teach it
(the "Trump Plaza" two-pair table: low pairs 2–6, medium 7–10, high J–K, aces apart):

>>> from tables.engines.cards import parse_card
>>> cards = [parse_card(c, allow_joker=True) for c in ["9S", "9D", "4H", "4C", "AS", "QD", "3C"]]
>>> s = set_hand(cards, STANDARD)
>>> s.rule, [str(c) for c in s.back], [str(c) for c in s.front]
('two_pair_keep', ['9S', '9D', '4H', '4C', '3C'], ['AS', 'QD'])
>>> s = set_hand(cards, STANDARD.replace(two_pair_keep_low_medium=15))
>>> s.rule, [str(c) for c in s.back], [str(c) for c in s.front]
('two_pair_split', ['9S', '9D', 'AS', 'QD', '3C'], ['4H', '4C'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from typing import Any

from tables.engines.cards import JOKER, RANKS, Card
from tables.engines.poker import Category, card_code, rank_front2_codes, rank_paigow_codes

ACE = 14
NEVER = 15  # a threshold no card reaches
LOW, MEDIUM, HIGH, ACES = "low", "medium", "high", "aces"


_VALUES: dict[str, int] = {r: i + 2 for i, r in enumerate(RANKS)}
_VALUES[JOKER] = ACE


def value(card: Card) -> int:
    """2 … 14 (ace); the joker counts 14, as an ace."""
    return _VALUES[card.rank]


@dataclass(frozen=True, slots=True)
class Rule:
    """One number of a house way: its bounds and what it means (for validation and the docs)."""

    name: str
    minimum: int
    maximum: int
    help: str


RULES: tuple[Rule, ...] = (
    Rule("medium_pair_min", 3, 14, "pairs from this rank up are medium (below: low)"),
    Rule("high_pair_min", 3, 14, "pairs from this rank up to kings are high (aces are their own class)"),
    Rule("two_pair_keep_low_low", 2, NEVER,
         "two pair, low and low: keep both pairs in back when the best singleton (to the front) is at least this"),
    Rule("two_pair_keep_low_medium", 2, NEVER, "two pair, medium and low: keep together with a singleton this high"),
    Rule("two_pair_keep_low_high", 2, NEVER, "two pair, high and low: keep together with a singleton this high"),
    Rule("two_pair_keep_medium_medium", 2, NEVER,
         "two pair, medium and medium: keep together with a singleton this high"),
    Rule("two_pair_keep_medium_high", 2, NEVER, "two pair, high and medium: keep together with a singleton this high"),
    Rule("two_pair_keep_high_high", 2, NEVER, "two pair, high and high: keep together with a singleton this high"),
    Rule("two_pair_keep_aces", 2, NEVER, "two pair, aces and any: keep together with a singleton this high"),
    Rule("two_pair_with_straight_flush", 0, 1,
         "two pair and a straight or flush: 0 play the two-pair rule, 1 play the straight/flush in back"),
    Rule("three_pair_front_highest", 0, 1,
         "three pair: 1 the highest pair in front, 0 the lowest pair in front (two higher pairs in back)"),
    Rule("trips_split_aces", 0, 1, "three aces: 1 split (pair of aces back, ace and the best singleton front)"),
    Rule("trips_with_straight_flush", 0, 1,
         "three of a kind and a straight or flush: 1 play the straight/flush in back and the best front"),
    Rule("two_trips_front_pair", 0, 1,
         "two threes of a kind: 1 lower trips in back and a pair of the higher in front, 0 higher trips in back"),
    Rule("full_house_split", 0, 1, "full house: 1 trips in back and the pair in front (unless the rule below)"),
    Rule("full_house_keep_pair_max", 1, 14,
         "…but keep the full house together when its pair is at most this rank (1: never) …"),
    Rule("full_house_keep_kickers_min", 2, NEVER, "…and both singletons are at least this (13: ace-king)"),
    Rule("quads_keep_max", 1, 14, "four of a kind at most this rank: keep together (1: never)"),
    Rule("quads_split_min", 2, NEVER, "four of a kind at least this rank: split into two pairs (15: never)"),
    Rule("quads_mid_keep_front_min", 2, NEVER,
         "four of a kind between the two: keep together when a singleton at least this goes in front, else split"),
    Rule("quads_with_pair_front", 0, 1, "four of a kind and a pair (or trips): 1 the pair in front, quads in back"),
    Rule("five_aces_keep_pair_min", 2, NEVER,
         "five aces (four and the joker): keep all five in back when the other two cards are a pair at least "
         "this high, else three aces back and a pair of aces front"),
    Rule("pair_with_straight_flush", 0, 1,
         "one pair and a straight or flush: 1 keep the straight/flush in back with the best front it leaves"),
    Rule("pair_straight_exception_min", 2, NEVER,
         "…except a pair at least this high with an ace singleton: pair in back, ace in front, when that front "
         "is better"),
    Rule("no_pair_with_straight_flush", 0, 1,
         "no pair, a straight or flush: 1 keep it in back with the best two cards it leaves in front"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class HouseWay:
    """Every rule of a house way as a number (see :data:`RULES`); defaults are :data:`STANDARD`."""

    medium_pair_min: int = 7
    high_pair_min: int = 11
    two_pair_keep_low_low: int = 13
    two_pair_keep_low_medium: int = 13
    two_pair_keep_low_high: int = 14
    two_pair_keep_medium_medium: int = 14
    two_pair_keep_medium_high: int = NEVER
    two_pair_keep_high_high: int = NEVER
    two_pair_keep_aces: int = NEVER
    two_pair_with_straight_flush: int = 0
    three_pair_front_highest: int = 1
    trips_split_aces: int = 1
    trips_with_straight_flush: int = 1
    two_trips_front_pair: int = 1
    full_house_split: int = 1
    full_house_keep_pair_max: int = 2
    full_house_keep_kickers_min: int = 13
    quads_keep_max: int = 6
    quads_split_min: int = 11
    quads_mid_keep_front_min: int = 14
    quads_with_pair_front: int = 1
    five_aces_keep_pair_min: int = 13
    pair_with_straight_flush: int = 1
    pair_straight_exception_min: int = 10
    no_pair_with_straight_flush: int = 1

    def as_chart(self) -> dict[str, int]:
        """The way as a chart of numbers, as ``config.house_way_rules`` takes it."""
        return asdict(self)

    def replace(self, **changes: int) -> HouseWay:
        """A copy with some rules changed."""
        return replace(self, **changes)

    @classmethod
    def from_chart(cls, chart: Mapping[str, Any]) -> HouseWay:
        """Build a way from a chart, checking every number; raises ``ValueError`` naming the bad rule."""
        known = {r.name: r for r in RULES}
        for name, number in chart.items():
            rule = known.get(name)
            if rule is None:
                raise ValueError(f"{name} is not a house-way rule")
            if isinstance(number, bool) or not isinstance(number, int) or not rule.minimum <= number <= rule.maximum:
                raise ValueError(f"{name} must be a whole number from {rule.minimum} to {rule.maximum}")
        way = cls(**{k: chart[k] for k in known if k in chart})
        if way.medium_pair_min >= way.high_pair_min:
            raise ValueError("medium_pair_min must be below high_pair_min")
        if way.quads_keep_max >= way.quads_split_min:
            raise ValueError("quads_keep_max must be below quads_split_min")
        return way


STANDARD = HouseWay()
# The Foxwoods-style table: two pair by the big pair (J-A split; 7-10 keep with an ace; 3-6 with a king),
# four 7s-10s kept with a king or better in front.
BY_BIG_PAIR = HouseWay(
    two_pair_keep_low_low=13,
    two_pair_keep_low_medium=14,
    two_pair_keep_low_high=NEVER,
    two_pair_keep_medium_medium=14,
    quads_mid_keep_front_min=13,
)
ALWAYS_SPLIT = HouseWay(
    two_pair_keep_low_low=NEVER,
    two_pair_keep_low_medium=NEVER,
    two_pair_keep_low_high=NEVER,
    two_pair_keep_medium_medium=NEVER,
)
BUILT_IN: dict[str, HouseWay] = {"standard": STANDARD, "by_big_pair": BY_BIG_PAIR, "always_split": ALWAYS_SPLIT}


@dataclass(frozen=True, slots=True)
class HandSetting:
    """Seven cards set: the five-card back, the two-card front, and the rule that decided."""

    back: tuple[Card, ...]
    front: tuple[Card, ...]
    rule: str


# sort keys: by value, a natural ace just above the joker
_ORDER: dict[str, int] = {r: 2 * v + 1 for r, v in _VALUES.items()}
_ORDER[JOKER] = 2 * ACE


def _desc(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: _ORDER[c.rank], reverse=True)


def _display(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Largest groups first, then higher ranks, as a dealer calls a hand."""
    counts = Counter(_VALUES[c.rank] for c in cards)
    return tuple(sorted(cards, key=lambda c: (counts[_VALUES[c.rank]], _ORDER[c.rank]), reverse=True))


def _can_complete(cards: Sequence[Card]) -> bool:
    """Whether any five of the cards (the joker filling in) make a straight or a flush: a cheap pre-check."""
    joker = False
    suits: dict[str, int] = {}
    mask = 0
    for c in cards:
        if c.rank == JOKER:
            joker = True
            continue
        suits[c.suit] = suits.get(c.suit, 0) + 1
        mask |= 1 << _VALUES[c.rank]
    if mask >> ACE & 1:
        mask |= 2  # the ace also plays low
    need = 4 if joker else 5
    if any(n >= need for n in suits.values()):
        return True
    return any(((mask >> low) & 0b11111).bit_count() >= need for low in range(1, 11))


def _best_complete(cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The best front among the settings that leave a straight or better in back (ties: the best back)."""
    codes = [card_code(c) for c in cards]
    best: tuple[int, int] | None = None
    chosen: tuple[int, int] | None = None
    for i, j in combinations(range(7), 2):
        back = [codes[k] for k in range(7) if k != i and k != j]
        back_rank = rank_paigow_codes(back)
        if back_rank >> 20 < Category.STRAIGHT:
            continue
        key = (rank_front2_codes((codes[i], codes[j])), back_rank)
        if best is None or key > best:
            best, chosen = key, (i, j)
    if chosen is None:
        return None
    i, j = chosen
    front_cards = tuple(_desc([cards[i], cards[j]]))
    back_cards = tuple(_desc([cards[k] for k in range(7) if k != i and k != j]))
    return back_cards, front_cards


def _front_key(cards: Sequence[Card]) -> int:
    return rank_front2_codes([card_code(c) for c in cards])


def pair_class(rank: int, way: HouseWay) -> str:
    """low, medium, high or aces, by the way's boundaries."""
    if rank == ACE:
        return ACES
    if rank >= way.high_pair_min:
        return HIGH
    if rank >= way.medium_pair_min:
        return MEDIUM
    return LOW


def two_pair_threshold(high: int, low: int, way: HouseWay) -> int:
    """The singleton that lets two pair (``high`` over ``low``) stay together in back."""
    hc, lc = pair_class(high, way), pair_class(low, way)
    if hc == ACES:
        return way.two_pair_keep_aces
    table = {
        (LOW, LOW): way.two_pair_keep_low_low,
        (MEDIUM, LOW): way.two_pair_keep_low_medium,
        (HIGH, LOW): way.two_pair_keep_low_high,
        (MEDIUM, MEDIUM): way.two_pair_keep_medium_medium,
        (HIGH, MEDIUM): way.two_pair_keep_medium_high,
        (HIGH, HIGH): way.two_pair_keep_high_high,
    }
    return table[(hc, lc)]


def set_hand(cards: Sequence[Card], way: HouseWay = STANDARD) -> HandSetting:
    """Set seven distinct cards (at most one joker) by ``way``; the result never fouls."""
    if len(cards) != 7:
        raise ValueError(f"the house way sets seven cards, got {len(cards)}")
    ordered = _desc(cards)
    groups: dict[int, list[Card]] = {}
    for c in ordered:
        groups.setdefault(value(c), []).append(c)
    by_size: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: [], 5: []}
    for v, members in groups.items():  # values in descending order, as ``ordered`` is
        by_size[len(members)].append(v)
    singles = [groups[v][0] for v in by_size[1]]

    def done(back: Sequence[Card], front: Sequence[Card], rule: str) -> HandSetting:
        return HandSetting(_display(back), _display(front), rule)

    def rest(*taken: Sequence[Card]) -> list[Card]:
        used = {id(c) for group in taken for c in group}
        return [c for c in ordered if id(c) not in used]

    if by_size[5]:
        aces = groups[ACE]
        others = rest(aces)
        if value(others[0]) == value(others[1]) and value(others[0]) >= way.five_aces_keep_pair_min:
            return done(aces, others, "five_aces_keep")
        # the two natural aces up front, the joker stays behind with the other aces
        front = [c for c in aces if not c.is_joker][-2:]
        return done(rest(front), front, "five_aces_split")

    if by_size[4]:
        q = by_size[4][0]
        quads = groups[q]
        others = rest(quads)
        paired = by_size[2] + by_size[3]
        if paired and way.quads_with_pair_front:
            pair = groups[paired[0]][:2]
            return done(rest(pair), pair, "quads_pair_front")
        keep = q <= way.quads_keep_max
        if not keep and q < way.quads_split_min:
            keep = value(others[0]) >= way.quads_mid_keep_front_min
        if keep:
            return done(quads + others[2:], others[:2], "quads_keep")
        return done(quads[:2] + others, quads[2:], "quads_split")

    if by_size[3]:
        t = by_size[3][0]
        trips = groups[t]
        if len(by_size[3]) == 2:
            low_trips = groups[by_size[3][1]]
            if way.two_trips_front_pair:
                front = trips[:2]
                return done(rest(front), front, "two_trips")
            front = low_trips[:2]
            return done(rest(front), front, "two_trips_high_back")
        if len(by_size[2]) == 2:
            front = groups[by_size[2][0]]
            return done(rest(front), front, "full_house_two_pair")
        if by_size[2]:
            pair = groups[by_size[2][0]]
            kickers = rest(trips, pair)
            small_pair = by_size[2][0] <= way.full_house_keep_pair_max
            if not way.full_house_split or (small_pair and value(kickers[1]) >= way.full_house_keep_kickers_min):
                return done(trips + pair, kickers, "full_house_keep")
            return done(rest(pair), pair, "full_house_split")
        if way.trips_with_straight_flush and _can_complete(cards):
            complete = _best_complete(cards)
            if complete is not None:
                return done(*complete, "trips_straight_flush")
        if t == ACE and way.trips_split_aces:
            # the joker (an ace either way) goes up front so the two natural aces stay a plain pair
            front = [sorted(trips, key=lambda c: not c.is_joker)[0], singles[0]]
            return done(rest(front), front, "trips_aces_split")
        return done(trips + singles[2:], singles[:2], "trips_keep")

    pairs = by_size[2]
    if len(pairs) == 3:
        pick = pairs[0] if way.three_pair_front_highest else pairs[2]
        front = groups[pick]
        return done(rest(front), front, "three_pair")

    if len(pairs) == 2:
        if way.two_pair_with_straight_flush and _can_complete(cards):
            complete = _best_complete(cards)
            if complete is not None:
                return done(*complete, "two_pair_straight_flush")
        high, low = groups[pairs[0]], groups[pairs[1]]
        if value(singles[0]) >= two_pair_threshold(pairs[0], pairs[1], way):
            return done(high + low + singles[2:], singles[:2], "two_pair_keep")
        return done(high + singles, low, "two_pair_split")

    if len(pairs) == 1:
        pair = groups[pairs[0]]
        if way.pair_with_straight_flush and _can_complete(cards):
            complete = _best_complete(cards)
            if complete is not None:
                ace_front = singles[:2]
                if (
                    pairs[0] >= way.pair_straight_exception_min
                    and value(singles[0]) == ACE
                    and _front_key(ace_front) > _front_key(complete[1])
                ):
                    return done(pair + singles[2:], ace_front, "pair_ace_over_straight_flush")
                return done(*complete, "pair_straight_flush")
        return done(pair + singles[2:], singles[:2], "one_pair")

    if way.no_pair_with_straight_flush and _can_complete(cards):
        complete = _best_complete(cards)
        if complete is not None:
            return done(*complete, "no_pair_straight_flush")
    return done(singles[:1] + singles[3:], singles[1:3], "no_pair")
