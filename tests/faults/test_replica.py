"""A real streaming replica of the test cluster (issue 20): the pit dashboard, a streamed CSV report and a
background export read from it, and the dashboard survives its loss by reading the primary.

The replica is made with ``pg_basebackup -R`` (a copy of the running cluster that follows it) into a
temporary directory and started with ``pg_ctl`` on a free port. The primary must accept replication
connections from the loopback (a ``host replication …`` line in pg_hba.conf, ``wal_level = replica`` and
``max_wal_senders`` > 0: PostgreSQL's defaults; docs/operations.md, "Streaming replicas in CI"). Where it
does not, the test is skipped and says which of these is missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection, connections
from django.db.utils import load_backend
from django.utils import timezone

from accounting.models import ExportStatus, ReportExport
from accounting.services.exports import export_run
from casino import dbrouter
from casino.devservers import _pg_bin, free_port
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.client import APIClient


class Replica:
    """A streaming replica of the cluster the tests' ``default`` database lives on."""

    def __init__(self, primary: dict) -> None:
        binaries = _pg_bin()
        if binaries is None or shutil.which("runuser") is None and os.geteuid() == 0:
            pytest.skip("no PostgreSQL server binaries to run a replica with")
        self.bin = binaries
        self.primary = primary
        self.port = free_port()
        self.slot = f"croupier_test_{uuid.uuid4().hex[:12]}"
        self.conninfo: dict = {}
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-replica-"))
        self.data = self.dir / "data"
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.dir, "postgres", "postgres")

    def _run(self, tool: str, *args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.as_owner, str(self.bin / tool), *args], capture_output=True, text=True,
                              timeout=timeout)

    def create(self) -> None:
        host, port = self.primary["HOST"] or "127.0.0.1", str(self.primary["PORT"] or 5432)
        # the role that set up the test database (postgres in CI), not the service role the suite runs as
        user = (self.primary.get("TEST", {}).get("PRIVILEGED") or {}).get("USER") or self.primary["USER"]
        # a replication slot of its own: the busy primary keeps the WAL the replica has not received yet
        self.conninfo = {"host": host, "port": int(port), "user": user, "dbname": "postgres"}
        made = self._run("pg_basebackup", "-h", host, "-p", port, "-U", user, "-D", str(self.data), "-R",
                         "-X", "stream", "-C", "-S", self.slot, "-c", "fast", "--no-sync")
        if made.returncode != 0:
            why = made.stderr.strip()
            if "no pg_hba.conf entry for replication" in why or "replication" in why and "not allowed" in why:
                pytest.skip(f"the test cluster refuses replication connections (add 'host replication {user} "
                            f"127.0.0.1/32 trust' to pg_hba.conf and reload; docs/operations.md): {why}")
            if "max_wal_senders" in why or "wal_level" in why:
                pytest.skip(f"the test cluster cannot stream WAL (wal_level = replica and max_wal_senders > 0 "
                            f"need a restart of the primary; docs/operations.md): {why}")
            raise RuntimeError(f"pg_basebackup failed: {why}")
        # Debian keeps the configuration outside the data directory: the copy gets a minimal one of its own
        (self.data / "postgresql.conf").write_text("hot_standby = on\n")
        (self.data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
        (self.data / "pg_ident.conf").write_text("")
        if self.as_owner:
            subprocess.run(["chown", "-R", "postgres:postgres", str(self.dir)], check=True)

    def start(self, timeout: float = 300) -> None:
        opts = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        started = self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-W", "start")
        if started.returncode != 0:
            raise RuntimeError(f"the replica did not start: {started.stderr}\n{self.log()}")
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(psycopg.OperationalError), psycopg.connect(
                    host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", connect_timeout=2):
                return
            time.sleep(1)
        if "consistent recovery state reached" in self.log():
            # Hot standby opens for reads once the primary logs a snapshot of its running transactions that is
            # complete; a transaction on the shared primary holding more than 64 subtransactions (savepoints)
            # keeps every snapshot incomplete until it ends.
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE xact_start < now() - interval '1 minute'")
                old = cursor.fetchone()[0]
            pytest.skip(f"the replica caught up but did not open for reads within {timeout:.0f} s: hot standby "
                        f"waits for a complete snapshot of the primary's running transactions ({old} transaction(s) "
                        f"open on the shared primary for over a minute)")
        raise RuntimeError(f"the replica did not open for reads within {timeout:.0f} s:\n{self.log()}")

    def log(self) -> str:
        path = self.dir / "log"
        return path.read_text()[-3000:] if path.exists() else ""

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)

    def destroy(self) -> None:
        import psycopg

        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.conninfo:  # the primary would keep its WAL for the slot for ever
            with contextlib.suppress(psycopg.Error), psycopg.connect(**self.conninfo, autocommit=True) as conn:
                conn.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                             "WHERE slot_name = %s", [self.slot])


