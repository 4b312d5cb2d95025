"""The floor's refusals in the reader's language (issue 31): a dealer, a pit manager or a host who reads
Spanish or Traditional Chinese (their staff profile's language) is refused through the real API in that
language, with the figures as they write them (money in the one money format, a round as the language
numbers it, a table by its code), and the same stable ``code`` an API client reads in every language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from casino.core.models import StaffProfile
from casino.money import money_amount
from players.models import RatingSlip
from slots.models import Machine
from tables.models import Round, Table, TableStatus
from tests.client import APIClient
from tests.tables.helpers import BANKER_WIN, open_round

LANGUAGES = ("es", "zh-hant")


def reader(user: Any, language: str) -> APIClient:
    """The API as ``user`` calls it from a screen, signed in, their profile in ``language``."""
    StaffProfile.objects.update_or_create(user=user, defaults={"language": language})
    client = APIClient()
    client.force_login(user)
    return client


def refusal(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert error["code"] == code
    return str(error["message"])


def _in(language: str, **texts: str) -> str:
    return texts[language.replace("-", "_")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dealer_at_another_table_is_refused_in_their_language(floor, language):
    # when the dealer of BAC1 opens a round at BAC2, another pit's table
    answer = reader(floor.dealer, language).post("/api/rounds/", {"table": floor.other_table.pk}, format="json")
    # then it is refused in their language, naming the table by its code
    message = refusal(answer, 403, "not_assigned")
    assert message == _in(language, es="ahora no está asignado a la mesa BAC2",
                          zh_hant="你現在沒有被編配到 BAC2 枱")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_closed_table_is_refused_in_their_language(floor, language):
    Table.objects.filter(pk=floor.table.pk).update(status=TableStatus.CLOSED)
    answer = reader(floor.dealer, language).post("/api/rounds/", {"table": floor.table.pk}, format="json")
    message = refusal(answer, 409, "table_closed")
    assert message == _in(language, es="la mesa BAC1 está cerrada", zh_hant="BAC1 枱已關閉")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bet_over_the_limit_is_refused_with_money_as_the_reader_writes_it(floor, language):
    client = reader(floor.dealer, language)
    rnd = open_round(client, floor.table)
    # when a stake one cent over the table maximum of 5,000.00 is taken
    answer = client.post(f"/api/rounds/{rnd['id']}/bets/", {"seat": 2, "type": "player", "amount": 500_001},
                         format="json")
    # then the engine's refusal comes in the dealer's words, the amounts in the reader's money format
    message = refusal(answer, 400, "over_table_max")
    params = answer.json()["error"]["params"]
    assert (params["amount"], params["max"]) == (500_001, 500_000)  # the figures, as numbers, for other clients
    assert message == _in(language, es="5\u00a0000,01\u00a0€ supera el máximo de la mesa, 5\u00a0000,00\u00a0€.",
                          zh_hant="€5,000.01 超過本枱最高投注 €5,000.00。")
    with translation.override(language):
        assert money_amount(500_001) in message
    assert "500001" not in message
    assert "500000" not in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_round_settled_twice_is_refused_in_their_language(floor, language):
    client = reader(floor.dealer, language)
    rnd = open_round(client, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert client.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 1000}, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/", format="json").status_code == 200
    for card in BANKER_WIN:
        assert client.post(f"{url}/events/", {"card": card}, format="json").status_code == 201
    assert client.post(f"{url}/settle/", format="json").status_code == 200
    # when it is settled again (a new request)
    answer = client.post(f"{url}/settle/", format="json")
    number = Round.objects.get(pk=rnd["id"]).number
    message = refusal(answer, 409, "already_settled")
    assert message == _in(language, es=f"la ronda n.º {number} ya está liquidada", zh_hant=f"第 {number} 局已結算")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_closed_rating_slip_is_refused_in_their_language(floor, language):
    client = reader(floor.dealer, language)
    opened = client.post("/api/rating-slips/", {"table": floor.table.pk, "seat": 3}, format="json")
    assert opened.status_code == 201, opened.json()
    url = f"/api/rating-slips/{opened.json()['id']}"
    assert client.post(f"{url}/close/", {}, format="json").status_code == 200
    # when the closed slip is paused
    answer = client.post(f"{url}/pause/", format="json")
    slip = RatingSlip.objects.get(pk=opened.json()["id"])
    message = refusal(answer, 409, "slip_closed")
    assert message == _in(language, es=f"el comprobante de evaluación {slip.pk} está cerrado",
                          zh_hant=f"評分單 {slip.pk} 已關閉")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_asset_number_taken_is_refused_in_their_language(floor, language):
    client = reader(floor.manager, language)
    machine = {"asset_number": "CD-7", "game": "Crazy Dragon", "denomination": 100, "location": "Dragon bank"}
    assert client.post("/api/slots/machines/", machine, format="json").status_code == 201
    answer = client.post("/api/slots/machines/", machine, format="json")
    message = refusal(answer, 409, "asset_number_taken")
    assert answer.json()["error"]["field"] == "asset_number"
    assert message == _in(language, es="el número de activo CD-7 ya está en la sala",
                          zh_hant="資產編號 CD-7 已在場內")
    assert Machine.objects.filter(asset_number="CD-7").count() == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_room_refusal_is_in_their_language(floor, language):
    # when the other pit's manager sets up a tournament in the main pit
    answer = reader(floor.other_manager, language).post(
        "/api/cardroom/tournaments/",
        {"name": "Hearts night", "pit": floor.pit.pk, "game": "hearts", "entry_fee": 0}, format="json")
    message = refusal(answer, 403, "pit_manager_required")
    assert message == _in(language, es="solo un jefe de mesa de Main pit puede hacer esto",
                          zh_hant="只有 Main pit 的賭區經理可以執行此操作")


def test_the_same_refusal_reads_in_english_for_an_english_reader(floor):
    Table.objects.filter(pk=floor.table.pk).update(status=TableStatus.CLOSED)
    answer = reader(floor.dealer, "en").post("/api/rounds/", {"table": floor.table.pk}, format="json")
    assert refusal(answer, 409, "table_closed") == "table BAC1 is closed"
