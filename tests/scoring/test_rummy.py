"""Carousel rummy (tables/scoring/rummy.py), from the rule book. No database."""

from __future__ import annotations

import pytest

from tables.engines.cards import parse_card
from tables.engines.errors import EngineError
from tables.scoring.rummy import GAMES, card_points, check_melds, check_table
from tests.scoring.helpers import one_game_scorer

GAME = GAMES["carousel_rummy"]
TWO = ["ann", "bob"]
THREE = ["ann", "bob", "cy"]


sheet, refused = one_game_scorer(GAME, players=THREE)


# -- melds -----------------------------------------------------------------------------------


def test_the_seeds_meld_example_is_a_valid_rearrangement():
    # "Suppose two of the melds previously on the table were 8-9-10-J♦ and J-Q-K-A♠. The active player
    # has the J♥ … The melds on the table at the end of the hand would be 8-9-10♦, Q-K-A♠, and J♦-J♠-J♥."
    answer = check_table(
        {
            "before": [["8D", "9D", "10D", "JD"], ["JS", "QS", "KS", "AS"]],
            "hand": ["JH"],
            "after": [["8D", "9D", "10D"], ["QS", "KS", "AS"], ["JD", "JS", "JH"]],
        }
    )
    assert answer == {
        "valid": True,
        "melds": [
            {"cards": ["8D", "9D", "TD"], "kind": "sequence"},
            {"cards": ["QS", "KS", "AS"], "kind": "sequence"},
            {"cards": ["JD", "JS", "JH"], "kind": "set"},
        ],
    }


def test_a_rearrangement_cannot_take_a_card_from_the_middle_leave_two_or_keep_a_card():
    before = [["8D", "9D", "TD", "JD", "QD"]]
    middle = check_table(
        {"before": before, "hand": ["TH", "TS"], "after": [["8D", "9D", "JD", "QD"], ["TD", "TH", "TS"]]}
    )
    assert middle["valid"] is False
    assert "after[0]" in middle["reason"]
    two = check_table({"before": [["8D", "9D", "TD", "JD"]], "hand": [], "after": [["8D", "9D"], ["TD", "JD"]]})
    assert two["valid"] is False
    kept = check_table({"before": [["8D", "9D", "TD", "JD"]], "hand": [], "after": [["8D", "9D", "TD"]]})
    assert kept["valid"] is False
    assert "missing from the table: JD" in kept["reason"]


@pytest.mark.parametrize(
    ("meld", "valid"),
    [
        (["AS", "2S", "3S"], True),  # "A-2-3 and J-Q-K-A are both perfectly fine sequences"
        (["JS", "QS", "KS", "AS"], True),
        (["KS", "AS", "2S"], False),  # "but K-A-2 is not"
        (["7H", "7S", "7D"], True),
        (["7H", "7S", "7D", "7C"], True),
        (["7H", "7S", "7H"], False),  # "You cannot have two cards of the same suit in a set"
        (["7H", "7S"], False),
        (["4C", "5C", "7C"], False),
        (["4C", "5C", "6D"], False),
        (["JK=5C", "6C", "7C"], True),
        (["JK=7C", "7H", "7S"], True),
        (["JK=7H", "7H", "7S"], False),
    ],
)
def test_sets_and_sequences(meld, valid):
    assert check_melds([meld])["valid"] is valid


def test_a_joker_in_a_meld_must_say_what_it_stands_for():
    with pytest.raises(EngineError) as exc:
        check_melds([["JK", "6C", "7C"]])
    assert exc.value.field == "melds[0][0]"


def test_a_joker_moves_to_stand_for_another_card_once_its_natural_card_is_in_play():
    # the 6♣ from hand takes the joker's place; the joker then stands for the 9♦ in a new set
    answer = check_table(
        {
            "before": [["5C", "JK=6C", "7C"]],
            "hand": ["6C", "9H", "9S"],
            "after": [["5C", "6C", "7C"], ["9H", "9S", "JK=9D"]],
        }
    )
    assert answer["valid"] is True


def test_a_joker_changing_card_without_its_natural_card_is_refused():
    answer = check_table({"before": [["JK=8C", "9C", "TC"]], "hand": [], "after": [["JK=JC", "9C", "TC"]]})
    assert answer["valid"] is False
    assert "natural 8C" in answer["reason"]
    # and it cannot go back into a hand
    answer = check_table({"before": [["JK=8C", "9C", "TC", "JC"]], "hand": [], "after": [["9C", "TC", "JC"]]})
    assert answer["valid"] is False
    assert "missing from the table: JK" in answer["reason"]


