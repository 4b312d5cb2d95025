"""Faro and Stuss engines: the rule book's rules, every settlement cell, refusals, properties, house edge."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.errors import EngineError
from tables.engines.faro import FARO, LAYOUT, STUSS, rank_bet_probabilities
from tests.engines.helpers import play, without_input
from tests.engines.helpers import refusal as refused

FULL_DECK = [r + s for r in "A23456789TJQK" for s in "SHDC"]


def deck_with(first: list[str], last: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """A whole pack: ``first`` on top, ``last`` at the bottom, the other cards between in a fixed order."""
    middle = [c for c in FULL_DECK if c not in first and c not in last]
    deck = [*first, *middle, *last]
    assert sorted(deck) == sorted(FULL_DECK)
    return deck



def rank_bet(bet_id: str, rank: str, amount: int = 10, *, seat: int = 1, coppered: bool | None = None) -> dict:
    bet: dict[str, Any] = {"id": bet_id, "seat": seat, "type": "rank", "rank": rank, "amount": amount}
    if coppered is not None:
        bet["coppered"] = coppered
    return bet


def faro(cards: list[str], bets: list[dict] = (), events: list[dict] | None = None, **config: Any) -> dict:  # type: ignore[assignment]
    evs = events if events is not None else [{"card": c} for c in cards]
    return play({"game": "faro", "config": config, "bets": list(bets), "events": evs})


def row(out: dict, bet_id: str) -> dict:
    (found,) = [r for r in out["bets"] if r["id"] == bet_id]
    return found



# -- the rule book's example ------------------------------------------------------------------------


def test_seed_example_the_six_stays_then_loses_as_the_first_card_of_a_turn():
    # given a chip on the six, one coppered, and a turn with no six, then a six as loser
    bets = [rank_bet("plain", "6"), rank_bet("copper", "6", coppered=True)]
    first = ["AS", "2H", "3D"]

    # when the soda and the first turn are dealt
    out = faro(first, bets)

    # then the bets remain on the layout, unsettled
    assert out["status"] == "awaiting"
    assert out["bets"] == []
    assert out["next"]["say"] == "Turn 2: loser card"

    # when the next turn's first card (the loser) is the six
    out = faro([*first, "6C", "9S"], bets)

    # then the six loses: the dealer takes the plain bet and pays the coppered one
    assert (row(out, "plain")["result"], row(out, "plain")["net"]) == ("lose", -10)
    assert (row(out, "copper")["result"], row(out, "copper")["net"]) == ("win", 10)
    assert row(out, "plain")["turn"] == 2
    assert row(out, "plain")["cards"] == ["6C", "9S"]


def test_seed_example_the_six_as_second_card_of_the_turn_wins():
    # given the same bets
    bets = [rank_bet("plain", "6"), rank_bet("copper", "6", coppered=True)]

    # when the six comes second in a turn
    out = faro(["AS", "2H", "3D", "9S", "6C"], bets)

    # then the plain bet wins and the coppered bet loses
    assert (row(out, "plain")["result"], row(out, "plain")["net"]) == ("win", 10)
    assert (row(out, "copper")["result"], row(out, "copper")["net"]) == ("lose", -10)


@pytest.mark.parametrize(
    ("turn", "coppered", "result", "net"),
    [
        (["6C", "9S"], False, "lose", -10),
        (["6C", "9S"], True, "win", 10),
        (["9S", "6C"], False, "win", 10),
        (["9S", "6C"], True, "lose", -10),
        (["6C", "6S"], False, "split", -5),
        (["6C", "6S"], True, "split", -5),
        (["9S", "8C"], False, None, None),
        (["9S", "8C"], True, None, None),
    ],
)
def test_every_cell_of_a_rank_bet(turn, coppered, result, net):
    # given a bet on the six, to win or coppered
    bets = [rank_bet("b", "6", coppered=coppered)]

    # when the soda and one turn are dealt
    out = faro(["AS", *turn], bets)

    # then the bet is decided by the six's place in the turn (or stays on the layout)
    if result is None:
        assert out["bets"] == []
    else:
        assert (row(out, "b")["result"], row(out, "b")["net"]) == (result, net)


def test_the_soda_has_no_action():
    # given a bet on the six and a six as soda
    # when the soda and a turn without a six are dealt
    out = faro(["6S", "2H", "3D"], [rank_bet("b", "6")])

    # then the bet stands, and the casekeeper counts the soda as gone
    assert out["bets"] == []
    assert out["casekeeper"]["6"] == 3
    assert out["hands"]["soda"] == "6S"


@pytest.mark.parametrize(
    ("amount", "rounding", "taken"),
    [
        (10, "down", 5),
        (5, "down", 2),
        (5, "up", 3),
        (5, "half_up", 3),
        (5, "half_even", 2),
        (7, "half_even", 4),
        (1, "down", 0),
        (1, "up", 1),
    ],
)
def test_a_split_takes_half_with_the_odd_chip_by_the_rounding_setting(amount, rounding, taken):
    # given a bet on the six
    # when both cards of a turn are sixes
    out = faro(["AS", "6C", "6D"], [rank_bet("b", "6", amount)], split_rounding=rounding)

    # then the house takes half, the odd chip going where the setting says
    assert row(out, "b")["result"] == "split"
    assert row(out, "b")["net"] == -taken


def test_a_split_decides_only_the_split_rank():
    # given bets on the six and the nine
    bets = [rank_bet("six", "6"), rank_bet("nine", "9")]

    # when a turn splits the six
    out = faro(["AS", "6C", "6D"], bets)

    # then only the six bet is settled
    assert [r["id"] for r in out["bets"]] == ["six"]
    assert out["bets"][0]["result"] == "split"


# -- Stuss -------------------------------------------------------------------------------------


def test_stuss_has_no_soda_the_first_card_is_a_loser():
    # given a bet on the ace at Stuss
    doc = {"game": "stuss", "bets": [rank_bet("b", "A")], "events": []}

    # when nothing is dealt yet
    out = play(doc)

    # then the first card expected is a loser, and the first ace loses the bet
    assert out["next"]["to"] == "loser"
    assert out["next"]["say"] == "Turn 1: loser card"
    assert "soda" not in out["hands"]
    doc["events"] = [{"card": "AS"}, {"card": "2D"}]
    out = play(doc)
    assert (row(out, "b")["result"], row(out, "b")["net"]) == ("lose", -10)


def test_stuss_split_takes_the_full_bet():
    # given a bet on the ace at Stuss
    doc = {"game": "stuss", "bets": [rank_bet("b", "A", 9)], "events": [{"card": "AS"}, {"card": "AD"}]}

    # when both cards of a turn are aces
    out = play(doc)

    # then the dealer takes the whole bet
    assert (row(out, "b")["result"], row(out, "b")["net"]) == ("split", -9)


def test_stuss_deals_26_turns_and_has_no_hock():
    # given a full Stuss pack
    deck = deck_with([])
    doc = {"game": "stuss", "bets": [rank_bet("b", "K")], "events": [{"card": c} for c in deck]}

    # when all 52 cards are dealt
    out = play(doc)

    # then the deal is complete after 26 turns, the last card a winner
    assert out["status"] == "settled"
    assert out["outcome"] == {"turns": 26, "splits": out["outcome"]["splits"]}
    assert out["hands"]["turns"][-1]["winner"] == deck[-1]
    assert out["say"] == "Deal complete"
    assert all(v == 0 for v in out["casekeeper"].values())


def test_stuss_takes_no_call_the_turn_bet():
    # given a call-the-turn bet at Stuss
    doc = {
        "game": "stuss",
        "bets": [{"id": "c", "seat": 1, "type": "call_the_turn", "amount": 5, "order": ["A", "2", "3"]}],
    }

    # when it is placed / then it is refused: Stuss has no side bets
    err = refused(doc)
    assert err.code == "bad_bet_type"


# -- calling the turn and the hock --------------------------------------------------------------

LAST3 = ["7H", "KD", "2S"]  # the last turn's loser and winner, then the hock


def call_doc(order: list[str], last3: list[str] = LAST3, *, amount: int = 10, **config: Any) -> dict:
    deck = deck_with([], last3)
    events: list[dict] = [{"card": c} for c in deck[:49]]
    events.append({"bet": {"id": "call", "seat": 2, "type": "call_the_turn", "amount": amount, "order": order}})
    events += [{"card": c} for c in deck[49:51]]
    return {"game": "faro", "config": config, "bets": [], "events": events}


def test_calling_the_turn_right_pays_4_to_1():
    # given three different ranks left, called in their order (loser, winner, hock)
    # when the last turn is dealt
    out = play(call_doc(["7", "K", "2"]))

    # then the bet wins four to one and the hock is shown
    assert (row(out, "call")["result"], row(out, "call")["net"]) == ("win", 40)
    assert row(out, "call")["actual"] == ["7", "K", "2"]
    assert row(out, "call")["cat_hop"] is False
    assert out["outcome"]["hock"] == "2S"
    assert out["hands"]["hock"] == "2S"
    assert out["say"] == "Deal complete: 2S in hock"
    assert out["house"]["net"] == -40


def test_calling_the_turn_wrong_loses():
    # given the order called wrong
    # when the last turn is dealt
    out = play(call_doc(["K", "7", "2"]))

    # then the bet loses
    assert (row(out, "call")["result"], row(out, "call")["net"]) == ("lose", -10)


def test_a_cat_hop_pays_2_to_1():
    # given two of the last three cards paired
    # when the pair's order is called right
    out = play(call_doc(["7", "2", "7"], ["7H", "2S", "7D"]))

    # then it pays two to one
    assert (row(out, "call")["result"], row(out, "call")["net"]) == ("win", 20)
    assert row(out, "call")["cat_hop"] is True


def test_call_the_turn_odds_come_from_the_chart():
    # given a house that pays 5 to 1 on the turn
    # when the turn is called right
    out = play(call_doc(["7", "K", "2"], call_the_turn_pays={"call_the_turn": 5}))

    # then the chart's odds are paid
    assert row(out, "call")["net"] == 50


def test_next_opens_calling_the_turn_with_three_cards_left():
    # given the pack dealt down to three cards
    deck = deck_with([], LAST3)
    out = faro(deck[:49])

    # then the dealer screen says so
    assert out["next"]["say"] == "Turn 25: loser card (last turn, calling the turn is open)"
    assert out["next"]["bet_types"] == ["rank", "call_the_turn"]
    assert out["casekeeper"]["7"] == 1
    assert sum(out["casekeeper"].values()) == 3


def test_calling_the_turn_before_three_cards_are_left_is_refused():
    # given a call placed before the soda
    doc = {
        "game": "faro",
        "bets": [{"id": "c", "seat": 1, "type": "call_the_turn", "amount": 5, "order": ["A", "2", "3"]}],
        "events": [],
    }

    # when it is placed / then it is refused
    err = refused(doc)
    assert (err.code, err.event, err.field) == ("bad_bet", None, "bets[0].type")


def test_calling_ranks_that_are_not_the_last_three_is_refused():
    # given an order naming a rank that is not among the cards left
    doc = call_doc(["7", "K", "Q"])

    # when it is placed / then it is refused at its event
    err = refused(doc)
    assert (err.code, err.event) == ("bad_bet", 49)


def test_calling_three_of_a_kind_is_refused():
    # given the last three cards all sevens
    doc = call_doc(["7", "7", "7"], ["7H", "7D", "7S"])

    # when the turn is called / then there is nothing to call
    err = refused(doc)
    assert (err.code, err.event) == ("bad_bet", 49)
    assert "no order to call" in err.message


def test_a_rank_bet_on_the_hock_has_no_action():
    # given a bet on the deuce with only the hock deuce left, and one on the king
    deck = deck_with([], LAST3)
    events: list[dict] = [{"card": c} for c in deck[:49]]
    events.append({"bet": rank_bet("deuce", "2")})
    events.append({"bet": rank_bet("king", "K")})
    events += [{"card": c} for c in deck[49:51]]

    # when the deal ends
    out = faro([], events=events)

    # then the deuce bet is returned (the hock has no action) and the king bet wins
    assert (row(out, "deuce")["result"], row(out, "deuce")["net"], row(out, "deuce")["reason"]) == ("push", 0, "hock")
    assert (row(out, "king")["result"], row(out, "king")["net"]) == ("win", 10)
    assert out["casekeeper"] == dict.fromkeys(LAYOUT, 0)


# -- bets between turns --------------------------------------------------------------------------


def test_bets_are_placed_and_taken_down_between_turns():
    # given a bet before the deal, a bet after turn 1 and a bet taken down after turn 2
    events = [
        {"card": "AS"}, {"card": "2H"}, {"card": "3D"},
        {"bet": rank_bet("late", "9", 20, seat=4)},
        {"card": "4H"}, {"card": "5D"},
        {"seat": 1, "action": "remove", "bet_id": "early"},
        {"card": "9C"}, {"card": "KD"},
    ]  # fmt: skip

    # when they are replayed
    out = faro([], [rank_bet("early", "K")], events=events)

    # then the early bet is withdrawn untouched and the late one decided by the nine
    assert (row(out, "early")["result"], row(out, "early")["net"]) == ("withdrawn", 0)
    assert (row(out, "late")["result"], row(out, "late")["net"], row(out, "late")["seat"]) == ("lose", -20, 4)
    assert [r["id"] for r in out["bets"]] == ["early", "late"]


def test_a_bet_in_the_middle_of_a_turn_is_refused():
    # given a bet placed after the loser card, before the winner
    events = [{"card": "AS"}, {"card": "2H"}, {"bet": rank_bet("b", "9")}]

    # when it is replayed / then it is refused at its event
    err = refused({"game": "faro", "events": events})
    assert (err.code, err.event) == ("out_of_turn", 2)


def test_a_bet_after_the_deal_is_refused():
    # given a complete deal, then a bet
    events = [{"card": c} for c in deck_with([])[:51]] + [{"bet": rank_bet("b", "9")}]

    # when it is replayed / then it is refused
    err = refused({"game": "faro", "events": events})
    assert (err.code, err.event) == ("out_of_turn", 51)


def test_a_bet_on_a_dead_rank_is_refused():
    # given all four nines dealt
    events = [{"card": c} for c in ["AS", "9S", "9H", "9D", "9C"]] + [{"bet": rank_bet("b", "9")}]

    # when a bet on the nine is placed / then it is refused
    err = refused({"game": "faro", "events": events})
    assert (err.code, err.event, err.field) == ("bad_bet", 5, "events[5].bet.rank")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 2, "action": "remove", "bet_id": "b"}, "illegal_action"),  # another seat's bet
        ({"seat": 1, "action": "remove", "bet_id": "zz"}, "bad_event"),  # no such bet
        ({"seat": 1, "action": "remove"}, "bad_event"),
        ({"seat": 1, "action": "hit", "bet_id": "b"}, "illegal_action"),
        ({"seat": 1, "action": "remove", "bet_id": "b", "hand": 1}, "bad_event"),
    ],
)
def test_bad_take_downs_are_refused(action, code):
    # given a bet on the layout
    events = [{"card": "AS"}, action]

    # when the take-down is replayed / then it is refused at its event
    err = refused({"game": "faro", "bets": [rank_bet("b", "K")], "events": events})
    assert (err.code, err.event) == (code, 1)


def test_taking_down_a_decided_bet_or_mid_turn_is_refused():
    # given a bet decided at turn 1
    decided = [{"card": "AS"}, {"card": "KH"}, {"card": "2D"}, {"seat": 1, "action": "remove", "bet_id": "b"}]
    mid_turn = [{"card": "AS"}, {"card": "2H"}, {"seat": 1, "action": "remove", "bet_id": "b"}]

    # when it is taken down / then it is refused
    assert refused({"game": "faro", "bets": [rank_bet("b", "K")], "events": decided}).code == "illegal_action"
    err = refused({"game": "faro", "bets": [rank_bet("b", "K")], "events": mid_turn})
    assert (err.code, err.event) == ("out_of_turn", 2)


# -- the dealer screen ----------------------------------------------------------------------------


def test_next_walks_soda_loser_winner():
    # given nothing dealt, then the soda, then a loser
    # when each is replayed / then next says what to turn
    assert without_input(faro([])["next"]) == {
        "expect": "card",
        "to": "soda",
        "say": "Soda: turn the first card (no action)",
        "bets_open": True,
        "bet_types": ["rank"],
        "turn": 0,
    }
    assert faro(["AS"])["next"]["say"] == "Turn 1: loser card"
    out = faro(["AS", "2H"])
    assert (out["next"]["to"], out["next"]["say"], out["next"]["bets_open"]) == ("winner", "Turn 1: winner card", False)
    assert out["next"]["bet_types"] == []


def test_hands_and_casekeeper_follow_the_deal():
    # given the soda and a turn and a half
    # when replayed
    out = faro(["AS", "2H", "3D", "2C"])

    # then the turns, the cards left and the casekeeper show it
    assert out["hands"] == {
        "soda": "AS",
        "hock": None,
        "cards_left": 48,
        "turns": [{"turn": 1, "loser": "2H", "winner": "3D"}, {"turn": 2, "loser": "2C", "winner": None}],
    }
    assert out["casekeeper"] == {"A": 3, "2": 2, "3": 3, **dict.fromkeys("456789TJQK", 4)}


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        ([{"card": "ZZ"}], "bad_card", 0),
        ([{"card": "AS"}, {"card": "AS"}], "card_exhausted", 1),
        ([{"card": "AS", "to": "loser"}], "out_of_turn", 0),
        ([{"card": "AS", "to": "banker"}], "bad_event", 0),
        ([{"card": "AS"}, {"card": "2S", "to": "winner"}], "out_of_turn", 1),
        ([{"card": "AS", "face": "up"}], "bad_event", 0),
        ([{"deal": "AS"}], "bad_event", 0),
        ([{"card": "AS"}, {"bet": rank_bet("x", "K"), "card": "2S"}], "bad_event", 1),
        ([{"card": 12}], "bad_card", 0),
        ([{"card": c} for c in deck_with([])], "out_of_turn", 51),
    ],
)
def test_bad_events_are_refused_naming_the_event(events, code, event):
    # given a deal with one bad event
    # when it is replayed / then it is refused with the event's index
    err = refused({"game": "faro", "events": events})
    assert (err.code, err.event) == (code, event)


@pytest.mark.parametrize(
    ("bet", "config", "code", "field"),
    [
        ({"id": "b", "seat": 1, "type": "rank", "rank": "Z", "amount": 5}, {}, "bad_bet", "rank"),
        ({"id": "b", "seat": 1, "type": "rank", "rank": 6, "amount": 5}, {}, "bad_bet", "rank"),
        (
            {"id": "b", "seat": 1, "type": "rank", "rank": "6", "amount": 5, "coppered": "yes"},
            {},
            "bad_bet",
            "coppered",
        ),
        ({"id": "b", "seat": 1, "type": "rank", "amount": 5}, {}, "bad_bet", "rank"),
        ({"id": "b", "seat": 1, "type": "high_card", "amount": 5}, {}, "bad_bet_type", "type"),
        ({"id": "b", "seat": 1, "type": "rank", "rank": "6", "amount": 0}, {}, "bad_amount", "amount"),
        (
            {"id": "b", "seat": 1, "type": "rank", "rank": "6", "amount": 501},
            {"max_bet": 500},
            "over_table_max",
            "amount",
        ),
        ({"id": "b", "seat": 1, "type": "rank", "rank": "6", "amount": 4}, {"min_bet": 5}, "under_table_min", "amount"),
    ],
)
def test_bad_bets_are_refused_before_and_between_turns(bet, config, code, field):
    # given a bad bet placed before the deal, and the same placed between turns
    # when each is replayed / then both are refused with the field at fault
    err = refused({"game": "faro", "config": config, "bets": [bet], "events": []})
    assert (err.code, err.event, err.field) == (code, None, f"bets[0].{field}")
    err = refused({"game": "faro", "config": config, "events": [{"card": "AS"}, {"bet": bet}]})
    assert (err.code, err.event, err.field) == (code, 1, f"events[1].bet.{field}")


@pytest.mark.parametrize(("order", "field"), [(["A", "2"], "order"), (["A", "2", "X"], "order[2]")])
def test_a_bad_call_of_the_turn_is_refused_for_its_order_between_turns_and_for_its_timing_before_the_deal(order, field):
    # given a call of the turn with a bad order
    bet = {"id": "b", "seat": 1, "type": "call_the_turn", "amount": 5, "order": order}
    # when it is placed before the deal / then the deal refuses its timing, whatever its order
    err = refused({"game": "faro", "bets": [bet], "events": []})
    assert (err.code, err.event, err.field, err.params["cards_left"]) == ("bad_bet", None, "bets[0].type", 52)
    # when it is placed between turns / then its order is at fault
    err = refused({"game": "faro", "events": [{"card": "AS"}, {"bet": bet}]})
    assert (err.code, err.event, err.field) == ("bad_bet", 1, f"events[1].bet.{field}")


def test_a_bet_id_used_twice_is_refused_at_its_event():
    # given a bet id reused between turns
    events = [{"card": "AS"}, {"bet": rank_bet("b", "9")}]

    # when replayed / then refused
    err = refused({"game": "faro", "bets": [rank_bet("b", "K")], "events": events})
    assert (err.code, err.event) == ("duplicate_bet", 1)


def test_ten_is_accepted_for_t_and_ranks_are_case_insensitive():
    # given bets on "10" and "q"
    # when a ten loses and a queen wins
    out = faro(["AS", "TH", "QD"], [rank_bet("ten", "10"), rank_bet("queen", "q")])

    # then both are read as layout ranks
    assert (row(out, "ten")["rank"], row(out, "ten")["result"]) == ("T", "lose")
    assert (row(out, "queen")["rank"], row(out, "queen")["result"]) == ("Q", "win")


def test_unknown_settings_are_refused():
    err = refused({"game": "stuss", "config": {"call_the_turn_pays": {"cat_hop": 2}}})
    assert err.code == "unknown_setting"


# -- a whole deal ----------------------------------------------------------------------------------


def test_a_whole_deal_settles_every_bet_once_and_the_house_takes_the_other_side():
    # given a bet on every rank, alternately coppered, and a shuffled pack
    deck = FULL_DECK[:]
    random.Random(3).shuffle(deck)
    bets = [rank_bet(f"b{r}", r, 10, coppered=i % 2 == 1) for i, r in enumerate(LAYOUT)]

    # when the whole deal is replayed
    out = faro(deck[:51], bets)

    # then every bet has one row and the house's net is the other side of the bets
    assert out["status"] == "settled"
    assert sorted(r["id"] for r in out["bets"]) == sorted(b["id"] for b in bets)
    assert out["house"]["net"] == -sum(r["net"] for r in out["bets"])
    splits = [deck[i][0] for i in range(1, 51, 2) if deck[i][0] == deck[i + 1][0]]
    assert splits == ["Q", "J", "4"]
    assert out["outcome"] == {"turns": 25, "splits": splits, "hock": deck[51]}
    assert sorted(r["rank"] for r in out["bets"] if r["result"] == "split") == ["4", "J", "Q"]
    assert {r["net"] for r in out["bets"] if r["result"] == "split"} == {-5}
    assert [r["result"] for r in out["bets"] if r["rank"] == deck[51][0]] == ["split"]  # decided before the hock


# -- properties ------------------------------------------------------------------------------------


def expected_rank_result(deck: list[str], placed_at: int, rank: str, coppered: bool, soda: bool) -> str | None:
    """An independent reading of the rule book: the first turn after the bet that shows the rank decides it."""
    start = 1 if soda else 0
    turns = (52 - start - (1 if soda else 0)) // 2
    for t in range(turns):
        first = start + 2 * t
        if first < placed_at:
            continue
        loser, winner = deck[first][0], deck[first + 1][0]
        if loser == winner == rank:
            return "split"
        if loser == rank:
            return "win" if coppered else "lose"
        if winner == rank:
            return "lose" if coppered else "win"
    return "push"


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["faro", "stuss"]), deck=st.permutations(FULL_DECK), data=st.data())
def test_random_deals_conserve_money_and_follow_the_rules(game, deck, data):
    # given a shuffled pack with random bets, take-downs and calls between turns
    soda = game == "faro"
    start = 1 if soda else 0
    n_cards = 51 if soda else 52
    events: list[dict] = []
    placed: dict[str, tuple[int, str, bool]] = {}
    seats: dict[str, int] = {}
    open_bets: dict[str, str] = {}
    removed: set[str] = set()
    left = dict.fromkeys(LAYOUT, 4)
    called = False
    for position in range(n_cards):
        if position < start or (position - start) % 2 == 0:  # between turns
            if open_bets and data.draw(st.booleans()):
                bet_id = data.draw(st.sampled_from(sorted(open_bets)))
                events.append({"seat": seats[bet_id], "action": "remove", "bet_id": bet_id})
                removed.add(bet_id)
                del open_bets[bet_id]
            for _ in range(data.draw(st.integers(0, 2))):
                bet_id = f"b{len(placed)}"
                rank = data.draw(st.sampled_from([r for r in LAYOUT if left[r]]))
                coppered = data.draw(st.booleans())
                seats[bet_id] = data.draw(st.integers(1, 9))
                events.append(
                    {
                        "bet": {
                            "id": bet_id,
                            "seat": seats[bet_id],
                            "type": "rank",
                            "rank": rank,
                            "amount": data.draw(st.integers(1, 999)),
                            "coppered": coppered,
                        }
                    }
                )
                placed[bet_id] = (position, rank, coppered)
                open_bets[bet_id] = rank
            last3 = [c[0] for c in deck[49:]]
            if soda and position == 49 and len(set(last3)) > 1 and data.draw(st.booleans()):
                order = data.draw(st.permutations(last3))
                events.append(
                    {"bet": {"id": "call", "seat": 1, "type": "call_the_turn", "amount": 7, "order": list(order)}}
                )
                called = True
        events.append({"card": deck[position]})
        left[deck[position][0]] -= 1
        if position >= start and (position - start) % 2 == 1:  # a turn is complete
            shown = {deck[position - 1][0], deck[position][0]}
            open_bets = {b: r for b, r in open_bets.items() if r not in shown}

    # when the deal is replayed
    out = play({"game": game, "bets": [], "events": events})

    # then every bet has exactly one row, money is conserved and each rank bet follows the rule book
    assert out["status"] == "settled"
    ids = [r["id"] for r in out["bets"]]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(placed) | ({"call"} if called else set())
    assert sum(r["net"] for r in out["bets"]) + out["house"]["net"] == 0
    for bet_id, (at, rank, coppered) in placed.items():
        got = row(out, bet_id)["result"]
        assert got == ("withdrawn" if bet_id in removed else expected_rank_result(deck, at, rank, coppered, soda))
    # and every prefix of the events is a valid, awaiting round
    cut = data.draw(st.integers(0, len(events) - 1))
    partial = play({"game": game, "bets": [], "events": events[:cut]})
    assert partial["status"] == "awaiting"
    assert sum(partial["casekeeper"].values()) == 52 - sum(1 for e in events[:cut] if "card" in e)
    assert sum(r["net"] for r in partial["bets"]) <= sum(abs(r["net"]) for r in partial["bets"])


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["faro", "stuss"]), deck=st.permutations(FULL_DECK), data=st.data())
def test_corrupted_deals_are_refused_at_the_corrupt_event(game, deck, data):
    # given a valid deal with one event corrupted: an unknown card, a second copy, or a card mid-turn bet
    n_cards = 51 if game == "faro" else 52
    events: list[dict] = [{"card": c} for c in deck[:n_cards]]
    at = data.draw(st.integers(1, n_cards - 1))
    kind = data.draw(st.sampled_from(["unknown", "copy", "action_for_card"]))
    if kind == "unknown":
        events[at] = {"card": data.draw(st.sampled_from(["1S", "AX", "JK", "", "11H"]))}
    elif kind == "copy":
        events[at] = {"card": deck[data.draw(st.integers(0, at - 1))]}
    else:
        events.insert(at, {"seat": 1, "action": "stand"})

    # when it is replayed / then it is refused with EngineError at that event
    with pytest.raises(EngineError) as info:
        play({"game": game, "events": events})
    assert info.value.event == at
    assert info.value.code in {"bad_card", "card_exhausted", "illegal_action"}


# -- house edge --------------------------------------------------------------------------------------


def brute_force_split_chance(soda: bool, hock: bool) -> Fraction:
    """Every placement of one rank's four cards in the pack, read by the rules directly."""
    start = 1 if soda else 0
    splits = total = 0
    for positions in combinations(range(52), 4):
        total += 1
        in_turns = sorted(p for p in positions if p >= start and (not hock or p < 51))
        if in_turns and len(in_turns) > 1 and (in_turns[0] - start) // 2 == (in_turns[1] - start) // 2:
            splits += 1
    return Fraction(splits, total)


