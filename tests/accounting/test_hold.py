"""Statistical hold: actual against theoretical with the 95 % interval; the engines' edges are cached."""

from __future__ import annotations

import random
from fractions import Fraction

from accounting.hold import house_edges, statistical_hold
from accounting.models import HouseEdgeCache
from tests.accounting.helpers import random_baccarat_document, settle_directly


def test_edges_are_computed_once_per_game_and_rules(db):
    first = house_edges("baccarat", {"decks": 8, "min_bet": 500, "max_bet": 500_000})
    again = house_edges("baccarat", {"decks": 8, "min_bet": 100, "max_bet": 1_000})  # limits do not matter
    assert first == again
    assert HouseEdgeCache.objects.count() == 1
    assert isinstance(first["banker"], Fraction)
    assert round(float(first["banker"]), 6) == 0.010579
    house_edges("baccarat", {"decks": 6})
    assert HouseEdgeCache.objects.count() == 2


def test_a_fair_sample_is_inside_the_interval_and_a_rigged_one_is_flagged(floor):
    rng = random.Random(7)
    docs = [random_baccarat_document(rng) for _ in range(300)]
    settle_directly(floor, docs)
    [row] = statistical_hold(table=floor.table)
    bets = sum(len(d["doc"]["bets"]) for d in docs)
    handle = sum(b["amount"] for d in docs for b in d["doc"]["bets"])
    win = sum(d["state"]["house"]["net"] for d in docs)
    assert (row["bets"], row["handle"], row["win"], row["covered_handle"]) == (bets, handle, win, handle)
    low, high = row["ci95"]
    assert low < row["theoretical_hold"] < high
    assert low <= row["actual_hold"] <= high
    assert row["flag"] is False

    # a table where the players won every bet they made is outside any honest interval
    rigged = [
        d for d in (random_baccarat_document(rng) for _ in range(600)) if all(b["net"] > 0 for b in d["state"]["bets"])
    ][:60]
    settle_directly(floor, rigged, table=floor.other_table)
    [bad] = statistical_hold(table=floor.other_table)
    assert bad["bets"] >= 60
    assert bad["actual_hold"] < bad["ci95"][0]
    assert bad["flag"] is True
