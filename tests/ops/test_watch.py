"""Probes with the right scope, causes named, and the web processes' own stale-job watch."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import Alert
from casino.ops import watch
from casino.ops.jobs import BEAT, WATCH, WORKER
from casino.ops.models import JobHeartbeat
from tests.ops.helpers import heartbeat, jobs_alive, scrape, value

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def deployed(settings):
    """A deployment's settings: a worker and beat expected, jobs sent to a broker (Redis)."""
    settings.OPS_EXPECT_WORKER = True
    settings.CELERY_TASK_ALWAYS_EAGER = False
    return settings


def test_the_load_balancers_probe_checks_the_database_only(db, client, deployed):
    # given Redis (cache and broker) unreachable, and no worker or beat for ten minutes
    deployed.REDIS_URL = CLOSED_PORT
    deployed.CELERY_BROKER_URL = CLOSED_PORT
    heartbeat(WORKER, ago=600)
    heartbeat(BEAT, ago=600)
    # when the load balancer asks
    response = client.get("/health/serve")
    # then this web process stays in the pool: it can serve the floor
    assert response.status_code == 200, response.json()
    assert response.json()["failing"] == []
    assert list(response.json()["checks"]) == ["database"]
    assert response["Cache-Control"] == "no-store"
    # while readiness, for the monitoring, names every failing part
    body = client.get("/health/ready").json()
    assert body["failing"] == ["redis", "broker", "worker", "beat"]
    assert client.post("/health/serve").status_code == 405


def test_a_late_worker_is_put_down_to_redis_when_the_broker_does_not_answer(db, client, deployed):
    deployed.CELERY_BROKER_URL = CLOSED_PORT
    heartbeat(WORKER, ago=600)
    heartbeat(BEAT, ago=600)
    checks = client.get("/health/ready?checks=broker,worker,beat").json()["checks"]
    assert checks["broker"]["error"] == "unreachable (ConnectionError)"
    assert checks["worker"]["cause"] == "broker"
    assert checks["worker"]["error"] == "the job queue's Redis is unreachable (ConnectionError): no job reaches a worker"
    assert checks["beat"]["cause"] == "broker"
    assert checks["beat"]["error"] == "the job queue's Redis is unreachable (ConnectionError): beat cannot send"


def test_a_late_worker_with_the_broker_answering_is_the_worker(db, client, deployed):
    heartbeat(WORKER, ago=600)
    heartbeat(BEAT, ago=5)
    body = client.get("/health/ready?checks=broker,worker,beat").json()
    assert body["failing"] == ["worker"]
    assert body["checks"]["broker"]["ok"] is True
    assert body["checks"]["worker"]["cause"] == "worker"
    assert body["checks"]["worker"]["error"].endswith("the worker is not running (or is stuck)")
    assert "cause" not in body["checks"]["beat"]


def test_a_redis_outage_raises_one_alert_naming_redis_not_the_worker(floor, deployed):
    # given a worker and beat that are up but cannot reach the broker, last heard from ten minutes ago
    deployed.CELERY_BROKER_URL = CLOSED_PORT
    heartbeat(WORKER, ago=600)
    heartbeat(BEAT, ago=600)
    # when the web processes' watch runs
    assert watch.watch_once(every=60) == ["broker"]
    # then one critical alert names Redis as the cause; none says the worker or beat is not running
    [alert] = Alert.objects.filter(kind="stale_job")
    assert alert.severity == "critical"
    assert alert.data["key"] == "broker"
    assert "The job queue (Redis) cannot be reached" in alert.message
    assert "Tell IT: Croupier's Redis is not reachable." in alert.message
    assert "worker is not running" not in alert.message


def test_the_watch_raises_the_alert_without_a_worker_or_a_probe_once_per_period(floor, deployed):
    # given a worker gone for ten minutes (beat sends, the broker answers)
    heartbeat(WORKER, ago=600)
    heartbeat(BEAT, ago=5)
    now = timezone.now()
    # when two web processes wake in the same minute
    assert watch.watch_once(every=60, now=now) == ["worker"]
    assert watch.watch_once(every=60, now=now + dt.timedelta(seconds=20)) is None
    # then the check ran once, and raised one alert
    assert list(Alert.objects.filter(kind="stale_job").values_list("data__key", flat=True)) == ["worker"]
    row = JobHeartbeat.objects.get(name=WATCH)
    assert row.runs == 1
    # and the next period's turn runs again, raising nothing new for the same stall
    assert watch.watch_once(every=60, now=now + dt.timedelta(seconds=61)) == ["worker"]
    assert Alert.objects.filter(kind="stale_job").count() == 1


def test_no_alert_on_a_first_start_before_the_first_heartbeat_was_due(floor, deployed):
    # given a new deployment: nothing has run yet, the web processes start watching now
    assert not JobHeartbeat.objects.exists()
    start = timezone.now()
    # when the watch runs before the worker's first heartbeat was due (90 s at a 30 s period)
    assert watch.watch_once(every=60, now=start) == []
    assert watch.watch_once(every=60, now=start + dt.timedelta(seconds=80)) == []
    # then nothing is raised; once it was due and none came, the worker and beat are reported
    assert not Alert.objects.filter(kind="stale_job").exists()
    assert sorted(watch.watch_once(every=60, now=start + dt.timedelta(seconds=150)) or []) == ["beat", "worker"]
    keys = sorted(Alert.objects.filter(kind="stale_job").values_list("data__key", flat=True))
    assert keys == ["beat", "worker"]


def test_the_metrics_say_whether_redis_answers(db, client, deployed):
    jobs_alive()
    samples = scrape(client)
    assert value(samples, "croupier_redis_up") == 1
    assert value(samples, "croupier_broker_up") == 1
    deployed.CELERY_BROKER_URL = CLOSED_PORT
    samples = scrape(client)
    assert value(samples, "croupier_broker_up") == 0
    assert ("croupier_broker_up", ()) in samples


def test_the_metrics_folder_is_made_by_whatever_needs_it(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = tmp_path / "missing" / "prometheus"
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), "DJANGO_SETTINGS_MODULE": "casino.settings"}
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=Path(__file__).resolve().parents[2], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert folder.is_dir()
    assert folder.stat().st_mode & 0o077 == 0  # private to the service's user
