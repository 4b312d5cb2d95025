"""Audit trail speed: verification over a million records, and what auditing costs a settled round.

Run from the repository root: ``python bench/audit.py [records] [rounds]`` (defaults 1,000,000
and 400). It creates a database of its own (``croupier_bench_audit_<random>``, dropped at the end
unless ``--keep``) on the PostgreSQL of the tests (``BENCH_DATABASE_URL`` to use another), migrates
it, and:

1. writes ``records`` valid audit records over 24 chains with COPY (hashes computed here, chains
   interleaved as tables write them), then times ``audit_verify(full=True)`` over all of them — the
   same service the job runs, with its default walkers (one per core) and with one — against a
   baseline in the same run, taken before and after: reading the same rows in the same order through
   the same reader (COPY, one connection) without hashing (what the database and the driver cost
   alone); then signs every chain's head, appends 1 % more records and times the default
   (incremental) verification, which reads only what follows the checkpoints;
2. plays ``rounds`` baccarat rounds (open, three bets, close, six cards, settle with its ledger
   posting: 12 audited changes) through the services, alternately in blocks with ``audit_log``
   as it is and replaced by a no-op, and reports rounds per second both ways and the audit's share
   of an audited round's time (wall clock: the records are written with each transaction's commit,
   casino/dbbackend, so the time inside ``audit_log`` is only preparing them).

The last line printed is one JSON object (``verify_per_s``, ``scan_per_s``, ``verify_over_scan``,
``audit_share_of_round`` and the rest). ``--keep`` leaves the database for inspection.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings_test")
os.environ.setdefault("LOG_LEVEL", "WARNING")

CHAINS = ["casino"] + [f"table:T{n:02d}" for n in range(1, 24)]
CARDS = ["9S", "KH", "5D", "3C", "2H", "4S"]


def _copy_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def generate(count: int, *, actor_id: int, seed: int = 7) -> float:
    """COPY ``count`` chained records in; returns records per second (hashing and loading)."""
    from django.db import connection

    from casino.audit.models import AuditRecord
    from casino.audit.record import GENESIS, HASHED, json_text, record_hash

    rng = random.Random(seed)
    heads = dict.fromkeys(CHAINS, (0, GENESIS))
    for chain in CHAINS:  # continue what is there (creating the bench's user was audited)
        heads[chain] = AuditRecord.objects.filter(chain=chain).order_by("-seq").values_list("seq", "hash").first() \
            or heads[chain]
    # the last hours (a millisecond apart): months that have partitions (last month to three ahead)
    base = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(hours=2 + count // 3_000_000)
    shapes = [
        ("bet.place", "bet", None, lambda i: {"round": i // 12, "id": "b1", "seat": 3, "type": "banker",
                                              "amount": 2500}),
        ("event.post", "round", lambda i: {"status": "dealing", "events": i % 6},
         lambda i: {"seq": i % 6, "event": {"card": "9S"}, "next": {"expect": "card", "to": "banker",
                                                                    "say": "Deal card 2 to the banker"}}),
        ("round.settle", "round", lambda i: {"status": "dealing"},
         lambda i: {"status": "settled", "house": {"net": -875, "commission": 125, "rake": 0},
                    "outcome": {"winner": "banker", "player": 6, "banker": 7},
                    "bets": [{"id": "b1", "result": "win", "net": 2375, "commission": 125}]}),
        ("round.open", "round", None, lambda i: {"number": i // 12, "game": "baccarat", "config": {},
                                                 "shift": 1}),
    ]
    columns = (*HASHED[:-1], "hash", "request_id")
    encode = json_text
    start = time.perf_counter()
    statement = f"COPY audit_auditrecord ({', '.join(columns)}) FROM STDIN"
    # one COPY (one transaction: Django's autocommit) per block of records, as tables write them: the chain-head
    # trigger moves each chain's head row once per record, and a single transaction moving one row tens of
    # thousands of times leaves a chain of row versions that nothing can prune before it commits
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        lines: list[str] = []
        for i in range(count):
            chain = CHAINS[0] if rng.random() < 0.05 else CHAINS[1 + rng.randrange(len(CHAINS) - 1)]
            seq, prev = heads[chain]
            seq += 1
            action, otype, before_of, after_of = shapes[i % len(shapes)]
            before = before_of(i) if before_of else None
            after = after_of(i)
            created = (base + dt.timedelta(microseconds=i * 1_013)).isoformat()
            table = "" if chain == "casino" else chain[6:]
            device = f"tablet-{table or 'cage'}"
            request_id = f"{i:032x}"
            digest = record_hash(chain, seq, created, actor_id, "dealer", "dealer", "10.0.3.17", device, "api",
                                 action, otype, str(i), table, before, after, prev, request_id)
            heads[chain] = (seq, digest)
            lines.append("\t".join((
                chain, str(seq), created, str(actor_id), "dealer", "dealer", "10.0.3.17", device, "api",
                action, otype, str(i), table, "\\N" if before is None else _copy_text(encode(before)),
                _copy_text(encode(after)), prev, digest, request_id)) + "\n")
            if len(lines) >= 5_000 or i == count - 1:
                with raw.copy(statement) as copy:
                    copy.write("".join(lines))
                lines.clear()
        cursor.execute("ANALYZE audit_auditrecord")
    return count / (time.perf_counter() - start)


def scan_rate() -> tuple[float, int]:
    """Baseline: the same rows, in the same order, through the same reader (COPY of the stored columns, one
    connection, in one snapshot), each row split into its columns; nothing computed."""
    from casino.audit.verification import _ordered_rows, _snapshot

    start = time.perf_counter()
    n = 0
    with _snapshot():
        rows, _ = _ordered_rows()
        for _ in rows:
            n += 1
    return n / (time.perf_counter() - start), n


def verify_rate(*, workers: int = 0, full: bool = True) -> tuple[float, int, bool, int]:
    """``audit_verify`` as the job runs it; ``workers`` walkers (0: the setting's default, one per core)."""
    from django.conf import settings

    from casino.audit.verification import audit_verify

    settings.AUDIT_VERIFY_WORKERS = workers
    start = time.perf_counter()
    result = audit_verify(trigger="bench", full=full)
    return result.records / (time.perf_counter() - start), result.records, bool(result.ok), result.skipped


def incremental(new_records: int, *, actor_id: int) -> tuple[float, int, int]:
    """Sign every chain's head, append ``new_records``, verify as the hourly job does: seconds, records read,
    records vouched for by the checkpoints."""
    from casino.audit.verification import audit_checkpoint_create, audit_verify

    audit_checkpoint_create()
    generate(new_records, actor_id=actor_id, seed=11)
    start = time.perf_counter()
    result = audit_verify(trigger="bench")
    if not result.ok:
        raise SystemExit(f"incremental verification failed on generated data: {result.breaks[:1]}")
    return time.perf_counter() - start, result.records, result.skipped


def play_round(floor) -> None:
    from tables.services import rounds

    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    for seat, (kind, amount) in enumerate((("banker", 2500), ("player", 1000), ("tie", 500)), start=1):
        rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=seat, type=kind, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in CARDS:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)


