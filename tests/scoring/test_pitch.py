"""The All Fours family (tables/scoring/pitch.py): Auction Pitch, Pitch (Smudge), Auction Pitch with a
Joker, Sellout, Cinch, Seven-Up, California Jack and Shasta Sam, from the rule book. No database."""

from __future__ import annotations

import pytest

from tables.scoring.pitch import GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import scorer

THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "dee"]
TWO = ["ann", "bob"]
US, THEM = "ann & cy", "bob & dee"


sheet, refused = scorer(GAMES, players=THREE)


def pitch(pitcher, bid, high, low, jack=None, game=None, **more):
    """An Auction Pitch entry; game is left out when not given (the counts may say who won it)."""
    deal = {"pitcher": pitcher, "bid": bid, "high": high, "low": low, "jack": jack, **more}
    return deal if game is None else {**deal, "game": game}


def test_every_all_fours_game_is_in_the_registry():
    for name in (
        "auction_pitch",
        "pitch",
        "auction_pitch_joker",
        "sellout",
        "cinch",
        "seven_up",
        "california_jack",
        "shasta_sam",
    ):
        assert get_game(name) is GAMES[name]


# -- Auction Pitch -------------------------------------------------------------------------------------


def test_high_low_jack_and_game_each_score_one_for_whoever_the_rules_give_them():
    # "Each player except the pitcher scores whatever points he makes. The pitcher scores whatever points he
    # makes if the score at least equals the bid contract."
    s = sheet("auction_pitch", [pitch("ann", 2, high="ann", low="cy", jack="bob", game="ann")])
    assert s["totals"] == {"ann": 2, "bob": 1, "cy": 1}
    assert s["deals"][0]["notes"] == ["ann makes 2 on a bid of 2"]
    assert s["deals"][0]["extra"]["awards"] == {"high": "ann", "low": "cy", "jack": "bob", "game": "ann"}


def test_a_pitcher_short_of_his_bid_is_set_back_by_it():
    # "if the pitcher has not scored as many points as were bid, he is 'set back' by the amount of the bid"
    s = sheet("auction_pitch", [pitch("ann", 3, high="ann", low="bob", jack="cy", game="ann")])
    assert s["totals"] == {"ann": -3, "bob": 1, "cy": 1}
    assert s["deals"][0]["notes"] == ["ann made 2 of a bid of 3: set back 3"]
    assert s["state"] == {"set_back": {"ann": 1, "bob": 0, "cy": 0}}


def test_a_jack_not_in_play_and_a_tie_for_game_score_for_no_one():
    # "If the trump jack is not in play, no one counts it. If two or more players tie for game, no one counts
    # the point for game."
    s = sheet("auction_pitch", [pitch("bob", 2, high="bob", low="bob", counts={"bob": 17, "cy": 17, "ann": 9})])
    assert s["totals"] == {"ann": 0, "bob": 2, "cy": 0}
    assert s["deals"][0]["extra"]["awards"] == {"high": "bob", "low": "bob", "jack": None, "game": None}
    # the counts give game to the one highest ("each ten 10, ace 4, king 3, queen 2, jack 1")
    s = sheet("auction_pitch", [pitch("bob", 2, high="bob", low="ann", counts={"bob": 12, "cy": 20})])
    assert s["totals"] == {"ann": 1, "bob": -2, "cy": 1}


def test_a_smudge_made_wins_the_game_at_once_and_the_winner_collects():
    # "A player who smudges and who makes the bid by winning all 4 points wins the game immediately"; "The
    # winner … receives one point from each player whose score is 1 point or more, and 2 points from each
    # player whose score is zero or minus"
    before = [pitch("bob", 2, high="bob", low="bob", jack="cy", game="bob")]
    s = sheet("auction_pitch", [*before, pitch("ann", 4, high="ann", low="ann", jack="ann", game="ann")])
    assert (s["winner"], s["status"]) == ("ann", "finished")
    assert s["totals"] == {"ann": 4, "bob": 3, "cy": 1}
    assert s["deals"][1]["notes"][1:] == [
        "ann smudges: all 4 points, and the game",
        "ann collects 2: 1 from bob, 1 from cy",
    ]
    assert s["deals"][1]["extra"]["settlement"] == {"ann": 2, "bob": -1, "cy": -1}


