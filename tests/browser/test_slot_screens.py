"""The slot floor in a real browser: a pit manager enters a meter reading and sees the machine's hold, records
a progressive hit and sees the liability back at its reset value, and runs a bonus meter; readers only read."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.money import money_words
from slots.models import BonusMeter, MeterReading, Progressive, ProgressiveHit
from slots.services import bonus
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout
from tests.slots.helpers import CRAZY_DRAGON_RESET, balance, liability, machine, progressive, read

pytestmark = pytest.mark.browser

FLOOR_LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", "form.filters label", "form.filters button",
                ".table-wrap"]
MACHINE_LAYOUT = ["header.app nav a", "h1", "h2", "form.filters label", "form.filters button", ".table-wrap"]


@pytest.fixture
def dragon(floor):
    """A $1 Crazy Dragon machine at Bank A with its baseline reading, on the $2,000 progressive at 1.5 %."""
    m = machine(floor.manager, "CD-1", game="Crazy Dragon", denomination=100)
    p = progressive(floor.manager, machines_=[m], bp=150)
    read(m, floor.manager, 500_000, 460_000, 0, 1_500, 400_000)
    return m, p


def _form(page, button: str):
    return page.locator("form", has=page.get_by_role("button", name=button, exact=True))


def test_the_pit_manager_enters_a_reading_sees_hold_and_pays_a_hit(screens, floor, dragon):
    m, p = dragon
    page = screens.page("pm")
    page.get_by_role("link", name="Slots", exact=True).click()
    expect(page).to_have_url(f"{screens.base_url}/slots/")
    expect(page.get_by_role("link", name="Slots", exact=True)).to_have_attribute("aria-current", "page")
    row = page.locator('tr[data-machine="CD-1"]')
    expect(row).to_contain_text("—")  # no play since the baseline: no hold yet
    # when the pit manager enters the machine's meters: 1,000.00 more coin in, 920.00 out, a 10.00 hand-pay
    reading = _form(page, "Record reading")
    reading.get_by_label("Machine").select_option(label="CD-1 · Crazy Dragon")
    reading.get_by_label("Coin in").fill("6000.00")
    reading.get_by_label("Coin out").fill("5520")
    reading.get_by_label("Jackpots").fill("10.00")
    reading.get_by_label("Games played").fill("1800")
    reading.get_by_label("Drop").fill("4800.00")
    reading.get_by_role("button", name="Record reading").click()
    # then the machine's hold is (1,000.00 − 920.00 − 10.00) / 1,000.00 = 7.00 %
    expect(row.locator("td").last).to_have_text("7.00 %")
    expect(row).to_contain_text(money_words(7000))
    # and 1.5 % of 1,000.00 went into the progressive: 2,015.00 owed, as shown
    jackpot = page.locator('tr[data-progressive="crazy-dragon"]')
    expect(jackpot.locator("td").nth(6)).to_have_text(money_words(201500))  # the ledger's liability
    expect(jackpot.locator("td").nth(7)).to_have_text(money_words(201500))  # shown on the floor
    expect(page.locator("#total-liability")).to_have_text(money_words(201500))
    latest = MeterReading.objects.get(machine=m, seq=2)
    assert (latest.d_coin_in, latest.d_coin_out, latest.d_jackpots, latest.win) == (100_000, 92_000, 1_000, 7_000)
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, FLOOR_LAYOUT)
        screens.shot(page, "slots-floor")
    page.set_viewport_size(TABLET)
    # when the progressive is won at CD-1 and hand-paid at the amount the machine shows
    hit = _form(page, "Pay and reset")
    hit.get_by_label("Progressive").select_option(label=f"Crazy Dragon ({money_words(201500)})")
    hit.get_by_label("Won at").select_option(label="CD-1")
    hit.get_by_label("Amount shown").fill("2015.00")
    hit.get_by_label("Note").fill("three dragons")
    hit.get_by_role("button", name="Pay and reset").click()
    # then the liability is back at the $2,000 reset value: paid 2,015.00, the house funded the reset
    expect(jackpot.locator("td").last).to_have_text("1")  # hits
    expect(jackpot.locator("td").nth(6)).to_have_text(money_words(200000))
    expect(jackpot.locator("td").nth(4)).to_have_text(money_words(400000))  # funded: the start and the reset
    expect(jackpot.locator("td").nth(5)).to_have_text(money_words(201500))  # paid
    expect(page.locator("#total-liability")).to_have_text(money_words(200000))
    p.refresh_from_db()
    assert (p.amount, p.hits, liability(p)) == (CRAZY_DRAGON_RESET, 1, CRAZY_DRAGON_RESET)
    assert balance("cage") == -201_500
    assert ProgressiveHit.objects.get().note == "three dragons"


def test_a_refused_reading_shows_the_servers_words_and_records_nothing(screens, floor, dragon):
    page = screens.page("pm", at="/slots/")
    reading = _form(page, "Record reading")
    reading.get_by_label("Coin in").fill("4000.00")  # below the 5,000.00 of the last reading
    reading.get_by_label("Coin out").fill("4600")
    reading.get_by_label("Jackpots").fill("0")
    reading.get_by_label("Games played").fill("1500")
    reading.get_by_label("Drop").fill("4000")
    reading.get_by_role("button", name="Record reading").click()
    expect(page.locator("#error")).to_contain_text("coin-in went backwards (€4,000.00 after €5,000.00)")
    assert MeterReading.objects.count() == 1


def test_the_pit_manager_runs_the_piggy_bank_from_the_machine_page(screens, floor, dragon):
    # given a 25¢ Bank on It! with its piggy bank at 150 credits
    m = machine(floor.manager, "BO-1", game="Bank on It!", denomination=25)
    piggy = bonus.bonus_meter_create(machine_id=m.pk, name="piggy_bank", label="Piggy Bank", unit="credits",
                                     reset_value=150, actor=floor.manager)
    page = screens.page("pm", at="/slots/")
    page.get_by_role("link", name="BO-1").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("BO-1 · Bank on It!")
    row = page.locator("tr", has=page.get_by_role("rowheader", name="Piggy Bank"))
    expect(row.locator("td").nth(4)).to_have_text(money_words(3750))
    # when three-blank spins put it at 180 credits
    row.get_by_label("Value now").fill("180")
    row.get_by_role("button", name="Update").click()
    expect(row.locator("td").nth(4)).to_have_text(money_words(4500))
    # and three piggies pay it on the machine
    row.get_by_role("button", name="Won at 180").click()
    # then it starts again at 150 credits
    expect(row.locator("td").nth(1)).to_have_text("150")
    expect(row.locator("td").nth(5)).to_have_text("1")
    piggy.refresh_from_db()
    assert (piggy.value, piggy.hits, -balance("slots:machine:BO-1:bonus:piggy_bank")) == (150, 1, 3_750)
    assert balance("slots:machine:BO-1:cash") == -4_500
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, MACHINE_LAYOUT)
        screens.shot(page, "slots-machine")


def test_an_accountant_reads_the_floor_without_forms(screens, floor, dragon):
    page = screens.page("accountant", at="/slots/")
    expect(page.locator('tr[data-progressive="crazy-dragon"]')).to_contain_text(money_words(200000))
    expect(page.locator("form[data-api]")).to_have_count(0)
    expect(page.get_by_role("link", name="Slot liabilities: progressives and bonus meters as CSV")).to_be_visible()
    assert BonusMeter.objects.count() == 0
    assert Progressive.objects.get().amount == CRAZY_DRAGON_RESET
