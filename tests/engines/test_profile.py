"""The game profile each engine declares, and what it says a seat may do now."""

from __future__ import annotations

import pytest

from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.profile import Bank, Family, TurnOrder
from tables.engines.registry import GAME_MODULES, get_engine

GAMES = list(GAME_MODULES)


def _ranks(engine, bet_type):
    """A bet's rank fields filled in (a rank bet's rank, a call of the turn's order), so that what is left
    at fault is the bet's type or its timing, not a missing rank."""
    values = {}
    for f in engine.describe()["bet_types"][bet_type].get("fields", []):
        ranks = [r["value"] for r in f.get("ranks") or []]
        if f["kind"] == "rank" and ranks:
            values[f["name"]] = ranks[0]
        elif f["kind"] == "ranks" and ranks:
            values[f["name"]] = ranks[: f.get("count", 3)]
    return values


def _refusal(engine, *types):
    """The field a round of lone bets of ``types`` is refused at (None: it loads)."""
    bets = [{"id": f"b{i}", "seat": i, "type": t, "amount": 1, **_ranks(engine, t)} for i, t in enumerate(types, start=1)]
    try:
        engine.load({"game": engine.name, "config": {}, "bets": bets, "events": []})
    except EngineError as exc:
        return exc.field or "bets"
    return None


@pytest.mark.parametrize("game", GAMES)
def test_the_profile_names_every_bet_type_once(game):
    engine = get_engine(game)
    profile = engine.profile
    assert sorted(profile.bet_types) == sorted(engine.bet_types)
    assert len(set(profile.bet_types)) == len(profile.bet_types)
    assert set(profile.bank_bets) <= set(profile.before_deal)
    if profile.one_per_seat is not None:
        assert set(profile.one_per_seat.types) <= set(profile.before_deal)
    assert engine.banked is (profile.family is Family.BANKED)
    assert engine.describe()["profile"] == profile.as_dict()


@pytest.mark.parametrize("game", GAMES)
def test_bets_before_the_deal_are_read_from_the_round_and_bets_during_it_are_not(game):
    # given the engine, and lone bets of each type in the round's bets
    engine = get_engine(game)
    alone = {t: _refusal(engine, t) for t in engine.bet_types}
    together = [t for t, field in alone.items() if field == "bets"]
    complete = len(together) > 1 and _refusal(engine, *together) is None
    for bet_type, field in alone.items():
        placed = field not in ("bets", "bets[0].type") or (complete and bet_type in together)
        # then the profile says it is placed before the deal exactly when the round reads it
        assert engine.profile.placed_before_deal(bet_type) is placed, bet_type


@pytest.mark.parametrize("game", [g for g in GAMES if get_engine(g).profile.one_per_seat is not None])
def test_a_seat_holds_one_bet_of_the_one_per_seat_types(game):
    engine = get_engine(game)
    one = engine.profile.one_per_seat
    config = {"ante": 1} if engine.profile.family is Family.POT else {}
    bets = [{"id": "b1", "seat": 2, "type": one.types[0], "amount": 1},
            {"id": "b2", "seat": 2, "type": one.types[0], "amount": 1}]
    with pytest.raises(EngineError) as refused:
        engine.load({"game": game, "config": config, "bets": bets, "events": []})
    assert refused.value.code == "bad_bet"
    assert refused.value.field == "bets[1].seat"
    assert refused.value.message == f"bet b2: seat 2 already has {one.holds}"


def test_the_families_decks_banks_and_turns():
    profile = {g: get_engine(g).profile for g in GAMES}
    assert {g for g, p in profile.items() if p.family is Family.POT} == {"red_dog", "in_between"}
    assert {g for g, p in profile.items() if p.bank is Bank.SEAT} == {"chemin_de_fer", "pontoon"}
    assert {g for g, p in profile.items() if p.deck is Deck.TRIANGLE} == {"carousel", "pony", "merry_go_round"}
    assert {g for g, p in profile.items() if p.turn_order is TurnOrder.BUTTON} == {"carousel", "pony", "merry_go_round"}
    assert profile["pai_gow_poker"].deck is Deck.STANDARD_JOKER
    assert profile["merry_go_round"].pools == ("count", "pony", "high_card")


def test_chemin_de_fer_the_bank_seat_places_the_bank_and_no_punto():
    # given a bank at seat 4 while betting is open
    engine = get_engine("chemin_de_fer")
    doc = {"game": "chemin_de_fer", "config": {}, "events": [],
           "bets": [{"id": "b1", "seat": 4, "type": "bank", "amount": 1000}]}
    # when the table is asked what each seat may do
    now = engine.table_now(doc, betting_open=True)
    # then seat 4 holds the bank and may not bet against it; seat 2 may punt, not bank
    assert (now.bank, now.due) == (4, "bets")
    assert now.seat(4).bets == ()
    assert now.seat(4).why == "Seat 4 holds the bank and cannot bet against it"
    assert now.seat(2).bets == ("punto",)


def test_pontoon_the_banker_seat_may_not_bet():
    engine = get_engine("pontoon")
    doc = {"game": "pontoon", "config": {"banker_seat": 3}, "bets": [], "events": []}
    now = engine.table_now(doc, betting_open=True)
    assert now.bank == 3
    assert now.seat(3).why == "Seat 3 holds the bank and cannot bet against it"
    assert now.seat(1).bets == ("bet",)


def test_a_seat_with_its_ante_may_not_ante_again():
    engine = get_engine("caribbean_stud")
    doc = {"game": "caribbean_stud", "config": {}, "events": [],
           "bets": [{"id": "b1", "seat": 1, "type": "ante", "amount": 100}]}
    now = engine.table_now(doc, betting_open=True)
    assert now.seat(1).bets == ()
    assert now.seat(1).why == "Seat 1 already has an ante"
    assert now.seat(2).bets == ("ante",)


def test_blackjack_the_seat_due_to_act_and_the_others():
    # given a dealt blackjack round waiting on seat 1's choice
    engine = get_engine("blackjack")
    doc = {"game": "blackjack", "config": {"decks": 6}, "events": [
        {"card": "9S"}, {"card": "5D"}, {"card": "7H"}, {"card": "2C"}, {"card": "8D"}],
        "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 100},
                 {"id": "b2", "seat": 2, "type": "bet", "amount": 100}]}
    now = engine.table_now(doc, betting_open=False)
    # then seat 1 may act, seat 2 waits for it
    assert (now.turn, now.due) == (1, "action")
    assert {"stand", "hit"} <= set(now.seat(1).actions)
    assert now.seat(2).actions == ()
    assert now.seat(2).why == "Seat 1 is to act now"


def test_carousel_count_bets_go_in_order_from_the_button():
    # given a carousel game whose foundations are dealt and seat 5 has bet (button at seat 3)
    engine = get_engine("carousel")
    cards = ["1", "2", "3", "4", "5", "6"]
    doc = {"game": "carousel", "config": {"button": 3, "limit": 100}, "bets": [],
           "events": [{"card": c} for c in cards]}
    result = engine.result(doc)
    assert result.next is not None
    assert result.next.input is not None
    entry = result.next.input.bets_open[0]
    doc["events"].append({"bet": {**entry["event"]["bet"], "seat": 5, "amount": 100, "number": 6}})
    now = engine.table_now(doc, betting_open=False)
    # then seat 4 (between the button and seat 5) may not bet now, seat 7 may
    assert now.button == 3
    assert now.seat(4).bets == ()
    assert now.seat(4).why == "Seat 4 bets before seat 5: the button is at seat 3"
    assert now.seat(5).bets == ()
    assert now.seat(7).bets == ("count",)

