"""/metrics under gunicorn: every worker process's figures add up, and survive a worker killed with SIGKILL."""

from __future__ import annotations

import contextlib
import os
import signal
import socket

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bench.common import ROOT, VENV_BIN, Process, free_port, service_env, wait_until
from tests.faults.helpers import database_url, http_get


def _requests_to(port: int, view: str) -> float:
    status, text = http_get(port, "/metrics")
    assert status == 200, text[:300]
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples
               if s.name == "croupier_http_request_duration_seconds_count" and s.labels.get("view") == view)


def _pids(directory) -> set[int]:
    return {int(p.stem.rsplit("_", 1)[1]) for p in directory.glob("*.db") if p.stem.rsplit("_", 1)[1].isdigit()}


@pytest.mark.django_db(transaction=True)
def test_workers_figures_add_up_and_a_killed_worker_loses_none(tmp_path):
    # given a leftover file of a previous run in the metrics directory, and gunicorn with two workers
    prom = tmp_path / "prometheus"
    prom.mkdir()
    (prom / "histogram_999999.db").write_bytes(b"left over")
    port = free_port()
    env = service_env(database_url(), HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2",
                      PROMETHEUS_MULTIPROC_DIR=str(prom))
    web = Process([str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "casino" / "gunicorn.conf.py"),
                   "casino.wsgi:application"], env=env, log=tmp_path / "gunicorn.log")

    def up() -> bool:
        assert web.alive(), web.log()
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
        return False

    try:
        wait_until(up, timeout=60, what="gunicorn to listen")
        # then the leftover is gone: figures of another run are never added to this one's
        assert not (prom / "histogram_999999.db").exists()
        # when 40 requests arrive, each on its own connection (both workers serve some)
        for _ in range(40):
            assert http_get(port, "/api/games/")[0] in (200, 401)  # (401: not signed in)
        # then one scrape counts all 40, whichever worker answers it
        assert _requests_to(port, "games") == 40
        assert len(_pids(prom)) == 2, sorted(p.name for p in prom.iterdir())
        # when a worker is killed with SIGKILL and gunicorn starts another
        victim = min(_pids(prom))
        os.kill(victim, signal.SIGKILL)
        wait_until(lambda: len(_pids(prom) - {victim}) == 2, timeout=60, what="gunicorn to start another worker")
        for _ in range(10):
            assert http_get(port, "/api/games/")[0] in (200, 401)  # (401: not signed in)
        # then nothing it counted is lost, and the new one's requests add up with the others'
        assert _requests_to(port, "games") == 50
    finally:
        web.stop()
