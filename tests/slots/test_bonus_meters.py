"""Bonus meters from the rule book's 3-reel games: Bank on It!'s piggy bank (starts at 150 credits), Frozen
Assets' snowman (bonus back to 500; 200 snowflakes), The Big Heist's safe (50 clicks), Light Speed's
multiplier (1 to 7). Credits meters are liabilities valued at the machine's denomination."""

from __future__ import annotations

import pytest

from accounting.models import LedgerTransaction
from casino.audit.models import AuditRecord
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from slots.models import BonusMeter, BonusMeterEvent
from slots.services import bonus
from tests.accounting.helpers import sig
from tests.slots.helpers import assert_ledger_balanced, balance, entries, machine

PIGGY = "slots:machine:S-1001:bonus:piggy_bank"


def _piggy_bank(floor, denomination: int = 25) -> BonusMeter:
    m = machine(floor.manager, game="Bank on It!", denomination=denomination)
    return bonus.bonus_meter_create(machine_id=m.pk, name="piggy_bank", label="Piggy Bank", unit="credits",
                                    reset_value=150, actor=floor.manager)


def _state(meter: BonusMeter) -> tuple:
    meter = BonusMeter.objects.get(pk=meter.pk)
    return (meter.value, meter.hits, BonusMeterEvent.objects.count(), LedgerTransaction.objects.count(),
            AuditRecord.objects.count(), balance(f"slots:machine:{meter.machine.asset_number}:bonus:{meter.name}"))


def test_the_piggy_bank_starts_at_150_credits_owed_funded_by_the_house(floor):
    # when a 25¢ Bank on It! gets its piggy bank
    meter = _piggy_bank(floor)
    # then it owes 150 credits = 37.50, funded by the house
    assert (meter.value, meter.owed) == (150, 3_750)
    event = meter.event_records.get()
    assert (event.kind, event.value_before, event.value_after, event.funded) == ("create", 0, 150, 3_750)
    assert entries(event.transaction) == {"slots:machine:S-1001:seed": 3_750, PIGGY: -3_750}
    assert AuditRecord.objects.get(action="slots.bonus.create").after["owed"] == 3_750


def test_the_piggy_bank_grows_then_pays_out_and_starts_again_at_150(floor):
    # given a piggy bank at 150 credits on a 25¢ machine
    meter = _piggy_bank(floor)
    # when three-blank spins put 30 more credits in it
    grew = bonus.bonus_meter_update(meter_id=meter.pk, value=180, actor=floor.manager)
    # then 7.50 is set aside from play into the liability
    assert (grew.accrued, -balance(PIGGY)) == (750, 4_500)
    assert entries(grew.transaction) == {"slots:machine:S-1001:contributions": 750, PIGGY: -750}
    # when three piggies hit and the machine credits the 180 credits
    won = bonus.bonus_meter_hit(meter_id=meter.pk, expected_value=180, actor=floor.manager)
    # then 45.00 is paid out of the machine's cash, and the house funds the 150 credits it starts at again
    assert (won.kind, won.value_before, won.value_after, won.paid, won.paid_by) == ("hit", 180, 0, 4_500, "machine")
    assert entries(won.transaction) == {PIGGY: 4_500, "slots:machine:S-1001:cash": -4_500}
    reset = BonusMeterEvent.objects.get(meter=meter, seq=won.seq + 1)
    assert (reset.kind, reset.value_after, reset.funded) == ("reset", 150, 3_750)
    assert entries(reset.transaction) == {"slots:machine:S-1001:seed": 3_750, PIGGY: -3_750}
    meter.refresh_from_db()
    assert (meter.value, meter.hits, meter.owed, -balance(PIGGY)) == (150, 1, 3_750, 3_750)
    assert balance("slots:machine:S-1001:seed") == 7_500
    assert_ledger_balanced()


def test_credits_owed_do_not_go_down_without_a_hit_or_a_reset(floor):
    meter = _piggy_bank(floor)
    bonus.bonus_meter_update(meter_id=meter.pk, value=200, actor=floor.manager)
    before = _state(meter)
    with pytest.raises(Conflict) as down:
        bonus.bonus_meter_update(meter_id=meter.pk, value=190, actor=floor.manager)
    with pytest.raises(Conflict) as same:
        bonus.bonus_meter_update(meter_id=meter.pk, value=200, actor=floor.manager)
    with pytest.raises(Conflict) as changed:
        bonus.bonus_meter_hit(meter_id=meter.pk, expected_value=150, actor=floor.manager)
    assert (down.value.code, same.value.code, changed.value.code) == ("credits_only_grow", "unchanged",
                                                                     "value_changed")
    assert _state(meter) == before


