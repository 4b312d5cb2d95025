"""The poker hand evaluator: categories, kickers, wheels, the bug, front hands, the shared scale."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines.cards import full_deck, parse_card
from tables.engines.poker import (
    JOKER_CODE,
    Category,
    best5,
    card_code,
    card_of,
    category_of,
    chart_line,
    hand_name,
    nibbles,
    outranks,
    rank5,
    rank7,
    rank_codes,
    rank_front2,
    rank_front3,
    rank_paigow5,
    rank_paigow_codes,
    rank_pusoy5,
)


def cards(text: str) -> list:
    return [parse_card(c, allow_joker=True) for c in text.split()]


def r5(text: str) -> int:
    return rank5(cards(text))


def pg(text: str) -> int:
    return rank_paigow5(cards(text))


# -- categories ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "category", "line", "name"),
    [
        ("AS KS QS JS TS", Category.STRAIGHT_FLUSH, "royal_flush", "royal flush"),
        ("9H 8H 7H 6H 5H", Category.STRAIGHT_FLUSH, "straight_flush", "nine-high straight flush"),
        ("5D 4D 3D 2D AD", Category.STRAIGHT_FLUSH, "straight_flush", "five-high straight flush"),
        ("QC QD QH QS 2C", Category.FOUR_OF_A_KIND, "four_of_a_kind", "four queens"),
        ("6C 6D 6H KS KC", Category.FULL_HOUSE, "full_house", "full house, sixes over kings"),
        ("AH JH 8H 4H 2H", Category.FLUSH, "flush", "ace-high flush"),
        ("TC 9D 8H 7S 6C", Category.STRAIGHT, "straight", "ten-high straight"),
        ("AC KD QH JS TC", Category.STRAIGHT, "straight", "ace-high straight"),
        ("5C 4D 3H 2S AC", Category.STRAIGHT, "straight", "five-high straight"),
        ("7C 7D 7H KS 2C", Category.THREE_OF_A_KIND, "three_of_a_kind", "three sevens"),
        ("JC JD 4H 4S AC", Category.TWO_PAIR, "two_pair", "two pair, jacks and fours"),
        ("9C 9D AH 7S 2C", Category.PAIR, "pair", "pair of nines"),
        ("AC KD 9H 7S 2C", Category.HIGH_CARD, "high_card", "ace-king high"),
    ],
)
def test_every_category_is_recognised_and_named(hand: str, category: Category, line: str, name: str) -> None:
    # given / when
    rank = r5(hand)

    # then
    assert category_of(rank) is category
    assert chart_line(rank) == line
    assert hand_name(rank) == name


def test_categories_order_from_high_card_to_royal_flush() -> None:
    # given: one hand of each category, weakest first
    ladder = [
        "AC KD 9H 7S 2C",
        "2C 2D 3H 4S 6C",
        "2C 2D 3H 3S 4C",
        "2C 2D 2H 3S 4C",
        "5C 4D 3H 2S AC",
        "7H 5H 4H 3H 2H",
        "2C 2D 2H 3S 3C",
        "2C 2D 2H 2S 3C",
        "5D 4D 3D 2D AD",
        "AS KS QS JS TS",
    ]

    # when
    ranks = [r5(h) for h in ladder]

    # then
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("AC KD 9H 7S 3C", "AC KD 9H 7S 2D"),  # the fifth kicker decides
        ("AC KD 9H 8S 2C", "AD KC 9S 7H 6D"),  # the fourth kicker decides
        ("9C 9D AH 7S 3C", "9H 9S AD 7C 2C"),  # pair: third kicker
        ("9C 9D AH 7S 3C", "8H 8S AD KC QC"),  # higher pair beats better kickers
        ("JC JD 4H 4S 3C", "JH JS 4C 4D 2H"),  # two pair: kicker
        ("JC JD 5H 5S 2C", "JH JS 4C 4D AH"),  # two pair: second pair before the kicker
        ("QC QD QH 3S 2C", "JC JD JH AS KC"),  # trips
        ("3C 3D 3H 2S 2C", "2H 2S 2D AS AC"),  # full house: trips first
        ("6C 5D 4H 3S 2C", "5H 4S 3D 2C AC"),  # six-high straight beats the wheel
        ("AH KH QH JH 9H", "AS KS QS JS 8S"),  # flush: down to the last card
        ("KC KD KH KS 3C", "KC KD KH KS 2C"),  # quads: the kicker
    ],
)
def test_kickers_break_ties_in_order(better: str, worse: str) -> None:
    assert r5(better) > r5(worse)


def test_equal_hands_in_different_suits_tie_exactly() -> None:
    assert r5("AC KD 9H 7S 2C") == r5("AH KS 9D 7C 2H")
    assert r5("5C 4D 3H 2S AC") == r5("AH 2D 3C 4S 5H")


def test_the_wheel_is_the_lowest_straight_in_standard_poker_and_pusoy() -> None:
    # given
    wheel, six_high, ace_high = "5C 4D 3H 2S AC", "6C 5D 4H 3S 2C", "AC KD QH JS TC"

    # then
    assert r5(wheel) < r5(six_high) < r5(ace_high)
    assert r5(wheel) > r5("AC AD AH KS QC")  # still a straight, above trips
    assert rank_pusoy5(cards(wheel)) == r5(wheel)
    assert nibbles(r5(wheel)) == (4, 3, 2, 1, 0)


def test_no_straight_wraps_around_the_ace() -> None:
    assert category_of(r5("3C 2D AH KS QC")) is Category.HIGH_CARD


# -- best five of seven ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seven", "five", "name"),
    [
        ("7H 7D KC 2S 7S KD 3C", "7H 7D 7S KC KD", "full house, sevens over kings"),
        ("AS 2D 3C 4H 5S 9D 9C", "5S 4H 3C 2D AS", "five-high straight"),
        ("AS 2S 3S 4S 5S 6S KD", "6S 5S 4S 3S 2S", "six-high straight flush"),
        ("QH QD QC 8S 8D 8C 2H", "QH QD QC 8S 8D", "full house, queens over eights"),
        ("9C 9D 9H 9S AC AD AH", "9C 9D 9H 9S AC", "four nines"),
        ("KC KD 6H 6S 3C 3D 2H", "KC KD 6H 6S 3C", "two pair, kings and sixes"),
        ("AH 9H 7H 5H 3H 2H KD", "AH 9H 7H 5H 3H", "ace-high flush"),
        ("8C 7D 6H 5S 4C 3D 2H", "8C 7D 6H 5S 4C", "eight-high straight"),
    ],
)
def test_best5_picks_the_best_five_in_dealer_order(seven: str, five: str, name: str) -> None:
    # given / when
    rank, chosen = best5(cards(seven))

    # then
    assert [str(c) for c in chosen] == five.split()
    assert hand_name(rank) == name
    assert rank == r5(five) == rank7(cards(seven))


def test_best5_of_five_and_six_cards() -> None:
    rank, chosen = best5(cards("2C 9D 9H 5S KC"))
    assert [str(c) for c in chosen] == ["9D", "9H", "KC", "5S", "2C"]
    rank6, chosen6 = best5(cards("2C 9D 9H 5S KC 9S"))
    assert hand_name(rank6) == "three nines"
    assert len(chosen6) == 5


def test_best5_agrees_with_trying_every_five_on_random_seven_card_hands() -> None:
    # given
    rng = random.Random(7)
    for _ in range(2000):
        codes = rng.sample(range(52), 7)

        # when
        fast = rank_codes(codes)

        # then
        assert fast == max(rank_codes(five) for five in combinations(codes, 5))


@pytest.mark.parametrize(
    ("call", "hand"),
    [
        (rank5, "AS KS QS JS"),
        (rank5, "AS KS QS JS TS 9S"),
        (rank5, "AS KS QS JS JK"),
        (rank5, "AS AS QS JS TS"),
        (best5, "AS KS QS JS"),
        (best5, "AS KS QS JS TS 9S 8S 7S"),
        (rank_front2, "AS"),
        (rank_front2, "AS AS"),
        (rank_front3, "AS KS"),
        (rank_front3, "AS KS JK"),
        (rank_paigow5, "AS KS QS JS"),
        (rank_paigow5, "AS KS QS JS JS"),
    ],
)
def test_wrong_hands_are_refused_with_value_error(call, hand: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - several messages, one kind of refusal
        call(cards(hand))


def test_card_codes_round_trip() -> None:
    for card in full_deck():
        assert card_of(card_code(card)) == card
    assert card_code(parse_card("JK", allow_joker=True)) == JOKER_CODE
    assert card_code(parse_card("2S")) == 0
    assert card_code(parse_card("AC")) == 51


# -- pai gow: the bug and the wheel ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("AS AH AD AC JK", "five aces"),
        ("AS AH AD KC JK", "four aces"),
        ("KS KH KD 2C JK", "three kings"),  # the bug is an ace, not a fourth king
        ("KS KH QD QC JK", "two pair, kings and queens"),  # an ace kicker, not a full house
        ("KS KH 7D 2C JK", "pair of kings"),
        ("AS 7H 5D 2C JK", "pair of aces"),
        ("9S 7H 5D 2C JK", "ace-nine high"),
        ("KS QH JD TC JK", "ace-high straight"),
        ("KS QH JD 9C JK", "king-high straight"),  # the bug fills the ten
        ("2S 3H 4D 5C JK", "ace-high straight"),  # A-2-3-4-5 beats 6-5-4-3-2 in pai gow
        ("KH 9H 6H 3H JK", "ace-high flush"),
        ("AH 9H 6H 3H JK", "ace-high flush"),  # the bug is the king under the ace
        ("9H 8H 7H 6H JK", "ten-high straight flush"),
        ("AH KH QH JH JK", "royal flush"),
        ("2H 3H 4H 5H JK", "ace-high straight flush"),  # the pai gow wheel flush, below a royal
    ],
)
def test_the_bug_plays_as_an_ace_or_completes_a_straight_or_flush(hand: str, name: str) -> None:
    assert hand_name(pg(hand)) == name


def test_a_flush_with_the_bug_ranks_the_bug_as_the_highest_missing_card() -> None:
    # nibbles count a deuce 1 … an ace 13
    assert nibbles(pg("KH 9H 6H 3H JK")) == (13, 12, 8, 5, 2)
    assert nibbles(pg("AH 9H 6H 3H JK")) == (13, 12, 8, 5, 2)
    assert nibbles(pg("AH KH 6H 3H JK")) == (13, 12, 11, 5, 2)


def test_the_pai_gow_wheel_is_the_second_highest_straight() -> None:
    # given
    broadway, wheel, king_high = pg("AC KD QH JS TC"), pg("5C 4D 3H 2S AC"), pg("KC QD JH TS 9C")

    # then
    assert broadway > wheel > king_high
    assert pg("AH KH QH JH TH") > pg("5S 4S 3S 2S AS") > pg("KD QD JD TD 9D")
    assert chart_line(pg("5S 4S 3S 2S AS")) == "straight_flush"
    assert pg("5C 4D 3H 2S JK") == wheel


def test_five_aces_beat_a_royal_flush() -> None:
    assert category_of(pg("AS AH AD AC JK")) is Category.FIVE_ACES
    assert pg("AS AH AD AC JK") > pg("AH KH QH JH TH")
    assert chart_line(pg("AS AH AD AC JK")) == "five_aces"


def test_pai_gow_ranks_agree_with_standard_poker_except_the_wheel() -> None:
    # given
    rng = random.Random(3)
    for _ in range(3000):
        five = rng.sample(range(52), 5)

        # when
        standard, paigow = rank_codes(five), rank_paigow_codes(five)

        # then
        if nibbles(standard) == (4, 3, 2, 1, 0):
            assert paigow > standard
        else:
            assert paigow == standard


def test_the_bug_is_the_best_card_it_may_stand_for_on_sampled_hands() -> None:
    # given: the rule spelled out, slowly: any missing ace, or any missing card making a straight or flush
    rng = random.Random(5)
    made = {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH}
    samples = [rng.sample(range(52), 4) for _ in range(600)]
    samples += [[r * 4 + 1 for r in ranks] for ranks in combinations(range(13), 4)][::7]  # suited hands
    for four in samples:
        # when
        fast = rank_paigow_codes([*four, JOKER_CODE])

        # then
        if sum(1 for c in four if c >> 2 == 12) == 4:
            assert category_of(fast) is Category.FIVE_ACES
            continue
        slow = max(
            rank
            for c in range(52)
            if c not in four
            for rank in [rank_paigow_codes([*four, c])]
            if c >> 2 == 12 or category_of(rank) in made
        )
        assert fast == slow


# -- front hands and the shared scale ----------------------------------------------------------


def test_front2_pairs_beat_high_cards_and_the_joker_is_an_ace() -> None:
    # given
    deuces, ace_king, joker_king = rank_front2(cards("2S 2H")), rank_front2(cards("AS KH")), rank_front2(cards("JK KH"))

    # then
    assert deuces > ace_king == joker_king
    assert hand_name(rank_front2(cards("JK AH"))) == "pair of aces"
    assert rank_front2(cards("3S 2H")) < rank_front2(cards("4S 2H"))
    assert rank_front2(cards("KS 9H")) > rank_front2(cards("KD 8H"))
    assert rank_front2(cards("AS KH")) == rank_front2(cards("KD AC"))


def test_front3_trips_pair_high_no_straights_or_flushes() -> None:
    assert hand_name(rank_front3(cards("AS AH AD"))) == "three aces"
    assert rank_front3(cards("AS AH AD")) > rank_front3(cards("KS KH QD")) > rank_front3(cards("KS KH JD"))
    assert category_of(rank_front3(cards("QS KS AS"))) is Category.HIGH_CARD
    assert rank_front3(cards("4S 3H 2D")) < rank_front3(cards("5S 3H 2D"))
    assert rank_front3(cards("9S 9H 2D")) > rank_front3(cards("8S 8H AD"))


@pytest.mark.parametrize(
    ("back", "front", "legal"),
    [
        ("AS KD 7H 4C 2S", "AH KC", True),  # same two top cards: the back's kickers make it higher
        ("AS QD 7H 4C 2S", "AH KC", False),
        ("7S 7D KH 4C 2S", "7H 7C", True),  # same pair: back's kickers
        ("7S 7D KH 4C 2S", "8H 8C", False),
        ("2S 2D 5H 4C 3S", "AH KC", True),  # any pair behind beats high cards in front
        ("KS QD 9H 4C 2S", "2H 2C", False),
        ("5C 4D 3H 2S JK", "AH AC", True),
    ],
)
def test_the_back_must_outrank_the_front_on_one_scale(back: str, front: str, legal: bool) -> None:
    assert outranks(cards(back), cards(front)) is legal


def test_pusoy_front_compares_with_five_card_hands() -> None:
    # given: back >= middle >= front
    front, middle = rank_front3(cards("QS QH 9D")), rank5(cards("QD QC 9S 4H 2C"))

    # then
    assert middle > front
    assert rank5(cards("JD JC AS KH QC")) < front
    assert rank5(cards("QD QC 8S 7H 6C")) < front  # the front's second card decides first
    assert rank_front3(cards("AS KH 9D")) < rank5(cards("AD KC 9S 3H 2C"))


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)))
def test_any_seven_ranks_as_its_best_five(deck: list[int]) -> None:
    # given
    seven = deck[:7]

    # when
    rank, five = best5([card_of(c) for c in seven])

    # then
    assert rank == max(rank_codes(f) for f in combinations(seven, 5))
    assert rank == rank5(list(five))
