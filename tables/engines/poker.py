"""Poker hand ranking for the poker-based table games: one integer scale, fast lookups.

A rank is a plain ``int``: higher is better, equal ints are an exact tie. Its top bits are the
:class:`Category`, the low 20 bits five 4-bit "nibbles" that break ties, most significant
first; a card rank counts 1 (deuce) … 13 (ace) in a nibble and 0 means "no card there".

Every function here (five-card poker, pai gow's five cards with the bug, the two-card pai gow
front, the three-card pusoy front) ranks on this one scale, so a front hand compares directly
with a back hand: a pair in front ``(pair, 0, 0, 0, 0)`` is below the same pair with kickers
behind ``(pair, k1, k2, k3, 0)``, and an ace-king front is below any ace-king-x-x-x back. So
"the back must outrank the front" is simply ``rank_paigow5(back) > rank_front2(front)``
(:func:`outranks`), and pusoy's ``back >= middle >= front`` is integer comparison too.

Straights carry their five cards in order: 5-4-3-2-A is ``(4, 3, 2, 1, 0)`` (the ace low,
the lowest straight) in standard poker and pusoy, and ``(13, 4, 3, 2, 1)`` in pai gow, where it
sits between A-K-Q-J-T ``(13, 12, 11, 10, 9)`` and K-Q-J-T-9 ``(12, 11, 10, 9, 8)``.

Speed: a card is an int code ``rank_index * 4 + suit_index``; the value of a hand is the sum
of one precomputed word per card that counts the ranks (3 bits each) and the suits (4 bits
each). Without a flush the rank counts index a table of every 5-, 6- and 7-card rank multiset
(74k entries, built once on import); with five of a suit the suit's ranks index a 13-bit
flush table. A seven-card hand is one ``sum`` and one dict look-up (``bench/evaluator.py``).

>>> from tables.engines.cards import parse_card
>>> hand = [parse_card(c) for c in ["AS", "KS", "QS", "JS", "TS"]]
>>> rank = rank5(hand)
>>> category_of(rank).name, chart_line(rank), hand_name(rank)
('STRAIGHT_FLUSH', 'royal_flush', 'royal flush')
>>> seven = [parse_card(c) for c in ["7H", "7D", "KC", "2S", "7S", "KD", "3C"]]
>>> rank, five = best5(seven)
>>> hand_name(rank), [str(c) for c in five]
('full house, sevens over kings', ['7H', '7D', '7S', 'KC', 'KD'])
>>> rank_paigow5([parse_card(c, allow_joker=True) for c in ["AS", "AH", "AD", "AC", "JK"]]) > rank_paigow5(hand)
True
>>> outranks([parse_card(c) for c in ["AS", "KD", "7H", "4C", "2S"]], [parse_card(c) for c in ["AH", "KC"]])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import combinations

from tables.engines.cards import JOKER_CARD, RANKS, SUITS, Card
from tables.engines.speech import Speech, english_value, speech


class Category(IntEnum):
    """Poker hand categories, weakest first; ``FIVE_ACES`` exists only in pai gow (four aces and the bug)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_ACES = 9


CATEGORY_SHIFT = 20
_TIE_MASK = (1 << CATEGORY_SHIFT) - 1
ACE = 12  # rank index of the ace (RANKS is ascending, ace high)
JOKER_CODE = 52

_CHART_LINES = {
    Category.HIGH_CARD: "high_card",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "two_pair",
    Category.THREE_OF_A_KIND: "three_of_a_kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full_house",
    Category.FOUR_OF_A_KIND: "four_of_a_kind",
    Category.STRAIGHT_FLUSH: "straight_flush",
    Category.FIVE_ACES: "five_aces",
}


# -- the rank scale ------------------------------------------------------------------------


def _make(category: Category | int, *nibbles: int) -> int:
    value = int(category)
    for i in range(5):
        value = (value << 4) | (nibbles[i] if i < len(nibbles) else 0)
    return value


def category_of(rank: int) -> Category:
    """The category of a rank from any function of this module."""
    return Category(rank >> CATEGORY_SHIFT)


