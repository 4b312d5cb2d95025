"""A worker killed while nobody probes: the web processes' own watch raises the alert in the documented time.

Real processes, as the units run them (deploy/systemd): gunicorn with ``casino/gunicorn.conf.py``, a Celery
worker and beat with ``--quiet``, JSON logs, a 5 s heartbeat, a 15 s slack (``JOB_LATE_SLACK``, 60 s in
production: the rule is the same, the wait a minute shorter) and a 2 s watch, on a queue of their own in the
run's own Redis. The worker is killed with SIGKILL; nothing asks ``/health/ready`` and no stale-job job can
run (the worker that would run beat's check is the one killed). A worker is late 20 s after its last
heartbeat at a 5 s period (``max(2 × 5, 5 + 15)``) and the next watch turn comes within 2 s: the alert
must be there within 20 + 5 + 2 s of the kill, plus a margin for a loaded machine.
"""

from __future__ import annotations

import json
import signal
import time

import pytest
from django.utils import timezone

from accounting.models import Alert
from bench.common import ROOT, VENV_BIN, Process, free_port, service_env, stopping
from casino.ops.jobs import BEAT, WATCH, WORKER
from casino.ops.models import JobHeartbeat
from tests.faults.helpers import database_url, drop_queue, fresh_queue, wait_for

HEARTBEAT_EVERY, WATCH_EVERY, LATE_SLACK = 5, 2, 15
LATE_AFTER = max(2 * HEARTBEAT_EVERY, HEARTBEAT_EVERY + LATE_SLACK)
MARGIN = 20  # seconds: a loaded CI machine (processes starting, Python's imports) is slow
ROOT_WARNING = "You're running the worker with superuser privileges"  # only when the tests run as root


def _json_lines(text: str, where: str) -> list[dict]:
    lines, plain = [], []
    in_root_warning = False
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("{"):
            lines.append(json.loads(line))
            in_root_warning = False
        elif ROOT_WARNING in line or in_root_warning:
            # Celery's warning to a worker run as root (the units run it as `croupier`): its few text lines
            in_root_warning = not line.strip().startswith("_warn_or_raise_security_error")
        else:
            plain.append(line)
    assert plain == [], f"{where}: lines that are not JSON: {plain[:5]}"
    return lines


@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_raises_the_alert_without_any_probe(settings, redis_url, tmp_path):
    settings.OPS_EXPECT_WORKER = True
    queue = fresh_queue()
    port = free_port()
    env = service_env(database_url(), CELERY_BROKER_URL=redis_url, CELERY_QUEUE=queue, LOG_FORMAT="json",
                      LOG_LEVEL="INFO", HEARTBEAT_EVERY=str(HEARTBEAT_EVERY), OPS_WATCH_EVERY=str(WATCH_EVERY),
                      JOB_LATE_SLACK=str(LATE_SLACK),
                      OPS_EXPECT_WORKER="true", HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2",
                      PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "not-yet" / "prometheus"))
    celery = str(VENV_BIN / "celery")
    web = Process([str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "casino" / "gunicorn.conf.py"),
                   "casino.wsgi:application"], env=env, log=tmp_path / "web.log")
    worker = Process([celery, "-A", "casino", "--quiet", "worker", "--loglevel", "INFO", "--concurrency", "1",
                      "--queues", queue, "--without-gossip", "--without-mingle", "--hostname", f"{queue}@%h"],
                     env=env, log=tmp_path / "worker.log")
    beat = Process([celery, "-A", "casino", "--quiet", "beat", "--loglevel", "INFO", "--schedule",
                    str(tmp_path / "beat-schedule")], env=env, log=tmp_path / "beat.log")

    def logs() -> str:
        return f"\nweb:\n{web.log()[-2000:]}\nworker:\n{worker.log()[-2000:]}\nbeat:\n{beat.log()[-2000:]}"

    try:
        with stopping(web, beat):
            # given web, a worker and beat running, the worker's heartbeats arriving and the web's watch on
            def running() -> bool:
                rows = {r.name: r for r in JobHeartbeat.objects.all()}
                now = timezone.now()
                return all(name in rows and rows[name].last_success_at is not None and
                           (now - rows[name].last_success_at).total_seconds() < 3 * HEARTBEAT_EVERY
                           for name in (WORKER, BEAT, WATCH))

            wait_for(running, timeout=120, every=0.5, what=lambda: "the heartbeats and the web's watch" + logs())
            assert not Alert.objects.filter(kind="stale_job").exists()
            # when the worker is killed, and nobody probes anything
            worker.stop(signal.SIGKILL)
            killed = time.monotonic()
            # then the web processes raise the alert by themselves, within the documented time
            wait_for(lambda: Alert.objects.filter(kind="stale_job", data__key="worker").exists(),
                     timeout=LATE_AFTER + HEARTBEAT_EVERY + WATCH_EVERY + MARGIN, every=0.5,
                     what=lambda: "the worker's stale-job alert" + logs())
            elapsed = time.monotonic() - killed
            print(f"the worker's alert was raised {elapsed:.1f} s after the kill (bound {LATE_AFTER + WATCH_EVERY} s)")
            alert = Alert.objects.get(kind="stale_job", data__key="worker")
            assert alert.severity == "critical"
            assert "Tell IT: the Croupier worker is not running." in alert.message
            # not put down to Redis (it answers), and beat, still sending, is not reported
            assert list(Alert.objects.filter(kind="stale_job").values_list("data__key", flat=True)) == ["worker"]
            assert elapsed <= LATE_AFTER + WATCH_EVERY + MARGIN, elapsed
            assert JobHeartbeat.objects.get(name=WATCH).runs >= 2
    finally:
        worker.stop(signal.SIGKILL)
        drop_queue(redis_url, queue)
    # and every line gunicorn, the worker and beat wrote is one JSON object (LOG_FORMAT=json)
    web_lines = _json_lines(web.log(), "gunicorn")
    assert any(line["logger"] == "gunicorn.error" and "Booting worker" in line["message"] for line in web_lines)
    worker_lines = _json_lines(worker.log(), "worker")
    assert any(line["logger"].startswith("celery") and "ready" in line["message"] for line in worker_lines)
    beat_lines = _json_lines(beat.log(), "beat")
    assert any(line["logger"] == "celery.beat" for line in beat_lines)
    assert (tmp_path / "not-yet" / "prometheus").is_dir()  # made by the processes that needed it
