"""The engine's typed answer (tables/engines/result.py): hands, outcome, the game's own facts and the
pools typed, the JSON the API returns unchanged."""

from __future__ import annotations

import json
import random

from tables.engines.registry import available_games, get_engine
from tables.engines.result import GameFacts, Hands, House, Line, Outcome, RoundResult, ShownHand
from tables.simulation.autoplay import play_round
from tests.engines.helpers import table_config


def test_the_typed_answer_reads_the_pools_and_gives_back_the_same_json():
    # given a Merry-Go-Round game played to its end by autoplay (three named pools)
    engine = get_engine("merry_go_round")
    doc = play_round(engine, engine.resolve_config({"carry_in": 30}), random.Random(3))
    result = engine.result(doc)
    # then its parts are typed, the pools read as totals, and the JSON is the stored answer, key for key
    assert isinstance(result.hands, Hands)
    assert isinstance(result.outcome, Outcome)
    assert isinstance(result.more, GameFacts)
    pool = result.pool
    assert pool is not None
    assert pool["carry_in"] + pool["stakes"] == pool["paid"] + pool["rake"] + pool["carry_out"]
    assert set(result.more.pools) == {"count", "pony", "high_card"}
    assert result.pool_change == sum(result.pool_changes.values()) == pool["carry_out"] - pool["carry_in"]
    stored = result.to_json()
    again = RoundResult.of_json(stored)
    assert again.to_json() == stored
    assert again.outcome is not None
    assert again.outcome.get("end") == result.outcome.get("end")


def test_every_game_s_answer_reads_back_typed_and_writes_the_same_bytes():
    # given a round of every game played to its end by autoplay, a few seeds each
    for game in available_games():
        engine = get_engine(game)
        for seed in range(3):
            doc = play_round(engine, engine.resolve_config(table_config(game)), random.Random(seed))
            result = engine.result(doc)
            stored = json.dumps(result.to_json())
            # then the stored answer read back is the same answer, byte for byte, and its lines and house typed
            again = RoundResult.of_json(json.loads(stored))
            assert json.dumps(again.to_json()) == stored, game
            assert again == result, game
            for line in again.lines:
                assert isinstance(line, Line)
                assert isinstance(line.net, int)
                assert isinstance(line.staked, int)
                assert "staked" not in line.extras
            if again.settled:
                assert isinstance(again.house, House)
                assert again.handle() == sum(line.staked for line in again.lines)


def test_a_stored_state_that_is_not_an_answer_reads_as_none():
    assert RoundResult.of_stored({"carried": {}, "carried_players": None}) is None
    assert RoundResult.of_stored(None) is None
    answer = {"status": "settled", "next": None, "hands": {"player": {"cards": ["9S", "5D"], "total": 4}},
              "outcome": {"winner": "player"}, "bets": [], "house": {"net": 0, "commission": 0, "rake": 0},
              "say": "Player wins"}
    result = RoundResult.of_stored(answer)
    assert result is not None
    assert result.outcome is not None
    assert result.outcome.winner == "player"
    assert result.say == "Player wins"
    assert result.hands.shown() == (ShownHand("player", ("9S", "5D"), 4),)
