"""Euchre and its family (tables/scoring/euchre.py), from the rule book's EUCHRE section. No database."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.scoring.euchre import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import scorer

FOUR = ["ann", "bob", "cy", "dee"]
US, THEM = "ann & cy", "bob & dee"  # partners sit opposite
FIVE = ["ann", "bob", "cy", "dee", "eve"]
SIX = ["ann", "bob", "cy", "dee", "eve", "fay"]
SEVEN = ["ann", "bob", "cy", "dee", "eve", "fay", "gus"]


sheet, refused = scorer(GAMES, players=FOUR)


def points(game, deal, *, players=FOUR, config=None) -> dict[str, int]:
    return sheet(game, [deal], players=players, config=config)["deals"][0]["points"]


def test_every_euchre_game_is_in_the_registry():
    for name in (
        "euchre",
        "railroad_euchre",
        "three_hand_euchre",
        "two_hand_euchre",
        "auction_euchre",
        "call_ace_euchre",
        "cincinnati_euchre",
    ):
        assert get_game(name) is GAMES[name]


# -- four-hand Euchre: the rule book's scoring table --------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        # "Partnership making trump wins 3 or 4 tricks 1"
        ({"maker": "ann", "tricks": 3}, {US: 1, THEM: 0}),
        ({"maker": "cy", "tricks": 4}, {US: 1, THEM: 0}),
        # "Partnership making trump wins 5 tricks 2"
        ({"maker": "bob", "tricks": 5}, {US: 0, THEM: 2}),
        # "Lone hand wins 3 or 4 tricks 1"
        ({"maker": "ann", "alone": True, "tricks": 3}, {US: 1, THEM: 0}),
        ({"maker": "ann", "alone": True, "tricks": 4}, {US: 1, THEM: 0}),
        # "Lone hand wins 5 tricks 4"
        ({"maker": "dee", "alone": True, "tricks": 5}, {US: 0, THEM: 4}),
        # "Partnership or lone hand is euchred, opponents score 2"
        ({"maker": "ann", "tricks": 2}, {US: 0, THEM: 2}),
        ({"maker": "ann", "tricks": 0}, {US: 0, THEM: 2}),
        ({"maker": "bob", "alone": True, "tricks": 2}, {US: 2, THEM: 0}),
    ],
)
def test_the_seeds_scoring_table(deal, expected):
    assert points("euchre", deal) == expected


def test_partners_sit_opposite_and_tricks_may_be_entered_by_side():
    # given players in seat order: ann and cy against bob and dee; a player's name stands for his side
    s = sheet("euchre", [{"maker": "cy", "tricks": {"cy": 3, "bob": 2}}])
    # then the maker's side won 3 of the 5 tricks and scores 1
    assert s["sides"] == [US, THEM]
    assert s["deals"][0]["extra"]["tricks"] == {US: 3, THEM: 2}
    assert s["totals"] == {US: 1, THEM: 0}
    assert s["deals"][0]["notes"] == ["ann & cy make 3 tricks: 1"]


def test_a_euchre_and_a_march_are_named_in_the_notes():
    s = sheet("euchre", [{"maker": "bob", "tricks": 1}, {"maker": "ann", "alone": True, "tricks": 5}])
    assert s["deals"][0]["notes"] == ["bob & dee are euchred: ann & cy score 2"]
    assert s["deals"][1]["notes"] == ["ann & cy (ann alone) march: 4", "ann & cy win the game"]


def test_a_deal_passed_twice_scores_nothing():
    s = sheet("euchre", [{"passed": True}])
    assert s["totals"] == {US: 0, THEM: 0}
    assert s["deals"][0]["notes"] == ["all passed: no score"]
    assert refused("euchre", {"passed": True, "maker": "ann"}).field == "maker"


def test_game_is_five_by_default_and_the_first_side_there_wins():
    # given ann & cy march twice (4), then bob & dee make 3 tricks (1)
    deals = [{"maker": "ann", "tricks": 5}] * 2 + [{"maker": "bob", "tricks": 3}]
    s = sheet("euchre", deals)
    # then ann & cy are "at the bridge": four to the opponents' two or less
    assert s["totals"] == {US: 4, THEM: 1}
    assert s["deals"][2]["notes"] == ["bob & dee make 3 tricks: 1", "ann & cy are at the bridge"]
    assert s["winner"] is None
    # when ann & cy make one more point they reach 5 and win
    s = sheet("euchre", [*deals, {"maker": "cy", "tricks": 4}])
    assert (s["winner"], s["status"], s["totals"]) == (US, "finished", {US: 5, THEM: 1})
    assert s["deals"][3]["notes"][-1] == "ann & cy win the game"
    # and no deal may follow the end of the game
    with pytest.raises(EngineError) as exc:
        sheet("euchre", [*deals, {"maker": "cy", "tricks": 4}, {"maker": "ann", "tricks": 3}])
    assert (exc.value.code, exc.value.event) == ("game_over", 4)


def test_no_bridge_when_the_opponents_have_three():
    deals = [{"maker": "ann", "tricks": 5}] * 2 + [{"maker": "bob", "tricks": 5}, {"maker": "bob", "tricks": 3}]
    s = sheet("euchre", deals)
    assert s["totals"] == {US: 4, THEM: 3}
    assert s["deals"][3]["notes"] == ["bob & dee make 3 tricks: 1"]


@pytest.mark.parametrize("target", [7, 10])
def test_game_to_7_or_10_as_agreed(target):
    # a lone march (4) each deal: 7 is reached on the second, 10 on the third
    deals = [{"maker": "ann", "alone": True, "tricks": 5}] * 3
    s = sheet("euchre", deals[: 2 if target == 7 else 3], config={"game_to": target})
    assert s["winner"] == US
    assert s["totals"][US] == (8 if target == 7 else 12)
    assert sheet("euchre", deals[:1], config={"game_to": target})["winner"] is None


# -- rubbers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser_points", "rubber_points"),
    [(0, 3), (1, 2), (2, 2), (3, 1), (4, 1)],
)
def test_a_game_in_a_rubber_counts_by_the_losers_score(loser_points, rubber_points):
    # "3 rubber points if the losers' score in that game was 0 or fewer, 2 if 1 or 2, 1 if 3 or more"
    # given the losers make 3 tricks loser_points times, then the winners march thrice (6)
    deals = [{"maker": "bob", "tricks": 3}] * loser_points + [{"maker": "ann", "tricks": 5}] * 3
    s = sheet("euchre", deals, config={"match": "rubber"})
    # then game 1 is won and counted, the rubber goes on with a fresh game
    assert s["state"]["games"] == {US: 1, THEM: 0}
    assert s["state"]["rubber_points"] == {US: rubber_points, THEM: 0}
    assert s["state"]["game"] == {US: 0, THEM: 0}
    assert s["state"]["number"] == 2
    assert s["winner"] is None


def test_the_first_side_to_win_two_games_wins_the_rubber_by_the_seeds_margin():
    # given game 1 to ann & cy 6 to 0 (3 rubber points), game 2 to bob & dee 6 to 2 (2 rubber points),
    # game 3 to ann & cy 6 to 4 (1 rubber point)
    march_us, march_them = {"maker": "ann", "tricks": 5}, {"maker": "bob", "tricks": 5}
    deals = [march_us] * 3 + [march_us] + [march_them] * 3 + [march_them] * 2 + [march_us] * 3
    s = sheet("euchre", deals, config={"match": "rubber"})
    # then "the winners' margin in the rubber is 2 points bonus, plus the winners' rubber points, minus the
    # losers' rubber points": 2 + (3 + 1) - 2 = 4
    assert s["state"]["games"] == {US: 2, THEM: 1}
    assert s["state"]["rubber_points"] == {US: 4, THEM: 2}
    assert s["deals"][-1]["extra"]["rubber_margin"] == 4
    assert s["deals"][-1]["notes"][-1] == "ann & cy win the rubber by 4"
    assert s["winner"] == US
    assert s["totals"] == {US: 14, THEM: 10}


# -- Railroad Euchre ------------------------------------------------------------------------------------


def test_railroad_a_lone_opponent_euchring_a_lone_hand_scores_4():
    # "Euchre of a lone hand by a lone opponent counts 4"
    deal = {"maker": "ann", "alone": True, "defended_alone": True, "tricks": 2}
    assert points("railroad_euchre", deal) == {US: 0, THEM: 4}
    assert points("railroad_euchre", {**deal, "defended_alone": False}) == {US: 0, THEM: 2}
    # a lone defender who fails changes nothing: the lone march is 4
    assert points("railroad_euchre", {**deal, "tricks": 5}) == {US: 4, THEM: 0}


def test_railroad_refuses_a_lone_defence_the_rules_do_not_allow():
    only_lone = refused("railroad_euchre", {"maker": "ann", "defended_alone": True, "tricks": 2})
    assert (only_lone.code, only_lone.field) == ("bad_deal", "defended_alone")
    off = refused(
        "railroad_euchre",
        {"maker": "ann", "alone": True, "defended_alone": True, "tricks": 2},
        config={"defend_alone": False},
    )
    assert off.message == "defended_alone: this table does not play defending alone"
    # plain Euchre has no lone defence at all
    assert refused("euchre", {"maker": "ann", "alone": True, "defended_alone": True, "tricks": 2}).code == "bad_deal"


def test_railroad_laps_carry_the_points_past_game_into_the_next():
    # given ann & cy at 3 make a lone march (4): 7, two past game
    deals = [{"maker": "ann", "tricks": 3}, {"maker": "bob", "tricks": 3}, {"maker": "ann", "tricks": 5}]
    s = sheet("railroad_euchre", [*deals, {"maker": "ann", "alone": True, "tricks": 5}])
    # then game 1 is theirs (losers scored 1: 2 rubber points) and game 2 starts 2 to 0
    assert s["state"]["game"] == {US: 2, THEM: 0}
    assert s["state"]["rubber_points"] == {US: 2, THEM: 0}
    assert s["deals"][-1]["notes"][-1] == "ann & cy carry 2 into the next game"
    # without laps game 2 starts from nothing
    s = sheet("railroad_euchre", [*deals, {"maker": "ann", "alone": True, "tricks": 5}], config={"laps": False})
    assert s["state"]["game"] == {US: 0, THEM: 0}


def test_railroad_a_slam_is_two_games_and_wins_the_rubber():
    # "A side is credited with two games if it reaches game before the opponents have scored a point"
    s = sheet("railroad_euchre", [{"maker": "ann", "alone": True, "tricks": 5}, {"maker": "ann", "tricks": 3}])
    assert s["state"]["games"] == {US: 2, THEM: 0}
    assert s["state"]["rubber_points"] == {US: 6, THEM: 0}
    assert s["winner"] == US
    assert s["deals"][-1]["extra"]["rubber_margin"] == 8
    # without the slam rule, it is one game of the rubber
    s = sheet(
        "railroad_euchre",
        [{"maker": "ann", "alone": True, "tricks": 5}, {"maker": "ann", "tricks": 3}],
        config={"slam": False},
    )
    assert (s["state"]["games"], s["winner"]) == ({US: 1, THEM: 0}, None)


# -- Two-Hand and Three-Hand ------------------------------------------------------------------------------


def test_two_hand_a_march_is_2_and_there_is_no_alone():
    two = ["ann", "bob"]
    assert points("two_hand_euchre", {"maker": "ann", "tricks": 5}, players=two) == {"ann": 2, "bob": 0}
    assert points("two_hand_euchre", {"maker": "ann", "tricks": 3}, players=two) == {"ann": 1, "bob": 0}
    assert points("two_hand_euchre", {"maker": "ann", "tricks": 2}, players=two) == {"ann": 0, "bob": 2}
    alone = refused("two_hand_euchre", {"maker": "ann", "alone": True, "tricks": 5}, players=two)
    assert (alone.code, alone.field) == ("bad_deal", "alone")
    assert refused("two_hand_euchre", {"maker": "ann", "tricks": 5}, players=FOUR).code == "bad_players"


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        (3, {"ann": 1, "bob": 0, "cy": 0}),  # "Maker of trump wins 3 or 4 tricks 1"
        (4, {"ann": 1, "bob": 0, "cy": 0}),
        (5, {"ann": 3, "bob": 0, "cy": 0}),  # "Maker of trump wins 5 tricks 3"
        (2, {"ann": 0, "bob": 2, "cy": 2}),  # "Maker of trump euchred, each opponent scores 2"
    ],
)
def test_three_hand_cutthroat_scoring(tricks, expected):
    assert points("three_hand_euchre", {"maker": "ann", "tricks": tricks}, players=FOUR[:3]) == expected


def test_three_hand_the_first_to_game_wins_and_a_tie_plays_on():
    three = FOUR[:3]
    s = sheet("three_hand_euchre", [{"maker": "ann", "tricks": 5}] * 2, players=three)
    assert (s["totals"], s["winner"]) == ({"ann": 6, "bob": 0, "cy": 0}, "ann")
    # bob and cy reach 6 together when ann is euchred thrice: level, play on
    s = sheet("three_hand_euchre", [{"maker": "ann", "tricks": 1}] * 3, players=three)
    assert (s["totals"], s["winner"]) == ({"ann": 0, "bob": 6, "cy": 6}, None)
    # tricks by player must account for all five
    bad = refused("three_hand_euchre", {"maker": "ann", "tricks": {"ann": 3, "bob": 1}}, players=three)
    assert (bad.code, bad.field) == ("tricks_unaccounted", "tricks")


# -- Auction Euchre -------------------------------------------------------------------------------------


def test_auction_five_hand_the_maker_and_his_partners_each_score_the_bid():
    # "A bid of three tricks entitles him to one partner, a bid of four or five tricks, to two partners"
    made = sheet("auction_euchre", [{"maker": "ann", "bid": 3, "partners": ["dee"], "tricks": 4}], players=FIVE)
    # "There is no credit for winning more tricks than necessary"; "the full amount … credited to each member"
    assert made["totals"] == {"ann": 3, "bob": 0, "cy": 0, "dee": 3, "eve": 0}
    two = sheet("auction_euchre", [{"maker": "ann", "bid": 4, "partners": ["cy", "eve"], "tricks": 3}], players=FIVE)
    # "If the side making trump is euchred, the opponents score the value of the bid"
    assert two["totals"] == {"ann": 0, "bob": 4, "cy": 0, "dee": 4, "eve": 0}
    assert two["deals"][0]["notes"] == ["ann & cy & eve are euchred (3 of 4 tricks): each opponent scores 4"]


@pytest.mark.parametrize(("bid", "value"), [(8, 8), (15, 15)])
def test_auction_five_hand_alone_bids(bid, value):
    # "8 Maker must play alone and win 5 tricks, using the widow"; "15 … without the widow"
    s = sheet("auction_euchre", [{"maker": "bob", "bid": bid, "tricks": 5}], players=FIVE)
    assert s["totals"] == {"ann": 0, "bob": value, "cy": 0, "dee": 0, "eve": 0}
    assert s["deals"][0]["notes"] == [f"bob makes {bid} (5 tricks): {bid}"]
    lost = sheet("auction_euchre", [{"maker": "bob", "bid": bid, "tricks": 4}], players=FIVE)
    assert lost["totals"] == {"ann": value, "bob": 0, "cy": value, "dee": value, "eve": value}
    partner = refused("auction_euchre", {"maker": "bob", "bid": bid, "partners": ["cy"], "tricks": 5}, players=FIVE)
    assert partner.message == f"partners: a bid of {bid} takes no partner (alone)"


def test_auction_six_hand_fixed_partnerships_of_three():
    s = sheet("auction_euchre", [{"maker": "cy", "bid": 4, "tricks": 4}], players=SIX)
    assert s["sides"] == ["ann & cy & eve", "bob & dee & fay"]
    assert s["totals"] == {"ann & cy & eve": 4, "bob & dee & fay": 0}
    s = sheet("auction_euchre", [{"maker": "bob", "bid": 15, "tricks": 4}], players=SIX)
    assert s["totals"] == {"ann & cy & eve": 15, "bob & dee & fay": 0}
    assert refused(
        "auction_euchre", {"maker": "cy", "bid": 4, "partners": ["eve"], "tricks": 4}, players=SIX
    ).field == ("partners")


def test_auction_seven_hand_seven_tricks_and_its_own_bids():
    # "4, 5 … with help of one partner. 6, 7 … two partners. 10 … alone … using the widow. 20 … without"
    s = sheet(
        "auction_euchre",
        [{"maker": "ann", "bid": 6, "partners": ["bob", "cy"], "tricks": {"ann": 3, "bob": 2, "cy": 1, "gus": 1}}],
        players=SEVEN,
    )
    assert s["totals"] == {"ann": 6, "bob": 6, "cy": 6, "dee": 0, "eve": 0, "fay": 0, "gus": 0}
    s = sheet("auction_euchre", [{"maker": "gus", "bid": 20, "tricks": 7}], players=SEVEN)
    assert s["totals"]["gus"] == 20
    assert refused(
        "auction_euchre", {"maker": "ann", "bid": 3, "partners": ["bob"], "tricks": 3}, players=SEVEN
    ).message == ("bid must be one of 4, 5, 6, 7, 10, 20 with 7 players, not 3")
    assert refused(
        "auction_euchre", {"maker": "ann", "bid": 5, "partners": ["bob"], "tricks": 8}, players=SEVEN
    ).field == ("tricks")


def test_auction_refusals_name_the_problem():
    assert refused("auction_euchre", {"maker": "ann", "bid": 6, "tricks": 5}, players=FIVE).code == "bad_bid"
    wrong_count = refused("auction_euchre", {"maker": "ann", "bid": 4, "partners": ["bob"], "tricks": 4}, players=FIVE)
    assert wrong_count.message == "partners: a bid of 4 takes 2 partner(s)"
    himself = refused("auction_euchre", {"maker": "ann", "bid": 3, "partners": ["ann"], "tricks": 4}, players=FIVE)
    assert himself.message == "partners: the maker cannot be his own partner"
    stranger = refused("auction_euchre", {"maker": "ann", "bid": 3, "partners": ["zed"], "tricks": 4}, players=FIVE)
    assert (stranger.field, stranger.message) == (
        "partners[0]",
        "partners[0] must be a player of this sheet, not 'zed'",
    )


def test_auction_game_has_no_end_unless_a_target_is_set():
    deals = [{"maker": "ann", "bid": 15, "tricks": 5}] * 2
    assert sheet("auction_euchre", deals, players=FIVE)["winner"] is None
    assert sheet("auction_euchre", deals, players=FIVE, config={"game_to": 25})["winner"] == "ann"


# -- Call-Ace -------------------------------------------------------------------------------------------


def test_call_ace_the_secret_partner_scores_with_the_maker():
    s = sheet("call_ace_euchre", [{"maker": "ann", "partner": "dee", "tricks": 5}], players=FIVE)
    assert s["totals"] == {"ann": 2, "bob": 0, "cy": 0, "dee": 2, "eve": 0}
    s = sheet("call_ace_euchre", [{"maker": "ann", "partner": "dee", "tricks": 2}], players=FIVE)
    assert s["totals"] == {"ann": 0, "bob": 2, "cy": 2, "dee": 0, "eve": 2}
    # the maker holding the called card himself plays a lone hand: a march is 4
    s = sheet("call_ace_euchre", [{"maker": "ann", "tricks": 5}], players=FIVE)
    assert s["totals"]["ann"] == 4
    assert refused("call_ace_euchre", {"maker": "ann", "partner": "ann", "tricks": 3}, players=FIVE).field == "partner"
    assert (
        refused("call_ace_euchre", {"maker": "ann", "partner": "bob", "alone": True, "tricks": 3}, players=FIVE).message
        == "partner: a lone hand has no partner"
    )


# -- Cincinnati ----------------------------------------------------------------------------------------


def test_cincinnati_a_made_bid_scores_the_tricks_taken_and_a_set_loses_the_bid():
    # "The points are equal to the number of tricks successfully taken by a partnership"
    s = sheet("cincinnati_euchre", [{"bidder": "ann", "bid": 4, "tricks": 5}])
    assert s["totals"] == {US: 5, THEM: 1}
    # "the partners are 'set' and the number of tricks bid is deducted from their score"
    s = sheet("cincinnati_euchre", [{"bidder": "bob", "bid": 4, "tricks": {"bob": 3, "ann": 3}}])
    assert s["totals"] == {US: 3, THEM: -4}
    assert s["deals"][0]["notes"] == ["bob & dee are set (3 of 4 tricks): -4", "ann & cy score 3 for their tricks"]
    # a house where only the bidders score
    s = sheet("cincinnati_euchre", [{"bidder": "ann", "bid": 4, "tricks": 5}], config={"defenders_score": False})
    assert s["totals"] == {US: 5, THEM: 0}


@pytest.mark.parametrize(
    ("bid", "value"), [("moon", 12), ("double_moon", 24), ("triple_moon", 32), ("quadruple_moon", 48)]
)
def test_cincinnati_moons(bid, value):
    made = sheet("cincinnati_euchre", [{"bidder": "dee", "bid": bid, "tricks": 6}])
    assert made["totals"] == {US: 0, THEM: value}


def test_cincinnati_the_seeds_example_a_failed_moon_from_zero_is_minus_12():
    # "If a player 'Moons' and does not make the bid (six tricks), the partnership has 12 points deducted
    # from their score. If the partnership score was zero, their score become -12 points."
    s = sheet("cincinnati_euchre", [{"bidder": "ann", "bid": "moon", "tricks": 5}], config={"defenders_score": False})
    assert s["totals"] == {US: -12, THEM: 0}


def test_cincinnati_the_first_to_32_wins_and_the_bidders_count_first():
    # given 30 to 30 after ten deals
    deals = [{"bidder": "ann", "bid": 6, "tricks": 6}, {"bidder": "bob", "bid": 6, "tricks": 6}] * 5
    s = sheet("cincinnati_euchre", deals)
    assert (s["totals"], s["winner"]) == ({US: 30, THEM: 30}, None)
    # when ann & cy bid 3 and take 3, both sides reach 33: the bidders win
    s = sheet("cincinnati_euchre", [*deals, {"bidder": "ann", "bid": 3, "tricks": 3}])
    assert (s["totals"], s["winner"], s["status"]) == ({US: 33, THEM: 33}, US, "finished")
    assert s["deals"][-1]["notes"][-1] == "ann & cy reach 32 and win"
    # when bob & dee are set, the defenders reach 32 alone and win
    s = sheet("cincinnati_euchre", [*deals, {"bidder": "bob", "bid": 4, "tricks": 3}])
    assert (s["totals"], s["winner"]) == ({US: 33, THEM: 26}, US)


def test_cincinnati_the_forced_bid_is_the_dealers_three():
    # "If no player bids (all pass), the dealer must accept a 'Force bid' of three." The first deal is ann's.
    s = sheet("cincinnati_euchre", [{"bidder": "ann", "bid": 3, "forced": True, "tricks": 2}])
    assert s["totals"] == {US: -3, THEM: 4}  # six tricks a deal: the defenders took 4
    four = refused("cincinnati_euchre", {"bidder": "ann", "bid": 4, "forced": True, "tricks": 2})
    assert (four.code, four.field) == ("bad_bid", "bid")
    not_dealer = refused("cincinnati_euchre", {"bidder": "bob", "bid": 3, "forced": True, "tricks": 2})
    assert (not_dealer.field, not_dealer.message) == (
        "bidder",
        "forced: only the dealer (ann) is forced to bid, not bob",
    )
    # the dealer may be named
    s = sheet("cincinnati_euchre", [{"bidder": "bob", "bid": 3, "forced": True, "dealer": "bob", "tricks": 3}])
    assert s["totals"] == {US: 3, THEM: 3}


@pytest.mark.parametrize("bid", [2, 7, "sun", True, None])
def test_cincinnati_bids_are_three_to_six_or_a_moon(bid):
    err = refused("cincinnati_euchre", {"bidder": "ann", "bid": bid, "tricks": 3})
    assert (err.code, err.field) == ("bad_bid", "bid")


# -- refusals common to the family -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "code", "field", "message"),
    [
        ({"maker": "zed", "tricks": 3}, "bad_deal", "maker", "maker must be a player of this sheet, not 'zed'"),
        ({"tricks": 3}, "bad_deal", "maker", "maker must be a player of this sheet, not None"),
        ({"maker": "ann", "tricks": 6}, "bad_deal", "tricks", "tricks must be from 0 to 5, not 6"),
        (
            {"maker": "ann", "tricks": {"ann": 2, "bob": 2}},
            "tricks_unaccounted",
            "tricks",
            "tricks: 4 tricks entered, the deal has 5",
        ),
        (
            {"maker": "ann", "tricks": {"ann": 2, "cy": 1, "bob": 2}},
            "bad_deal",
            "tricks.cy",
            "tricks: ann & cy is counted twice",
        ),
        (
            {"maker": "ann", "tricks": {"zed": 5}},
            "bad_deal",
            "tricks.zed",
            "tricks.zed: 'zed' is neither a player nor a side of this sheet",
        ),
        ({"maker": "ann", "tricks": "three"}, "bad_deal", "tricks", None),
        ({"maker": "ann", "alone": "yes", "tricks": 3}, "bad_deal", "alone", "alone must be true or false"),
        ({"maker": "ann", "trump": "hearts", "tricks": 3}, "bad_deal", "trump", None),
    ],
)
def test_impossible_entries_are_refused_naming_the_problem(deal, code, field, message):
    err = refused("euchre", deal)
    assert (err.code, err.field, err.event) == (code, field, 0)
    if message is not None:
        assert err.message == message


def test_the_refusal_names_the_deal_at_fault():
    err = refused("euchre", {"maker": "ann", "tricks": 7}, before=[{"maker": "bob", "tricks": 3}] * 2)
    assert (err.code, err.event, err.field) == ("bad_deal", 2, "tricks")


def test_player_counts():
    assert refused("euchre", {"maker": "ann", "tricks": 3}, players=FIVE).code == "bad_players"
    assert refused("auction_euchre", {"maker": "ann", "bid": 3, "tricks": 3}, players=FOUR).code == "bad_players"
    assert refused("cincinnati_euchre", {"bidder": "ann", "bid": 3, "tricks": 3}, players=FIVE).code == "bad_players"
