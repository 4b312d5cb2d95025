"""Spoil Five, Forty-Five and Auction Forty-Fives (tables/scoring/spoil_five.py), from the rule book's SPOIL
FIVE section. No database."""

from __future__ import annotations

import pytest

from tables.scoring.registry import get_game
from tables.scoring.spoil_five import GAMES
from tests.scoring.helpers import scorer

THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "dee"]
US, THEM = "ann & cy", "bob & dee"


sheet, refused = scorer(GAMES, players=THREE)


def pot(s) -> int:
    return -sum(s["totals"].values())


def test_every_game_is_in_the_registry():
    for name in ("spoil_five", "forty_five", "auction_forty_fives"):
        assert get_game(name) is GAMES[name]


# -- Spoil Five -----------------------------------------------------------------------------------------


def test_each_player_puts_a_chip_in_and_the_first_to_three_tricks_takes_the_pot():
    # "Before every hand, players put one chip each into a pot. The pot may be taken by the first player to
    # win three tricks in any deal."
    s = sheet("spoil_five", [{"tricks": {"bob": 3, "ann": 1}}])
    assert s["totals"] == {"ann": -1, "bob": 2, "cy": -1}
    assert s["deals"][0]["notes"] == ["bob wins three tricks and takes the pot of 3"]
    assert pot(s) == 0


def test_a_spoiled_hand_rolls_the_pot_over():
    # nobody wins three: the pot stays and every player adds a chip for the next hand
    s = sheet("spoil_five", [{"tricks": {"ann": 2, "bob": 2, "cy": 1}}, {"tricks": {"bob": 3, "cy": 1}}])
    assert s["deals"][0]["notes"] == ["spoiled: nobody won three tricks, the pot of 3 rolls over"]
    assert s["deals"][0]["extra"]["pot_after"] == 3
    assert s["deals"][1]["notes"] == ["bob wins three tricks and takes the pot of 6"]
    assert s["totals"] == {"ann": -2, "bob": 4, "cy": -2}


def test_playing_on_for_all_five_wins_the_pot_and_a_chip_from_each_opponent():
    # "If he does, that player wins the pot plus one chip from each opponent."
    s = sheet("spoil_five", [{"tricks": {"ann": 5}, "jinx": True}], players=FOUR)
    assert s["totals"] == {"ann": 6, "bob": -2, "cy": -2, "dee": -2}
    assert s["deals"][0]["notes"] == ["ann jinxes and wins all five: the pot of 4 and a chip from each"]


def test_playing_on_and_failing_wins_nothing_and_the_pot_rolls_over():
    # "If he does not win all five tricks, the player wins nothing, and the pot 'rolls over' to the next hand."
    s = sheet("spoil_five", [{"tricks": {"ann": 4, "bob": 1}, "jinx": True}])
    assert s["totals"] == {"ann": -1, "bob": -1, "cy": -1}
    assert s["deals"][0]["extra"] == {"tricks": {"ann": 4, "bob": 1, "cy": 0}, "pot": 3, "won": False, "pot_after": 3}


def test_the_ante_is_a_setting():
    s = sheet("spoil_five", [{"tricks": {"cy": 3}}], config={"ante": 2})
    assert s["totals"] == {"ann": -2, "bob": -2, "cy": 4}


def test_a_dead_hand_gets_no_cards_until_the_pot_is_won_but_still_pays_in():
    # "the offender's hand is dead, and he does not receive cards until the pot in progress is won. However,
    # he must still add to the pot when other players do."
    spoiled = {"tricks": {"ann": 2, "bob": 2, "cy": 1}, "dead": ["cy"]}
    s = sheet("spoil_five", [spoiled])
    assert s["state"] == {"dead": ["cy"]}
    err = refused("spoil_five", {"tricks": {"ann": 2, "bob": 2, "cy": 1}}, before=[spoiled])
    assert (err.field, err.event, err.message) == ("tricks.cy", 1, "tricks.cy: cy's hand is dead until the pot is won")
    s = sheet("spoil_five", [spoiled, {"tricks": {"ann": 3, "bob": 2}}])
    assert s["totals"] == {"ann": 4, "bob": -2, "cy": -2}
    assert s["state"] == {"dead": []}


