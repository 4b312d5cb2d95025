"""The embedded mode keeps the audit records in one plain table: the partitioning migration, the partition job
and verification work there too, and archiving a month says it needs PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.fixtures import fresh_sqlite, sqlite_env

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import json, django
django.setup()
from django.db import connection, transaction
from casino.audit.models import AuditRecord, ChainHead
from casino.audit.services import audit_log
from casino.audit.tasks import audit_partitions
from casino.audit.verification import audit_verify
for i in range(3):
    with transaction.atomic():
        audit_log(actor=None, action="test.note", object_type="note", object_id=i)
with connection.cursor() as cursor:
    cursor.execute("SELECT type FROM sqlite_master WHERE name = 'audit_auditrecord'")
    kind = cursor.fetchone()[0]
try:
    with transaction.atomic():
        AuditRecord.objects.filter(seq=1).update(action="x")
    update = "allowed"
except Exception as exc:
    update = str(exc)
print(json.dumps({"kind": kind, "records": AuditRecord.objects.count(), "heads": ChainHead.objects.count(),
                  "made": audit_partitions.apply().get(), "ok": audit_verify().ok, "update": update}))
"""


def test_sqlite_keeps_one_plain_table_of_records(tmp_path, migrated_sqlite):
    # given a fresh SQLite database, migrated as `make run` migrates it
    env = sqlite_env(tmp_path)

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert (done.returncode == 0) is ok, done.stderr[-3000:]
        return done

    fresh_sqlite(migrated_sqlite, tmp_path)  # (migrated once per run: tests/fixtures.py)
    # when records are written, the partition job runs and the trail is verified
    out = json.loads(run("-c", CHECK).stdout.strip().splitlines()[-1])
    # then the records are one plain table, still append-only, verified; the job has nothing to make
    assert out == {"kind": "table", "records": 3, "heads": 0, "made": [], "ok": True,
                   "update": "audit records are append-only: UPDATE refused on audit_auditrecord"}
    # and archiving a month says what it needs
    refused = run("manage.py", "archive_month", "2026-01", ok=False)
    assert "archiving months needs PostgreSQL" in refused.stderr
