"""The audit API: auditors and admins read, filter and export; nobody else reads; nobody writes."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.db import transaction
from django.utils import timezone

from casino.audit import offline
from casino.audit.models import AuditCheckpoint, AuditRecord, AuditVerification
from casino.audit.services import audit_log, compute_hash
from casino.audit.verification import audit_checkpoint_create
from tests.fixtures import as_user

READ_ENDPOINTS = ["/api/audit/records/", "/api/audit/records/{record}/", "/api/audit/records/export.csv",
                  "/api/audit/records/export.pdf", "/api/audit/verify/", "/api/audit/verify/{verification}/",
                  "/api/audit/checkpoints/", "/api/audit/checkpoints/{checkpoint}/", "/api/audit/checkpoints/digest/",
                  "/api/audit/alerts/"]


@pytest.fixture
def trail(floor):
    """Records on two tables and the casino chain, a checkpoint and a verification to point at."""
    with transaction.atomic():
        audit_log(actor=floor.dealer, action="round.open", object_type="round", object_id=1, table_code="BAC1",
                  after={"number": 1})
        audit_log(actor=floor.dealer, action="bet.place", object_type="bet", object_id=7, table_code="BAC1",
                  after={"round": 1, "amount": 2500})
        audit_log(actor=floor.other_dealer, action="round.open", object_type="round", object_id=2,
                  table_code="BAC2", after={"number": 1})
        audit_log(actor=floor.manager, action="table.update", object_type="table", object_id=floor.table.pk,
                  table_code="BAC1", before={"max_bet": 500_000}, after={"max_bet": 100_000})
    audit_checkpoint_create()
    verification = AuditVerification.objects.create(trigger="command", requested_at=timezone.now())
    return {"record": AuditRecord.objects.filter(chain="table:BAC1").first().pk,
            "checkpoint": AuditCheckpoint.objects.first().pk, "verification": verification.pk}


def urls(trail):
    return [u.format(**trail) for u in READ_ENDPOINTS]


def snapshot():
    return (AuditRecord.objects.count(), AuditVerification.objects.count(), AuditCheckpoint.objects.count())


@pytest.mark.parametrize("role", ["dealer", "manager", "accountant", "nobody"])
def test_non_auditors_get_403_on_every_endpoint_and_nothing_is_written(floor, trail, role):
    # given a member of staff who is not an auditor
    client = as_user(getattr(floor, role))
    before = snapshot()
    # when they try every read, the verification and the writes
    answers = {url: client.get(url).status_code for url in urls(trail)}
    answers["POST verify"] = client.post("/api/audit/verify/").status_code
    answers["POST records"] = client.post("/api/audit/records/", {"action": "x"}, format="json").status_code
    answers["DELETE record"] = client.delete(f"/api/audit/records/{trail['record']}/").status_code
    # then each is refused, and nothing was recorded or run
    assert set(answers.values()) == {403}, answers
    assert snapshot() == before


def test_anonymous_gets_401_everywhere(floor, trail, api):
    assert {url: api.get(url).status_code for url in urls(trail)} == dict.fromkeys(urls(trail), 401)
    answer = api.get("/api/audit/records/")
    assert answer.json()["error"]["code"] == "not_authenticated"
    assert answer["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("role", ["auditor", "admin"])
def test_auditors_and_admins_read_every_endpoint(floor, trail, role):
    client = as_user(getattr(floor, role))
    answers = {url: client.get(url).status_code for url in urls(trail)}
    assert set(answers.values()) == {200}, answers


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_nobody_writes_the_trail_through_the_api(floor, trail, method):
    # given an auditor (and an admin): the roles that may read
    for user in (floor.auditor, floor.admin):
        client = as_user(user)
        before = list(AuditRecord.objects.values_list("id", "hash"))
        # when they try to write, on the list or on a record
        on_list = getattr(client, method)("/api/audit/records/", {"action": "x"}, format="json")
        on_record = getattr(client, method)(f"/api/audit/records/{trail['record']}/", {"action": "x"},
                                            format="json")
        on_checkpoint = getattr(client, method)(f"/api/audit/checkpoints/{trail['checkpoint']}/", {},
                                                format="json")
        # then there is no such method, and nothing changed
        assert (on_list.status_code, on_record.status_code, on_checkpoint.status_code) == (405, 405, 405)
        assert on_record.json()["error"]["code"] == "method_not_allowed"
        assert list(AuditRecord.objects.values_list("id", "hash")) == before


def test_records_list_newest_first_with_every_field(floor, trail):
    body = as_user(floor.auditor).get("/api/audit/records/?table_code=BAC1").json()
    assert [r["action"] for r in body["results"]] == ["table.update", "bet.place", "round.open"]
    top = body["results"][0]
    rec = AuditRecord.objects.get(pk=top["id"])
    assert top == {"id": rec.pk, "chain": "table:BAC1", "seq": 3, "created_at": rec.created_at.isoformat(),
                   "actor": floor.manager.pk, "actor_username": "pm", "actor_role": "pit_manager", "client_addr": "",
                   "device": "", "channel": "system", "action": "table.update", "object_type": "table",
                   "object_id": str(floor.table.pk), "table_code": "BAC1", "before": {"max_bet": 500_000},
                   "after": {"max_bet": 100_000}, "prev_hash": rec.prev_hash, "hash": rec.hash,
                   "request_id": ""}  # written outside a request
    assert compute_hash(rec) == top["hash"]


@pytest.mark.parametrize(("query", "actions"), [
    ("actor=dealer2", ["round.open"]),
    ("object_type=bet&object_id=7", ["bet.place"]),
    ("action=round.open", ["round.open", "round.open"]),
    ("chain=table:BAC2", ["round.open"]),
    ("actor_role=pit_manager&table_code=BAC1", ["table.update"]),
])
def test_records_filter(floor, trail, query, actions):
    body = as_user(floor.auditor).get(f"/api/audit/records/?{query}").json()
    assert [r["action"] for r in body["results"]] == actions


def test_records_filter_by_time_range(floor, trail):
    client = as_user(floor.auditor)
    cut = AuditRecord.objects.get(action="bet.place").created_at
    later = client.get("/api/audit/records/", {"created_after": cut.isoformat(), "table_code": "BAC1"}).json()
    earlier = client.get("/api/audit/records/", {"created_before": cut.isoformat(), "table_code": "BAC1"}).json()
    assert [r["action"] for r in later["results"]] == ["table.update", "bet.place"]
    assert [r["action"] for r in earlier["results"]] == ["round.open"]
    future = (timezone.now() + dt.timedelta(days=1)).isoformat()
    assert client.get("/api/audit/records/", {"created_after": future}).json()["results"] == []


def test_a_bad_filter_is_a_400_naming_it(floor, trail):
    response = as_user(floor.auditor).get("/api/audit/records/?created_after=yesterday")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "created_after"
    csv_response = as_user(floor.auditor).get("/api/audit/records/export.csv?created_before=soon")
    assert csv_response.status_code == 400
    assert csv_response.json()["error"]["field"] == "created_before"


def test_records_paginate_by_cursor(floor, trail):
    client = as_user(floor.auditor)
    first = client.get("/api/audit/records/?page_size=2").json()
    assert len(first["results"]) == 2
    assert first["previous"] is None
    second = client.get(first["next"]).json()
    ids = [r["id"] for r in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True)
    assert len(set(ids)) == 4


def test_a_missing_record_is_404(floor, trail):
    client = as_user(floor.auditor)
    assert client.get("/api/audit/records/999999/").status_code == 404
    assert client.get("/api/audit/records/abc/").status_code == 404


def test_csv_export_streams_every_matching_record_and_is_itself_audited(floor, trail):
    # when the auditor exports BAC1's trail
    response = as_user(floor.auditor).get("/api/audit/records/export.csv?table_code=BAC1")
    # then a CSV of its three records, oldest first, every hashed field
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="audit-trail-filtered.csv"'
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [r["action"] for r in rows] == ["round.open", "bet.place", "table.update"]
    assert rows[1]["after"] == '{"amount":2500,"round":1}'
    assert rows[0]["before"] == ""
    assert all(offline.record_hash(r) == r["hash"] for r in rows)
    # and the export is on the record: who, which report, which filters
    export = AuditRecord.objects.filter(action="export").get()
    assert (export.actor_username, export.object_id, export.after) == (
        "auditor", "audit_records.csv", {"report": "audit_records.csv", "filters": {"table_code": "BAC1"}})


def test_csv_export_negotiates_text_csv(floor, trail):
    response = as_user(floor.auditor).get("/api/audit/records/export.csv", HTTP_ACCEPT="text/csv")
    assert response.status_code == 200


def test_an_auditor_verifies_a_full_export_offline(floor, trail, tmp_path):
    # given a full export and the digest kept aside
    client = as_user(floor.auditor)
    export = tmp_path / "trail.csv"
    export.write_bytes(b"".join(client.get("/api/audit/records/export.csv").streaming_content))
    digest = client.get("/api/audit/checkpoints/digest/").json()
    from casino.audit.signing import checkpoint_key

    key = checkpoint_key()
    rows = list(csv.DictReader(export.open(encoding="utf-8", newline="")))
    # when checked offline, then it is sound
    problems, notes = offline.verify(rows, digest, key)
    assert problems == []
    assert "table:BAC1: seq 1 to 3 sound (3 records)" in notes
    # and one altered cell is found, exactly
    victim = next(r for r in rows if r["action"] == "bet.place")
    victim["after"] = '{"amount":25000,"round":1}'
    problems, _ = offline.verify(rows, digest, key)
    assert problems == [f"table:BAC1#2 (record {victim['id']}): its content does not hash to its hash: altered"]
    # and a forged digest is refused with the key
    digest["checkpoints"][0]["hash"] = "0" * 64
    problems, _ = offline.verify(rows[:0], digest, key)
    assert problems == [f"digest entry {digest['checkpoints'][0]['chain']}#{digest['checkpoints'][0]['seq']}: "
                        f"the signature does not match the key"]


def test_the_offline_script_exits_1_on_a_broken_export(floor, trail, tmp_path, capsys):
    client = as_user(floor.auditor)
    text = b"".join(client.get("/api/audit/records/export.csv").streaming_content).decode()
    export = tmp_path / "trail.csv"
    export.write_text(text, encoding="utf-8")
    assert offline.main([str(export)]) == 0
    export.write_text(text.replace('"max_bet"":100000', '"max_bet"":900000'), encoding="utf-8")
    assert offline.main([str(export)]) == 1
    assert "BROKEN table:BAC1#3" in capsys.readouterr().out


def test_pdf_export_is_bounded_and_audited(floor, trail):
    response = as_user(floor.auditor).get("/api/audit/records/export.pdf?limit=2")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    export = AuditRecord.objects.filter(action="export").get()
    assert export.after == {"report": "audit_records.pdf", "filters": {}, "rows": 2}


@pytest.mark.parametrize("limit", ["0", "2001", "ten", "-1"])
def test_pdf_export_refuses_a_bad_limit(floor, trail, limit):
    response = as_user(floor.auditor).get(f"/api/audit/records/export.pdf?limit={limit}")
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "bad_limit", "field": "limit",
                                        "message": "limit must be a whole number from 1 to 2000",
                                        "request_id": response["X-Request-ID"]}
    assert not AuditRecord.objects.filter(action="export").exists()


def test_verify_now_from_the_api(floor, trail, django_capture_on_commit_callbacks):
    client = as_user(floor.auditor)
    # when the auditor asks for a verification (the job is queued when the request commits)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/audit/verify/", HTTP_IDEMPOTENCY_KEY="verify-1")
    # then it is accepted, then done, with the result
    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    result = client.get(f"/api/audit/verify/{response.json()['id']}/").json()
    assert (result["status"], result["ok"], result["requested_by"], result["trigger"]) == ("done", True, "auditor",
                                                                                            "api")
    # every record read, or vouched for by the checkpoint its chain's walk began at (docs/audit.md)
    assert result["records"] + result["skipped"] == AuditRecord.objects.count()
    assert result["full"] is False
    # and the same request again is answered from the first, not run twice
    again = client.post("/api/audit/verify/", HTTP_IDEMPOTENCY_KEY="verify-1")
    assert again.json()["id"] == response.json()["id"]
    assert AuditVerification.objects.filter(trigger="api").count() == 1
    # and the latest results are listed newest first
    listed = client.get("/api/audit/verify/").json()["results"]
    assert [v["id"] for v in listed] == sorted((v["id"] for v in listed), reverse=True)


def test_digest_lists_each_chain_head_and_is_audited(floor, trail):
    digest = as_user(floor.auditor).get("/api/audit/checkpoints/digest/").json()
    assert digest["format"] == "croupier-audit-digest/1"
    heads = {(e["chain"], e["seq"]) for e in digest["checkpoints"]}
    assert heads >= {("table:BAC1", 3), ("table:BAC2", 1)}
    assert AuditRecord.objects.filter(action="export", object_id="audit_digest").count() == 1
