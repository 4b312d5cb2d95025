"""Five Hundred (tables/scoring/five_hundred.py), from the rule book's FIVE HUNDRED section. No database."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.scoring.five_hundred import AVONDALE, GAMES
from tables.scoring.registry import get_game
from tests.scoring.helpers import one_game_scorer

GAME = GAMES["five_hundred"]
THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "dee"]
FIVE = ["ann", "bob", "cy", "dee", "eve"]
US, THEM = "ann & cy", "bob & dee"


sheet, refused = one_game_scorer(GAME, players=THREE)


def made(bid, tricks, *, contractor="ann", rest=None):
    """ann's contract with ``tricks`` won; the others share the rest (bob first)."""
    rest = rest if rest is not None else {"bob": 10 - tricks}
    return {"contractor": contractor, "bid": bid, "tricks": {contractor: tricks, **rest}}


def test_five_hundred_is_in_the_registry():
    assert get_game("five_hundred") is GAME


# -- the contract's value ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "value"),
    [
        ("6S", 40),
        ("6C", 60),
        ("6D", 80),
        ("6H", 100),
        ("6NT", 120),
        ("7S", 140),
        ("7H", 200),
        ("8S", 240),
        ("8C", 260),
        ("9D", 380),
        ("10H", 500),
        ("10NT", 520),
    ],
)
def test_the_avondale_schedule(bid, value):
    # the rule book recommends the Avondale schedule (its chart is missing from the text): 6♠ 40, each
    # denomination 20 more (♠ ♣ ♦ ♥ NT), each trick 100 more
    assert AVONDALE[bid] == value
    needed = int(bid.rstrip("SCDHNT"))
    s = sheet([made(bid, needed)])
    assert s["deals"][0]["points"]["ann"] == (max(value, 250) if needed == 10 else value)


def test_no_credit_for_extra_tricks_but_all_ten_score_at_least_250():
    # "There is no credit for extra tricks over the contract except that, if the contractor wins all 10
    # tricks, he scores a minimum of 250."
    assert sheet([made("7S", 9)])["deals"][0]["points"] == {"ann": 140, "bob": 10, "cy": 0}
    assert sheet([made("7S", 10, rest={})])["deals"][0]["points"] == {"ann": 250, "bob": 0, "cy": 0}
    assert sheet([made("9H", 10, rest={})])["deals"][0]["points"] == {"ann": 400, "bob": 0, "cy": 0}
    assert sheet([made("6S", 10, rest={})])["deals"][0]["notes"] == ["ann makes 6S with 10 tricks: 250"]


def test_a_set_contractor_loses_the_bid_and_each_opponent_scores_his_tricks_either_way():
    # "If the contractor fails to make the contract, the value of the bid is deducted from his score";
    # "Whether the contract is made or defeated, each opponent of the contractor scores 10 for each trick"
    s = sheet([made("8H", 7, rest={"bob": 2, "cy": 1})])
    assert s["totals"] == {"ann": -300, "bob": 20, "cy": 10}
    assert s["deals"][0]["notes"] == ["ann is set on 8H (7 tricks): -300"]
    assert s["deals"][0]["extra"]["made"] is False
    s = sheet([made("6D", 6, rest={"bob": 3, "cy": 1})])
    assert s["totals"] == {"ann": 80, "bob": 30, "cy": 10}


def test_the_sheets_doctest_example_in_the_hole():
    # a minus score is "in the hole"
    s = sheet([made("7H", 8, rest={"bob": 1, "cy": 1}), made("8NT", 7, contractor="bob", rest={"ann": 3})])
    assert s["totals"] == {"ann": 230, "bob": -310, "cy": 10}


def test_a_house_schedule_overrides_lines_of_the_chart():
    s = sheet([made("7S", 7)], config={"bid_values": {"7S": 120}})
    assert s["totals"]["ann"] == 120
    with pytest.raises(EngineError) as exc:
        sheet([], config={"bid_values": {"11S": 900}})
    assert (exc.value.code, exc.value.field) == ("bad_config", "config.bid_values")


# -- Nullo -----------------------------------------------------------------------------------------------


