"""When jobs are not being run: the banner on the pit and accounting screens, the stale-job alerts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import Alert, ExportStatus, ReportExport
from casino.audit.models import AuditRecord, AuditVerification
from casino.ops import health
from casino.ops.tasks import check_jobs
from tables.models import Shift
from tests.ops.helpers import heartbeat, jobs_alive, page, scrape, value

RECONCILE = "accounting.reconcile_due_shifts"  # every 15 minutes: late after 30


@pytest.fixture
def watched(settings):
    settings.OPS_EXPECT_WORKER = True
    return settings


def test_the_stale_job_alert_appears_when_the_last_reconciliation_is_older_than_its_period(floor, watched, client):
    # given a live worker and beat, and a reconciliation job that last succeeded 40 minutes ago
    jobs_alive()
    heartbeat(RECONCILE, ago=40 * 60)
    # when the stale-job check runs (beat runs it every minute)
    assert check_jobs.apply().get() == ["reconciliation"]
    # then one critical-or-warning accounting alert says so, audited, and a second check raises no other
    alert = Alert.objects.get(kind="stale_job")
    assert alert.severity == "warning"
    assert alert.message.startswith("Shift reconciliation has not run since ")
    assert "(40 min ago); it is due every 15 min" in alert.message
    assert alert.data["key"] == "reconciliation"
    assert AuditRecord.objects.filter(action="alert.raise", object_id=str(alert.pk)).count() == 1
    check_jobs.apply()
    assert Alert.objects.filter(kind="stale_job").count() == 1
    # and the pit manager and the accountant see it on their screens, and the metrics count it
    for user, path in ((floor.manager, "/pit/"), (floor.accountant, "/accounting/")):
        html = page(user, path)
        assert "Shift reconciliation has not run since" in html, path
    assert value(scrape(client), "croupier_job_late", check="reconciliation") == 1


def test_a_reconciliation_within_its_period_raises_nothing(floor, watched):
    jobs_alive()
    heartbeat(RECONCILE, ago=20 * 60)  # late only after 30 minutes
    assert check_jobs.apply().get() == []
    assert not Alert.objects.filter(kind="stale_job").exists()


def test_a_shift_left_unreconciled_is_a_stale_job_even_when_the_sweep_runs(floor, watched):
    # given the sweep job running, but a shift closed two hours ago still not reconciled
    jobs_alive()
    heartbeat(RECONCILE, ago=60)
    Shift.objects.filter(pk=floor.shift.pk).update(status="closed", closed_at=timezone.now() - dt.timedelta(hours=2),
                                                    closed_by=floor.manager)
    assert check_jobs.apply().get() == ["reconciliation_overdue"]
    alert = Alert.objects.get(kind="stale_job")
    assert f"Shift {floor.shift} has waited 2 h" in alert.message


def test_an_audit_verification_overdue_is_a_stale_job(floor, watched):
    jobs_alive()
    heartbeat(RECONCILE, ago=60)
    old = timezone.now() - dt.timedelta(hours=3)  # verified hourly: late after 2 h
    AuditVerification.objects.create(trigger="beat", requested_at=old, status="done", started_at=old, finished_at=old,
                                     ok=True)
    assert check_jobs.apply().get() == ["audit_verification"]
    assert "The audit trail was last verified at" in Alert.objects.get(kind="stale_job").message


def test_the_banner_says_when_no_worker_is_running(floor, watched):
    # given a worker last heard from at 25 minutes ago, beat still sending
    heartbeat("casino.ops.heartbeat", ago=25 * 60)
    heartbeat("beat", ago=5)
    heartbeat(RECONCILE, ago=25 * 60)
    # when the accountant opens the accounting screen
    html = page(floor.accountant, "/accounting/")
    # then a banner says jobs are not being run, why it matters and whom to tell
    assert "Background jobs are not being run" in html
    assert "No job worker has answered since" in html
    assert "(25 min ago)" in html
    assert "Tell IT: the Croupier worker is not running." in html
    # and the pit manager's dashboard says the same; the dealer's screen does not
    assert "No job worker has answered since" in page(floor.manager, "/pit/")
    assert "Background jobs" not in page(floor.dealer, "/")


def test_no_banner_when_jobs_run(floor, watched):
    jobs_alive()
    heartbeat(RECONCILE, ago=60)
    html = page(floor.accountant, "/accounting/")
    assert "Background jobs" not in html


def test_no_banner_in_the_embedded_mode(floor, settings):
    settings.OPS_EXPECT_WORKER = False  # jobs run in process: there is no worker to miss
    assert "Background jobs" not in page(floor.accountant, "/accounting/")


def test_an_export_shows_how_long_it_has_waited(floor, watched):
    ReportExport.objects.create(report="revenue", format="xlsx", requested_by=floor.accountant,
                                status=ExportStatus.QUEUED, created_at=timezone.now() - dt.timedelta(minutes=12))
    html = page(floor.accountant, "/accounting/")
    assert "Queued <span class=\"muted\">· waiting 12\xa0minutes</span>" in html


def test_a_failing_probe_raises_the_alert_when_no_worker_can(floor, watched, client, monkeypatch):
    # given no worker for ten minutes (so no stale-job check runs in one either)
    monkeypatch.setattr(health, "_alerted_at", 0.0)
    heartbeat("casino.ops.heartbeat", ago=600)
    heartbeat("beat", ago=600)
    # when the load balancer's probe finds it
    assert client.get("/health/ready").status_code == 503
    # then the alerts are on the screens all the same
    keys = sorted(a.data["key"] for a in Alert.objects.filter(kind="stale_job"))
    assert keys == ["beat", "worker"]
    assert Alert.objects.get(kind="stale_job", data__key="worker").severity == "critical"
