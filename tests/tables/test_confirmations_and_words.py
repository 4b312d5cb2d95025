"""The smaller findings of issue 29, each refused or shown as it should be: a table's close and a pit's
rotation need a confirmation (nothing happens without it); a typed void reason and a picked one together
are refused (never one silently in place of the other); the alert API shows who resolved an alert and the
note; the marker API shows a write-off."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import TableShiftClose
from accounting.services import alerts, slips
from tables.models import Assignment, Round, Table
from tables.services import rounds
from tests.accounting.helpers import sig
from tests.accounting.test_worked_shift import work_the_shift
from tests.factories import TableFactory, UserFactory, assign
from tests.fixtures import as_user

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_closing_a_table_to_play_needs_the_confirmation(floor):
    client = client_of(floor.manager)
    # when the pit manager posts the close without ticking the confirmation
    refused = client.post("/pit/tables/BAC1/status/", {"status": "closed"}, follow=True)
    # then the table is still open, and the page says why
    assert "BAC1 is still open: tick the box to confirm the close first." in refused.content.decode()
    assert Table.objects.get(pk=floor.table.pk).status == "open"
    # and with it, the table closes (opening needs no confirmation)
    client.post("/pit/tables/BAC1/status/", {"status": "closed", "confirm": "yes"})
    assert Table.objects.get(pk=floor.table.pk).status == "closed"
    client.post("/pit/tables/BAC1/status/", {"status": "open"})
    assert Table.objects.get(pk=floor.table.pk).status == "open"


def test_rotating_a_pit_needs_the_confirmation(floor):
    # given two tables of the main pit, each with its dealer
    table3 = TableFactory(code="BAC3", pit=floor.pit)
    assign(UserFactory(username="relief", roles=["dealer"]), table3, floor.shift, floor.manager)
    client = client_of(floor.manager)
    before = list(Assignment.objects.order_by("pk").values_list("pk", "relieved_at"))
    # when the rotation is posted without the confirmation
    refused = client.post("/pit/pits/main/rotate/", {}, follow=True)
    # then nobody moved
    assert "Nobody moved: tick the box to confirm the rotation of Main pit first." in refused.content.decode()
    assert list(Assignment.objects.order_by("pk").values_list("pk", "relieved_at")) == before
    # and with it, the dealers move
    client.post("/pit/pits/main/rotate/", {"confirm": "yes"})
    assert Assignment.objects.filter(relieved_at__isnull=False).count() == 2


def test_closing_a_tables_shift_needs_the_confirmation(floor):
    work_the_shift(floor)
    url = f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/"
    refused = client_of(floor.manager).post(url, follow=True)
    assert "BAC1 is not closed: tick the box to confirm the close first." in refused.content.decode()
    assert not TableShiftClose.objects.exists()
    client_of(floor.manager).post(url, {"confirm": "yes"})
    assert TableShiftClose.objects.filter(table=floor.table, shift=floor.shift).exists()


def test_a_typed_void_reason_and_a_picked_one_together_are_refused(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    client = client_of(floor.manager)
    # when both are given
    refused = client.post(f"/pit/rounds/{rnd.pk}/void/", {"reason": "Misdeal", "other": "a card fell"}, follow=True)
    # then nothing is asked, and the page says why
    assert "Choose a reason from the list or write your own, not both" in refused.content.decode()
    assert Round.objects.get(pk=rnd.pk).void_requested_by is None
    # and the typed one alone is the one used, and said
    asked = client.post(f"/pit/rounds/{rnd.pk}/void/", {"reason": "", "other": "a card fell"}, follow=True)
    assert "(“a card fell”)" in asked.content.decode()
    assert Round.objects.get(pk=rnd.pk).void_reason == "a card fell"


def test_the_alert_api_shows_who_resolved_an_alert_and_the_note(floor):
    alert = alerts.alert_raise(kind="large_bet", severity="warning", message="large bet at BAC1",
                               dedupe_key="large_bet:x", table=floor.table)
    alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.manager, note="watching")
    alerts.alert_resolve(alert_id=alert.pk, actor=floor.manager, note="the player was rated")
    body = as_user(floor.accountant).get(f"/api/accounting/alerts/{alert.pk}/").json()
    assert (body["resolved_by"], body["resolve_note"]) == ("pm", "the player was rated")
    assert body["resolved_at"] is not None


def test_the_marker_api_shows_a_write_off(floor):
    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="P. Smith", amount=20_000, supervisor=sig(floor.manager),
                                dealer=sig(floor.dealer))
    reader = as_user(floor.accountant)
    assert reader.get(f"/api/accounting/markers/{marker.pk}/").json()["write_off"] is None
    slips.marker_pay(actor=floor.manager, marker_id=marker.pk, amount=5_000, at_table=True, signer=sig(floor.dealer))
    slips.marker_write_off(actor=floor.accountant, marker_id=marker.pk, reason="player bankrupt",
                           accountant=sig(floor.accountant), second=sig(floor.manager))
    write_off = reader.get(f"/api/accounting/markers/{marker.pk}/").json()["write_off"]
    assert (write_off["amount"], write_off["reason"]) == (15_000, "player bankrupt")
    assert write_off["accountant_signer"]
    assert write_off["second_signer"]
    listed = reader.get("/api/accounting/markers/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[0]["write_off"]["amount"] == 15_000
