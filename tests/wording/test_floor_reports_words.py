"""The players', slots' and card room's reports (CSV, XLSX, PDF) and screens over the demo's day, in a reader's
words: no snake_case code, machine time, employee id, ungrouped amount, JSON or stored code in place of its label
(tests/wording/scan.py). A CSV's and an XLSX's figures are for programs and spreadsheets (their first line says
so): there their text columns, header and preamble are scanned; the PDF is scanned whole, as is every screen."""

from __future__ import annotations

import csv
import io
import subprocess
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from accounting.reports.base import TEXT
from casino.core.roles import Role
from tests.factories import UserFactory
from tests.wording.scan import known_codes, report, scan_cells, scan_html, scan_text

# the demo's staff are named after their jobs ("cashier", "accountant"): a name shown, not a role's code
ALLOWED = {"compliance", "shiftboss"}


@pytest.fixture
def floor_day(db):
    from accounting.demo import play_day
    from cardroom.demo import build_card_room
    from players.demo import play_counter
    from players.models import Player
    from players.services import cash, slips
    from slots.demo import build_slot_floor
    from tables.demo import build_demo_floor
    from tables.models import Assignment

    demo = build_demo_floor()
    build_slot_floor(actor=demo.users["pitboss"])
    play_day(demo, rounds_per_shift=8, earlier_shifts=1, seed=5)
    assert play_counter(demo.tables, demo.shift, manager=demo.users["pitboss"], shoes_n=2, seed=5) > 0
    build_card_room(demo.users)
    demo.users["compliance"] = UserFactory(username="compliance", roles=[Role.COMPLIANCE])
    demo.users["shiftboss"] = UserFactory(username="shiftboss", roles=[Role.SHIFT_MANAGER])
    counter = Player.objects.get(card_number="DEMO-HILO-1")
    # cash in and out above the reporting threshold, and a paused slip, so every report has rows to word
    for kind, amount in (("chip_redemption", 900000), ("chip_redemption", 400000), ("front_money_deposit", 1500000)):
        cash.cash_transaction_record(actor=demo.users["accountant"], kind=kind, amount=amount, player_id=counter.pk,
                                     description="Demo")
    assignment = Assignment.objects.filter(shift=demo.shift, relieved_at__isnull=True,
                                           table__game="baccarat").select_related("table", "dealer").first()
    slip = slips.slip_open(actor=assignment.dealer, table_id=assignment.table.pk, seat=3, description="Man in grey")
    slips.slip_pause(actor=demo.users["pitboss"], slip_id=slip.pk)
    return demo


def _download(client: Client, url: str, fmt: str) -> bytes:
    answer = client.get(url, {"format": fmt})
    assert answer.status_code == 200, (url, fmt, getattr(answer, "content", b"")[:300])
    return b"".join(answer.streaming_content) if answer.streaming else answer.content


def _report_findings(client: Client, url: str, columns: tuple[Any, ...], codes: set[str]) -> tuple[list, int]:
    """The findings of one report in its three files, and how many cells were read."""
    texts = [i for i, c in enumerate(columns) if c.kind == TEXT]
    found: list = []
    rows = list(csv.reader(io.StringIO(_download(client, url, "csv").decode("utf-8-sig"))))
    assert len(rows) >= 3, (url, rows)
    found += scan_text(rows[0][0], allowed=ALLOWED)
    found += scan_cells(rows[1], codes=codes, allowed=ALLOWED)
    cells = [r[i] for r in rows[2:] for i in texts if i < len(r) and r[i]]
    found += scan_cells(cells, codes=codes, allowed=ALLOWED)
    sheet = load_workbook(io.BytesIO(_download(client, url, "xlsx")), read_only=True).active
    values = list(sheet.iter_rows(values_only=True))
    found += scan_text(str(values[0][0]), allowed=ALLOWED)
    strings = [v for row in values[1:] for v in row if isinstance(v, str)]
    found += scan_cells(strings, codes=codes, allowed=ALLOWED)
    pdf = subprocess.run(["pdftotext", "-layout", "-", "-"], input=_download(client, url, "pdf"),
                         capture_output=True, check=True).stdout.decode()
    found += scan_text(pdf, allowed=ALLOWED)
    return found, len(cells) + len(strings) + len(rows) - 2


def test_every_players_and_slots_report_speaks_words(floor_day):
    from players.reports import READERS
    from players.reports import REPORTS as PLAYER_REPORTS
    from slots.reports import REPORTS as SLOT_REPORTS

    codes = known_codes() - set(floor_day.users)
    reader = Client()
    reader.force_login(floor_day.users["compliance"])  # compliance reads every players' report
    slots_reader = Client()
    slots_reader.force_login(floor_day.users["accountant"])
    problems: list[str] = []
    read = 0
    for name, cls in sorted(PLAYER_REPORTS.items()):
        assert Role.COMPLIANCE in READERS[name]
        found, cells = _report_findings(reader, f"/api/players/reports/{name}/", cls.columns, codes)
        read += cells
        problems += [f"players/{name}: {f}" for f in found]
    for name, cls in sorted(SLOT_REPORTS.items()):
        found, cells = _report_findings(slots_reader, f"/api/slots/reports/{name}/", cls.columns, codes)
        read += cells
        problems += [f"slots/{name}: {f}" for f in found]
    assert read > 100, read  # the reports had rows to read
    assert not problems, "\n".join(sorted(set(problems))[:80])


def _screens(day) -> list[str]:
    from cardroom.models import ScoreSheet, Tournament
    from players.models import Player
    from slots.models import Machine

    urls = ["/players/", "/players/compliance/", "/slots/", "/cardroom/", "/pit/"]
    urls += [f"/players/{pk}/" for pk in Player.objects.order_by("pk").values_list("pk", flat=True)]
    urls += [f"/slots/machines/{pk}/" for pk in Machine.objects.order_by("pk").values_list("pk", flat=True)]
    urls += [f"/cardroom/sheets/{pk}/" for pk in ScoreSheet.objects.order_by("pk").values_list("pk", flat=True)]
    urls += [f"/cardroom/tournaments/{pk}/" for pk in Tournament.objects.order_by("pk").values_list("pk", flat=True)]
    return urls


ROLES = ("admin", "pitboss", "dealer1", "cashier", "counter1", "accountant", "auditor", "shiftboss", "compliance")


def test_every_players_slots_and_card_room_screen_reads_in_words_for_every_role(floor_day):
    codes = known_codes() - set(floor_day.users)
    urls = _screens(floor_day)
    assert len(urls) >= 10, urls
    problems: list[str] = []
    read = 0
    for username in ROLES:
        client = Client()
        client.force_login(floor_day.users[username])
        for url in urls:
            answer = client.get(url)
            if answer.status_code in (301, 302):
                continue
            assert answer.status_code in (200, 403, 404), (url, username, answer.status_code)
            assert "text/html" in answer["Content-Type"], (url, username)
            read += 1
            found = scan_html(answer.content.decode(), codes=codes, allowed=ALLOWED)
            if found:
                problems.append(report(found, f"{url} as {username} ({answer.status_code})"))
    assert read >= len(urls) * 5
    assert not problems, "\n".join(problems)
