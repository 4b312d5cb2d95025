"""PostgreSQL restarted under load: 503 with a clear body meanwhile, no half-written round, recovery by itself.

The service runs under gunicorn against a throwaway PostgreSQL cluster of the test's own (under
/tmp, on a free port; the machine's shared cluster is never stopped). Two dealer tablets play
baccarat rounds through the API, retrying each step with its Idempotency-Key as a tablet does,
while the cluster is stopped and started again.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from bench.common import (
    Api,
    ThrowawayPostgres,
    free_port,
    gunicorn,
    manage,
    new_key,
    seed_in,
    service_env,
    wait_until,
)

CARDS = ["9S", "KH", "5D", "3C", "2H", "4S"]  # banker 7 beats player 6


@pytest.fixture(scope="module")
def service(tmp_path_factory: Any) -> Any:
    try:
        pg = ThrowawayPostgres()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    logs = tmp_path_factory.mktemp("pg-down")
    try:
        pg.start()
        url = pg.create_database("croupier_faults")
        floor = seed_in(url, [{"code": "BAC1", "game": "baccarat"}, {"code": "BAC2", "game": "baccarat"}])  # migrated too
        port = free_port()
        # embedded jobs (no broker): the outbox runs them in process; persistent connections with health checks
        web = gunicorn(env=service_env(url, DB_CONN_MAX_AGE="60"), port=port, workers=2, log=logs / "gunicorn.log")
        try:
            yield pg, url, port, floor, web
        finally:
            web.stop()
    finally:
        pg.destroy()


class Tablet(threading.Thread):
    """Plays rounds until told to stop; every step is retried with its own key until it succeeds."""

    def __init__(self, port: int, token: str, table_id: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.api = Api(port, token=token)
        self.table_id, self.stop_event = table_id, stop
        self.answers: list[tuple[float, int, Any, dict[str, str]]] = []
        self.settled: list[tuple[float, int]] = []
        self.error: str | None = None

    def step(self, method: str, path: str, body: Any = None) -> Any:
        key = new_key()
        while True:
            try:
                answer = self.api.request(method, path, body if body is not None or method == "GET" else {},
                                          key=key if method == "POST" else None)
            except OSError as exc:  # the server is there; this is a dropped connection
                self.answers.append((time.monotonic(), 0, str(exc), {}))
                time.sleep(0.1)
                continue
            self.answers.append((time.monotonic(), answer.status, answer.body, answer.headers))
            if answer.status == 503:
                time.sleep(0.2)
                continue
            if answer.status >= 400:
                raise AssertionError(f"{method} {path} → {answer.status} {answer.body}")
            return answer.body

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                rnd = self.step("POST", "/api/rounds/", {"table": self.table_id})
                url = f"/api/rounds/{rnd['id']}"
                self.step("POST", f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500})
                self.step("POST", f"{url}/close-betting/")
                for card in CARDS:
                    self.step("POST", f"{url}/events/", {"card": card})
                self.step("POST", f"{url}/settle/")
                self.settled.append((time.monotonic(), rnd["id"]))
        except AssertionError as exc:
            self.error = str(exc)


def _invariants(url: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(url) as conn:
        def one(sql: str) -> Any:
            return conn.execute(sql).fetchone()[0]

        return {
            "rounds": one("SELECT count(*) FROM tables_round"),
            "settled": one("SELECT count(*) FROM tables_round WHERE status = 'settled'"),
            # a settled round has exactly one settlement, and nothing else does
            "settled_without_settlement": one("""SELECT count(*) FROM tables_round r WHERE r.status = 'settled'
                AND (SELECT count(*) FROM tables_settlement s WHERE s.round_id = r.id) <> 1"""),
            "settlement_of_unsettled": one("""SELECT count(*) FROM tables_settlement s JOIN tables_round r
                ON r.id = s.round_id WHERE r.status <> 'settled'"""),
            # one settlement line per bet, one ledger transaction per settled round
            "lines_not_matching_bets": one("""SELECT count(*) FROM tables_settlement s WHERE
                (SELECT count(*) FROM tables_settlementline l WHERE l.settlement_id = s.id)
                <> (SELECT count(*) FROM tables_bet b WHERE b.round_id = s.round_id)"""),
            "settled_without_ledger": one("""SELECT count(*) FROM tables_round r WHERE r.status = 'settled'
                AND NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction t
                                WHERE t.source_type = 'round' AND t.source_id = r.id::text)"""),
            # retried steps wrote once: one bet per round, cards numbered 0..n-1 without gaps or repeats
            "rounds_with_other_than_one_bet": one("""SELECT count(*) FROM tables_round r
                WHERE (SELECT count(*) FROM tables_bet b WHERE b.round_id = r.id) > 1"""),
            "rounds_with_gapped_events": one("""SELECT count(*) FROM (SELECT round_id FROM tables_roundevent
                GROUP BY round_id HAVING max(seq) + 1 <> count(*) OR count(DISTINCT seq) <> count(*)) g"""),
            "live_rounds": one("SELECT count(*) FROM tables_round WHERE status <> 'settled'"),
        }


def test_postgresql_restart_under_load_gives_503s_then_recovers_with_nothing_half_written(service):
    pg, url, port, floor, web = service
    stop = threading.Event()
    tablets = [Tablet(port, floor["tokens"][code], floor["tables"][code], stop) for code in ("BAC1", "BAC2")]
    for t in tablets:
        t.start()
    # given the tablets playing
    wait_until(lambda: all(len(t.settled) >= 2 for t in tablets), timeout=60, what="two rounds at each table")
    # when PostgreSQL stops for a few seconds, then comes back
    down_at = time.monotonic()
    pg.stop("fast")
    # (meanwhile the readiness probe fails and names the database; live still answers: the process is up)
    probe = Api(port).get("/health/ready")
    assert probe.status == 503, probe.body
    assert probe.body["failing"][0] == "database"
    assert probe.body["checks"]["database"]["error"].startswith("unreachable")
    assert Api(port).get("/health/live").status == 200
    time.sleep(3)
    pg.start()
    up_at = time.monotonic()
    # then the service recovers by itself: each tablet settles rounds again
    settled_before = [len(t.settled) for t in tablets]
    wait_until(lambda: all(len(t.settled) >= n + 2 for t, n in zip(tablets, settled_before)) or
               any(t.error for t in tablets), timeout=90, what="two more rounds at each table after the restart")
    stop.set()
    for t in tablets:
        t.join(60)
    assert [t.error for t in tablets] == [None, None]

    answers = [a for t in tablets for a in t.answers]
    during = [a for a in answers if down_at <= a[0] <= up_at + 1]
    unavailable = [a for a in answers if a[1] == 503]
    # every failure during the outage was a 503 with the clear body and Retry-After; never a 500
    assert unavailable, "no request met the outage"
    assert {a[2]["error"]["code"] for a in unavailable} == {"database_unavailable"}
    assert all(a[3].get("retry-after") == "5" for a in unavailable)
    assert not [a for a in answers if a[1] >= 500 and a[1] != 503], [a for a in answers if a[1] >= 500][:3]
    assert {a[1] for a in during} <= {0, 200, 201, 503}
    assert all(t.settled[-1][0] > up_at for t in tablets)

    # and no half-written round: every invariant holds in the database
    facts = _invariants(url)
    assert facts["settled"] == sum(len(t.settled) for t in tablets)
    assert facts["rounds"] == facts["settled"] + facts["live_rounds"]
    assert facts["live_rounds"] <= 2  # at most the round each tablet was in when told to stop
    bad = {k: v for k, v in facts.items() if k not in ("rounds", "settled", "live_rounds") and v}
    assert bad == {}, json.dumps(facts)
    # and the probe is green again
    assert Api(port).get("/health/ready").status == 200
    # and the audit trail's hash chains are intact across the crash
    verified = manage("verify_audit", env=service_env(url))
    assert verified.startswith("OK:"), verified
