"""Crazy Casino (tables/scoring/crazy_casino.py), from the rule book. No database."""

from __future__ import annotations

import pytest

from tables.engines.cards import full_deck
from tables.engines.errors import EngineError
from tables.scoring.base import score_sheet
from tables.scoring.crazy_casino import GAMES, check_build

GAME = GAMES["crazy_casino"]
TWO = ["ann", "bob"]


def finals(items) -> set[str]:
    return {f"{b['colour']} {b['rank']}" for b in check_build({"items": items})["builds"]}


def sheet(deals, config=None):
    return score_sheet(GAME, {"players": TWO, "config": config or {}, "deals": deals})


# -- builds: the rule book's worked examples -------------------------------------------------------------


def test_a_red_9_a_red_4_and_a_black_6_build_a_red_7():
    answer = check_build({"items": ["9H", "4D", "6S"], "match": "7H"})
    assert answer["valid"] is True
    assert check_build({"items": ["9H", "4D", "6S"], "match": "7C"})["valid"] is False  # colour matters


def test_red_seven_and_black_three_make_nothing_but_red_four():
    assert finals(["7H", "3S"]) == {"red 4"}


def test_an_ace_absorbs_kings_of_either_colour():
    # same colour: the ace is one and becomes 14, still an ace; other colour: 14 becomes 1, still an ace
    assert "black A" in finals(["AS", "KC"])
    assert "black A" in finals(["AS", "KH"])
    assert "black A" in finals(["AS", "KC", "KH", "KD"])


def test_note_2_black_ace_black_king_red_jack_red_nine():
    # "black ace and king is black ace, and red jack is black three, and red nine is red six";
    # "… black 27 … black 16, and red nine is black 7"; the third way (red 19) cannot be left or captured
    assert finals(["AS", "KS", "JH", "9H"]) == {"red 6", "black 7"}
    # the steps: ace and king is an ace; with the red jack, black 3 or red 10 (black 16 must be built further)
    assert "black A" in finals(["AS", "KS"])
    assert finals(["AS", "KS", "JH"]) == {"black 3", "red 10"}


def test_note_3_black_ace_black_king_and_both_red_jacks():
    # the six ways: black 3, red 10, black 16 (further), black 5, red 21 (further), red 8
    assert finals(["AS", "KS", "JH", "JD"]) == {"black 3", "red 10", "black 5", "red 8"}


def test_two_cards_of_the_same_rank_and_colour_collapse():
    assert "red J" in finals(["JH", "JD"])  # "jack and jack is jack"
    assert "red J" not in finals(["JH", "JS"])  # different colours: only 11 − 11, nothing


def test_a_build_left_on_the_table_counts_as_one_card():
    # a black ace left on the table stays either 1 or 14: with a red 4, red 3 (4 − 1) or black 10 (14 − 4)
    assert finals([{"rank": "A", "colour": "black"}, "4H"]) == {"red 3", "black 10"}
    assert finals([{"rank": 7, "colour": "red"}, "7D"]) == {"red 7", "red A"}  # collapsed, or 7 + 7 = 14: an ace
    or_ace = check_build({"items": [{"rank": 7, "colour": "red"}, "7D"], "match": "AH"})
    assert or_ace["valid"] is True


def test_the_check_shows_one_way_to_build_it():
    answer = check_build({"items": ["AS", "KS", "JH", "JD"], "match": "5C"})
    assert answer["valid"] is True
    assert answer["how"].endswith("= black 5")
    assert check_build({"items": ["AS", "KS", "JH", "JD"], "match": "4C"}) | {"how": None} == {
        "items": ["A♠", "K♠", "J♥", "J♦"],
        "builds": check_build({"items": ["AS", "KS", "JH", "JD"]})["builds"],
        "match": "4♣",
        "valid": False,
        "reason": "these cannot be built into a black 4",
        "how": None,
    }


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"items": []}, "items"),
        ({"items": ["ZZ"]}, "items[0]"),
        ({"items": [{"rank": "X", "colour": "red"}]}, "items[0]"),
        ({"items": ["AS"] * 10}, "items"),
        ({"items": ["AS"], "match": "JK"}, "match"),
    ],
)
def test_bad_build_checks_name_the_field(payload, field):
    with pytest.raises(EngineError) as exc:
        check_build(payload)
    assert exc.value.field == field


def test_the_game_offers_the_build_check_and_no_other():
    assert GAME.describe()["checks"] == ["build"]
    with pytest.raises(EngineError) as exc:
        GAME.check("meld", {})
    assert exc.value.code == "unknown_check"


# -- scoring a hand --------------------------------------------------------------------------------


