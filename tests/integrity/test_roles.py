"""Least privilege (issue: "the application connects as a superuser / the tables' owner"): ``db_setup`` makes
an owner that migrates and a service that cannot TRUNCATE, ALTER or DELETE records, idempotently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.dbbackend.base import privileged_conninfo

ROOT = Path(__file__).resolve().parents[2]


def _url(user: str, host: str, port: str, name: str) -> str:
    return f"postgres://{user}@{host}:{port}/{name}"


@pytest.mark.slow
def test_db_setup_makes_an_owner_and_a_least_privileged_service_idempotently(db):
    # given a privileged role (the suite's) and names for a database and two roles of this test's own
    sd = connection.settings_dict
    admin = privileged_conninfo(sd, "postgres")
    host, port = admin.get("host", "127.0.0.1"), str(admin.get("port", 5432))
    name = f"{sd['TEST']['NAME']}_dbsetup"[:60]
    owner, service = f"{name}_owner", f"{name}_app"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update({"DJANGO_SETTINGS_MODULE": "casino.settings", "PYTHONPATH": str(ROOT),
                "DATABASE_ADMIN_URL": _url(admin["user"], host, port, "postgres"),
                "DATABASE_OWNER_URL": _url(owner, host, port, name), "DATABASE_URL": _url(service, host, port, name)})

    def setup(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", "db_setup", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=900)

    try:
        # when it runs twice (a deployment, then the next one)
        first, second = setup(), setup()
        # then both succeed and say the service is least-privileged
        assert first.returncode == 0, first.stderr[-3000:]
        assert second.returncode == 0, second.stderr[-3000:]
        assert f"the service role {service} is least-privileged" in second.stdout
        assert setup("--check").returncode == 0
        # and the service reads and writes records but can neither TRUNCATE, ALTER, DELETE a record nor turn a
        # guard off; the owner owns every table
        with psycopg.connect(**{**admin, "dbname": name, "user": service}, autocommit=True) as conn:
            conn.execute("SELECT count(*) FROM tables_round")
            for sql in ("TRUNCATE audit_auditrecord", "DELETE FROM accounting_slip", "ALTER TABLE tables_round "
                        "DISABLE TRIGGER USER", "SET session_replication_role = replica",
                        "CREATE TABLE mine (id int)", "UPDATE audit_auditrecord SET action = 'x'"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(sql)
        with psycopg.connect(**{**admin, "dbname": name}, autocommit=True) as conn:
            owners = conn.execute("SELECT DISTINCT pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n "
                                  "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'").fetchall()
            assert owners == [(owner,)]
    finally:
        with psycopg.connect(**admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            for role in (service, owner):
                conn.execute(f'DROP ROLE IF EXISTS "{role}"')
