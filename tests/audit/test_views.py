"""The auditors' web page."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client

from casino.audit.models import AuditRecord, AuditVerification
from casino.audit.services import audit_log
from casino.audit.verification import audit_verify


@pytest.fixture
def trail(floor):
    with transaction.atomic():
        audit_log(actor=floor.dealer, action="round.open", object_type="round", object_id=1, table_code="BAC1",
                  after={"number": 1, "note": "<script>alert(1)</script>"})
        audit_log(actor=floor.manager, action="table.update", object_type="table", object_id=5, table_code="BAC2",
                  before={"max_bet": 500_000}, after={"max_bet": 100_000})


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_auditor_sees_the_trail_filtered_with_export_links_and_status(floor, trail):
    # given a clean verification
    audit_verify(trigger="command")
    # when the auditor filters by table
    response = browser(floor.auditor).get("/audit/?table_code=BAC1")
    # then the page shows BAC1's record only, escaped, with export links carrying the filter
    assert response.status_code == 200
    html = response.content.decode()
    assert [row["action"] for row in response.context["rows"]] == ["Round opened"]
    assert "Round opened" in html
    assert "&lt;script&gt;" in html
    assert "<script>alert" not in html
    assert 'href="/api/audit/records/export.csv?table_code=BAC1"' in html
    assert 'href="/api/audit/records/export.pdf?table_code=BAC1"' in html
    assert 'href="/api/audit/records/export.xlsx?table_code=BAC1"' in html
    assert "chains intact" in html
    assert response.context["page"].paginator.count == 1


def test_a_broken_trail_is_shown_as_such(floor, trail):
    AuditVerification.objects.create(trigger="beat", requested_at="2026-01-01T00:00Z", status="done",
                                     finished_at="2026-01-01T00:01Z", ok=False, first_broken_chain="casino",
                                     first_broken_seq=4, first_broken_reason="hash",
                                     breaks=[{"chain": "casino", "seq": 4, "record_id": 9, "reason": "hash",
                                              "message": "casino#4 (record 9) was altered"}])
    html = browser(floor.auditor).get("/audit/").content.decode()
    assert "broken" in html
    assert "The chain “Casino-wide” is broken at record number 4 (record 9): a record no longer matches its seal" in html


def test_a_bad_filter_shows_its_error_and_no_records(floor, trail):
    response = browser(floor.auditor).get("/audit/?created_after=soon")
    assert response.status_code == 200
    assert response.context["page"].paginator.count == 0
    assert "Enter a valid date/time." in response.content.decode()


@pytest.mark.parametrize("role", ["dealer", "manager", "accountant", "nobody"])
def test_others_are_refused(floor, trail, role):
    client = browser(getattr(floor, role))
    assert client.get("/audit/").status_code == 403
    assert client.post("/audit/verify/").status_code == 403
    assert AuditVerification.objects.count() == 0


def test_anonymous_is_sent_to_log_in(db):
    response = Client().get("/audit/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=/audit/")


def test_verify_now_from_the_page(floor, trail, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = browser(floor.admin).post("/audit/verify/")
    verification = AuditVerification.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/audit/?verification={verification.pk}#verify-result")
    assert (verification.trigger, verification.ok, verification.requested_by_id) == ("web", True, floor.admin.pk)
    assert verification.records == AuditRecord.objects.count()


def test_the_result_is_polled_until_the_job_has_walked_every_chain(floor, trail):
    # given a verification asked for and not yet run (a worker runs it)
    from django.utils import timezone

    pending = AuditVerification.objects.create(trigger="web", requested_by=floor.auditor, requested_at=timezone.now())
    client = browser(floor.auditor)
    # then its result part says so and asks to be polled again
    html = client.get(f"/audit/verify/{pending.pk}/").content.decode()
    assert "Verifying every chain" in html
    assert f'hx-get="/audit/verify/{pending.pk}/"' in html
    # and once a run has walked the chains, it gives the result and stops polling
    done = audit_verify(actor=floor.auditor, trigger="web")
    html = client.get(f"/audit/verify/{done.pk}/").content.decode()
    assert "Every chain is intact." in html
    assert "hx-get" not in html
    # and nobody but an auditor reads it
    assert browser(floor.manager).get(f"/audit/verify/{done.pk}/").status_code == 403


def test_typed_words_match_parts_of_codes_and_the_change_reads_as_words(floor, trail):
    # given a void among the records
    with transaction.atomic():
        audit_log(actor=floor.manager, action="round.void", object_type="round", object_id=7, table_code="BAC1",
                  before={"status": "settled"}, after={"status": "voided", "reason": "misdeal"})
    client = browser(floor.auditor)
    # when the auditor types "void", as a person would
    response = client.get("/audit/?action=void&match=parts")
    # then the void is found, named in words, its change as field / was / now
    html = response.content.decode()
    assert response.context["page"].paginator.count == 1
    assert "Round voided" in html
    [row] = response.context["rows"]
    assert row["changes"] == [{"field": "Status", "was": "Settled", "now": "Voided"},
                              {"field": "Reason", "was": "", "now": "misdeal"}]
    # and the table limit's change is money in major units with the currency, not minor units
    [limit] = client.get("/audit/?action=update&match=parts").context["rows"]
    assert limit["changes"] == [{"field": "Maximum bet", "was": "€5,000.00", "now": "€1,000.00"}]
    # the pick-lists offer the actions, roles and tables recorded
    pick = response.context["pick"]
    assert ("round.void", "Round voided") in pick["action"]
    assert ("BAC2", "BAC2") in pick["table_code"]
    assert ("pit_manager", "Pit manager") in pick["actor_role"]
    assert '<datalist id="pick-action">' in html


def test_pages_are_of_a_height_a_person_scrolls(floor, trail):
    with transaction.atomic():
        for n in range(30):
            audit_log(actor=floor.dealer, action="round.open", object_type="round", object_id=100 + n,
                      table_code="BAC1", after={"number": n})
    response = browser(floor.auditor).get("/audit/")
    assert len(response.context["rows"]) == 25
    assert response.context["page"].paginator.num_pages == 2
    assert "older →" in response.content.decode()


def test_the_refusal_is_a_page_not_json(floor, trail):
    response = browser(floor.dealer).get("/audit/")
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert "The audit trail is for auditors." in response.content.decode()
