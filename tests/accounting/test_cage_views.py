"""The cage screens' forms (accounting/views/cage.py) without a browser: refusals in words that write nothing
but count a wrong password as the API counts it, and a table that is not yours is never counted."""

from __future__ import annotations

from django.test import Client

from accounting.models import InventoryCount, Slip
from casino.audit.models import AuditRecord

COUNTS = "/accounting/cage/"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def opener_form(floor, **more) -> dict[str, str]:
    return {"table": str(floor.table.pk), "shift": str(floor.shift.pk), "kind": "opener", "chips_2500": "4",
            "supervisor_who": "me", "dealer_who": "other", "dealer_username": "dealer", "dealer_with": "password",
            "dealer_secret": "pass", **more}


def test_a_wrong_password_is_refused_in_words_writes_nothing_and_is_counted(floor):
    # when the pit manager submits an opener with the dealer's wrong password
    answer = signed_in(floor.manager).post(COUNTS, opener_form(floor, dealer_secret="nope"))
    # then the screen says so in words, no count exists, and the refusal is on record as the API's is
    assert answer.status_code == 400
    assert "The dealer&#x27;s signature: the password or PIN of dealer is wrong." in answer.content.decode()
    assert not InventoryCount.objects.exists()
    assert AuditRecord.objects.filter(action="signature.refused", actor_username="pm").count() == 1


def test_a_signing_pin_is_taken_as_a_pin(floor):
    # given the dealer's signing PIN set
    from casino.signatures import staff_pin_set

    staff_pin_set(actor=floor.dealer, password="pass", pin="4821")
    # when the dealer signs with it
    answer = signed_in(floor.manager).post(COUNTS, opener_form(floor, dealer_with="pin", dealer_secret="4821"))
    # then the opener is recorded
    assert answer.status_code == 302
    assert InventoryCount.objects.get().dealer_signer.user == floor.dealer


def test_a_count_that_is_not_a_number_is_refused_before_anything(floor):
    answer = signed_in(floor.manager).post(COUNTS, opener_form(floor, chips_2500="four"))
    assert answer.status_code == 400
    assert "The count of €25 chips must be a whole number of chips" in answer.content.decode()
    assert not InventoryCount.objects.exists()
    assert not AuditRecord.objects.filter(action="signature.refused").exists()


def test_another_pits_table_is_never_counted_in_place_of_yours(floor):
    # when the other pit's manager posts an opener for BAC1, which they do not run
    answer = signed_in(floor.other_manager).post(COUNTS, opener_form(floor, dealer_username="dealer2"))
    # then nothing is counted, at BAC1 or at their own BAC2
    assert answer.status_code == 400
    assert "Choose one of your tables" in answer.content.decode()
    assert not InventoryCount.objects.exists()


def test_the_second_signer_must_be_named(floor):
    answer = signed_in(floor.manager).post(COUNTS, opener_form(floor, dealer_username=""))
    assert answer.status_code == 400
    assert "type the username of the person who signs" in answer.content.decode()


def test_a_void_cannot_be_approved_by_who_asked_for_it(floor):
    # given a fill requested and a void asked for by the pit manager
    from accounting.services import slips

    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 2})
    slips.slip_void_request(actor=floor.manager, slip_id=slip.pk, reason="wrong table")
    # when the same person approves it on the screen
    answer = signed_in(floor.manager).post(f"/accounting/cage/slips/{slip.pk}/", {"action": "approve"})
    # then it is refused and the slip is not voided
    assert answer.status_code == 400
    assert "must be approved by someone other than who requested it" in answer.content.decode()
    assert Slip.objects.get(pk=slip.pk).status == "requested"


def test_the_last_closer_rolls_into_the_next_opener_from_the_screen(floor):
    # given BAC1's shift counted, soft-counted and closed, and the next shift under way
    from accounting.services import counts, shifts
    from casino.core.roles import Role
    from tables.models import Shift
    from tests.factories import UserFactory, open_shift

    pm = {"username": "pm"}
    dealer = {"username": "dealer", "password": "pass"}
    for kind, chips in (("opener", {"2500": 4}), ("closer", {"2500": 3, "500": 5})):
        counts.inventory_count_record(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                      kind=kind, chips=chips, dealer=dealer, supervisor=pm)
    counter = UserFactory(username="counter1", roles=[Role.COUNT_TEAM])
    UserFactory(username="counter2", roles=[Role.COUNT_TEAM])
    counts.drop_count_record(actor=counter, table_id=floor.table.pk, shift_id=floor.shift.pk, cash=0, chips=0,
                             markers=0, counter_one={"username": "counter1"},
                             counter_two={"username": "counter2", "password": "pass"})
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    swing = open_shift(floor.manager, code="swing")
    Shift.objects.filter(pk=swing.pk).update(starts_at=floor.shift.ends_at,
                                             ends_at=floor.shift.ends_at + (floor.shift.ends_at - floor.shift.starts_at))
    client = signed_in(floor.manager)
    # when the pit manager opens the next shift's screen, then the last closer is filled in
    page = client.get(COUNTS, {"table": floor.table.pk, "shift": swing.pk}).content.decode()
    assert 'name="chips_2500" value="3"' in page
    assert "The tray stayed locked" in page
    # when they open with it as it is
    answer = client.post(COUNTS, {"table": floor.table.pk, "shift": swing.pk, "action": "roll"})
    # then the opener is the closer, rolled
    assert answer.status_code == 302
    opener = InventoryCount.objects.get(shift=swing, kind="opener")
    assert (opener.chips, opener.total, opener.rolled) == ({"500": 5, "2500": 3}, 10_000, True)


def test_a_cage_form_sent_twice_writes_once(floor):
    # given the opener form as rendered once (its once-only key)
    client = signed_in(floor.manager)
    form = opener_form(floor, form_key="5f0c1d2e3a4b")
    # when it is sent, then sent again (a double tap, a resent page)
    first = client.post(COUNTS, form)
    again = client.post(COUNTS, form, follow=True)
    # then one opener is recorded, and the second sending says it was done already
    assert first.status_code == 302
    assert InventoryCount.objects.count() == 1
    assert AuditRecord.objects.filter(action__startswith="count.").count() == 1
    assert "That form was already sent and done: nothing was done twice." in again.content.decode()


def test_an_overpayment_is_refused_by_the_service_in_the_screens_words(floor):
    # given a marker of €500.00 issued at BAC1
    from accounting.services import slips

    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="Ms Lee", amount=50_000, supervisor={"username": "pm"},
                                dealer={"username": "dealer", "password": "pass"})
    # when the cage takes €600.00 on it (the cashier, signed in)
    from casino.core.roles import Role
    from tests.factories import UserFactory

    cashier = UserFactory(username="cashier1", roles=[Role.CASHIER])
    answer = signed_in(cashier).post(f"/accounting/cage/markers/{marker.pk}/",
                                           {"amount": "600", "where": "cage", "signer_who": "me"})
    # then the service's refusal is shown in words with the amounts in euros, and nothing is paid
    assert answer.status_code == 400
    assert f"{marker.reference} has €500.00 left to pay: €600.00 is too much." in answer.content.decode()
    marker.refresh_from_db()
    assert marker.paid == 0
