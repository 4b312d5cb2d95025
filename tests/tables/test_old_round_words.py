"""A round stored before steps carried a ``message`` (the dealer's words as an id and params) still reads in the
reader's language: the pit's round page, the table's page, the pit's live part, the dealer screen's words and
the audit trail re-derive the message by playing the round through its engine again, never from the English."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.utils import translation

from casino.audit.exports import change_rows
from casino.audit.labels import field_words
from casino.audit.models import AuditRecord
from casino.audit.services import audit_log
from casino.core.models import StaffProfile
from tables import wording
from tables.models import Round
from tables.selectors import worded_state
from tables.services import rounds
from tests.fixtures import as_user

CARDS = ["9S", "KH", "5D"]  # three cards dealt: the fourth (the banker's second) is due


def _strip(doc: Any) -> Any:
    """``doc`` as an older version stored it: the same English, no message ids anywhere."""
    if isinstance(doc, dict):
        return {k: _strip(v) for k, v in doc.items() if k != "message"}
    if isinstance(doc, list):
        return [_strip(v) for v in doc]
    return doc


def _old_round(floor, cards=CARDS) -> Round:
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=2500)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in cards:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rnd.refresh_from_db()
    said = rnd.state["next"] or rnd.state  # the step due, or how the round ended
    assert "message" in said  # written now: with its message
    Round.objects.filter(pk=rnd.pk).update(state=_strip(rnd.state))
    rnd.refresh_from_db()
    assert "message" not in (rnd.state["next"] or rnd.state)
    return rnd


def _spanish(user) -> Client:
    StaffProfile.objects.update_or_create(user=user, defaults={"language": "es"})
    client = Client()
    client.force_login(user)
    return client


def test_a_live_round_stored_without_messages_reads_in_spanish(floor):
    rnd = _old_round(floor)
    english = rnd.state["next"]["say"]
    assert english == "Deal card 4 to the banker"
    with translation.override("es"):
        spanish = wording.prompt(worded_state(rnd)["next"])
    assert spanish != english
    # the pit's round page, the table's page and the live part
    pit = _spanish(floor.manager)
    for url in (f"/pit/rounds/{rnd.pk}/", f"/pit/tables/{floor.table.code}/", "/pit/live/"):
        html = pit.get(url).content.decode()
        assert spanish in html, url
        assert english not in html, url
    # the dealer screen's words (its round, as the API answers it)
    StaffProfile.objects.update_or_create(user=floor.dealer, defaults={"language": "es"})
    dealer = as_user(floor.dealer)
    words = dealer.get(f"/api/rounds/{rnd.pk}/", HTTP_ACCEPT_LANGUAGE="es").json()["words"]
    assert words["next"] == spanish


def test_a_settled_round_stored_without_messages_reads_in_spanish(floor):
    rnd = _old_round(floor, cards=["9S", "KH", "5D", "3C", "2H", "4S"])  # banker 7 beats player 6
    english = rnd.state["say"]
    with translation.override("es"):
        spanish = wording.prompt(worded_state(rnd))
    assert spanish
    assert spanish != english
    html = _spanish(floor.manager).get(f"/pit/rounds/{rnd.pk}/").content.decode()
    assert spanish in html


def test_an_older_audit_record_of_a_step_reads_in_spanish(floor):
    rnd = _old_round(floor, cards=["9S"])
    # a record as an older version wrote it: the step due after the first card, in English alone
    audit_log(actor=floor.dealer, action="event.post", object_type="round", object_id=rnd.pk,
              table_code=floor.table.code, before={"status": "betting_closed", "events": 0},
              after={"seq": 0, "event": {"card": "9S"},
                     "next": {"expect": "card", "to": "banker", "say": "Deal card 2 to the banker"}})
    record = AuditRecord.objects.order_by("-id").first()
    with translation.override("es"):
        rows = {r["field"]: r["now"] for r in change_rows(record.before, record.after, record)}
        expected = wording.prompt({"message": [{"id": "deal_banker_card", "params": {"n": 2}}]})
        following = field_words("next")  # the field's name in Spanish too ("Siguiente")
    assert rows[following] == expected
    assert "Deal card" not in rows[following]
    # and on the audit trail's screen, for an auditor who reads Spanish
    html = _spanish(floor.auditor).get("/audit/", {"table_code": floor.table.code}).content.decode()
    assert expected in html
    # a record written now (with its message) reads the same way
    now = AuditRecord.objects.filter(action="event.post", object_id=str(rnd.pk)).order_by("id").first()
    with translation.override("es"):
        assert {r["field"]: r["now"] for r in change_rows(now.before, now.after, now)}[following] == expected
