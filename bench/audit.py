"""Audit trail speed: verification over a million records, and what auditing costs a settled round.

Run from the repository root: ``python bench/audit.py [records] [rounds]`` (defaults 1,000,000
and 1,200: with fewer, the shares move by three points between runs). It creates a database of its
own (``croupier_bench_audit_<random>``, dropped at the end unless ``--keep``) on the PostgreSQL of the
tests (``BENCH_DATABASE_URL`` to use another), migrates it, and:

1. writes ``records`` valid audit records over 24 chains with COPY (hashes computed here, chains
   interleaved as tables write them; each record's ``after`` its own, as in a real trail, where a bet's
   id and amount or a round's number differ from record to record: the walk remembers repeated JSON
   texts, and records that repeated them would flatter it), then times ``audit_verify(full=True)`` over all of them — the
   same service the job runs, with its default walkers (one per core) and with one — against a
   baseline in the same run, taken before and after: reading the same rows in the same order through
   the same reader (COPY, one connection) without hashing (what the database and the driver cost
   alone); then signs every chain's head, appends 1 % more records and times the default
   (incremental) verification, which reads only what follows the checkpoints;
2. plays baccarat rounds (open, three bets, close, six cards, settle with its ledger posting: 12
   audited changes) through the services, ``rounds`` of them, half with ``audit_log`` as it is and
   half with it replaced by a no-op, alternately in blocks, and reports rounds per second both ways
   and the audit's share of an audited round's time (wall clock: the records are written with each
   transaction's commit, casino/dbbackend, so the time inside ``audit_log`` is only preparing them);
   in the same alternation, as many again as each half, rounds whose records are written as bare
   rows (the same values on the same commits, into a table with no index, trigger, chain or lock):
   the floor that no design writing one row per audited change can go below; then a third as many
   rounds again, half with the audit and half without, through the REST API as the dealer's tablet
   plays them (in this process, without network or web server), for the audit's share of what the
   dealer's requests cost.

The last line printed is one JSON object (``verify_per_s``, ``scan_per_s``, ``verify_over_scan``,
``audit_share_of_round``, ``bare_row_share_of_round_pct``, ``api_audit_share_of_round_pct`` and the
rest). ``--keep`` leaves the database for inspection.
"""

from __future__ import annotations

import datetime as dt
import functools
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
BETS = (("banker", 2500), ("player", 1000), ("tie", 500))  # seats 1, 2, 3


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
        ("bet.place", "bet", None, lambda i: {"round": i // 12, "id": f"b{i}", "seat": 3, "type": "banker",
                                              "amount": 2500 + i}),
        ("event.post", "round", lambda i: {"status": "dealing", "events": i % 6},
         lambda i: {"seq": i % 6, "round": i, "event": {"card": "9S"}, "next": {"expect": "card", "to": "banker",
                                                                    "say": "Deal card 2 to the banker"}}),
        ("round.settle", "round", lambda i: {"status": "dealing"},
         lambda i: {"status": "settled", "round": i, "house": {"net": -875, "commission": 125, "rake": 0},
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
    for seat, (kind, amount) in enumerate(BETS, start=1):
        rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=seat, type=kind, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in CARDS:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)


def api_client(floor):
    """A Django test client signed in as the floor's dealer with an API token, as the dealer's tablet is."""
    from django.test import Client

    from casino.auth import token_issue

    token = token_issue(user=floor.dealer).key
    return Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_DEVICE_ID="bench-tablet")