def test_nullo_is_250_and_each_trick_the_contractor_takes_gives_each_opponent_10():
    # "The nullo bid has a scoring value of 250 … If the contractor wins a trick, the penalty is to be set
    # back the 250 points, and each opponent scores 10 for each trick the contractor takes."
    ok = sheet([made("nullo", 0, rest={"bob": 6, "cy": 4})], config={"nullo": True})
    assert ok["totals"] == {"ann": 250, "bob": 0, "cy": 0}
    assert ok["deals"][0]["notes"] == ["ann makes nullo: 250"]
    lost = sheet([made("nullo", 2, rest={"bob": 4, "cy": 4})], config={"nullo": True})
    assert lost["totals"] == {"ann": -250, "bob": 20, "cy": 20}


def test_nullo_in_a_partnership_game_is_played_alone_by_the_contractor():
    s = sheet(
        [{"contractor": "bob", "bid": "NULLO", "tricks": {"bob": 1, "ann": 9}}], players=FOUR, config={"nullo": True}
    )
    assert s["totals"] == {US: 10, THEM: -250}


def test_nullo_needs_the_tables_rule_and_no_partner():
    assert refused(made("nullo", 0), config={}).message == "bid: this table does not play nullo"
    err = refused(
        {"contractor": "ann", "bid": "nullo", "partners": ["bob"], "tricks": {"ann": 0, "bob": 5, "cy": 5, "dee": 0}},
        players=FIVE,
        config={"nullo": True},
    )
    assert (err.field, err.message) == ("partners", "partners: a nullo contractor plays alone")


# -- a passed deal -------------------------------------------------------------------------------------


def test_a_passed_deal_is_abandoned_or_played_at_no_trump():
    # "If all players pass, the deal is abandoned without a score."
    s = sheet([{"passed": True}])
    assert (s["totals"], s["deals"][0]["notes"]) == (
        {"ann": 0, "bob": 0, "cy": 0},
        ["all passed: the deal is abandoned"],
    )
    # "Optional rule: A passed deal may be played as no trump … Each trick won counts 10 points."
    s = sheet([{"passed": True, "tricks": {"ann": 5, "bob": 3, "cy": 2}}], config={"passed_deal": "no_trump"})
    assert s["totals"] == {"ann": 50, "bob": 30, "cy": 20}
    err = refused({"passed": True, "bid": "6S", "tricks": {"ann": 10}}, config={"passed_deal": "no_trump"})
    assert (err.field, err.message) == ("bid", "bid: a passed deal has no contract")
    assert refused({"passed": True, "tricks": {"ann": 10}}).field == "tricks"


# -- partnerships and five-hand -------------------------------------------------------------------------


def test_four_hand_partnerships_score_by_side():
    s = sheet([{"contractor": "cy", "bid": "7D", "tricks": 8}], players=FOUR)
    assert s["totals"] == {US: 180, THEM: 20}
    assert s["deals"][0]["notes"] == ["ann & cy make 7D with 8 tricks: 180"]


def test_six_hand_two_partnerships_of_three():
    six = ["ann", "bob", "cy", "dee", "eve", "fay"]
    s = sheet([{"contractor": "eve", "bid": "6NT", "tricks": {"ann": 6, "fay": 4}}], players=six)
    assert s["totals"] == {"ann & cy & eve": 120, "bob & dee & fay": 40}


def test_five_hand_the_contractor_names_a_partner_two_on_a_bid_of_eight():
    # "After the bidding, the high bidder may select any other player to be his partner. If the player bids
    # eight or more tricks, he may name any two partners."
    one = {"contractor": "ann", "bid": "7H", "partners": ["dee"], "tricks": {"ann": 5, "dee": 3, "bob": 1, "cy": 1}}
    assert sheet([one], players=FIVE)["totals"] == {"ann": 200, "bob": 10, "cy": 10, "dee": 200, "eve": 0}
    two = {
        "contractor": "ann",
        "bid": "8H",
        "partners": ["cy", "dee"],
        "tricks": {"ann": 3, "cy": 2, "dee": 2, "bob": 3},
    }
    assert sheet([two], players=FIVE)["totals"] == {"ann": -300, "bob": 30, "cy": -300, "dee": -300, "eve": 0}
    too_many = refused({**one, "partners": ["cy", "dee"]}, players=FIVE)
    assert (too_many.field, too_many.message) == ("partners", "partners: a bid of 7 tricks takes at most 1 partner(s)")
    assert refused({**one, "partners": ["ann"]}, players=FIVE).message == (
        "partners: the contractor cannot be his own partner"
    )
    assert refused({**made("7H", 7), "partners": ["bob"]}).message == (
        "partners: only five-hand Five Hundred names partners"
    )


