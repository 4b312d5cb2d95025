"""The floor under mixed load: tables at dealer pace through the REST API while pit dashboards refresh, an
accountant exports the month and the audit verification runs; each one's figure alone and together.

Run from the repository root: ``python bench/mixed.py [--tables 1000] [--seconds 60] [--round-seconds 45]
[--dashboards 10] [--workers 4]``. It creates a PostgreSQL database of its own (``croupier_bench_mixed_<random>``,
dropped at the end unless ``--keep``; ``BENCH_DATABASE_URL`` for another), migrates it and seeds ``--tables``
tables (half baccarat, half blackjack) with a dealer and an API token each, split among ``--dashboards`` pits
with a pit manager each, and an accountant. It starts on loopback gunicorn (``--workers`` sync workers) and a
Celery worker on a queue of its own (a throwaway Redis server, or ``BENCH_REDIS_URL``), as ``bench/api.py`` does.
Four loads, each first alone, then all four at once for ``--seconds``:

* **the floor**: one simulated tablet per table (``bench/api.py``'s), playing whole rounds at dealer pace: a round
  every ``--round-seconds`` or so (about a dozen taps, each after ``--round-seconds`` ÷ 12 ± 50 %), the tables
  starting at random moments of a round; measured: the card posts' p99;
* **the pit**: ``--dashboards`` pit managers, each with a session, refresh their pit's live part every 3 s as
  the browser does (``GET /pit/live/`` with the ETag of the last answer: a 304 when nothing changed); measured:
  the refreshes' p95 (200s and 304s together), and the share answered 304;
* **the accountant**: the month's settled-bets report exported as CSV (``GET /api/accounting/reports/bets/
  ?format=csv`` over the last 30 gaming days, streamed, read to the end); measured: its seconds;
* **the auditor**: ``manage.py verify_audit --full`` (every chain from its first record), in a process of its own
  that set Django up before; measured: its seconds.

Alone means the load alone on the service, in the same run, on the same database, just before. The ratios are
together ÷ alone. Targets: card post p99 < 10 ms and dashboard p95 < 50 ms under the mixed load. The last line is
one JSON object.
"""

from __future__ import annotations

import argparse
import atexit
import datetime as dt
import gc
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import Tablet, summarize  # noqa: E402
from bench.common import (  # noqa: E402
    ThrowawayRedis,
    celery_worker,
    create_database,
    free_port,
    gunicorn,
    service_env,
)

CARD_TARGET_MS = 10.0
DASHBOARD_TARGET_MS = 50.0
REFRESH_EVERY = 3.0
TAPS_PER_ROUND = 12


def seed_mixed(specs: list[dict[str, Any]], pits: int) -> dict[str, Any]:
    """In the configured database (inside ``django.setup()``): :func:`bench.common.seed_floor`'s floor, its tables
    split among ``pits`` pits with a pit manager and a session each, and an accountant with an API token."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.models import Group
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from bench.common import migrate, password_hash, seed_floor
    from casino.core.models import StaffProfile
    from casino.core.roles import Role
    from tables.models import Pit, Table

    migrate()
    floor = seed_floor(specs)
    users = get_user_model().objects

    def person(name: str, role: Role) -> Any:
        u = users.create(username=name, password=password_hash("bench-pass"))
        u.groups.add(Group.objects.get_or_create(name=role.value)[0])
        StaffProfile.objects.create(user=u, employee_id=f"E-{name}", display_name=name)
        return u

    sessions = []
    with transaction.atomic():
        codes = sorted(floor["tables"])
        for p in range(pits):
            pit = Pit.objects.create(code=f"pit{p + 1}", name=f"Pit {p + 1}")
            manager = person(f"pitboss{p + 1}", Role.PIT_MANAGER)
            pit.managers.add(manager)
            Table.objects.filter(code__in=codes[p::pits]).update(pit=pit)
            session = SessionStore()
            session[SESSION_KEY] = str(manager.pk)
            session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
            session[HASH_SESSION_KEY] = manager.get_session_auth_hash()
            session.create()
            sessions.append(session.session_key)
        accountant = person("accountant", Role.ACCOUNTANT)
        floor["accountant"] = Token.objects.create(user=accountant).key
    floor["sessions"] = sessions
    floor["cookie"] = settings.SESSION_COOKIE_NAME
    return floor


def seed(url: str, specs: list[dict[str, Any]], pits: int) -> dict[str, Any]:
    code = ("import json, django; django.setup(); from bench.mixed import seed_mixed; "
            f"print(json.dumps(seed_mixed(json.loads({json.dumps(json.dumps(specs))}), {pits})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=service_env(url), capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class FloorTablet(Tablet):
    """``bench/api.py``'s tablet, starting at a random moment of a round so that the tables do not tap together."""

    def run(self) -> None:
        if self.stop_event.wait(self.rng.uniform(0, self.pace * TAPS_PER_ROUND)):
            return
        super().run()


