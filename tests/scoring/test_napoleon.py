"""Napoleon, Pool Nap, Peep Nap and Sir Garnet (tables/scoring/napoleon.py), from the rule book's NAPOLEON
section. No database."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.scoring.napoleon import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import scorer

FOUR = ["ann", "bob", "cy", "dee"]


sheet, refused = scorer(GAMES, players=FOUR)


def points(deal, *, game="napoleon", players=FOUR, config=None) -> dict[str, int]:
    return sheet(game, [deal], players=players, config=config)["deals"][0]["points"]


def test_every_nap_game_is_in_the_registry():
    for name in ("napoleon", "pool_nap", "peep_nap", "sir_garnet"):
        assert get_game(name) is GAMES[name]


# -- the rule book's settlement table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "tricks", "bidder_gets"),
    [
        # "Less than 5 … for each trick … for each trick": 1 a trick bid, either way
        (1, 1, 3),
        (2, 5, 6),  # "There is no credit for extra tricks"
        (3, 3, 9),
        (4, 4, 12),
        (3, 2, -9),
        (4, 0, -12),
        # "Nap 10 / 5", "Wellington 10 / 10", "Blucher 10 / 20" — from (or to) each of the three others
        ("nap", 5, 30),
        ("nap", 4, -15),
        ("wellington", 5, 30),
        ("wellington", 4, -30),
        ("blucher", 5, 30),
        ("Blücher", 3, -60),
        (5, 5, 30),  # a bid of all five is Nap
    ],
)
def test_the_bidder_collects_from_or_pays_every_other_player(bid, tricks, bidder_gets):
    # "If the bidder makes the bid, he collects from all the other players. If the bidder is defeated, he
    # pays every player."
    got = points({"bidder": "ann", "bid": bid, "tricks": tricks})
    each = -bidder_gets // 3
    assert got == {"ann": bidder_gets, "bob": each, "cy": each, "dee": each}


def test_the_notes_and_extra():
    s = sheet("napoleon", [{"bidder": "bob", "bid": "nap", "tricks": 4}])
    assert s["deals"][0]["notes"] == ["bob fails Nap (4 tricks): pays each 5"]
    assert s["deals"][0]["extra"] == {"bidder": "bob", "bid": "nap", "tricks": 4, "made": False, "garnet": False}
    s = sheet("napoleon", [{"bidder": "bob", "bid": 3, "tricks": {"bob": 3, "ann": 2}}])
    assert s["deals"][0]["notes"] == ["bob makes 3 (3 tricks): collects 3 from each"]


def test_the_seeds_printed_stakes_can_be_played_literally():
    # The rule book's table prints "11 for each trick" and Nap "15" to lose; the default reads them as 1 and 5
    # (Nap must be cheaper to lose than Wellington). A house reading them literally sets the stakes.
    literal = {"stakes": {"per_trick": 11, "nap_lose": 15}}
    assert points({"bidder": "ann", "bid": 2, "tricks": 2}, config=literal) == {
        "ann": 66,
        "bob": -22,
        "cy": -22,
        "dee": -22,
    }
    assert points({"bidder": "ann", "bid": "nap", "tricks": 4}, config=literal)["ann"] == -45
    with pytest.raises(EngineError) as exc:
        sheet("napoleon", [], config={"stakes": {"misere": 3}})
    assert exc.value.field == "config.stakes"


def test_a_plain_game_is_settled_in_chips_each_deal_and_never_ends():
    s = sheet("napoleon", [{"bidder": "ann", "bid": 3, "tricks": 4}, {"bidder": "bob", "bid": "nap", "tricks": 4}])
    assert s["totals"] == {"ann": 14, "bob": -18, "cy": 2, "dee": 2}
    assert sum(s["totals"].values()) == 0
    assert s["winner"] is None
    assert GAMES["napoleon"].leader(s["totals"], config=s["config"]) == "ann"


def test_two_players():
    assert points({"bidder": "bob", "bid": 2, "tricks": 1}, players=["ann", "bob"]) == {"ann": 2, "bob": -2}


def test_wellington_and_blucher_are_a_house_option_and_bids_start_at_lowest_bid():
    no = refused("napoleon", {"bidder": "ann", "bid": "wellington", "tricks": 5}, config={"wellington_blucher": False})
    assert (no.code, no.message) == ("bad_bid", "bid: this table does not play wellington")
    low = refused("napoleon", {"bidder": "ann", "bid": 1, "tricks": 1}, config={"lowest_bid": 2})
    assert low.message == "bid must be 2 to 4 tricks, nap, wellington or blucher, not 1"


# -- irregularities ----------------------------------------------------------------------------------


def test_a_revoking_bidder_pays_as_though_he_had_lost():
    # "A revoking bidder must pay all opponents as though he had lost."
    s = sheet("napoleon", [{"bidder": "ann", "bid": 3, "revoke": "ann"}])
    assert s["totals"] == {"ann": -9, "bob": 3, "cy": 3, "dee": 3}
    assert s["deals"][0]["notes"] == ["ann revoked: pays each player 3 as though he had lost"]


def test_a_revoking_opponent_alone_pays_the_bidder_everything():
    # "A revoking opponent must pay the bidder the full amount he would have collected had the bidder won.
    # The other opponents pay nothing."
    s = sheet("napoleon", [{"bidder": "ann", "bid": "nap", "revoke": "cy"}])
    assert s["totals"] == {"ann": 30, "bob": 0, "cy": -30, "dee": 0}
    err = refused("napoleon", {"bidder": "ann", "bid": 3, "revoke": "cy", "tricks": 3})
    assert (err.field, err.message) == ("tricks", "tricks: play is abandoned on a revoke")


def test_an_opponent_playing_out_of_turn_pays_3_and_collects_nothing_if_the_bidder_loses():
    # "If an opponent leads or plays out of turn, he must pay three chips to the bidder but collects nothing
    # if the bidder loses."
    won = points({"bidder": "ann", "bid": 2, "tricks": 2, "out_of_turn": ["bob"]})
    assert won == {"ann": 9, "bob": -5, "cy": -2, "dee": -2}
    lost = points({"bidder": "ann", "bid": 2, "tricks": 1, "out_of_turn": ["bob"]})
    assert lost == {"ann": -1, "bob": -3, "cy": 2, "dee": 2}
    # "There is no penalty for a lead or play out of turn by bidder"
    err = refused("napoleon", {"bidder": "ann", "bid": 2, "tricks": 2, "out_of_turn": ["ann"]})
    assert err.field == "out_of_turn"


# -- Pool Nap, Peep Nap, Sir Garnet ------------------------------------------------------------------


def pool(s) -> int:
    return -sum(s["totals"].values())


def test_pool_nap_every_player_begins_the_pool_then_each_dealer_adds():
    # "Each player puts in an equal number of chips to begin the pool; and thereafter, each dealer in turn
    # adds the same number of chips each hand."
    s = sheet("pool_nap", [{"bidder": "ann", "bid": 3, "tricks": 3}])
    assert s["totals"] == {"ann": 8, "bob": -4, "cy": -4, "dee": -4}
    assert (pool(s), s["deals"][0]["extra"]["pool_after"]) == (4, 4)
    s = sheet("pool_nap", [{"bidder": "ann", "bid": 3, "tricks": 3}, {"bidder": "cy", "bid": 2, "tricks": 2}])
    assert s["deals"][1]["points"] == {"ann": -2, "bob": -3, "cy": 6, "dee": -2}  # bob deals the second hand
    assert pool(s) == 5


def test_pool_nap_a_failed_nap_doubles_the_pool_and_the_first_nap_made_takes_it():
    # "A player bidding Nap and failing to take five tricks must double the pool."
    s = sheet("pool_nap", [{"bidder": "ann", "bid": "nap", "tricks": 4}])
    assert s["deals"][0]["notes"][-1] == "ann doubles the pool: puts in 4"
    assert s["totals"] == {"ann": -20, "bob": 4, "cy": 4, "dee": 4}
    assert pool(s) == 8
    # "a 'pool' … which is won by the first player to successfully take five tricks on a Nap bid"
    s = sheet("pool_nap", [{"bidder": "ann", "bid": "nap", "tricks": 4}, {"bidder": "bob", "bid": "nap", "tricks": 5}])
    assert s["deals"][1]["notes"][-1] == "bob takes the pool of 9"
    assert s["totals"] == {"ann": -30, "bob": 42, "cy": -6, "dee": -6}
    assert pool(s) == 0
    # and the next hand begins a new pool
    s = sheet("pool_nap", [{"bidder": "bob", "bid": "nap", "tricks": 5}, {"passed": True}])
    assert s["deals"][1]["notes"] == ["a new pool: each player puts in 1", "all passed"]


def test_pool_nap_a_revoke_pays_5_and_a_lead_out_of_turn_3_into_the_pool():
    # "The pool may be further increased by requiring a player revoking to contribute five chips, and for a
    # lead out of turn, three chips."
    s = sheet("pool_nap", [{"bidder": "ann", "bid": 2, "revoke": "bob"}])
    assert s["totals"] == {"ann": 5, "bob": -12, "cy": -1, "dee": -1}
    assert pool(s) == 9
    s = sheet("pool_nap", [{"bidder": "ann", "bid": 2, "tricks": 2, "out_of_turn": ["dee"]}])
    assert s["totals"] == {"ann": 5, "bob": -3, "cy": -3, "dee": -6}
    assert pool(s) == 7


def test_the_ante_is_a_setting():
    s = sheet("pool_nap", [{"passed": True}], config={"ante": 5})
    assert s["totals"] == dict.fromkeys(FOUR, -5)


def test_peep_nap_a_peep_at_the_widow_costs_a_chip_to_the_pool():
    # "By adding one chip to the pool, any player may 'peep' at this card before bidding or passing."
    s = sheet("peep_nap", [{"bidder": "ann", "bid": 2, "tricks": 2, "peeped": ["bob", "cy"]}])
    assert s["totals"] == {"ann": 5, "bob": -4, "cy": -4, "dee": -3}
    assert pool(s) == 6
    assert refused("pool_nap", {"bidder": "ann", "bid": 2, "tricks": 2, "peeped": ["bob"]}).field == "peeped"
    assert refused("peep_nap", {"bidder": "ann", "bid": 2, "tricks": 2, "peeped": ["bob", "bob"]}).field == "peeped"
    with pytest.raises(EngineError) as exc:
        sheet("napoleon", [], config={"peep": True})
    assert exc.value.message == "config.peep: Peep Nap is played with a pool"


def test_sir_garnet_the_extra_hand_obliges_nap_and_a_failure_pays_double():
    # "The player is then obliged to bid Nap, but if he fails to make the bid, that player must pay double
    # the normal penalty."
    s = sheet("sir_garnet", [{"bidder": "ann", "bid": "nap", "garnet": True, "tricks": 4}])
    assert s["totals"] == {"ann": -30, "bob": 10, "cy": 10, "dee": 10}
    assert s["deals"][0]["notes"] == ["ann fails Nap (4 tricks): pays each 10 (double: Sir Garnet)"]
    s = sheet("sir_garnet", [{"bidder": "ann", "bid": "nap", "garnet": True, "tricks": 5}])
    assert s["totals"]["ann"] == 30  # a win is not doubled
    s = sheet("sir_garnet", [{"bidder": "ann", "bid": "nap", "tricks": 4}])
    assert s["totals"]["ann"] == -15  # the extra hand not taken: the normal penalty
    err = refused("sir_garnet", {"bidder": "ann", "bid": 4, "garnet": True, "tricks": 4})
    assert (err.code, err.message) == ("bad_bid", "bid: a player who takes up the extra hand must bid Nap")
    assert refused("napoleon", {"bidder": "ann", "bid": "nap", "garnet": True, "tricks": 5}).field == "garnet"


# -- refusals --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        ({"bidder": "zed", "bid": 3, "tricks": 3}, "bad_deal", "bidder"),
        ({"bidder": "ann", "bid": 0, "tricks": 3}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 6, "tricks": 3}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": "misere", "tricks": 0}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": True, "tricks": 3}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 3, "tricks": 6}, "bad_deal", "tricks"),
        ({"bidder": "ann", "bid": 3, "tricks": {"ann": 3, "bob": 1}}, "tricks_unaccounted", "tricks"),
        ({"bidder": "ann", "bid": 3, "tricks": {"ann": 3, "zed": 2}}, "bad_deal", "tricks.zed"),
        ({"bidder": "ann", "bid": 3, "revoke": "zed"}, "bad_deal", "revoke"),
        ({"bidder": "ann", "bid": 3, "tricks": 3, "out_of_turn": "bob"}, "bad_deal", "out_of_turn"),
        ({"bidder": "ann", "bid": 3, "tricks": 3, "trump": "clubs"}, "bad_deal", "trump"),
        ({"passed": True, "bidder": "ann"}, "bad_deal", "bidder"),
    ],
)
def test_impossible_entries_are_refused_naming_the_problem(deal, code, field):
    err = refused("napoleon", deal)
    assert (err.code, err.field, err.event) == (code, field, 0)


def test_the_bid_refusal_lists_the_bids():
    assert refused("napoleon", {"bidder": "ann", "bid": 6, "tricks": 3}).message == (
        "bid must be 1 to 4 tricks, nap, wellington or blucher, not 6"
    )
    assert refused("napoleon", {"bidder": "ann", "bid": 3, "tricks": {"ann": 3, "bob": 1}}).message == (
        "tricks: 4 tricks entered, the deal has 5"
    )


def test_player_counts():
    with pytest.raises(EngineError) as exc:
        sheet("napoleon", [], players=["ann", "bob", "cy", "dee", "eve", "fay", "gus"])
    assert exc.value.code == "bad_players"