@pytest.mark.parametrize(
    ("deal", "code", "field", "message"),
    [
        (
            {"tricks": {"ann": 4, "bob": 1}},
            "bad_deal",
            "jinx",
            "jinx: ann won 4 tricks, so played on past the third: enter jinx",
        ),
        (
            {"tricks": {"ann": 2, "bob": 2}},
            "tricks_unaccounted",
            "tricks",
            "tricks: 4 entered; nobody won three, so all 5 were played",
        ),
        (
            {"tricks": {"ann": 2, "bob": 2, "cy": 1}, "jinx": True},
            "bad_deal",
            "jinx",
            "jinx: only a player who won three tricks can play on",
        ),
        ({"tricks": {"ann": 3, "bob": 1}, "jinx": True}, "tricks_unaccounted", "tricks", None),
        ({"tricks": {"ann": 3, "bob": 3}}, "tricks_unaccounted", "tricks", "tricks: 6 entered, the deal has 5"),
        ({"tricks": {"ann": 6}}, "bad_deal", "tricks.ann", None),
        ({"tricks": {"zed": 3}}, "bad_deal", "tricks.zed", None),
        ({"tricks": 3}, "bad_deal", "tricks", None),
        ({"tricks": {"ann": 3}, "dead": ["zed"]}, "bad_deal", "dead[0]", None),
        ({"tricks": {"ann": 3}, "dealer": "zed"}, "bad_deal", "dealer", None),
    ],
)
def test_spoil_five_refuses_impossible_hands(deal, code, field, message):
    err = refused("spoil_five", deal)
    assert (err.code, err.field, err.event) == (code, field, 0)
    if message is not None:
        assert err.message == message


# -- Forty-Five -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tricks", "value"), [(3, 5), (4, 5), (5, 10)])
def test_forty_five_three_or_four_tricks_5_all_five_10(tricks, value):
    # "The side taking three or four tricks scores 5 points; five tricks, 10 points."
    deal = {"tricks": {"bob": tricks, "ann": 5 - tricks}}
    assert sheet("forty_five", [deal], players=FOUR)["totals"] == {US: 0, THEM: value}


@pytest.mark.parametrize(("tricks", "value"), [(3, 5), (4, 15), (5, 25)])
def test_forty_five_the_difference_count(tricks, value):
    # "each trick counts 5 points, and the score of the side taking the fewest tricks is deducted from that of
    # the side taking the most tricks. Thus, three tricks count 5; four tricks, 15; five tricks, 25 points"
    deal = {"tricks": {"cy": tricks, "dee": 5 - tricks}}
    s = sheet("forty_five", [deal], players=FOUR, config={"scoring": "difference"})
    assert s["totals"] == {US: value, THEM: 0}


def test_forty_five_45_is_game():
    deals = [{"tricks": {"ann": 5}}] * 4 + [{"tricks": {"ann": 3, "bob": 2}}]
    s = sheet("forty_five", deals, players=["ann", "bob"])
    assert (s["totals"], s["winner"]) == ({"ann": 45, "bob": 0}, "ann")
    assert sheet("forty_five", deals[:4], players=["ann", "bob"])["winner"] is None
    six = ["a", "b", "c", "d", "e", "f"]
    s = sheet("forty_five", [{"tricks": {"b": 5}}], players=six)
    assert s["totals"] == {"a & c & e": 0, "b & d & f": 10}


def test_forty_five_refusals():
    assert refused("forty_five", {"tricks": {"ann": 4}}, players=FOUR).code == "tricks_unaccounted"
    assert refused("forty_five", {"tricks": {"ann": 3, "cy": 1, "bob": 1}}, players=FOUR).field == "tricks.cy"
    three = refused("forty_five", {"tricks": {"ann": 5}}, players=THREE)
    assert (three.code, three.message) == (
        "bad_players",
        "Forty-Five is for two, four (two against two) or six (three against three)",
    )


# -- Auction Forty-Fives ---------------------------------------------------------------------------------


def test_auction_each_trick_5_and_the_highest_trump_5_more():
    # "Each trick won counts 5 points, and the highest trump in play counts an additional 5 … If the high
    # bidder's side makes its bid, it scores all it makes … The opposing side always scores whatever it wins"
    s = sheet(
        "auction_forty_fives",
        [{"bidder": "ann", "bid": 15, "tricks": {"ann": 3, "bob": 2}, "high_trump": "cy"}],
        players=FOUR,
    )
    assert s["totals"] == {US: 20, THEM: 10}
    assert s["deals"][0]["notes"] == ["ann & cy make 15 with 20: 20", "bob & dee score 10"]


def test_auction_a_side_that_fails_loses_its_bid_and_the_others_still_score():
    s = sheet(
        "auction_forty_fives",
        [{"bidder": "ann", "bid": 20, "tricks": {"ann": 3, "bob": 2}, "high_trump": "bob"}],
        players=FOUR,
    )
    assert s["totals"] == {US: -20, THEM: 15}
    assert s["deals"][0]["notes"] == ["ann & cy fail 20 (15): -20", "bob & dee score 15"]


