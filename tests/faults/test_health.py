"""Readiness against real outages and real processes: Redis stopped, a worker and beat started and killed."""

from __future__ import annotations

import datetime as dt
import json
import warnings

import pytest
from celery.exceptions import AlwaysEagerIgnored
from django.db.models import F

from bench.common import VENV_BIN, Process, service_env, stopping
from casino.celery import app
from casino.context import serving
from casino.ops.jobs import BEAT, WORKER
from casino.ops.models import JobHeartbeat
from tests.faults.helpers import broker_at, database_url, drop_queue, fresh_queue, wait_for


def test_ready_turns_503_and_names_redis_when_redis_stops(db, client, settings, private_redis):
    # given the cache on a Redis server of the test's own, answering
    settings.REDIS_URL = private_redis.url()
    assert client.get("/health/ready?checks=database,redis").status_code == 200
    # when Redis stops
    private_redis.stop()
    response = client.get("/health/ready?checks=database,redis")
    # then the probe fails at once, naming Redis and only Redis
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["redis"]
    assert body["checks"]["redis"]["error"] == "unreachable (ConnectionError)"
    assert body["checks"]["database"]["ok"] is True
    # and live still answers: the process is up, it is its dependencies that are not
    assert client.get("/health/live").status_code == 200


def _lines(path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_and_beat_write_the_heartbeats_readiness_reads(client, settings, redis_url, tmp_path):
    # given a worker and beat of this test's own (heartbeat every 5 s) on its own queue and Redis
    settings.OPS_EXPECT_WORKER = True
    queue = fresh_queue()
    env = service_env(database_url(), CELERY_BROKER_URL=redis_url, CELERY_QUEUE=queue, HEARTBEAT_EVERY="5",
                      LOG_FORMAT="json", LOG_LEVEL="INFO")
    celery = str(VENV_BIN / "celery")
    worker = Process([celery, "-A", "casino", "worker", "--pool", "prefork", "--concurrency", "1", "--queues", queue,
                      "--loglevel", "INFO", "--without-gossip", "--without-mingle", "--hostname", f"{queue}@%h"],
                     env=env, log=tmp_path / "worker.log")
    beat = Process([celery, "-A", "casino", "beat", "--loglevel", "INFO", "--schedule",
                    str(tmp_path / "beat-schedule")], env=env, log=tmp_path / "beat.log")
    try:
        with stopping(worker, beat):
            # when beat has sent heartbeats and the worker has run them
            def ready() -> bool:
                return client.get("/health/ready?checks=worker,beat").status_code == 200

            wait_for(ready, timeout=90, every=1, what=lambda: f"worker and beat heartbeats;\nworker:\n"
                                                           f"{worker.log()[-2000:]}\nbeat:\n{beat.log()[-2000:]}")
            # then readiness names the worker that answered
            body = client.get("/health/ready?checks=worker,beat").json()
            assert body["checks"]["worker"]["host"] == f"{queue}@" + body["checks"]["worker"]["host"].split("@", 1)[1]
            assert body["checks"]["beat"]["age_seconds"] < 30
            # and a job sent while serving a request carries that request's id into the worker's JSON log line
            with broker_at(redis_url, queue=queue), serving("fault-7f3a1c2e"), warnings.catch_warnings():
                warnings.simplefilter("ignore", AlwaysEagerIgnored)  # the test settings' eager mode: not here
                app.send_task(WORKER, queue=queue)

            def job_line() -> list[dict]:
                return [line for line in _lines(tmp_path / "worker.log")
                        if line.get("logger") == "croupier.job" and line.get("request_id") == "fault-7f3a1c2e"]

            [line] = wait_for(job_line, timeout=30, what="the job's log line with the request id")
            assert (line["task"], line["status"]) == (WORKER, "success")
        # when both are gone and their last heartbeats are older than allowed (65 s at a 5 s period)
        JobHeartbeat.objects.filter(name__in=[WORKER, BEAT]).update(
            last_success_at=F("last_success_at") - dt.timedelta(minutes=5))
        response = client.get("/health/ready?checks=worker,beat")
        # then readiness fails, naming both
        assert response.status_code == 503
        assert response.json()["failing"] == ["worker", "beat"]
    finally:
        drop_queue(redis_url, queue)


@pytest.mark.django_db(transaction=True)
def test_redis_killed_the_load_balancers_probe_stays_up_while_the_floor_plays(floor, client, settings, private_redis):
    from casino.outbox import pending_count
    from tables.models import Round
    from tests.faults.helpers import play_baccarat_round
    from tests.fixtures import as_user
    from tests.ops.helpers import heartbeat

    # given a deployment whose cache and job queue are one Redis server (the test's own), a worker and beat
    # that answered seconds ago, and the load balancer's probe green
    settings.OPS_EXPECT_WORKER = True
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = private_redis.url(1)
    settings.CELERY_BROKER_URL = private_redis.url(2)  # what readiness pings; broker_at points the app there
    heartbeat(WORKER, ago=5)
    heartbeat(BEAT, ago=5)
    dealer = as_user(floor.dealer)
    with broker_at(private_redis.url(2), queue=fresh_queue()):
        assert client.get("/health/serve").status_code == 200
        assert client.get("/health/ready").status_code == 200, client.get("/health/ready").json()
        # when Redis is killed
        private_redis.process.kill()
        private_redis.process.wait(10)
        # then the probe that keeps web processes in the pool stays 200 while the dealer plays rounds to the end
        for _ in range(3):
            assert client.get("/health/serve").status_code == 200
            play_baccarat_round(dealer, floor.table, bets=[{"seat": 1, "type": "banker", "amount": 500_000}])
        served = client.get("/health/serve").json()
        assert (served["status"], served["failing"], list(served["checks"])) == ("ok", [], ["database"])
        assert list(Round.objects.values_list("status", flat=True)) == ["settled"] * 3
        assert pending_count() == 3  # the large bets' jobs wait in the outbox, none lost
        # and readiness, for the monitoring, names Redis (the cache and the job queue) and only them
        body = client.get("/health/ready").json()
        assert body["failing"] == ["redis", "broker"]
        assert body["checks"]["redis"]["error"] == "unreachable (ConnectionError)"
        assert body["checks"]["broker"]["error"] == "unreachable (ConnectionError)"
        # when the worker's heartbeats stop arriving (it cannot receive them): the cause named is Redis
        heartbeat(WORKER, ago=600)
        body = client.get("/health/ready").json()
        assert body["failing"] == ["redis", "broker", "worker"]
        assert body["checks"]["worker"]["cause"] == "broker"
        assert client.get("/health/serve").status_code == 200
