"""The gaming day: the next shift proposed and opened, every table rolled from its last closer in one step,
the dealers kept; who may (a shift manager, or pit managers per DAY_RUN_BY), refused in words with nothing
written; the API's roll (docs/accounting.md, "The gaming day")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from accounting.models import CountKind, InventoryCount
from accounting.services import day, shifts
from casino.audit.models import AuditRecord
from casino.core.roles import Role
from casino.errors import Forbidden
from tables.models import Assignment, Shift, ShiftType
from tests.accounting.test_worked_shift import CLOSER, work_the_shift
from tests.factories import UserFactory
from tests.fixtures import as_user

pytestmark = pytest.mark.django_db


def type_covering_now(code: str = "late") -> tuple[ShiftType, dt.date]:
    """A shift pattern whose shift of the returned gaming day is under way now (started half an hour ago)."""
    start = timezone.localtime() - dt.timedelta(minutes=30)
    shift_type = ShiftType.objects.create(code=code, name=code.title(), starts=start.time().replace(microsecond=0),
                                          ends=(start + dt.timedelta(hours=4)).time().replace(microsecond=0))
    return shift_type, start.date()


def closed_first_shift(floor):
    """BAC1's worked shift, its table closed and the casino's shift closed (BAC2 did nothing)."""
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)


def test_the_next_shift_proposed_is_the_first_not_opened_and_not_over(floor):
    # given the fixture's day shift (06:00 to 14:00) opened for today, and two more patterns
    ShiftType.objects.create(code="swing", name="Swing", starts=dt.time(14), ends=dt.time(22))
    ShiftType.objects.create(code="grave", name="Grave", starts=dt.time(22), ends=dt.time(6))
    today = floor.shift.gaming_date
    tz = timezone.get_current_timezone()

    # when asked at 13:00, at 15:00 and at 23:00
    at = {h: day.next_shift(dt.datetime.combine(today, dt.time(h), tzinfo=tz)) for h in (13, 15, 23)}

    # then 13:00 proposes the swing (the day is opened), 15:00 the swing too, and 23:00 the grave of today
    assert [(t.code, d) for t, d in (at[13], at[15])] == [("swing", today), ("swing", today)]
    assert (at[23][0].code, at[23][1]) == ("grave", today)


def test_a_pit_manager_opens_the_day_and_rolls_his_tables_keeping_the_dealers(floor):
    # given BAC1's shift closed with its closer signed by its dealer and its pit manager
    closed_first_shift(floor)
    shift_type, gaming_date = type_covering_now()

    # when the pit manager opens the next shift and rolls the tables
    shift = day.day_open(actor=floor.manager, shift_type_id=shift_type.pk, gaming_date=gaming_date)
    lines = day.tables_roll(actor=floor.manager, shift_id=shift.pk)

    # then only his pit's table rolls: its opener is the closer, signed as it was, and its dealer stays on it
    assert [line.table.code for line in lines] == ["BAC1"]
    opener = InventoryCount.objects.get(table=floor.table, shift=shift, kind=CountKind.OPENER)
    closer = InventoryCount.objects.get(table=floor.table, shift=floor.shift, kind=CountKind.CLOSER)
    assert (opener.chips, opener.rolled, opener.previous_closer_id, opener.discrepancy_net) == (
        {str(d): q for d, q in sorted((int(k), v) for k, v in CLOSER.items())}, True, closer.pk, 0)
    assert (opener.dealer_signer_id, opener.supervisor_signer_id) == (closer.dealer_signer_id,
                                                                      closer.supervisor_signer_id)
    kept = Assignment.objects.get(table=floor.table, shift=shift)
    assert (kept.dealer, kept.starts_at, kept.ends_at) == (floor.dealer, shift.starts_at, shift.ends_at)
    assert lines[0].as_dict()["dealer"] == "dealer"
    # the whole roll is audited, table by table
    record = AuditRecord.objects.get(action="day.roll", object_id=str(shift.pk))
    assert record.after["tables"][0]["table"] == "BAC1"
    assert record.after["tables"][0]["opener"] == opener.pk

    # and a second roll rolls nothing and says why
    again = day.tables_roll(actor=floor.manager, shift_id=shift.pk)
    assert [(line.opener, line.refused) for line in again] == [(None, "count_exists")]
    assert InventoryCount.objects.filter(shift=shift).count() == 1


def test_a_table_without_a_closer_or_not_closed_is_left_as_it_is_with_the_reason(floor):
    # given BAC1's first shift played but not closed, and a shift manager running both pits
    work_the_shift(floor)
    boss = UserFactory(username="boss", roles=[Role.PIT_MANAGER, Role.SHIFT_MANAGER])
    shift_type, gaming_date = type_covering_now()
    shift = day.day_open(actor=boss, shift_type_id=shift_type.pk, gaming_date=gaming_date)

    # when the shift manager rolls
    lines = {line.table.code: line for line in day.tables_roll(actor=boss, shift_id=shift.pk)}

    # then both pits' tables are tried, and neither rolls: each says why
    assert (lines["BAC1"].refused, lines["BAC2"].refused) == ("previous_shift_not_closed", "nothing_to_roll")
    assert not InventoryCount.objects.filter(shift=shift).exists()


def test_with_day_run_by_shift_manager_a_pit_manager_is_refused_in_words_and_nothing_is_written(floor, settings):
    # given the house rule that only shift managers run the day
    settings.CROUPIER = {**settings.CROUPIER, "DAY_RUN_BY": "shift_manager"}
    closed_first_shift(floor)
    shift_type, gaming_date = type_covering_now()

    # when the pit manager tries to open the shift, then a dealer, then (once it is open) to roll
    for who in (floor.manager, floor.dealer, floor.accountant):
        with pytest.raises(Forbidden) as refused:
            day.day_open(actor=who, shift_type_id=shift_type.pk, gaming_date=gaming_date)
        assert refused.value.code == "shift_manager_required"
    assert not Shift.objects.filter(shift_type=shift_type).exists()
    boss = UserFactory(username="boss", roles=[Role.PIT_MANAGER, Role.SHIFT_MANAGER])
    shift = day.day_open(actor=boss, shift_type_id=shift_type.pk, gaming_date=gaming_date)
    with pytest.raises(Forbidden):
        day.tables_roll(actor=floor.manager, shift_id=shift.pk)
    assert not InventoryCount.objects.filter(shift=shift).exists()

    # then the shift manager rolls the table
    assert [line.table.code for line in day.tables_roll(actor=boss, shift_id=shift.pk) if line.opener] == ["BAC1"]


def test_the_api_rolls_the_tables_once_per_key_and_refuses_a_dealer(floor):
    # given the next shift open
    closed_first_shift(floor)
    shift_type, gaming_date = type_covering_now()
    manager = as_user(floor.manager)
    opened = manager.post("/api/shifts/", {"shift_type": shift_type.pk, "gaming_date": gaming_date.isoformat()},
                          format="json")
    assert opened.status_code == 201, opened.json()
    shift_id = opened.json()["id"]

    # when the pit manager rolls through the API, twice with the same key; and a dealer tries
    first = manager.post("/api/accounting/day/roll/", {"shift": shift_id}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    replay = manager.post("/api/accounting/day/roll/", {"shift": shift_id}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    dealer = as_user(floor.dealer).post("/api/accounting/day/roll/", {"shift": shift_id}, format="json")
    bad = manager.post("/api/accounting/day/roll/", {"shift": "x"}, format="json")

    # then the table rolled once, the replay answers the same, the dealer is refused, bad input is a 400
    assert first.status_code == 200
    assert replay.json() == first.json()
    assert [(t["table"], t["dealer"], t["refused"]) for t in first.json()["tables"]] == [("BAC1", "dealer", None)]
    assert dealer.status_code == 403
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "shift"
    assert InventoryCount.objects.filter(shift_id=shift_id).count() == 1


def test_a_shift_manager_signing_in_lands_on_the_days_screen(floor):
    # given a shift manager (no pit of their own: they run the whole floor's day)
    client = Client()
    client.force_login(UserFactory(username="sm", roles=[Role.SHIFT_MANAGER]))
    # when they open the site's home
    home = client.get("/")
    # then they are sent to the gaming day's screen, which they may use
    assert (home.status_code, home["Location"]) == (302, "/pit/day/")
    page = client.get("/pit/day/")
    assert page.status_code == 200
    # and their menu leads to the day's screen and to the closing screens (where they reopen a close)
    assert 'href="/pit/day/"' in page.content.decode()
    assert 'href="/accounting/shifts/"' in page.content.decode()
