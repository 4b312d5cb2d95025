"""The embedded mode `make run` starts (SQLite, tasks in process) works end to end: migrations, the
demo floor and its day written in the background as `make run` writes it (the screens saying so until it
is done, then every screen with figures), and a dealer's round through the REST API, including the
hand-written statements of the hot path (casino/core/sql.py), which must run on SQLite as on PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import fresh_sqlite, sqlite_env

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import json, uuid, django
django.setup()
from django.conf import settings
settings.ALLOWED_HOSTS = ["*"]
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from tables.models import LIVE_STATUSES, Assignment, Round, Settlement
from tables.services import rounds
a = (Assignment.objects.filter(relieved_at__isnull=True, ends_at__gt=timezone.now(), table__game="baccarat")
     .select_related("dealer", "table").first())
# the demo leaves a void its pit manager asked for at this table: the pit's other pit manager approves it
for waiting in Round.objects.filter(table=a.table, status__in=LIVE_STATUSES, void_requested_by__isnull=False):
    other = a.table.pit.managers.exclude(pk=waiting.void_requested_by_id).first()
    rounds.round_void_approve(round_id=waiting.pk, actor=other)
c = Client(HTTP_AUTHORIZATION="Token " + Token.objects.get_or_create(user=a.dealer)[0].key)
def post(path, body=None, key=None):
    r = c.post(path, json.dumps(body or {}), content_type="application/json",
               HTTP_IDEMPOTENCY_KEY=key or uuid.uuid4().hex)
    return r.status_code, r.json()
out = {}
code, rnd = post("/api/rounds/", {"table": a.table.pk})
url = f"/api/rounds/{rnd['id']}"
out["bet"] = post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": a.table.min_bet})[0]
out["close"] = post(f"{url}/close-betting/")[0]
out["bad_card"] = post(f"{url}/events/", {"card": "1X"})[0]
out["cards"] = [post(f"{url}/events/", {"card": k}, key=f"card-{k}")[0] for k in ["2S", "3S", "4S", "5S"]]
out["retried_card"] = post(f"{url}/events/", {"card": "2S"}, key="card-2S")[0]
code, body = post(f"{url}/settle/")
out["settle"] = code
out["events"] = body["document"]["events"]
out["dealer"] = body["dealer"] == a.dealer.username
out["settlements"] = Settlement.objects.filter(round_id=rnd["id"]).count()
other = Assignment.objects.exclude(table=a.table).select_related("table").first()
out["other_table"] = post("/api/rounds/", {"table": other.table.pk})[0]
print(json.dumps(out))
"""


# Rounds in each shift of the test's day (`make run` plays 60): most of the 18 tables play in every shift.
ROUNDS = 18

SCREENS = """
import json, re, django
django.setup()
from django.conf import settings
settings.ALLOWED_HOSTS = ["*"]
from django.contrib.auth import get_user_model
from django.test import Client
from accounting.models import Reconciliation
from tables.models import Shift, Table
users = get_user_model().objects
web = {}
def get(who, path):
    if who not in web:
        web[who] = Client()
        web[who].force_login(users.get(username=who))
    r = web[who].get(path)
    body = r.content.decode()
    return {"status": r.status_code, "writing": 'data-demo-day="writing"' in body,
            "figures": len(re.findall(r"\\d\\.\\d\\d\\b", body)), "body": body}
closed = list(Shift.objects.filter(status="closed").order_by("starts_at"))
out = {"closed": len(closed), "tables": Table.objects.count(), "screens": {}, "tiles": {}, "reconciled": {}}
paths = [("pitboss", "/pit/"), ("pitboss", "/pit/dealers/"), ("pitboss", "/pit/voids/"), ("pitboss", "/pit/alerts/"),
         ("accountant", "/accounting/"), ("accountant", "/accounting/cage/slips/?status=received&all_shifts=1"), ("accountant", "/accounting/cage/drop/"),
         ("accountant", "/accounting/cage/markers/"), ("accountant", "/accounting/shifts/"),
         ("pitboss", "/slots/"), ("pitboss", "/players/"), ("pitboss", "/cardroom/"), ("auditor", "/audit/")]
from accounting.reports.definitions import REPORTS
from players.models import Player
# every accounting report over the demo's day, and a rated player's page (their slips, theo and advantage play);
# no bet of the demo's day reaches the large-transaction threshold (5,000.00): that report is read from 500.00
first = Shift.objects.order_by("starts_at").first()
paths += [("accountant", f"/accounting/reports/?report={name}&date_from={first.gaming_date}"
           + ("&threshold=50000" if name == "large_transactions" else "")) for name in REPORTS]
rated = Player.objects.filter(slips__isnull=False).distinct().order_by("pk").first()
if rated is not None:
    paths.append(("pitboss", f"/players/{rated.pk}/"))
out["rated"] = rated is not None
for shift in closed:
    paths += [("accountant", f"/accounting/shifts/{shift.pk}/"),
              ("accountant", f"/accounting/reports/?report=revenue&group=table&shift={shift.pk}")]
for who, path in paths:
    seen = get(who, path)
    out["screens"][path] = {k: v for k, v in seen.items() if k != "body"}
    if path == "/cardroom/":  # the card room's score sheets (their figures are scores and deals, whole numbers)
        out["sheets"] = len(set(re.findall(r'href="/cardroom/sheets/(\\d+)/"', seen["body"])))
    if path == "/pit/":  # the advantage panel's table of rated players at the shoe tables, with its figures
        panel = re.search(r'id="advantage".*?</section>', seen["body"], re.S)
        out["advantage"] = {"table": 'id="advantage-table"' in seen["body"],
                            "figures": len(re.findall(r"\\d\\.\\d\\b", panel.group(0))) if panel else 0}
for shift in closed:
    body = get("admin", f"/pit/?shift={shift.pk}")["body"]
    played = re.findall(r'data-table="([^"]+)"[^>]*aria-labelledby.*?data-field="rounds">([^<]*)<', body, re.S)
    out["tiles"][str(shift.pk)] = dict(played)
    out["reconciled"][str(shift.pk)] = Reconciliation.objects.filter(shift=shift).count()
print(json.dumps(out))
"""


