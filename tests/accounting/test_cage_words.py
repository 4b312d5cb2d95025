"""The cage screens' refusals in the reader's language: what the screen checks itself (a count that is not a
number, a signer not named) and what the services refuse (a count recorded twice, a void approved by who asked
for it) are worded through the translation system, with their figures in place (accounting/views/cage.py,
accounting/services)."""

from __future__ import annotations

from django.test import Client

from accounting.models import InventoryCount, Slip
from casino.core.models import StaffProfile
from tests.accounting.test_cage_views import COUNTS, opener_form


def spanish(user) -> Client:
    StaffProfile.objects.update_or_create(user=user, defaults={"language": "es"})
    client = Client()
    client.force_login(user)
    return client


def test_a_count_that_is_not_a_number_is_refused_in_spanish(floor):
    # given a pit manager who reads Spanish; when they type "four" as a count of €25 chips
    answer = spanish(floor.manager).post(COUNTS, opener_form(floor, chips_2500="cuatro"))
    # then the refusal is in Spanish, with the chip and what was typed in it, and nothing is counted
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "debe ser un número entero de fichas" in body
    assert "25\u00a0€" in body and "cuatro" in body  # noqa: PT018 - the figures in their places
    assert "must be a whole number" not in body
    assert not InventoryCount.objects.exists()


def test_a_signer_not_named_is_refused_in_spanish(floor):
    answer = spanish(floor.manager).post(COUNTS, opener_form(floor, dealer_username=""))
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "La firma del crupier: escriba el usuario de quien firma." in body


def test_a_services_refusal_reaches_the_screen_in_spanish(floor):
    # given a fill requested and a void asked for by the pit manager
    from accounting.services import slips

    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 2})
    slips.slip_void_request(actor=floor.manager, slip_id=slip.pk, reason="wrong table")
    # when the same person, reading Spanish, approves it on the screen
    answer = spanish(floor.manager).post(f"/accounting/cage/slips/{slip.pk}/", {"action": "approve"})
    # then the service's refusal is shown in Spanish and the slip is not voided
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Una anulación la aprueba alguien distinto de quien la pidió." in body
    assert "someone other than who requested it" not in body
    assert Slip.objects.get(pk=slip.pk).status == "requested"


def test_the_api_answers_in_the_callers_language_and_keeps_its_code(floor):
    # given the opener recorded once
    client = spanish(floor.manager)
    assert client.post(COUNTS, opener_form(floor)).status_code == 302
    # when it is sent to the API again, in Spanish
    from tests.fixtures import as_user

    api = as_user(floor.manager)
    answer = api.post("/api/accounting/counts/", {
        "table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": {"2500": 4},
        "dealer": {"username": "dealer", "password": "pass"}, "supervisor": {"username": "pm"},
    }, format="json", HTTP_ACCEPT_LANGUAGE="es")
    # then the stable code is the same and the message is in Spanish
    assert answer.status_code == 409, answer.content
    error = answer.json()["error"]
    assert error["code"] == "count_exists"
    assert "ya está registrad" in error["message"]
