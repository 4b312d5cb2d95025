"""A request id goes from the X-Request-ID header to the log line, the error body, the audit record and the jobs."""

from __future__ import annotations

import json
import logging

import pytest

from accounting.models import Alert
from casino.audit.models import AuditRecord
from casino.audit.verification import audit_verify
from casino.ops.logs import JsonFormatter
from tests.fixtures import as_user
from tests.tables.helpers import open_round


def json_lines(caplog, logger: str) -> list[dict]:
    """The records of ``logger`` as the production log line (LOG_FORMAT=json) writes them, parsed back."""
    formatter = JsonFormatter()
    return [json.loads(formatter.format(r)) for r in caplog.records if r.name == logger]


class Kept(logging.Handler):
    """The records of one logger, kept whatever the root logger's handlers are by then (a task run in process
    may have had Celery set logging up again, which takes pytest's own capture off the root)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def job_log():
    kept, logger = Kept(), logging.getLogger("croupier.job")
    logger.addHandler(kept)
    yield kept
    logger.removeHandler(kept)


def dealt(client, table, cards) -> str:
    url = f"/api/rounds/{open_round(client, table)['id']}"
    assert client.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/").status_code == 200
    for card in cards:
        assert client.post(f"{url}/events/", {"card": card}, format="json").status_code == 201
    return url


def test_the_id_round_trips_header_log_line_error_body_audit_record(floor, dealer_api, caplog):
    # given a round with two cards dealt
    url = dealt(dealer_api, floor.table, ["9S", "KH"])
    round_id = url.rsplit("/", 1)[1]
    caplog.clear()
    caplog.set_level(logging.INFO, logger="croupier.request")
    # when the dealer's tablet asks for an undo with a wrong supervisor password, sending its own request id
    response = dealer_api.post(f"{url}/events/undo/", {"approver_username": "pm", "approver_password": "wrong"},
                               format="json", HTTP_X_REQUEST_ID="tab3-7f3a1c2e")
    # then the error body and the answer's header carry it
    assert response.status_code == 403
    assert response["X-Request-ID"] == "tab3-7f3a1c2e"
    assert response.json()["error"]["request_id"] == "tab3-7f3a1c2e"
    # and exactly one JSON log line has it, naming the user, table, round, status and duration
    [line] = [line for line in json_lines(caplog, "croupier.request") if line.get("request_id") == "tab3-7f3a1c2e"]
    assert {k: line[k] for k in ("method", "path", "view", "status", "user", "table", "round", "level")} == {
        "method": "POST", "path": f"{url}/events/undo/", "view": "round-events-undo", "status": 403,
        "user": "dealer", "table": "", "round": round_id, "level": "info"}
    assert line["duration_ms"] > 0
    # and the audit record of the refused approval (a refused signature, kept) has the same id in its context
    record = AuditRecord.objects.get(request_id="tab3-7f3a1c2e")
    assert record.action == "signature.refused"
    assert (record.actor_username, record.object_id, record.channel) == ("dealer", "pm", "api")
    # and an auditor finds it from the start of the id the dealer read off the screen
    found = as_user(floor.auditor).get("/api/audit/records/?request_id=tab3-7f3a").json()["results"]
    assert [r["id"] for r in found] == [record.pk]


def test_a_write_names_its_table_and_round_and_hashes_the_id(floor, dealer_api, caplog):
    url = dealt(dealer_api, floor.table, [])
    caplog.set_level(logging.INFO, logger="croupier.request")
    response = dealer_api.post(f"{url}/events/", {"card": "9S"}, format="json", HTTP_X_REQUEST_ID="req-42")
    assert response.status_code == 201
    [line] = [line for line in json_lines(caplog, "croupier.request") if line.get("request_id") == "req-42"]
    assert (line["table"], line["round"], line["status"]) == ("BAC1", url.rsplit("/", 1)[1], 201)
    record = AuditRecord.objects.get(request_id="req-42")
    assert record.action == "event.post"
    # the id is part of what is hashed: the trail verifies, and changing it would show
    assert audit_verify(trigger="command").ok is True


@pytest.mark.parametrize("sent", [None, "", "x" * 65, "no spaces allowed", "<script>"])
def test_a_missing_or_unusable_id_is_replaced_by_a_new_one(db, client, sent):
    headers = {} if sent is None else {"HTTP_X_REQUEST_ID": sent}
    response = client.get("/api/rounds/", **headers)  # not signed in: 403 with an error body
    rid = response["X-Request-ID"]
    assert rid != sent
    assert len(rid) == 32
    assert int(rid, 16) >= 0
    assert response.json()["error"]["request_id"] == rid


def test_django_error_pages_carry_the_id_too(db, client):
    response = client.get("/api/no-such-thing/", HTTP_X_REQUEST_ID="lost-1")
    assert response.status_code == 404
    assert response.json()["error"]["request_id"] == "lost-1"


@pytest.mark.django_db(transaction=True)
def test_a_job_asked_for_by_a_request_logs_the_same_id(settings, job_log):
    # given a large bet threshold the bet will reach (its alert is a job, run in process here)
    from tests.factories import build_floor

    floor = build_floor()
    settings.CROUPIER = {**settings.CROUPIER, "LARGE_BET": 2500}
    client = as_user(floor.dealer)
    url = f"/api/rounds/{open_round(client, floor.table)['id']}"
    # when the dealer records the bet with a request id
    answer = client.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json",
                         HTTP_X_REQUEST_ID="bet-9c1d", HTTP_IDEMPOTENCY_KEY="bet-9c1d")
    assert answer.status_code == 201
    # then the job's own log line carries the request's id, its task, status and duration
    [job] = [line for line in json_lines(job_log, "croupier.job") if line["task"] == "accounting.large_bet_alert"]
    assert (job["request_id"], job["status"], job["user"]) == ("bet-9c1d", "success", "system")
    assert job["duration_ms"] >= 0
    # and the alert the job raised is audited under the same id
    alert = Alert.objects.get(kind="large_bet")
    assert AuditRecord.objects.get(action="alert.raise", object_id=str(alert.pk)).request_id == "bet-9c1d"


def test_the_text_format_shows_the_fields_for_a_developer(floor, dealer_api, caplog):
    from casino.ops.logs import TextFormatter

    caplog.set_level(logging.INFO, logger="croupier.request")
    dealer_api.get("/api/rounds/", HTTP_X_REQUEST_ID="dev-1")
    [record] = [r for r in caplog.records if r.name == "croupier.request"]
    line = TextFormatter().format(record)
    assert "GET /api/rounds/ 200" in line
    assert "request_id=dev-1" in line
    assert "user=dealer" in line