@pytest.mark.parametrize(("soda", "hock"), [(True, True), (False, False)])
def test_split_chance_matches_brute_force_enumeration(soda, hock):
    # given every placement of a rank's four cards
    # when the closed form is compared with reading each placement
    # then they agree exactly
    assert rank_bet_probabilities(52, 4, soda=soda, hock=hock)["split"] == brute_force_split_chance(soda, hock)


def test_house_edge_figures():
    # given the default Faro and Stuss tables
    # when the house edge is computed
    faro_rows = {r.bet: r for r in FARO.house_edge({})}
    stuss_rows = {r.bet: r for r in STUSS.house_edge({})}

    # then the split is the rank bet's edge (half of it at Faro), and the calls are counted orders
    assert faro_rows["rank"].edge == Fraction(33, 833) / 2
    assert round(float(faro_rows["rank"].edge) * 100, 4) == 1.9808
    assert faro_rows["rank (coppered)"].edge == faro_rows["rank"].edge
    assert faro_rows["call_the_turn"].edge == Fraction(1, 6)  # 4 to 1 against true odds of 5 to 1 (rule book)
    assert faro_rows["cat_hop"].edge == 0
    assert stuss_rows["rank"].edge == Fraction(33, 833)
    assert "call_the_turn" not in stuss_rows