class Dashboard(threading.Thread):
    """A pit manager's browser on the pit dashboard: the live part every 3 s, with the last answer's ETag."""

    def __init__(self, port: int, cookie: str, session: str, stop: threading.Event, measuring: threading.Event,
                 seed: int) -> None:
        super().__init__(daemon=True, name=f"dashboard-{seed}")
        self.port, self.stop_event, self.measuring = port, stop, measuring
        self.headers = {"Cookie": f"{cookie}={session}", "HX-Request": "true", "Accept": "text/html"}
        self.rng = random.Random(seed)
        self.latency: list[float] = []
        self.unchanged = 0
        self.errors: list[str] = []

    def refresh(self, etag: str) -> tuple[str, float]:
        """One refresh with the ETag held (none at first): the new ETag and the seconds it took."""
        started = time.perf_counter()
        headers = {**self.headers, **({"If-None-Match": etag} if etag else {})}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", "/pit/live/", headers=headers)
            answer = conn.getresponse()
            answer.read()
        finally:
            conn.close()
        seconds = time.perf_counter() - started
        if answer.status not in (200, 304):
            raise RuntimeError(f"/pit/live/ → {answer.status}")
        if self.measuring.is_set():
            self.latency.append(seconds * 1000)
            self.unchanged += answer.status == 304
        return answer.getheader("ETag") or etag, seconds

    def run(self) -> None:
        etag = ""
        if self.stop_event.wait(self.rng.uniform(0, REFRESH_EVERY)):
            return
        while not self.stop_event.is_set():
            try:
                etag, seconds = self.refresh(etag)
            except (OSError, http.client.HTTPException, RuntimeError) as exc:
                self.errors.append(str(exc)[:200])
                if len(self.errors) > 20:
                    return
                continue
            self.stop_event.wait(max(0.0, REFRESH_EVERY - seconds))


def figures_of(values: list[float]) -> dict[str, Any]:
    """n, p50, p95 and p99 (``bench/api.py``'s), None where nothing was timed (a machine too busy to reach a card
    in a short run)."""
    return dict(summarize(values)) if values else {"n": 0, "p50": None, "p95": None, "p99": None}


def export_month(port: int, token: str) -> float:
    """The month's settled bets as the accountant downloads them: the streamed CSV read to the end; its seconds."""
    today = dt.datetime.now(dt.UTC).date()  # the gaming dates around it: the last 30 and the one under way
    path = (f"/api/accounting/reports/bets/?format=csv&date_from={today - dt.timedelta(days=30)}"
            f"&date_to={today + dt.timedelta(days=1)}")
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("GET", path, headers={"Authorization": f"Token {token}"})
    answer = conn.getresponse()
    size = len(answer.read())
    conn.close()
    if answer.status != 200 or not size:
        raise RuntimeError(f"the month's export → {answer.status}")
    return time.perf_counter() - started


VERIFIER = """
import sys, time, django
django.setup()
from django.core.management import call_command
for line in sys.stdin:
    started = time.perf_counter()
    call_command("verify_audit", "--full", stdout=sys.stderr)
    print(time.perf_counter() - started, flush=True)
"""


