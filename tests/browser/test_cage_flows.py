"""The cage screens from sign-in: opener and closer signed by two people, a fill and a credit through every
step and a void by a second person, the drop box's soft count, a marker issued and redeemed, and who may
open the screens. Each flow's records are read back from the database afterwards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password

from accounting.models import (
    CountKind,
    DropCount,
    InventoryCount,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    Slip,
    SlipStatus,
)
from accounting.services import counts, shifts, slips
from casino.core.models import StaffProfile
from casino.core.roles import Role
from tables.models import Shift
from tests.browser.conftest import axe_violations
from tests.factories import UserFactory, open_shift

pytestmark = pytest.mark.browser

LAYOUT = ["h1", "h2", ".cage-nav a", ".btn", "table", "fieldset", "input:not([type=hidden])", "select"]


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def check_screen(screens: Any, page: Any, name: str) -> None:
    screens.shots(page, name, LAYOUT)
    assert axe_violations(page) == []


def sign_as_other(page: Any, title: str, username: str, secret: str) -> None:
    box = page.get_by_role("group", name=f"{title} signs")
    box.get_by_label("Another person").check()
    page.get_by_label(f"{title}: username").fill(username)
    page.get_by_label(f"{title}: password or PIN").fill(secret)


def test_opener_and_closer_are_signed_by_the_dealer_and_the_supervisor(screens: Any, floor: Any) -> None:
    # given the pit manager on the cage screens, no count yet for the shift
    page = screens.page("pm")
    page.get_by_role("link", name="Cage", exact=True).click()
    expect()(page.get_by_role("heading", name="Count the opening inventory")).to_be_visible()
    check_screen(screens, page, "cage-opener")

    # when the chips are counted on the grid, the amounts and the total follow on screen
    page.get_by_label("€25 chips", exact=True).fill("40")
    page.get_by_label("€5 chips", exact=True).fill("60")
    expect()(page.locator("[data-total]")).to_have_text("€1,300.00")
    # and the dealer types a wrong password
    sign_as_other(page, "The dealer", "dealer", "not-it")
    page.get_by_role("button", name="Sign and record the opener").click()

    # then it is refused in words and nothing is written
    expect()(page.get_by_role("alert")).to_contain_text("the password or PIN of dealer is wrong")
    assert not InventoryCount.objects.exists()
    assert page.get_by_label("€25 chips", exact=True).input_value() == "40"  # what was typed stays

    # when the dealer signs with the right password
    page.get_by_label("The dealer: password or PIN").fill("pass")
    page.get_by_role("button", name="Sign and record the opener").click()

    # then the opener is recorded with both signatures
    expect()(page.get_by_text("Opening inventory of BAC1 recorded: €1,300.00.")).to_be_visible()
    opener = InventoryCount.objects.get(kind=CountKind.OPENER)
    assert (opener.chips, opener.total) == ({"500": 60, "2500": 40}, 130_000)
    assert (opener.dealer_signer.user, opener.supervisor_signer.user) == (floor.dealer, floor.manager)
    assert opener.recorded_by == floor.manager

    # when the closer is counted and signed
    page.get_by_label("€25 chips", exact=True).fill("38")
    page.get_by_label("€5 chips", exact=True).fill("60")
    page.get_by_label("€100 chips", exact=True).fill("1")
    sign_as_other(page, "The dealer", "dealer", "pass")
    page.get_by_role("button", name="Sign and record the closer").click()

    # then it is recorded too, and both counts are shown with their signers
    expect()(page.get_by_text("Closing inventory of BAC1 recorded: €1,350.00.")).to_be_visible()
    closer = InventoryCount.objects.get(kind=CountKind.CLOSER)
    assert (closer.chips, closer.total) == ({"500": 60, "2500": 38, "10000": 1}, 135_000)
    assert (closer.dealer_signer.user, closer.supervisor_signer.user) == (floor.dealer, floor.manager)

    # given the shift closed for the table and the next shift under way
    counters = [UserFactory(username=f"counter{n}", roles=[Role.COUNT_TEAM]) for n in (1, 2)]
    counts.drop_count_record(actor=counters[0], table_id=floor.table.pk, shift_id=floor.shift.pk, cash=0, chips=0,
                             markers=0, counter_one={"username": "counter1"},
                             counter_two={"username": "counter2", "password": "pass"})
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    swing = open_shift(floor.manager, code="swing")
    length = floor.shift.ends_at - floor.shift.starts_at
    Shift.objects.filter(pk=swing.pk).update(starts_at=floor.shift.ends_at, ends_at=floor.shift.ends_at + length)

    # when the next shift's opener is counted
    page.goto(f"/accounting/cage/?table={floor.table.pk}&shift={swing.pk}")

    # then the last closer is shown beside the new opener and filled in
    expect()(page.get_by_role("columnheader", name="Last closer")).to_be_visible()
    assert page.get_by_label("€25 chips", exact=True).input_value() == "38"
    assert page.get_by_label("€100 chips", exact=True).input_value() == "1"
    expect()(page.locator("[data-total]")).to_have_text("€1,350.00")
    check_screen(screens, page, "cage-opener-from-closer")


def slip_request(page: Any, kind: str, chips: dict[str, str]) -> str:
    page.get_by_label(kind).check()
    for label, count in chips.items():
        page.get_by_label(label, exact=True).fill(count)
    page.get_by_role("button", name="Sign and request").click()
    heading = page.get_by_role("heading", level=1)
    expect()(heading).to_have_text(re.compile(r"Slip [FC]\d{4}-\d{6}"))
    return heading.inner_text().removeprefix("Slip ")


def test_fill_and_credit_through_every_step_and_a_void_by_a_second_person(screens: Any, floor: Any) -> None:
    # given the pit manager on the fills and credits screen
    page = screens.page("pm")
    page.get_by_role("link", name="Cage", exact=True).click()
    page.get_by_role("link", name="Fills and credits").click()
    check_screen(screens, page, "cage-slips")

    # when a fill is requested, issued by the cage cashier at the cage and received by the dealer
    cashier = UserFactory(username="cashier1", roles=[Role.CASHIER])
    StaffProfile.objects.filter(user=cashier).update(pin_hash=make_password("4821"))
    fill_ref = slip_request(page, "Fill: chips from the cage", {"€25 chips": "20"})
    check_screen(screens, page, "cage-slip-requested")
    cage = screens.page("cashier1", at=page.url)
    cage.get_by_label("Your signing PIN, cashier1").fill("4821")
    cage.get_by_role("button", name="Sign: chips issued").click()
    expect()(cage.get_by_text(f"Slip {fill_ref} issued.")).to_be_visible()
    page.reload()
    sign_as_other(page, "The table's dealer", "dealer", "pass")
    page.get_by_role("button", name="Sign: chips received").click()
    expect()(page.get_by_text(f"Slip {fill_ref} received and posted.")).to_be_visible()

    # then the fill carries three signatures and is received
    fill = Slip.objects.get(kind="fill", number=1)
    assert (fill.status, fill.total, fill.chips) == (SlipStatus.RECEIVED, 50_000, {"2500": 20})
    assert [fill.request_signer.user, fill.issue_signer.user, fill.receive_signer.user] == [
        floor.manager, cashier, floor.dealer]

    # when a credit goes the other way: issued by the dealer, received by the cage
    page.get_by_role("link", name="Back to the slips").click()
    credit_ref = slip_request(page, "Credit: chips from the table", {"€5 chips": "10"})
    sign_as_other(page, "The table's dealer", "dealer", "pass")
    page.get_by_role("button", name="Sign: chips issued").click()
    expect()(page.get_by_text(f"Slip {credit_ref} issued.")).to_be_visible()
    cage.goto(page.url)
    cage.get_by_label("Your signing PIN, cashier1").fill("4821")
    cage.get_by_role("button", name="Sign: chips received").click()
    expect()(cage.get_by_text(f"Slip {credit_ref} received and posted.")).to_be_visible()
    credit = Slip.objects.get(kind="credit", number=1)
    assert (credit.status, credit.total) == (SlipStatus.RECEIVED, 5_000)
    assert [credit.issue_signer.user, credit.receive_signer.user] == [floor.dealer, cashier]

    # when a second fill is asked to be voided by the pit manager
    page.get_by_role("link", name="Back to the slips").click()
    void_ref = slip_request(page, "Fill: chips from the cage", {"€100 chips": "1"})
    page.get_by_label("Reason for the void").fill("Asked for the wrong table")
    page.get_by_role("button", name="Ask for the void").click()
    expect()(page.get_by_text(f"Slip {void_ref} void asked for")).to_be_visible()
    # the one who asked may not approve it
    page.get_by_role("button", name=re.compile("I am the second person")).click()
    expect()(page.get_by_role("alert")).to_contain_text("someone other than who requested it")
    assert Slip.objects.get(kind="fill", number=2).status == SlipStatus.REQUESTED

    # then the accountant, a second person, approves it on their own screen
    second = screens.page("accountant")
    second.get_by_role("link", name="Cage", exact=True).click()
    second.get_by_role("link", name="Fills and credits").click()
    second.get_by_role("link", name=void_ref).click()
    second.get_by_role("button", name=re.compile("I am the second person")).click()
    expect()(second.get_by_text(f"Slip {void_ref} voided.")).to_be_visible()
    voided = Slip.objects.get(kind="fill", number=2)
    assert (voided.status, voided.voided_by, voided.void_requested_by) == (
        SlipStatus.VOIDED, floor.accountant, floor.manager)
    assert voided.void_reason == "Asked for the wrong table"

    # and the slip numbers show every number accounted for: no gap, the void with its reason
    second.get_by_role("link", name="Slip numbers").click()
    expect()(second.locator("#no-gaps")).to_be_visible()
    expect()(second.get_by_role("cell", name="Asked for the wrong table")).to_be_visible()
    check_screen(screens, second, "cage-slip-numbers")


def test_drop_box_is_counted_and_signed_by_two_counters(screens: Any, floor: Any) -> None:
    # given the count team: the first counter signed in lands on the drop box screen
    one, two = (UserFactory(username=f"counter{n}", roles=[Role.COUNT_TEAM]) for n in (1, 2))
    page = screens.page("counter1")
    expect()(page.get_by_role("heading", level=1)).to_have_text(re.compile("Drop box"))
    check_screen(screens, page, "cage-drop")

    # when the box is counted and the second counter signs beside the first
    page.get_by_label("Currency notes").fill("1500")
    page.get_by_label("Chips (").fill("200.50")
    page.get_by_label("Marker copies").fill("0")
    expect()(page.locator("[data-total]")).to_have_text("€1,700.50")
    sign_as_other(page, "The second counter", "pm", "pass")  # a pit manager is not of the count team
    page.get_by_role("button", name="Both sign: record the count").click()
    expect()(page.get_by_role("alert")).to_contain_text("is not a member of the count team")
    assert not DropCount.objects.exists()
    sign_as_other(page, "The second counter", "counter2", "wrong")
    page.get_by_role("button", name="Both sign: record the count").click()
    expect()(page.get_by_role("alert")).to_contain_text("the password or PIN of counter2 is wrong")
    assert not DropCount.objects.exists()
    page.get_by_label("The second counter: password or PIN").fill("pass")
    page.get_by_role("button", name="Both sign: record the count").click()

    # then the soft count is recorded with both counters
    expect()(page.get_by_text("Drop box of BAC1 counted: €1,700.50.")).to_be_visible()
    drop = DropCount.objects.get()
    assert (drop.cash, drop.chips, drop.markers, drop.total) == (150_000, 20_050, 0, 170_050)
    assert (drop.counter_one.user, drop.counter_two.user, drop.recorded_by) == (one, two, one)


def test_marker_issued_at_the_table_and_redeemed_at_the_cage(screens: Any, floor: Any) -> None:
    # given the pit manager on the markers screen
    page = screens.page("pm")
    page.get_by_role("link", name="Cage", exact=True).click()
    page.get_by_role("link", name="Markers").click()
    check_screen(screens, page, "cage-markers")

    # when a marker is issued, signed by the supervisor (signed in) and the dealer
    page.get_by_label("Player (name or account)").fill("Ms Lee")
    page.get_by_label("Amount (EUR)").fill("500")
    sign_as_other(page, "The dealer", "dealer", "pass")
    page.get_by_role("button", name="Sign and issue the marker").click()

    # then it is issued with both signatures
    expect()(page.get_by_text(re.compile(r"Marker M\d{4}-000001 issued to Ms Lee at BAC1: €500.00"))).to_be_visible()
    marker = Marker.objects.get()
    assert (marker.player, marker.amount, marker.paid) == ("Ms Lee", 50_000, 0)
    assert (marker.supervisor_signer.user, marker.dealer_signer.user) == (floor.manager, floor.dealer)

    # when the cashier takes a part payment at the cage, then the rest
    cashier = UserFactory(username="cashier1", roles=[Role.CASHIER])
    cage = screens.page("cashier1", at=f"/accounting/cage/markers/{marker.pk}/")
    check_screen(screens, cage, "cage-marker")
    cage.get_by_label("Amount paid (EUR)").fill("600")
    cage.get_by_role("button", name="Sign: payment taken").click()
    expect()(cage.get_by_role("alert")).to_contain_text("has €500.00 left to pay")
    cage.get_by_label("Amount paid (EUR)").fill("200")
    cage.get_by_role("button", name="Sign: payment taken").click()
    expect()(cage.get_by_text(f"€200.00 paid on marker {marker.reference} at the cage.")).to_be_visible()
    cage.get_by_role("button", name="Sign: payment taken").click()  # the rest, filled in

    # then the marker is redeemed: two payments at the cage, signed by the cashier who took them
    expect()(cage.get_by_role("heading", name="Ms Lee · Redeemed")).to_be_visible()
    marker.refresh_from_db()
    assert marker.paid == 50_000
    payments = list(MarkerPayment.objects.filter(marker=marker).order_by("id"))
    assert [(p.amount, p.at_table, p.signer.user, p.received_by) for p in payments] == [
        (20_000, False, cashier, cashier), (30_000, False, cashier, cashier)]

    # given a second marker the player will never pay
    unpaid = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="Mr Roe", amount=30_000, supervisor={"username": "pm"},
                                dealer={"username": "dealer", "password": "pass"})

    # when the accountant writes it off from the outstanding markers, the pit manager signing second
    cage = screens.page("accountant", at=f"/accounting/cage/markers/{marker.pk}/")
    cage.get_by_role("link", name="Back to the markers").click()
    cage.get_by_role("link", name=unpaid.reference).click()
    cage.get_by_label("Reason for the write-off").fill("Player declared bankrupt")
    sign_as_other(cage, "The second person", "pm", "pass")
    cage.get_by_role("button", name="Both sign: write off €300.00").click()

    # then it is written off with both signatures and the reason, and takes no payment
    expect()(cage.get_by_text(f"Marker {unpaid.reference} written off: €300.00.")).to_be_visible()
    expect()(cage.get_by_role("heading", name="Mr Roe · Written off")).to_be_visible()
    expect()(cage.get_by_role("button", name="Sign: payment taken")).to_have_count(0)
    write_off = MarkerWriteOff.objects.get(marker=unpaid)
    assert (write_off.amount, write_off.reason) == (30_000, "Player declared bankrupt")
    assert (write_off.accountant_signer.user, write_off.second_signer.user) == (floor.accountant, floor.manager)


@pytest.mark.parametrize("username", ["dealer", "auditor"])
def test_dealers_and_auditors_are_refused_the_cage(screens: Any, floor: Any, username: str) -> None:
    # given a dealer or an auditor signed in
    page = screens.page(username)

    # then no link leads to the cage and every cage screen refuses them in words
    expect()(page.get_by_role("link", name=re.compile("cage", re.I))).to_have_count(0)
    for path in ("/accounting/cage/", "/accounting/cage/slips/", "/accounting/cage/slips/numbers/",
                 "/accounting/cage/drop/", "/accounting/cage/markers/"):
        answer = page.goto(path)
        assert answer is not None
        assert answer.status == 403
        expect()(page.get_by_role("alert")).to_contain_text("The cage screens are for the pit managers")


def test_the_accountant_reads_counts_and_slips_without_counting(screens: Any, floor: Any) -> None:
    # given an opener recorded by the pit and a fill requested
    counts.inventory_count_record(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                  kind="opener", chips={"2500": 4}, dealer={"username": "dealer", "password": "pass"},
                                  supervisor={"username": "pm"})
    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"500": 2})

    # when the accountant opens the cage
    page = screens.page("accountant")
    page.get_by_role("link", name="Cage", exact=True).click()

    # then the opener is shown with its signers, and counting it is left to the pit
    expect()(page.get_by_text("Signed by the dealer")).to_be_visible()
    expect()(page.get_by_text("A pit manager of BAC1 counts the closing inventory")).to_be_visible()
    expect()(page.get_by_role("button", name=re.compile("Sign and record"))).to_have_count(0)
    check_screen(screens, page, "cage-counts-accountant")
    # and the slips are listed, with no request form for them
    page.get_by_role("link", name="Fills and credits").click()
    expect()(page.get_by_role("link", name=slip.reference)).to_be_visible()
    expect()(page.get_by_role("button", name="Sign and request")).to_have_count(0)
