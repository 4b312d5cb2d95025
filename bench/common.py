"""What the benchmarks and the load-fault tests share: servers started on loopback, an HTTP client,
percentiles. Not a benchmark itself (``make bench`` skips it).

Everything listens on 127.0.0.1 only, runs for a bounded time and is stopped by whoever started it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import http.client
import json
import os
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
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# the throwaway servers are the service's dev tools; the benches and fault tests take them from here
from casino.devservers import ThrowawayPostgres, ThrowawayRedis, free_port, unique_name  # noqa: E402,F401

VENV_BIN = Path(sys.executable).parent
# the server the benchmarks make their databases on (a role that may create databases); the tests pass their own
SHARED_PG = os.environ.get("BENCH_SERVER_URL", "postgres://postgres@127.0.0.1:5432")


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

def create_database(prefix: str, *, keep: bool = False) -> str:
    """A new database on the shared server, named ``prefix`` plus a random suffix, so that two runs on
    one machine never share (or drop) each other's; dropped when this process exits unless ``keep``.
    With ``BENCH_TEMPLATE_DATABASE`` (the test suite's migrated template, tests/test_benchmarks.py) it is a
    copy of that database, so the migrations that follow have nothing left to do. Returns its URL."""
    import psycopg

    name = unique_name(prefix)
    template = os.environ.get("BENCH_TEMPLATE_DATABASE")
    with psycopg.connect(f"{SHARED_PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    url = f"{SHARED_PG}/{name}"
    if keep:
        print(f"keeping the database {url}", flush=True)
    else:
        atexit.register(drop_database, url)
    return url


def drop_database(url: str) -> None:
    """Drop a database this run created (:func:`create_database`), closing this process's connections first."""
    import psycopg

    with contextlib.suppress(ImportError):
        from django.db import connections

        connections.close_all()
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        # FORCE only ever on our own, uniquely named database: its sessions are this run's
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
    """The service as deployed (casino/gunicorn.conf.py, the Procfile's and systemd's settings), on loopback with
    ``workers`` processes of ``threads`` threads each (more than one: gunicorn's threaded worker, which keeps a
    client's connection open between its requests, as a tablet's is); its metrics in a directory of its own."""
    metrics = Path(tempfile.mkdtemp(prefix="croupier-bench-metrics-"))
    env = {**env, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": str(workers), "WEB_THREADS": str(threads),
           "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    proc = Process([str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "casino" / "gunicorn.conf.py"), "casino.wsgi:application",
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

@functools.cache
def password_hash(password: str) -> str:
    """The seeded people's password, hashed once per run: the service's hasher is slow on purpose (a second or
    more per hash on a loaded machine), and hashing it again for each of two dozen dealers measures nothing.
    Runs inside ``django.setup()``."""
    from django.contrib.auth.hashers import make_password

    return make_password(password)


def migrate() -> None:
    """The configured database migrated, in this process (inside ``django.setup()``): no second interpreter
    to start and set Django up in. A copy of the suite's migrated template (``BENCH_TEMPLATE_DATABASE``) has
    nothing to apply; the command still checks that."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)

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
        u = user_model.objects.create(username=name, password=password_hash(password))
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
    """``database_url`` migrated and :func:`seed_floor` run in it, in one subprocess."""
    code = ("import json, django; django.setup(); from bench.common import migrate, seed_floor; migrate(); "
            f"print(json.dumps(seed_floor(json.loads({json.dumps(json.dumps(tables))}))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=service_env(database_url), capture_output=True,
                          text=True, timeout=600)  # a first migration on a loaded machine takes minutes
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def create_baseline_table(database_url: str) -> None:
    """The table the bare baseline endpoint (casino/bench.py: one authenticated INSERT) writes to."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, user_id bigint NOT NULL, "
                     "created_at timestamptz NOT NULL)")
