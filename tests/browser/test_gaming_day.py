"""A whole gaming day on the screens alone, from each person's sign-in to their sign-out (issue 29).

Yesterday's shift is given: the demo's floor of 18 tables, its shift before the one under way now played,
counted and closed through the services (as ``manage.py demo`` plays an earlier shift), so each table has a
last closer to roll. From there every step is a person at a screen, signed in through the sign-in form as
themselves: the shift manager opens the shift and rolls the 18 tables; dealers, each at their own table,
deal rounds of three games by taps and keyed cards; the pit requests a fill and a credit, the cashier issues
and receives them at the cage desk, the table's dealer signs the fill in; a marker is issued at a table and
redeemed at the cage; the count team counts every drop box; every closer is counted on the tray grid and
signed by the table's own dealer; the pit managers close the tables and the shift; the accountant reads the
reconciliation; the shift manager opens the next shift and rolls the tables into it; everyone signs out.
Then the records are read back (the API and the ORM, nothing written): they are what was done, and the
ledger balances. Screens are shot at 1024×768 as the day goes; the new screens at 390×844 too, axe-checked.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils import timezone
from playwright.sync_api import expect

from accounting.demo import Day, spread
from accounting.models import (
    CountKind,
    DropCount,
    Entry,
    InventoryCount,
    LedgerTransaction,
    Marker,
    MarkerPayment,
    Reconciliation,
    Slip,
    SlipStatus,
    TableCloseReopening,
    TableShiftClose,
)
from accounting.services.counts import denominations_for
from casino.core.roles import Role
from floor.selectors import layout_bets
from tables.demo import DEMO_PASSWORD, DEMO_PIN, build_demo_floor, demo_clock
from tables.engines.registry import get_engine
from tables.models import Assignment, Round, RoundStatus, Settlement, Shift, ShiftStatus
from tables.simulation.autoplay import play_round
from tests.browser.conftest import Screens, assert_labelled, axe_violations
from tests.browser.dealer_steps import button, idle
from tests.browser.pay_list import settle
from tests.browser.tap_round import Screen, play_round_by_taps
from tests.factories import UserFactory
from tests.fixtures import as_user

pytestmark = pytest.mark.browser
Json = dict[str, Any]
User = get_user_model()

# the games dealt on the screen today: a commission game, a game of choices, a game of bets taken back
# (games whose house edges, which the reconciliation computes once per rules, take seconds, not minutes)
GAMES = ("baccarat", "blackjack", "let_it_ride")
MARKER = 50_000  # 500.00, issued at the baccarat table, redeemed at the cage
FILL = {"2500": 20}  # 500.00 to the baccarat table
CREDIT = {"10000": 2}  # 200.00 from the blackjack table
CASH_DROP = {"blackjack": 30_000}  # chips bought with cash at the table: the notes go into the drop box
STUCK = 10_000  # a 100.00 note stuck in the blackjack table's drop box: missed, then its close reopened and recounted
LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", "main .btn"]


class Dealt(Screen):
    """The dealer's screen played by taps and keys, without a shot of every step (the dealer's screens are
    shot by tests/browser/test_dealer_games.py): one shot of the pay list per game."""

    def step(self, name: str) -> None:
        if name == "pay-list":
            self.screens.shot(self.page, f"day-dealer-{self.game}")


def yesterday() -> Any:
    """The demo's floor, the shift before the one under way now played (no rounds), counted and closed:
    each table's last closer is signed by its dealer and its pit manager, ready to roll."""
    with demo_clock(timezone.now() - dt.timedelta(hours=8)):
        demo = build_demo_floor()
    with demo_clock(demo.shift.starts_at) as clock:
        Day(demo, seed=1).play_shift(demo.shift, 0, clock=clock, closed=True, first=False)
    demo.shift.refresh_from_db()
    assert demo.shift.status == ShiftStatus.CLOSED
    return demo


def short_round(table: Any) -> Json:
    """The shortest of the first seeded rounds at the table with a bet, whose win the tray can hold in chips."""
    engine = get_engine(table.game)
    config = engine.resolve_config(table.engine_config())
    smallest = min(denominations_for(table))
    found = []
    for seed in range(40):
        doc = play_round(engine, config, random.Random(seed), seats=table.seats)
        if doc["bets"] and settle(doc)["house"]["net"] % smallest == 0 and "JK" not in str(doc["events"]):
            found.append(doc)
    assert found, f"no short round of {table.game}"
    return min(found, key=lambda d: len(d["events"]) + 3 * len(d["bets"]))


