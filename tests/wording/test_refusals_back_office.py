"""The back office's refusals in the reader's language (issue 31): a pit manager, a cashier or an accountant
whose profile reads Spanish or Traditional Chinese is refused in that language, through the real API and
screens, with the figures as they write them (money in the one format, a shift by its day and name, a role by
its label) and the same stable code an API client matches on (casino/errors.py, accounting/services,
accounting/reports, casino/permissions.py, floor/views.py)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.utils import translation

from accounting.models import InventoryCount
from casino.core.models import StaffProfile
from casino.words import shift_words
from tables.models import ShiftStatus


def reading(user, language: str) -> Client:
    """A signed-in session of ``user`` whose profile reads ``language`` (the browser's says nothing)."""
    StaffProfile.objects.update_or_create(user=user, defaults={"language": language})
    client = Client()
    client.force_login(user)
    return client


def write(client: Client, url: str, body: dict) -> object:
    return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))


def error_of(answer) -> dict:
    return answer.json()["error"]


@pytest.mark.parametrize(("language", "words"), [("es", "no existe ese turno"), ("zh-hant", "沒有這個班次")])
def test_an_unknown_shift_is_refused_in_the_readers_language_with_its_code(floor, language, words):
    # when a pit manager asks for a table's figures in a shift that does not exist
    answer = reading(floor.manager, language).get("/api/accounting/table-closes/figures/",
                                                  {"table": floor.table.pk, "shift": 987654})
    # then the refusal is in their language, and the code and the field are the API's
    assert answer.status_code == 404
    assert (error_of(answer)["code"], error_of(answer)["field"]) == ("unknown_shift", "shift")
    assert error_of(answer)["message"] == words


@pytest.mark.parametrize(("language", "words"), [("es", "Contable"), ("zh-hant", "會計")])
def test_an_accountants_export_is_refused_to_a_pit_manager_naming_the_role_in_words(floor, language, words):
    # when a pit manager asks for an export, which accountants make
    answer = write(reading(floor.manager, language), "/api/accounting/exports/",
                   {"report": "revenue", "format": "csv", "filters": {}})
    # then the refusal names the role as the reader calls it, never its code
    assert answer.status_code == 403
    message = error_of(answer)["message"]
    assert words in message
    assert "accountant" not in message


def test_an_export_asked_for_on_the_screen_by_a_pit_manager_is_refused_in_chinese(floor):
    from accounting.services import exports
    from casino.errors import Forbidden

    # the service refuses the pit manager, in the language active for the request
    with translation.override("zh-hant"), pytest.raises(Forbidden) as refused:
        exports.export_request(actor=floor.manager, report="revenue", fmt="csv", filters={})
    assert refused.value.code == "accountant_required"
    assert refused.value.message == "報表由會計匯出"


@pytest.mark.parametrize("language", ["es", "zh-hant"])
def test_a_count_in_a_closed_shift_is_refused_with_the_shift_as_the_reader_names_it(floor, language):
    # given the casino's shift closed
    from django.utils import timezone

    floor.shift.status, floor.shift.closed_at = ShiftStatus.CLOSED, timezone.now()
    floor.shift.save(update_fields=["status", "closed_at"])
    # when the pit manager records an opener in it through the API
    answer = write(reading(floor.manager, language), "/api/accounting/counts/", {
        "table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": {"2500": 4},
        "dealer": {"username": "dealer", "password": "pass"}, "supervisor": {"username": "pm"},
    })
    # then the refusal names the shift by its day in the reader's date format and its name, never "2026-11-27 day"
    assert answer.status_code == 409, answer.content
    assert error_of(answer)["code"] == "shift_closed"
    with translation.override(language):
        named = shift_words(floor.shift)
    message = error_of(answer)["message"]
    assert named in message
    assert str(floor.shift.gaming_date) not in message
    assert ("está cerrado" if language == "es" else "已結束") in message
    assert not InventoryCount.objects.exists()


def test_a_tray_said_empty_that_holds_chips_is_refused_with_the_money_in_spanish(floor):
    # when the pit manager says the tray is empty but counts four €25 chips
    answer = write(reading(floor.manager, "es"), "/api/accounting/counts/", {
        "table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": {"2500": 4},
        "tray_empty": True, "dealer": {"username": "dealer", "password": "pass"}, "supervisor": {"username": "pm"},
    })
    # then the amount is written as a Spanish reader writes money, never in cents
    assert answer.status_code == 400, answer.content
    assert error_of(answer)["code"] == "tray_not_empty"
    message = error_of(answer)["message"]
    assert "100,00\u00a0€" in message
    assert "10000" not in message


