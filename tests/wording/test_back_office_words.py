"""Every back-office screen, as each role that may see it reads it over the demo's day, in the casino's
words: no code, cents, machine time, employee id or JSON (tests/wording/scan.py). A role refused a screen
reads the refusal as an HTML page too."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import Marker, Slip
from players.models import Player
from slots.models import Machine
from tables.models import Round, RoundStatus, Shift, ShiftStatus, Table
from tests.wording.scan import known_codes, report, scan_html

# every role the demo staffs, a dealer, and the roles the demo has nobody for (made here)
ROLES = ("admin", "pitboss", "accountant", "auditor", "cashier", "counter1", "dealer1", "shiftboss", "compliance")


def _urls(demo) -> list[str]:
    open_shift = demo.shift
    closed = Shift.objects.filter(status=ShiftStatus.CLOSED).order_by("starts_at").last()
    table = Table.objects.order_by("code").first()
    settled = Round.objects.filter(status=RoundStatus.SETTLED).order_by("pk")
    urls = [
        "/", "/pit/", "/pit/live/", f"/pit/?shift={closed.pk}", "/pit/dealers/", "/pit/day/", "/pit/voids/",
        "/pit/alerts/",
        *(f"/pit/tables/{t.code}/" for t in Table.objects.order_by("code")),
        "/accounting/", "/accounting/live/", "/accounting/cage/", "/accounting/cage/desk/",
        "/accounting/cage/desk/live/", "/accounting/cage/slips/", "/accounting/cage/slips/numbers/",
        "/accounting/cage/drop/", "/accounting/cage/markers/", "/accounting/shifts/",
        f"/accounting/shifts/{closed.pk}/", f"/accounting/shifts/{open_shift.pk}/",
        f"/accounting/shifts/{closed.pk}/tables/{table.pk}/close/",
        f"/accounting/shifts/{open_shift.pk}/tables/{table.pk}/close/",
        "/accounting/queue/", "/players/", "/players/compliance/", "/slots/",
    ]
    # a round of every game, and a voided one
    seen: set[str] = set()
    for rnd in settled.only("pk", "game"):
        if rnd.game not in seen:
            seen.add(rnd.game)
            urls.append(f"/pit/rounds/{rnd.pk}/")
    voided = Round.objects.filter(status=RoundStatus.VOIDED).first()
    if voided:
        urls.append(f"/pit/rounds/{voided.pk}/")
    for kind in ("fill", "credit"):
        for status in Slip.objects.filter(kind=kind).values_list("status", flat=True).distinct():
            urls.append(f"/accounting/cage/slips/{Slip.objects.filter(kind=kind, status=status).first().pk}/")
    urls += [f"/accounting/cage/markers/{pk}/" for pk in Marker.objects.values_list("pk", flat=True)[:3]]
    urls += [f"/players/{pk}/" for pk in Player.objects.values_list("pk", flat=True)[:3]]
    urls += [f"/slots/machines/{pk}/" for pk in Machine.objects.values_list("pk", flat=True)[:2]]
    return urls


@pytest.fixture
def day(db):
    from accounting.demo import play_day
    from casino.core.roles import Role
    from tables.demo import build_demo_floor
    from tests.factories import UserFactory

    demo = build_demo_floor()
    play_day(demo, rounds_per_shift=8, earlier_shifts=1, seed=5)
    demo.users["shiftboss"] = UserFactory(username="shiftboss", roles=[Role.SHIFT_MANAGER])
    demo.users["compliance"] = UserFactory(username="compliance", roles=[Role.COMPLIANCE])
    return demo


# the audit trail: its first page, a search that finds records, and a page further on
AUDIT = ("/audit/", "/audit/?q=round", "/audit/?page=2")


def test_every_back_office_screen_reads_in_the_casinos_words(day):
    # the demo's staff are named after their jobs ("cashier", "admin"): a name, not a role's code
    codes = known_codes() - set(day.users)
    problems: list[str] = []
    read = 0
    for username in ROLES:
        client = Client()
        client.force_login(day.users[username])
        for url in [*_urls(day), *AUDIT]:
            answer = client.get(url)
            kind = answer.get("Content-Type", "")
            if answer.status_code in (301, 302):
                continue
            read += 1
            if "text/html" not in kind:
                problems.append(f"{username} {url}: {answer.status_code} answered as {kind}, not a page")
                continue
            found = scan_html(answer.content.decode(), codes=codes)
            if found:
                problems.append(report(found, f"{url} as {username} ({answer.status_code})"))
    assert read >= len(ROLES) * 40, read  # every role read pages, not redirections
    assert not problems, "\n".join(problems)


def test_a_role_refused_a_screen_reads_the_refusal_as_a_page(floor):
    # given a pit manager, who may not read the audit trail
    client = Client()
    client.force_login(floor.manager)
    # when they open it
    answer = client.get("/audit/")
    # then the refusal is the screens' page, in words, not JSON
    assert answer.status_code == 403
    assert answer["Content-Type"].startswith("text/html")
    assert "Not allowed" in answer.content.decode()
    # and the API still answers a refusal in JSON
    api = client.get("/api/audit/records/")
    assert api.status_code in (401, 403)
    assert api["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("asked", ["999999", "abc"])
def test_a_shift_that_does_not_exist_is_refused_in_words_not_replaced_by_the_open_one(floor, asked):
    # given a pit manager
    client = Client()
    client.force_login(floor.manager)
    # when they ask the dashboard for a shift that is not there
    answer = client.get("/pit/", {"shift": asked})
    # then they are told so, and no shift's figures are shown in its place
    assert answer.status_code == 404
    body = answer.content.decode()
    assert "No such shift" in body
    assert f"There is no shift “{asked}”" in body
    assert 'data-table="' not in body