# one wait, for a page or a condition, before a step is given up: the day's pages list 18 tables, and a loaded
# machine (the suite beside seven other engineers' work) serves them in seconds, not the 10 s of the other tests
PATIENCE = 30_000


@pytest.fixture
def day_screens(browser: Any, live_server: Any, db: Any) -> Iterator[Screens]:
    helper = Screens(browser, live_server.url)
    expect.set_options(timeout=PATIENCE)
    try:
        yield helper
    finally:
        expect.set_options(timeout=10_000)  # the browser fixture's, for the tests that follow
        helper.close()


def sign_in(screens: Screens, username: str, password: str = DEMO_PASSWORD) -> Any:
    """A page of its own, signed in through the sign-in form."""
    page = screens.page()
    page.set_default_timeout(PATIENCE)
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def sign_out(page: Any) -> None:
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(re.compile(r"/login/"))
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()


def check(screens: Screens, page: Any, name: str, layout: list[str] | None = None) -> None:
    """A new kind of screen: every control named, axe-core clean, laid out and shot at both sizes."""
    assert_labelled(page)
    assert axe_violations(page) == []
    screens.shots(page, f"day-{name}", layout or LAYOUT)


def sign_as(page: Any, title: str, username: str) -> None:
    """Another person signs the box titled ``title`` with their signing PIN, at the signed-in person's side."""
    box = page.get_by_role("group", name=f"{title} signs")
    box.get_by_label("Another person").check()
    page.get_by_label(f"{title}: username").fill(username)
    page.get_by_label(f"{title} proves it with").select_option("pin")
    page.get_by_label(f"{title}: password or PIN").fill(DEMO_PIN)


def pick(page: Any, table: Any) -> None:
    """Choose the table on a cage screen's picker (the shift under way is chosen already)."""
    picker = page.get_by_role("form", name="Table and shift")
    picker.get_by_role("combobox", name=re.compile(r"^Table")).select_option(str(table.pk))
    picker.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(rf"[?&]table={table.pk}(&|$)"))


def fill_grid(page: Any, chips: dict[str, int]) -> None:
    for box in page.locator("table.chip-tray input[data-denomination]").all():
        box.fill(str(chips.get(box.get_attribute("data-denomination"), 0)))


def value(chips: dict[str, int]) -> int:
    return sum(int(d) * n for d, n in chips.items())