def nibbles(rank: int) -> tuple[int, int, int, int, int]:
    """The five tie-break values of a rank, most significant first (ace 13 … deuce 1, 0 = none)."""
    return (
        (rank >> 16) & 15,
        (rank >> 12) & 15,
        (rank >> 8) & 15,
        (rank >> 4) & 15,
        rank & 15,
    )


def is_royal(rank: int) -> bool:
    """A-K-Q-J-T in one suit."""
    return category_of(rank) is Category.STRAIGHT_FLUSH and nibbles(rank)[:2] == (13, 12)


def chart_line(rank: int) -> str:
    """The pay-chart line of a rank: ``royal_flush``, ``straight_flush``, … ``pair``, ``high_card``."""
    if is_royal(rank):
        return "royal_flush"
    return _CHART_LINES[category_of(rank)]


def hand_name(rank: int) -> str:
    """Plain words for the dealer screen: ``'pair of kings'``, ``'ace-king high'``, ``'royal flush'``
    (:func:`hand_speech` in English)."""
    return english_value(hand_speech(rank), "words")


def hand_speech(rank: int) -> Speech:
    """:func:`hand_name` as a message for the dealer's words (tables/engines/speech.py): its id and ranks.

    >>> from tables.engines.cards import parse_card
    >>> hand_speech(rank5([parse_card(c) for c in ["KS", "KH", "9D", "4C", "2S"]])).to_json()
    [{'id': 'hand_pair', 'params': {'ranks': 'K'}}]
    """
    cat = category_of(rank)
    r = [RANKS[x - 1] for x in nibbles(rank) if x]
    if cat is Category.FIVE_ACES:
        return speech("hand_five_aces")
    if cat is Category.STRAIGHT_FLUSH:
        return speech("hand_royal_flush") if is_royal(rank) else speech("hand_straight_flush", rank=r[0])
    if cat is Category.FOUR_OF_A_KIND:
        return speech("hand_four", ranks=r[0])
    if cat is Category.FULL_HOUSE:
        return speech("hand_full_house", ranks=r[0], ranks2=r[1])
    if cat is Category.FLUSH:
        return speech("hand_flush", rank=r[0])
    if cat is Category.STRAIGHT:
        return speech("hand_straight", rank=r[0])
    if cat is Category.THREE_OF_A_KIND:
        return speech("hand_three", ranks=r[0])
    if cat is Category.TWO_PAIR:
        return speech("hand_two_pair", ranks=r[0], ranks2=r[1])
    if cat is Category.PAIR:
        return speech("hand_pair", ranks=r[0])
    return speech("hand_high_two", rank=r[0], rank2=r[1]) if len(r) > 1 else speech("hand_high", rank=r[0])


# -- card codes ----------------------------------------------------------------------------

# strings hash once and keep it, a frozen dataclass hashes its fields on every look-up
_RANK_CODE = {r: i * 4 for i, r in enumerate(RANKS)} | {JOKER_CARD.rank: JOKER_CODE}
_SUIT_CODE = {s: i for i, s in enumerate(SUITS)} | {JOKER_CARD.suit: 0}
_CARD: list[Card] = [Card(RANKS[c >> 2], SUITS[c & 3]) for c in range(52)] + [JOKER_CARD]


def card_code(card: Card) -> int:
    """``rank_index * 4 + suit_index`` (2S = 0 … AC = 51; the joker 52); the fast functions take codes."""
    try:
        return _RANK_CODE[card.rank] + _SUIT_CODE[card.suit]
    except (KeyError, AttributeError):
        raise ValueError(f"not a card: {card!r}") from None


def card_codes(cards: Iterable[Card]) -> list[int]:
    """Codes of several cards (see :func:`card_code`)."""
    try:
        return [_RANK_CODE[c.rank] + _SUIT_CODE[c.suit] for c in cards]
    except (KeyError, AttributeError):
        raise ValueError(f"not cards: {cards!r}") from None


def card_of(code: int) -> Card:
    """The card of a code."""
    return _CARD[code]


# -- tables --------------------------------------------------------------------------------

_RANK_UNIT = [1 << (3 * r) for r in range(13)]  # a rank-count word: 3 bits per rank
_SUIT_BASE = 16  # the full per-card word: suit counts in the low 16 bits, rank counts above
_WORD = [(_RANK_UNIT[c >> 2] << _SUIT_BASE) | (1 << (4 * (c & 3))) for c in range(52)]


