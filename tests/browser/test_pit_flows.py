"""The pit manager's paperwork screens, from sign-in, with the database checked after each step: voids
(asked for, approved, refused, never by who asked), alerts (acknowledged, resolved), a table's controls
(limits, closed and opened, dealers relieved, put on and rotated, a fill asked of the cage), the refusals at
another pit's table, and the auditor's "Verify the chain". State is seeded through the services."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.models import Alert, Slip
from accounting.services import alerts
from casino.audit.models import AuditVerification
from casino.core.roles import Role
from tables.models import Assignment, Round, RoundStatus, Table
from tables.services import rounds
from tests.browser.conftest import axe_violations
from tests.factories import TableFactory, UserFactory, assign

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", ".pit-nav a", "h1", "h2"]


def client_of(user):
    """The person's own session, for a post the screens do not offer them (no page to click)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def post_as(page, path: str, form: dict | None = None):
    """A form post the screen does not offer (the person's own session and CSRF token): what the server answers."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    return page.request.post(path, form=form or {}, headers={"X-CSRFToken": token, "Referer": page.url},
                             max_redirects=0)


@pytest.fixture
def pm1b(floor):
    """A second pit manager of the main pit: the one who decides the other's void."""
    pm = UserFactory(username="pm1b", roles=[Role.PIT_MANAGER])
    floor.pit.managers.add(pm)
    return pm


def test_a_dealers_void_request_is_approved_by_a_pit_manager_never_by_who_asked(screens, floor):
    # given the dealer asked for a void of a round in play at BAC1 (on the dealer's screen)
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=2_500)
    rounds.round_void_request(round_id=rnd.pk, actor=floor.dealer, reason="misdeal: two cards stuck together")
    # when the pit manager opens the voids screen
    page = screens.page("pm", at="/pit/voids/")
    item = page.locator(f'#pending-voids [data-round="{rnd.pk}"]')
    expect(item).to_contain_text("Asked for by dealer")
    expect(item).to_contain_text("misdeal: two cards stuck together")
    expect(page.locator(".pit-nav")).to_contain_text("Voids (1 to decide)")
    screens.shots(page, "pit-voids", LAYOUT + [".void"])
    assert axe_violations(page) == []
    # and opens the round: the trail (bets, events, audit) is under the decision
    item.get_by_role("link", name="See the round and decide").click()
    expect(page.locator("#void-panel")).to_contain_text("dealer asked for a void")
    expect(page.get_by_role("heading", name="Bets")).to_be_visible()
    expect(page.get_by_role("heading", name="Audit records")).to_be_visible()
    screens.shots(page, "pit-round-void", LAYOUT + ["#void-panel .btn", "#void-panel input"])
    assert axe_violations(page) == []
    # then the dealer who asked is refused the decision (not a pit manager), in words
    answer = client_of(floor.dealer).post(f"/pit/rounds/{rnd.pk}/void/approve/")
    assert answer.status_code == 403
    assert "for pit managers" in answer.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.OPEN
    # when the pit manager approves
    page.get_by_role("button", name="Approve the void").click()
    # then the round is voided by them, the request stays the dealer's, and the screen says so
    expect(page.locator(".messages")).to_contain_text(f"BAC1 round #{rnd.number} is voided")
    stored = Round.objects.get(pk=rnd.pk)
    assert (stored.status, stored.voided_by, stored.void_requested_by) == (RoundStatus.VOIDED, floor.manager,
                                                                            floor.dealer)
    expect(page.locator("#decided-voids")).to_contain_text("Voided by pm")


def test_a_pit_manager_asks_for_a_void_and_only_the_other_pit_manager_decides(screens, floor, pm1b):
    # given a round in play at BAC1
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    # when the pit manager asks for its void on the round's screen
    page = screens.page("pm", at=f"/pit/rounds/{rnd.pk}/")
    page.get_by_label("Reason").select_option("Exposed card")
    page.get_by_role("button", name="Ask for a void").click()
    # then the request is theirs, and the screen says in words that someone else decides it
    expect(page.locator("#own-request")).to_contain_text("You asked for this void yourself")
    expect(page.locator(".pit-nav")).not_to_contain_text("to decide")  # their own request is not theirs to decide
    expect(page.get_by_role("button", name="Approve the void")).to_have_count(0)
    stored = Round.objects.get(pk=rnd.pk)
    assert (stored.void_requested_by, stored.void_reason) == (floor.manager, "Exposed card")
    # and approving it anyway is refused, on a page in words, the round still in play
    answer = post_as(page, f"/pit/rounds/{rnd.pk}/void/approve/")
    assert answer.status == 403
    assert "You asked for this void yourself" in answer.text()
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.OPEN
    # when the pit's other manager refuses it with a reason
    other = screens.page("pm1b", at=f"/pit/rounds/{rnd.pk}/")
    other.get_by_label("Why refuse").fill("The card was burnt, not exposed")
    other.get_by_role("button", name="Refuse the void").click()
    # then the round goes on, the refusal on record beside the request
    expect(other.locator(".messages")).to_contain_text("is refused: the round goes on")
    stored = Round.objects.get(pk=rnd.pk)
    assert (stored.status, stored.void_refused_by, stored.void_refusal_reason) == (
        RoundStatus.OPEN, pm1b, "The card was burnt, not exposed")


