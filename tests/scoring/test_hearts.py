"""Hearts and its family (tables/scoring/hearts.py), from the rule book's HEARTS section. No database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engines.errors import EngineError
from tables.scoring.hearts import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import scorer

FOUR = ["ann", "bob", "cy", "dee"]


sheet, refused = scorer(GAMES, players=FOUR)


def test_every_hearts_game_is_in_the_registry():
    for name in (
        "hearts",
        "omnibus_hearts",
        "cancellation_hearts",
        "domino_hearts",
        "auction_hearts",
        "hearts_without_black_lady",
    ):
        assert get_game(name) is GAMES[name]


# -- standard Hearts ----------------------------------------------------------------------------


def test_each_heart_is_one_point_and_the_queen_thirteen():
    # given a deal where ann took 3 hearts and the queen, bob 6, cy 4, dee none
    deal = {"taken": {"ann": {"hearts": 3, "queen": True}, "bob": {"hearts": 6}, "cy": 4}}
    # when it is scored
    s = sheet("hearts", [deal])
    # then
    assert s["deals"][0]["points"] == {"ann": 16, "bob": 6, "cy": 4, "dee": 0}
    assert sum(s["deals"][0]["points"].values()) == 26


def test_shooting_the_moon_scores_zero_and_each_opponent_26():
    # "Instead of losing 26 points, that player scores zero and each of his opponents score an additional 26"
    s = sheet("hearts", [{"taken": {"bob": {"hearts": 13, "queen": True}}}])
    assert s["deals"][0]["points"] == {"ann": 26, "bob": 0, "cy": 26, "dee": 26}
    assert s["deals"][0]["notes"] == ["bob shot the moon"]
    assert sum(s["totals"].values()) % 26 == 0


def test_the_moon_variants():
    moon = [{"taken": {"bob": {"hearts": 13, "queen": True}}}]
    assert sheet("hearts", moon, config={"moon": "subtract_from_self"})["totals"] == {
        "ann": 0,
        "bob": -26,
        "cy": 0,
        "dee": 0,
    }
    assert sheet("hearts", moon, config={"moon": "none"})["totals"] == {"ann": 0, "bob": 26, "cy": 0, "dee": 0}


def test_all_hearts_without_the_queen_is_no_moon():
    s = sheet("hearts", [{"taken": {"bob": {"hearts": 13}, "cy": {"queen": True}}}])
    assert s["totals"] == {"ann": 0, "bob": 13, "cy": 13, "dee": 0}


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ({"taken": {"ann": {"hearts": 12, "queen": True}}}, "hearts_unaccounted"),
        ({"taken": {"ann": {"hearts": 13}}}, "queen_unaccounted"),
        ({"taken": {"ann": {"hearts": 13, "queen": True}, "bob": {"queen": True}}}, "queen_unaccounted"),
        ({"taken": {"zed": {"hearts": 13, "queen": True}}}, "bad_deal"),
        ({"taken": {"ann": {"hearts": 14, "queen": True}}}, "bad_deal"),
        ({"taken": {"ann": {"hearts": 13, "queen": 1}}}, "bad_deal"),
        ({"taken": {"ann": {"hearts": 13, "queen": True, "plus": True}}}, "bad_deal"),
        ({"taken": {"ann": {"hearts": True, "queen": True}}}, "bad_deal"),
        ({"taken": ["ann"]}, "bad_deal"),
        ({"tricks": 3}, "bad_deal"),
    ],
)
def test_a_deal_that_does_not_account_for_the_pack_is_refused(deal, code):
    assert refused("hearts", deal).code == code


def test_the_refusal_names_the_field_and_the_deal():
    # given two good deals and a third with 12 hearts
    good = {"taken": {"ann": {"hearts": 13, "queen": False}, "bob": {"queen": True}}}
    with pytest.raises(EngineError) as exc:
        sheet("hearts", [good, good, {"taken": {"ann": {"hearts": 2}, "bob": {"hearts": 10, "queen": True}}}])
    assert (exc.value.code, exc.value.event, exc.value.field) == ("hearts_unaccounted", 2, "taken")


def test_game_to_100_lowest_wins():
    # given deals that take bob past 100
    deals = [{"taken": {"bob": {"hearts": 13}, "cy": {"queen": True}}}] * 7 + [
        {"taken": {"bob": {"hearts": 10}, "ann": {"hearts": 3}, "dee": {"queen": True}}}
    ]
    s = sheet("hearts", deals)
    # then after 7 deals bob has 91, cy 91: in progress; after the 8th bob 101 ends it, ann (3) is lowest
    assert s["deals"][6]["totals"] == {"ann": 0, "bob": 91, "cy": 91, "dee": 0}
    assert s["totals"] == {"ann": 3, "bob": 101, "cy": 91, "dee": 13}
    assert (s["winner"], s["status"]) == ("ann", "finished")


def test_game_to_50_setting_and_no_deal_after_the_end():
    deal = {"taken": {"bob": {"hearts": 13}, "cy": {"queen": True}}}
    s = sheet("hearts", [deal] * 4, config={"game_to": 50})
    assert s["winner"] is None  # bob and cy 52 — but ann and dee tie for lowest at 0: play on
    s = sheet(
        "hearts",
        [deal] * 4 + [{"taken": {"ann": {"hearts": 1}, "bob": {"hearts": 12}, "cy": {"queen": True}}}],
        config={"game_to": 50},
    )
    assert s["winner"] == "dee"
    with pytest.raises(EngineError) as exc:
        sheet(
            "hearts",
            [deal] * 4 + [{"taken": {"ann": 1, "bob": 12, "cy": {"queen": True}}}, deal],
            config={"game_to": 50},
        )
    assert (exc.value.code, exc.value.event) == ("game_over", 5)


def test_a_revoke_charges_the_revoking_hand_26():
    s = sheet("hearts", [{"penalty": ["cy"]}])
    assert s["totals"] == {"ann": 0, "bob": 0, "cy": 26, "dee": 0}
    s = sheet("hearts", [{"penalty": ["cy", "ann"]}])
    assert s["totals"] == {"ann": 26, "bob": 0, "cy": 26, "dee": 0}
    assert refused("hearts", {"penalty": ["cy"], "taken": {}}).code == "bad_deal"
    assert refused("hearts", {"penalty": ["cy", "cy"]}).code == "bad_deal"


def test_player_counts():
    with pytest.raises(EngineError) as exc:
        sheet("hearts", [], players=["ann", "bob"])
    assert exc.value.code == "bad_players"
    assert sheet("hearts", [{"taken": {"ann": 13, "bob": {"queen": True}}}], players=["ann", "bob", "cy"])[
        "totals"
    ] == {"ann": 13, "bob": 13, "cy": 0}


@given(st.lists(st.integers(0, 3), min_size=13, max_size=13), st.integers(0, 3))
def test_every_deal_totals_a_multiple_of_26(heart_owners, queen_owner):
    taken = {p: {"hearts": 0, "queen": False} for p in FOUR}
    for owner in heart_owners:
        taken[FOUR[owner]]["hearts"] += 1
    taken[FOUR[queen_owner]]["queen"] = True
    for moon in ("add_to_others", "none"):
        points = sheet("hearts", [{"taken": taken}], config={"moon": moon})["deals"][0]["points"]
        assert sum(points.values()) % 26 == 0
        assert all(v >= 0 for v in points.values())


# -- the rule book's scoring variations: chips and sweepstakes ------------------------------------------------


def test_chips_the_lowest_score_takes_the_pot_and_ties_leave_odd_chips():
    # given deal 1: ann 0, bob 5, cy 8, dee 13 (queen) → ann takes 26
    d1 = {"taken": {"bob": 5, "cy": 8, "dee": {"queen": True}}}
    # deal 2: ann 0, bob 0, cy 12, dee 14 → ann and bob split 26: 13 each
    d2 = {"taken": {"cy": 12, "dee": {"hearts": 1, "queen": True}}}
    # deal 3: ann 1, bob 1, cy 1, dee 23 → ann, bob and cy split 26: 8 each, 2 left for the next deal
    d3 = {"taken": {"ann": 1, "bob": 1, "cy": 1, "dee": {"hearts": 10, "queen": True}}}
    s = sheet("hearts", [d1, d2, d3], config={"settlement": "chips"})
    assert s["deals"][0]["points"] == {"ann": -26, "bob": 5, "cy": 8, "dee": 13}
    assert s["deals"][1]["points"] == {"ann": -13, "bob": -13, "cy": 12, "dee": 14}
    assert s["deals"][2]["points"] == {"ann": -7, "bob": -7, "cy": -7, "dee": 23}
    assert s["deals"][2]["extra"]["pot_left"] == 2
    assert sum(s["totals"].values()) == 2  # the odd chips still in the pot
    # deal 4: the pot of 2 + 26 goes to dee alone
    d4 = {"taken": {"ann": {"queen": True}, "bob": 12, "cy": 1}}
    s = sheet("hearts", [d1, d2, d3, d4], config={"settlement": "chips"})
    assert s["deals"][3]["extra"]["pot"] == 28
    assert s["deals"][3]["points"] == {"ann": 13, "bob": 12, "cy": 1, "dee": -28}
    assert sum(s["totals"].values()) == 0
    assert s["winner"] is None  # a chips game ends when the sheet is closed


def test_sweepstakes_only_a_zero_takes_the_pot():
    # every player takes a point: the pot of 26 stays; next deal cy alone scores zero and takes 52
    d1 = {"taken": {"ann": 1, "bob": 1, "cy": 1, "dee": {"hearts": 10, "queen": True}}}
    d2 = {"taken": {"ann": 5, "bob": 4, "dee": {"hearts": 4, "queen": True}}}
    s = sheet("hearts", [d1, d2], config={"settlement": "sweepstakes"})
    assert s["deals"][0]["points"] == {"ann": 1, "bob": 1, "cy": 1, "dee": 23}
    assert s["deals"][0]["notes"] == ["nobody scored zero: the pot of 26 stays for the next deal"]
    assert s["deals"][1]["points"] == {"ann": 5, "bob": 4, "cy": -52, "dee": 17}
    assert sum(s["totals"].values()) == 0


def test_chips_refuse_a_negative_moon():
    with pytest.raises(EngineError) as exc:
        sheet("hearts", [], config={"settlement": "chips", "moon": "subtract_from_self"})
    assert exc.value.field == "config.moon"


# -- Omnibus --------------------------------------------------------------------------------------


def test_omnibus_the_ten_of_diamonds_counts_plus_ten():
    s = sheet("omnibus_hearts", [{"taken": {"ann": {"hearts": 4, "plus": True}, "bob": {"hearts": 9, "queen": True}}}])
    assert s["totals"] == {"ann": -6, "bob": 22, "cy": 0, "dee": 0}
    assert sum(s["totals"].values()) == 16


def test_omnibus_slam_is_26_plus_instead_of_16_minus():
    # "When a player wins all fifteen counting cards … he scores 26 plus (instead of 16 minus)"
    s = sheet("omnibus_hearts", [{"taken": {"cy": {"hearts": 13, "queen": True, "plus": True}}}])
    assert s["totals"] == {"ann": 0, "bob": 0, "cy": -26, "dee": 0}
    # all the minus cards without the plus card is no slam: 26 minus, and dee keeps 10 plus
    s = sheet("omnibus_hearts", [{"taken": {"cy": {"hearts": 13, "queen": True}, "dee": {"plus": True}}}])
    assert s["totals"] == {"ann": 0, "bob": 0, "cy": 26, "dee": -10}


def test_omnibus_needs_the_plus_card_accounted_for():
    assert refused("omnibus_hearts", {"taken": {"cy": {"hearts": 13, "queen": True}}}).code == "plus_card_unaccounted"
    assert sheet("omnibus_hearts", [], config={"plus_card": "JD"})["config"]["plus_card"] == "JD"


# -- Cancellation, Domino ------------------------------------------------------------------------------


SEVEN = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]


def test_cancellation_two_packs_26_hearts_and_two_queens():
    s = sheet(
        "cancellation_hearts",
        [{"taken": {"p1": {"hearts": 20, "queens": 1}, "p2": {"hearts": 6, "queens": 1}}}],
        players=SEVEN,
    )
    assert s["totals"]["p1"] == 33
    assert s["totals"]["p2"] == 19
    assert sum(s["totals"].values()) == 52
    moon = sheet("cancellation_hearts", [{"taken": {"p3": {"hearts": 26, "queens": 2}}}], players=SEVEN)
    assert moon["totals"] == {p: (0 if p == "p3" else 52) for p in SEVEN}
    assert (
        refused("cancellation_hearts", {"taken": {"p1": {"hearts": 13, "queens": 2}}}, players=SEVEN).code
        == "hearts_unaccounted"
    )
    assert (
        refused("cancellation_hearts", {"taken": {"p1": {"hearts": 26, "queen": True}}}, players=SEVEN).code
        == "bad_deal"
    )


def test_domino_hearts_counts_hearts_only_unless_the_queen_is_scored():
    s = sheet("domino_hearts", [{"taken": {"ann": 9, "bob": 4}}], players=["ann", "bob"])
    assert s["totals"] == {"ann": 9, "bob": 4}
    assert (
        refused(
            "domino_hearts", {"taken": {"ann": 9, "bob": {"hearts": 4, "queen": True}}}, players=["ann", "bob"]
        ).code
        == "bad_deal"
    )
    moon = sheet("domino_hearts", [{"taken": {"ann": 13}}], players=["ann", "bob", "cy"])
    assert moon["totals"] == {"ann": 0, "bob": 13, "cy": 13}
    with_queen = sheet(
        "domino_hearts",
        [{"taken": {"ann": 9, "bob": {"hearts": 4, "queen": True}}}],
        players=["ann", "bob"],
        config={"queen_scores": True},
    )
    assert with_queen["totals"] == {"ann": 9, "bob": 17}


# -- Hearts without the Black Lady (Howell) and Auction Hearts -------------------------------------------


def test_howell_settlement_the_seeds_example():
    # "In a four-hand game, a player who won seven hearts puts in 21 chips and takes out six."
    s = sheet("hearts_without_black_lady", [{"taken": {"ann": 7, "bob": 3, "cy": 3}}])
    assert s["deals"][0]["extra"]["put_up"]["ann"] == 21
    assert s["deals"][0]["extra"]["take_out"]["ann"] == 6
    assert s["totals"] == {"ann": 15, "bob": -1, "cy": -1, "dee": -13}
    assert sum(s["totals"].values()) == 0


def test_auction_the_clean_player_takes_the_pot():
    # given ann bids 5 and names clubs; bob takes 4, cy 9, ann and dee none → they divide 5 + 13 = 18
    s = sheet("auction_hearts", [{"bid": {"player": "ann", "chips": 5}, "suit": "clubs", "taken": {"bob": 4, "cy": 9}}])
    assert s["deals"][0]["points"] == {"ann": -4, "bob": 4, "cy": 9, "dee": -9}
    assert s["state"] == {"bidder": None}
    # one clean player alone takes it, an odd chip when two divide stays for the next pot
    s = sheet("auction_hearts", [{"bid": {"player": "ann", "chips": 6}, "suit": "clubs", "taken": {"bob": 4, "cy": 9}}])
    assert s["deals"][0]["points"] == {"ann": -3, "bob": 4, "cy": 9, "dee": -9}
    assert s["deals"][0]["extra"]["pot_left"] == 1


def test_auction_no_winner_the_same_bidder_names_the_suit_without_bidding():
    # given every player takes a spade: nobody wins, the pot of 3 + 13 stays
    d1 = {"bid": {"player": "bob", "chips": 3}, "suit": "spades", "taken": {"ann": 1, "bob": 2, "cy": 3, "dee": 7}}
    s = sheet("auction_hearts", [d1])
    assert s["state"] == {"bidder": "bob"}
    assert sum(s["totals"].values()) == 16
    # when the next deal comes with a bid, it is refused: bob names the suit, no bidding
    with pytest.raises(EngineError) as exc:
        sheet("auction_hearts", [d1, d1])
    assert (exc.value.code, exc.value.event) == ("no_bidding", 1)
    # and the re-deal won by cy takes the whole pot: 16 + 13
    s = sheet("auction_hearts", [d1, {"suit": "hearts", "taken": {"ann": 5, "bob": 4, "dee": 4}}])
    assert s["deals"][1]["points"] == {"ann": 5, "bob": 4, "cy": -29, "dee": 4}
    assert sum(s["totals"].values()) == 0
    assert s["state"] == {"bidder": None}


def test_auction_one_player_taking_all_13_or_three_clean_players_is_no_winner():
    s = sheet("auction_hearts", [{"bid": {"player": "ann", "chips": 2}, "suit": "hearts", "taken": {"dee": 13}}])
    assert s["deals"][0]["extra"]["won"] == {}
    assert s["state"] == {"bidder": "ann"}
    s = sheet(
        "auction_hearts",
        [{"bid": {"player": "ann", "chips": 2}, "suit": "hearts", "taken": {"dee": 13}}],
        players=["ann", "bob", "dee"],
    )
    assert s["deals"][0]["extra"]["won"] == {}  # two clean players, but one took all 13: no winner


def test_auction_refusals():
    assert refused("auction_hearts", {"suit": "hearts", "taken": {"dee": 13}}).field == "bid"
    assert (
        refused("auction_hearts", {"bid": {"player": "ann", "chips": 0}, "suit": "hearts", "taken": {"dee": 13}}).field
        == "bid.chips"
    )
    assert (
        refused("auction_hearts", {"bid": {"player": "ann", "chips": 2}, "suit": "stars", "taken": {"dee": 13}}).field
        == "suit"
    )
    assert (
        refused("auction_hearts", {"bid": {"player": "ann", "chips": 2}, "suit": "hearts", "taken": {"dee": 12}}).code
        == "cards_unaccounted"
    )
