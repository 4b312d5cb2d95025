"""What the fault tests share: a broker switch, a real Celery worker in a subprocess, a played round."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CLOSED_PORT_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1: Redis is "down"
BANKER_WIN = ["9S", "KH", "5D", "3C", "2H", "4S"]  # player 6, banker 7


def http_get(port: int, path: str) -> tuple[int, str]:
    """GET ``path`` from a server of the test's own on 127.0.0.1: its status and body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


@contextlib.contextmanager
def broker_at(url: str, *, queue: str | None = None) -> Iterator[None]:
    """Point this process's Celery app (and the outbox) at ``url``, sending to ``queue``."""
    from casino import outbox
    from casino.celery import app

    saved_env = os.environ.get("CELERY_BROKER_URL")
    saved = (app.conf.broker_url, app.conf.task_default_queue)

    def switch(to: str, default_queue: str) -> None:
        os.environ["CELERY_BROKER_URL"] = to  # Celery reads the variable before its own setting
        app.conf.broker_url = to
        app.conf.task_default_queue = default_queue
        app._pool = None
        app.amqp._producer_pool = None
        outbox._drop_connection()
        outbox._down_until = 0.0

    switch(url, queue or saved[1])
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        switch(saved[0], saved[1])


def fresh_queue() -> str:
    return f"croupier-faults-{uuid.uuid4().hex[:12]}"


def queue_length(redis_url: str, queue: str) -> int:
    import redis

    return redis.Redis.from_url(redis_url).llen(queue)


def drop_queue(redis_url: str, queue: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).delete(queue)


def database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class Worker:
    """``celery worker`` (prefork, one child) on its own queue of ``broker`` against the test database."""

    def __init__(self, queue: str, *, broker: str, slow: str = "", marker: Path | None = None,
                 log: Path | None = None) -> None:
        self.queue = queue
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test", "DATABASE_URL": database_url(),
               "CELERY_BROKER_URL": broker, "FAULTS_QUEUE": queue, "FAULTS_SLOW": slow,
               "FAULTS_MARKER": str(marker or ""), "PYTHONPATH": str(ROOT)}
        self.log_path = log
        out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 (closed with the process)
        self.process = subprocess.Popen([sys.executable, str(ROOT / "tests" / "faults" / "worker.py")], env=env,
                                        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the worker and its pool child
            self.process.wait(10)

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path and self.log_path.exists() else ""


def wait_for(check: Callable[[], Any], *, timeout: float = 30.0, every: float = 0.1,
             what: str | Callable[[], str] = "") -> Any:
    """Poll ``check`` until it is truthy; ``what`` (text, or a callable read on failure) names it."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what() if callable(what) else what}")
        time.sleep(every)


def play_baccarat_round(client: Any, table: Any, *, bets: list[dict[str, Any]], cards: list[str] = BANKER_WIN,
                        settle: bool = True) -> dict[str, Any]:
    """Open, bet, close, deal and (by default) settle one round through the API; every step must succeed."""
    answer = client.post("/api/rounds/", {"table": table.pk}, format="json")
    assert answer.status_code == 201, answer.json()
    url = f"/api/rounds/{answer.json()['id']}"
    for bet in bets:
        answer = client.post(f"{url}/bets/", bet, format="json")
        assert answer.status_code == 201, answer.json()
    answer = client.post(f"{url}/close-betting/", format="json")
    assert answer.status_code == 200, answer.json()
    for card in cards:
        answer = client.post(f"{url}/events/", {"card": card}, format="json")
        assert answer.status_code == 201, answer.json()
    if settle:
        answer = client.post(f"{url}/settle/", format="json")
        assert answer.status_code == 200, answer.json()
    return answer.json()