def test_a_smudger_in_the_hole_only_receives_the_4_points():
    # "unless he was in the hole (in which case the smudger only receives the 4 points)"
    hole = pitch("ann", 2, high="bob", low="ann", jack="bob", game="bob")
    s = sheet("auction_pitch", [hole, pitch("ann", 4, high="ann", low="ann", jack="ann", game="ann")])
    assert (s["totals"], s["winner"]) == ({"ann": 2, "bob": 3, "cy": 0}, None)
    assert s["deals"][1]["notes"] == [
        "ann makes 4 on a bid of 4",
        "ann smudges from the hole: scores the 4 points only",
    ]
    # a bid of 4 with the jack out of play cannot be made: three points are all there is
    s = sheet("auction_pitch", [pitch("ann", 4, high="ann", low="ann", game="ann")])
    assert (s["totals"], s["winner"]) == ({"ann": -4, "bob": 0, "cy": 0}, None)


def to_six_six():
    """bob 6, cy 6, ann 0."""
    return [
        pitch("bob", 2, high="bob", low="bob", jack="bob", game="bob"),
        pitch("cy", 2, high="cy", low="cy", jack="cy", game="cy"),
        pitch("bob", 2, high="bob", low="bob", jack="cy", game="cy"),
    ]


def test_seven_wins_the_pitcher_counted_first():
    # "if the pitcher and another player reach 7 points on the same hand, the pitcher wins, even if the other
    # player has a higher total score"
    assert sheet("auction_pitch", to_six_six())["totals"] == {"ann": 0, "bob": 6, "cy": 6}
    s = sheet("auction_pitch", [*to_six_six(), pitch("bob", 2, high="cy", low="bob", jack="bob", game="cy")])
    assert (s["totals"], s["winner"]) == ({"ann": 0, "bob": 8, "cy": 8}, "bob")
    s = sheet("auction_pitch", [*to_six_six(), pitch("bob", 2, high="bob", low="cy", jack="cy", game="bob")])
    assert (s["totals"], s["winner"]) == ({"ann": 0, "bob": 8, "cy": 8}, "bob")
    assert s["deals"][-1]["notes"][-2:] == ["game to 7: bob out first", "bob collects 3: 2 from ann, 1 from cy"]


def test_two_others_reaching_seven_count_high_low_jack_game():
    # "If two players other than the pitcher are able to reach 7 points on the same hand, the points are
    # counted in this order: High, Low, Jack, Game."
    s = sheet("auction_pitch", [*to_six_six(), pitch("ann", 2, high="ann", low="ann", jack="cy", game="bob")])
    assert (s["totals"], s["winner"]) == ({"ann": 2, "bob": 7, "cy": 7}, "cy")
    s = sheet("auction_pitch", [*to_six_six(), pitch("ann", 2, high="bob", low="cy", jack="ann", game="ann")])
    assert (s["totals"], s["winner"]) == ({"ann": 2, "bob": 7, "cy": 7}, "bob")
    assert s["deals"][-1]["extra"]["settlement"] == {"bob": 2, "ann": -1, "cy": -1}


def test_the_variation_one_more_point_for_each_set_back():
    # "(Variation: In some games, the winner receives an additional point from each player for each time that
    # player has been set back.)"
    deals = [
        pitch("ann", 3, high="ann", low="bob", jack="bob", game="bob"),
        pitch("ann", 3, high="ann", low="bob", jack="bob", game="bob"),
        pitch("bob", 2, high="bob", low="cy", jack="bob", game="ann"),
    ]
    s = sheet("auction_pitch", deals, config={"setback_payments": True})
    assert (s["totals"], s["winner"]) == ({"ann": -5, "bob": 8, "cy": 1}, "bob")
    assert s["state"]["set_back"] == {"ann": 2, "bob": 0, "cy": 0}
    # ann, in the hole: 2 and 2 for her set backs; cy: 1
    assert s["deals"][-1]["extra"]["settlement"] == {"bob": 5, "ann": -4, "cy": -1}
    plain = sheet("auction_pitch", deals)
    assert plain["deals"][-1]["extra"]["settlement"] == {"bob": 3, "ann": -2, "cy": -1}