def test_releasing_credits_owed_needs_another_supervisor(floor):
    # given a piggy bank owing 200 credits (a wrong entry: it showed 160)
    meter = _piggy_bank(floor)
    bonus.bonus_meter_update(meter_id=meter.pk, value=200, actor=floor.manager)
    before = _state(meter)
    # when it is reset without a supervisor, or signed by the recorder
    with pytest.raises(InvalidInput) as unsigned:
        bonus.bonus_meter_reset(meter_id=meter.pk, reason="wrong entry", actor=floor.manager)
    with pytest.raises(InvalidInput) as self_signed:
        bonus.bonus_meter_reset(meter_id=meter.pk, reason="wrong entry", actor=floor.manager,
                                supervisor=sig(floor.manager))
    assert (unsigned.value.code, self_signed.value.code) == ("signature_required", "same_signer")
    assert _state(meter) == before
    # when another pit manager signs
    event = bonus.bonus_meter_reset(meter_id=meter.pk, reason="wrong entry", actor=floor.manager,
                                    supervisor=sig(floor.other_manager))
    # then the 50 credits above the reset value go back to the house
    assert (event.kind, event.released, event.supervisor) == ("reset", 1_250, floor.other_manager.staff)
    assert entries(event.transaction) == {"slots:machine:S-1001:seed": -1_250, PIGGY: 1_250}
    assert -balance(PIGGY) == 3_750
    assert AuditRecord.objects.filter(action="slots.bonus.reset").get().after["supervisor"] == \
        floor.other_manager.staff.employee_id


def test_the_snowman_bonus_defaults_back_to_500_and_the_snowflakes_count_to_200(floor):
    # given a $1 Frozen Assets with its snowman bonus (credits, 500) and snowflake count (to 200)
    m = machine(floor.manager, game="Frozen Assets", denomination=100)
    snowman = bonus.bonus_meter_create(machine_id=m.pk, name="snowman_bonus", label="Snowman bonus", unit="credits",
                                       reset_value=500, actor=floor.manager)
    flakes = bonus.bonus_meter_create(machine_id=m.pk, name="snowflakes", label="Snowflakes", unit="count",
                                      reset_value=0, target=200, actor=floor.manager)
    assert (snowman.owed, flakes.owed, flakes.value) == (50_000, 0, 0)
    # when sun icons add 3 credits to the bonus and snowflakes reach 200
    bonus.bonus_meter_update(meter_id=snowman.pk, value=503, actor=floor.manager)
    counted = bonus.bonus_meter_update(meter_id=flakes.pk, value=200, actor=floor.manager)
    assert counted.transaction is None  # a count carries no money
    with pytest.raises(InvalidInput) as above:
        bonus.bonus_meter_update(meter_id=flakes.pk, value=201, actor=floor.manager)
    assert above.value.code == "above_target"
    # and the snowman is won: the count goes back to 0, the bonus pays 503 credits by hand-pay and is back at 500
    flakes_won = bonus.bonus_meter_hit(meter_id=flakes.pk, actor=floor.manager)
    snowman_won = bonus.bonus_meter_hit(meter_id=snowman.pk, paid_by="handpay", actor=floor.manager)
    # then
    assert (flakes_won.value_after, flakes_won.transaction) == (0, None)
    assert entries(snowman_won.transaction) == {"slots:machine:S-1001:bonus:snowman_bonus": 50_300, "cage": -50_300}
    snowman.refresh_from_db()
    assert (snowman.value, snowman.owed, -balance("slots:machine:S-1001:bonus:snowman_bonus")) == (500, 50_000, 50_000)
    assert_ledger_balanced()


def test_count_meters_the_safe_clicks_and_the_light_speed_multiplier(floor):
    heist = machine(floor.manager, "S-1", game="The Big Heist", denomination=5)
    light = machine(floor.manager, "S-2", game="Light Speed", denomination=25)
    safe = bonus.bonus_meter_create(machine_id=heist.pk, name="safe_clicks", label="Safe counter", unit="count",
                                    reset_value=0, target=50, actor=floor.manager)
    level = bonus.bonus_meter_create(machine_id=light.pk, name="light_speed", label="Light Speed meter",
                                     unit="count", reset_value=1, target=7, actor=floor.manager)
    transactions = LedgerTransaction.objects.count()
    # the safe cracks at 50 clicks; the multiplier climbs to 7 and is set back to 1 by a win
    bonus.bonus_meter_update(meter_id=safe.pk, value=50, actor=floor.manager)
    bonus.bonus_meter_hit(meter_id=safe.pk, actor=floor.manager)
    bonus.bonus_meter_update(meter_id=level.pk, value=7, actor=floor.manager)
    bonus.bonus_meter_reset(meter_id=level.pk, reason="winning spin", actor=floor.manager)
    safe.refresh_from_db()
    level.refresh_from_db()
    assert (safe.value, safe.hits, level.value, level.hits) == (0, 1, 1, 0)
    assert LedgerTransaction.objects.count() == transactions  # counts carry no money
    assert list(level.event_records.values_list("kind", "value_before", "value_after")) == [
        ("create", 0, 1), ("update", 1, 7), ("reset", 7, 1)]