def round_rates(rounds_total: int, block: int = 10) -> tuple[float, float, float]:
    """Rounds per second with and without auditing, alternating small blocks so that load from
    elsewhere on the machine hits both alike; and the milliseconds spent inside ``audit_log`` per
    audited round (timed directly, so it does not depend on that drift at all)."""
    import tables.services.rounds as round_services
    from tests.factories import build_floor

    floor = build_floor()
    play_round(floor)  # warm up: engine import, first ledger accounts
    spent = {"with": 0.0, "without": 0.0}
    played = {"with": 0, "without": 0}
    inside = [0.0]
    real_audit_log = round_services.audit_log

    def timed(**kwargs):
        start = time.perf_counter()
        try:
            return real_audit_log(**kwargs)
        finally:
            inside[0] += time.perf_counter() - start

    def noop(**kwargs):
        return None

    half = (rounds_total + 1) // 2
    while played["with"] < half or played["without"] < half:
        for mode in ("with", "without"):
            n = min(block, half - played[mode])
            if n <= 0:
                continue
            with mock.patch("tables.services.rounds.audit_log", timed if mode == "with" else noop):
                start = time.perf_counter()
                for _ in range(n):
                    play_round(floor)
                spent[mode] += time.perf_counter() - start
            played[mode] += n
    return (played["with"] / spent["with"], played["without"] / spent["without"],
            inside[0] / played["with"] * 1000)