def test_a_revoke_by_the_pitcher_or_another_player():
    # "If the pitcher revokes, he cannot score and is set back the amount of his bid, while all the other
    # players score what they make."
    s = sheet("auction_pitch", [pitch("ann", 2, high="ann", low="ann", jack="bob", game="cy", revoke="ann")])
    assert s["totals"] == {"ann": -2, "bob": 1, "cy": 1}
    # "If any player except the pitcher revokes, all players except the revoker score what they make
    # (including the pitcher, even if he does not make his bid); the revoking player cannot score and has the
    # amount of the bid deducted from his score."
    s = sheet("auction_pitch", [pitch("ann", 3, high="ann", low="bob", jack="cy", game="cy", revoke="cy")])
    assert s["totals"] == {"ann": 1, "bob": 1, "cy": -3}
    assert s["deals"][0]["notes"] == [
        "ann scores 1: cy's revoke saves him from the set back",
        "cy revoked: scores nothing and loses 3",
    ]


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        (pitch("ann", 1, high="ann", low="ann"), "bad_bid", "bid"),
        (pitch("ann", 5, high="ann", low="ann"), "bad_bid", "bid"),
        (pitch("ann", "2", high="ann", low="ann"), "bad_bid", "bid"),
        (pitch("zed", 2, high="ann", low="ann"), "bad_deal", "pitcher"),
        (pitch("ann", 2, high="zed", low="ann"), "bad_deal", "high"),
        (pitch("ann", 2, high=None, low="ann"), "bad_deal", "high"),
        (pitch("ann", 2, high="ann", low=None), "bad_deal", "low"),
        (pitch("ann", 2, high="ann", low="ann", counts={"ann": 81}), "bad_deal", "counts.ann"),
        (pitch("ann", 2, high="ann", low="ann", counts={"ann": 50, "bob": 40}), "counts_unaccounted", "counts"),
        (pitch("ann", 2, high="ann", low="ann", counts={"zed": 5}), "bad_deal", "counts.zed"),
        (pitch("ann", 2, high="ann", low="ann", game="bob", counts={"ann": 20, "bob": 10}), "bad_deal", "game"),
        (pitch("ann", 2, high="ann", low="ann", revoke="zed"), "bad_deal", "revoke"),
        (pitch("ann", 2, high="ann", low="ann", joker="bob"), "bad_deal", "joker"),
    ],
)
def test_auction_pitch_refuses_impossible_entries(deal, code, field):
    err = refused("auction_pitch", deal)
    assert (err.code, err.field, err.event) == (code, field, 0)


def test_game_entered_as_no_one_must_agree_with_the_counts():
    err = refused(
        "auction_pitch", {**pitch("ann", 2, high="ann", low="ann", counts={"ann": 20, "bob": 10}), "game": None}
    )
    assert err.message == "game: the counts give game to ann, the entry to nobody"
    s = sheet("auction_pitch", [pitch("ann", 2, high="ann", low="bob", counts={"ann": 20, "bob": 20})])
    assert s["deals"][0]["extra"]["awards"]["game"] is None


def test_the_messages_say_what_is_wrong():
    assert refused("auction_pitch", pitch("ann", 5, high="ann", low="ann")).message == (
        "bid must be 2 to 4 (4 is a smudge), not 5"
    )
    assert refused("auction_pitch", pitch("ann", 2, high=None, low="ann")).message == (
        "high: someone always wins it; say who"
    )
    assert refused("auction_pitch", pitch("ann", 2, high="ann", low="ann", counts={"ann": 50, "bob": 40})).message == (
        "counts: 90 counting points entered, the deal has at most 80"
    )


# -- Pitch (Smudge) --------------------------------------------------------------------------------------


def test_pitch_winning_all_four_is_a_smudge_by_any_player_whatever_his_score():
    # "winning all 4 points in one hand constitutes a smudge by any player, whether he is the pitcher or not,
    # and it wins the game immediately regardless of that player's previous score"
    hole = pitch("bob", 3, high="bob", low="ann", jack="ann", game="ann")
    s = sheet("pitch", [hole, pitch("ann", 2, high="bob", low="bob", jack="bob", game="bob")])
    assert (s["totals"], s["winner"]) == ({"ann": 1, "bob": 1, "cy": 0}, "bob")
    assert s["deals"][1]["notes"][:2] == [
        "ann made 0 of a bid of 2: set back 2",
        "bob smudges: all 4 points, and the game",
    ]
    # a pitcher who bid only 2 and wins all four smudges too
    s = sheet("pitch", [pitch("cy", 2, high="cy", low="cy", jack="cy", game="cy")])
    assert s["winner"] == "cy"
    # with the jack out of play there is no smudge
    s = sheet("pitch", [pitch("cy", 2, high="cy", low="cy", game="cy")])
    assert (s["totals"], s["winner"]) == ({"ann": 0, "bob": 0, "cy": 3}, None)