def play_round_api(client, floor) -> None:
    """The same round as :func:`play_round`, as the dealer's tablet plays it: through the REST API (in this
    process: no network, no web server), each write with its own idempotency key."""
    import uuid

    def post(path: str, body: dict | None = None, expect: int = 201) -> dict:
        answer = client.post(path, data=json.dumps(body or {}), content_type="application/json",
                             HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
        if answer.status_code != expect:
            raise SystemExit(f"{path} answered {answer.status_code}: {answer.content[:300]!r}")
        return answer.json()

    url = f"/api/rounds/{post('/api/rounds/', {'table': floor.table.pk})['id']}"
    for seat, (kind, amount) in enumerate(BETS, start=1):
        post(f"{url}/bets/", {"seat": seat, "type": kind, "amount": amount})
    post(f"{url}/close-betting/", expect=200)
    for card in CARDS:
        post(f"{url}/events/", {"card": card})
    post(f"{url}/settle/", expect=200)


# The floor under any design that writes one row per audited change: the same records, prepared by the same
# ``audit_log`` and riding on the same commits, written as bare rows of the same values to a table with no index,
# no trigger, no chain and no lock. What the audit costs above this is what the chain, its lock, the indexes and
# the foreign key cost; what the floor itself costs no per-change design can take away.
BARE_TABLE = "bench_bare_record"


def _bare_rows() -> list:
    """Patches that send each pending record as one bare ``INSERT`` instead of the chain's lock and append."""
    from django.db import connection

    from casino.audit import services as audit_services

    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {BARE_TABLE} (LIKE audit_auditrecord INCLUDING DEFAULTS "
                       "INCLUDING IDENTITY)")  # the same columns; none of the record table's indexes or triggers
    # the record's values as the append binds them, in its order (casino/audit/services.py, _Appends.add)
    columns = (*audit_services._APPEND_COLUMNS, "before", "after", "request_id")
    insert = (f"INSERT INTO {BARE_TABLE} ({', '.join(columns)}, seq, prev_hash, hash) "
              f"VALUES ({', '.join(['%s'] * len(columns))}, 0, '', '')")

    def take(self):
        self.sent, self.pending = self.pending, []
        return [insert] * len(self.sent), [value for _, args, _ in self.sent for value in args[:len(columns)]]

    def taken(self, cursor, *, committed):
        sent, self.sent = self.sent, []
        for _ in sent:
            cursor.nextset()

    return [mock.patch.object(audit_services._Appends, "take", take),
            mock.patch.object(audit_services._Appends, "taken", taken)]


def round_rates(floor, rounds_total: int, block: int = 10, *, api: bool = False) -> dict[str, float]:
    """Rounds per second three ways, alternating small blocks so that load from elsewhere on the machine hits
    them alike: with the audit, without it (``audit_log`` a no-op), and with its records written as bare rows
    (the floor, :func:`_bare_rows`); and the milliseconds spent inside ``audit_log`` per audited round (timed
    directly, so it does not depend on that drift at all). ``api``: the rounds are played through the REST API
    (:func:`play_round_api`), with and without the audit only."""
    import contextlib

    import tables.services.rounds as round_services

    play = functools.partial(play_round_api, api_client(floor)) if api else play_round
    play(floor)  # warm up: engine import, first ledger accounts
    modes = ("with", "without") if api else ("with", "without", "bare")
    spent = dict.fromkeys(modes, 0.0)
    played = dict.fromkeys(modes, 0)
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

    patches = {"with": lambda: [mock.patch("tables.services.rounds.audit_log", timed)],
               "without": lambda: [mock.patch("tables.services.rounds.audit_log", noop)],
               "bare": _bare_rows}
    per_mode = (rounds_total + 1) // 2
    while any(played[mode] < per_mode for mode in modes):
        for mode in modes:
            n = min(block, per_mode - played[mode])
            if n <= 0:
                continue
            with contextlib.ExitStack() as stack:
                for patch in patches[mode]():
                    stack.enter_context(patch)
                start = time.perf_counter()
                for _ in range(n):
                    play(floor)
                spent[mode] += time.perf_counter() - start
            played[mode] += n
    rates = {mode: played[mode] / spent[mode] for mode in modes}
    return {**rates, "audit_log_ms": inside[0] / played["with"] * 1000}


def main(records: int = 1_000_000, rounds_total: int = 1_200, keep: bool = False) -> dict[str, float]:
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
    from tests.factories import build_floor

    floor = build_floor()
    rates = round_rates(floor, rounds_total)
    with_audit, without_audit, audit_ms = rates["with"], rates["without"], rates["audit_log_ms"]
    out["rounds_per_s_with_audit"] = with_audit
    out["rounds_per_s_without_audit"] = without_audit
    out["with_vs_without_ratio"] = with_audit / without_audit
    out["audit_overhead_pct"] = (without_audit / with_audit - 1) * 100
    # the share of an audited round's time that the audit adds: (t_with - t_without) / t_with
    out["audit_share_of_round_pct"] = (1 - with_audit / without_audit) * 100
    out["audit_log_ms_per_round"] = audit_ms
    # the same round as the dealer's tablet plays it, through the REST API (in this process), with and without
    out["api_rounds"] = api_rounds = max(2, rounds_total // 3)
    api = round_rates(floor, api_rounds, api=True)
    out["api_rounds_per_s_with_audit"], out["api_rounds_per_s_without_audit"] = api["with"], api["without"]
    out["api_audit_share_of_round_pct"] = (1 - api["with"] / api["without"]) * 100
    out["rounds_per_s_bare_rows"] = rates["bare"]
    # the floor: one bare row per change, no chain, no index (the least any per-change record costs)
    out["bare_row_share_of_round_pct"] = (1 - rates["bare"] / without_audit) * 100
    out["audit_log_share_pct"] = audit_ms / 1000 * with_audit * 100
    out["verify_per_s"] = out["verify_records_per_s"]
    out["scan_per_s"] = scan
    out["verify_over_scan"] = out["verify_vs_scan_ratio"]
    out["audit_share_of_round"] = out["audit_share_of_round_pct"] / 100
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n_records = int(args[0]) if args else 1_000_000
    n_rounds = int(args[1]) if len(args) > 1 else 1_200
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
    print(f"  records as bare rows (the floor)  {res['rounds_per_s_bare_rows']:>12,.2f} rounds/s: "
          f"{res['bare_row_share_of_round_pct']:.1f} % of a round (the same records, one unindexed row each, "
          f"no chain, no lock)")
    print(f"  through the REST API, {res['api_rounds']} rounds: {res['api_rounds_per_s_with_audit']:,.2f} rounds/s with "
          f"audit, {res['api_rounds_per_s_without_audit']:,.2f} without: {res['api_audit_share_of_round_pct']:.1f} % "
          f"(the dealer's requests in this process: authentication, idempotency, the answer; no network)")
    print(f"  inside audit_log, per round      {res['audit_log_ms_per_round']:>12.1f} ms "
          f"({res['audit_log_share_pct']:.1f} % of an audited round, timed directly: preparing the records; "
          f"their appends ride on the commits)")
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in res.items()}))
