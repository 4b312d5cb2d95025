"""Reconciling a shift reads a fixed number of queries, however many rounds it has, and never simulates
under the shift's lock: the engines' edges are computed (and cached) before the lock is taken."""

from __future__ import annotations

import random

import pytest

from accounting.hold import house_edges
from accounting.models import HouseEdgeCache, Reconciliation
from accounting.services import reconcile
from accounting.services.ledger import round_post
from tables.engines.registry import get_engine
from tests.accounting.helpers import random_baccarat_document, settle_directly

# whatever the number of rounds: one query per kind of record (44 at 30 rounds and at 1,000 before the running
# figures' check, which adds five: the share lock on the shift's running rows, the rows, the hourly rows, the
# settlements by hour, the big bets)
QUERY_BOUND = 50


def settled_shift(floor, rounds: int, *, seed: int = 11) -> None:
    """``rounds`` real baccarat rounds at BAC1, their rows, events and postings written in bulk."""
    rng = random.Random(seed)
    docs = [random_baccarat_document(rng) for _ in range(rounds)]
    settlements = settle_directly(floor, docs, events=True)
    for s in settlements:
        round_post(settlement=s)


@pytest.mark.parametrize("rounds", [30, 1_000])
def test_reconciling_a_shift_runs_a_bounded_number_of_queries(floor, rounds, django_assert_max_num_queries):
    # given a shift with this many settled, posted rounds (edges already cached: the first run computes them)
    settled_shift(floor, rounds)
    house_edges("baccarat", {"decks": 8})
    # when it is reconciled
    with django_assert_max_num_queries(QUERY_BOUND):
        reconcile.reconcile_shift(shift_id=floor.shift.pk, force_open=True)
    # then every round was replayed and matched its settlement and its posting
    rec = Reconciliation.objects.get(shift=floor.shift, table=floor.table)
    assert (rec.rounds, rec.rounds_recomputed, rec.rounds_mismatched, rec.rounds_unposted) == (rounds, rounds, 0, 0)
    assert {c["cause"] for c in rec.causes} <= {"missing_count", "hold_outside_interval"}


def test_no_simulation_runs_while_the_shift_is_locked(floor, monkeypatch):
    # given a shift with rounds of a game whose edge the engine must compute (nothing cached yet)
    settled_shift(floor, 40)
    assert not HouseEdgeCache.objects.exists()
    order: list[str] = []
    engine_class = type(get_engine("baccarat"))
    computed = engine_class.house_edge

    def spy(self, config, **kwargs):
        order.append("simulate")
        return computed(self, config, **kwargs)

    monkeypatch.setattr(engine_class, "house_edge", spy)
    locked = reconcile._reconcile_locked

    def lock(**kwargs):
        order.append("lock")
        return locked(**kwargs)

    monkeypatch.setattr(reconcile, "_reconcile_locked", lock)
    # when the shift is reconciled
    reconcile.reconcile_shift(shift_id=floor.shift.pk, force_open=True)
    # then the edges were computed once, before the lock; under it they were only read from the cache
    assert order == ["simulate", "lock"]
    assert HouseEdgeCache.objects.filter(game="baccarat").count() == 1
    rec = Reconciliation.objects.get(shift=floor.shift)
    [hold] = rec.data["statistical_hold"]
    assert hold["theoretical_hold"] is not None  # the cached edges were used
