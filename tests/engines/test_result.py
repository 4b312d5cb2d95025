"""The engine's typed answer (tables/engines/result.py): hands, outcome, the game's own facts and the
pools typed, the JSON the API returns unchanged."""

from __future__ import annotations

import random

from tables.engines.registry import get_engine
from tables.engines.result import GameFacts, Hands, Outcome, RoundResult
from tables.simulation.autoplay import play_round


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
