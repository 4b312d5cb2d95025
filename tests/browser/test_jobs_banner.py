"""When the job worker is missing: what the accountant and the pit manager see, from signing in."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounting.models import Alert, ExportStatus, ReportExport
from casino.ops.tasks import check_jobs
from floor.labels import alert_text
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout, axe_violations
from tests.ops.helpers import heartbeat

RECONCILE = "accounting.reconcile_due_shifts"
pytestmark = pytest.mark.browser
LAYOUT = ["header.app nav a", "header.app button", "h1", ".jobs-banner h2", ".jobs-banner li", "main h2"]


@pytest.fixture
def worker_gone(settings, floor):
    """A deployment whose worker last answered 25 minutes ago (beat still runs); its reconciliation is late."""
    settings.OPS_EXPECT_WORKER = True
    heartbeat("casino.ops.heartbeat", ago=25 * 60)
    heartbeat("beat", ago=5)
    heartbeat(RECONCILE, ago=40 * 60)
    check_jobs.apply()  # as beat's last check before the worker went would have, or a readiness probe
    ReportExport.objects.create(report="revenue", format="xlsx", requested_by=floor.accountant,
                                status=ExportStatus.QUEUED, created_at=timezone.now() - dt.timedelta(minutes=12))


def test_the_accountant_sees_why_jobs_wait_and_how_long_an_export_has_waited(screens, worker_gone):
    # when the accountant signs in and opens the accounting screen
    page = screens.page("accountant", at="/accounting/")
    # then a banner says jobs are not being run, what it means and whom to tell
    banner = page.get_by_role("alert").filter(has_text="Background jobs are not being run")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No job worker has answered since")
    expect(banner).to_contain_text("(25 min ago): exports stay queued")
    expect(banner).to_contain_text("Tell IT: the Croupier worker is not running.")
    expect(banner).to_contain_text("Shift reconciliation has not run since")
    # and the queued export says how long it has waited
    row = page.locator("tr", has_text="revenue")
    expect(row).to_contain_text("Queued · waiting 12\xa0minutes")
    # and the stale-job alerts are among the open alerts, worded as the banner words them
    alerts = page.locator("section", has=page.get_by_role("heading", name="Open alerts"))
    for alert in Alert.objects.filter(kind="stale_job"):
        expect(alerts).to_contain_text(alert_text(alert).split(" (")[0])
    assert Alert.objects.filter(kind="stale_job").count() == 2  # the worker and the reconciliation
    assert_labelled(page)
    assert axe_violations(page) == []
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, LAYOUT)
        screens.shot(page, "accounting-jobs-not-running")


def test_the_pit_manager_sees_the_banner_and_the_alert_on_the_dashboard(screens, worker_gone):
    page = screens.page("pm", at="/pit/")
    banner = page.get_by_role("alert").filter(has_text="Background jobs are not being run")
    expect(banner).to_contain_text("No job worker has answered since")
    worker_alert = Alert.objects.get(kind="stale_job", data__key="worker")
    expect(page.locator("#alerts")).to_contain_text(alert_text(worker_alert).split(" (")[0])
    assert axe_violations(page) == []
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, LAYOUT)
        screens.shot(page, "pit-jobs-not-running")


@pytest.fixture
def jobs_running(settings, floor):
    """A deployment whose worker and beat answer, every scheduled job on time."""
    settings.OPS_EXPECT_WORKER = True
    heartbeat("casino.ops.heartbeat", ago=5)
    heartbeat("beat", ago=5)
    heartbeat(RECONCILE, ago=60)


def _worker_dies_and_the_watch_runs() -> None:
    """The worker's last heartbeat is 25 minutes old; the web processes' watch raises the alert."""
    from casino.ops import watch

    heartbeat("casino.ops.heartbeat", ago=25 * 60)
    assert watch.watch_once(every=60) == ["worker"]


def test_the_live_pit_dashboard_shows_the_banner_and_the_new_alert_without_a_reload(screens, jobs_running):
    # given the pit manager on the dashboard while every job runs: no banner, no new alert
    page = screens.page("pm", at="/pit/")
    expect(page.locator("#live")).to_be_visible()
    expect(page.locator(".jobs-banner")).to_have_count(0)
    expect(page.locator("#pit-nav")).not_to_contain_text("new)")
    page.evaluate("() => { window.stayedOnThePage = true; }")
    # when the worker dies and the web processes' watch raises the alert (nobody reloads, nobody probes)
    _worker_dies_and_the_watch_runs()
    # then within a refresh the banner appears inside the live part, and the menu counts the new alert
    banner = page.locator("#live .jobs-banner")
    expect(banner).to_contain_text("Background jobs are not being run")
    expect(banner).to_contain_text("No job worker has answered since")
    expect(banner).to_contain_text("Tell IT: the Croupier worker is not running.")
    alert = Alert.objects.get(kind="stale_job", data__key="worker")
    expect(page.locator("#alerts")).to_contain_text(alert_text(alert).split(" (")[0])
    expect(page.get_by_role("navigation", name="Pit manager").get_by_role("link", name="Alerts")).to_contain_text(
        "(1 new)")
    assert page.evaluate("() => window.stayedOnThePage") is True  # the same page: no reload
    assert axe_violations(page) == []
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, LAYOUT)
        screens.shot(page, "pit-live-jobs-banner")


def test_the_accounting_screen_shows_the_banner_and_the_alert_count_without_a_reload(screens, jobs_running):
    page = screens.page("accountant", at="/accounting/")
    expect(page.locator("#open-alerts-count")).to_have_text("0")
    expect(page.locator(".jobs-banner")).to_have_count(0)
    page.evaluate("() => { window.stayedOnThePage = true; }")
    _worker_dies_and_the_watch_runs()
    banner = page.locator("#accounting-live .jobs-banner")
    expect(banner).to_contain_text("No job worker has answered since", timeout=20_000)
    expect(page.locator("#open-alerts-count")).to_have_text("1")
    alert = Alert.objects.get(kind="stale_job", data__key="worker")
    expect(page.locator("#open-alerts")).to_contain_text(alert_text(alert).split(" (")[0])
    assert page.evaluate("() => window.stayedOnThePage") is True
    assert_labelled(page)
    assert axe_violations(page) == []
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, LAYOUT)
        screens.shot(page, "accounting-live-jobs-banner")