@pytest.mark.parametrize(("language", "words"), [
    ("es", "date_from (la fecha de inicio) es posterior a date_to (la fecha final)"),
    ("zh-hant", "date_from（開始日期）晚於 date_to（結束日期）"),
])
def test_a_bad_report_filter_is_refused_in_the_readers_language(floor, language, words):
    answer = reading(floor.accountant, language).get("/api/accounting/reports/revenue/",
                                                     {"date_from": "2026-11-10", "date_to": "2026-11-01"})
    assert answer.status_code == 400
    assert (error_of(answer)["code"], error_of(answer)["field"]) == ("bad_filter", "date_from")
    assert error_of(answer)["message"] == words


def test_a_filter_a_report_does_not_take_is_refused_naming_the_report_by_its_title(floor):
    answer = reading(floor.accountant, "es").get("/api/accounting/reports/revenue/", {"threshold": "5"})
    assert answer.status_code == 400
    assert error_of(answer)["code"] == "unsupported_filter"
    assert error_of(answer)["message"].startswith("el informe «")
    assert "no se filtra por threshold" in error_of(answer)["message"]


def test_a_wrong_signature_is_refused_in_chinese_and_the_lockout_counts_minutes_in_chinese(floor):
    client = reading(floor.manager, "zh-hant")
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "kind": "opener", "chips": {"2500": 4},
            "dealer": {"username": "dealer", "password": "nope"}, "supervisor": {"username": "pm"}}
    # when the dealer's password is typed wrong
    answer = write(client, "/api/accounting/counts/", body)
    assert answer.status_code == 403
    assert error_of(answer)["code"] == "signature_refused"
    assert "dealer" in error_of(answer)["message"]
    assert "is wrong" not in error_of(answer)["message"]
    # and again, until this account may no longer sign for them: the wait is in minutes, in Chinese
    for _ in range(6):
        answer = write(client, "/api/accounting/counts/", body)
    assert answer.status_code == 429, answer.content
    message = error_of(answer)["message"]
    assert "分鐘後再試" in message
    assert "minutes" not in message


@pytest.mark.parametrize(("language", "words"), [("es", "no existe la alerta 987654"),
                                                   ("zh-hant", "沒有警示 987654")])
def test_an_alert_not_found_is_refused_in_the_readers_language(floor, language, words):
    answer = write(reading(floor.manager, language), "/api/accounting/alerts/987654/ack/", {"note": ""})
    assert answer.status_code == 400
    assert error_of(answer)["code"] == "unknown_alert"
    assert error_of(answer)["message"] == words


def test_a_dealer_refused_a_pit_managers_api_reads_the_roles_by_their_labels(floor):
    answer = write(reading(floor.dealer, "es"), "/api/accounting/table-closes/",
                   {"table": floor.table.pk, "shift": floor.shift.pk})
    assert answer.status_code == 403
    message = error_of(answer)["message"]
    assert "Jefe de mesa" in message
    assert "pit_manager" not in message


def test_a_table_close_refused_on_the_screen_says_what_is_missing_in_spanish(floor):
    # when the pit manager closes a table whose counts are not in, on the closing screen
    client = reading(floor.manager, "es")
    answer = client.post(f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/", {"confirm": "yes"},
                         follow=True)
    # then the screen says what is missing, in Spanish
    body = answer.content.decode()
    assert "Aún no puede cerrar" in body
    assert "recuento de fichas a la apertura" in body
    assert "opening inventory count" not in body


def test_the_pit_screens_confirmation_reads_in_chinese(floor):
    # when the pit manager, reading Traditional Chinese, asks the cage for chips
    client = reading(floor.manager, "zh-hant")
    answer = client.post(f"/pit/tables/{floor.table.code}/chips/", {"kind": "fill", "chips-2500": "4"}, follow=True)
    body = answer.content.decode()
    assert "已為 BAC1 申請補充籌碼：由帳房簽發。" in body
    assert "is requested" not in body
