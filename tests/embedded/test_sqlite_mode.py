"""The embedded mode `make run` starts (SQLite, tasks in process) works end to end: migrations, the
demo floor, and a dealer's round through the REST API, including the hand-written statements of the
hot path (casino/core/sql.py), which must run on SQLite as on PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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


def test_the_embedded_mode_runs_a_round_on_sqlite(tmp_path):
    # given a fresh SQLite database, as `make run` makes it
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "CELERY_"))}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'croupier.sqlite3'}", "DJANGO_SETTINGS_MODULE": "casino.settings",
                "PYTHONPATH": str(ROOT), "AUDIT_ANCHOR_DIR": str(tmp_path / "anchors")})  # never the repo's var/

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    run("manage.py", "migrate", "--noinput", "-v0")
    run("manage.py", "demo", "--rounds", "2")

    # when a dealer plays a baccarat round through the API
    result = json.loads(run("-c", PLAY).strip().splitlines()[-1])

    # then every step answers as on PostgreSQL
    assert result == {
        "bet": 201, "close": 200, "bad_card": 400, "cards": [201, 201, 201, 201], "retried_card": 201,
        "settle": 200, "events": [{"card": "2S"}, {"card": "3S"}, {"card": "4S"}, {"card": "5S"}],
        "dealer": True, "settlements": 1, "other_table": 403,
    }
