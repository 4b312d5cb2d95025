"""Signatures that prove a person signed (issue: "Forgeable signatures"), voids that cannot be overwritten,
approvals throttled apart from sign-in, and nothing new under a closed table shift."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import Group

from accounting.models import InventoryCount, LedgerTransaction, Marker, Slip
from accounting.services import shifts, slips
from casino.audit.models import AuditRecord
from casino.core.models import LoginThrottle, StaffProfile
from casino.core.roles import Role
from casino.errors import Conflict, Forbidden
from tables.models import Round
from tables.services import rounds
from tests.accounting.helpers import sig, staff
from tests.accounting.test_worked_shift import OPENER, work_the_shift
from tests.client import APIClient
from tests.fixtures import as_user
from tests.tables.helpers import counts, open_round

URL = "/api/accounting"


def _fill(client, floor):
    answer = client.post(f"{URL}/slips/", {"kind": "fill", "table": floor.table.pk, "shift": floor.shift.pk,
                                           "chips": {"2500": 4}}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_the_one_person_fill_is_refused_at_every_step(floor, manager_api):
    # given the pit manager signed in alone, knowing everyone's employee id (they are printed on every slip)
    slip = _fill(manager_api, floor)
    assert slip["request_signer"] == floor.manager.staff.employee_id  # the request is signed by who asks
    before = counts()
    issue = f"{URL}/slips/{slip['id']}/issue/"
    # when they "sign" for the cage with the accountant's employee id, with the accountant's username and no
    # secret, or with a guessed password
    by_id = manager_api.post(issue, {"signer": floor.accountant.staff.employee_id}, format="json")
    by_name = manager_api.post(issue, {"signer": {"username": "accountant"}}, format="json")
    guessed = manager_api.post(issue, {"signer": {"username": "accountant", "password": "accountant"}},
                               format="json")
    # then each is refused and nothing is signed or posted
    assert (by_id.status_code, by_id.json()["error"]["field"]) == (400, "signer")
    assert (by_name.status_code, by_name.json()["error"]["code"]) == (400, "signature_secret_required")
    assert (guessed.status_code, guessed.json()["error"]["code"]) == (403, "signature_refused")
    assert Slip.objects.get(pk=slip["id"]).status == "requested"
    assert counts()["LedgerTransaction"] == before["LedgerTransaction"] == 0
    # and the refused signature is audited against who typed it
    refused = AuditRecord.objects.get(action="signature.refused")
    assert (refused.actor_username, refused.after["signer"]) == ("pm", "accountant")


def test_a_fill_is_three_people_each_proving_it_is_them_and_the_accountant_stays_independent(floor, manager_api):
    people = staff(floor)
    slip = _fill(manager_api, floor)
    # the cashier signs the issue with their PIN, the dealer the receipt with their password
    StaffProfile.objects.filter(user=people.cashier).update(pin_hash=make_password("4821"))
    issued = manager_api.post(f"{URL}/slips/{slip['id']}/issue/",
                              {"signer": {"username": "cashier", "pin": "4821"}}, format="json")
    assert issued.status_code == 200, issued.json()
    received = manager_api.post(f"{URL}/slips/{slip['id']}/receive/", {"signer": sig(floor.dealer)}, format="json")
    assert received.status_code == 200, received.json()
    assert (received.json()["request_signer"], received.json()["issue_signer"], received.json()["receive_signer"]) == (
        floor.manager.staff.employee_id, people.cashier.staff.employee_id, floor.dealer.staff.employee_id)
    assert LedgerTransaction.objects.filter(kind="fill").count() == 1
    # the accountant signed nothing, so the accountant may approve its void
    manager_api.post(f"{URL}/slips/{slip['id']}/void/", {"reason": "keyed the wrong table"}, format="json")
    approved = as_user(floor.accountant).post(f"{URL}/slips/{slip['id']}/void/approve/", format="json")
    assert (approved.status_code, approved.json()["status"]) == (200, "voided")


def test_the_person_submitting_must_be_one_of_the_signers(floor, manager_api):
    # given a count signed by the dealer and by another pit manager (both with their passwords)
    floor.pit.managers.add(floor.other_manager)
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": OPENER,
            "dealer": sig(floor.dealer), "supervisor": sig(floor.other_manager)}
    # when a third person, the pit manager signed in, submits it
    answer = manager_api.post(f"{URL}/counts/", body, format="json")
    # then refused: nobody records a document signed by others alone
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "submitter_not_signer")
    assert InventoryCount.objects.count() == 0
    # and the same count with the submitter as supervisor (their session signs) is recorded
    ok = manager_api.post(f"{URL}/counts/", {**body, "supervisor": {"username": "pm"}}, format="json")
    assert ok.status_code == 201, ok.json()


def test_markers_and_drops_are_signed_by_people_who_prove_it(floor, manager_api):
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "player": "P. Smith", "amount": 20_000,
            "supervisor": {"username": "pm"}, "dealer": {"username": "dealer", "pin": "1111"}}
    refused = manager_api.post(f"{URL}/markers/", body, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "signature_refused")
    assert Marker.objects.count() == 0
    made = manager_api.post(f"{URL}/markers/", {**body, "dealer": sig(floor.dealer)}, format="json")
    assert made.status_code == 201, made.json()


def test_a_signing_pin_is_set_by_its_owner_with_their_password_and_kept_hashed(floor, dealer_api):
    wrong = dealer_api.post("/api/auth/pin/", {"password": "nope", "pin": "4821"}, format="json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "signature_refused")
    weak = dealer_api.post("/api/auth/pin/", {"password": "pass", "pin": "1111"}, format="json")
    assert (weak.status_code, weak.json()["error"]["code"]) == (400, "weak_pin")
    done = dealer_api.post("/api/auth/pin/", {"password": "pass", "pin": "4821"}, format="json")
    assert done.json() == {"pin_set": True}
    stored = StaffProfile.objects.get(user=floor.dealer).pin_hash
    assert "4821" not in stored
    assert check_password("4821", stored)
    assert AuditRecord.objects.filter(action="staff.pin_set", actor_username="dealer").count() == 1


def test_wrong_pins_slow_the_requester_for_that_signer_only(floor, manager_api, settings):
    settings.SIGNATURE_FAILURE_LIMIT = 3
    floor.accountant.groups.add(Group.objects.get_or_create(name=Role.CASHIER.value)[0])  # signs for the cage here
    slip = _fill(manager_api, floor)
    issue = f"{URL}/slips/{slip['id']}/issue/"
    bad = {"signer": {"username": "accountant", "pin": "0000"}}
    assert [manager_api.post(issue, bad, format="json").status_code for _ in range(3)] == [403, 403, 403]
    # then this requester's signatures for the accountant wait, even with the right password
    locked = manager_api.post(issue, {"signer": sig(floor.accountant)}, format="json")
    assert (locked.status_code, locked.json()["error"]["code"]) == (429, "signature_locked")
    assert int(locked["Retry-After"]) >= 1
    # while the accountant signs in, and signs for another pit manager, as before
    assert APIClient().post("/api/auth/token/", {"username": "accountant", "password": "pass"},
                            format="json").status_code == 200
    assert not LoginThrottle.objects.filter(key__startswith="user:accountant").exists()
    floor.pit.managers.add(floor.other_manager)
    other = _fill(as_user(floor.other_manager), floor)
    assert as_user(floor.other_manager).post(f"{URL}/slips/{other['id']}/issue/", {"signer": sig(floor.accountant)},
                                             format="json").status_code == 200


def test_a_round_void_request_cannot_be_overwritten_and_its_requester_never_approves(floor, dealer_api, manager_api):
    # given a live round whose void the dealer asked for
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert dealer_api.post(f"{url}/void/", {"reason": "misdeal"}, format="json").status_code == 200
    # when the pit manager asks again (which would put their name on it)
    again = manager_api.post(f"{url}/void/", {"reason": "my reason"}, format="json")
    # then refused: the request keeps its first requester and reason
    assert (again.status_code, again.json()["error"]["code"]) == (409, "void_already_requested")
    stored = Round.objects.get(pk=rnd["id"])
    assert (stored.void_requested_by, stored.void_reason) == (floor.dealer, "misdeal")
    # and a pit manager who asks for a void can never approve it
    rnd2 = rounds.round_open(table_id=floor.other_table.pk, actor=floor.other_manager)
    rounds.round_void_request(round_id=rnd2.pk, actor=floor.other_manager, reason="exposed card")
    with pytest.raises(Forbidden) as own:
        rounds.round_void_approve(round_id=rnd2.pk, actor=floor.other_manager)
    assert own.value.code == "same_person"
    assert manager_api.post(f"{url}/void/approve/", format="json").json()["status"] == "voided"


def test_no_void_request_on_a_closed_shift_and_no_round_after_the_table_closed(floor, manager_api):
    # given the worked shift at BAC1, closed
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    fill = Slip.objects.get(kind="fill")
    # when a void is asked for its received fill
    answer = manager_api.post(f"{URL}/slips/{fill.pk}/void/", {"reason": "test"}, format="json")
    # then refused, nothing left dangling on the posted fill
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "table_shift_closed")
    assert Slip.objects.get(pk=fill.pk).void_requested_by is None
    # and its dealer opens no more rounds in that shift there
    with pytest.raises(Conflict) as closed:
        rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    assert closed.value.code == "table_shift_closed"
    assert Round.objects.filter(table=floor.table).count() == 2


def test_a_second_slip_void_request_is_refused(floor, manager_api):
    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    slips.slip_void_request(actor=floor.manager, slip_id=slip.pk, reason="wrong table")
    floor.pit.managers.add(floor.other_manager)
    with pytest.raises(Conflict) as again:
        slips.slip_void_request(actor=floor.other_manager, slip_id=slip.pk, reason="mine")
    assert again.value.code == "void_already_requested"
    assert Slip.objects.get(pk=slip.pk).void_requested_by == floor.manager