def test_a_whole_gaming_day_on_the_screens(day_screens: Screens, settings: Any) -> None:
    screens = day_screens
    # given yesterday's shift closed on the demo's floor, and a shift manager who runs the day
    settings.CROUPIER = {**settings.CROUPIER, "DAY_RUN_BY": "shift_manager"}
    demo = yesterday()
    tables = {t.game: t for t in demo.tables}
    assert len(tables) == 18
    dealer_of = {t.pk: f"dealer{n}" for n, t in enumerate(demo.tables, start=1)}
    UserFactory(username="shiftboss", roles=[Role.SHIFT_MANAGER])
    assert not Shift.objects.filter(status=ShiftStatus.OPEN).exists()
    before = {"rounds": Round.objects.count(), "slips": Slip.objects.count(), "markers": Marker.objects.count()}

    # -- the shift manager opens the day and rolls the 18 tables --------------------------------------------
    boss = sign_in(screens, "shiftboss", "pass")
    expect(boss.get_by_role("heading", level=1)).to_have_text("The gaming day")
    expect(boss.locator("[data-no-shift]")).to_be_visible()
    check(screens, boss, "open", [*LAYOUT, "select", "input"])
    boss.get_by_role("button", name="Open the shift").click()
    expect(boss.locator(".messages")).to_contain_text("is open")
    shift = Shift.objects.get(status=ShiftStatus.OPEN)
    assert shift.starts_at <= timezone.now() < shift.ends_at
    boss.get_by_role("button", name="Roll the tables").click()
    expect(boss.locator(".messages")).to_contain_text("18 tables rolled")
    expect(boss.locator(".day-list li [data-field='opener']", has_text="Rolled: opener")).to_have_count(18)
    check(screens, boss, "rolled", [*LAYOUT, ".day-list li"])
    openers = {c.table_id: c for c in InventoryCount.objects.filter(shift=shift, kind=CountKind.OPENER)}
    assert len(openers) == 18
    assert all(c.rolled for c in openers.values())

    # -- the pit: a fill and a credit requested, a marker issued ------------------------------------------
    pit = sign_in(screens, "pitboss")
    expect(pit).to_have_url(re.compile(r"/pit/$"))
    pit.get_by_role("link", name="Cage", exact=True).click()
    pit.get_by_role("navigation", name="Cage").get_by_role("link", name="Fills and credits").click()
    baccarat, blackjack = tables["baccarat"], tables["blackjack"]
    pick(pit, baccarat)
    pit.get_by_label("Fill: chips from the cage").check()
    fill_grid(pit, FILL)
    pit.get_by_role("button", name="Sign and request").click()
    expect(pit.get_by_role("heading", level=1)).to_have_text(re.compile(r"Slip F\d{4}-\d{6}"))
    fill_ref = pit.get_by_role("heading", level=1).inner_text().removeprefix("Slip ")
    pit.get_by_role("link", name="Back to the slips").click()
    pick(pit, blackjack)
    pit.get_by_label("Credit: chips from the table").check()
    fill_grid(pit, CREDIT)
    pit.get_by_role("button", name="Sign and request").click()
    expect(pit.get_by_role("heading", level=1)).to_have_text(re.compile(r"Slip C\d{4}-\d{6}"))
    credit_ref = pit.get_by_role("heading", level=1).inner_text().removeprefix("Slip ")
    # the credit's chips leave the tray: the table's own dealer signs them out
    sign_as(pit, "The table's dealer", dealer_of[blackjack.pk])
    pit.get_by_role("button", name="Sign: chips issued").click()
    expect(pit.get_by_text(f"Slip {credit_ref} issued.")).to_be_visible()

    # -- the cage desk: the fill issued, the credit received, by the cashier ------------------------------
    cage = sign_in(screens, "cashier")
    expect(cage.get_by_role("heading", level=1)).to_have_text("Cage desk")
    expect(cage.locator(f"tr[data-slip='{fill_ref}']")).to_be_visible()
    check(screens, cage, "cage-desk", [*LAYOUT, "table"])
    cage.get_by_role("link", name=f"Issue or refuse {fill_ref}").click()
    cage.get_by_label("Your signing PIN, cashier").fill(DEMO_PIN)
    cage.get_by_role("button", name="Sign: chips issued").click()
    expect(cage.get_by_text(f"Slip {fill_ref} issued.")).to_be_visible()
    cage.get_by_role("navigation", name="Cage").get_by_role("link", name="Cage desk").click()
    cage.get_by_role("link", name=f"Receive {credit_ref}").click()
    cage.get_by_label("Your signing PIN, cashier").fill(DEMO_PIN)
    cage.get_by_role("button", name="Sign: chips received").click()
    expect(cage.get_by_text(f"Slip {credit_ref} received and posted.")).to_be_visible()

    # -- back at the table: the fill received, signed by the table's dealer; a marker issued ----------------
    pit.get_by_role("navigation", name="Cage").get_by_role("link", name="Fills and credits").click()
    pit.get_by_role("link", name=fill_ref, exact=True).click()
    expect(pit.get_by_role("heading", level=1)).to_have_text(f"Slip {fill_ref}")
    sign_as(pit, "The table's dealer", dealer_of[baccarat.pk])
    pit.get_by_role("button", name="Sign: chips received").click()
    expect(pit.get_by_text(f"Slip {fill_ref} received and posted.")).to_be_visible()
    pit.get_by_role("navigation", name="Cage").get_by_role("link", name="Markers").click()
    pick(pit, baccarat)
    pit.get_by_label("Player (name or account)").fill("Ana Núñez")
    pit.get_by_label(re.compile(r"^Amount")).fill(str(MARKER // 100))
    sign_as(pit, "The dealer", dealer_of[baccarat.pk])
    pit.get_by_role("button", name="Sign and issue the marker").click()
    expect(pit.get_by_text(re.compile(r"Marker M\d{4}-\d{6} issued to Ana Núñez"))).to_be_visible()
    marker = Marker.objects.get(shift=shift)

    # -- the dealers deal, each signed in at their own table ----------------------------------------------
    wins: dict[int, int] = {}
    played: dict[int, Json] = {}
    for game in GAMES:
        table = tables[game]
        page = sign_in(screens, dealer_of[table.pk])
        expect(page).to_have_url(re.compile(f"/dealer/{table.code}/$"))
        doc = short_round(table)
        screen = Dealt(page, screens, game, denominations_for(table), keyboard=True)
        first = page.locator("#open-round:visible, #next-round:visible")
        expect(first).to_have_count(1)
        opener = "Open next round" if first.get_attribute("id") == "next-round" else "Open round"
        play_round_by_taps(screen, doc, layout_bets(game), open_with=opener)
        button(page, "Paid and collected: confirm").click()
        idle(page)
        expect(button(page, "Open next round")).to_be_visible()
        wins[table.pk] = settle(doc)["house"]["net"]
        played[table.pk] = doc
        sign_out(page)

    # -- the cashier redeems the marker at the cage ---------------------------------------------------------
    cage.get_by_role("navigation", name="Cage").get_by_role("link", name="Markers").click()
    cage.get_by_role("link", name=marker.reference).click()
    check(screens, cage, "marker", [*LAYOUT, "input:not([type=hidden])"])
    cage.get_by_role("button", name="Sign: payment taken").click()  # the whole amount, filled in
    expect(cage.get_by_role("heading", name="Ana Núñez · Redeemed")).to_be_visible()

    # -- the count team counts every drop box --------------------------------------------------------------
    count = sign_in(screens, "counter1")
    expect(count.get_by_role("heading", level=1)).to_have_text(re.compile("Drop box"))
    drops: dict[int, int] = {}
    for table in demo.tables:
        pick(count, table)
        cash = CASH_DROP.get(table.game, 0)
        markers = MARKER if table.pk == baccarat.pk else 0
        missed = STUCK if table.pk == blackjack.pk else 0
        count.get_by_label(re.compile(r"^Currency notes")).fill(str((cash - missed) // 100))
        count.get_by_label(re.compile(r"^Chips \(")).fill("0")
        count.get_by_label(re.compile(r"^Marker copies")).fill(str(markers // 100))
        sign_as(count, "The second counter", "counter2")
        count.get_by_role("button", name="Both sign: record the count").click()
        expect(count.get_by_text(f"Drop box of {table.code} counted")).to_be_visible()
        drops[table.pk] = cash + markers

    # -- each pit manager counts their tables' closers, the table's own dealer signing -----------------------
    salon = sign_in(screens, "salonboss")
    trays: dict[int, int] = {}
    counted: dict[int, dict[str, int]] = {}
    recounted = tables["pontoon"]  # its closer is counted one chip short, then counted again
    assert recounted.pit.code == "main"
    for who in (pit, salon):
        who.get_by_role("link", name="Cage", exact=True).click()
        who.get_by_role("navigation", name="Cage").get_by_role("link", name="Opener and closer").click()
    for table in demo.tables:
        who = salon if table.pit.code == "salon" else pit
        pick(who, table)
        expect(who.get_by_role("heading", name="Count the closing inventory")).to_be_visible()
        tray = (openers[table.pk].total + wins.get(table.pk, 0) - CASH_DROP.get(table.game, 0)
                + (value(FILL) - MARKER if table.pk == baccarat.pk else 0)
                - (value(CREDIT) if table.pk == blackjack.pk else 0))
        chips = spread(tray, denominations_for(table))
        assert value(chips) == tray
        counted[table.pk] = chips
        if table.pk == recounted.pk:  # a chip missed: counted again from the closing screen below
            largest = max(int(d) for d, n in chips.items() if n)
            chips = {**chips, str(largest): chips[str(largest)] - 1}
        fill_grid(who, chips)
        sign_as(who, "The dealer", dealer_of[table.pk])
        if table.pk == baccarat.pk:
            check(screens, who, "closer", [*LAYOUT, "table", "fieldset", "input:not([type=hidden])"])
        who.get_by_role("button", name="Sign and record the closer").click()
        expect(who.get_by_text(f"Closing inventory of {table.code} recorded")).to_be_visible()
        trays[table.pk] = tray

    # -- a closer counted again: the pit manager sees the variance on the closing screen and recounts ---------
    pit.get_by_role("link", name="Closing").first.click()
    pit.locator(f"tr[data-shift='{shift.pk}']").get_by_role("link").first.click()
    article = pit.locator(f"article[data-table='{recounted.code}']")
    expect(article.locator("[data-field='variance']")).not_to_have_text(re.compile(r"^\D*0[.,]00\D*$"))
    article.locator("[data-count='closer']").get_by_role("button", name="Recount", exact=True).click()
    expect(pit.get_by_role("heading", name="Recount the closing inventory")).to_be_visible()
    check(screens, pit, "recount", [*LAYOUT, "table", "fieldset", "input:not([type=hidden])"])
    for box in pit.locator("#recount input[data-denomination]").all():
        box.fill(str(counted[recounted.pk].get(box.get_attribute("data-denomination"), 0)))
    pit.get_by_label("Reason").fill("A plaque was under the float")
    sign_as(pit, "The dealer", dealer_of[recounted.pk])
    pit.get_by_role("button", name="Sign and record the recount").click()
    expect(pit.locator(".messages")).to_contain_text(f"Closing inventory of {recounted.code} counted again")

    # -- the pit managers close their tables, then the shift -------------------------------------------------
    for who, pit_code in ((pit, "main"), (salon, "salon")):
        who.get_by_role("link", name="Closing").first.click()
        who.locator(f"tr[data-shift='{shift.pk}']").get_by_role("link").first.click()
        theirs = sum(1 for t in demo.tables if t.pit.code == pit_code)
        expect(who.locator("article.table-close")).to_have_count(theirs)  # (the page loaded: each table of theirs)
        for article in who.locator("article.table-close").all():
            code = article.get_attribute("data-table")
            expect(article.locator("[data-field='state']")).to_have_text("Nothing is missing: it can close.")
            article.get_by_label(f"Yes, close {code}: I have checked the figures").check()
            article.get_by_role("button", name=f"Close {code} for this shift").click()
            expect(who.locator(f"article[data-table='{code}'] [data-field='state']")).to_contain_text("Closed")
    assert TableShiftClose.objects.filter(shift=shift).count() == 18

    # -- a close reopened: the count team finds a note stuck in the blackjack box; the shift manager reopens ------
    boss.get_by_role("navigation", name="Sections").get_by_role("link", name="Closing").click()
    boss.locator(f"tr[data-shift='{shift.pk}']").get_by_role("link").first.click()
    article = boss.locator(f"article[data-table='{blackjack.code}']")
    expect(article.locator("[data-field='state']")).to_contain_text("Closed")
    article.get_by_label("Reason").fill("A 100.00 note was stuck in the drop box")
    check(screens, boss, "reopen", [*LAYOUT, "article.table-close", "textarea"])
    article.get_by_role("button", name="Reopen this table's close").click()
    expect(boss.locator(".messages")).to_contain_text(f"{blackjack.code} is open again for correction")
    expect(article.locator("[data-field='reopened'] del")).to_have_count(1)
    # the count team counts the box again, both signing, with the reason
    pick(count, blackjack)
    count.get_by_role("button", name="Recount", exact=True).click()
    count.get_by_label(re.compile(r"^Currency notes")).fill(str(CASH_DROP["blackjack"] // 100))
    count.get_by_label("Reason").fill("A 100.00 note was stuck in the drop box")
    sign_as(count, "The second counter", "counter2")
    count.get_by_role("button", name="Both sign: record the recount").click()
    expect(count.locator(".messages")).to_contain_text(f"Drop box of {blackjack.code} counted again")
    # and the pit manager closes the table again
    pit.get_by_role("link", name="Closing").first.click()
    pit.locator(f"tr[data-shift='{shift.pk}']").get_by_role("link").first.click()
    article = pit.locator(f"article[data-table='{blackjack.code}']")
    expect(article.locator("[data-field='state']")).to_have_text("Nothing is missing: it can close.")
    article.get_by_label(f"Yes, close {blackjack.code}: I have checked the figures").check()
    article.get_by_role("button", name=f"Close {blackjack.code} for this shift").click()
    expect(pit.locator(f"article[data-table='{blackjack.code}'] [data-field='state']")).to_contain_text("Closed")
    pit.reload()
    # (the reconciliation of 18 tables runs on the close, at once here: a loaded machine takes its time)
    pit.get_by_role("button", name=re.compile(r"^Close the shift")).click(timeout=120_000)
    expect(pit.get_by_text("The shift is closed.")).to_be_visible(timeout=120_000)

    # -- the accountant reads the reconciliation ------------------------------------------------------------
    books = sign_in(screens, "accountant")
    books.get_by_role("link", name="Shifts: closing and reconciliation").click()
    books.locator(f"tr[data-shift='{shift.pk}']").get_by_role("link").first.click()
    if books.get_by_role("button", name="Reconcile the shift now").count():
        books.get_by_role("button", name="Reconcile the shift now").click()
    expect(books.locator("#reconciliation tr[data-table]")).to_have_count(18)
    expect(books.locator("#reconciliation [data-field='result']", has_text="balanced")).to_have_count(18)
    check(screens, books, "reconciled", [*LAYOUT, "article.table-close", ".rec-table"])

    # -- the shift manager opens the next shift and rolls the tables into it --------------------------------
    boss.get_by_role("navigation", name="Sections").get_by_role("link", name="The day").click()
    boss.get_by_role("button", name="Open the shift").click()
    expect(boss.locator(".messages")).to_contain_text("is open")
    following = Shift.objects.get(status=ShiftStatus.OPEN)
    assert following.starts_at == shift.ends_at
    boss.get_by_role("button", name="Roll the tables").click()
    expect(boss.locator(".messages")).to_contain_text("18 tables rolled")
    screens.shot(boss, "day-next-rolled")

    # -- everyone signs out --------------------------------------------------------------------------------
    for page in (boss, pit, salon, cage, count, books):
        sign_out(page)

    # == the records, read back =============================================================================
    # the shift: opened and closed by whom it should be, its 18 openers rolled from yesterday's closers
    shift.refresh_from_db()
    assert (shift.opened_by.username, shift.closed_by.username, shift.status) == ("shiftboss", "pitboss", "closed")
    for table in demo.tables:
        opener = openers[table.pk]
        assert opener.previous_closer.shift_id == demo.shift.pk
        assert (opener.chips, opener.total) == (opener.previous_closer.chips, opener.previous_closer.total)
    # the dealers were kept on their tables, and dealt only there
    kept = {a.table_id: a.dealer.username for a in Assignment.objects.filter(shift=shift).select_related("dealer")}
    assert kept == dealer_of
    # the rounds: one at each of three tables, settled as the engine settles the round that was dealt
    new_rounds = Round.objects.filter(shift=shift)
    reader = as_user(User.objects.get(username="accountant"))
    assert Round.objects.count() == before["rounds"] + 3
    for rnd in new_rounds.select_related("table", "dealer"):
        assert rnd.status == RoundStatus.SETTLED
        assert rnd.dealer.username == dealer_of[rnd.table_id]
        answer = reader.get(f"/api/rounds/{rnd.pk}/")
        assert answer.status_code == 200, answer.content
        document = answer.json()["document"]
        dealt = played[rnd.table_id]
        assert [b["amount"] for b in document["bets"]] == [b["amount"] for b in dealt["bets"]]
        assert [e.get("card") for e in document["events"]] == [e.get("card") for e in dealt["events"]]
        settlement = Settlement.objects.get(round=rnd)
        assert settlement.house_net == wins[rnd.table_id] == settle(document)["house"]["net"]
    # the slips: a fill and a credit, each through its three signatures, by the people whose job it is
    assert Slip.objects.count() == before["slips"] + 2
    fill = Slip.objects.get(shift=shift, kind="fill")
    credit = Slip.objects.get(shift=shift, kind="credit")
    assert (fill.reference, fill.status, fill.chips, fill.table_id) == (fill_ref, SlipStatus.RECEIVED, FILL, baccarat.pk)
    assert [fill.request_signer.user.username, fill.issue_signer.user.username,
            fill.receive_signer.user.username] == ["pitboss", "cashier", dealer_of[baccarat.pk]]
    assert (credit.reference, credit.status, credit.chips, credit.table_id) == (
        credit_ref, SlipStatus.RECEIVED, CREDIT, blackjack.pk)
    assert [credit.request_signer.user.username, credit.issue_signer.user.username,
            credit.receive_signer.user.username] == ["pitboss", dealer_of[blackjack.pk], "cashier"]
    for slip in (fill, credit):
        assert LedgerTransaction.objects.filter(source_type=slip.kind, source_id=str(slip.pk)).count() == 1
    # the marker: issued at the baccarat table, signed by its dealer, paid in full at the cage by the cashier
    marker.refresh_from_db()
    assert (marker.player, marker.amount, marker.paid, marker.table_id) == ("Ana Núñez", MARKER, MARKER, baccarat.pk)
    assert (marker.supervisor_signer.user.username, marker.dealer_signer.user.username) == (
        "pitboss", dealer_of[baccarat.pk])
    payments = list(MarkerPayment.objects.filter(marker=marker))
    assert [(p.amount, p.at_table, p.signer.user.username) for p in payments] == [(MARKER, False, "cashier")]
    # the counts: each drop by the two counters, each closer signed by the table's dealer and its pit manager
    for table in demo.tables:
        drop = DropCount.objects.filter(table=table, shift=shift).latest("pk")
        assert (drop.total, drop.counter_one.user.username, drop.counter_two.user.username) == (
            drops[table.pk], "counter1", "counter2")
        closer = InventoryCount.objects.filter(table=table, shift=shift, kind=CountKind.CLOSER).latest("pk")
        manager = "salonboss" if table.pit.code == "salon" else "pitboss"
        assert (closer.total, closer.dealer_signer.user.username, closer.supervisor_signer.user.username) == (
            trays[table.pk], dealer_of[table.pk], manager)
    # the recount: the first closer kept as it was, superseded by the recount with its reason and signatures
    first = InventoryCount.objects.get(table=recounted, shift=shift, kind=CountKind.CLOSER, supersedes__isnull=True)
    recount = InventoryCount.objects.get(supersedes=first)
    assert value(first.chips) == first.total < recount.total == trays[recounted.pk]
    assert (recount.chips, recount.reason) == (counted[recounted.pk], "A plaque was under the float")
    assert (recount.dealer_signer.user.username, recount.supervisor_signer.user.username) == (
        dealer_of[recounted.pk], "pitboss")
    # the reopened close: the first close kept, superseded, its posting reversed; the drop counted again; the
    # table closed anew with the recount, balanced
    reopening = TableCloseReopening.objects.get(shift=shift)
    closes = list(TableShiftClose.objects.filter(table=blackjack, shift=shift).order_by("pk"))
    assert (reopening.table_id, reopening.close_id, reopening.reopened_by.username, reopening.reason) == (
        blackjack.pk, closes[0].pk, "shiftboss", "A 100.00 note was stuck in the drop box")
    assert [(c.drop, c.variance) for c in closes] == [(CASH_DROP["blackjack"] - STUCK, -STUCK),
                                                        (CASH_DROP["blackjack"], 0)]
    assert TableShiftClose.objects.standing().get(table=blackjack, shift=shift) == closes[1]
    reversed_lines = sorted((e.account_id, e.amount) for e in reopening.reversal.entries.all())
    posted = LedgerTransaction.objects.get(source_type="table_close", source_id=str(closes[0].pk))
    assert reversed_lines == sorted((e.account_id, -e.amount) for e in posted.entries.all())
    first_drop = DropCount.objects.get(table=blackjack, shift=shift, supersedes__isnull=True)
    drop_recount = DropCount.objects.get(supersedes=first_drop)
    assert (first_drop.cash, drop_recount.cash, drop_recount.reason) == (
        CASH_DROP["blackjack"] - STUCK, CASH_DROP["blackjack"], "A 100.00 note was stuck in the drop box")
    assert (drop_recount.counter_one.user.username, drop_recount.counter_two.user.username) == ("counter1", "counter2")
    # the reconciliation: every table's count win is its rounds' win, to the cent
    results = {r.table_id: r for r in Reconciliation.objects.filter(shift=shift)}
    assert len(results) == 18
    for table in demo.tables:
        assert (results[table.pk].rounds_win, results[table.pk].count_win, results[table.pk].variance) == (
            wins.get(table.pk, 0), wins.get(table.pk, 0), 0)
    # the next shift: opened by the shift manager, its 18 openers today's closers
    assert following.opened_by.username == "shiftboss"
    rolled = InventoryCount.objects.filter(shift=following, kind=CountKind.OPENER)
    assert sorted((c.table_id, c.total, c.previous_closer.shift_id) for c in rolled) == sorted(
        (t.pk, trays[t.pk], shift.pk) for t in demo.tables)
    # and the ledger balances: every transaction sums to zero, and so does the whole ledger
    unbalanced = (Entry.objects.values("transaction_id").annotate(total=Sum("amount"))
                  .exclude(total=0))
    assert list(unbalanced) == []
    assert Entry.objects.aggregate(total=Sum("amount"))["total"] == 0
