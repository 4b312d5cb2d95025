"""The audit trail read in the reader's language: the auditor's page, the pit's round page, the spreadsheet export.

Codes (``round.open``, ``command``, ``table:BAC1``) are what the records hold; a person reads phrases
(casino/audit/labels.py). Every screen here is asked for in Spanish and in Traditional Chinese.
"""

from __future__ import annotations

import io
import re

import pytest
from django.db import transaction
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from casino.audit.services import audit_log
from casino.context import RequestContext, acting_as
from casino.money import money_amount, number_words
from tests.accounting.helpers import play_round
from tests.fixtures import as_user

PLAYER_WINS = ["5S", "KH", "4D", "2C"]  # player 5 + 4 = 9 against banker K + 2 = 2: naturals, nobody draws
LANGUAGES = {"es": "es", "zh_Hant": "zh-hant"}
SAID = {  # what the records of a dealt round read as, in each language
    "es": ["Ronda abierta", "Apuesta realizada", "Apuestas cerradas", "Carta o decisión introducida",
           "Ronda liquidada"],
    "zh_Hant": ["牌局已開始", "已下注", "已輸入牌或決定", "牌局已結算"],
}
CHANNEL = {"es": "Línea de comandos", "zh_Hant": "命令列"}
DEMO = {"es": "Demostración", "zh_Hant": "示範"}
# a code shown as it is, or de-snaked ("Round · open", "Event · post", "Command · demo:BAC1")
CODE_WORDS = re.compile(r"\b(Round|Bet|Event|Command|Table|Slots|User) · [a-z]")


@pytest.fixture
def dealt(floor):
    """A round the demo's writer dealt at BAC1 (a command, its device ``demo:BAC1``), as the demo day does."""
    with acting_as(RequestContext(channel="command", device="demo:BAC1")):
        return play_round(floor.table, floor.dealer, [(1, "player", 10_000), (2, "banker", 5_000)], PLAYER_WINS)


def browser(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=LANGUAGES[language])
    client.force_login(user)
    return client


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_page_says_who_did_what_from_where_in_words(floor, dealt, language):
    html = browser(floor.manager, language).get(f"/pit/rounds/{dealt.round_id}/").content.decode()
    section = html[html.index('id="audit-title"'):]
    for phrase in SAID[language]:
        assert phrase in section
    # from: the channel in words, the demo's device without the table the page is about
    assert f"{CHANNEL[language]} · {DEMO[language]}" in section
    assert "demo:BAC1" not in section
    assert not CODE_WORDS.search(section)
    assert "round.open" not in section


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_audit_page_reads_in_the_auditors_language(floor, dealt, language):
    with transaction.atomic():  # enough records for a count the language groups
        for n in range(1_000):
            audit_log(actor=floor.manager, action="table.update", object_type="table", object_id=floor.table.pk,
                      table_code="BAC1", before={"max_bet": 500_000 + n}, after={"max_bet": 100_000})
    response = browser(floor.auditor, language).get("/audit/")
    html = response.content.decode()
    total = response.context["page"].paginator.count
    with translation.override(LANGUAGES[language]):
        grouped, pages = number_words(total, 0), number_words(response.context["page"].paginator.num_pages, 0)
    assert total > 1_000
    assert not grouped.isdigit()
    assert grouped in html
    assert f"{total} " not in html
    # the pick-list offers the recorded actions and object types in words, the codes as their values
    pick = dict(response.context["pick"]["action"])
    assert pick["round.open"] == SAID[language][0]
    assert f'<option value="round.open">{SAID[language][0]}</option>' in html
    assert dict(response.context["pick"]["object_type"])["round"] in {"Ronda", "牌局"}
    # the rows: the change's field in words, money as the reader writes it, the chain by its table
    row = next(r for r in response.context["rows"] if r["record"].action == "table.update")
    assert row["changes"][0]["field"] == {"es": "Apuesta máxima", "zh_Hant": "最高投注"}[language]
    with translation.override(LANGUAGES[language]):
        assert row["changes"][0]["now"] == money_amount(100_000)  # "1 000,00 €" in Spanish
    assert row["chain"] == {"es": "Mesa BAC1", "zh_Hant": "賭枱 BAC1"}[language]
    # a bet's side as the pit says it (the banker: 莊 at a Macau table)
    bets = browser(floor.auditor, language).get("/audit/?action=bet.place").context["rows"]
    sides = {c["now"] for r in bets for c in r["changes"] if c["field"] in {"Tipo", "類別"}}
    assert sides == {"es": {"Jugador", "Banca"}, "zh_Hant": {"閒", "莊"}}[language]
    assert not CODE_WORDS.search(html)
    assert "table:BAC1" not in html
    assert pages in html


def test_the_spreadsheet_export_is_in_words_and_the_csv_keeps_the_codes(floor, dealt):
    client = as_user(floor.auditor)
    response = client.get("/api/audit/records/export.xlsx?table_code=BAC1", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [[c for c in r if c is not None] for r in sheet.iter_rows(values_only=True)]
    assert rows[0] == ["Croupier — registro de auditoría"]
    assert rows[2][:6] == ["Id", "Hora (UTC)", "Cadena n.º de secuencia", "Usuario (rol)", "Desde", "Acción"]
    actions = [r[5] for r in rows[3:]]
    assert actions[:2] == ["Ronda abierta", "Apuesta realizada"]
    assert any(r[2].startswith("Mesa BAC1 #") for r in rows[3:])
    assert rows[3][4] == "Línea de comandos · Demostración"
    csv = b"".join(client.get("/api/audit/records/export.csv?table_code=BAC1",
                              HTTP_ACCEPT_LANGUAGE="es").streaming_content).decode()
    assert ",round.open," in csv
    assert "Ronda abierta" not in csv


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_export_is_written_in_the_readers_language(floor, dealt, language):
    response = as_user(floor.auditor).get("/api/audit/records/export.pdf?table_code=BAC1",
                                          HTTP_ACCEPT_LANGUAGE=LANGUAGES[language])
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")


def test_a_filter_a_spreadsheet_cell_cannot_hold_is_exported_not_refused_with_a_500(floor, dealt):
    # given a typed filter with a control character (as the API fuzzing sends): the XLSX cannot hold it
    response = as_user(floor.auditor).get("/api/audit/records/export.xlsx?table_code=BAC1&actor=a%01b")
    # then the export is written, the character shown as U+FFFD in the line saying what was exported
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    said = [c for r in sheet.iter_rows(values_only=True) for c in r if isinstance(c, str)]
    assert any("a\ufffdb" in c for c in said)
