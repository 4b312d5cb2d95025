"""Signatures bound to role and place, writes to the writer's pits, a closed shift's assignments sealed
(issue 29: "'The table's dealer' is any dealer", "A pit manager can write down another pit's markers").
Each refusal is asserted in its words, and that nothing was written."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from accounting.models import DropCount, InventoryCount, LedgerTransaction, Marker, MarkerPayment, Slip
from accounting.services import shifts, slips
from casino.core.roles import Role
from tables.models import Assignment, Shift, ShiftStatus
from tables.services import floor as floor_services
from tests.accounting.helpers import sig, staff
from tests.factories import UserFactory
from tests.fixtures import as_user

URL = "/api/accounting"


def _opener(floor, dealer):
    return {"table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": {"2500": 4},
            "dealer": sig(dealer), "supervisor": {"username": floor.manager.username}}


def _error(response):
    return response.json()["error"]


def test_a_dealer_not_at_the_table_cannot_sign_its_count(floor):
    # given dealer2, dealing BAC2 in the salon this shift
    # when BAC1's pit manager has dealer2 sign BAC1's opener
    answer = as_user(floor.manager).post(f"{URL}/counts/", _opener(floor, floor.other_dealer), format="json")
    # then it is refused in words naming the rule, and nothing is written
    assert answer.status_code == 403
    assert _error(answer)["code"] == "not_the_tables_dealer"
    assert _error(answer)["message"].startswith(f"dealer: dealer2 is not the dealer at {floor.table.name} in this shift")
    assert InventoryCount.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0
    # and a member of staff with the dealer role and no assignment is refused the same way
    idle = UserFactory(username="idle", roles=[Role.DEALER])
    answer = as_user(floor.manager).post(f"{URL}/counts/", _opener(floor, idle), format="json")
    assert (answer.status_code, _error(answer)["code"]) == (403, "not_the_tables_dealer")
    # while the table's own dealer signs it
    answer = as_user(floor.manager).post(f"{URL}/counts/", _opener(floor, floor.dealer), format="json")
    assert answer.status_code == 201, answer.json()


def test_a_dealer_relieved_within_the_shift_still_signs_for_the_table(floor):
    # given BAC1's dealer relieved (on a break) during the shift
    assignment = Assignment.objects.get(dealer=floor.dealer, table=floor.table)
    floor_services.assignment_relieve(assignment_id=assignment.pk, actor=floor.manager)
    # when they sign BAC1's opener: they dealt it in this shift
    answer = as_user(floor.manager).post(f"{URL}/counts/", _opener(floor, floor.dealer), format="json")
    assert answer.status_code == 201, answer.json()


def test_a_dealer_not_at_the_table_cannot_sign_its_fill_or_credit(floor):
    people = staff(floor)
    fill = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    slips.slip_issue(actor=people.cashier, slip_id=fill.pk, signer={"username": "cashier"})
    # when dealer2 (at BAC2) signs the fill's receipt at BAC1
    answer = as_user(floor.manager).post(f"{URL}/slips/{fill.pk}/receive/", {"signer": sig(floor.other_dealer)},
                                         format="json")
    assert answer.status_code == 403
    assert _error(answer)["message"].startswith(f"signer: dealer2 is not the dealer at {floor.table.name} in this shift")
    fill.refresh_from_db()
    assert (fill.status, fill.receive_signer) == ("issued", None)
    assert not LedgerTransaction.objects.filter(source_type="fill").exists()
    # nor does he send BAC1's chips back to the cage
    credit = slips.slip_request(actor=floor.manager, kind="credit", table_id=floor.table.pk,
                                shift_id=floor.shift.pk, chips={"2500": 2})
    answer = as_user(floor.manager).post(f"{URL}/slips/{credit.pk}/issue/", {"signer": sig(floor.other_dealer)},
                                         format="json")
    assert (answer.status_code, _error(answer)["code"]) == (403, "not_the_tables_dealer")
    assert Slip.objects.get(pk=credit.pk).status == "requested"


def test_a_dealer_not_at_the_table_cannot_sign_its_marker_or_take_a_payment_there(floor):
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "player": "A. Player", "amount": 20_000,
            "supervisor": {"username": floor.manager.username}, "dealer": sig(floor.other_dealer)}
    answer = as_user(floor.manager).post(f"{URL}/markers/", body, format="json")
    assert answer.status_code == 403
    assert _error(answer)["message"].startswith(f"dealer: dealer2 is not the dealer at {floor.table.name} in this shift")
    assert Marker.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0
    # the table's dealer signs it; a payment in chips at the table is taken by that dealer only
    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="A. Player", amount=20_000, supervisor={"username": "pm"},
                                dealer=sig(floor.dealer))
    answer = as_user(floor.manager).post(f"{URL}/markers/{marker.pk}/payments/",
                                         {"amount": 5_000, "at_table": True, "signer": sig(floor.other_dealer)},
                                         format="json")
    assert (answer.status_code, _error(answer)["code"]) == (403, "not_the_tables_dealer")
    assert MarkerPayment.objects.count() == 0
    assert Marker.objects.get(pk=marker.pk).paid == 0


def test_a_pit_manager_cannot_sign_as_the_cage(floor):
    # given a second pit manager of the main pit, and a fill requested by the first
    second = UserFactory(username="pm3", roles=[Role.PIT_MANAGER])
    floor.pit.managers.add(second)
    fill = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    # when the pit manager has him sign the issue for the cage, or an accountant
    for cage in (second, floor.accountant):
        answer = as_user(floor.manager).post(f"{URL}/slips/{fill.pk}/issue/", {"signer": sig(cage)}, format="json")
        # then refused in words: the cage is a cashier
        assert answer.status_code == 400
        assert _error(answer)["code"] == "signer_role"
        assert _error(answer)["message"].endswith(f"({cage.username}) is not a cage cashier")
    fill.refresh_from_db()
    assert (fill.status, fill.issue_signer, fill.issued_at) == ("requested", None, None)
    # the pit manager does not submit the cage's step on his own either, nor an accountant
    answer = as_user(floor.accountant).post(f"{URL}/slips/{fill.pk}/issue/", {"signer": {"username": "accountant"}},
                                            format="json")
    assert answer.status_code == 403
    # the cashier issues it, signed in at the cage
    people = staff(floor)
    answer = as_user(people.cashier).post(f"{URL}/slips/{fill.pk}/issue/", {"signer": {"username": "cashier"}},
                                          format="json")
    assert answer.status_code == 200, answer.json()
    assert Slip.objects.get(pk=fill.pk).issue_signer.user == people.cashier


def test_another_pits_marker_payment_is_no_marker_and_tells_no_balance(floor):
    people = staff(floor)
    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="A. Player", amount=20_000, supervisor={"username": "pm"},
                                dealer=sig(floor.dealer))
    salon = as_user(floor.other_manager)
    # the salon's manager reads it as nothing
    assert salon.get(f"{URL}/markers/{marker.pk}/").status_code == 404
    # when he records a payment at the cage on it, more than is owed, with the cashier signing
    body = {"amount": 50_000, "at_table": False, "signer": sig(people.cashier)}
    answer = salon.post(f"{URL}/markers/{marker.pk}/payments/", body, format="json")
    # then it is "no marker", exactly as a number that does not exist, and nothing about its balance
    missing = salon.post(f"{URL}/markers/999999/payments/", body, format="json")
    assert (answer.status_code, _error(answer)["code"]) == (404, "unknown_marker")
    assert _error(answer)["message"] == f"no marker {marker.pk}"
    assert (missing.status_code, _error(missing)["code"]) == (404, "unknown_marker")
    assert "200.00" not in answer.content.decode()
    assert "20000" not in answer.content.decode()
    # a payment of what is owed is refused the same way, and nothing is written
    answer = salon.post(f"{URL}/markers/{marker.pk}/payments/", {**body, "amount": 1_000}, format="json")
    assert answer.status_code == 404
    assert MarkerPayment.objects.count() == 0
    assert Marker.objects.get(pk=marker.pk).paid == 0
    assert not LedgerTransaction.objects.filter(source_type="marker_payment").exists()
    # the cage takes it, for any pit
    answer = as_user(people.cashier).post(f"{URL}/markers/{marker.pk}/payments/",
                                          {"amount": 1_000, "at_table": False, "signer": {"username": "cashier"}},
                                          format="json")
    assert answer.status_code == 201, answer.json()


def test_another_pits_soft_count_is_no_table_and_does_not_block_the_count_team(floor):
    people = staff(floor)
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "cash": 10_000, "chips": 0, "markers": 0,
            "counter_one": {"username": floor.other_manager.username}, "counter_two": sig(people.counter)}
    # when the salon's manager records a soft count of BAC1 (the main pit)
    answer = as_user(floor.other_manager).post(f"{URL}/drops/", body, format="json")
    # then it is "no table", as his reads say, and nothing is written
    assert (answer.status_code, _error(answer)["code"]) == (404, "unknown_table")
    assert _error(answer)["message"] == f"no table {floor.table.pk}"
    assert DropCount.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0
    # and a pit manager is not a counter at his own tables either: a counter is of the count team
    answer = as_user(people.counter).post(
        f"{URL}/drops/", {**body, "counter_one": {"username": "counter"}, "counter_two": sig(floor.manager)},
        format="json")
    assert (answer.status_code, _error(answer)["code"]) == (400, "signer_role")
    assert _error(answer)["message"].endswith("(pm) is not a member of the count team")
    assert DropCount.objects.count() == 0
    # the count team's count goes through
    answer = as_user(people.counter).post(
        f"{URL}/drops/", {**body, "counter_one": {"username": "counter"}, "counter_two": sig(people.counter2)},
        format="json")
    assert answer.status_code == 201, answer.json()


def _close_the_shift(floor):
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)  # nothing was done in it: it closes
    assert Shift.objects.get(pk=floor.shift.pk).status == ShiftStatus.CLOSED


def test_relieving_in_a_closed_shift_is_refused_by_the_service(floor):
    assignment = Assignment.objects.get(dealer=floor.dealer, table=floor.table)
    _close_the_shift(floor)
    answer = as_user(floor.manager).post(f"/api/assignments/{assignment.pk}/relieve/")
    assert answer.status_code == 409
    assert _error(answer)["code"] == "shift_closed"
    assert "its assignments are sealed" in _error(answer)["message"]
    assert Assignment.objects.get(pk=assignment.pk).relieved_at is None


@pytest.mark.parametrize("sql", [
    "UPDATE tables_assignment SET relieved_at = now() WHERE id = %s",
    "UPDATE tables_assignment SET table_id = table_id WHERE id = %s",
    "UPDATE tables_assignment SET ends_at = ends_at + interval '1 hour' WHERE id = %s",
    "DELETE FROM tables_assignment WHERE id = %s",
    "INSERT INTO tables_assignment (dealer_id, table_id, shift_id, starts_at, ends_at, assigned_by_id) "
    "SELECT dealer_id, table_id, shift_id, starts_at, ends_at, assigned_by_id FROM tables_assignment WHERE id = %s",
])
def test_a_closed_shifts_assignments_are_sealed_in_the_database(floor, sql):
    assignment = Assignment.objects.get(dealer=floor.dealer, table=floor.table)
    _close_the_shift(floor)
    before = list(Assignment.objects.order_by("pk").values())
    # when the service's own database role changes them by SQL
    with pytest.raises(DatabaseError, match="assignment"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [assignment.pk] * sql.count("%s"))
    # then the database refuses it, and nothing changed
    assert list(Assignment.objects.order_by("pk").values()) == before


def test_an_open_shifts_assignments_still_change(floor):
    assignment = Assignment.objects.get(dealer=floor.dealer, table=floor.table)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tables_assignment SET relieved_at = now() WHERE id = %s", [assignment.pk])
    assert Assignment.objects.get(pk=assignment.pk).relieved_at is not None
