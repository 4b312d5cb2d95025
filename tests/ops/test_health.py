"""/health/live and /health/ready: no sign-in, every check named with its figure, 503 when one fails."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.core.models import Outbox
from casino.ops import status
from casino.ops.jobs import BEAT, WORKER
from tests.ops.helpers import heartbeat, jobs_alive

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_live_answers_without_touching_anything(db, client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/health/live")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_ready_names_every_check_with_its_figure(db, client, settings):
    # given a site that expects a worker and beat, both of which answered seconds ago
    settings.OPS_EXPECT_WORKER = True
    jobs_alive(worker=4, beat=2)
    # when the orchestrator asks, without signing in
    response = client.get("/health/ready")
    # then every check passes and says what it measured
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert list(body["checks"]) == ["database", "redis", "broker", "worker", "beat", "outbox"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["database"]["migrations_pending"] == 0
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["redis"]["ms"] >= 0
    assert body["checks"]["worker"]["host"] == "celery@floor-1"
    assert 3 <= body["checks"]["worker"]["age_seconds"] < 30
    assert body["checks"]["worker"]["late_after_seconds"] == 90  # heartbeat every 30 s
    assert body["checks"]["outbox"] == {"ok": True, "pending": 0, "oldest_age_seconds": 0.0,
                                        "stuck_after_seconds": 300}



def test_the_slack_after_a_jobs_period_is_a_setting(db, client, settings):
    # given a site whose jobs are late 15 s after their period rather than a minute (JOB_LATE_SLACK)
    settings.OPS_EXPECT_WORKER = True
    settings.JOB_LATE_SLACK = 15
    jobs_alive(worker=4, beat=2)
    # then a 30 s heartbeat is late after twice its period, a 5 s one after its period and the slack
    assert status.late_after(30) == 60
    assert status.late_after(5) == 20
    assert client.get("/health/ready").json()["checks"]["worker"]["late_after_seconds"] == 60

def test_ready_says_nothing_secret(db, client, settings):
    settings.REDIS_URL = "redis://:s3cret-password@127.0.0.1:1/0"
    response = client.get("/health/ready")
    text = response.content.decode()
    assert response.status_code == 503
    assert "s3cret" not in text
    assert "127.0.0.1" not in text
    assert "redis://" not in text
    assert response.json()["checks"]["redis"]["error"].startswith("unreachable")


def test_ready_fails_and_names_redis_when_redis_is_down(db, client, settings):
    # given the cache's Redis unreachable
    settings.REDIS_URL = CLOSED_PORT
    # when the probe asks
    response = client.get("/health/ready")
    # then 503, naming Redis; the database is still fine
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["failing"] == ["redis"]
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


def test_ready_names_the_broker_when_the_job_queue_is_down(db, client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = CLOSED_PORT
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]


def test_ready_fails_and_names_the_worker_and_beat_when_they_stopped(db, client, settings):
    # given a worker and beat last heard from five minutes ago
    settings.OPS_EXPECT_WORKER = True
    jobs_alive(worker=300, beat=300)
    # when the probe asks
    response = client.get("/health/ready")
    # then 503, naming both, with how long ago they were seen
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["worker", "beat"]
    assert 299 <= body["checks"]["worker"]["age_seconds"] < 330


def test_a_worker_that_never_answered_is_not_ready(db, client, settings):
    settings.OPS_EXPECT_WORKER = True
    heartbeat(BEAT, ago=3)
    body = client.get("/health/ready").json()
    assert body["failing"] == ["worker"]
    assert body["checks"]["worker"]["last_seen"] is None


def test_ready_fails_when_the_outbox_is_stuck(db, client):
    # given a job that has waited ten minutes for the broker
    Outbox.objects.create(task_name="accounting.report_export", args=[1],
                          task_id="2f0e5a8e-7a53-4f0e-8d39-3e1c0f1d9a11",
                          created_at=timezone.now() - dt.timedelta(minutes=10))
    response = client.get("/health/ready")
    assert response.status_code == 503
    outbox = response.json()["checks"]["outbox"]
    assert outbox["ok"] is False
    assert outbox["pending"] == 1
    assert outbox["oldest_age_seconds"] >= 600


def test_a_load_balancer_may_ask_only_what_a_web_process_needs(db, client, settings):
    # given a dead worker
    settings.OPS_EXPECT_WORKER = True
    jobs_alive(worker=3600, beat=3600)
    # when the load balancer asks only for the database and Redis
    response = client.get("/health/ready?checks=database,redis")
    # then the web process is ready: the floor's screens stay up
    assert response.status_code == 200
    assert list(response.json()["checks"]) == ["database", "redis"]
    # and an unknown check is refused, naming it
    bad = client.get("/health/ready?checks=database,wrker")
    assert bad.status_code == 400
    assert bad.json()["error"] == "unknown check(s): wrker"


def test_jobs_run_in_process_need_no_worker(db, client, settings):
    settings.OPS_EXPECT_WORKER = False
    body = client.get("/health/ready").json()
    assert body["checks"]["worker"] == {"ok": True, "expected": False, "jobs": "run in process"}
    assert body["checks"]["beat"]["ok"] is True


@pytest.mark.parametrize("path", ["/health/live", "/health/ready"])
def test_probes_need_no_allowed_host_and_refuse_writes(db, client, settings, path):
    settings.ALLOWED_HOSTS = ["croupier.example"]
    assert client.get(path, HTTP_HOST="10.1.2.3:8000").status_code == 200
    assert client.post(path).status_code == 405


def test_the_worker_heartbeat_job_is_scheduled_and_recorded(db, settings):
    from casino.ops.models import JobHeartbeat
    from casino.ops.tasks import heartbeat as heartbeat_task

    assert settings.CELERY_BEAT_SCHEDULE["ops-heartbeat"]["task"] == WORKER
    heartbeat_task.apply()
    row = JobHeartbeat.objects.get(name=WORKER)
    assert (row.runs, row.failures) == (1, 0)
    assert (timezone.now() - row.last_success_at).total_seconds() < 5
