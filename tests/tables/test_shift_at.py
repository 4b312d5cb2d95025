"""One rule finds the shift a record belongs to (tables.selectors.shift_at): a round at a table, a
rating slip, a card-room posting and a slot posting made at the same moment land in the same shift."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from cardroom.services.postings import open_shift as cardroom_shift
from casino.errors import Conflict
from players.services.common import current_shift as players_shift
from slots.services.postings import open_shift as slots_shift
from tables.models import Assignment, Shift, ShiftType
from tables.selectors import current_shift, open_shift_for, shift_at
from tests.factories import TableFactory, UserFactory


def _next_shift_opened_early(floor) -> Shift:
    """The swing shift, opened before its hours begin: it starts later than the day shift, so the
    latest open shift is not the one whose hours cover now."""
    swing_type = ShiftType.objects.create(code="swing", name="Swing", starts=dt.time(14), ends=dt.time(22))
    now = timezone.now()
    return Shift.objects.create(shift_type=swing_type, gaming_date=now.date(), starts_at=now + dt.timedelta(hours=2),
                                ends_at=now + dt.timedelta(hours=10), opened_by=floor.manager)


@pytest.mark.django_db
def test_records_made_now_land_in_the_shift_whose_hours_cover_now(floor):
    # given the day shift (covering now) and the swing shift opened early
    swing = _next_shift_opened_early(floor)
    assert Shift.objects.filter(status="open").order_by("-starts_at").first() == swing
    # when each area asks for the shift of a record made now (a table with no dealer, the slot floor,
    # a tournament's pit, a rating slip at a table)
    spare = TableFactory(code="BAC9", pit=floor.pit)
    found = {
        "floor": current_shift(),
        "slots": slots_shift(),
        "cardroom table": cardroom_shift(table=spare),
        "cardroom pit": cardroom_shift(pit=floor.other_pit),
        "players": players_shift(floor.manager, spare),
        "round": open_shift_for(actor=floor.manager, table=spare),
    }
    # then every one is the day shift, not the latest opened
    assert found == dict.fromkeys(found, floor.shift)


@pytest.mark.django_db
def test_a_dealer_assignment_decides_at_its_table_and_in_its_pit(floor):
    # given a dealer assigned in the swing shift (opened early) at a table of the main pit
    swing = _next_shift_opened_early(floor)
    table = TableFactory(code="BAC8", pit=floor.pit)
    dealer = UserFactory(username="swingdealer", roles=["dealer"])
    now = timezone.now()
    Assignment.objects.create(dealer=dealer, table=table, shift=swing, starts_at=now - dt.timedelta(minutes=5),
                              ends_at=now + dt.timedelta(hours=1), assigned_by=floor.manager)
    Assignment.objects.filter(shift=floor.shift).update(relieved_at=now)
    # then the dealer's round at the table and a posting in that pit are in the swing shift; the other pit's day
    assert shift_at(table=table, actor=dealer) == swing
    assert shift_at(pit=floor.pit) == swing
    assert shift_at(pit=floor.other_pit) == floor.shift
    assert shift_at() == floor.shift


@pytest.mark.django_db
def test_no_open_shift_is_refused(floor):
    Shift.objects.filter(pk=floor.shift.pk).update(status="closed", closed_at=timezone.now(), closed_by=floor.manager)
    assert shift_at() is None
    assert slots_shift() is None
    with pytest.raises(Conflict) as refused:
        open_shift_for(table=floor.table)
    assert refused.value.code == "no_open_shift"
