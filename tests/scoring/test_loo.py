"""Three-card Loo (tables/scoring/loo.py), from the rule book's LOO section. No database."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.scoring.loo import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import one_game_scorer

GAME = GAMES["loo"]
FIVE = ["ann", "bob", "cy", "dee", "eve"]
SINGLE = {"tricks": {"bob": 2, "cy": 1}}  # ann deals: ann, dee and eve are looed


sheet, refused = one_game_scorer(GAME, players=FIVE)


def pot(s) -> int:
    return -sum(s["totals"].values())


def test_loo_is_in_the_registry():
    assert get_game("loo") is GAME


# -- a single pot ----------------------------------------------------------------------------------------


def test_a_single_pot_a_third_a_trick_and_three_chips_from_each_player_looed():
    # "The dealer antes three chips into the pot"; "One-third of the pot is collected for each trick won. If a
    # player fails to win one of the three tricks, it is called 'loo,' and that player must put three chips
    # into the next pot, thereby making it a 'double.'"
    s = sheet([SINGLE])
    assert s["totals"] == {"ann": -6, "bob": 2, "cy": 1, "dee": -3, "eve": -3}
    assert s["deals"][0]["notes"] == [
        "single pot of 3",
        "bob wins 2 tricks: 2",
        "cy wins 1 trick: 1",
        "ann, dee and eve are looed: 3 each to the next pot",
    ]
    assert s["deals"][0]["extra"]["next_pot"] == 9
    assert pot(s) == 9


def test_a_single_pot_nobody_looed_leaves_the_next_deal_single():
    three = ["ann", "bob", "cy"]
    s = sheet([{"tricks": {"ann": 1, "bob": 1, "cy": 1}}, {"tricks": {"cy": 3}}], players=three)
    assert s["deals"][0]["points"] == {"ann": -2, "bob": 1, "cy": 1}
    assert s["deals"][1]["notes"][0] == "single pot of 3"  # bob deals the second hand
    assert s["totals"] == {"ann": -5, "bob": -5, "cy": 4}


def test_a_single_pot_refuses_declarations():
    err = refused({"stood": ["ann"], "tricks": {"ann": 3}})
    assert (err.field, err.message) == (
        "stood",
        "stood: the pot holds only the dealer's ante, a single: everyone plays",
    )


# -- a double pot -----------------------------------------------------------------------------------------


def test_a_double_pot_the_players_who_stand_divide_it_and_passers_are_out():
    # "Each player must pass, stand, or take the 'miss.'"; "All players who did not pass participate, and the
    # pot is divided into three parts, one for each trick." bob deals the second hand and antes 3: pot 12.
    s = sheet([SINGLE, {"stood": ["bob", "cy", "dee"], "miss": "dee", "tricks": {"bob": 2, "dee": 1}}])
    assert s["deals"][1]["points"] == {"ann": 0, "bob": 5, "cy": -3, "dee": 4, "eve": 0}
    assert s["deals"][1]["notes"] == [
        "double pot of 12",
        "bob, cy and dee stand, dee on the miss",
        "bob wins 2 tricks: 8",
        "dee wins 1 trick: 4",
        "cy is looed: 3 to the next pot",
    ]
    assert pot(s) == 3


def test_a_lone_player_left_takes_the_pot_without_play():
    # "If all other players pass except either the dealer or a player who has taken the 'miss,' the lone
    # player takes the pot and the cards are abandoned for that round."
    s = sheet([SINGLE, {"stood": ["bob"]}])
    assert s["deals"][1]["points"] == {"ann": 0, "bob": 9, "cy": 0, "dee": 0, "eve": 0}
    assert s["deals"][1]["notes"][-1] == "everyone else passed: bob takes the pot of 12"
    assert pot(s) == 0
    s = sheet([SINGLE, {"stood": ["eve"], "miss": "eve"}])
    assert s["deals"][1]["points"] == {"ann": 0, "bob": -3, "cy": 0, "dee": 0, "eve": 12}
    # a lone player ahead of the dealer who did not take the miss: the dealer must stand or defend
    err = refused({"stood": ["cy"]}, before=[SINGLE])
    assert (err.field, err.event) == ("stood", 1)
    assert err.message == "stood: a lone player ahead of the dealer makes the dealer (bob) stand or defend"
    err = refused({"stood": ["bob"], "tricks": {"bob": 3}}, before=[SINGLE])
    assert err.message == "tricks: the lone player takes the pot without play"


def test_the_dealer_defending_the_pot_neither_collects_nor_pays():
    # "when the dealer is forced to 'defend the pot,' he neither collects nor pays, since settlement is made
    # only by his opponent"
    s = sheet([SINGLE, {"stood": ["cy", "bob"], "miss": "bob", "defend": True, "tricks": {"bob": 2, "cy": 1}}])
    assert s["deals"][1]["points"] == {"ann": 0, "bob": -3, "cy": 4, "dee": 0, "eve": 0}
    assert s["deals"][1]["notes"][-1] == "bob defends the pot: 8 stays in it"
    assert pot(s) == 8
    # the opponent who takes nothing is looed; the dealer is not
    s = sheet([SINGLE, {"stood": ["cy", "bob"], "miss": "bob", "defend": True, "tricks": {"bob": 3}}])
    assert s["deals"][1]["points"] == {"ann": 0, "bob": -3, "cy": -3, "dee": 0, "eve": 0}
    assert s["deals"][1]["extra"]["looed"] == ["cy"]
    assert pot(s) == 15
    err = refused({"stood": ["cy", "dee", "bob"], "miss": "bob", "defend": True, "tricks": {"bob": 3}}, before=[SINGLE])
    assert err.message == "defend: the dealer defends the pot by taking the miss against a lone stander"
    assert refused({"stood": ["cy", "bob"], "defend": True, "tricks": {"bob": 3}}, before=[SINGLE]).field == "defend"


def test_a_flush_takes_the_whole_pot_and_loos_everyone_who_stood():
    # "A hand of three trumps is a flush and wins the entire pot without play … all hands of players who have
    # stood (or taken the 'miss') are looed."
    s = sheet([SINGLE, {"stood": ["ann", "bob", "cy"], "miss": "ann", "flush": "cy"}])
    assert s["deals"][1]["points"] == {"ann": -3, "bob": -6, "cy": 12, "dee": 0, "eve": 0}
    assert s["deals"][1]["notes"][1:] == ["cy holds a flush and takes the pot of 12", "ann and bob are looed"]
    assert pot(s) == 6
    assert refused({"stood": ["ann", "bob"], "flush": "cy"}, before=[SINGLE]).message == "flush: cy passed"
    assert refused({"stood": ["ann", "cy"], "flush": "cy", "tricks": {"cy": 3}}, before=[SINGLE]).field == "tricks"


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        ({"stood": [], "tricks": {"bob": 3}}, "stood", "stood: somebody stands (the dealer, if all others pass)"),
        ({"tricks": {"bob": 3}}, "stood", "stood must be a list of players"),
        (
            {"stood": ["bob", "zed"], "tricks": {"bob": 3}},
            "stood[1]",
            "stood[1] must be a player of this sheet, not 'zed'",
        ),
        ({"stood": ["bob", "cy"], "miss": "dee", "tricks": {"bob": 3}}, "miss", "miss: dee took the miss, so stood"),
        (
            {"stood": ["bob", "cy"], "tricks": {"bob": 2, "dee": 1}},
            "tricks.dee",
            "tricks.dee: dee passed and took no part",
        ),
        ({"stood": ["bob", "cy"], "tricks": {"bob": 2}}, "tricks", "tricks: 2 tricks entered, the deal has 3"),
    ],
)
def test_a_double_pot_refuses_impossible_entries(deal, field, message):
    err = refused(deal, before=[SINGLE])
    assert (err.field, err.event, err.message) == (field, 1, message)


# -- settings and refusals --------------------------------------------------------------------------------


def test_the_ante_and_the_loo_are_multiples_of_three():
    s = sheet([SINGLE], config={"ante": 6, "loo": 6})
    assert s["totals"] == {"ann": -12, "bob": 4, "cy": 2, "dee": -6, "eve": -6}
    with pytest.raises(EngineError) as exc:
        sheet([], config={"ante": 4})
    assert (exc.value.field, exc.value.message) == (
        "config.ante",
        "config.ante: the pot must divide into three, so a multiple of 3",
    )


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        ({"tricks": {"bob": 2}}, "tricks_unaccounted", "tricks"),
        ({"tricks": {"bob": 2, "cy": 2}}, "tricks_unaccounted", "tricks"),
        ({"tricks": {"zed": 3}}, "bad_deal", "tricks.zed"),
        ({"tricks": {"bob": 4}}, "bad_deal", "tricks.bob"),
        ({"tricks": 3}, "bad_deal", "tricks"),
        ({"tricks": {"bob": 3}, "dealer": "zed"}, "bad_deal", "dealer"),
        ({"tricks": {"bob": 3}, "trump": "hearts"}, "bad_deal", "trump"),
    ],
)
def test_impossible_entries_are_refused_naming_the_problem(deal, code, field):
    err = refused(deal)
    assert (err.code, err.field, err.event) == (code, field, 0)


def test_the_game_has_no_end_the_sheet_is_closed_and_the_most_chips_lead():
    s = sheet([SINGLE, {"stood": ["bob"]}])
    assert s["winner"] is None
    assert GAME.leader(s["totals"], config=s["config"]) == "bob"
    with pytest.raises(EngineError) as exc:
        sheet([], players=["ann", "bob"])
    assert exc.value.code == "bad_players"