def demo_env(tmp: Path) -> dict[str, str]:
    """A fresh SQLite database, as `make run` makes it, and where the demo's background writer leaves its pid."""
    return {**sqlite_env(tmp), "DEMO_DAY_MARKER": str(tmp / "demo-day.pid")}


def writer_running(marker: Path) -> bool:
    try:
        os.kill(int(marker.read_text()), 0)
    except (OSError, ValueError):
        return False
    return True


@pytest.fixture(scope="module")
def made_run(tmp_path_factory: Any, migrated_sqlite: Any) -> Any:
    """`make run`'s steps after the install: migrate, then the demo as the Makefile runs it (the floor, and
    the day written in the background); what a screen said while the day was being written; the day done."""
    tmp = tmp_path_factory.mktemp("embedded")
    env = demo_env(tmp)

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        return done.stdout

    fresh_sqlite(migrated_sqlite, tmp)  # `make run`'s migrate (once per run: tests/fixtures.py)
    printed = run("manage.py", "demo", "--rounds", str(ROUNDS), "--if-empty", "--background")
    marker = tmp / "demo-day.pid"
    writing = writer_running(marker)
    meanwhile = json.loads(run("-c", SCREENS).strip().splitlines()[-1])["screens"]["/pit/"] if writing else None
    deadline = time.monotonic() + 1200
    while writer_running(marker):
        assert time.monotonic() < deadline, "the demo's day was still being written after 20 minutes"
        time.sleep(1)
    log = (tmp / "demo-day.log").read_text()
    return {"run": run, "printed": printed, "writing": writing, "meanwhile": meanwhile, "log": log, "marker": marker}


def test_make_runs_demo_serves_at_once_and_leaves_every_screen_with_figures(made_run):
    # given the demo as `make run` starts it: it came back with the floor built and its logins printed
    assert "Demo logins" in made_run["printed"]
    # while the day was being written, the screens said so (unless it was done before a screen could look)
    if made_run["writing"]:
        assert "being written in the background" in made_run["printed"]
        assert made_run["meanwhile"]["status"] == 200
        assert made_run["meanwhile"]["writing"] is True
    # when it is done, nothing says it is still being written, and it finished without an error
    assert not made_run["marker"].exists(), made_run["log"][-2000:]
    assert "Traceback" not in made_run["log"], made_run["log"][-3000:]

    out = json.loads(made_run["run"]("-c", SCREENS).strip().splitlines()[-1])

    # then every screen answers, says nothing of a day being written, and shows figures
    assert out["closed"] == 2
    for path, seen in out["screens"].items():
        assert seen["status"] == 200, path
        assert seen["writing"] is False, path
    # the pit's tiles, the slips, the slot floor, the players, the card room: each with figures in it
    for path in ("/pit/", "/accounting/cage/slips/?status=received&all_shifts=1", "/slots/", "/players/"):
        assert out["screens"][path]["figures"] > 0, path
    assert out["sheets"] > 0  # the card room's sheets, each with its players and deals
    # a rated player's page, and the pit's advantage panel with its rated players' rounds, spreads and edges
    assert out["rated"] is True
    assert out["advantage"]["table"] is True, out["advantage"]
    assert out["advantage"]["figures"] > 0, out["advantage"]
    for path, seen in out["screens"].items():
        if re.match(r"/accounting/(shifts/\d+/|reports/)|/players/\d+/", path):  # every report, every closed shift
            assert seen["figures"] > 0, path
    # every closed shift has its tables on the pit screen, most of them played (the shift's rounds go to the
    # games in turn, some more than once), and every table's close reconciled
    for shift, tiles in out["tiles"].items():
        assert len(tiles) == out["tables"], shift
        assert len([n for n in tiles.values() if int(n) > 0]) >= out["tables"] // 2, tiles
        assert out["reconciled"][shift] == out["tables"], shift


def test_the_embedded_mode_runs_a_round_on_sqlite(made_run):
    # given `make run`'s database and its demo day
    # when a dealer plays a baccarat round through the API
    result = json.loads(made_run["run"]("-c", PLAY).strip().splitlines()[-1])

    # then every step answers as on PostgreSQL
    assert result == {
        "bet": 201, "close": 200, "bad_card": 400, "cards": [201, 201, 201, 201], "retried_card": 201,
        "settle": 200, "events": [{"card": "2S"}, {"card": "3S"}, {"card": "4S"}, {"card": "5S"}],
        "dealer": True, "settlements": 1, "other_table": 403,
    }