def test_card_points():
    assert [card_points(parse_card(c, allow_joker=True)) for c in ("JK", "KS", "QD", "JH", "TC", "9S", "2H", "AD")] == [
        25,
        10,
        10,
        10,
        10,
        9,
        2,
        1,
    ]


# -- scoring a hand ------------------------------------------------------------------------------


def test_the_knocker_wins_the_differences():
    # given ann knocks with 4 (2♣ A♥ A♠), bob holds K♠ 9♦ (19), cy 7♥ 3♦ (10)
    deal = {"knocker": "ann", "hands": {"ann": ["2C", "AH", "AS"], "bob": ["KS", "9D"], "cy": ["7H", "3D"]}}
    s = sheet([deal])
    # then ann scores (19 − 4) + (10 − 4) = 21, nobody else scores
    assert s["deals"][0]["points"] == {"ann": 21, "bob": 0, "cy": 0}
    assert s["deals"][0]["extra"]["deadwood"] == {"ann": 4, "bob": 19, "cy": 10}
    assert s["state"] == {"hands_won": {"ann": 1, "bob": 0, "cy": 0}}


def test_an_undercut_wins_with_ten_points_bonus():
    # bob has 3 against ann's knock on 4: bob wins (4 − 3) + (10 − 3) + 10
    deal = {"knocker": "ann", "hands": {"ann": ["2C", "AH", "AS"], "bob": ["3S"], "cy": ["7H", "3D"]}}
    s = sheet([deal])
    assert s["deals"][0]["points"] == {"ann": 0, "bob": 18, "cy": 0}
    assert s["deals"][0]["extra"]["undercut"] is True


def test_an_equal_deadwood_undercuts_and_every_tied_player_but_the_knocker_wins():
    # ann knocks with 4; bob and cy both have 4: both win, each 0 + 0 + (the other) 0 … + 10
    deal = {"knocker": "ann", "hands": {"ann": ["4C"], "bob": ["4H"], "cy": ["2D", "2S"]}}
    s = sheet([deal])
    assert s["deals"][0]["points"] == {"ann": 0, "bob": 10, "cy": 10}
    assert s["deals"][0]["extra"]["winners"] == ["bob", "cy"]
    assert s["state"]["hands_won"] == {"ann": 0, "bob": 1, "cy": 1}


def test_melding_every_card_scores_25():
    deal = {"knocker": "ann", "hands": {"ann": [], "bob": ["KS", "9D"], "cy": ["JK"]}}
    s = sheet([deal])
    assert s["deals"][0]["points"] == {"ann": 19 + 25 + 25, "bob": 0, "cy": 0}


def test_melds_held_in_hand_do_not_count_and_are_checked():
    deal = {
        "knocker": "ann",
        "hands": {"ann": {"deadwood": ["AC"], "melds": [["7H", "7S", "JK=7D"]]}, "bob": ["KS"], "cy": ["5H"]},
    }
    assert sheet([deal])["deals"][0]["points"]["ann"] == 9 + 4
    bad = {
        "knocker": "ann",
        "hands": {"ann": {"deadwood": ["AC"], "melds": [["7H", "7S", "8D"]]}, "bob": ["KS"], "cy": ["5H"]},
    }
    assert refused(bad).field == "hands.ann.melds[0]"


def test_knocking_needs_less_than_five():
    deal = {"knocker": "ann", "hands": {"ann": ["5C"], "bob": ["KS"], "cy": ["9H"]}}
    error = refused(deal)
    assert (error.code, error.field) == ("cannot_knock", "knocker")


