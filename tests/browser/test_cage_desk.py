"""The cage desk, the cashier's own screen (issue 29, "a cage of its own"): a fill the pit requests arrives
there live, the cashier issues it with their own signing PIN, and the pit receives it with the table's
dealer signing. Played from signing in, by clicks; the records are read back afterwards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password

from accounting.models import LedgerTransaction, Slip, SlipStatus
from casino.core.models import StaffProfile
from casino.core.roles import Role
from tests.browser.test_cage_flows import check_screen, expect, sign_as_other, slip_request
from tests.factories import UserFactory

pytestmark = pytest.mark.browser


def _cashier() -> Any:
    cashier = UserFactory(username="cashier1", roles=[Role.CASHIER])
    StaffProfile.objects.filter(user=cashier).update(pin_hash=make_password("4821"))
    return cashier


def test_a_fill_requested_at_the_pit_is_issued_at_the_cage_desk_and_received_at_the_table(
        screens: Any, floor: Any) -> None:
    cashier = _cashier()
    # given the cashier signing in through the sign-in form: they land on the cage desk, with nothing waiting
    desk = screens.page()
    screens.login(desk, "cashier1")
    expect()(desk.get_by_role("heading", level=1)).to_have_text("Cage desk")
    expect()(desk.get_by_role("heading", name="Fills to issue (0)")).to_be_visible()

    # when the pit manager, signed in, requests a fill for BAC1 on his own screen
    pit = screens.page()
    screens.login(pit, "pm")
    pit.get_by_role("link", name="Cage", exact=True).click()
    pit.get_by_role("link", name="Fills and credits").click()
    fill_ref = slip_request(pit, "Fill: chips from the cage", {"€25 chips": "20"})
    # the pit's screen says the cage signs next, and offers no cage signature of its own
    expect()(pit.get_by_text("The cage signs next")).to_be_visible()
    expect()(pit.get_by_role("button", name="Sign: chips issued")).to_have_count(0)

    # then it arrives on the cage desk by itself (the desk refreshes every 3 s, nobody reloads it)
    row = desk.locator(f"tr[data-slip='{fill_ref}']")
    expect()(row).to_be_visible()
    expect()(row).to_contain_text("BAC1")
    expect()(row).to_contain_text("20 × €25")
    expect()(row).to_contain_text("€500.00")
    expect()(desk.get_by_role("heading", name="Fills to issue (1)")).to_be_visible()
    check_screen(screens, desk, "cage-desk")

    # when the cashier opens it and signs with a wrong PIN, then with their own
    desk.get_by_role("link", name=f"Issue or refuse {fill_ref}").click()
    check_screen(screens, desk, "cage-desk-slip")
    desk.get_by_label("Your signing PIN, cashier1").fill("1357")
    desk.get_by_role("button", name="Sign: chips issued").click()
    expect()(desk.get_by_role("alert")).to_contain_text("the password or PIN of cashier1 is wrong")
    assert Slip.objects.get(kind="fill", number=1).status == SlipStatus.REQUESTED
    desk.get_by_label("Your signing PIN, cashier1").fill("4821")
    desk.get_by_role("button", name="Sign: chips issued").click()
    expect()(desk.get_by_text(f"Slip {fill_ref} issued.")).to_be_visible()

    # then the desk shows it on its way to the table
    desk.get_by_role("navigation", name="Cage").get_by_role("link", name="Cage desk").click()
    expect()(desk.get_by_role("heading", name="Fills on their way to the tables (1)")).to_be_visible()
    expect()(desk.get_by_role("heading", name="Fills to issue (0)")).to_be_visible()

    # when the pit receives it with a dealer who is not at BAC1 signing
    pit.reload()
    sign_as_other(pit, "The table's dealer", "dealer2", "pass")
    pit.get_by_role("button", name="Sign: chips received").click()
    expect()(pit.get_by_role("alert")).to_contain_text(
        f"dealer2 is not the dealer at {floor.table.name} in this shift")
    assert Slip.objects.get(kind="fill", number=1).status == SlipStatus.ISSUED
    assert not LedgerTransaction.objects.filter(source_type="fill").exists()
    # and then with the table's dealer
    sign_as_other(pit, "The table's dealer", "dealer", "pass")
    pit.get_by_role("button", name="Sign: chips received").click()
    expect()(pit.get_by_text(f"Slip {fill_ref} received and posted.")).to_be_visible()

    # then the fill carries the three signatures, each by whose job it is, and is posted
    fill = Slip.objects.get(kind="fill", number=1)
    assert (fill.status, fill.total, fill.chips) == (SlipStatus.RECEIVED, 50_000, {"2500": 20})
    assert [fill.request_signer.user, fill.issue_signer.user, fill.receive_signer.user] == [
        floor.manager, cashier, floor.dealer]
    assert LedgerTransaction.objects.filter(source_type="fill", source_id=str(fill.pk)).count() == 1
    # and the desk no longer lists it
    desk.get_by_role("navigation", name="Cage").get_by_role("link", name="Cage desk").click()
    expect()(desk.get_by_role("heading", name="Fills on their way to the tables (0)")).to_be_visible()


def test_the_cage_receives_a_credit_and_refuses_a_request_on_its_desk(screens: Any, floor: Any) -> None:
    _cashier()
    pit = screens.page("pm", at="/accounting/cage/slips/")
    # given a credit requested and handed over by the table's dealer at the pit
    credit_ref = slip_request(pit, "Credit: chips from the table", {"€5 chips": "10"})
    sign_as_other(pit, "The table's dealer", "dealer", "pass")
    pit.get_by_role("button", name="Sign: chips issued").click()
    expect()(pit.get_by_text(f"Slip {credit_ref} issued.")).to_be_visible()
    # and a fill the cage will refuse
    pit.goto("/accounting/cage/slips/")
    fill_ref = slip_request(pit, "Fill: chips from the cage", {"€100 chips": "1"})

    # when the cashier receives the credit from the desk with their PIN
    desk = screens.page("cashier1")
    desk.get_by_role("link", name=f"Receive {credit_ref}").click()
    desk.get_by_label("Your signing PIN, cashier1").fill("4821")
    desk.get_by_role("button", name="Sign: chips received").click()
    expect()(desk.get_by_text(f"Slip {credit_ref} received and posted.")).to_be_visible()
    credit = Slip.objects.get(kind="credit", number=1)
    assert (credit.status, credit.receive_signer.user.username) == (SlipStatus.RECEIVED, "cashier1")

    # and refuses the fill with a reason
    desk.get_by_role("navigation", name="Cage").get_by_role("link", name="Cage desk").click()
    desk.get_by_role("link", name=f"Issue or refuse {fill_ref}").click()
    desk.get_by_label("Reason for the refusal").fill("No €100 chips at the cage")
    desk.get_by_role("button", name="Refuse the request").click()
    expect()(desk.get_by_text(re.compile(f"Slip {fill_ref} refused by the cage"))).to_be_visible()

    # then the fill waits for the pit's second person, listed so on the desk, and nothing was posted for it
    fill = Slip.objects.get(kind="fill", number=1)
    assert (fill.status, fill.void_reason, fill.void_requested_by.username) == (
        SlipStatus.REQUESTED, "No €100 chips at the cage", "cashier1")
    desk.get_by_role("navigation", name="Cage").get_by_role("link", name="Cage desk").click()
    expect()(desk.get_by_role("heading", name=re.compile(r"Refused or voided, waiting for a second person \(1\)"))
             ).to_be_visible()
    assert not LedgerTransaction.objects.filter(source_type="fill").exists()


def test_a_pit_manager_is_refused_the_cage_desk(screens: Any, floor: Any) -> None:
    page = screens.page("pm", at="/accounting/cage/desk/")
    expect()(page.get_by_text("The cage desk is for the cage cashiers")).to_be_visible()