def test_auction_a_bid_of_30_is_worth_60_made_and_loses_30():
    # "A bid of 30 (for all five tricks) is worth 60 if it is made, and it loses 30 if it fails."
    made = {"bidder": "dee", "bid": 30, "tricks": {"bob": 5}, "high_trump": "dee"}
    assert sheet("auction_forty_fives", [made], players=FOUR)["totals"] == {US: 0, THEM: 60}
    lost = {"bidder": "dee", "bid": 30, "tricks": {"bob": 4, "ann": 1}, "high_trump": "dee"}
    assert sheet("auction_forty_fives", [lost], players=FOUR)["totals"] == {US: 5, THEM: -30}


def test_auction_a_side_with_100_may_not_bid_less_than_20():
    # given ann & cy at 110 (60, 25, and 25 as defenders)
    deals = [
        {"bidder": "ann", "bid": 30, "tricks": {"ann": 5}, "high_trump": "ann"},
        {"bidder": "ann", "bid": 20, "tricks": {"ann": 4, "bob": 1}, "high_trump": "ann"},
        {"bidder": "bob", "bid": 5, "tricks": {"ann": 4, "bob": 1}, "high_trump": "ann"},
    ]
    s = sheet("auction_forty_fives", deals, players=FOUR)
    assert s["totals"] == {US: 110, THEM: 10}
    err = refused(
        "auction_forty_fives",
        {"bidder": "cy", "bid": 15, "tricks": {"ann": 3, "bob": 2}, "high_trump": "ann"},
        players=FOUR,
        before=deals,
    )
    assert (err.code, err.field, err.event) == ("bad_bid", "bid", 3)
    assert err.message == "bid: ann & cy have 110; a side with 100 or more bids at least 20"


def test_auction_120_is_game_and_the_bidders_count_first():
    deals = [{"bidder": "ann", "bid": 30, "tricks": {"ann": 5}, "high_trump": "ann"}]
    s = sheet("auction_forty_fives", deals * 2, players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 120, THEM: 0}, US)
    assert s["deals"][1]["notes"][-1] == "ann & cy reach 120 and win"
    # both sides past 120 on one deal: the bidders win
    near = [
        {"bidder": "ann", "bid": 30, "tricks": {"ann": 5}, "high_trump": "ann"},
        {"bidder": "bob", "bid": 30, "tricks": {"bob": 5}, "high_trump": "bob"},
        {"bidder": "ann", "bid": 25, "tricks": {"ann": 4, "bob": 1}, "high_trump": "ann"},
        {"bidder": "bob", "bid": 25, "tricks": {"bob": 4, "ann": 1}, "high_trump": "bob"},
    ]
    s = sheet("auction_forty_fives", near, players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 90, THEM: 90}, None)
    ten = {"bidder": "bob", "bid": 10, "tricks": {"bob": 2, "ann": 3}, "high_trump": "ann"}
    s = sheet("auction_forty_fives", [*near, ten], players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 110, THEM: 100}, None)
    # when both sides reach 120 on one deal, the bidders (bob & dee) win
    twenty = {"bidder": "bob", "bid": 20, "tricks": {"bob": 4, "ann": 1}, "high_trump": "ann"}
    s = sheet("auction_forty_fives", [*near, ten, twenty], players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 120, THEM: 120}, THEM)


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        ({"bidder": "zed", "bid": 20, "tricks": {"ann": 5}, "high_trump": "ann"}, "bad_deal", "bidder"),
        ({"bidder": "ann", "bid": 35, "tricks": {"ann": 5}, "high_trump": "ann"}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 12, "tricks": {"ann": 5}, "high_trump": "ann"}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 0, "tricks": {"ann": 5}, "high_trump": "ann"}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 20, "tricks": {"ann": 4}, "high_trump": "ann"}, "tricks_unaccounted", "tricks"),
        ({"bidder": "ann", "bid": 20, "tricks": {"ann": 5}, "high_trump": "bob"}, "bad_deal", "high_trump"),
        ({"bidder": "ann", "bid": 20, "tricks": {"ann": 5}}, "bad_deal", "high_trump"),
        (
            {"bidder": "ann", "bid": 20, "trump": "stars", "tricks": {"ann": 5}, "high_trump": "ann"},
            "bad_deal",
            "trump",
        ),
    ],
)
def test_auction_refusals(deal, code, field):
    err = refused("auction_forty_fives", deal, players=FOUR)
    assert (err.code, err.field) == (code, field)


def test_auction_player_counts():
    assert refused("auction_forty_fives", {}, players=["a", "b", "c", "d", "e"]).code == "bad_players"