def test_an_alert_is_acknowledged_then_resolved_with_who_and_when(screens, floor):
    # given a big-bet alert at BAC1 and a variance at the other pit's BAC2
    mine = alerts.alert_raise(kind="large_bet", severity="warning", message="large bet 5000.00 on banker at BAC1",
                              dedupe_key="large_bet:test", table=floor.table)
    theirs = alerts.alert_raise(kind="variance", severity="critical", message="variance -250.00 at BAC2",
                                dedupe_key="variance:test", table=floor.other_table)
    page = screens.page("pm", at="/pit/alerts/")
    expect(page.locator("#open-alerts")).to_contain_text("large bet 5000.00 on banker at BAC1")
    expect(page.locator("#open-alerts")).not_to_contain_text("BAC2")
    expect(page.locator(".pit-nav")).to_contain_text("Alerts (1 new)")
    screens.shots(page, "pit-alerts", LAYOUT + [".alert-item .btn", ".alert-item input"])
    assert axe_violations(page) == []
    # when the pit manager acknowledges it with a note
    item = page.locator(f'#open-alerts [data-alert="{mine.pk}"]')
    item.get_by_label("Note (optional)").fill("watching the player")
    item.get_by_role("button", name="Acknowledge").click()
    # then who and when are shown, and stored
    acked = page.locator(f'#acknowledged-alerts [data-alert="{mine.pk}"]')
    expect(acked).to_contain_text("Acknowledged by pm at")
    stored = Alert.objects.get(pk=mine.pk)
    assert (stored.acknowledged_by, stored.ack_note, stored.resolved_at) == (floor.manager, "watching the player", None)
    # when they resolve it saying what was done
    acked.get_by_label("What was done").fill("the player was rated; nothing wrong")
    acked.get_by_role("button", name="Resolve").click()
    expect(page.locator(f'#resolved-alerts [data-alert="{mine.pk}"]')).to_contain_text(
        "pm at")
    stored = Alert.objects.get(pk=mine.pk)
    assert (stored.resolved_by, stored.resolve_note, stored.message) == (
        floor.manager, "the player was rated; nothing wrong", "large bet 5000.00 on banker at BAC1")
    # and the other pit's alert is refused them, in words
    answer = post_as(page, f"/pit/alerts/{theirs.pk}/acknowledge/", {"note": "mine now"})
    assert answer.status == 403
    assert "not one of your pits" in answer.text()
    assert Alert.objects.get(pk=theirs.pk).acknowledged_at is None


