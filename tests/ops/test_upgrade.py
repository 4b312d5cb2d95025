"""The upgrade as docs/operations.md writes it: ``deploy/upgrade.sh``, as the documented roles, while the old
web process keeps serving.

A scratch database is installed as the docs say (``db_setup`` with the administrator's URL: an owner and a
service role of its own). The old code (``casino.settings``) serves it under gunicorn; the "new release" is
the same code plus a test-only app with a new migration (``tests.ops.upgrade_release``). The test runs the
upgrade script exactly as documented, only pointed at the test's own files (environment, owner's URL,
backup folder) and with ``SYSTEMCTL`` standing for systemd: it reloads the test's gunicorn with the same
SIGHUP ``croupier-web.service``'s ``ExecReload`` sends.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import psycopg
import pytest

from bench.common import ROOT, SHARED_PG, VENV_BIN, Process, free_port, unique_name, wait_until
from tests.faults.helpers import http_get

pytestmark = pytest.mark.slow
ADMIN = f"{SHARED_PG}/postgres"


def _env_file(path: Path, values: dict[str, str]) -> Path:
    path.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    return path


def _web(env: dict[str, str], port: int, log: Path) -> Process:
    web = Process([str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "casino" / "gunicorn.conf.py"),
                   "casino.wsgi:application"], env={**env, "PORT": str(port), "HOST": "127.0.0.1"}, log=log)

    def up() -> bool:
        assert web.alive(), web.log()
        with contextlib.suppress(OSError):
            return http_get(port, "/health/live")[0] == 200
        return False

    wait_until(up, timeout=90, what="gunicorn to answer")
    return web


class Traffic(threading.Thread):
    """Requests that read the database (/metrics) and the load balancer's probe, one after another."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.answers: list[int | str] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for path in ("/metrics", "/health/serve"):
                try:
                    self.answers.append(http_get(self.port, path)[0])
                except OSError as exc:
                    self.answers.append(type(exc).__name__)
            time.sleep(0.05)