def test_the_card_points_option():
    # "1 point for each ace, 10 for each face card or ten, the pip value for each lower card, and zero for the
    # joker. These points have no bearing on whether the contractor makes the bid"
    deal = {**made("7H", 7, rest={"bob": 3}), "cards": {"ann": 140, "bob": 70, "cy": 50}}
    s = sheet([deal], config={"card_points": True, "game_to": 1000})
    assert s["totals"] == {"ann": 340, "bob": 100, "cy": 50}
    over = refused({**deal, "cards": {"ann": 200, "bob": 61}}, config={"card_points": True})
    assert (over.code, over.message) == ("cards_unaccounted", "cards: 261 card points entered, the pack holds 260")
    assert refused(made("7H", 7), config={"card_points": True}).field == "cards"


# -- the end of the game -----------------------------------------------------------------------------


def test_the_first_to_500_wins():
    s = sheet([made("10NT", 10, rest={})])
    assert (s["winner"], s["status"], s["deals"][0]["notes"][-1]) == ("ann", "finished", "ann won the game")


def test_contractor_and_opponent_reaching_500_together_the_contractor_wins():
    # given ann at 460, bob at 490
    deals = [
        made("9H", 9, contractor="bob", rest={"cy": 1}),  # bob 400, cy 10
        made("8NT", 8, rest={"bob": 2}),  # ann 320, bob 420
        made("7S", 7, rest={"bob": 3}),  # ann 460, bob 450
        made("6S", 6, contractor="cy", rest={"bob": 4}),  # cy 50, bob 490
    ]
    assert sheet(deals)["totals"] == {"ann": 460, "bob": 490, "cy": 50}
    # when ann makes 6S and bob takes 4 tricks, both pass 500: "the contractor wins", bob's higher total or not
    s = sheet([*deals, made("6S", 6, rest={"bob": 4})])
    assert (s["totals"], s["winner"]) == ({"ann": 500, "bob": 530, "cy": 50}, "ann")
    # when ann is set, bob alone reaches 500 and wins
    s = sheet([*deals, made("6S", 5, rest={"bob": 5})])
    assert (s["totals"], s["winner"]) == ({"ann": 420, "bob": 540, "cy": 50}, "bob")


def test_three_hand_two_opponents_reaching_500_the_first_there_wins():
    # given bob and cy at 460 each
    base = [made("10C", 10, contractor="bob", rest={}), made("10C", 10, contractor="cy", rest={})]
    assert sheet(base)["totals"] == {"ann": 0, "bob": 460, "cy": 460}
    # when ann is set and both opponents pass 500 on the deal, the sheet must say who got there first
    last = {"contractor": "ann", "bid": "6H", "tricks": {"ann": 2, "bob": 4, "cy": 4}}
    err = refused(last, before=base)
    assert (err.code, err.field, err.event) == ("first_out_needed", "first_out", 2)
    # "the opponent who is first to reach 500 may claim the game"
    s = sheet([*base, {**last, "first_out": "cy"}])
    assert (s["totals"], s["winner"]) == ({"ann": -100, "bob": 500, "cy": 500}, "cy")


