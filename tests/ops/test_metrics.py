"""/metrics: Prometheus's text format (parsed with prometheus_client's parser), counters that move, access."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.audit.models import AuditVerification
from casino.core.models import Outbox
from tests.fixtures import as_user
from tests.ops.helpers import heartbeat, scrape, value
from tests.tables.helpers import BANKER_WIN, open_round


def play(client, table, *, settle: bool = True) -> dict:
    rnd = open_round(client, table)
    url = f"/api/rounds/{rnd['id']}"
    assert client.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/").status_code == 200
    for card in BANKER_WIN:
        assert client.post(f"{url}/events/", {"card": card}, format="json").status_code == 201
    answer = client.post(f"{url}/settle/", HTTP_IDEMPOTENCY_KEY=f"settle-{rnd['id']}") if settle else None
    if answer is not None:
        assert answer.status_code == 200, answer.json()
    return {"url": url, "answer": answer}


def test_counters_move_when_a_round_settles(floor, dealer_api, client):
    # given the figures before
    before = scrape(client)
    # when a dealer plays and settles one baccarat round (six cards)
    played = play(dealer_api, floor.table)
    # then the scrape (parsed by prometheus_client) counts one round settled, six card posts, one settlement
    after = scrape(client)
    assert value(after, "croupier_rounds_settled_total", game="baccarat") \
        - value(before, "croupier_rounds_settled_total", game="baccarat") == 1
    assert value(after, "croupier_card_post_duration_seconds_count") \
        - value(before, "croupier_card_post_duration_seconds_count") == 6
    assert value(after, "croupier_round_settle_duration_seconds_count") \
        - value(before, "croupier_round_settle_duration_seconds_count") == 1
    assert value(after, "croupier_http_request_duration_seconds_count", view="round-settle", method="POST",
                 status="200") - value(before, "croupier_http_request_duration_seconds_count", view="round-settle",
                                       method="POST", status="200") == 1
    # and a retried settle (same Idempotency-Key, replayed) is not a second round
    round_id = played["url"].rsplit("/", 1)[1]
    replay = dealer_api.post(f"{played['url']}/settle/", HTTP_IDEMPOTENCY_KEY=f"settle-{round_id}")
    assert replay["Idempotent-Replayed"] == "true"
    again = scrape(client)
    assert value(again, "croupier_rounds_settled_total", game="baccarat") \
        == value(after, "croupier_rounds_settled_total", game="baccarat")


def test_a_refused_settlement_is_not_counted(floor, dealer_api, client):
    before = scrape(client)
    played = play(dealer_api, floor.table, settle=False)
    assert dealer_api.post(f"{played['url']}/settle/").status_code == 200
    refused = dealer_api.post(f"{played['url']}/settle/")  # settled already: 409
    assert refused.status_code == 409
    after = scrape(client)
    assert value(after, "croupier_rounds_settled_total", game="baccarat") \
        - value(before, "croupier_rounds_settled_total", game="baccarat") == 1


def test_database_figures_outbox_jobs_verification(db, client, settings):
    # given a job waiting two minutes for the broker, job heartbeats and an audit verification an hour ago
    settings.OPS_EXPECT_WORKER = True
    now = timezone.now()
    Outbox.objects.create(task_name="accounting.report_export", args=[1],
                          task_id="0b8e7b1c-2f65-4c59-9d36-4f5a7e0c3d21",
                          created_at=now - dt.timedelta(seconds=120))
    heartbeat("casino.ops.heartbeat", ago=10)
    heartbeat("beat", ago=4)
    heartbeat("accounting.reconcile_due_shifts", ago=7200, failures=3)
    AuditVerification.objects.create(trigger="beat", requested_at=now - dt.timedelta(hours=1), status="done",
                                     started_at=now - dt.timedelta(hours=1), finished_at=now - dt.timedelta(hours=1),
                                     ok=True)
    # when the monitoring scrapes
    samples = scrape(client)
    # then each figure is there, from the database
    assert value(samples, "croupier_database_up") == 1
    assert value(samples, "croupier_outbox_pending") == 1
    assert 119 <= value(samples, "croupier_outbox_oldest_pending_age_seconds") < 180
    assert value(samples, "croupier_job_runs_total", task="accounting.reconcile_due_shifts") == 10
    assert value(samples, "croupier_job_failures_total", task="accounting.reconcile_due_shifts") == 3
    assert 7199 <= value(samples, "croupier_job_last_success_age_seconds",
                         task="accounting.reconcile_due_shifts") < 7300
    assert 9 <= value(samples, "croupier_worker_heartbeat_age_seconds") < 60
    assert 3599 <= value(samples, "croupier_audit_verification_last_ok_age_seconds") < 3700
    assert value(samples, "croupier_audit_chain_broken") == 0
    # the reconciliation job is late (15 min period, late after 30 min); the worker is not
    assert value(samples, "croupier_job_late", check="reconciliation") == 1
    assert value(samples, "croupier_job_late", check="worker") == 0


def test_signin_failures_and_lockouts_are_counted(floor, client, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    before = scrape(client)
    for _ in range(4):  # three wrong passwords lock; the fourth is refused while locked
        answer = client.post("/api/auth/token/", {"username": "dealer", "password": "wrong"},
                             content_type="application/json")
        assert answer.status_code in (400, 429), answer.json()
    after = scrape(client)
    assert value(after, "croupier_signin_failures_total") - value(before, "croupier_signin_failures_total") == 4
    assert value(after, "croupier_signin_lockouts_total") - value(before, "croupier_signin_lockouts_total") == 1
    assert value(after, "croupier_signin_locked") == 1  # the username (an address locks after more failures)


@pytest.mark.parametrize(("networks", "token", "header", "status"), [
    ([], "", "", 403),  # production default: nobody without the token
    ([], "scrape-token-1", "Bearer scrape-token-1", 200),
    ([], "scrape-token-1", "Bearer wrong", 403),
    ([], "", "Bearer ", 403),  # an empty token never matches
    (["10.0.0.0/8"], "", "", 403),  # the test client is 127.0.0.1
    (["127.0.0.0/8"], "", "", 200),
])
def test_metrics_need_the_token_or_an_allowed_network(db, client, settings, networks, token, header, status):
    settings.METRICS_ALLOWED_NETWORKS = networks
    settings.METRICS_TOKEN = token
    response = client.get("/metrics", HTTP_AUTHORIZATION=header) if header else client.get("/metrics")
    assert response.status_code == status
    if status == 403:
        assert response.json()["error"]["code"] == "forbidden"
        assert b"croupier_" not in response.content


def test_a_signed_in_manager_gets_no_metrics_without_the_token(floor, settings):
    settings.METRICS_ALLOWED_NETWORKS = []
    assert as_user(floor.manager).get("/metrics").status_code == 403
