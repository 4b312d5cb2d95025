"""The transactional outbox: a job exists exactly when its change does, is sent once, survives Redis."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from accounting.models import Alert
from casino.core.models import Outbox
from casino.outbox import enqueue, pending_count, relay_outbox
from tables.models import Bet, Round, Settlement
from tests.faults.helpers import (
    CLOSED_PORT_URL,
    Worker,
    broker_at,
    drop_queue,
    fresh_queue,
    play_baccarat_round,
    queue_length,
    wait_for,
)
from tests.fixtures import as_user

LARGE = {"seat": 1, "type": "banker", "amount": 500_000}  # at CROUPIER["LARGE_BET"]: an alert job per bet


def test_embedded_mode_runs_the_job_in_process_once_the_bet_commits(floor, django_capture_on_commit_callbacks):
    # given the embedded mode (tasks eager) and a dealer
    dealer = as_user(floor.dealer)
    # when a large bet is placed and the transaction commits
    with django_capture_on_commit_callbacks(execute=True):
        play_baccarat_round(dealer, floor.table, bets=[LARGE], settle=False)
    # then the job was written as a row, marked sent, and ran: one large-bet alert
    bet = Bet.objects.get()
    row = Outbox.objects.get()
    assert (row.task_name, row.args, row.status, row.attempts) == ("accounting.large_bet_alert", [bet.pk], "sent", 1)
    assert list(Alert.objects.values_list("kind", "data__bet")) == [("large_bet", bet.pk)]


def test_a_rolled_back_change_leaves_no_job(floor, django_capture_on_commit_callbacks):
    # given a transaction that enqueues and then fails
    def change_that_fails() -> None:
        with transaction.atomic():
            enqueue("accounting.large_bet_alert", args=[1])
            raise ZeroDivisionError

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(ZeroDivisionError):
        change_that_fails()
    # then neither the row nor the send exists
    assert Outbox.objects.count() == 0
    assert callbacks == []


@pytest.mark.django_db(transaction=True)
def test_pending_jobs_with_one_dedupe_key_collapse_until_sent(settings, redis_url):
    # given the broker down
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queue = fresh_queue()
    with broker_at(CLOSED_PORT_URL, queue=queue):
        # when the same job is asked for twice while it cannot be sent
        first = enqueue("accounting.reconcile_shift", args=[7], dedupe_key="reconcile_shift:7")
        second = enqueue("accounting.reconcile_shift", args=[7], dedupe_key="reconcile_shift:7")
        # then one pending row
        assert first.pk == second.pk
        assert Outbox.objects.filter(status="pending").count() == 1
    try:
        with broker_at(redis_url, queue=queue):
            assert relay_outbox() == 1
            # and once sent, asking again is a new job
            third = enqueue("accounting.reconcile_shift", args=[7], dedupe_key="reconcile_shift:7")
        assert third.pk != first.pk
        assert list(Outbox.objects.order_by("id").values_list("status", flat=True)) == ["sent", "sent"]
        assert queue_length(redis_url, queue) == 2
    finally:
        drop_queue(redis_url, queue)


@pytest.mark.django_db(transaction=True)
def test_two_relays_at_once_send_each_job_exactly_once(settings, redis_url):
    # given 120 jobs left pending by an outage
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queue = fresh_queue()
    with broker_at(CLOSED_PORT_URL, queue=queue):
        for i in range(120):
            enqueue("accounting.large_bet_alert", args=[i])
    assert pending_count() == 120
    try:
        # when two relays run at the same time once the broker is back
        with broker_at(redis_url, queue=queue):
            barrier = threading.Barrier(2)
            sent: list[int] = []

            def relay() -> None:
                try:
                    barrier.wait()
                    sent.append(relay_outbox(batch=10))
                finally:
                    connection.close()

            threads = [threading.Thread(target=relay) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        # then every job was sent once: 120 messages, 120 rows sent, none twice
        assert sum(sent) == 120
        assert queue_length(redis_url, queue) == 120
        assert pending_count() == 0
    finally:
        drop_queue(redis_url, queue)


@pytest.mark.django_db(transaction=True)
def test_redis_down_dealers_keep_playing_and_every_job_runs_when_it_returns(floor, settings, tmp_path, redis_url):
    # given Redis unreachable (the broker at a closed port) and a real deployment's settings (no eager tasks)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    dealer = as_user(floor.dealer)
    queue = fresh_queue()
    with broker_at(CLOSED_PORT_URL, queue=queue):
        # when the dealer plays three rounds, each with a large bet (a job each)
        for _ in range(3):
            play_baccarat_round(dealer, floor.table, bets=[LARGE])
    # then every round settled (PostgreSQL is the record) and the three jobs wait in the outbox
    assert list(Round.objects.values_list("status", flat=True)) == ["settled"] * 3
    assert Settlement.objects.count() == 3
    pending = list(Outbox.objects.filter(status="pending").values_list("task_name", "args"))
    assert sorted(pending) == sorted(("accounting.large_bet_alert", [b]) for b in Bet.objects.values_list("pk",
                                                                                                        flat=True))
    assert Outbox.objects.filter(status="pending", attempts__gte=1).count() >= 1  # a send was tried and refused
    assert Alert.objects.count() == 0

    # when Redis is back: a real worker listens and the relay runs (as beat would)
    worker = Worker(queue, broker=redis_url, log=tmp_path / "worker.log")
    try:
        with broker_at(redis_url, queue=queue):
            assert relay_outbox() == 3
        # then each job ran once on the worker: one alert per large bet, nothing lost
        wait_for(lambda: Alert.objects.count() == 3, timeout=60, what=lambda: f"3 alerts; worker log:\n{worker.log()}")
    finally:
        worker.stop()
        drop_queue(redis_url, queue)
    assert sorted(Alert.objects.values_list("data__bet", flat=True)) == sorted(Bet.objects.values_list("pk",
                                                                                                     flat=True))
    assert pending_count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_first_send_after_an_outage_relays_what_was_left_behind(floor, settings, redis_url):
    # given two jobs left pending while Redis was down
    settings.CELERY_TASK_ALWAYS_EAGER = False
    dealer = as_user(floor.dealer)
    queue = fresh_queue()
    with broker_at(CLOSED_PORT_URL, queue=queue):
        play_baccarat_round(dealer, floor.table, bets=[LARGE])
        play_baccarat_round(dealer, floor.table, bets=[LARGE])
    assert pending_count() == 2
    try:
        # when Redis is back and the next round's large bet commits
        with broker_at(redis_url, queue=queue):
            play_baccarat_round(dealer, floor.table, bets=[LARGE])
        # then that send also relayed the two left behind: three messages, nothing pending
        assert pending_count() == 0
        assert queue_length(redis_url, queue) == 3
    finally:
        drop_queue(redis_url, queue)


@pytest.mark.django_db(transaction=True)
def test_a_job_relayed_after_an_outage_carries_the_id_of_the_request_that_asked_for_it(floor, settings, redis_url):
    import json

    import redis

    from casino.context import serving

    # given a large bet placed while Redis was down, in a request with its id
    settings.CELERY_TASK_ALWAYS_EAGER = False
    dealer = as_user(floor.dealer)
    queue = fresh_queue()
    with broker_at(CLOSED_PORT_URL, queue=queue):
        answer = dealer.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_X_REQUEST_ID="bet-7f3a")
        round_id = answer.json()["id"]
        answer = dealer.post(f"/api/rounds/{round_id}/bets/", LARGE, format="json", HTTP_X_REQUEST_ID="bet-7f3a")
        assert answer.status_code == 201, answer.json()
    [row] = Outbox.objects.filter(status="pending")
    assert row.request_id == "bet-7f3a"
    try:
        # when the relay sends it later, itself serving another id (beat's relay job runs under its own)
        with broker_at(redis_url, queue=queue), serving("relay-job-0001"):
            assert relay_outbox() == 1
        # then the message the worker will take names the bet's request, not the relay's
        [raw] = redis.Redis.from_url(redis_url).lrange(queue, 0, -1)
        message = json.loads(raw)
        assert message["headers"]["task"] == "accounting.large_bet_alert"
        assert message["headers"]["croupier_request_id"] == "bet-7f3a"
    finally:
        drop_queue(redis_url, queue)