def test_a_table_s_limits_status_dealers_and_a_fill_from_its_screen(screens, floor):
    # given a second table at the pit with its dealer, and a dealer on a break
    bac3 = TableFactory(code="BAC3", pit=floor.pit)
    dealer_b = UserFactory(username="dealerb", roles=[Role.DEALER])
    assign(dealer_b, bac3, floor.shift, floor.manager)
    relief = UserFactory(username="relief", roles=[Role.DEALER])
    page = screens.page("pm", at="/pit/tables/BAC1/")
    screens.shots(page, "pit-table-controls", LAYOUT + [".manage .btn", ".manage input", ".manage select"])
    assert axe_violations(page) == []
    # when the limits change to 10.00–2500.00
    page.get_by_label("Minimum bet").fill("10")
    page.get_by_label("Maximum bet").fill("2500.00")
    page.get_by_role("button", name="Change limits").click()
    expect(page.locator(".messages")).to_contain_text("BAC1's limits are changed")
    table = Table.objects.get(code="BAC1")
    assert (table.min_bet, table.max_bet) == (1_000, 250_000)
    # and a minimum above the maximum is refused in words
    page.get_by_label("Minimum bet").fill("3000")
    page.get_by_role("button", name="Change limits").click()
    expect(page.locator(".messages")).to_contain_text("The table minimum cannot be above its maximum.")
    assert Table.objects.get(code="BAC1").min_bet == 1_000
    # when the table is closed, then opened
    page.get_by_label("Yes, close BAC1 to play").check()  # confirmed first
    page.get_by_role("button", name="Close BAC1").click()
    expect(page.locator("#table-status")).to_have_text("closed")
    assert Table.objects.get(code="BAC1").status == "closed"
    page.get_by_role("button", name="Open BAC1").click()
    expect(page.locator("#table-status")).to_have_text("open")
    assert Table.objects.get(code="BAC1").status == "open"
    # when its dealer is relieved and the dealer back from a break is put on it
    page.get_by_role("button", name="Relieve dealer").click()
    expect(page.locator("#on-duty")).to_have_text("No dealer now.")
    assert not Assignment.objects.filter(table=floor.table, dealer=floor.dealer, relieved_at__isnull=True).exists()
    page.locator(".manage").get_by_role("combobox", name="Dealer").select_option(label="relief")
    page.get_by_role("button", name="Put on BAC1").click()
    expect(page.locator("#on-duty")).to_have_text("relief")
    assert Assignment.objects.get(table=floor.table, relieved_at__isnull=True).dealer == relief
    # when a fill of 4 × 25.00 and 10 × 5.00 is asked of the cage
    page.get_by_label("€25", exact=True).fill("4")
    page.get_by_label("€5", exact=True).fill("10")
    page.get_by_role("button", name="Request from the cage").click()
    expect(page.locator("#slips")).to_contain_text("€150.00")
    slip = Slip.objects.get(table=floor.table)
    assert (slip.kind, slip.status, slip.total, slip.chips, slip.requested_by) == (
        "fill", "requested", 15_000, {"2500": 4, "500": 10}, floor.manager)
    # when the dealers of the pit rotate with the dealer back from a break (the first BAC1 dealer)
    page.get_by_role("link", name="Dealers").click()
    screens.shots(page, "pit-dealers", LAYOUT + [".duty-list .btn", ".pit-form .btn", ".pit-form select"])
    assert axe_violations(page) == []
    section = page.locator('[data-pit="main"]')
    section.get_by_label("Back from a break").select_option(label="dealer")
    section.get_by_label("Yes, move every dealer of Main pit").check()  # confirmed first
    section.get_by_role("button", name="Rotate the dealers of Main pit").click()
    # then the incoming dealer takes BAC1, BAC1's dealer moves to BAC3, BAC3's goes on a break
    expect(page.locator('[data-table="BAC1"] [data-field="dealer"]')).to_have_text("dealer")
    expect(page.locator('[data-table="BAC3"] [data-field="dealer"]')).to_have_text("relief")
    on_duty = Assignment.objects.filter(table__pit=floor.pit, relieved_at__isnull=True)
    assert dict(on_duty.values_list("table__code", "dealer__username")) == {"BAC1": "dealer", "BAC3": "relief"}
    assert not Assignment.objects.filter(dealer=dealer_b, relieved_at__isnull=True).exists()


def test_another_pits_tables_and_rounds_are_refused_in_words(screens, floor):
    rnd = rounds.round_open(table_id=floor.other_table.pk, actor=floor.other_dealer)
    page = screens.page("pm")
    # when the pit manager opens the other pit's table and round
    page.goto("/pit/tables/BAC2/")
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("BAC2")
    page.goto(f"/pit/rounds/{rnd.pk}/")
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    # and posts to its controls anyway: each is refused, and nothing changes
    before = Table.objects.get(code="BAC2")
    refusals = [
        post_as(page, "/pit/tables/BAC2/status/", {"status": "closed"}),
        post_as(page, "/pit/tables/BAC2/limits/", {"min_bet": "1", "max_bet": "2"}),
        post_as(page, "/pit/tables/BAC2/chips/", {"kind": "fill", "chips-2500": "4"}),
        post_as(page, f"/pit/rounds/{rnd.pk}/void/", {"reason": "Misdeal"}),
        post_as(page, "/pit/pits/salon/rotate/"),
    ]
    assert [r.status for r in refusals] == [403] * 5
    assert all("not one of your pits" in r.text() for r in refusals)
    after = Table.objects.get(code="BAC2")
    assert (after.status, after.min_bet, after.max_bet) == (before.status, before.min_bet, before.max_bet)
    assert not Slip.objects.exists()
    assert Round.objects.get(pk=rnd.pk).void_requested_by is None


def test_the_auditor_verifies_the_chain_with_a_button(screens, floor):
    # given some audited work
    rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    page = screens.page("auditor", at="/audit/")
    expect(page.locator("#last-verification")).to_contain_text("never verified")
    # when the auditor presses "Verify the chain"
    page.get_by_role("button", name="Verify the chain").click()
    # then the page says every chain is intact, and the verification is stored as theirs
    expect(page.locator("#verify-result")).to_contain_text("Every chain is intact.")
    verification = AuditVerification.objects.get()
    assert (verification.trigger, verification.ok, verification.requested_by) == ("web", True, floor.auditor)
    expect(page.locator("#verify-result")).to_contain_text(f"{verification.records} records in")
    screens.shots(page, "audit-trail", ["header.app nav a", "header.app button", "h1", "h2", ".audit-top .btn",
                                        "#verify-result", "form.filters label", "form.filters .btn"])
    assert axe_violations(page) == []
