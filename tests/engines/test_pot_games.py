"""Red Dog and In-Between: the rule book's rules cell by cell, the pot, re-antes, rake, refusals, properties."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.errors import EngineError
from tables.engines.pot_games import IN_BETWEEN, RED_DOG, simulate_rake, win_probability
from tests.engines.helpers import refusal_of, table_config, without_input

FULL_DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def antes(*seats: int, amount: int = 1) -> list[dict]:
    return [{"id": f"a{s}", "seat": s, "type": "ante", "amount": amount} for s in seats]


def bet(bet_id: str, seat: int, amount: int, bet_type: str = "pot_bet") -> dict:
    return {"bet": {"id": bet_id, "seat": seat, "type": bet_type, "amount": amount}}


def cards(*texts: str) -> list[dict]:
    return [{"card": t} for t in texts]


def play(game: str, events: list[dict], bets: list[dict] | None = None, **config: Any) -> dict:
    return registry.play(
        {"game": game, "config": config, "bets": antes(1, 2) if bets is None else bets, "events": events}
    )


def refused(game: str, events: list[dict], bets: list[dict] | None = None, **config: Any) -> EngineError:
    return refusal_of(play, game, events, bets, **config)


def row(out: dict, bet_id: str) -> dict:
    (found,) = [r for r in out["bets"] if r["id"] == bet_id]
    return found


def assert_pool_balances(out: dict) -> None:
    pool = out["pool"]
    assert pool["carry_in"] + pool["stakes"] == pool["paid"] + pool["rake"] + pool["carry_out"]
    assert pool["carry_out"] >= 0
    # every chip a player staked or took back is in a bet row
    assert sum(r["net"] for r in out["bets"]) + pool["rake"] + pool["carry_out"] - pool["carry_in"] == 0


# -- In-Between: every cell ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ends", "middle", "result", "reason", "net"),
    [
        (("3S", "QH"), "9D", "win", "between", 5),
        (("QH", "3S"), "9D", "win", "between", 5),  # the ends in either order
        (("3S", "QH"), "KD", "lose", "outside", -5),
        (("3S", "QH"), "2D", "lose", "outside", -5),
        (("3S", "QH"), "3D", "lose", "post", -5),  # the same rank as an end loses (single, per the rule book)
        (("3S", "QH"), "QD", "lose", "post", -5),
        (("AS", "2H"), "KD", "win", "between", 5),  # acey-deucey: ace is high
        (("AS", "2H"), "3D", "win", "between", 5),
        (("AS", "2H"), "AD", "lose", "post", -5),
        (("AS", "2H"), "2D", "lose", "post", -5),
        (("TS", "KH"), "AD", "lose", "outside", -5),
        (("TS", "QH"), "JD", "win", "between", 5),
    ],
)
def test_in_between_third_card(ends, middle, result, reason, net):
    # given a pot of 12 and seat 1 betting 5 on the ends
    events = [*cards(*ends), bet("b", 1, 5), *cards(middle)]

    # when the middle card is turned
    out = play("in_between", events, carry_in=10)

    # then the bet is settled by where it falls
    got = row(out, "b")
    assert (got["result"], got["reason"], got["net"]) == (result, reason, net)
    assert got["ends"] == list(ends)
    assert got["middle"] == middle
    assert out["pot"] == 12 - net
    assert out["next"]["seat"] == 2
    assert_pool_balances(out)


@pytest.mark.parametrize("ends", [("7S", "8H"), ("8H", "7S"), ("KS", "AH"), ("2S", "3H")])
def test_in_between_consecutive_ends_lose_at_once(ends):
    # given consecutive ends
    events = [*cards(*ends), bet("b", 1, 3)]

    # when seat 1 bets
    out = play("in_between", events, carry_in=10)

    # then the bet is lost with no third card and seat 2's turn begins
    assert (row(out, "b")["result"], row(out, "b")["reason"], row(out, "b")["net"]) == ("lose", "consecutive", -3)
    assert out["next"]["to"] == "end"
    assert out["next"]["seat"] == 2
    assert out["hands"]["seat:1"]["middle"] is None
    assert out["pot"] == 15


def test_in_between_consecutive_ends_say_so_before_the_bet():
    # given consecutive ends
    out = play("in_between", cards("7S", "8H"), carry_in=10)

    # then the dealer screen warns the bet loses at once
    assert out["next"]["say"] == "Seat 1: 7S and 8H, consecutive, the bet loses at once. Bet 1 to 12"
    assert (out["next"]["allowed"], out["next"]["min_amount"], out["next"]["max_amount"]) == (["pot_bet"], 1, 12)


@pytest.mark.parametrize(
    ("pair_pays", "pot", "net", "result"), [(2, 12, 2, "win"), (3, 12, 3, "win"), (0, 12, 0, "push")]
)
def test_in_between_equal_ends_pay_the_pair_and_return_the_bet(pair_pays, pot, net, result):
    # given equal ends
    events = [*cards("9S", "9H"), bet("b", 1, 4)]

    # when seat 1 bets
    out = play("in_between", events, carry_in=pot - 2, pair_pays=pair_pays)

    # then the bet comes back, the pot pays the pair (2 chips; option 3), no third card
    assert (row(out, "b")["result"], row(out, "b")["reason"], row(out, "b")["net"]) == (result, "pair", net)
    assert out["pot"] == pot - net
    assert out["next"]["seat"] == 2
    assert_pool_balances(out)


def test_in_between_pair_is_announced_before_the_bet():
    # given equal ends and a pot of 4
    # when the ends are turned
    out = play("in_between", cards("6S", "6H"), carry_in=2)

    # then the dealer screen says what the pair pays
    assert out["next"]["say"] == "Seat 1: 6S and 6H, a pair of sixes pays 2, the bet comes back. Bet 1 to 4"


def test_in_between_pair_pays_no_more_than_the_pot():
    # given a pot of 2 and a pair paying 3
    events = [*cards("9S", "9H"), bet("b", 1, 1)]

    # when seat 1 bets on the pair
    out = play("in_between", events, pair_pays=3)

    # then the pot pays what it holds, and is re-anted
    assert row(out, "b")["net"] == 2
    assert out["pot"] == 0
    assert out["next"]["pot_empty"] is True


def test_in_between_whole_deal_settles_with_the_pot_carrying():
    # given three players and a pot carried in
    events = [
        *cards("3S", "QH"),
        bet("b1", 1, 4),
        *cards("9D"),
        *cards("7S", "8H"),
        bet("b2", 2, 1),
        *cards("2C", "AC"),
        bet("b3", 3, 9),
        *cards("2D"),
    ]

    # when the deal is played out
    out = play("in_between", events, antes(1, 2, 3), carry_in=10)

    # then each seat's net, the pot carried out and the pool balance
    assert out["status"] == "settled"
    assert out["outcome"] == {"pot": 19, "re_antes": 0, "seat_net": {"1": 3, "2": -2, "3": -10}}
    assert out["pool"] == {"carry_in": 10, "stakes": 17, "paid": 8, "rake": 0, "carry_out": 19}
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}
    assert out["say"] == "Deal complete: the pot carries 19"
    assert [r["result"] for r in out["bets"]] == ["anted", "anted", "anted", "win", "lose", "lose"]
    assert_pool_balances(out)


# -- the pot's limits and re-antes -----------------------------------------------------------------


def test_a_bet_over_the_pot_is_refused_naming_the_event():
    # given a pot of 2
    events = [*cards("3S", "QH"), bet("b", 1, 3)]

    # when seat 1 bets 3 / then it is refused at its event
    err = refused("in_between", events)
    assert (err.code, err.event) == ("over_pot", 2)


@pytest.mark.parametrize(
    ("config", "amount", "code"),
    [({"max_bet": 5}, 6, "over_table_max"), ({"min_bet": 3}, 2, "under_table_min"), ({}, 0, "bad_amount")],
)
def test_table_limits_on_pot_bets(config, amount, code):
    # given a pot of 12 and table limits
    events = [*cards("3S", "QH"), bet("b", 1, amount)]

    # when the bet breaks a limit / then it is refused at its event
    err = refused("in_between", events, carry_in=10, **config)
    assert (err.code, err.event) == (code, 2)


def test_the_minimum_falls_to_the_pot_when_the_pot_is_smaller():
    # given a table minimum of 5 and a pot of 2
    out = play("in_between", cards("3S", "QH"), min_bet=5)

    # then the whole pot is the only bet allowed
    assert (out["next"]["min_amount"], out["next"]["max_amount"]) == (2, 2)


def test_an_emptied_pot_is_re_anted_by_every_player_in_seat_order():
    # given seat 1 bets the whole pot and wins
    events = [*cards("3S", "QH"), bet("b", 1, 3), *cards("9D")]

    # when the bet is settled
    out = play("in_between", events, antes(1, 2, 4))

    # then the engine reports the empty pot and asks each player to ante again
    assert out["pot"] == 0
    assert without_input(out["next"]) == {
        "expect": "action",
        "seat": 1,
        "allowed": ["ante"],
        "say": "Pot is empty: seat 1 antes 1",
        "pot_empty": True,
        "amount": 1,
        "pot": 0,
    }
    events += [bet("r1", 1, 1, "ante"), bet("r2", 2, 1, "ante")]
    out = play("in_between", events, antes(1, 2, 4))
    assert out["next"]["seat"] == 4
    assert out["next"]["allowed"] == ["ante"]
    events += [bet("r4", 4, 1, "ante")]
    out = play("in_between", events, antes(1, 2, 4))
    assert out["next"]["to"] == "end"
    assert out["next"]["seat"] == 2
    assert out["pot"] == 3
    assert row(out, "r4")["result"] == "anted"
    assert row(out, "r4")["reante"] is True
    assert_pool_balances(out)


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ([bet("r1", 2, 1, "ante")], "out_of_turn"),  # seat 1 antes first
        ([bet("r1", 1, 2, "ante")], "bad_amount"),
        ([bet("r1", 1, 1)], "out_of_turn"),  # a pot bet while an ante is due
        (cards("2C"), "out_of_turn"),  # a card while an ante is due
    ],
)
def test_re_ante_refusals(extra, code):
    # given an emptied pot
    events = [*cards("3S", "QH"), bet("b", 1, 2), *cards("9D"), *extra]

    # when the wrong thing comes next / then it is refused at its event
    err = refused("in_between", events)
    assert (err.code, err.event) == (code, 4)


def test_the_last_player_emptying_the_pot_ends_the_deal_without_a_re_ante():
    # given seat 2 (the last) wins the whole pot
    events = [*cards("7S", "8H"), bet("b1", 1, 1), *cards("3S", "QH"), bet("b2", 2, 3), *cards("9D")]

    # when the deal ends
    out = play("in_between", events)

    # then the pot carries out empty; the next deal's antes restore it
    assert out["status"] == "settled"
    assert out["pool"]["carry_out"] == 0
    assert out["outcome"]["re_antes"] == 0
    assert_pool_balances(out)


# -- rake ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rounding", "rake"), [("down", 1), ("up", 2), ("half_up", 2), ("half_even", 2)])
def test_rake_on_each_win_with_its_rounding(rounding, rake):
    # given a 10 % rake on wins and a winning bet of 15
    events = [*cards("3S", "QH"), bet("b", 1, 15), *cards("9D")]

    # when it wins
    out = play("in_between", events, carry_in=20, rake_bp=1000, rake_rounding=rounding)

    # then the house takes its rake from the win
    assert (row(out, "b")["net"], row(out, "b")["rake"], row(out, "b")["commission"]) == (15 - rake, rake, 0)
    assert out["pool"]["rake"] == rake
    assert out["pot"] == 7
    assert_pool_balances(out)


def test_rake_on_the_pot_at_the_end_of_the_deal():
    # given a 10 % rake of the pot
    events = [*cards("3S", "QH"), bet("b1", 1, 5), *cards("2D"), *cards("7S", "8H"), bet("b2", 2, 1)]

    # when the deal ends with 28 in the pot
    out = play("in_between", events, carry_in=20, rake_bp=1000, rake_on="pot")

    # then the house takes 2 and 26 carries
    assert row(out, "b1")["rake"] == 0
    assert out["pool"] == {"carry_in": 20, "stakes": 8, "paid": 0, "rake": 2, "carry_out": 26}
    assert out["house"] == {"net": 2, "commission": 0, "rake": 2}
    assert_pool_balances(out)


# -- Red Dog -------------------------------------------------------------------------------------------

HAND1 = ["KH", "2S", "5D", "9C", "JS"]
HAND2 = ["AS", "3H", "4D", "6C", "7S"]


def red_dog_deal(hand1: list[str] = HAND1, hand2: list[str] = HAND2) -> list[dict]:
    return cards(*[c for pair in zip(hand1, hand2) for c in pair])


@pytest.mark.parametrize(
    ("turned", "result", "beaten_by", "net"),
    [
        ("9H", "win", "KH", 2),  # a higher heart
        ("TS", "win", "JS", 2),  # the lowest card that beats is shown
        ("AH", "lose", None, -2),  # nothing beats an ace
        ("KD", "lose", None, -2),  # a higher card of another suit does not count
        ("TC", "lose", None, -2),  # the club in hand is lower
        ("3S", "win", "JS", 2),
    ],
)
def test_red_dog_a_card_of_the_same_suit_and_higher_rank_wins(turned, result, beaten_by, net):
    # given two five-card hands and a pot of 12
    events = [*red_dog_deal(), bet("b", 1, 2), *cards(turned)]

    # when seat 1 bets 2 and a card is turned
    out = play("red_dog", events, carry_in=10)

    # then it wins with a higher card of the suit, else loses
    got = row(out, "b")
    assert (got["result"], got["beaten_by"], got["turned"], got["net"]) == (result, beaten_by, turned, net)
    assert out["pot"] == 12 - net
    assert_pool_balances(out)


def test_red_dog_deals_one_card_at_a_time_in_seat_order():
    # given three players
    # when two cards are dealt
    out = play("red_dog", cards("KH", "2S"), antes(2, 5, 7))

    # then the third goes to seat 7, and the hands show the cards
    assert without_input(out["next"]) == {"expect": "card", "to": "seat:7", "say": "Deal card 1 of 5 to seat 7", "seat": 7, "pot": 3}
    assert out["hands"]["seat:2"] == {"cards": ["KH"], "turned": None}
    err = refused("red_dog", [*cards("KH", "2S"), {"card": "3S", "to": "seat:2"}], antes(2, 5, 7))
    assert (err.code, err.event) == ("out_of_turn", 2)


def test_red_dog_forfeit_and_the_betting_prompt():
    # given the hands dealt
    out = play("red_dog", red_dog_deal(), carry_in=4)

    # then seat 1 may bet up to the pot or forfeit one chip
    assert out["next"]["say"] == "Seat 1: bet 1 to 6 against the pot, or pass and forfeit 1"
    assert out["next"]["allowed"] == ["pot_bet", "forfeit"]
    assert out["next"]["forfeit"] == 1

    # when seat 1 forfeits
    out = play("red_dog", [*red_dog_deal(), bet("f", 1, 1, "forfeit")], carry_in=4)

    # then the chip goes to the pot and seat 2 bets with no card turned
    assert (row(out, "f")["result"], row(out, "f")["net"]) == ("forfeit", -1)
    assert out["pot"] == 7
    assert out["next"]["seat"] == 2
    assert out["next"]["expect"] == "action"
    err = refused("red_dog", [*red_dog_deal(), bet("f", 1, 2, "forfeit")])
    assert (err.code, err.event) == ("bad_amount", 10)


def test_red_dog_whole_deal_with_a_re_ante():
    # given seat 1 bets the pot and wins, everyone re-antes, seat 2 loses
    events = [
        *red_dog_deal(),
        bet("b1", 1, 2),
        *cards("9H"),
        bet("r1", 1, 1, "ante"),
        bet("r2", 2, 1, "ante"),
        bet("b2", 2, 2),
        *cards("8H"),
    ]

    # when the deal ends
    out = play("red_dog", events)

    # then the seat results and the pool balance
    assert out["status"] == "settled"
    assert out["outcome"] == {"pot": 0 + 2 + 2, "re_antes": 1, "seat_net": {"1": 0, "2": -4}}
    assert row(out, "b2")["beaten_by"] is None
    assert out["hands"]["seat:2"] == {"cards": HAND2, "turned": "8H"}
    assert_pool_balances(out)


@pytest.mark.parametrize(("hand_size", "players", "ok"), [(5, 8, True), (5, 9, False), (4, 10, True), (4, 11, False)])
def test_red_dog_hand_size_bounds_the_table(hand_size, players, ok):
    # given a table of players with five-card (or four-card) hands
    bets = antes(*range(1, players + 1))

    # when the deal opens / then the pack must hold every hand and a turned card each
    if ok:
        assert play("red_dog", [], bets, hand_size=hand_size)["next"]["to"] == "seat:1"
    else:
        assert refused("red_dog", [], bets, hand_size=hand_size).code == "bad_bet"


def test_red_dog_over_the_pot_and_a_card_before_the_bet_are_refused():
    # given the hands dealt and a pot of 2
    # when seat 1 bets 3, or a card is turned before any bet / then both are refused at their event
    assert (refused("red_dog", [*red_dog_deal(), bet("b", 1, 3)]).code,) == ("over_pot",)
    err = refused("red_dog", [*red_dog_deal(), *cards("9H")])
    assert (err.code, err.event) == ("out_of_turn", 10)


# -- refusals common to both ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bets", "code", "field"),
    [
        (antes(1), "bad_bet", "bets"),  # one player
        (antes(*range(1, 12)), "bad_bet", "bets"),
        ([*antes(1, 2), {"id": "a3", "seat": 2, "type": "ante", "amount": 1}], "bad_bet", "bets[2].seat"),
        (antes(1, 2, amount=2), "bad_amount", "bets[0].amount"),
        ([*antes(1, 2), {"id": "p", "seat": 1, "type": "pot_bet", "amount": 1}], "bad_bet", "bets[2].type"),
        ([*antes(1, 2), {"id": "p", "seat": 1, "type": "forfeit", "amount": 1}], "bad_bet_type", "bets[2].type"),
    ],
)
def test_in_between_opening_bets_are_antes_only(bets, code, field):
    # given bad opening bets / when the deal opens / then it is refused with the field at fault
    err = refused("in_between", [], bets)
    assert (err.code, err.event, err.field) == (code, None, field)


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        (cards("3S", "QX"), "bad_card", 1),
        (cards("3S", "3S"), "card_exhausted", 1),
        ([*cards("3S", "QH"), *cards("9D")], "out_of_turn", 2),  # a card where a bet is due
        ([bet("b", 1, 1)], "out_of_turn", 0),  # a bet where a card is due
        ([*cards("3S", "QH"), bet("b", 2, 1)], "out_of_turn", 2),  # another seat's turn
        ([{"card": "3S", "to": "middle"}], "out_of_turn", 0),
        ([{"card": "3S", "to": "dealer"}], "bad_event", 0),
        ([{"card": "3S", "face": "up"}], "bad_event", 0),
        ([{"seat": 1, "action": "pass"}], "bad_event", 0),
        ([{"bet": {"id": "b", "seat": 1, "type": "pot_bet", "amount": 1}, "card": "3S"}], "bad_event", 0),
        ([*cards("3S", "QH"), bet("a1", 1, 1)], "duplicate_bet", 2),
        ([*cards("3S", "QH"), {"bet": "x"}], "bad_bet", 2),
        (
            [*cards("7S", "8H"), bet("b1", 1, 1), *cards("3S", "QH"), bet("b2", 2, 1), *cards("9D"), *cards("2C")],
            "out_of_turn",
            7,
        ),
    ],
)
def test_in_between_bad_events_are_refused_naming_the_event(events, code, event):
    err = refused("in_between", events)
    assert (err.code, err.event) == (code, event)


def test_both_games_are_in_the_registry():
    assert registry.get_engine("red_dog") is RED_DOG
    assert registry.get_engine("in_between") is IN_BETWEEN
    assert RED_DOG.banked is False
    assert IN_BETWEEN.banked is False


# -- properties ----------------------------------------------------------------------------------------


def drive(game: str, config: dict, players: list[int], deck: list[str], data: st.DataObject) -> tuple[dict, list]:
    """Play a deal to the end following ``next``, drawing random legal bets; check the pot at each step."""
    doc: dict[str, Any] = {
        "game": game,
        "config": config,
        "bets": antes(*players, amount=config.get("ante", 1)),
        "events": [],
    }
    cards_left = list(deck)
    counter = 0
    while True:
        out = registry.play(doc)
        assert out["pot"] >= 0
        assert_pool_balances(out)
        if out["status"] == "settled":
            return out, doc["events"]
        step = out["next"]
        counter += 1
        if step["expect"] == "card":
            doc["events"].append({"card": cards_left.pop(0)})
        elif step["allowed"] == ["ante"]:
            doc["events"].append(bet(f"r{counter}", step["seat"], step["amount"], "ante"))
        elif "forfeit" in step["allowed"] and data.draw(st.integers(0, 4)) == 0:
            doc["events"].append(bet(f"f{counter}", step["seat"], step["forfeit"], "forfeit"))
        else:
            amount = data.draw(st.integers(step["min_amount"], step["max_amount"]))
            assert 1 <= amount <= step["pot"]
            doc["events"].append(bet(f"b{counter}", step["seat"], amount))


configs = st.fixed_dictionaries(
    {
        "carry_in": st.integers(0, 30),
        "ante": st.integers(1, 3),
        "rake_bp": st.sampled_from([0, 250, 1000]),
        "rake_on": st.sampled_from(["win", "pot"]),
        "rake_rounding": st.sampled_from(["down", "up", "half_up", "half_even"]),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(["in_between", "red_dog"]),
    config=configs,
    n=st.integers(2, 8),
    deck=st.permutations(FULL_DECK),
    data=st.data(),
)
def test_random_deals_keep_the_pot_whole(game, config, n, deck, data):
    # given random players, pots, rakes, shuffles and legal bets
    players = sorted(data.draw(st.sets(st.integers(1, 12), min_size=n, max_size=n)))

    # when a deal is played to the end
    out, events = drive(game, config, players, deck, data)

    # then the pot never goes negative, chips are conserved and every bet has one row
    assert out["status"] == "settled"
    assert_pool_balances(out)
    staked = [e["bet"]["id"] for e in events if "bet" in e]
    assert [r["id"] for r in out["bets"]] == [f"a{s}" for s in players] + staked
    assert out["house"]["net"] == out["pool"]["rake"]
    assert sum(out["outcome"]["seat_net"].values()) == sum(r["net"] for r in out["bets"])


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["in_between", "red_dog"]), deck=st.permutations(FULL_DECK), data=st.data())
def test_corrupted_deals_are_refused_at_the_corrupt_event(game, deck, data):
    # given a valid deal
    _, events = drive(game, {"carry_in": 5}, [1, 2, 3], deck, data)
    card_at = [i for i, e in enumerate(events) if "card" in e]
    at = data.draw(st.sampled_from(card_at[1:]))
    kind = data.draw(st.sampled_from(["unknown", "copy", "card_for_bet"]))
    corrupt = list(events)
    if kind == "unknown":
        corrupt[at] = {"card": data.draw(st.sampled_from(["1S", "AX", "JK", "", "11H"]))}
    elif kind == "copy":
        corrupt[at] = dict(events[data.draw(st.sampled_from(card_at[: card_at.index(at)]))])
    else:
        bet_at = [i for i, e in enumerate(events) if "bet" in e]
        at = data.draw(st.sampled_from(bet_at))
        corrupt[at] = {"card": "JK"}

    # when replayed / then refused with EngineError at that event
    with pytest.raises(EngineError) as info:
        registry.play({"game": game, "config": {"carry_in": 5}, "bets": antes(1, 2, 3), "events": corrupt})
    assert info.value.event == at
    assert info.value.code in {"bad_card", "card_exhausted", "out_of_turn"}


# -- figures --------------------------------------------------------------------------------------------


def test_in_between_edges_by_spread_are_exact():
    # given the default table
    rows = {r.bet: r for r in IN_BETWEEN.house_edge({})}

    # then each spread's edge is 1 - 2p with p = 4·gap/50, and the pair pays the bettor 2 per ante
    assert rows["pot_bet (gap 0)"].edge == 1
    assert rows["pot_bet (gap 6)"].edge == Fraction(1, 25)  # 24/50 to win: still against the bettor
    assert rows["pot_bet (gap 7)"].edge == Fraction(-3, 25)  # 28/50: the first spread in the bettor's favour
    assert rows["pot_bet (gap 11)"].edge == Fraction(-19, 25)  # acey-deucey
    assert rows["pot_bet (pair)"].edge == -2
    assert rows["pot_bet"].edge == Fraction(346, 1275)
    assert rows["rake (house)"].edge == 0


def test_in_between_overall_edge_matches_brute_force_and_moves_with_the_pair():
    # given every ordered pair of ends and every middle card, one ante staked each time
    total = Fraction(0)
    ranks = [c[0] for c in FULL_DECK]
    order = "23456789TJQKA"
    for i in range(52):
        for j in range(52):
            if i == j:
                continue
            lo, hi = sorted((order.index(ranks[i]), order.index(ranks[j])))
            if lo == hi:
                total += 2 * 50
            elif hi - lo == 1:
                total -= 50
            else:
                for k in range(52):
                    if k not in (i, j):
                        total += 1 if lo < order.index(ranks[k]) < hi else -1
    expected = -total / (52 * 51 * 50)

    # when the engine computes it / then the figures agree, and a 3-chip pair moves it
    assert {r.bet: r.edge for r in IN_BETWEEN.house_edge({})}["pot_bet"] == expected
    assert {r.bet: r.edge for r in IN_BETWEEN.house_edge({"pair_pays": 3})}["pot_bet"] == expected - Fraction(3, 51)


@pytest.mark.parametrize("hand_size", [2, 3])
def test_red_dog_win_chance_matches_brute_force(hand_size):
    # given every hand of a small size against every other card
    pack = [("23456789TJQKA".index(c[0]), c[1]) for c in FULL_DECK]
    wins = total = 0
    for hand in combinations(range(52), hand_size):
        held = [pack[i] for i in hand]
        for k, (rank, suit) in enumerate(pack):
            if k in hand:
                continue
            total += 1
            wins += any(s == suit and r > rank for r, s in held)

    # when the closed form is computed / then it agrees exactly
    assert win_probability(hand_size) == Fraction(wins, total)


def test_red_dog_figures_and_the_rake_simulation():
    # given the default table and one with a 5 % rake on wins
    rows = {r.bet: r for r in RED_DOG.house_edge({})}
    raked = simulate_rake(RED_DOG, RED_DOG.resolve_config({"rake_bp": 500}), seed=7, deals=1500)

    # then the pot's edge over a blind bettor is exact, the rake is zero unless set, and simulated when set
    assert rows["pot_bet"].edge == 1 - 2 * win_probability(5)
    assert round(float(win_probability(5)), 4) == 0.4402
    assert rows["forfeit"].edge == 1
    assert rows["rake (house)"].edge == 0
    assert rows["rake (house)"].method.startswith("exact")
    low, high = raked.ci95
    assert 0 < low < float(raked.edge) < high < 0.05  # at most the 5 % rate, as wins are only part of the stakes
    assert raked.method.startswith("simulation: 1500 deals")


def test_the_rake_simulation_is_seeded_and_moves_with_the_rate():
    # given the same seed twice, and a doubled rate
    cfg5, cfg10 = (IN_BETWEEN.resolve_config({"rake_bp": bp}) for bp in (500, 1000))

    # when simulated
    first, again = (simulate_rake(IN_BETWEEN, cfg5, seed=3, deals=800) for _ in range(2))
    doubled = simulate_rake(IN_BETWEEN, cfg10, seed=3, deals=800)

    # then the figures repeat exactly, and the take grows with the rate
    assert first == again
    assert doubled.edge > first.edge


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["AS", "10h", "QH", "x", "", "end", "seat:1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["id", "seat", "type"]), inner),
    max_leaves=6,
)
fuzz_events = st.lists(
    st.dictionaries(st.sampled_from(["card", "to", "bet", "seat", "action"]), json_values, max_size=3)
    | st.fixed_dictionaries(
        {
            "bet": st.fixed_dictionaries(
                {
                    "id": st.sampled_from(["b1", "b2"]),
                    "seat": json_values,
                    "type": st.sampled_from(["ante", "pot_bet", "forfeit"]),
                    "amount": json_values,
                }
            )
        }
    ),
    max_size=8,
)


@settings(max_examples=100, deadline=None)
@given(game=st.sampled_from(["in_between", "red_dog"]), events=fuzz_events)
def test_arbitrary_events_raise_nothing_but_engine_errors(game, events):
    # given any JSON-ish events after a valid opening
    # when replayed / then the engine answers or refuses with an EngineError, never anything else
    refusal: EngineError | None = None
    try:
        out = play(game, [*cards("3S", "QH"), *events], carry_in=3)
    except EngineError as exc:
        refusal = exc
    if refusal is not None:
        assert refusal.code
    else:
        assert out["pot"] >= 0


@pytest.mark.parametrize("game", ["in_between", "red_dog", "carousel", "pony", "calcutta_horse_race"])
def test_every_row_of_a_pot_or_pool_game_says_what_the_dealer_hands_over(game):
    # given whole rounds of the game, seeded
    import random

    from tables.engines.registry import get_engine
    from tables.simulation.autoplay import play_round

    engine = get_engine(game)
    config = engine.resolve_config(table_config(game))
    outs = [engine.play(engine.load(play_round(engine, config, random.Random(seed), seats=6))).to_json()
            for seed in range(8)]
    # then each bet says the chips moved: taken when placed, paid out or taken in when decided, and these
    # add up to the bettor's net
    rows = [row for out in outs for row in out["bets"]]
    assert rows
    assert {r["result"] for r in rows} >= {"win", "lose"}
    for row in rows:
        moved = row["handover"]
        assert min(moved["at_bet"], moved["pay"], moved["take"]) >= 0
        assert moved["pay"] - moved["take"] - moved["at_bet"] == row["net"], row