def test_house_edge_moves_with_the_config():
    # given a house taking the whole split and paying 5 to 1 on the turn, 1 to 1 on a cat-hop
    config = {"split_takes_bp": 10_000, "call_the_turn_pays": {"call_the_turn": 5, "cat_hop": 1}}

    # when the edge is computed
    rows = {r.bet: r.edge for r in FARO.house_edge(config)}

    # then it moves accordingly
    assert rows["rank"] == Fraction(33, 833)
    assert rows["call_the_turn"] == 0
    assert rows["cat_hop"] == Fraction(1, 3)


def test_registry_plays_both_games():
    assert registry.get_engine("faro") is FARO
    assert registry.get_engine("stuss") is STUSS


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["AS", "10h", "K", "7", "x", "", "loser", "b1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["id", "seat", "type"]), inner),
    max_leaves=6,
)
fuzz_events = st.lists(
    st.dictionaries(st.sampled_from(["card", "to", "bet", "seat", "action", "bet_id", "hand"]), json_values, max_size=3)
    | st.fixed_dictionaries(
        {
            "bet": st.fixed_dictionaries(
                {
                    "id": st.sampled_from(["b1", "b2"]),
                    "seat": json_values,
                    "type": st.sampled_from(["rank", "call_the_turn"]),
                    "amount": json_values,
                    "rank": json_values,
                }
            )
        }
    ),
    max_size=8,
)


@settings(max_examples=100, deadline=None)
@given(game=st.sampled_from(["faro", "stuss"]), events=fuzz_events)
def test_arbitrary_events_raise_nothing_but_engine_errors(game, events):
    # given any JSON-ish events after a valid opening
    doc = {"game": game, "bets": [rank_bet("b0", "K")], "events": [{"card": "AS"}, *events]}

    # when replayed / then the engine answers or refuses with an EngineError, never anything else
    refusal: EngineError | None = None
    try:
        out = play(doc)
    except EngineError as exc:
        refusal = exc
    if refusal is not None:
        assert refusal.code
    else:
        assert out["status"] in {"awaiting", "settled"}
