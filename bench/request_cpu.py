"""What a dealer's request costs the web tier: CPU per request of the round API, in one process, without HTTP.

Run from the repository root: ``python bench/request_cpu.py [--rounds 400] [--profile FILE]``.
It creates a PostgreSQL database of its own (as ``bench/api.py`` does; ``BENCH_DATABASE_URL`` for another),
seeds two baccarat and two blackjack tables, then in this process, through Django's test client (the whole
middleware stack, DRF, the token's check, the idempotency wrapper, the services, the answer; no sockets, no
gunicorn), plays ``--rounds`` rounds: half tap by tap, half with the taps a dealer enters together sent
together (``bench/api.py``'s tablets, the same rounds). Every request's CPU time (this process's: PostgreSQL's
is its own) and wall time are taken per kind; the baseline is the same client posting to the bare baseline
endpoint (one authenticated INSERT) as many times, in the same run.

Why it exists: through gunicorn on a shared 2-core VM (``bench/api.py``) the bare baseline itself moves by a
third between runs, and a change of a few percent in a request's Python is lost in it; a request's CPU in one
process moves far less. With ``--profile`` the rounds run under cProfile and the profile is written to FILE
(``python -m pstats FILE``). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import create_baseline_table, create_database, new_key, percentile, seed_in, service_env  # noqa: E402

SPECS = [{"code": "BAC1", "game": "baccarat"}, {"code": "BJ2", "game": "blackjack"},
         {"code": "BAC3", "game": "baccarat"}, {"code": "BJ4", "game": "blackjack"}]


class Answer:
    def __init__(self, status: int, body: Any, seconds: float) -> None:
        self.status, self.body, self.seconds = status, body, seconds


class InProcess:
    """``bench.common.Api``'s ``post`` through Django's test client, timing each request's CPU by its kind."""

    def __init__(self, token: str, cpu: dict[str, list[float]], wall: dict[str, list[float]]) -> None:
        from django.test import Client

        self.client = Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_DEVICE_ID="bench-cpu")
        self.cpu, self.wall = cpu, wall

    def post(self, path: str, body: Any = None, key: str | None = None) -> Answer:
        data = json.dumps(body) if body is not None else ""
        started, cpu = time.perf_counter(), time.process_time()
        response = self.client.post(path, data, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key or new_key())
        cpu, seconds = time.process_time() - cpu, time.perf_counter() - started
        kind = kind_of(path)
        self.cpu[kind].append(cpu * 1000)
        self.wall[kind].append(seconds * 1000)
        return Answer(response.status_code, response.json() if response.content else None, seconds)


def kind_of(path: str) -> str:
    last = path.rstrip("/").split("/")[-1]
    return {"rounds": "open", "bets": "bet", "close-betting": "close", "events": "card or choice",
            "batch": "batch", "settle": "settle", "baseline": "baseline"}.get(last, last)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="rounds played, over four tablets (default 400)")
    parser.add_argument("--warmup", type=int, default=4, help="rounds each tablet plays first, not measured")
    parser.add_argument("--profile", help="write a cProfile profile of the measured rounds to this file")
    parser.add_argument("--no-gc", action="store_true",
                        help="no garbage collection while the rounds are measured (a collection's pause lands on "
                             "whichever request allocates past the threshold)")
    parser.add_argument("--no-freeze", action="store_true",
                        help="leave the loaded application in the collector's sight (casino/wsgi.py freezes it)")
    parser.add_argument("--keep", action="store_true", help="leave the database for inspection")
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_cpu", keep=args.keep)
    floor = seed_in(url, SPECS)
    os.environ.update(service_env(url, CROUPIER_BENCH_ENDPOINTS="true", DB_CONN_MAX_AGE="600"))
    import django

    django.setup()
    from bench.api import Tablet

    create_baseline_table(url)
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    stop, measuring = threading.Event(), threading.Event()
    tablets = []
    for i, spec in enumerate(SPECS):
        token = floor["tokens"][spec["code"]]
        tablet = Tablet(0, token, spec["code"], floor["tables"][spec["code"]], spec["game"], seed=i, stop=stop,
                        measuring=measuring, batched=i >= 2)
        tablet.api = InProcess(token, cpu, wall)  # type: ignore[assignment]
        tablets.append(tablet)

    def play(rounds_each: int) -> None:
        for _ in range(rounds_each):
            for tablet in tablets:
                tablet.play_round_batched() if tablet.batched else tablet.play_round()

    play(args.warmup)
    cpu.clear()
    wall.clear()
    rounds_each = max(1, args.rounds // len(tablets))
    gc.collect()
    if not args.no_freeze:  # as casino/wsgi.py does once the application is loaded
        gc.freeze()
    if args.no_gc:
        gc.disable()
    profile = None
    if args.profile:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    started, cpu_started = time.perf_counter(), time.process_time()
    play(rounds_each)
    gc.enable()
    elapsed, cpu_total = time.perf_counter() - started, time.process_time() - cpu_started
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    requests = sum(len(v) for v in cpu.values())
    round_cpu = dict(cpu)

    # the baseline: the same client, as many requests, each one authenticated INSERT
    base = InProcess(floor["tokens"][SPECS[0]["code"]], cpu, wall)
    for _ in range(requests):
        answer = base.post("/api/bench/baseline/", {})
        if answer.status != 201:
            raise RuntimeError(f"the baseline answered {answer.status}")
    base_cpu, base_wall = cpu["baseline"], wall["baseline"]
    from django.db import connections

    connections.close_all()

    rounds = rounds_each * len(tablets)
    # the requests' own CPU (the client's and the service's), not the tablets' choosing of the next tap
    spent = sum(sum(values) for values in round_cpu.values()) / 1000
    per_request = 1000 * spent / requests
    base_mean = mean(base_cpu)
    print(f"{rounds} rounds ({rounds // 2} tap by tap, {rounds // 2} with the taps sent together), {requests} requests "
          f"in {elapsed:.1f} s; load average {os.getloadavg()[0]:.1f}")
    print(f"{'request':<16}{'n':>6}{'cpu mean':>10}{'cpu p95':>10}{'wall p50':>10}  (ms)")
    for kind in [*sorted(round_cpu), "baseline"]:
        values = cpu[kind]
        print(f"{kind:<16}{len(values):>6}{mean(values):>10.2f}{percentile(values, 95):>10.2f}"
              f"{percentile(wall[kind], 50):>10.2f}")
    print(f"a round request: {per_request:.2f} ms of this process's CPU ({per_request / base_mean:.2f}× the baseline's "
          f"{base_mean:.2f} ms); a settled round {1000 * spent / rounds:.1f} ms; the whole run {cpu_total:.1f} CPU-s")
    print(json.dumps({
        "bench": "request_cpu", "rounds": rounds, "requests": requests, "seconds": round(elapsed, 2),
        "load_average": round(os.getloadavg()[0], 2),
        "cpu_ms_per_request": round(per_request, 3), "wall_ms_per_request": round(1000 * elapsed / requests, 3),
        "cpu_ms_per_round": round(1000 * spent / rounds, 2), "cpu_s_whole_run": round(cpu_total, 2),
        "by_kind": {kind: {"n": len(values), "cpu_ms": round(mean(values), 3), "wall_p50_ms": round(percentile(wall[kind], 50), 3)}
                    for kind, values in sorted(round_cpu.items())},
        "baseline": {"n": len(base_cpu), "cpu_ms": round(base_mean, 3), "wall_p50_ms": round(percentile(base_wall, 50), 3)},
        "cpu_ratio_to_baseline": round(per_request / base_mean, 3),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