def _straight_nibbles(top: int) -> tuple[int, ...]:
    if top == 3:  # 5-4-3-2-A: the ace plays low
        return (4, 3, 2, 1, 0)
    return (top + 1, top, top - 1, top - 2, top - 3)


def _straight_top(mask: int) -> int:
    """Rank index of the top card of the best straight in a rank bitmask, or -1."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    wheel = 0b1000000001111
    return 3 if mask & wheel == wheel else -1


_STRAIGHT = [_straight_top(m) for m in range(1 << 13)]


def _top_bits(mask: int, k: int) -> list[int]:
    out = []
    for r in range(12, -1, -1):
        if mask >> r & 1:
            out.append(r + 1)
            if len(out) == k:
                break
    return out


def _flush_rank(mask: int) -> int:
    """The best hand among five or more cards of one suit with these ranks."""
    top = _STRAIGHT[mask]
    if top >= 0:
        return _make(Category.STRAIGHT_FLUSH, *_straight_nibbles(top))
    return _make(Category.FLUSH, *_top_bits(mask, 5))


_FLUSH = {m: _flush_rank(m) for m in range(1 << 13) if m.bit_count() >= 5}


def _counts_rank(counts: Sequence[int]) -> int:
    """The best five-card hand, suits ignored, from the rank counts of 5 to 7 cards (index 0 = deuce)."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for r in range(12, -1, -1):
        c = counts[r]
        if c:
            by_count[c].append(r + 1)
            mask |= 1 << r
    quads, trips, pairs, singles = by_count[4], by_count[3], by_count[2], by_count[1]
    if quads:
        q = quads[0]
        kicker = max([x for x in mask_nibbles(mask) if x != q])
        return _make(Category.FOUR_OF_A_KIND, q, kicker)
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        return _make(Category.FULL_HOUSE, t, p)
    top = _STRAIGHT[mask]
    if top >= 0:
        return _make(Category.STRAIGHT, *_straight_nibbles(top))
    if trips:
        t = trips[0]
        return _make(Category.THREE_OF_A_KIND, t, *[x for x in mask_nibbles(mask) if x != t][:2])
    if len(pairs) >= 2:
        p1, p2 = pairs[0], pairs[1]
        return _make(Category.TWO_PAIR, p1, p2, [x for x in mask_nibbles(mask) if x not in (p1, p2)][0])
    if pairs:
        p = pairs[0]
        return _make(Category.PAIR, p, *[x for x in mask_nibbles(mask) if x != p][:3])
    return _make(Category.HIGH_CARD, *singles[:5])


def mask_nibbles(mask: int) -> list[int]:
    """The ranks in a 13-bit rank mask as nibble values (ace 13 … deuce 1), highest first."""
    return [r + 1 for r in range(12, -1, -1) if mask >> r & 1]


def _build_rank_table() -> dict[int, int]:
    """Every multiset of 5, 6 or 7 ranks (at most four of a rank) → its best hand, keyed by rank-count word.

    Five-card multisets are ranked from their counts; a bigger multiset takes the best of the
    multisets one card smaller (the best five of seven lie within some six of them), which
    is several times faster than ranking each seven-card multiset from scratch.
    """
    table: dict[int, int] = {}
    counts = [0] * 13

    def fill(r: int, left: int, key: int) -> None:
        if left == 0:
            table[key] = _counts_rank(counts)
            return
        if r == 13:
            return
        for c in range(min(4, left), -1, -1):
            counts[r] = c
            fill(r + 1, left - c, key + c * _RANK_UNIT[r])
        counts[r] = 0

    fill(0, 5, 0)
    smaller = table
    for _ in (6, 7):
        bigger: dict[int, int] = {}
        get = bigger.get
        for key, rank in smaller.items():
            for r in range(13):
                if (key >> (3 * r)) & 7 < 4:
                    k = key + _RANK_UNIT[r]
                    if get(k, -1) < rank:
                        bigger[k] = rank
        table.update(bigger)
        smaller = bigger
    return table


_RANKS_ONLY = _build_rank_table()


# -- standard poker ------------------------------------------------------------------------