# -- Auction Pitch with a Joker -------------------------------------------------------------------------


def test_joker_pitch_the_joker_is_a_fifth_point_and_game_is_10():
    # "There are 5 points in play, with the joker counting as 1 point to the player who wins it in a trick."
    s = sheet("auction_pitch_joker", [pitch("ann", 3, high="ann", low="bob", jack="ann", game="cy", joker="ann")])
    assert s["totals"] == {"ann": 3, "bob": 1, "cy": 1}
    assert s["config"] == {"game_to": 10, "setback_payments": False}
    assert sheet("auction_pitch_joker", [pitch("ann", 2, high="ann", low="ann")] * 4)["winner"] is None


def test_joker_pitch_counts_high_low_jack_joker_game():
    # "the order is High, Low, Jack, Joker, Game. However, the pitcher's points are always counted first."
    start = [
        pitch("bob", 3, high="bob", low="bob", jack="bob", joker="cy", game="cy"),
        pitch("cy", 3, high="cy", low="cy", jack="cy", joker="bob", game="bob"),
        pitch("bob", 3, high="bob", low="bob", jack="bob", joker="cy", game="cy"),
        pitch("cy", 2, high="cy", low="bob", jack="cy"),  # joker not dealt, game tied
    ]
    assert sheet("auction_pitch_joker", start)["totals"] == {"ann": 0, "bob": 9, "cy": 9}
    s = sheet("auction_pitch_joker", [*start, pitch("ann", 2, high="ann", low="ann", joker="cy", game="bob")])
    assert (s["totals"], s["winner"]) == ({"ann": 2, "bob": 10, "cy": 10}, "cy")


# -- Sellout -----------------------------------------------------------------------------------------------


def test_sellout_the_seller_scores_the_bid_when_he_sells():
    # the first deal is ann's: bob, on her left, sells. "sell to the highest bidder, in which case that player
    # becomes the pitcher, and the player on the dealer's left immediately scores the amount of the bid"
    s = sheet("sellout", [pitch("cy", 3, high="cy", low="cy", jack="cy", game="ann", sold_by="bob")])
    assert s["totals"] == {"ann": 1, "bob": 3, "cy": 3}
    assert s["deals"][0]["notes"] == ["bob sells to cy for 3", "cy makes 3 on a bid of 3"]


def test_sellout_a_seller_who_pitches_at_the_bid_gives_the_high_bidder_its_amount():
    # "or that player may become the pitcher at the highest bid made, in which case the high bidder
    # immediately scores the amount of the bid"
    s = sheet("sellout", [pitch("bob", 3, high="bob", low="bob", jack="cy", game="ann", refused="cy")])
    assert s["totals"] == {"ann": 1, "bob": -3, "cy": 4}
    # "The player on the dealer's left may either assume the contract for a bid of 4"
    s = sheet("sellout", [pitch("bob", 4, high="bob", low="bob", jack="bob", game="ann")])
    assert (s["totals"], s["deals"][0]["notes"][0]) == ({"ann": 1, "bob": -4, "cy": 0}, "bob takes the contract for 4")
    assert refused("sellout", pitch("bob", 3, high="bob", low="bob")).message == (
        "bid: a seller who takes the contract without selling or refusing bids 4"
    )


def five_for_cy():
    """bob refuses cy's 3 and is set; cy takes jack and game: ann 0, bob -3, cy 5."""
    return [pitch("bob", 3, high="bob", low="bob", jack="cy", game="cy", refused="cy")]


