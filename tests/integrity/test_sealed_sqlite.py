"""The embedded mode (SQLite) seals what PostgreSQL seals: a settled round, a closed shift, what is under it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.fixtures import fresh_sqlite, sqlite_env

ROOT = Path(__file__).resolve().parents[2]

TAMPER = """
import json, django
django.setup()
from django.db import DatabaseError, connection, transaction
from tables.models import Round

def attempt(sql, params=()):
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, list(params))
        return "allowed"
    except DatabaseError as exc:
        return str(exc)

r = Round.objects.filter(status="settled").select_related("shift").first()
out = {"settled_state": attempt("UPDATE tables_round SET state = '{}' WHERE id = %s", [r.pk]),
       "deleted_round": attempt("DELETE FROM tables_round WHERE id = %s", [r.pk]),
       "close": attempt("UPDATE tables_shift SET status = 'closed', closed_at = CURRENT_TIMESTAMP WHERE id = %s",
                        [r.shift_id])}
out["reopen"] = attempt("UPDATE tables_shift SET status = 'open', closed_at = NULL WHERE id = %s", [r.shift_id])
out["new_round"] = attempt("INSERT INTO tables_round (table_id, shift_id, number, game, config, status, dealer_id, "
                           "opened_at, void_reason) VALUES (%s, %s, 999, 'baccarat', '{}', 'open', %s, "
                           "CURRENT_TIMESTAMP, '')", [r.table_id, r.shift_id, r.dealer_id])
print(json.dumps(out))
"""


def test_the_embedded_mode_refuses_the_same_tampers(tmp_path, migrated_sqlite):
    env = sqlite_env(tmp_path)

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    fresh_sqlite(migrated_sqlite, tmp_path)  # as `manage.py migrate` leaves it
    run("manage.py", "demo", "--rounds", "2", "--quiet")
    out = json.loads(run("-c", TAMPER).strip().splitlines()[-1])
    assert out["close"] == "allowed"  # a shift closes forward
    assert "a settled or voided round is sealed" in out["settled_state"]
    assert "rounds are never deleted" in out["deleted_round"]
    assert "a closed shift is sealed" in out["reopen"]
    assert "a closed table shift is sealed" in out["new_round"]