class Verifier:
    """The full audit verification (``verify_audit --full``, what the weekly job runs) in a process of its own,
    Django set up once: each :meth:`run` walks every chain again and gives its seconds (not the start's)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self._log = open(log, "w")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen([sys.executable, "-c", VERIFIER], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self._log, text=True)

    def run(self) -> float:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write("verify\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the verification failed: see {self._log.name}")
        return float(answer)

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(60)
        self._log.close()


def _shown(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long each phase is measured (default 60)")
    parser.add_argument("--round-seconds", type=float, default=45.0,
                        help="a table's round, from open to settle, at dealer pace (default 45)")
    parser.add_argument("--dashboards", type=int, default=10, help="pit managers refreshing, one pit each")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before each phase is measured (default: a round, at most 30)")
    parser.add_argument("--keep", action="store_true", help="leave the database for inspection")
    args = parser.parse_args()
    pace = args.round_seconds / TAPS_PER_ROUND
    warmup = args.warmup if args.warmup is not None else min(30.0, args.round_seconds)

    url = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_mixed", keep=args.keep)
    redis_url = os.environ.get("BENCH_REDIS_URL")
    if not redis_url:
        redis = ThrowawayRedis()
        redis.start()
        atexit.register(redis.destroy)
        redis_url = redis.url()
    queue = f"croupier-bench-{uuid.uuid4().hex[:8]}"
    logs = Path(tempfile.mkdtemp(prefix="croupier-bench-mixed-"))
    print(f"database {url}; broker {redis_url} queue {queue}; logs in {logs}", flush=True)
    specs = [{"code": f"BAC{i + 1}", "game": "baccarat"} if i % 2 == 0 else {"code": f"BJ{i + 1}", "game": "blackjack"}
             for i in range(args.tables)]
    started = time.perf_counter()
    floor = seed(url, specs, args.dashboards)
    print(f"{args.tables} tables in {args.dashboards} pits seeded in {time.perf_counter() - started:.0f} s", flush=True)

    env = service_env(url, CELERY_BROKER_URL=redis_url, CELERY_QUEUE=queue, DB_CONN_MAX_AGE="600")
    worker = celery_worker(env=env, queue=queue, log=logs / "worker.log")
    port = free_port()
    web = gunicorn(env=env, port=port, workers=args.workers, log=logs / "gunicorn.log")
    verifier = Verifier(env, logs / "verify.log")
    verifier.run()  # Django set up and the chains read once before anything is timed
    # each worker's first requests import and build what later ones reuse: made once before anything is timed
    for _ in range(args.workers):
        export_month(port, floor["accountant"])
    idle = threading.Event()  # never set: nothing of the warming is measured
    for i, session in enumerate(floor["sessions"]):
        Dashboard(port, floor["cookie"], session, idle, idle, seed=i).refresh("")
    gc.collect()
    gc.disable()  # the client's collections would stop every thread at once and count as the service's latency
    errors: list[str] = []
    try:
        def phase(*, floor_on: bool, pit_on: bool, export_on: bool, verify_on: bool, label: str) -> dict[str, Any]:
            stop, measuring = threading.Event(), threading.Event()
            tablets = [FloorTablet(port, floor["tokens"][s["code"]], s["code"], floor["tables"][s["code"]], s["game"],
                                   seed=i, stop=stop, measuring=measuring, pace=pace)
                       for i, s in enumerate(specs)] if floor_on else []
            boards = [Dashboard(port, floor["cookie"], session, stop, measuring, seed=i)
                      for i, session in enumerate(floor["sessions"])] if pit_on else []
            everyone: list[FloorTablet | Dashboard] = [*tablets, *boards]
            for t in everyone:
                t.start()
            if tablets or boards:
                time.sleep(warmup)
            measuring.set()
            began = time.perf_counter()
            out: dict[str, Any] = {}
            jobs = []
            if export_on:
                jobs.append(threading.Thread(target=lambda: out.__setitem__("export_s", export_month(
                    port, floor["accountant"]))))
            if verify_on:
                jobs.append(threading.Thread(target=lambda: out.__setitem__("verify_s", verifier.run())))
            for job in jobs:
                job.start()
            for job in jobs:
                job.join()
            if tablets or boards:
                time.sleep(max(0.0, args.seconds - (time.perf_counter() - began)))
            measuring.clear()
            out["seconds"] = round(time.perf_counter() - began, 1)
            stop.set()
            for t in everyone:
                t.join(120)
            cards = [v for t in tablets for v in t.latency.get("card", [])]
            refreshes = [v for b in boards for v in b.latency]
            errors.extend(e for t in everyone for e in t.errors)
            if floor_on:
                out["card"] = figures_of(cards)
                out["requests"] = sum(t.requests for t in tablets)
                out["rounds_settled"] = sum(t.settled for t in tablets)
            if pit_on:
                out["dashboard"] = figures_of(refreshes)
                out["unchanged_share"] = round(sum(b.unchanged for b in boards) / len(refreshes), 3) if refreshes \
                    else None
            out["load_average"] = round(os.getloadavg()[0], 2)
            print(f"{label}: {json.dumps(out)}", flush=True)
            return out

        alone = {
            "floor": phase(floor_on=True, pit_on=False, export_on=False, verify_on=False, label="the floor alone"),
            "pit": phase(floor_on=False, pit_on=True, export_on=False, verify_on=False, label="the pit alone"),
            "export": phase(floor_on=False, pit_on=False, export_on=True, verify_on=False, label="the export alone"),
            "verify": phase(floor_on=False, pit_on=False, export_on=False, verify_on=True,
                            label="the verification alone"),
        }
        mixed = phase(floor_on=True, pit_on=True, export_on=True, verify_on=True, label="all together")
    finally:
        gc.enable()
        web.stop()
        worker.stop()
        verifier.stop()

    def ratio(together: float | None, by_itself: float | None) -> float | None:
        return round(together / by_itself, 3) if together and by_itself else None

    figures = {
        "card_p99_ms": {"alone": alone["floor"]["card"]["p99"], "mixed": mixed["card"]["p99"]},
        "dashboard_p95_ms": {"alone": alone["pit"]["dashboard"]["p95"], "mixed": mixed["dashboard"]["p95"]},
        "export_s": {"alone": round(alone["export"]["export_s"], 3), "mixed": round(mixed["export_s"], 3)},
        "verify_s": {"alone": round(alone["verify"]["verify_s"], 3), "mixed": round(mixed["verify_s"], 3)},
    }
    for f in figures.values():
        f["ratio"] = ratio(f["mixed"], f["alone"])
    met = {"card_p99": figures["card_p99_ms"]["mixed"] is not None and figures["card_p99_ms"]["mixed"] < CARD_TARGET_MS,
           "dashboard_p95": figures["dashboard_p95_ms"]["mixed"] is not None
           and figures["dashboard_p95_ms"]["mixed"] < DASHBOARD_TARGET_MS}
    print(f"\n{args.tables} tables (a round every ~{args.round_seconds:.0f} s), {args.dashboards} dashboards every "
          f"{REFRESH_EVERY:.0f} s, gunicorn {args.workers} sync workers, {os.cpu_count()} CPUs, load average "
          f"{mixed['load_average']}")
    print(f"{'':<22}{'alone':>10}{'together':>10}{'ratio':>8}")
    for name, f in figures.items():
        print(f"{name:<22}{_shown(f['alone']):>10}{_shown(f['mixed']):>10}{_shown(f['ratio']):>8}")
    print(f"card post p99 < {CARD_TARGET_MS:.0f} ms together: {'met' if met['card_p99'] else 'MISSED'}; dashboard p95 "
          f"< {DASHBOARD_TARGET_MS:.0f} ms together: {'met' if met['dashboard_p95'] else 'MISSED'}; "
          f"refreshes answered 304: {mixed['unchanged_share']}; errors {len(errors)}")
    if errors:
        print("first errors:", *errors[:3], sep="\n  ")
    print(json.dumps({
        "bench": "mixed", "tables": args.tables, "round_seconds": args.round_seconds, "dashboards": args.dashboards,
        "gunicorn_workers": args.workers, "cpus": os.cpu_count(), "seconds": args.seconds, **figures,
        "alone": alone, "together": mixed, "errors": len(errors),
        "targets": {"card_p99_ms": CARD_TARGET_MS, "dashboard_p95_ms": DASHBOARD_TARGET_MS}, "targets_met": met,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