def rank_codes(codes: Sequence[int]) -> int:
    """The best five-card hand among 5 to 7 card codes (no joker, one deck): the fast core."""
    total = 0
    for c in codes:
        total += _WORD[c]
    flush = (total + 0x3333) & 0x8888  # a suit nibble reaches 8 when its count reaches 5
    best = _RANKS_ONLY[total >> _SUIT_BASE]
    if flush:
        suit = (flush.bit_length() - 4) // 4
        mask = 0
        for c in codes:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        fl = _FLUSH[mask]
        if fl > best:
            best = fl
    return best


def _codes_checked(cards: Sequence[Card], sizes: tuple[int, ...], what: str) -> list[int]:
    if len(cards) not in sizes:
        raise ValueError(f"{what} takes {'/'.join(map(str, sizes))} cards, got {len(cards)}")
    codes = card_codes(cards)
    if len(set(codes)) != len(codes):
        raise ValueError(f"{what}: the same card twice")
    if JOKER_CODE in codes:
        raise ValueError(f"{what} is played without a joker")
    return codes


def rank5(cards: Sequence[Card]) -> int:
    """Standard five-card poker, no joker; A-2-3-4-5 is the lowest straight."""
    return rank_codes(_codes_checked(cards, (5,), "rank5"))


def rank7(cards: Sequence[Card]) -> int:
    """The rank of the best five of 5 to 7 cards (as :func:`best5` without finding the five)."""
    return rank_codes(_codes_checked(cards, (5, 6, 7), "rank7"))


def rank_pusoy5(cards: Sequence[Card]) -> int:
    """Pusoy's five-card hands rank as standard poker (A-2-3-4-5 the lowest straight, no joker)."""
    return rank5(cards)