def main(records: int = 1_000_000, rounds_total: int = 400, keep: bool = False) -> dict[str, float]:
    from bench.common import create_database

    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_audit",
                                                                                          keep=keep)
    # the checkpoints this run signs are anchored in a directory of its own, not the project's
    os.environ["AUDIT_ANCHOR_DIR"] = tempfile.mkdtemp(prefix="croupier-bench-anchors-")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from casino.audit.verification import verify_workers

    call_command("migrate", verbosity=0)
    with transaction.atomic():
        actor = get_user_model().objects.create(username="bench-dealer")
    out: dict[str, float] = {"records": records, "chains": len(CHAINS)}
    out["generate_records_per_s"] = generate(records, actor_id=actor.pk)
    out["scan_records_per_s"], scanned = scan_rate()
    out["verify_records_per_s"], verified, ok, _ = verify_rate()
    if not ok or verified != scanned:
        raise SystemExit(f"verification failed on generated data: ok={ok}, {verified} of {scanned} records")
    out["workers"] = verify_workers()
    out["verify_one_walker_records_per_s"], _, ok1, _ = verify_rate(workers=1)
    out["scan_again_records_per_s"], _ = scan_rate()  # the machine's load drifts: the baseline before and after
    scan = (out["scan_records_per_s"] + out["scan_again_records_per_s"]) / 2
    out["verify_vs_scan_ratio"] = out["verify_records_per_s"] / scan
    out["verify_one_walker_vs_scan_ratio"] = out["verify_one_walker_records_per_s"] / scan
    out["verify_seconds"] = records / out["verify_records_per_s"]
    new = max(1, records // 100)
    out["incremental_new_records"] = new
    out["incremental_seconds"], out["incremental_records_read"], out["incremental_records_vouched"] = \
        incremental(new, actor_id=actor.pk)
    out["rounds"] = rounds_total
    with_audit, without_audit, audit_ms = round_rates(rounds_total)
    out["rounds_per_s_with_audit"] = with_audit
    out["rounds_per_s_without_audit"] = without_audit
    out["with_vs_without_ratio"] = with_audit / without_audit
    out["audit_overhead_pct"] = (without_audit / with_audit - 1) * 100
    # the share of an audited round's time that the audit adds: (t_with - t_without) / t_with
    out["audit_share_of_round_pct"] = (1 - with_audit / without_audit) * 100
    out["audit_log_ms_per_round"] = audit_ms
    out["audit_log_share_pct"] = audit_ms / 1000 * with_audit * 100
    out["verify_per_s"] = out["verify_records_per_s"]
    out["scan_per_s"] = scan
    out["verify_over_scan"] = out["verify_vs_scan_ratio"]
    out["audit_share_of_round"] = out["audit_share_of_round_pct"] / 100
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n_records = int(args[0]) if args else 1_000_000
    n_rounds = int(args[1]) if len(args) > 1 else 400
    res = main(n_records, n_rounds, keep="--keep" in sys.argv)
    print(f"audit trail, {res['records']:,} records in {res['chains']} chains")
    print(f"  generate (hash + COPY)           {res['generate_records_per_s']:>12,.0f} records/s")
    print(f"  baseline: read rows, no hash     {res['scan_per_s']:>12,.0f} records/s "
          f"(COPY, one connection; {res['scan_records_per_s']:,.0f} before, {res['scan_again_records_per_s']:,.0f} after)")
    print(f"  verify_audit --full, {res['workers']} walkers  {res['verify_records_per_s']:>12,.0f} records/s "
          f"({res['verify_seconds']:.1f} s, {res['verify_vs_scan_ratio']:.2f}x the bare scan)")
    print(f"  verify_audit --full, 1 walker    {res['verify_one_walker_records_per_s']:>12,.0f} records/s "
          f"({res['verify_one_walker_vs_scan_ratio']:.2f}x the bare scan)")
    print(f"  incremental (hourly job) after {res['incremental_new_records']:,} new records: "
          f"{res['incremental_seconds']:.2f} s, {res['incremental_records_read']:,} read, "
          f"{res['incremental_records_vouched']:,} vouched for by checkpoints")
    print(f"settled baccarat rounds (12 audited changes each), {res['rounds']} rounds, same run")
    print(f"  with audit                       {res['rounds_per_s_with_audit']:>12,.2f} rounds/s")
    print(f"  without audit (audit_log no-op)  {res['rounds_per_s_without_audit']:>12,.2f} rounds/s")
    print(f"  audit's share of a round         {res['audit_share_of_round_pct']:>12.1f} % (wall clock, both ways)")
    print(f"  inside audit_log, per round      {res['audit_log_ms_per_round']:>12.1f} ms "
          f"({res['audit_log_share_pct']:.1f} % of an audited round, timed directly: preparing the records; "
          f"their appends ride on the commits)")
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in res.items()}))
