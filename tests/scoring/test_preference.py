"""Preference (tables/scoring/preference.py), from the rule book's PREFERENCE section. No database."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.scoring.preference import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import one_game_scorer

GAME = GAMES["preference"]
THREE = ["ann", "bob", "cy"]


sheet, refused = one_game_scorer(GAME, players=THREE)


def pot(s) -> int:
    return -sum(s["totals"].values())


def test_preference_is_in_the_registry():
    assert get_game("preference") is GAME
    assert [s["name"] for s in GAME.describe()["settings"]] == ["ante", "win", "lose"]


def test_a_bidder_taking_six_tricks_or_more_is_paid_the_agreed_amount_from_the_pot():
    # "If the bidder fulfills his bid by taking six or more tricks, he receives the agreed-upon amount of
    # chips from the pot." Each antes 1 (pot 3), a made bid is paid 3.
    s = sheet([{"bidder": "ann", "suit": "hearts", "tricks": 7}])
    assert s["totals"] == {"ann": 2, "bob": -1, "cy": -1}
    assert s["deals"][0]["notes"] == ["each antes 1", "ann bids hearts", "ann takes 7 tricks: 3 from the pot"]
    assert s["deals"][0]["extra"]["pot_after"] == 0
    s = sheet([{"bidder": "bob", "suit": "spades", "tricks": {"bob": 6, "ann": 2, "cy": 2}}])
    assert s["totals"] == {"ann": -1, "bob": 2, "cy": -1}


def test_a_bidder_short_of_six_pays_the_agreed_amount_into_the_pot():
    # "If the player fails to take at least six tricks, he puts an agreed-on number of chips into the pot."
    s = sheet([{"bidder": "ann", "suit": "hearts", "tricks": 7}, {"bidder": "bob", "suit": "spades", "tricks": 5}])
    assert s["deals"][1]["points"] == {"ann": -1, "bob": -4, "cy": -1}
    assert s["deals"][1]["notes"][-1] == "bob takes 5 tricks, short of six: pays 3 into the pot"
    assert s["totals"] == {"ann": 1, "bob": -5, "cy": -2}
    assert pot(s) == 6 == s["deals"][1]["extra"]["pot_after"]


def test_the_stakes_are_agreed_beforehand():
    # "the players must agree beforehand how many chips will be placed in the pot, how many chips will be paid
    # from the pot to the successful bidder, and finally, how many will be paid to the pot by a bidder who
    # fails"
    config = {"ante": 2, "win": 5, "lose": 4}
    s = sheet(
        [{"bidder": "cy", "suit": "clubs", "tricks": 3}, {"bidder": "ann", "suit": "diamonds", "tricks": 6}],
        config=config,
    )
    assert s["deals"][0]["points"] == {"ann": -2, "bob": -2, "cy": -6}
    assert s["deals"][1]["points"] == {"ann": 3, "bob": -2, "cy": -2}
    assert pot(s) == 11


def test_the_bidder_is_paid_no_more_than_the_pot_holds():
    s = sheet([{"bidder": "ann", "suit": "hearts", "tricks": 10}], config={"win": 10})
    assert s["totals"] == {"ann": 2, "bob": -1, "cy": -1}
    assert s["deals"][0]["notes"][-1] == "ann takes 10 tricks: 3 from the pot"
    s = sheet([{"passed": True}, {"bidder": "ann", "suit": "hearts", "tricks": 6}], config={"win": 10})
    assert s["deals"][1]["points"] == {"ann": 5, "bob": -1, "cy": -1}


def test_the_second_round_the_most_chips_put_in_wins_the_bid():
    # "For this extra round, a player either passes or, in turn, places extra chips in the pool. The person
    # who puts in the highest number of chips wins the bid and names the trump suit."
    s = sheet([{"bidder": "bob", "chips": {"bob": 3, "cy": 2}, "suit": "clubs", "tricks": 5}])
    assert s["deals"][0]["points"] == {"ann": -1, "bob": -7, "cy": -3}
    assert s["deals"][0]["notes"][1] == "second round: bob wins the bid with 3 chips to the pot"
    assert pot(s) == 11
    s = sheet([{"bidder": "bob", "chips": {"bob": 2}, "tricks": 8}])
    assert s["totals"] == {"ann": -1, "bob": 0, "cy": -1}


def test_a_deal_passed_both_rounds_only_feeds_the_pot():
    s = sheet([{"passed": True}])
    assert (s["totals"], s["deals"][0]["notes"]) == (
        {"ann": -1, "bob": -1, "cy": -1},
        ["each antes 1", "all passed both rounds: no bid"],
    )
    assert refused({"passed": True, "bidder": "ann"}).field == "bidder"


def test_the_game_has_no_end_the_sheet_is_closed_by_hand():
    s = sheet([{"bidder": "ann", "suit": "hearts", "tricks": 7}])
    assert s["winner"] is None
    assert GAME.leader(s["totals"], config=s["config"]) == "ann"


@pytest.mark.parametrize(
    ("deal", "code", "field", "message"),
    [
        ({"bidder": "zed", "suit": "hearts", "tricks": 6}, "bad_deal", "bidder", None),
        (
            {"bidder": "ann", "suit": "stars", "tricks": 6},
            "bad_deal",
            "suit",
            "suit must be one of hearts, diamonds, clubs, spades",
        ),
        (
            {"bidder": "ann", "tricks": 6},
            "bad_deal",
            "suit",
            "suit: a first-round bid names its suit (a second-round bid gives chips)",
        ),
        (
            {"bidder": "ann", "suit": "hearts", "tricks": 11},
            "bad_deal",
            "tricks",
            "tricks must be from 0 to 10, not 11",
        ),
        (
            {"bidder": "ann", "suit": "hearts", "tricks": {"ann": 6, "bob": 3}},
            "tricks_unaccounted",
            "tricks",
            "tricks: 9 tricks entered, the deal has 10",
        ),
        ({"bidder": "ann", "suit": "hearts", "tricks": {"ann": 6, "zed": 4}}, "bad_deal", "tricks.zed", None),
        (
            {"bidder": "ann", "chips": {"ann": 2, "bob": 2}, "tricks": 6},
            "bad_deal",
            "chips",
            "chips: ann must have put in the most chips",
        ),
        (
            {"bidder": "ann", "chips": {"bob": 2}, "tricks": 6},
            "bad_deal",
            "chips",
            "chips: the bidder ann won with chips, so put some in",
        ),
        ({"bidder": "ann", "chips": {"ann": 0}, "tricks": 6}, "bad_deal", "chips.ann", None),
        ({"bidder": "ann", "chips": {"zed": 3}, "tricks": 6}, "bad_deal", "chips.zed", None),
        ({"bidder": "ann", "chips": {}, "tricks": 6}, "bad_deal", "chips", None),
        ({"bidder": "ann", "suit": "hearts", "tricks": 6, "widow": True}, "bad_deal", "widow", None),
    ],
)
def test_impossible_entries_are_refused_naming_the_problem(deal, code, field, message):
    err = refused(deal)
    assert (err.code, err.field, err.event) == (code, field, 0)
    if message is not None:
        assert err.message == message


def test_three_players_only():
    with pytest.raises(EngineError) as exc:
        sheet([], players=["ann", "bob", "cy", "dee"])
    assert (exc.value.code, exc.value.message) == ("bad_players", "Preference takes 3 to 3 players")
