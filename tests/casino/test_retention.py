"""Retention: sent outbox jobs and idempotency keys go once past their window; recent ones and
pending jobs stay, and a retry inside the window still replays its first answer."""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.utils import timezone

from casino import task_names
from casino.celery import app
from casino.core.models import IdempotencyRecord, Outbox, OutboxStatus
from casino.idempotency import idempotency_purge
from casino.outbox import outbox_purge
from tables.models import Round


def _job(name: str, *, created_days_ago: float, sent_days_ago: float | None) -> Outbox:
    now = timezone.now()
    return Outbox.objects.create(
        task_name=name, task_id=uuid.uuid4(), created_at=now - dt.timedelta(days=created_days_ago),
        status=OutboxStatus.PENDING if sent_days_ago is None else OutboxStatus.SENT,
        sent_at=None if sent_days_ago is None else now - dt.timedelta(days=sent_days_ago))


def test_the_windows_are_a_week_by_default():
    assert (settings.OUTBOX_RETENTION_DAYS, settings.IDEMPOTENCY_RETENTION_DAYS) == (7, 7)


def test_sent_jobs_past_the_window_go_recent_and_pending_ones_stay(db):
    # given jobs around the 7-day window, and one that the broker never took, a month old
    stuck = _job("stuck", created_days_ago=30, sent_days_ago=None)
    old = [_job(f"old-{i}", created_days_ago=9, sent_days_ago=8) for i in range(5)]
    edge = _job("sent-yesterday-of-an-old-job", created_days_ago=10, sent_days_ago=1)
    recent = _job("recent", created_days_ago=6, sent_days_ago=6)
    today = _job("today", created_days_ago=0, sent_days_ago=None)
    # when the purge runs in batches of two
    deleted = outbox_purge(batch=2)
    # then exactly the five old sent jobs went
    assert deleted == 5
    assert not Outbox.objects.filter(pk__in=[j.pk for j in old]).exists()
    assert set(Outbox.objects.values_list("task_name", flat=True)) == {stuck.task_name, edge.task_name,
                                                                       recent.task_name, today.task_name}
    assert Outbox.objects.get(pk=stuck.pk).status == OutboxStatus.PENDING
    # and a second run finds nothing more
    assert outbox_purge() == 0


def test_the_pending_job_is_still_relayed_after_a_purge(db):
    stuck = _job(task_names.OUTBOX_RELAY, created_days_ago=30, sent_days_ago=None)
    outbox_purge()
    from casino.outbox import relay_outbox

    assert relay_outbox() == 1  # embedded mode: it runs in process
    assert Outbox.objects.get(pk=stuck.pk).status == OutboxStatus.SENT


def _age(key: str, days: float) -> None:
    IdempotencyRecord.objects.filter(key=key).update(created_at=timezone.now() - dt.timedelta(days=days))


def test_old_keys_go_recent_keys_stay_and_still_replay(floor, dealer_api):
    # given a round opened 8 days ago under one key, and a bet placed 6 days ago under another
    opened = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="open-old")
    assert opened.status_code == 201
    url = f"/api/rounds/{opened.json()['id']}/bets/"
    bet = {"seat": 1, "type": "player", "amount": 1000}
    placed = dealer_api.post(url, bet, format="json", HTTP_IDEMPOTENCY_KEY="bet-recent")
    assert placed.status_code == 201
    _age("open-old", 8)
    _age("bet-recent", 6)
    # when the purge runs
    assert idempotency_purge(batch=1) == 1
    # then the old key is gone and the recent one is kept
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["bet-recent"]
    # and a retry inside the window replays the first answer, writing nothing
    again = dealer_api.post(url, bet, format="json", HTTP_IDEMPOTENCY_KEY="bet-recent")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == placed.json()
    assert floor.table.rounds.get().bets.count() == 1
    # and a forgotten key runs as a new request, which the round service refuses: nothing is written
    late = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="open-old")
    assert late.status_code == 409
    assert Round.objects.count() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["bet-recent"]


def test_the_beat_runs_both_purges_hourly_by_their_task_names(db):
    app.loader.import_default_modules()
    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule[task_names.OUTBOX_PURGE] == schedule[task_names.IDEMPOTENCY_PURGE] == 3600
    for name in schedule:
        assert name in app.tasks, name
    _job("old", created_days_ago=9, sent_days_ago=8)
    assert app.tasks[task_names.OUTBOX_PURGE].apply().get() == 1
    assert app.tasks[task_names.IDEMPOTENCY_PURGE].apply().get() == 0


def test_every_task_name_is_a_registered_task():
    app.loader.import_default_modules()
    names = {v for k, v in vars(task_names).items() if k.isupper()}
    assert names <= set(app.tasks)