def best5(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best five of 5 to 7 cards: its rank and the five cards, the deciding cards first.

    The five are ordered as a dealer calls them: the largest group first (trips before the
    pair of a full house, pairs before the kicker), higher ranks first, 5-4-3-2-A for the wheel.
    """
    codes = _codes_checked(cards, (5, 6, 7), "best5")
    best = rank_codes(codes)
    if len(codes) == 5:
        chosen: Sequence[int] = codes
    else:
        chosen = next(five for five in combinations(codes, 5) if rank_codes(five) == best)
    by_code = dict(zip(codes, cards, strict=True))
    return best, tuple(by_code[c] for c in _display_order(chosen, best))


def _display_order(codes: Sequence[int], rank: int) -> list[int]:
    counts: dict[int, int] = {}
    for c in codes:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    wheel = category_of(rank) in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and nibbles(rank)[0] == 4
    index = {c: i for i, c in enumerate(codes)}

    def key(c: int) -> tuple[int, int, int]:
        r = c >> 2
        high = -1 if wheel and r == ACE else r
        return (-counts[r], -high, index[c])

    return sorted(codes, key=key)


# -- pai gow: the bug, the wheel second, the two-card front --------------------------------

_PAIGOW_WHEEL = (13, 4, 3, 2, 1)


def _paigow_straights(rank: int) -> int:
    """Move 5-4-3-2-A up to pai gow's place for it, just below A-K-Q-J-T."""
    if rank >> CATEGORY_SHIFT in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and rank & _TIE_MASK == _make(
        0, 4, 3, 2, 1, 0
    ):
        return _make(rank >> CATEGORY_SHIFT, *_PAIGOW_WHEEL)
    return rank


_FIVE_ACES = _make(Category.FIVE_ACES, 13)


def rank_paigow_codes(codes: Sequence[int]) -> int:
    """:func:`rank_paigow5` on five card codes (the joker is 52)."""
    if JOKER_CODE not in codes:
        return _paigow_straights(rank_codes(codes))
    real = [c for c in codes if c != JOKER_CODE]
    if len(real) != 4:
        raise ValueError("a pai gow hand holds at most one joker")
    key = 0
    suits = set()
    mask = 0
    for c in real:
        key += _RANK_UNIT[c >> 2]
        suits.add(c & 3)
        mask |= 1 << (c >> 2)
    if (key >> (3 * ACE)) & 7 == 4:
        return _FIVE_ACES
    # the bug is an ace (of no suit that could make a flush)…
    best = _paigow_straights(_RANKS_ONLY[key + _RANK_UNIT[ACE]])
    # …or, only where that makes a straight, a flush or a straight flush, any card missing from the hand
    if mask.bit_count() == 4:
        suited = len(suits) == 1
        for r in range(13):
            if mask >> r & 1:
                continue
            if suited:
                rank = _FLUSH[mask | 1 << r]
            elif _STRAIGHT[mask | 1 << r] >= 0:
                rank = _RANKS_ONLY[key + _RANK_UNIT[r]]
            else:
                continue
            rank = _paigow_straights(rank)
            if rank > best:
                best = rank
    return best


def rank_paigow5(cards: Sequence[Card]) -> int:
    """Pai gow's five-card back hand: at most one joker, which plays as the bug.

    The bug counts as an ace, or as any missing card that completes a straight, a flush or a
    straight flush (in a flush it is the highest rank of the suit not already held, so
    JK-K-9-6-3 of hearts is an ace-high flush and AH-JK-9-6-3 of hearts king-high under
    the ace). Four aces and the bug are five aces, the top hand (rule book: "from five aces
    down to no pair"). A-2-3-4-5 is the second-highest straight (and straight flush).
    """
    if len(cards) != 5:
        raise ValueError(f"rank_paigow5 takes 5 cards, got {len(cards)}")
    codes = card_codes(cards)
    if len(set(codes)) != 5:
        raise ValueError("rank_paigow5: the same card twice")
    return rank_paigow_codes(codes)


def rank_front2_codes(codes: Sequence[int]) -> int:
    """:func:`rank_front2` on two card codes."""
    a, b = (ACE + 1 if c == JOKER_CODE else (c >> 2) + 1 for c in codes)
    if a == b:
        return _make(Category.PAIR, a)
    return _make(Category.HIGH_CARD, max(a, b), min(a, b))


def rank_front2(cards: Sequence[Card]) -> int:
    """Pai gow's two-card front hand: a pair or high cards; the joker is an ace.

    On the same scale as :func:`rank_paigow5`: a front pair of sevens ranks below a back pair
    of sevens (which has kickers), a front A-K below any back A-K-x-x-x.
    """
    if len(cards) != 2:
        raise ValueError(f"rank_front2 takes 2 cards, got {len(cards)}")
    codes = card_codes(cards)
    if codes[0] == codes[1]:
        raise ValueError("rank_front2: the same card twice")
    return rank_front2_codes(codes)


def rank_front3_codes(codes: Sequence[int]) -> int:
    """:func:`rank_front3` on three card codes."""
    a, b, c = sorted(((x >> 2) + 1 for x in codes), reverse=True)
    if a == c:
        return _make(Category.THREE_OF_A_KIND, a)
    if a == b:
        return _make(Category.PAIR, a, c)
    if b == c:
        return _make(Category.PAIR, b, a)
    return _make(Category.HIGH_CARD, a, b, c)


def rank_front3(cards: Sequence[Card]) -> int:
    """Pusoy's three-card front: trips, pair, high cards (no straights or flushes, no joker).

    On the same scale as :func:`rank5`, so ``back >= middle >= front`` compares ints.
    """
    codes = _codes_checked(cards, (3,), "rank_front3")
    return rank_front3_codes(codes)


def outranks(back: Sequence[Card], front: Sequence[Card]) -> bool:
    """Pai gow: whether a five-card back hand outranks a two-card front hand (else the hand is fouled)."""
    return rank_paigow5(back) > rank_front2(front)


# -- the raw tables, read-only, for exhaustive counting (house edges) ------------------------

RANK_UNIT: Sequence[int] = tuple(_RANK_UNIT)
"""``RANK_UNIT[r]`` adds one card of rank index ``r`` to a rank-count word (3 bits a rank)."""
RANK_COUNTS_TABLE: dict[int, int] = _RANKS_ONLY
"""Rank-count word of 5 to 7 cards → the best five-card rank, suits ignored (no flushes)."""
FLUSH_TABLE: dict[int, int] = _FLUSH
"""13-bit mask of five or more ranks in one suit → the best flush or straight flush among them."""


def make_rank(category: Category, *values: int) -> int:
    """A rank from its category and up to five tie-break nibbles (ace 13 … deuce 1)."""
    return _make(category, *values)
