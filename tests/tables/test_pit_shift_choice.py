"""The pit dashboard's ``?shift=``: a shift that is not there is said so; a closed shift's tiles show
that shift, never today's live round. The alerts screen pages its lists."""

from __future__ import annotations

import datetime as dt

from django.test import Client
from django.utils import timezone

from accounting.services import alerts
from tables.models import Shift, ShiftStatus, ShiftType
from tables.services import rounds


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_shift_that_does_not_exist_is_said_so(floor):
    # when the pit manager asks for a shift there is not
    response = browser(floor.manager).get("/pit/?shift=999999")
    # then the page says so, rather than showing the open shift as if it were that one
    assert response.status_code == 404
    html = response.content.decode()
    assert "No such shift" in html
    assert "999999" in html
    assert browser(floor.manager).get("/pit/?shift=abc").status_code == 404


def test_a_closed_shift_does_not_show_todays_live_round(floor):
    # given yesterday's closed shift and a round in play now
    kind = ShiftType.objects.create(code="night", name="Night", starts=dt.time(22), ends=dt.time(6))
    now = timezone.now()
    closed = Shift.objects.create(shift_type=kind, gaming_date=now.date() - dt.timedelta(days=1),
                                  starts_at=now - dt.timedelta(days=1, hours=8), ends_at=now - dt.timedelta(days=1),
                                  opened_by=floor.manager, status=ShiftStatus.CLOSED, closed_at=now - dt.timedelta(days=1),
                                  closed_by=floor.manager)
    live = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    client = browser(floor.manager)
    # when the pit manager looks at the closed shift
    then = client.get(f"/pit/?shift={closed.pk}")
    # then no tile carries the live round; the open shift's does
    assert then.status_code == 200
    assert all(row.live is None for row in then.context["rows"])
    today = client.get(f"/pit/?shift={floor.shift.pk}")
    assert [row.live.pk for row in today.context["rows"] if row.live] == [live.pk]


def test_the_alerts_screen_pages_its_lists(floor):
    # given 45 new alerts at the manager's table
    for n in range(45):
        alerts.alert_raise(kind="variance", severity="warning", message=f"short {n}", dedupe_key=f"k{n}",
                           table=floor.table)
    client = browser(floor.manager)
    # when the pit manager opens the alerts: 20 a page, newest first, three pages
    first = client.get("/pit/alerts/")
    page = first.context["pages"]["open"]
    assert (len(page.object_list), page.paginator.num_pages) == (20, 3)
    assert "short 44" in first.content.decode()
    last = client.get("/pit/alerts/?open_page=3")
    assert [a.message for a in last.context["pages"]["open"].object_list] == [f"short {n}" for n in range(4, -1, -1)]