def test_sellout_no_bid_may_put_the_seller_out_if_he_sells():
    # "A player is not permitted to make any bid high enough to put the player on the dealer's left out if
    # he sells" — cy, at 5, sells on bob's deal
    assert sheet("sellout", five_for_cy())["totals"] == {"ann": 0, "bob": -3, "cy": 5}
    sold = refused("sellout", pitch("ann", 2, high="ann", low="ann", sold_by="cy", dealer="bob"), before=five_for_cy())
    assert (sold.code, sold.field, sold.message) == (
        "bad_bid",
        "bid",
        "bid: 2 would put the seller (cy, 5) out if he sold",
    )
    # the bid is not permitted whether he then sells or not
    kept = refused("sellout", pitch("cy", 2, high="cy", low="cy", refused="ann", dealer="bob"), before=five_for_cy())
    assert (kept.code, kept.field) == ("bad_bid", "bid")


def test_sellout_the_seller_must_sell_if_refusing_would_put_the_high_bidder_out():
    # "the player on the dealer's left is required to sell if he would put the high bidder out by refusing"
    err = refused("sellout", pitch("ann", 2, high="ann", low="ann", refused="cy", dealer="cy"), before=five_for_cy())
    assert (err.field, err.message) == ("refused", "refused: refusing would put cy (5) out, so ann must sell")
    s = sheet("sellout", [*five_for_cy(), pitch("cy", 2, high="cy", low="cy", sold_by="ann", dealer="cy")])
    assert (s["totals"], s["winner"]) == ({"ann": 2, "bob": -3, "cy": 7}, "cy")


def test_sellout_refusals():
    assert refused("sellout", pitch("cy", 3, high="cy", low="cy", sold_by="ann")).message == (
        "sold_by: only the player on the dealer's left (bob) sells"
    )
    assert refused("sellout", pitch("cy", 3, high="cy", low="cy")).field == "pitcher"
    assert refused("sellout", pitch("bob", 3, high="bob", low="bob", sold_by="bob")).field == "pitcher"
    assert refused("sellout", pitch("bob", 3, high="bob", low="bob", refused="bob")).field == "refused"
    assert refused("sellout", pitch("cy", 3, high="cy", low="cy", sold_by="bob", refused="cy")).field == "sold_by"
    assert refused("sellout", pitch("bob", 4, high="bob", low="bob"), players=TWO).code == "bad_players"


# -- Cinch ---------------------------------------------------------------------------------------------------


def test_cinch_the_seeds_examples():
    # "The bid is 6, and the bidding side wins 6 points, and the opponents win 8 points. The opponents score
    # 2 points for that hand."
    s = sheet("cinch", [{"bidder": "ann", "bid": 6, "count": {"ann": 6, "bob": 8}}], players=FOUR)
    assert s["totals"] == {US: 0, THEM: 2}
    # "The bid is 8, and the bidding side wins 7 points, and the opponents win 7 points; in this case, the
    # opponents score 15 points."
    s = sheet("cinch", [{"bidder": "ann", "bid": 8, "count": {"ann": 7, "bob": 7}}], players=FOUR)
    assert s["totals"] == {US: 0, THEM: 15}
    assert s["deals"][0]["notes"] == ["ann & cy are cinched: 7 of 8; bob & dee score 15"]


def test_cinch_points_by_card_high_low_jack_game_1_each_pedros_5():
    # "High, 1; Low, 1; Jack, 1; 10 of trumps (Game), 1; each pedro, 5; making a total of 14 points"
    deal = {
        "bidder": "dee",
        "bid": 8,
        "high": "ann",
        "low": "bob",
        "jack": "cy",
        "game": "dee",
        "right_pedro": "bob",
        "left_pedro": "dee",
    }
    s = sheet("cinch", [deal], players=FOUR)
    assert s["deals"][0]["extra"]["won"] == {US: 2, THEM: 12}
    assert s["totals"] == {US: 0, THEM: 10}
    # a tie after a made bid scores nothing
    s = sheet("cinch", [{"bidder": "ann", "bid": 7, "count": {"ann": 7, "bob": 7}}], players=FOUR)
    assert s["totals"] == {US: 0, THEM: 0}


def test_cinch_51_is_game():
    deals = [{"bidder": "ann", "bid": 14, "count": {"ann": 14}}] * 3 + [
        {"bidder": "bob", "bid": 9, "count": {"bob": 9, "ann": 5}}
    ]
    s = sheet("cinch", deals, players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 42, THEM: 4}, None)
    s = sheet("cinch", [*deals, {"bidder": "ann", "bid": 9, "count": {"ann": 12, "bob": 2}}], players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: 52, THEM: 4}, US)