@pytest.fixture
def scratch(tmp_path):
    """A database installed as the docs say, with an owner and a service role of its own; dropped afterwards."""
    name = unique_name("croupier_upgrade")
    owner, service = f"{name}_owner", f"{name}_app"
    urls = {"DATABASE_ADMIN_URL": ADMIN, "DATABASE_OWNER_URL": f"{SHARED_PG.replace('postgres@', owner + '@')}/{name}",
            "DATABASE_URL": f"{SHARED_PG.replace('postgres@', service + '@')}/{name}"}
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_", "CELERY_", "REDIS_"))}
    try:
        done = subprocess.run([str(VENV_BIN / "python"), "manage.py", "db_setup", "-v0"], cwd=ROOT,
                              env={**base, **urls, "DJANGO_SETTINGS_MODULE": "casino.settings"},
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        yield {"name": name, "owner": owner, "service": service, **urls, "base": base}
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            for role in (service, owner):
                conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_the_documented_upgrade_applies_a_new_migration_while_the_old_web_keeps_serving(scratch, tmp_path):
    # given the service's environment file (as /etc/croupier/croupier.env) and the owner's (as owner.env)
    common = {"DATABASE_URL": scratch["DATABASE_URL"], "DEBUG": "false", "LOG_LEVEL": "WARNING",
              "STATIC_ROOT": str(tmp_path / "static"), "AUDIT_ANCHOR_DIR": str(tmp_path / "anchors"),
              "OPS_WATCH_EVERY": "0", "WEB_CONCURRENCY": "1"}  # one worker per web: a reload still overlaps two
    old_env = {**scratch["base"], **common, "DJANGO_SETTINGS_MODULE": "casino.settings",
               "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prom-old")}
    # the new release's code: the same environment file, its settings naming the release's new app
    new_values = {**common, "DJANGO_SETTINGS_MODULE": "tests.ops.upgrade_release.settings",
                  "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prom-new"), "PYTHONPATH": str(ROOT)}
    env_file = _env_file(tmp_path / "croupier.env", new_values)
    owner_file = _env_file(tmp_path / "owner.env", {"DATABASE_OWNER_URL": scratch["DATABASE_OWNER_URL"]})
    # and the old code serving the floor, and a web process of the new code started before the upgrade
    old_port, new_port = free_port(), free_port()
    old = _web(old_env, old_port, tmp_path / "old.log")
    new = _web({**scratch["base"], **new_values}, new_port, tmp_path / "new.log")
    calls = tmp_path / "systemctl.calls"
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n'
                         f'if [ "$*" = "reload croupier-web.service" ]; then kill -HUP {old.process.pid}; fi\n')
    systemctl.chmod(0o755)
    traffic = Traffic(old_port)
    try:
        # (the step the docs used to give, `manage.py migrate` in the service's environment, fails: the service
        # role may create nothing)
        wrong = subprocess.run([str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput"], cwd=ROOT,
                               env={**scratch["base"], **new_values}, capture_output=True, text=True, timeout=300)
        assert wrong.returncode != 0
        assert "permission denied" in wrong.stderr
        status, body = http_get(new_port, "/health/serve")
        # then the new code is not ready before its migration ran: the load balancer keeps it out
        assert status == 503, body
        assert json.loads(body)["checks"]["database"]["migrations_pending"] == 1
        traffic.start()
        # when the upgrade runs, exactly as documented, while the old web serves requests
        done = subprocess.run(
            ["sh", str(ROOT / "deploy" / "upgrade.sh")], cwd=tmp_path, capture_output=True, text=True, timeout=900,
            env={**scratch["base"], "CROUPIER_HOME": str(ROOT), "CROUPIER_ENV": str(env_file),
                 "CROUPIER_OWNER_ENV": str(owner_file), "BACKUP_DIR": str(tmp_path / "backups"), "RUN_AS": "",
                 "SYSTEMCTL": str(systemctl)})
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        time.sleep(2)  # a few more requests after the graceful reload
        traffic.done.set()
        traffic.join(30)
        # then the old web answered every request throughout: the migration, the backup and the reload
        assert traffic.answers, "no request was made"
        assert set(traffic.answers) == {200}, [a for a in traffic.answers if a != 200][:10]
        assert old.alive()
        # and a backup was taken first: its manifest has the old migrations, not the release's
        [backup] = (tmp_path / "backups").iterdir()
        manifest = json.loads((backup / "manifest.json").read_text())
        applied = json.dumps(manifest["migrations"])
        assert "casino" in applied or "core" in applied
        assert "upgrade_release" not in applied
        assert oct((backup / "database.dump").stat().st_mode & 0o777) == "0o600"  # UMask 0077
        # and the migration ran as the owner: the new table is the owner's, and the service may use it
        with psycopg.connect(scratch["DATABASE_URL"]) as conn:
            table_owner = conn.execute("SELECT tableowner FROM pg_tables WHERE tablename = "
                                       "'upgrade_release_releasenote'").fetchone()
            assert table_owner == (scratch["owner"],)
            conn.execute("INSERT INTO upgrade_release_releasenote (text, created_at) VALUES ('hello', now())")
            assert conn.execute("SELECT count(*) FROM upgrade_release_releasenote").fetchone() == (1,)
        # and the processes were restarted one after the other, web gracefully first
        assert calls.read_text().splitlines() == ["reload croupier-web.service", "restart croupier-worker.service",
                                                  "restart croupier-beat.service"]
        # and the new code's web process is ready now
        status, body = http_get(new_port, "/health/serve")
        assert status == 200, body
        assert "upgrade: 1/4 backup" in done.stderr
        assert "upgrade: 4/4 processes" in done.stderr
    finally:
        traffic.done.set()
        old.stop(signal.SIGTERM)
        new.stop(signal.SIGTERM)

