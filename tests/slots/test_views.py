"""The slot screens: pit managers get the forms (readings, hits, progressives, bonus meters), accountants and
auditors read, dealers and staff without a role are turned away; the menu links "Slots" for those who may see it."""

from __future__ import annotations

from django.test import Client

from accounting.money import money_words
from slots.services import bonus
from tests.slots.helpers import machine, progressive, read


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _floor_with_a_machine(floor):
    m = machine(floor.manager, "CD-1", game="Crazy Dragon", denomination=100)
    p = progressive(floor.manager, machines_=[m], bp=150)
    read(m, floor.manager, 0)
    read(m, floor.manager, 100_000, 92_000, 1_000, 300, 80_000)  # win 70.00 on 1,000.00: 7.00 %
    piggy = bonus.bonus_meter_create(machine_id=m.pk, name="piggy_bank", label="Piggy Bank", unit="credits",
                                     reset_value=150, actor=floor.manager)
    return m, p, piggy


def test_the_pit_manager_sees_hold_liabilities_and_the_forms(floor):
    # given a Crazy Dragon machine read twice, its $2,000 progressive and a piggy bank
    m, _, _ = _floor_with_a_machine(floor)
    # when the pit manager opens the slot floor
    page = signed_in(floor.manager).get("/slots/")
    # then the machine's hold, the progressive's liability (2,000 + 1.5 % of 1,000.00) and the forms are there
    assert page.status_code == 200
    html = page.content.decode()
    assert '<tr data-machine="CD-1">' in html
    assert "7.00 %" in html
    assert money_words(201500) in html  # the progressive's liability
    assert f'Total owed: <span id="total-liability">{money_words(216500)}</span>' in html  # and the piggy bank's 150 credits at $1
    for form in ("/api/slots/machines/{machine}/readings/", "/api/slots/progressives/{progressive}/hit/",
                 'data-api="/api/slots/progressives/"', 'data-api="/api/slots/machines/"'):
        assert form in html
    assert '<a href="/slots/" aria-current="page">Slots</a>' in html
    # and the machine's page has its readings and the bonus-meter forms
    detail = signed_in(floor.manager).get(f"/slots/machines/{m.pk}/").content.decode()
    assert "/api/slots/bonus-meters/" in detail
    assert f"/api/slots/machines/{m.pk}/change/" in detail
    assert "Unlink" in detail


def test_accountants_and_auditors_read_without_forms(floor):
    m, _, _ = _floor_with_a_machine(floor)
    for user, exports in ((floor.accountant, True), (floor.auditor, False)):
        page = signed_in(user).get("/slots/")
        assert page.status_code == 200, user.username
        html = page.content.decode()
        assert "7.00 %" in html
        assert "data-api=" not in html
        assert ("/api/slots/reports/slot_hold/?format=csv" in html) is exports
        assert '<a href="/slots/" aria-current="page">Slots</a>' in html
        detail = signed_in(user).get(f"/slots/machines/{m.pk}/")
        assert detail.status_code == 200
        assert "data-api=" not in detail.content.decode()


def test_dealers_and_staff_without_a_role_are_turned_away(floor):
    m, _, _ = _floor_with_a_machine(floor)
    for user in (floor.dealer, floor.nobody):
        for url in ("/slots/", f"/slots/machines/{m.pk}/"):
            assert signed_in(user).get(url).status_code == 403, (user.username, url)
    assert ">Slots<" not in signed_in(floor.dealer).get("/dealer/", follow=True).content.decode()
    assert Client().get("/slots/").status_code == 302  # to the login page
    assert signed_in(floor.manager).get("/slots/machines/999999/").status_code == 404


def test_a_bad_period_is_named_and_the_page_still_shows(floor):
    _floor_with_a_machine(floor)
    page = signed_in(floor.manager).get("/slots/", {"date_from": "2024-13-01"})
    assert page.status_code == 200
    assert "date_from must be a date (YYYY-MM-DD)" in page.content.decode()
