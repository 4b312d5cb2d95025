"""Meter readings: deltas between cumulative readings, progressive contributions with a carried remainder,
meters going backwards refused, RAM clears signed by a supervisor."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from accounting.models import LedgerTransaction
from casino.audit.models import AuditRecord
from casino.errors import Conflict, Forbidden, InvalidInput
from slots.models import MeterReading, Progressive, ProgressiveContribution
from slots.services import machines as machine_services
from tests.accounting.helpers import sig
from tests.factories import UserFactory
from tests.slots.helpers import (
    CRAZY_DRAGON_RESET,
    assert_ledger_balanced,
    balance,
    entries,
    liability,
    machine,
    progressive,
    read,
)


def _state(p: Progressive | None = None) -> tuple:
    """What a refused reading must leave as it was."""
    amount = Progressive.objects.get(pk=p.pk).amount if p else None
    return (MeterReading.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count(),
            ProgressiveContribution.objects.count(), amount)


def test_the_first_reading_is_the_baseline(floor):
    # given a machine linked to a progressive
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m])
    # when its first reading comes in with meters already running
    r = read(m, floor.manager, 5_000_000, 4_600_000, 100_000, 20_000, 3_000_000)
    # then it is the baseline: no difference, nothing contributed, recorded and audited
    assert (r.seq, r.d_coin_in, r.d_coin_out, r.d_jackpots, r.d_games_played, r.d_drop) == (1, 0, 0, 0, 0, 0)
    assert r.transaction is None
    assert liability(p) == CRAZY_DRAGON_RESET
    audit = AuditRecord.objects.filter(action="slots.reading.record").get()
    assert audit.after["meters"]["coin_in"] == 5_000_000
    assert audit.after["contributions"] == {"crazy-dragon": 0}


def test_a_reading_posts_the_contribution_of_its_coin_in_difference(floor):
    # given Crazy Dragon at $2,000 taking 1.5 % of coin in, and a baseline reading
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m], bp=150)
    read(m, floor.manager, 1_000_000, 900_000, 0, 4_000, 500_000)
    # when the next reading shows 123.45 more coin in
    r = read(m, floor.manager, 1_012_345, 910_000, 1_000, 4_100, 506_000)
    # then the differences are exact and 1.5 % of 123.45 = 1.85175 posts 1.85 and carries 0.00175
    assert (r.d_coin_in, r.d_coin_out, r.d_jackpots, r.d_games_played, r.d_drop) == (12_345, 10_000, 1_000, 100, 6_000)
    assert r.win == 1_345
    c = r.contributions.get()
    assert (c.coin_in, c.rate_bp, c.remainder_before, c.amount, c.remainder_after) == (12_345, 150, 0, 185, 1_750)
    assert entries(r.transaction) == {"slots:machine:S-1001:contributions": 185, "progressive:crazy-dragon": -185}
    p.refresh_from_db()
    assert (p.amount, p.remainder) == (CRAZY_DRAGON_RESET + 185, 1_750)
    assert liability(p) == p.amount
    assert_ledger_balanced()


def test_the_carried_remainder_loses_no_fraction_of_a_cent_over_many_readings(floor):
    # given two machines sharing a system-wide progressive at 0.37 %, with baselines
    a, b = machine(floor.manager, "S-1"), machine(floor.manager, "S-2")
    p = progressive(floor.manager, machines_=[a, b], bp=37)
    meters = {a.pk: 0, b.pk: 0}
    read(a, floor.manager, 0)
    read(b, floor.manager, 0)
    rng = random.Random(11)
    total_coin_in = 0
    truncated_each_time = 0
    # when 300 readings come in, alternating machines, each with an awkward coin-in difference
    for i in range(300):
        m = a if i % 2 == 0 else b
        delta = rng.randrange(1, 50_000)
        meters[m.pk] += delta
        total_coin_in += delta
        truncated_each_time += delta * 37 // 10_000  # what rounding each posting down, carrying nothing, would give
        read(m, floor.manager, meters[m.pk])
    # then the postings add up to the exact total rounded down once, and the rest is the carried remainder
    p.refresh_from_db()
    exact_units, exact_rest = divmod(total_coin_in * 37, 10_000)
    posted = sum(ProgressiveContribution.objects.filter(progressive=p).values_list("amount", flat=True))
    assert posted == exact_units
    assert p.remainder == exact_rest
    assert posted * 10_000 + p.remainder == total_coin_in * 37
    assert posted > truncated_each_time  # without the carry those fractions would have been lost
    assert liability(p) == p.amount == CRAZY_DRAGON_RESET + exact_units
    assert balance("slots:machine:S-1:contributions") + balance("slots:machine:S-2:contributions") == exact_units
    assert_ledger_balanced()


def test_a_meter_going_backwards_is_refused_and_nothing_changes(floor):
    # given two readings
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m])
    read(m, floor.manager, 100_000, 90_000, 0, 100, 50_000)
    read(m, floor.manager, 110_000, 99_000, 0, 110, 55_000)
    before = _state(p)
    # when a reading shows less coin out than the last one
    with pytest.raises(Conflict) as refused:
        read(m, floor.manager, 120_000, 98_000, 0, 120, 60_000)
    # then it is refused naming the meter, and nothing was written
    assert (refused.value.code, refused.value.field) == ("meter_backwards", "coin_out")
    assert "coin-out went backwards (€980.00 after €990.00)" in refused.value.message  # money, as the reader writes it
    assert _state(p) == before
    m.refresh_from_db()
    assert m.readings == 2


def test_a_ram_clear_needs_a_reason_and_another_supervisor(floor):
    # given a machine with a reading
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m], bp=100)
    read(m, floor.manager, 500_000, 450_000, 0, 900, 200_000)
    before = _state(p)
    later = {"coin_in": 20_000, "coin_out": 15_000, "jackpots": 0, "games": 40, "drop": 10_000, "ram_clear": True}
    # when the clear is entered without a reason, without a supervisor, signed by the recorder, or by a dealer
    refusals = []
    for extra in ({"supervisor": sig(floor.other_manager)},
                  {"reason": "board swap"},
                  {"reason": "board swap", "supervisor": sig(floor.manager)},
                  {"reason": "board swap", "supervisor": sig(floor.dealer)}):
        with pytest.raises(InvalidInput) as refused:
            read(m, floor.manager, **later, **extra)
        refusals.append(refused.value.code)
    # then each is refused and nothing changed
    assert refusals == ["reason_required", "signature_required", "same_signer", "signer_role"]
    assert _state(p) == before
    # when another pit manager signs it with a reason
    r = read(m, floor.manager, **later, reason="board swap", supervisor=sig(floor.other_manager))
    # then the meters count from zero again: the differences are the reading itself
    assert (r.ram_clear, r.supervisor, r.d_coin_in, r.d_coin_out, r.d_games_played) == (
        True, floor.other_manager.staff, 20_000, 15_000, 40)
    assert r.contributions.get().amount == 200  # 1 % of 200.00
    assert AuditRecord.objects.filter(action="slots.reading.record").last().after["supervisor"] == \
        floor.other_manager.staff.employee_id


def test_a_ram_clear_where_no_meter_went_down_is_refused(floor):
    m = machine(floor.manager)
    read(m, floor.manager, 1_000)
    before = _state()
    with pytest.raises(Conflict) as refused:
        read(m, floor.manager, 2_000, ram_clear=True, reason="x", supervisor=sig(floor.other_manager))
    assert refused.value.code == "not_a_ram_clear"
    assert _state() == before


def test_the_first_reading_cannot_be_a_ram_clear(floor):
    m = machine(floor.manager)
    with pytest.raises(InvalidInput) as refused:
        read(m, floor.manager, 0, ram_clear=True, reason="x", supervisor=sig(floor.other_manager))
    assert refused.value.code == "ram_clear_without_reading"
    assert MeterReading.objects.count() == 0


def test_readings_are_refused_out_of_order_from_the_future_or_on_a_retired_machine(floor):
    # given a machine read now
    m = machine(floor.manager)
    read(m, floor.manager, 1_000)
    before = _state()
    now = timezone.now()
    # when a reading is dated before it, or tomorrow
    with pytest.raises(Conflict) as earlier:
        read(m, floor.manager, 2_000, read_at=now - dt.timedelta(hours=1))
    with pytest.raises(InvalidInput) as future:
        read(m, floor.manager, 2_000, read_at=now + dt.timedelta(days=1))
    # then both are refused
    assert (earlier.value.code, future.value.code) == ("reading_out_of_order", "read_in_future")
    assert _state() == before
    # and once retired, the machine takes no more readings
    machine_services.machine_update(machine_id=m.pk, status="retired", actor=floor.manager)
    with pytest.raises(Conflict) as retired:
        read(m, floor.manager, 3_000)
    assert retired.value.code == "machine_retired"


def test_bad_meter_values_are_refused(floor):
    m = machine(floor.manager)
    for bad, code in ((-1, "out_of_range"), (10**15, "out_of_range"), (1.5, "not_a_whole_number"),
                      ("100", "not_a_whole_number"), (True, "not_a_whole_number")):
        with pytest.raises(InvalidInput) as refused:
            read(m, floor.manager, bad)
        assert (refused.value.code, refused.value.field) == (code, "coin_in")
    assert MeterReading.objects.count() == 0


def test_only_pit_managers_record_readings(floor):
    m = machine(floor.manager)
    for user in (floor.accountant, floor.auditor, floor.dealer, UserFactory(username="x")):
        with pytest.raises(Forbidden):
            read(m, user, 1_000)
    assert MeterReading.objects.count() == 0
    assert read(m, floor.admin, 1_000).seq == 1


def test_the_database_refuses_to_rewrite_a_reading_or_a_wrong_rounding(floor):
    # given a recorded reading and contribution
    m = machine(floor.manager)
    progressive(floor.manager, machines_=[m])
    unlinked = progressive(floor.manager, "other", name="Other")
    read(m, floor.manager, 0)
    r = read(m, floor.manager, 12_345)
    # when someone updates the reading, or writes a contribution whose rounding does not add up
    with pytest.raises(DatabaseError), transaction.atomic():
        MeterReading.objects.filter(pk=r.pk).update(coin_in=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        ProgressiveContribution.objects.create(reading=r, progressive=unlinked, coin_in=12_345, rate_bp=150,
                                               remainder_before=0, amount=186, remainder_after=0)
    # then the records stand as written
    assert MeterReading.objects.get(pk=r.pk).coin_in == 12_345


def test_the_rounding_examples_in_the_docstring_hold():
    import doctest

    assert doctest.testmod(machine_services).failed == 0
