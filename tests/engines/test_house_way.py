"""The Pai Gow Poker house way: every rule, every number that varies it, and that it never fouls."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines.cards import JOKER_CARD, full_deck, parse_card
from tables.engines.house_way import (
    ALWAYS_SPLIT,
    BUILT_IN,
    BY_BIG_PAIR,
    NEVER,
    RULES,
    STANDARD,
    HouseWay,
    pair_class,
    set_hand,
    two_pair_threshold,
)
from tables.engines.poker import outranks


def cards(text: str) -> list:
    return [parse_card(c, allow_joker=True) for c in text.split()]


def setting(text: str, way: HouseWay = STANDARD) -> tuple[str, str, str]:
    s = set_hand(cards(text), way)
    return s.rule, " ".join(map(str, s.back)), " ".join(map(str, s.front))


# -- the rule table ------------------------------------------------------------------------


def test_every_rule_is_a_field_of_the_way_in_order() -> None:
    # given / when
    names = [f.name for f in fields(HouseWay)]
    # then
    assert names == [r.name for r in RULES]
    assert STANDARD.as_chart() == {f.name: getattr(STANDARD, f.name) for f in fields(HouseWay)}


def test_built_in_ways_are_valid_charts() -> None:
    # given / when / then
    for way in BUILT_IN.values():
        assert HouseWay.from_chart(way.as_chart()) == way
    assert set(BUILT_IN) == {"standard", "by_big_pair", "always_split"}


@pytest.mark.parametrize(
    ("chart", "message"),
    [
        ({"no_such_rule": 1}, "no_such_rule is not a house-way rule"),
        ({"trips_split_aces": 2}, "trips_split_aces must be a whole number from 0 to 1"),
        ({"two_pair_keep_low_low": 16}, "two_pair_keep_low_low must be a whole number from 2 to 15"),
        ({"two_pair_keep_low_low": True}, "two_pair_keep_low_low must be a whole number from 2 to 15"),
        ({"medium_pair_min": 11}, "medium_pair_min must be below high_pair_min"),
        ({"quads_keep_max": 11}, "quads_keep_max must be below quads_split_min"),
    ],
)
def test_from_chart_refuses_bad_numbers(chart: dict, message: str) -> None:
    # given / when
    with pytest.raises(ValueError, match=message) as info:
        HouseWay.from_chart(chart)
    # then
    assert str(info.value) == message


def test_from_chart_fills_missing_rules_from_the_standard_way() -> None:
    # given / when
    way = HouseWay.from_chart({"quads_mid_keep_front_min": 13})
    # then
    assert way == STANDARD.replace(quads_mid_keep_front_min=13)


@pytest.mark.parametrize(
    ("rank", "way", "expected"),
    [(2, STANDARD, "low"), (6, STANDARD, "low"), (7, STANDARD, "medium"), (10, STANDARD, "medium"),
     (11, STANDARD, "high"), (13, STANDARD, "high"), (14, STANDARD, "aces"),
     (10, STANDARD.replace(high_pair_min=10), "high"), (6, STANDARD.replace(medium_pair_min=6), "medium")],
)  # fmt: skip
def test_pair_classes(rank: int, way: HouseWay, expected: str) -> None:
    # given / when / then
    assert pair_class(rank, way) == expected


# -- no pair, one pair ---------------------------------------------------------------------


def test_no_pair_highest_back_next_two_front() -> None:
    # given / when / then
    assert setting("AS KD 9H 7C 5S 4D 2C") == ("no_pair", "AS 7C 5S 4D 2C", "KD 9H")


def test_no_pair_joker_is_the_ace() -> None:
    # given / when / then
    assert setting("JK KD 9H 7C 5S 4D 2C") == ("no_pair", "JK 7C 5S 4D 2C", "KD 9H")


def test_no_pair_straight_keeps_the_best_front_it_can() -> None:
    # given: a six-card straight, T-6 or 9-5 can stay behind
    hand = "TS 9S 8D 7H 6C 5S 2C"
    # when / then: 9-5 behind leaves ten-deuce, better than five-deuce
    assert setting(hand) == ("no_pair_straight_flush", "9S 8D 7H 6C 5S", "TS 2C")
    assert setting(hand, STANDARD.replace(no_pair_with_straight_flush=0)) == ("no_pair", "TS 7H 6C 5S 2C", "9S 8D")


def test_no_pair_flush_completed_by_the_joker() -> None:
    # given / when / then: the bug completes the heart flush; the king and the deuce go in front
    assert setting("JK QH 9H 6H 3H KC 2D") == ("no_pair_straight_flush", "JK QH 9H 6H 3H", "KC 2D")


def test_one_pair_pair_back_next_two_front() -> None:
    # given / when / then
    assert setting("KS KD 9H 7C 5S 3D 2C") == ("one_pair", "KS KD 5S 3D 2C", "9H 7C")


def test_one_pair_with_a_straight_plays_the_pair_in_front() -> None:
    # given
    hand = "4S 4D 9H 8C 7S 6D 5C"
    # when / then
    assert setting(hand) == ("pair_straight_flush", "9H 8C 7S 6D 5C", "4S 4D")
    assert setting(hand, STANDARD.replace(pair_with_straight_flush=0)) == ("one_pair", "4S 4D 7S 6D 5C", "9H 8C")


def test_one_pair_tens_or_better_with_an_ace_plays_pair_back_ace_front() -> None:
    # given: the straight needs the ace, leaving king-three in front
    hand = "KS KD AS QH JC TS 3D"
    # when / then
    assert setting(hand) == ("pair_ace_over_straight_flush", "KS KD JC TS 3D", "AS QH")
    no_exception = STANDARD.replace(pair_straight_exception_min=NEVER)
    assert setting(hand, no_exception) == ("pair_straight_flush", "AS KD QH JC TS", "KS 3D")


def test_one_pair_exception_only_when_the_ace_front_is_better() -> None:
    # given: the straight leaves ace-ten in front already, better than ace-nine
    # when / then
    assert setting("TS TD AS 9H 8C 7S 6D") == ("pair_straight_flush", "TD 9H 8C 7S 6D", "AS TS")


def test_one_pair_below_the_exception_keeps_the_straight() -> None:
    # given: nines are under the tens-or-better exception
    # when / then
    assert setting("9S 9D AS KH QC JS TD") == ("pair_straight_flush", "AS KH QC JS TD", "9S 9D")


# -- two pair ------------------------------------------------------------------------------

TWO_PAIR_CASES = [
    # (hand with the best singleton at the threshold, the same with it one below), STANDARD thresholds
    ("two_pair_keep_low_low", "5S 5D 3H 3C KS 9D 7C", "5S 5D 3H 3C QS 9D 7C"),
    ("two_pair_keep_low_medium", "9S 9D 3H 3C KS 8D 7C", "9S 9D 3H 3C QS 8D 7C"),
    ("two_pair_keep_low_high", "JS JD 3H 3C AS 9D 7C", "JS JD 3H 3C KS 9D 7C"),
    ("two_pair_keep_medium_medium", "TS TD 8H 8C AS 9D 7C", "TS TD 8H 8C KS 9D 7C"),
]


@pytest.mark.parametrize(("rule", "keep_hand", "split_hand"), TWO_PAIR_CASES)
def test_two_pair_keep_with_the_singleton_split_without(rule: str, keep_hand: str, split_hand: str) -> None:
    # given
    keep, split = cards(keep_hand), cards(split_hand)
    # when
    kept, splitted = set_hand(keep), set_hand(split)
    # then: kept, both pairs in back and the two best singletons in front; split, low pair in front
    assert kept.rule == "two_pair_keep"
    assert {str(c) for c in kept.front} == {str(keep[4]), str(keep[5])}
    assert splitted.rule == "two_pair_split"
    assert {str(c) for c in splitted.front} == {str(split[2]), str(split[3])}
    # and the rule's number moves it: at 15 it always splits, at 2 it always keeps
    assert set_hand(keep, STANDARD.replace(**{rule: NEVER})).rule == "two_pair_split"
    assert set_hand(split, STANDARD.replace(**{rule: 2})).rule == "two_pair_keep"


@pytest.mark.parametrize(
    ("rule", "hand"),
    [
        ("two_pair_keep_medium_high", "KS KD 8H 8C AS 9D 7C"),
        ("two_pair_keep_high_high", "KS KD JH JC AS 9D 7C"),
        ("two_pair_keep_aces", "AS AD 3H 3C KS 9D 7C"),
    ],
)
def test_two_pair_always_split_classes(rule: str, hand: str) -> None:
    # given / when / then: split even with an ace (or king) to play in front
    assert set_hand(cards(hand)).rule == "two_pair_split"
    assert set_hand(cards(hand), STANDARD.replace(**{rule: 13})).rule == "two_pair_keep"


def test_two_pair_split_sets_high_pair_back_low_pair_front() -> None:
    # given / when / then
    assert setting("KS KD 8H 8C AS 9D 7C") == ("two_pair_split", "KS KD AS 9D 7C", "8H 8C")
    assert setting("9S 9D 4H 4C AS QD 3C") == ("two_pair_keep", "9S 9D 4H 4C 3C", "AS QD")


def test_two_pair_joker_is_an_ace_singleton() -> None:
    # given: low and low with the bug → keep, the bug in front
    # when / then
    assert setting("5S 5D 3H 3C JK 9D 7C") == ("two_pair_keep", "5S 5D 3H 3C 7C", "JK 9D")


def test_two_pair_with_an_ace_and_the_joker_is_aces() -> None:
    # given: AS + JK is a pair of aces → always split
    # when / then
    assert setting("AS JK 3H 3C KS 9D 7C") == ("two_pair_split", "AS JK KS 9D 7C", "3H 3C")


def test_two_pair_pair_classes_follow_the_boundaries() -> None:
    # given: tens and fours, ace singleton: medium-low keeps with K+; with tens high, low-high needs an ace
    hand = cards("TS TD 4H 4C KS 9D 7C")
    # when / then
    assert two_pair_threshold(10, 4, STANDARD) == 13
    assert set_hand(hand).rule == "two_pair_keep"
    assert two_pair_threshold(10, 4, STANDARD.replace(high_pair_min=10)) == 14
    assert set_hand(hand, STANDARD.replace(high_pair_min=10)).rule == "two_pair_split"


def test_two_pair_with_a_straight_follows_the_two_pair_rule_unless_told() -> None:
    # given
    hand = "9S 9D 8H 8C 7S 6D 5C"
    # when / then
    assert setting(hand) == ("two_pair_split", "9S 9D 7S 6D 5C", "8H 8C")
    prefer = STANDARD.replace(two_pair_with_straight_flush=1)
    assert setting(hand, prefer) == ("two_pair_straight_flush", "9D 8C 7S 6D 5C", "9S 8H")


def test_by_big_pair_way() -> None:
    # given: nines and threes with a king: standard keeps (low-medium, K), by big pair needs an ace
    hand = "9S 9D 3H 3C KS 8D 7C"
    # when / then
    assert set_hand(cards(hand)).rule == "two_pair_keep"
    assert set_hand(cards(hand), BY_BIG_PAIR).rule == "two_pair_split"
    assert set_hand(cards("JS JD 3H 3C AS 9D 7C"), BY_BIG_PAIR).rule == "two_pair_split"


def test_always_split_way() -> None:
    # given / when / then
    assert set_hand(cards("5S 5D 3H 3C AS 9D 7C"), ALWAYS_SPLIT).rule == "two_pair_split"


# -- three pair, trips, full houses --------------------------------------------------------


def test_three_pair_highest_in_front() -> None:
    # given
    hand = "KS KD 8H 8C 4S 4D 2C"
    # when / then
    assert setting(hand) == ("three_pair", "8H 8C 4S 4D 2C", "KS KD")
    assert setting(hand, STANDARD.replace(three_pair_front_highest=0)) == ("three_pair", "KS KD 8H 8C 2C", "4S 4D")


def test_trips_back_two_highest_front() -> None:
    # given / when / then
    assert setting("9S 9D 9H KC 7S 4D 2C") == ("trips_keep", "9S 9D 9H 4D 2C", "KC 7S")


def test_three_aces_split() -> None:
    # given
    hand = "AS AD AH KC 7S 4D 2C"
    # when / then
    assert setting(hand) == ("trips_aces_split", "AD AH 7S 4D 2C", "AS KC")
    assert setting(hand, STANDARD.replace(trips_split_aces=0)) == ("trips_keep", "AS AD AH 4D 2C", "KC 7S")


def test_three_aces_with_the_joker_split_puts_the_joker_in_front() -> None:
    # given / when / then
    assert setting("AS AD JK KC 7S 4D 2C") == ("trips_aces_split", "AS AD 7S 4D 2C", "JK KC")


def test_trips_with_a_straight_play_the_straight_and_a_pair_in_front() -> None:
    # given
    hand = "6S 6D 6H 7C 8S 9D TC"
    # when / then
    assert setting(hand) == ("trips_straight_flush", "TC 9D 8S 7C 6H", "6S 6D")
    assert setting(hand, STANDARD.replace(trips_with_straight_flush=0)) == ("trips_keep", "6S 6D 6H 8S 7C", "TC 9D")


def test_two_trips_pair_of_the_higher_in_front() -> None:
    # given
    hand = "KS KD KH 5C 5S 5D 2C"
    # when / then
    assert setting(hand) == ("two_trips", "5C 5S 5D KH 2C", "KS KD")
    assert setting(hand, STANDARD.replace(two_trips_front_pair=0)) == ("two_trips_high_back", "KS KD KH 5D 2C", "5C 5S")


def test_full_house_with_two_pairs_highest_pair_front() -> None:
    # given / when / then
    assert setting("QS QD QH 9C 9S 4D 4C") == ("full_house_two_pair", "QS QD QH 4D 4C", "9C 9S")


def test_full_house_split() -> None:
    # given
    hand = "QS QD QH 9C 9S AD 4C"
    # when / then
    assert setting(hand) == ("full_house_split", "QS QD QH AD 4C", "9C 9S")
    assert setting(hand, STANDARD.replace(full_house_split=0)) == ("full_house_keep", "QS QD QH 9C 9S", "AD 4C")


def test_full_house_with_deuces_and_ace_king_stays_together() -> None:
    # given
    hand = "QS QD QH 2C 2S AD KC"
    # when / then
    assert setting(hand) == ("full_house_keep", "QS QD QH 2C 2S", "AD KC")
    assert setting("QS QD QH 2C 2S AD JC")[0] == "full_house_split"  # ace-jack is not enough
    assert setting("QS QD QH 3C 3S AD KC")[0] == "full_house_split"  # threes are not deuces
    assert setting(hand, STANDARD.replace(full_house_keep_pair_max=1))[0] == "full_house_split"
    assert setting("QS QD QH 3C 3S AD KC", STANDARD.replace(full_house_keep_pair_max=3))[0] == "full_house_keep"
    assert setting("QS QD QH 2C 2S AD JC", STANDARD.replace(full_house_keep_kickers_min=11))[0] == "full_house_keep"


# -- four of a kind, five aces -------------------------------------------------------------


def test_low_quads_stay_together() -> None:
    # given / when / then
    assert setting("5S 5D 5H 5C KS 9D 2C") == ("quads_keep", "5S 5D 5H 5C 2C", "KS 9D")
    assert setting("5S 5D 5H 5C KS 9D 2C", STANDARD.replace(quads_keep_max=4))[0] == "quads_split"


def test_high_quads_split() -> None:
    # given / when / then
    assert setting("JS JD JH JC AS 9D 2C") == ("quads_split", "JS JD AS 9D 2C", "JH JC")
    assert setting("JS JD JH JC AS 9D 2C", STANDARD.replace(quads_split_min=12))[0] == "quads_keep"


def test_middle_quads_keep_with_an_ace_to_play_in_front() -> None:
    # given / when / then
    assert setting("8S 8D 8H 8C AS 9D 2C") == ("quads_keep", "8S 8D 8H 8C 2C", "AS 9D")
    assert setting("8S 8D 8H 8C KS 9D 2C") == ("quads_split", "8S 8D KS 9D 2C", "8H 8C")
    assert setting("8S 8D 8H 8C JK 9D 2C")[0] == "quads_keep"  # the bug is an ace
    assert setting("8S 8D 8H 8C KS 9D 2C", STANDARD.replace(quads_mid_keep_front_min=13))[0] == "quads_keep"


def test_quads_with_a_pair_play_the_pair_in_front() -> None:
    # given
    hand = "8S 8D 8H 8C KS KD 2C"
    # when / then
    assert setting(hand) == ("quads_pair_front", "8S 8D 8H 8C 2C", "KS KD")
    assert setting("5S 5D 5H 5C KS KD KC") == ("quads_pair_front", "5S 5D 5H 5C KC", "KS KD")
    assert setting(hand, STANDARD.replace(quads_with_pair_front=0)) == ("quads_split", "KS KD 8S 8D 2C", "8H 8C")


def test_five_aces_split_unless_a_pair_of_kings() -> None:
    # given / when / then
    assert setting("AS AD AH AC JK 9D 2C") == ("five_aces_split", "AS AD JK 9D 2C", "AH AC")
    assert setting("AS AD AH AC JK QD QC") == ("five_aces_split", "AS AD JK QD QC", "AH AC")
    assert setting("AS AD AH AC JK KD KC") == ("five_aces_keep", "AS AD AH AC JK", "KD KC")
    assert setting("AS AD AH AC JK QD QC", STANDARD.replace(five_aces_keep_pair_min=12))[0] == "five_aces_keep"


# -- never a foul ---------------------------------------------------------------------------

DECK = [*full_deck(), JOKER_CARD]


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
       way=st.sampled_from(sorted(BUILT_IN)))  # fmt: skip
def test_the_house_way_never_fouls_and_uses_the_seven_cards(hand: list, way: str) -> None:
    # given / when
    s = set_hand(hand, BUILT_IN[way])
    # then
    assert outranks(s.back, s.front)
    assert sorted(map(str, s.back + s.front)) == sorted(map(str, hand))
    assert len(s.back) == 5
    assert len(s.front) == 2


@settings(max_examples=100, deadline=None)
@given(hand=st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
       chart=st.fixed_dictionaries({}, optional={r.name: st.integers(r.minimum, r.maximum) for r in RULES}))  # fmt: skip
def test_any_valid_custom_way_never_fouls(hand: list, chart: dict) -> None:
    # given
    try:
        way = HouseWay.from_chart(chart)
    except ValueError:
        return
    # when
    s = set_hand(hand, way)
    # then
    assert outranks(s.back, s.front)


def test_set_hand_takes_seven_cards() -> None:
    # given / when / then
    with pytest.raises(ValueError, match="seven cards"):
        set_hand(cards("AS KS"))
