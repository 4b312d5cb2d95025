"""The pit manager's paperwork services: a void refused, dealers rotated, an alert resolved; each audited, each
written once (the database refuses a rewrite), each only at the manager's own pits."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from accounting.models import Alert
from accounting.services import alerts
from casino.audit.models import AuditRecord
from casino.core.roles import Role
from casino.errors import Conflict, Forbidden, InvalidInput
from tables.models import Assignment, Round, RoundStatus
from tables.services import floor as floor_services
from tables.services import rounds
from tests.factories import TableFactory, UserFactory, assign

REFUSED = "refused on"


def refused(sql: str, params: list) -> None:
    with pytest.raises(DatabaseError, match=REFUSED), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def second_manager(floor):
    pm = UserFactory(username="pm1b", roles=[Role.PIT_MANAGER])
    floor.pit.managers.add(pm)
    return pm


def test_a_void_is_refused_once_with_a_reason_by_someone_other_than_who_asked(floor, second_manager):
    # given a void the pit manager asked for
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.round_void_request(round_id=rnd.pk, actor=floor.manager, reason="exposed card")
    # then they cannot refuse (nor approve) it themself, nor can another pit's manager
    with pytest.raises(Forbidden) as own:
        rounds.round_void_refuse(round_id=rnd.pk, actor=floor.manager, reason="fine")
    assert own.value.code == "same_person"
    with pytest.raises(Forbidden):
        rounds.round_void_approve(round_id=rnd.pk, actor=floor.manager)
    with pytest.raises(Forbidden):
        rounds.round_void_refuse(round_id=rnd.pk, actor=floor.other_manager, reason="fine")
    with pytest.raises(InvalidInput):
        rounds.round_void_refuse(round_id=rnd.pk, actor=second_manager, reason="  ")
    # when the second pit manager refuses it with a reason
    rounds.round_void_refuse(round_id=rnd.pk, actor=second_manager, reason="the card was burnt, not exposed")
    # then the round goes on, the request and the refusal both on record and audited
    stored = Round.objects.get(pk=rnd.pk)
    assert (stored.status, stored.void_requested_by, stored.void_refused_by, stored.void_refusal_reason) == (
        RoundStatus.OPEN, floor.manager, second_manager, "the card was burnt, not exposed")
    record = AuditRecord.objects.get(action="round.void_refuse", object_id=str(rnd.pk))
    assert (record.actor_username, record.after["reason"]) == ("pm1b", "the card was burnt, not exposed")
    # and the refusal is final: no approval, no second request, no rewrite
    with pytest.raises(Conflict):
        rounds.round_void_approve(round_id=rnd.pk, actor=second_manager)
    with pytest.raises(Conflict):
        rounds.round_void_request(round_id=rnd.pk, actor=floor.dealer, reason="again")
    refused("UPDATE tables_round SET void_refusal_reason = 'other' WHERE id = %s", [rnd.pk])
    # the round can still be dealt and settled
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=1000)
    assert Round.objects.get(pk=rnd.pk).bets.count() == 1


def test_a_rotation_moves_each_dealer_on_and_sends_the_last_on_a_break(floor, now):
    # given two open tables at the pit, each with its dealer, and a dealer back from a break
    table2 = TableFactory(code="BAC3", pit=floor.pit)
    dealer_b = UserFactory(username="dealerb", roles=[Role.DEALER])
    assign(dealer_b, table2, floor.shift, floor.manager)
    relief = UserFactory(username="relief", roles=[Role.DEALER])
    # then another pit's manager may not rotate them
    with pytest.raises(Forbidden):
        floor_services.dealer_rotate(pit_id=floor.pit.pk, actor=floor.other_manager, incoming_dealer_id=relief.pk)
    # when the pit manager rotates with the relief dealer coming in
    floor_services.dealer_rotate(pit_id=floor.pit.pk, actor=floor.manager, incoming_dealer_id=relief.pk)
    # then the relief dealer deals BAC1, BAC1's dealer deals BAC3, BAC3's dealer is on a break
    live = Assignment.objects.filter(relieved_at__isnull=True, table__pit=floor.pit)
    assert dict(live.values_list("table__code", "dealer__username")) == {"BAC1": "relief", "BAC3": "dealer"}
    assert not Assignment.objects.filter(dealer=dealer_b, relieved_at__isnull=True).exists()
    rotation = AuditRecord.objects.get(action="pit.rotate")
    assert rotation.after == {"moves": [{"table": "BAC1", "from": "dealer", "to": "relief"},
                                        {"table": "BAC3", "from": "dealerb", "to": "dealer"}], "on_break": ["dealerb"]}
    assert AuditRecord.objects.filter(action="assignment.relieve").count() == 2
    # and without anyone coming in, the dealers move round
    floor_services.dealer_rotate(pit_id=floor.pit.pk, actor=floor.manager)
    assert dict(live.values_list("table__code", "dealer__username")) == {"BAC1": "dealer", "BAC3": "relief"}


def test_an_alert_is_resolved_once_after_its_acknowledgement(floor):
    alert = alerts.alert_raise(kind="variance", severity="warning", message="short 125", dedupe_key="k",
                               table=floor.table)
    with pytest.raises(Conflict) as early:
        alerts.alert_resolve(alert_id=alert.pk, actor=floor.manager, note="recounted")
    assert early.value.code == "not_acknowledged"
    alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.manager, note="on it")
    with pytest.raises(Forbidden):
        alerts.alert_resolve(alert_id=alert.pk, actor=floor.other_manager, note="recounted")
    with pytest.raises(InvalidInput):
        alerts.alert_resolve(alert_id=alert.pk, actor=floor.manager, note="")
    alerts.alert_resolve(alert_id=alert.pk, actor=floor.manager, note="recounted: the drop box was short")
    stored = Alert.objects.get(pk=alert.pk)
    assert (stored.message, stored.acknowledged_by, stored.ack_note, stored.resolved_by, stored.resolve_note) == (
        "short 125", floor.manager, "on it", floor.manager, "recounted: the drop box was short")
    assert AuditRecord.objects.filter(action="alert.resolve", object_id=str(alert.pk)).count() == 1
    with pytest.raises(Conflict):
        alerts.alert_resolve(alert_id=alert.pk, actor=floor.manager, note="again")
    refused("UPDATE accounting_alert SET resolve_note = 'other' WHERE id = %s", [alert.pk])
    refused("UPDATE accounting_alert SET message = 'nothing' WHERE id = %s", [alert.pk])


def test_the_database_refuses_a_resolution_before_the_acknowledgement(floor):
    alert = alerts.alert_raise(kind="variance", severity="warning", message="m", dedupe_key="k2", table=floor.table)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE accounting_alert SET resolved_by_id = %s, resolved_at = now() WHERE id = %s",
                       [floor.manager.pk, alert.pk])


def test_the_api_refuses_a_void_through_the_same_service(floor, manager_api, dealer_api):
    from tests.fixtures import as_user

    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    url = f"/api/rounds/{rnd.pk}"
    assert dealer_api.post(f"{url}/void/", {"reason": "misdeal"}, format="json").status_code == 200
    # the dealer who asked and another pit's manager are refused; the reason is required
    assert dealer_api.post(f"{url}/void/refuse/", {"reason": "no"}, format="json").status_code == 403
    assert as_user(floor.other_manager).post(f"{url}/void/refuse/", {"reason": "no"}, format="json").status_code == 403
    assert manager_api.post(f"{url}/void/refuse/", {"reason": ""}, format="json").status_code == 400
    refused_void = manager_api.post(f"{url}/void/refuse/", {"reason": "the shoe is fine"}, format="json")
    assert (refused_void.status_code, refused_void.json()["status"]) == (200, "open")
    assert Round.objects.get(pk=rnd.pk).void_refused_by == floor.manager
    assert manager_api.post(f"{url}/void/approve/").json()["error"]["code"] == "void_refused"


@pytest.mark.parametrize("who", ["dealer", "accountant", "auditor"])
def test_the_pit_managers_forms_refuse_other_roles_in_words(floor, who):
    from django.test import Client

    client = Client()
    client.force_login(getattr(floor, who))
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    for path, form in (("/pit/tables/BAC1/status/", {"status": "closed"}), ("/pit/tables/BAC1/chips/", {"kind": "fill"}),
                       (f"/pit/rounds/{rnd.pk}/void/", {"reason": "Misdeal"}), ("/pit/pits/main/rotate/", {}),
                       ("/pit/voids/", None), ("/pit/alerts/", None), ("/pit/dealers/", None)):
        response = client.post(path, form) if form is not None else client.get(path)
        assert response.status_code == 403, path
        assert "These screens are for pit managers." in response.content.decode()
    assert Round.objects.get(pk=rnd.pk).void_requested_by is None
    assert floor.table.__class__.objects.get(pk=floor.table.pk).status == "open"


def test_the_forms_need_a_sign_in_and_a_post(floor):
    from django.test import Client

    assert Client().post("/pit/tables/BAC1/status/", {"status": "closed"})["Location"].startswith("/login/")
    client = Client()
    client.force_login(floor.manager)
    assert client.get("/pit/tables/BAC1/status/").status_code == 405


def test_a_form_submitted_twice_writes_once(floor):
    import re

    from django.test import Client

    from accounting.models import Slip

    client = Client()
    client.force_login(floor.manager)
    # given the table's screen, with its fill form and that form's once-only key
    page = client.get("/pit/tables/BAC1/").content.decode()
    chips_form = page[page.index('action="/pit/tables/BAC1/chips/"'):]
    key = re.search(r'name="form_key" value="([0-9a-f]+)"', chips_form).group(1)
    form = {"form_key": key, "kind": "fill", "chips-2500": "4"}
    # when it is sent twice (a double tap, a resent page)
    first = client.post("/pit/tables/BAC1/chips/", form, follow=True)
    second = client.post("/pit/tables/BAC1/chips/", form, follow=True)
    # then one fill is requested, and the second answer says it was already done
    assert Slip.objects.filter(table=floor.table).count() == 1
    assert "The fill for BAC1 is requested" in first.content.decode()
    assert "Already done: The fill for BAC1 is requested" in second.content.decode()
    # and the same key on another form's contents is refused
    third = client.post("/pit/tables/BAC1/chips/", {**form, "chips-2500": "5"}, follow=True)
    assert "reload the page" in third.content.decode()
    assert Slip.objects.filter(table=floor.table).count() == 1