def test_bad_bonus_meters_are_refused(floor):
    m = machine(floor.manager)
    bonus.bonus_meter_create(machine_id=m.pk, name="piggy_bank", label="Piggy", unit="credits", reset_value=150,
                             actor=floor.manager)
    before = (BonusMeter.objects.count(), LedgerTransaction.objects.count())
    cases = [
        ({"name": "piggy_bank"}, Conflict, "bonus_meter_exists"),
        ({"name": "Piggy Bank"}, InvalidInput, "bad_name"),
        ({"name": "x", "target": 10}, InvalidInput, "target_for_counts"),
        ({"name": "x", "unit": "dollars"}, InvalidInput, "bad_choice"),
        ({"name": "x", "unit": "count", "target": 5, "reset_value": 6}, InvalidInput, "above_target"),
        ({"name": "x", "reset_value": -1}, InvalidInput, "out_of_range"),
        ({"name": "x", "machine_id": 999_999}, NotFound, "unknown_machine"),
    ]
    for kwargs, error, code in cases:
        args = {"machine_id": m.pk, "label": "X", "unit": "credits", "reset_value": 150, **kwargs}
        with pytest.raises(error) as refused:
            bonus.bonus_meter_create(actor=floor.manager, **args)
        assert refused.value.code == code, kwargs
    assert (BonusMeter.objects.count(), LedgerTransaction.objects.count()) == before
    with pytest.raises(Forbidden):
        bonus.bonus_meter_create(machine_id=m.pk, name="y", label="Y", unit="count", reset_value=0,
                                 actor=floor.accountant)


def test_a_machine_owing_bonus_credits_cannot_be_retired(floor):
    from slots.services.machines import machine_update

    meter = _piggy_bank(floor)
    with pytest.raises(Conflict) as refused:
        machine_update(machine_id=meter.machine_id, status="retired", actor=floor.manager)
    assert refused.value.code == "bonus_owed"


def test_a_meter_name_that_would_overflow_its_ledger_account_code_is_refused(floor):
    # given a machine with the longest asset number (32): the account code has room for a 27-character name
    m = machine(floor.manager, "A" * 32, game="Bank on It!", denomination=25)
    before = (BonusMeter.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count())
    # when a meter with a 28-character name is added
    with pytest.raises(InvalidInput) as refused:
        bonus.bonus_meter_create(machine_id=m.pk, name="p" * 28, label="Piggy Bank", unit="credits",
                                 reset_value=150, actor=floor.manager)
    # then it is refused, saying how long a name may be, and nothing was written
    assert (refused.value.code, refused.value.field) == ("name_too_long", "name")
    assert "at most 27 characters" in refused.value.message
    assert (BonusMeter.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count()) == before
    # and 27 characters with an 80-character label fit (the account's name is cut at 120)
    meter = bonus.bonus_meter_create(machine_id=m.pk, name="p" * 27, label="L" * 80, unit="credits",
                                     reset_value=150, actor=floor.manager)
    assert -balance(f"slots:machine:{'A' * 32}:bonus:{'p' * 27}") == meter.owed == 3_750


def test_a_count_meter_goes_down_as_the_game_says_and_posts_nothing(floor):
    # given Frozen Assets' snowflakes at 120
    m = machine(floor.manager, game="Frozen Assets", denomination=25)
    flakes = bonus.bonus_meter_create(machine_id=m.pk, name="snowflakes", label="Snowflakes", unit="count",
                                      reset_value=0, target=200, value=120, actor=floor.manager)
    transactions = LedgerTransaction.objects.count()
    # when a sun icon takes one off
    event = bonus.bonus_meter_update(meter_id=flakes.pk, value=119, note="sun", actor=floor.manager)
    # then the count is 119, the event says so, and no money moved
    flakes.refresh_from_db()
    assert (flakes.value, event.value_before, event.value_after, event.accrued, event.transaction) == (
        119, 120, 119, 0, None)
    assert LedgerTransaction.objects.count() == transactions
    assert AuditRecord.objects.filter(action="slots.bonus.update").get().after["note"] == "sun"