def test_two_sides_going_500_in_the_hole_loses():
    # "If one side's score reaches minus 500, the opponents win the game."
    s = sheet([{"contractor": "ann", "bid": "8NT", "tricks": 4}] * 2, players=FOUR)
    assert (s["totals"], s["winner"]) == ({US: -640, THEM: 120}, THEM)
    assert s["deals"][1]["notes"][1:] == ["ann & cy: 500 in the hole, the game is lost", "bob & dee won the game"]
    # two-hand: "If a player's score reaches minus 500, his opponent wins the game."
    s = sheet([{"contractor": "ann", "bid": "8NT", "tricks": 7}] * 2, players=["ann", "bob"])
    assert (s["totals"], s["winner"]) == ({"ann": -640, "bob": 60}, "bob")


def test_three_hand_a_player_500_in_the_hole_cannot_win_and_going_out_first_voids_the_game():
    # given ann goes 500 in the hole
    sunk = [made("8NT", 7, rest={"bob": 3})] * 2
    s = sheet(sunk)
    assert (s["totals"], s["winner"]) == ({"ann": -640, "bob": 60, "cy": 0}, None)
    assert s["state"]["in_the_hole"] == ["ann"]
    assert s["deals"][1]["notes"][-1] == "ann is 500 in the hole and cannot win this game"
    # when she comes back and goes out first, "no one wins the game"
    back = [*sunk, *[made("10NT", 10, rest={})] * 3]
    s = sheet(back)
    assert (s["totals"]["ann"], s["winner"], s["state"]["void"]) == (920, None, True)
    assert s["deals"][-1]["notes"][-1] == "ann went out first after being 500 in the hole: no one wins the game"
    assert GAME.leader(s["totals"], config=s["config"]) is None  # a sheet closed now names no winner
    # and the sheet takes no more deals
    err = refused(made("6S", 6), before=back)
    assert (err.code, err.event) == ("game_void", 5)


# -- refusals ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        ({"contractor": "zed", "bid": "7H", "tricks": {"ann": 10}}, "bad_deal", "contractor"),
        ({"contractor": "ann", "bid": "5H", "tricks": {"ann": 10}}, "bad_bid", "bid"),
        ({"contractor": "ann", "bid": "11S", "tricks": {"ann": 10}}, "bad_bid", "bid"),
        ({"contractor": "ann", "bid": "7X", "tricks": {"ann": 10}}, "bad_bid", "bid"),
        ({"contractor": "ann", "bid": 7, "tricks": {"ann": 10}}, "bad_bid", "bid"),
        ({"contractor": "ann", "bid": "7H", "tricks": {"ann": 7, "bob": 2}}, "tricks_unaccounted", "tricks"),
        ({"contractor": "ann", "bid": "7H", "tricks": {"ann": 7, "zed": 3}}, "bad_deal", "tricks.zed"),
        ({"contractor": "ann", "bid": "7H", "tricks": {"ann": 11}}, "bad_deal", "tricks.ann"),
        ({"contractor": "ann", "bid": "7H", "tricks": 7}, "bad_deal", "tricks"),  # three play: each one's tricks
        ({"contractor": "ann", "bid": "7H", "tricks": {"ann": 10}, "widow": 3}, "bad_deal", "widow"),
        ({"contractor": "ann", "bid": "7H", "tricks": {"ann": 10}, "first_out": "zed"}, "bad_deal", "first_out"),
    ],
)
def test_impossible_entries_are_refused_naming_the_problem(deal, code, field):
    err = refused(deal)
    assert (err.code, err.field, err.event) == (code, field, 0)


def test_the_messages_say_what_is_wrong():
    assert refused(made("5H", 10, rest={})).message == (
        "bid must be 6 to 10 tricks and a denomination (S, C, D, H, NT), e.g. 7H or 10NT, not '5H'"
    )
    assert refused({"contractor": "ann", "bid": "7H", "tricks": {"ann": 7, "bob": 2}}).message == (
        "tricks: 9 tricks entered, the deal has 10"
    )
    assert refused({"contractor": "ann", "bid": "7H", "tricks": 7}).message == (
        "tricks must give each player's tricks, as an object: the game scores them one by one"
    )


def test_player_counts():
    with pytest.raises(EngineError) as exc:
        sheet([], players=["ann", "bob", "cy", "dee", "eve", "fay", "gus"])
    assert (exc.value.code, exc.value.message) == ("bad_players", "Five Hundred takes 2 to 6 players")
