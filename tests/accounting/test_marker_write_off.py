"""A marker written off: what is left to pay, by an accountant with a reason and a second person signing;
the receivable goes down by it, the marker takes no payment afterwards, and the record is never changed."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction

from accounting.models import Marker, MarkerWriteOff
from accounting.services import ledger, slips
from casino.audit.models import AuditRecord
from casino.core.roles import Role
from casino.errors import Conflict
from tests.accounting.helpers import sig
from tests.factories import UserFactory
from tests.fixtures import as_user

URL = "/api/accounting/markers"


def sig_name(username: str) -> dict[str, str]:
    """The signed-in accountant signs with just their username; anyone else with their password ("pass")."""
    return {"username": username} if username == "accountant" else {"username": username, "password": "pass"}


def issue(floor, amount=50_000) -> Marker:
    return slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk, player="Mr Roe",
                              amount=amount, supervisor={"username": "pm"}, dealer=sig(floor.dealer))


def cage() -> dict[str, str]:
    """The cashier's signature: the cage takes a payment at the cage."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username="cashier").first()
    return sig(user or UserFactory(username="cashier", roles=[Role.CASHIER]))


def balance(code: str) -> int:
    accounts = ledger.casino_accounts()
    return ledger.account_balance(accounts[code])


def test_an_accountant_and_a_second_person_write_off_what_is_left(floor):
    # given a marker of 500.00 with 200.00 paid at the cage
    marker = issue(floor)
    slips.marker_pay(actor=floor.accountant, marker_id=marker.pk, amount=20_000, at_table=False,
                     signer=cage())

    # when the accountant writes it off, the pit manager signing second with their password
    answer = as_user(floor.accountant).post(
        f"{URL}/{marker.pk}/write-off/",
        {"reason": "Player bankrupt", "accountant": {"username": "accountant"}, "second": sig(floor.manager)},
        format="json",
    )

    # then the 300.00 left is written off, signed by both, and the receivable is cleared
    assert answer.status_code == 201, answer.json()
    write_off = MarkerWriteOff.objects.get(marker=marker)
    assert (write_off.amount, write_off.reason) == (30_000, "Player bankrupt")
    assert (write_off.accountant_signer.user, write_off.second_signer.user, write_off.recorded_by) == (
        floor.accountant, floor.manager, floor.accountant)
    assert (balance("markers"), balance("marker_write_offs")) == (0, 30_000)
    assert AuditRecord.objects.filter(action="marker.write_off", object_id=str(marker.pk)).count() == 1

    # and the marker takes no payment nor a second write-off afterwards
    with pytest.raises(Conflict) as paid:
        slips.marker_pay(actor=floor.accountant, marker_id=marker.pk, amount=100, at_table=False,
                         signer=cage())
    assert paid.value.code == "marker_written_off"
    again = as_user(floor.accountant).post(
        f"{URL}/{marker.pk}/write-off/",
        {"reason": "again", "accountant": {"username": "accountant"}, "second": sig(floor.manager)},
        format="json",
    )
    assert (again.status_code, again.json()["error"]["code"]) == (409, "marker_written_off")

    # and the database refuses to change the record
    with pytest.raises(DatabaseError), transaction.atomic():
        MarkerWriteOff.objects.filter(pk=write_off.pk).update(amount=1)


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("manager", {"accountant": sig_name("accountant"), "second": {"username": "pm"}}, 403, "accountant_required"),
        ("accountant", {"accountant": sig_name("accountant"), "second": {"username": "pm", "password": "no"}}, 403,
         "signature_refused"),
        ("accountant", {"accountant": sig_name("accountant"), "second": sig_name("accountant")}, 400,
         "same_signer"),
        ("accountant", {"accountant": sig_name("accountant"), "second": {"username": "dealer", "password": "pass"}},
         400, "signer_role"),
        ("accountant", {"accountant": sig_name("accountant"), "second": sig_name("pm"), "reason": " "}, 400,
         "reason_required"),
    ],
    ids=["a pit manager", "a wrong password", "one person twice", "a dealer second", "no reason"],
)
def test_a_write_off_is_refused_and_nothing_is_written(floor, who, body, status, code):
    # given a marker
    marker = issue(floor)
    # when the write-off is refused
    answer = as_user(getattr(floor, who)).post(f"{URL}/{marker.pk}/write-off/", {"reason": "gone", **body},
                                               format="json")
    # then it says why, and no write-off nor posting exists
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    assert not MarkerWriteOff.objects.exists()
    assert balance("markers") == 50_000


def test_a_marker_paid_in_full_has_nothing_to_write_off(floor):
    marker = issue(floor, amount=10_000)
    slips.marker_pay(actor=floor.accountant, marker_id=marker.pk, amount=10_000, at_table=False,
                     signer=cage())
    answer = as_user(floor.accountant).post(
        f"{URL}/{marker.pk}/write-off/",
        {"reason": "x", "accountant": {"username": "accountant"}, "second": sig(floor.manager)}, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "marker_paid")