def test_the_pack_bounds_the_cards():
    # two players: one pack and one joker
    two_jokers = {"knocker": "ann", "hands": {"ann": ["JK"], "bob": ["JK"]}}
    assert refused(two_jokers, players=TWO).code == "card_exhausted"
    assert refused({"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["AS"]}}, players=TWO).code == "card_exhausted"
    # three players: two packs, two jokers
    assert sheet([{"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["AS", "JK"], "cy": ["JK"]}}])["totals"][
        "ann"
    ] == (26 - 1) + (25 - 1)


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"knocker": "zed", "hands": {}}, "knocker"),
        ({"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["KS"]}}, "hands.cy"),
        ({"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["KS"], "cy": ["ZZ"]}}, "hands.cy.deadwood[0]"),
        ({"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["KS"], "cy": ["2S"], "dee": []}}, "hands.dee"),
        ({"knocker": "ann", "hands": {"ann": ["AS"], "bob": ["KS"], "cy": "2S"}}, "hands.cy"),
        ({"knocker": "ann", "melds": []}, "melds"),
    ],
)
def test_bad_entries_name_the_field(deal, field):
    assert refused(deal).field == field


def test_the_game_ends_at_150_with_the_game_bonus_and_box_bonuses():
    # given ann wins two hands of 60 (melded out: 30 + 5 + 25) and bob one of 18
    ann_wins = {"knocker": "ann", "hands": {"ann": [], "bob": ["KS", "QS", "JS"], "cy": ["5H"]}}
    bob_wins = {"knocker": "bob", "hands": {"ann": ["KD", "5D"], "bob": ["2C"], "cy": ["7C"]}}  # 13 + 5
    s = sheet([ann_wins, ann_wins, bob_wins])
    assert s["totals"] == {"ann": 120, "bob": 18, "cy": 0}
    assert (s["status"], s["winner"]) == ("in_progress", None)
    # when ann wins a third hand of 60, reaching 180
    s = sheet([ann_wins, ann_wins, bob_wins, ann_wins])
    # then she wins the game: 60 + 100 game bonus + 3 × 25 box bonus; bob gets 25 for his one hand won
    assert s["deals"][3]["points"] == {"ann": 60 + 100 + 75, "bob": 25, "cy": 0}
    assert s["deals"][3]["extra"]["box_bonus"] == {"ann": 75, "bob": 25, "cy": 0}
    assert (s["status"], s["winner"]) == ("finished", "ann")
    assert s["totals"] == {"ann": 355, "bob": 43, "cy": 0}
    with pytest.raises(EngineError) as exc:
        sheet([ann_wins, ann_wins, bob_wins, ann_wins, bob_wins])
    assert exc.value.code == "game_over"


def test_the_game_winner_is_who_reached_150_even_if_box_bonuses_put_another_ahead():
    # given bob wins seven hands of 21: (10 − 1) + (13 − 1), 147 in all
    small = {"knocker": "bob", "hands": {"ann": ["KD"], "bob": ["AS"], "cy": ["KC", "3C"]}}
    assert sheet([small] * 7)["totals"] == {"ann": 0, "bob": 147, "cy": 0}
    # when ann melds out against two jokers and ten court cards: 50 + 100 + 25 = 175
    big = {
        "knocker": "ann",
        "hands": {"ann": [], "bob": ["JK", "JK"], "cy": ["KS", "KH", "KC", "KD", "QS", "QH", "QC", "QD", "JS", "JH"]},
    }
    s = sheet([small] * 7 + [big])
    # then ann reached 150 and wins, though bob's seven box bonuses (175) put his total above hers
    assert s["deals"][7]["points"] == {"ann": 175 + 100 + 25, "bob": 175, "cy": 0}
    assert s["winner"] == "ann"
    assert s["totals"] == {"ann": 300, "bob": 322, "cy": 0}


def test_two_players_tied_at_the_top_past_the_target_play_another_hand():
    # given game to 20: ann knocks on 4, bob and cy hold 4 too — both undercut, 10 each, twice
    tie = {"knocker": "ann", "hands": {"ann": ["4C"], "bob": ["4H"], "cy": ["4D"]}}
    s = sheet([tie, tie], config={"game_to": 20})
    assert s["totals"] == {"ann": 0, "bob": 20, "cy": 20}
    assert (s["status"], s["deals"][1]["notes"][-1]) == ("in_progress", "bob and cy tie at 20: play another hand")
    # when bob then wins a hand alone, he wins the game
    bob = {"knocker": "bob", "hands": {"ann": ["5C"], "bob": ["AH"], "cy": ["6D"]}}
    s = sheet([tie, tie, bob], config={"game_to": 20})
    assert s["winner"] == "bob"
    assert s["deals"][2]["points"] == {"ann": 0, "bob": 4 + 5 + 100 + 3 * 25, "cy": 2 * 25}


def test_a_settings_change_moves_the_bonuses():
    deal = {"knocker": "ann", "hands": {"ann": ["2C", "AH", "AS"], "bob": ["3S"], "cy": ["7H", "3D"]}}
    assert sheet([deal], config={"undercut_bonus": 20})["totals"]["bob"] == 28