def test_scoring_by_counts():
    # given ann took 30 cards, 8 spades, 3 aces, big casino and 2 sweeps; bob 22 cards, 5 spades, 1 ace, little
    # casino, 1 sweep
    deal = {
        "captured": {
            "ann": {"count": 30, "spades": 8, "aces": 3, "big_casino": True, "little_casino": False, "sweeps": 2},
            "bob": {"count": 22, "spades": 5, "aces": 1, "big_casino": False, "little_casino": True, "sweeps": 1},
        }
    }
    s = sheet([deal])
    # then ann: cards 3 + spades 1 + aces 3 + big casino 2 + sweeps 2 = 11; bob: ace 1 + little casino 1 + sweep 1
    assert s["totals"] == {"ann": 11, "bob": 3}
    assert s["deals"][0]["notes"] == ["ann has most cards (30): 3", "ann has most spades (8): 1"]


def test_an_even_split_of_the_cards_scores_nothing():
    deal = {
        "captured": {
            "ann": {"count": 26, "spades": 7, "aces": 2, "big_casino": True},
            "bob": {"count": 26, "spades": 6, "aces": 2, "little_casino": True},
        }
    }
    assert sheet([deal])["totals"] == {"ann": 1 + 2 + 2, "bob": 2 + 1}


def test_scoring_by_the_cards_themselves():
    deck = [str(c) for c in full_deck()]
    ann = [c for c in deck if c[1] in "SH"]  # every spade and heart: 26 cards, 13 spades, A♠ A♥, 2♠
    bob = [c for c in deck if c[1] in "DC"]
    s = sheet([{"captured": {"ann": {"cards": ann, "sweeps": 1}, "bob": {"cards": bob}}}])
    assert s["totals"] == {"ann": 1 + 2 + 1 + 1, "bob": 2 + 2}
    assert s["deals"][0]["extra"]["captured"]["ann"] == {
        "count": 26,
        "spades": 13,
        "aces": 2,
        "big_casino": 0,
        "little_casino": 1,
        "sweeps": 1,
    }


@pytest.mark.parametrize(
    ("captured", "code", "field"),
    [
        (
            {
                "ann": {"count": 30, "spades": 8, "aces": 3, "big_casino": True},
                "bob": {"count": 21, "spades": 5, "aces": 1, "little_casino": True},
            },
            "cards_unaccounted",
            "captured",
        ),
        (
            {
                "ann": {"count": 30, "spades": 8, "aces": 3, "big_casino": True, "little_casino": True},
                "bob": {"count": 22, "spades": 5, "aces": 1, "little_casino": True},
            },
            "cards_unaccounted",
            "captured",
        ),
        (
            {"ann": {"count": 2, "spades": 8, "aces": 3, "big_casino": True}, "bob": {}},
            "bad_deal",
            "captured.ann.count",
        ),
        (
            {
                "ann": {"count": 52, "spades": 13, "aces": 4, "big_casino": True, "little_casino": True, "sweeps": 25},
                "bob": {},
            },
            "bad_deal",
            "captured.ann.sweeps",
        ),
        (
            {"ann": {"count": 52, "spades": 13, "aces": 4, "big_casino": True, "little_casino": True}},
            "bad_deal",
            "captured.bob",
        ),
        ({"ann": {"cards": ["AS", "AS"]}, "bob": {}}, "card_exhausted", "captured.ann.cards[1]"),
        ({"ann": {"cards": ["AS"], "count": 1}, "bob": {}}, "bad_deal", "captured.ann"),
        ({"ann": {"points": 3}, "bob": {}}, "bad_deal", "captured.ann.points"),
        ({"ann": {"count": 40, "spades": 0, "little_casino": True}, "bob": {}}, "bad_deal", "captured.ann.spades"),
    ],
)
def test_captures_that_do_not_account_for_the_pack_are_refused(captured, code, field):
    with pytest.raises(EngineError) as exc:
        sheet([{"captured": captured}])
    assert (exc.value.code, exc.value.field) == (code, field)


def test_game_end_settings():
    ann_big = {
        "captured": {
            "ann": {"count": 30, "spades": 8, "aces": 3, "big_casino": True},
            "bob": {"count": 22, "spades": 5, "aces": 1, "little_casino": True},
        }
    }  # 9 – 2
    bob_big = {
        "captured": {
            "bob": {"count": 30, "spades": 8, "aces": 3, "big_casino": True},
            "ann": {"count": 22, "spades": 5, "aces": 1, "little_casino": True},
        }
    }
    assert sheet([ann_big, bob_big] * 3)["winner"] is None  # no end set: the sheet is closed by hand
    assert sheet([ann_big, ann_big], config={"hands": 2})["winner"] == "ann"
    assert sheet([ann_big, bob_big], config={"hands": 2})["winner"] is None  # a tie plays on
    assert sheet([ann_big, bob_big, bob_big], config={"hands": 2})["winner"] == "bob"
    assert sheet([ann_big, ann_big, ann_big], config={"game_to": 28})["winner"] is None
    assert sheet([ann_big] * 3, config={"game_to": 27})["winner"] == "ann"
