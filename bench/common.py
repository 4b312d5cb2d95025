"""What the benchmarks and the load-fault tests share: servers started on loopback, an HTTP client,
percentiles. Not a benchmark itself (``make bench`` skips it).

Everything listens on 127.0.0.1 only, runs for a bounded time and is stopped by whoever started it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
SHARED_PG = "postgres://postgres@127.0.0.1:5432"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check: Any, *, timeout: float, what: str, every: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation): the value at or below which ``pct`` % of them lie."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * pct // 100)))
    return ordered[int(rank) - 1]


def manage(*args: str, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def service_env(database_url: str, **more: str) -> dict[str, str]:
    """The service's environment for a subprocess: development mode, DEBUG off, the given database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PYTEST", "DJANGO_SETTINGS"))}
    env.update({"DJANGO_SETTINGS_MODULE": "casino.settings", "DATABASE_URL": database_url, "DEBUG": "false",
                "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)})
    env.update(more)
    return env


# -- PostgreSQL ---------------------------------------------------------------------------------

def create_database(name: str) -> str:
    """A fresh database on the shared server (dropped first if it exists); returns its URL."""
    import psycopg

    with psycopg.connect(f"{SHARED_PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{SHARED_PG}/{name}"


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of our own under /tmp on a free port, which a test may stop and start.

    The machine's shared cluster is never touched. As root, the server runs as the ``postgres`` user.
    """

    def __init__(self) -> None:
        self.bin = _pg_bin()
        if self.bin is None:
            raise FileNotFoundError("no PostgreSQL server binaries under /usr/lib/postgresql")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
        self.data = self.dir / "data"
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin / tool), *args], check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def start(self) -> None:
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{self.url}/{name}"

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


# -- processes ----------------------------------------------------------------------------------

class Process:
    """A subprocess in its own process group, its output in a log file; stopped with the whole group."""

    def __init__(self, argv: list[str], *, env: dict[str, str], log: Path) -> None:
        self.log_path = log
        self._log = open(log, "w")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


def gunicorn(*, env: dict[str, str], port: int, workers: int, log: Path, threads: int = 1) -> Process:
    proc = Process([str(VENV_BIN / "gunicorn"), "casino.wsgi:application", "--bind", f"127.0.0.1:{port}",
                    "--workers", str(workers), "--threads", str(threads), "--timeout", "60",
                    "--graceful-timeout", "5"], env=env, log=log)

    def up() -> bool:
        if not proc.alive():
            raise RuntimeError(f"gunicorn exited:\n{proc.log()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
        return False

    wait_until(up, timeout=60, what="gunicorn to listen")
    return proc


def celery_worker(*, env: dict[str, str], queue: str, log: Path, concurrency: int = 1) -> Process:
    return Process([str(VENV_BIN / "celery"), "-A", "casino", "worker", "--pool", "prefork", "--concurrency",
                    str(concurrency), "--queues", queue, "--loglevel", "WARNING", "--without-gossip",
                    "--without-mingle", "--without-heartbeat", "--hostname", f"{queue}@%h"], env=env, log=log)


# -- HTTP ---------------------------------------------------------------------------------------

@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]
    seconds: float


class Api:
    """A keep-alive JSON client for one simulated tablet (not thread-safe: one per thread)."""

    def __init__(self, port: int, *, token: str | None = None, device: str = "") -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        if device:
            self.headers["X-Device-Id"] = device
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, *, key: str | None = None) -> Answer:
        headers = dict(self.headers)
        if key is not None:
            headers["Idempotency-Key"] = key
        payload = json.dumps(body).encode() if body is not None else None
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - started
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = raw.decode(errors="replace")
            return Answer(response.status, data, {k.lower(): v for k, v in response.getheaders()}, seconds)
        raise AssertionError("unreachable")

    def post(self, path: str, body: Any = None, *, key: str | None = None) -> Answer:
        return self.request("POST", path, body if body is not None else {}, key=key)

    def get(self, path: str) -> Answer:
        return self.request("GET", path)


def new_key() -> str:
    return uuid.uuid4().hex


@contextlib.contextmanager
def stopping(*processes: Process) -> Iterator[None]:
    try:
        yield
    finally:
        for proc in processes:
            proc.stop()


# -- a floor to play on ---------------------------------------------------------------------------

def seed_floor(tables: list[dict[str, Any]], *, password: str = "bench-pass") -> dict[str, Any]:
    """In the configured database: a pit, the given tables (code, game, config?), an open shift, one
    dealer per table assigned to it, a pit manager; returns the tables' ids and everyone's API tokens.
    Runs inside ``django.setup()`` (see :func:`seed_in`)."""
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from casino.core.models import StaffProfile
    from casino.core.roles import Role
    from tables.models import Assignment, Pit, Shift, ShiftType, Table

    user_model = get_user_model()

    def user(name: str, role: Role) -> Any:
        u = user_model.objects.create_user(username=name, password=password)
        u.groups.add(Group.objects.get_or_create(name=role.value)[0])
        StaffProfile.objects.create(user=u, employee_id=f"E-{name}", display_name=name)
        return u

    with transaction.atomic():
        manager = user("pitboss", Role.PIT_MANAGER)
        pit = Pit.objects.create(code="main", name="Main pit")
        pit.managers.add(manager)
        now = timezone.now()
        shift_type = ShiftType.objects.create(code="day", name="Day", starts=dt.time(0), ends=dt.time(23, 59))
        shift = Shift.objects.create(shift_type=shift_type, gaming_date=now.date(), starts_at=now - dt.timedelta(hours=1),
                                     ends_at=now + dt.timedelta(hours=12), opened_by=manager)
        out: dict[str, Any] = {"tables": {}, "tokens": {}, "pitboss": Token.objects.create(user=manager).key}
        for spec in tables:
            table = Table.objects.create(code=spec["code"], name=spec["code"], pit=pit, game=spec["game"],
                                         config=spec.get("config", {}), min_bet=500, max_bet=500_000, seats=7,
                                         status="open")
            dealer = user(f"dealer-{spec['code'].lower()}", Role.DEALER)
            Assignment.objects.create(dealer=dealer, table=table, shift=shift, starts_at=shift.starts_at,
                                      ends_at=shift.ends_at, assigned_by=manager)
            out["tables"][spec["code"]] = table.pk
            out["tokens"][spec["code"]] = Token.objects.create(user=dealer).key
    return out


def seed_in(database_url: str, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """:func:`seed_floor` in a subprocess against ``database_url`` (which must be migrated)."""
    code = ("import json, django; django.setup(); from bench.common import seed_floor; "
            f"print(json.dumps(seed_floor(json.loads({json.dumps(json.dumps(tables))}))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=service_env(database_url), capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])
