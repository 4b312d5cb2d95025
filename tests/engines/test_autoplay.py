"""Autoplay: a believable round of every game, to the end, with no database.

Thirty seeded rounds in a row of every game at a table with limits, each round starting with what
the previous one handed on (as the service carries it: pots, pools, the button, the players still
in, the bank), every bet within the limits, and the people at the table choosing as their game's
behaviour says (basic strategy, the house way, raise with a pair…).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tables.engines.base import awaiting
from tables.engines.registry import available_games, get_engine
from tables.simulation import autoplay as ap
from tables.simulation.autoplay import AutoplayStuck, SimulatedTable, autoplay, behaviour_for, card_pool, play_round
from tests.engines.helpers import CONFIGS, LIMITS

ROUNDS = 30


def carried(engine: Any, out: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the service carries into the next round (the engine's ``carry_over``): config and first events."""
    config, players = engine.carry_over(out)
    return config, [{"players": players}] if players else []


def all_bets(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [*doc["bets"], *(e["bet"] for e in doc["events"] if isinstance(e.get("bet"), dict))]


class CountingEngine:
    """An engine that counts how often it is asked to play: autoplay should ask about once per event."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.plays = engine, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def play(self, rnd: Any) -> Any:
        self.plays += 1
        return self.engine.play(rnd)


@pytest.mark.parametrize("game", available_games())
def test_thirty_rounds_in_a_row_of_every_game_play_to_the_end(game):
    # given a table of the game with limits, and a seeded table of players
    engine = get_engine(game)
    config = {**LIMITS, **CONFIGS.get(game, {})}
    rng = random.Random(f"autoplay:{game}")
    first_events: list[dict[str, Any]] = []
    rows = Counter()
    counting = CountingEngine(engine)
    events = 0
    for _ in range(ROUNDS):
        # when a round is played, starting from what the last one handed on
        doc = play_round(counting, config, rng, events=first_events)  # type: ignore[arg-type]
        out = engine.play(engine.load(doc)).to_json()
        # then it is settled, every bet within the table's limits, and the carry flows on
        assert out["status"] == "settled"
        resolved = engine.resolve_config(doc["config"])
        for bet in all_bets(doc):
            if engine.bet_types[bet["type"]].limits_apply:
                # a pot bet may be the whole pot when the pot is under the table minimum
                low = 1 if bet["type"] == "pot_bet" else resolved["min_bet"]
                assert low <= bet["amount"] <= resolved["max_bet"], bet
        rows.update(r["type"] for r in out["bets"])
        events += len(doc["events"])
        more, first_events = carried(engine, out)
        config = {**config, **more}
    # the players bet in the rounds (every bet type of the game is seen, bar the rare ones)
    assert sum(rows.values()) >= ROUNDS, rows
    assert counting.plays <= 1.1 * events + 2 * ROUNDS  # about one replay per event: no trial and error


def test_the_same_seed_plays_the_same_round():
    engine = get_engine("pony")
    config = {**LIMITS, **CONFIGS["pony"]}
    assert play_round(engine, config, random.Random(9)) == play_round(engine, config, random.Random(9))


def test_without_bettors_autoplay_places_only_the_bets_it_is_given():
    # given no bets, at games whose bets between stages are optional
    for game in ("carousel", "faro", "horse_race"):
        engine = get_engine(game)
        # when
        doc = autoplay(engine, LIMITS, [], random.Random(1))
        # then
        assert all_bets(doc) == []
        assert engine.play(engine.load(doc)).to_json()["status"] == "settled"


def test_the_horse_games_shoe_holds_no_ace_and_the_triangle_deck_55_cards():
    assert len(card_pool("horse_race", {})) == 48
    assert not any(c.startswith("A") for c in card_pool("calcutta_horse_race", {}))
    assert len(card_pool("carousel", {})) == 55
    assert len(card_pool("pai_gow_poker", {})) == 53
    assert len(card_pool("baccarat", {"decks": 8})) == 416


def test_a_game_autoplay_cannot_answer_is_reported():
    class Odd:
        name = "odd"
        settings = ()
        bet_types: dict[str, Any] = {}

        def resolve_config(self, config: Any) -> dict[str, Any]:
            return {}

        def load(self, doc: Any) -> Any:
            return doc

        def play(self, rnd: Any) -> Any:
            return awaiting({"expect": "prayer"})

    with pytest.raises(AutoplayStuck, match="cannot supply 'prayer'"):
        autoplay(Odd(), {}, [], random.Random(1))  # type: ignore[arg-type]


# -- the behaviours ---------------------------------------------------------------------------------


def table(game: str, **config: Any) -> SimulatedTable:
    return SimulatedTable(
        game, get_engine(game).resolve_config({**LIMITS, **CONFIGS.get(game, {}), **config}), 7, random.Random(1)
    )


def seat_hand(cards: list[str], **more: Any) -> dict[str, Any]:
    return {"seat": 1, "hand": 0, "cards": cards, **more}


@pytest.mark.parametrize(
    ("cards", "up", "allowed", "action"),
    [
        (["TS", "6H"], "TD", ["hit", "stand"], "hit"),  # 16 against a ten
        (["TS", "7H"], "TD", ["hit", "stand"], "stand"),  # hard 17 stands
        (["5S", "6H"], "6D", ["hit", "stand", "double"], "double"),  # 11 doubles
        (["8S", "8H"], "TD", ["hit", "stand", "split"], "split"),  # eights split
        (["AS", "6H"], "9D", ["hit", "stand"], "hit"),  # soft 17 hits against a nine
    ],
)
def test_blackjack_players_play_basic_strategy(cards, up, allowed, action):
    out = {"hands": {"dealer": {"cards": [up]}, "seat:1": seat_hand(cards)}}
    step = {"expect": "action", "seat": 1, "allowed": allowed, "hand": 0}
    assert ap.blackjack_choice(table("blackjack"), step, out) == {"seat": 1, "action": action, "hand": 0}


def test_the_blackjack_peek_sets_the_hole_card_aside_and_answers_from_it():
    t = table("blackjack")
    t.shoe.append("KC")  # the top of the shoe
    out = {"hands": {"dealer": {"cards": ["AD"]}}}
    answer = ap.blackjack_choice(t, {"expect": "action", "seat": None, "allowed": ["peek"]}, out)
    assert answer == {"action": "peek", "result": "blackjack"}
    assert t.take("seat:1") != "KC"
    assert t.take("dealer") == "KC"  # the hole card comes out when the dealer's next card is due


def test_the_pontoon_banker_draws_to_17_and_punters_below_16():
    t = table("pontoon")
    banker = {"expect": "action", "seat": 1, "allowed": ["hit", "stand"], "hand": "dealer"}
    assert ap.pontoon_choice(t, banker, {"hands": {"dealer": {"total": 16}}})["action"] == "hit"
    assert ap.pontoon_choice(t, banker, {"hands": {"dealer": {"total": 17}}}) == {"seat": 1, "action": "stand"}
    punter = {"expect": "action", "seat": 2, "allowed": ["hit", "stand"], "hand": 0}
    hand = {"hands": {"seat:2": {"seat": 2, "hand": 0, "cards": ["9S", "6H"], "total": 15}}}
    assert ap.pontoon_choice(t, punter, hand)["action"] == "hit"


@pytest.mark.parametrize(
    ("cards", "action"),
    [
        (["2S", "2H", "7D", "9C", "JS"], "raise"),  # a pair
        (["AS", "KH", "7D", "9C", "3S"], "raise"),  # ace-king
        (["QS", "JH", "7D", "9C", "3S"], "fold"),
    ],
)
def test_caribbean_stud_raises_with_a_pair_or_ace_king(cards, action):
    out = {"hands": {"seat:3": {"cards": cards}}}
    assert ap.caribbean_choice(table("caribbean_stud"), {"seat": 3, "allowed": ["fold", "raise"]}, out) == {
        "seat": 3,
        "action": action,
    }


@pytest.mark.parametrize(
    ("seat_cards", "community", "action"),
    [
        (["TS", "TH", "4D"], [], "let_it_ride"),  # a paying pair
        (["2S", "7S", "9S"], [], "let_it_ride"),  # three to a flush
        (["2S", "7H", "9D"], [], "pull_back"),
        (["2S", "7H", "9D"], ["9C"], "pull_back"),  # a pair of nines does not pay
    ],
)
def test_let_it_ride_rides_a_paying_hand(seat_cards, community, action):
    out = {"hands": {"seat:1": {"cards": seat_cards}, "community": {"cards": community}}}
    assert ap.let_it_ride_choice(table("let_it_ride"), {"seat": 1}, out)["action"] == action


def test_pai_gow_and_pusoy_players_ask_for_the_house_way():
    pai_gow = {"expect": "action", "seat": 2, "allowed": ["set", "house_way"]}
    assert ap.prefer("house_way")(table("pai_gow_poker"), pai_gow, {}) == {"seat": 2, "action": "house_way"}
    dealer = {"expect": "action", "seat": None, "allowed": ["set", "house_way"], "position": "dealer"}
    assert behaviour_for("pusoy").choose(table("pusoy"), dealer, {}) == {"seat": "dealer", "action": "house_way"}


def test_in_between_bets_the_pot_on_a_wide_spread_and_the_least_on_a_narrow_one():
    step = {"expect": "action", "seat": 1, "allowed": ["pot_bet"], "min_amount": 500, "max_amount": 8_000}
    t = table("in_between")
    wide = ap.pot_game_choice(t, step, {"hands": {"seat:1": {"ends": ["2D", "AC"], "gap": 11}}})["bet"]
    narrow = ap.pot_game_choice(t, step, {"hands": {"seat:1": {"ends": ["7C", "8D"], "gap": 0}}})["bet"]
    assert wide["amount"] >= 4_000
    assert wide["type"] == "pot_bet"
    assert narrow["amount"] == 500


def test_red_dog_forfeits_a_weak_hand_and_re_antes_when_asked():
    t = table("red_dog")
    step = {
        "expect": "action",
        "seat": 2,
        "allowed": ["pot_bet", "forfeit"],
        "min_amount": 500,
        "max_amount": 3_000,
        "forfeit": 500,
    }
    weak = ap.pot_game_choice(t, step, {"hands": {"seat:2": {"cards": ["2S", "3H", "2D", "4C", "3S"]}}})
    strong = ap.pot_game_choice(t, step, {"hands": {"seat:2": {"cards": ["AS", "AH", "AD", "AC", "KS"]}}})
    assert (weak["bet"]["type"], weak["bet"]["amount"]) == ("forfeit", 500)
    assert strong["bet"]["type"] == "pot_bet"
    assert strong["bet"]["amount"] >= 1_500
    ante = {"expect": "action", "seat": 2, "allowed": ["ante"], "amount": 500}
    assert ap.pot_game_choice(t, ante, {})["bet"] | {"id": "x"} == {"id": "x", "seat": 2, "type": "ante", "amount": 500}


def test_carousel_count_bets_come_from_the_button_and_only_from_the_players_still_in():
    t = table("carousel", button=5)
    hands = {f"hand:{n}": {"cards": [str(n)], "alive": True} for n in range(1, 7)}
    step = {
        "expect": "card",
        "betting": {
            "bet_types": ["count"],
            "amount": 500,
            "numbers": [0, 6],
            "running": [1, 2, 3, 4, 5, 6],
            "seats": None,
            "carry": 0,
            "placed": [],
        },
    }
    bets = [e["bet"] for e in ap.carousel_between(t, step, {"hands": hands})]
    seats = [b["seat"] for b in bets]
    assert seats == sorted(seats, key=lambda s: (s - 5) % 99)
    assert all(b["amount"] == 500 and 0 <= b["number"] <= 6 for b in bets)
    step["betting"]["seats"] = [6, 2]
    again = [e["bet"]["seat"] for e in ap.carousel_between(t, step, {"hands": hands})]
    assert set(again) <= {6, 2}
    assert again == [s for s in [6, 2] if s in again]