def test_cinch_a_revoke_the_offenders_cannot_score_and_the_bidder_cannot_be_set():
    # "the offending side may not score in that hand, and if the offender is an opponent of the bidder, the
    # bidder cannot be set"
    s = sheet("cinch", [{"bidder": "ann", "bid": 10, "count": {"ann": 6, "bob": 8}, "revoke": "dee"}], players=FOUR)
    assert s["totals"] == {US: 0, THEM: 0}
    s = sheet("cinch", [{"bidder": "ann", "bid": 10, "count": {"ann": 9, "bob": 5}, "revoke": "bob"}], players=FOUR)
    assert s["totals"] == {US: 4, THEM: 0}
    s = sheet("cinch", [{"bidder": "ann", "bid": 10, "count": {"ann": 9, "bob": 5}, "revoke": "cy"}], players=FOUR)
    assert s["totals"] == {US: 0, THEM: 15}


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        ({"bidder": "ann", "bid": 15, "count": {"ann": 14}}, "bad_bid", "bid"),
        ({"bidder": "ann", "bid": 0, "count": {"ann": 14}}, "bad_bid", "bid"),
        ({"bidder": "zed", "bid": 6, "count": {"ann": 14}}, "bad_deal", "bidder"),
        ({"bidder": "ann", "bid": 6, "count": {"ann": 10, "bob": 5}}, "points_unaccounted", "count"),
        ({"bidder": "ann", "bid": 6, "count": {"ann": 6, "cy": 2}}, "bad_deal", "count.cy"),
        ({"bidder": "ann", "bid": 6, "count": {"ann": 14}, "high": "ann"}, "bad_deal", "high"),
        ({"bidder": "ann", "bid": 6, "high": "ann", "low": "ann", "right_pedro": "zed"}, "bad_deal", "right_pedro"),
        ({"bidder": "ann", "bid": 6, "count": {"ann": 14}, "revoke": "zed"}, "bad_deal", "revoke"),
    ],
)
def test_cinch_refusals(deal, code, field):
    err = refused("cinch", deal, players=FOUR)
    assert (err.code, err.field) == (code, field)
    assert refused("cinch", {"bidder": "ann", "bid": 6, "count": {"ann": 6}}, players=THREE).code == "bad_players"


# -- Seven-Up ---------------------------------------------------------------------------------------------------


def test_seven_up_high_and_low_to_the_players_dealt_them_jack_and_game():
    s = sheet("seven_up", [{"high": "bob", "low": "ann", "jack": "bob", "counts": {"ann": 30, "bob": 21}}], players=TWO)
    assert s["totals"] == {"ann": 2, "bob": 2}


def test_seven_up_a_turned_jack_scores_the_dealer_and_a_gift_the_beggar():
    # "If the upcard is a jack, the dealer scores 1 point immediately." — ann deals the first hand
    s = sheet("seven_up", [{"turned_jacks": 1, "high": "bob", "low": "bob"}], players=TWO)
    assert s["totals"] == {"ann": 1, "bob": 2}
    assert s["deals"][0]["notes"] == ["ann turns up a jack: 1", "high bob, low bob"]
    # "the dealer may say, 'Take it,' whereupon the player scores one point for 'gift.'"
    s = sheet("seven_up", [{"gift": True, "high": "ann", "low": "ann"}], players=THREE)
    assert s["totals"] == {"ann": 2, "bob": 1, "cy": 0}
    # running the cards: "if it is a jack, the dealer again scores 1 point"
    s = sheet(
        "seven_up", [{"ran": True, "turned_jacks": 2, "high": "ann", "low": "cy", "dealer": "bob"}], players=THREE
    )
    assert s["totals"] == {"ann": 1, "bob": 2, "cy": 1}
    two = refused("seven_up", {"turned_jacks": 2, "high": "ann", "low": "ann"}, players=TWO)
    assert (two.field, two.message) == ("turned_jacks", "turned_jacks must be from 0 to 1, not 2")
    both = refused("seven_up", {"ran": True, "gift": True, "high": "ann", "low": "ann"}, players=TWO)
    assert (both.field, both.message) == ("gift", "gift: a dealer who runs the cards gives no gift")