@pytest.fixture
def replica(transactional_db, settings, monkeypatch) -> Iterator[Replica]:
    """A streaming replica as the ``replica`` alias, with the router and the middleware on.

    The alias is a connection made here rather than a settings entry: the test database's guard refuses
    connections to aliases the test did not declare when it began, and this one did not exist yet."""
    primary = connections["default"].settings_dict
    server = Replica(primary)
    try:
        server.create()
        server.start()
        alias = {**primary, "HOST": "127.0.0.1", "PORT": server.port, "CONN_MAX_AGE": 0,
                 "OPTIONS": {**primary.get("OPTIONS", {}), "connect_timeout": 2}, "TEST": {"MIRROR": "default"}}
        connections["replica"] = load_backend(alias["ENGINE"]).DatabaseWrapper(alias, "replica")
        monkeypatch.setattr(dbrouter, "replica_aliases", lambda: ["replica"])
        settings.DATABASE_ROUTERS = ["casino.dbrouter.ReplicaRouter"]
        settings.MIDDLEWARE = [*settings.MIDDLEWARE, "casino.dbrouter.ReplicaReadsMiddleware"]
        settings.DATABASE_REPLICA_PATHS = ["/pit/", "/reports/", "/api/accounting/reports/"]
        dbrouter._down.clear()
        yield server
    finally:
        with contextlib.suppress(Exception):
            connections["replica"].close()
        with contextlib.suppress(Exception):
            del connections["replica"]
        dbrouter._down.clear()
        server.destroy()


def caught_up(server: Replica, timeout: float = 60) -> None:
    """Wait until the replica has replayed everything the primary has written so far."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        target = cursor.fetchone()[0]
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            with connections["replica"].cursor() as cursor:
                cursor.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])
                last = cursor.fetchone()[0]
                if last:
                    return
        except Exception as exc:  # noqa: BLE001 (still starting: try again)
            last = exc
            connections["replica"].close()
        time.sleep(0.2)
    log = (server.dir / "log").read_text()[-3000:] if (server.dir / "log").exists() else ""
    raise TimeoutError(f"the replica did not catch up with the primary: {last!r}\n{log}")


@contextlib.contextmanager
def counting(alias: str) -> Iterator[list[str]]:
    """The statements run on ``alias`` meanwhile."""
    seen: list[str] = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connections[alias].execute_wrapper(wrapper):
        yield seen


def test_the_dashboard_reports_and_exports_read_a_real_replica_and_survive_its_loss(replica, floor):
    # given a settled round at BAC1, replayed on the replica
    play_round(floor.table, floor.dealer, [(1, "banker", 2500)], BANKER_WINS)
    caught_up(replica)
    with connections["replica"].cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery()")
        assert cursor.fetchone()[0] is True  # a standby, read-only
    pit = APIClient()
    pit.force_login(floor.manager)

    # when the pit manager opens the dashboard
    with counting("replica") as on_replica, counting("default") as on_primary:
        page = pit.get("/pit/")
    # then it is served, with the table, from the replica (only who is asking is read on the primary)
    assert page.status_code == 200
    assert "BAC1" in page.content.decode()
    assert len(on_replica) > len(on_primary) > 0

    # and the accountant's streamed CSV report reads the replica while it streams
    books = APIClient()
    books.force_login(floor.accountant)
    with counting("replica") as on_replica:
        answer = books.get("/api/accounting/reports/revenue/", {"format": "csv", "shift": floor.shift.pk})
        csv = b"".join(answer.streaming_content).decode("utf-8-sig")
    assert answer.status_code == 200
    assert csv.splitlines()[1].startswith("Gaming date,Shift")  # after the preamble (what the report covers)
    assert len(csv.strip().splitlines()) >= 2  # the header and the shift's row
    assert on_replica

    # and a background export builds its file from the replica, writing its own row on the primary
    export = ReportExport.objects.create(report="revenue", format="csv", filters={"shift": floor.shift.pk},
                                         requested_by=floor.accountant, created_at=timezone.now())
    with counting("replica") as on_replica:
        done = export_run(export_id=export.pk)
    assert done.status == ExportStatus.DONE
    assert done.file.name
    assert on_replica

    # when the replica is lost (stopped at once, as a crash would)
    replica.stop()
    with counting("default") as on_primary:
        page = pit.get("/pit/")
    # then the dashboard is still served, from the primary, and the lost replica is left alone for a while
    assert page.status_code == 200
    assert "BAC1" in page.content.decode()
    assert on_primary
    assert "replica" in dbrouter._down
    assert dbrouter.replica_alias() is None
    # and so is the next report, and the next export
    answer = books.get("/api/accounting/reports/revenue/", {"format": "csv", "shift": floor.shift.pk})
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content).decode("utf-8-sig") == csv
    again = ReportExport.objects.create(report="revenue", format="csv", filters={"shift": floor.shift.pk},
                                        requested_by=floor.accountant, created_at=timezone.now())
    assert export_run(export_id=again.pk).status == ExportStatus.DONE