def test_seven_up_a_tie_for_game_two_hand_to_the_non_dealer_else_to_no_one():
    # "In case of a tie for game, in two-hand play, the non-dealer scores it. In three- or four-hand play, no
    # one scores it."
    tie = {"high": "ann", "low": "ann", "counts": {"ann": 20, "bob": 20}}
    assert sheet("seven_up", [tie], players=TWO)["totals"] == {"ann": 2, "bob": 1}
    assert sheet("seven_up", [{**tie, "dealer": "bob"}], players=TWO)["totals"] == {"ann": 3, "bob": 0}
    assert sheet("seven_up", [tie], players=THREE)["totals"] == {"ann": 2, "bob": 0, "cy": 0}
    assert sheet("seven_up", [tie], players=FOUR)["totals"] == {US: 2, THEM: 0}


def test_seven_up_a_revoke():
    # "The offender cannot score for Jack or Game; each opponent scores 1 point if the jack is not in play and
    # 2 points if the jack is in play."
    s = sheet("seven_up", [{"high": "ann", "low": "bob", "jack": "ann", "game": "ann", "revoke": "ann"}], players=THREE)
    assert s["totals"] == {"ann": 1, "bob": 3, "cy": 2}
    s = sheet("seven_up", [{"high": "ann", "low": "bob", "game": "bob", "revoke": "bob"}], players=THREE)
    assert s["totals"] == {"ann": 2, "bob": 1, "cy": 1}


def test_seven_up_seven_wins_counting_the_turned_jack_then_high_low_jack_game():
    start = [{"high": "ann", "low": "ann", "jack": "ann"}, {"high": "bob", "low": "bob", "jack": "bob"}] * 2
    assert sheet("seven_up", start, players=TWO)["totals"] == {"ann": 6, "bob": 6}
    # bob deals: his turned jack counts before ann's high
    s = sheet("seven_up", [*start, {"dealer": "bob", "turned_jacks": 1, "high": "ann", "low": "bob"}], players=TWO)
    assert (s["totals"], s["winner"]) == ({"ann": 7, "bob": 8}, "bob")
    s = sheet("seven_up", [*start, {"high": "bob", "low": "ann", "jack": "ann"}], players=TWO)
    assert (s["totals"], s["winner"]) == ({"ann": 8, "bob": 7}, "bob")
    # "(In some games, 10 points instead of 7 constitute game.)"
    assert sheet("seven_up", start, players=TWO, config={"game_to": 10})["winner"] is None


# -- California Jack and Shasta Sam ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["california_jack", "shasta_sam"])
def test_california_jack_high_low_jack_and_game_are_always_won(game):
    # "One point each is scored for taking the tricks that contain: High (ace of trumps), Low (deuce of
    # trumps), Jack of trumps, and Game"
    s = sheet(game, [{"high": "ann", "low": "bob", "jack": "bob", "counts": {"ann": 44, "bob": 36}}], players=TWO)
    assert s["totals"] == {"ann": 2, "bob": 2}
    assert refused(game, {"high": "ann", "low": "bob", "game": "ann"}, players=TWO).field == "jack"
    short = refused(game, {"high": "ann", "low": "bob", "jack": "ann", "counts": {"ann": 44, "bob": 35}}, players=TWO)
    assert (short.code, short.message) == ("counts_unaccounted", "counts: 79 counting points entered, the deal has 80")
    tie = sheet(game, [{"high": "ann", "low": "bob", "jack": "bob", "counts": {"ann": 40, "bob": 40}}], players=TWO)
    assert tie["totals"] == {"ann": 1, "bob": 2}


def test_california_jack_ten_wins_in_the_order_high_low_jack_game():
    # "The first player to score 10 points wins the game. If both players reach 10 in the same hand, the
    # points count in order: High, Low, Jack, Game."
    even = [{"high": "ann", "low": "ann", "jack": "bob", "game": "bob"}] * 4
    assert sheet("california_jack", even, players=TWO)["totals"] == {"ann": 8, "bob": 8}
    s = sheet("california_jack", [*even, {"high": "bob", "low": "ann", "jack": "ann", "game": "bob"}], players=TWO)
    assert (s["totals"], s["winner"]) == ({"ann": 10, "bob": 10}, "ann")
    assert s["deals"][-1]["notes"][-1] == "game to 10: ann out first"
    assert refused("california_jack", {"high": "ann", "low": "ann", "jack": "ann"}, players=THREE).code == "bad_players"
