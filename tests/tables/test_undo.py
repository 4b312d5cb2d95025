"""Undo the last card before settlement, approved on the spot by a pit manager, audited."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditRecord
from tables.models import Round, RoundEvent, Settlement
from tables.services.rounds import round_document
from tests.client import APIClient
from tests.fixtures import as_user
from tests.tables.helpers import counts, open_round

APPROVAL = {"approver_username": "pm", "approver_password": "pass"}


def dealt(client, table, cards: list[str], bets=({"seat": 1, "type": "banker", "amount": 2500},)) -> str:
    """A baccarat round at ``table`` with ``bets``, betting closed and ``cards`` dealt; its URL."""
    rnd = open_round(client, table)
    url = f"/api/rounds/{rnd['id']}"
    for bet in bets:
        assert client.post(f"{url}/bets/", bet, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/").status_code == 200
    for card in cards:
        answer = client.post(f"{url}/events/", {"card": card}, format="json")
        assert answer.status_code == 201, answer.json()
    return url


def test_dealer_undoes_a_wrong_card_with_a_pit_managers_approval(floor, dealer_api):
    # given a round where the dealer keyed 3C as the banker's second card instead of 3D
    url = dealt(dealer_api, floor.table, ["9S", "KH", "5D", "3C"])
    round_id = int(url.rsplit("/", 1)[1])

    # when the pit manager approves the undo on the dealer's screen
    response = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json")

    # then the card leaves the round document and the engine asks for it again
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["document"]["events"] == [{"card": "9S"}, {"card": "KH"}, {"card": "5D"}]
    assert body["state"]["next"] == {"expect": "card", "to": "banker", "say": "Deal card 4 to the banker",
                                     "message": [{"id": "deal_banker_card", "params": {"n": 4}}],
                                     "input": {"kind": "card", "to": "banker", "deck": "standard"}}
    assert body["status"] == "dealing"
    undone = RoundEvent.objects.get(round_id=round_id, seq=3)
    assert undone.payload == {"card": "3C"}
    assert (undone.undone_by, undone.undo_approved_by) == (floor.dealer, floor.manager)
    assert undone.undone_at is not None
    record = AuditRecord.objects.filter(chain="table:BAC1").order_by("-seq").first()
    assert record.action == "event.undo"
    assert record.actor_username == "dealer"
    assert record.before == {"status": "dealing", "seq": 3, "event": {"card": "3C"}}
    assert record.after["approved_by"] == "pm"

    # and the right card takes the freed position; the round settles on the corrected cards
    for card in ["3D", "2H", "4S"]:
        assert dealer_api.post(f"{url}/events/", {"card": card}, format="json").status_code == 201
    settled = dealer_api.post(f"{url}/settle/")
    assert settled.status_code == 200, settled.json()
    assert settled.json()["state"]["hands"]["banker"]["cards"] == ["KH", "3D", "4S"]
    assert Settlement.objects.get(round_id=round_id).house_net == -2375
    rnd = Round.objects.get(pk=round_id)
    assert round_document(rnd) == round_document(rnd, from_rows=True)  # the row's copy lost the undone card too
    trail = RoundEvent.objects.filter(round_id=round_id, seq=3).order_by("id")
    assert [(e.payload, e.undone_at is None) for e in trail] == [({"card": "3C"}, False), ({"card": "3D"}, True)]


def test_undoing_the_only_card_reopens_the_deal(floor, dealer_api):
    # given one card dealt
    url = dealt(dealer_api, floor.table, ["9S"])
    # when it is undone
    response = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json")
    # then the round is back to betting closed, waiting for the first card
    assert response.status_code == 200
    assert response.json()["status"] == "betting_closed"
    assert response.json()["state"]["next"]["say"] == "Deal card 1 to the player"


@pytest.mark.parametrize(
    "approval",
    [
        {"approver_username": "pm", "approver_password": "wrong"},
        {"approver_username": "pm", "approver_pin": "9999"},
        {"approver_username": "nosuchuser", "approver_password": "pass"},
    ],
)
def test_a_wrong_supervisor_password_is_refused_and_audited_as_a_refused_signature(floor, dealer_api, approval):
    # given two cards dealt
    url = dealt(dealer_api, floor.table, ["9S", "KH"])
    before = counts()
    # when the approval's username, password or PIN is wrong
    response = dealer_api.post(f"{url}/events/undo/", approval, format="json", HTTP_IDEMPOTENCY_KEY="undo-1")
    # then 403 naming the problem; the round is unchanged; the attempt is audited as a refused signature
    # by the dealer who typed it (not as a failed sign-in of the supervisor)
    assert response.status_code == 403, response.json()
    assert response.json()["error"] == {
        "code": "approval_refused",
        "message": "the supervisor's PIN or password is wrong",
        "field": "approver_password",
        "request_id": response["X-Request-ID"],
    }
    after = counts()
    assert after == {**before, "AuditRecord": before["AuditRecord"] + 1}
    failed = AuditRecord.objects.order_by("-id").first()
    assert (failed.action, failed.actor_username, failed.after) == (
        "signature.refused", "dealer",
        {"signer": approval["approver_username"], "field": "approver_password", "locked_until": None})
    assert RoundEvent.objects.filter(undone_at__isnull=False).count() == 0


def test_repeated_wrong_approvals_slow_the_dealer_down_never_lock_the_supervisor_out(floor, dealer_api, settings):
    # given the signature limit, and a dealer sending wrong passwords for the pit manager
    settings.SIGNATURE_FAILURE_LIMIT = 3
    url = dealt(dealer_api, floor.table, ["9S", "KH"])
    wrong = {"approver_username": "pm", "approver_password": "wrong"}
    statuses = [dealer_api.post(f"{url}/events/undo/", wrong, format="json").status_code for _ in range(3)]
    assert statuses == [403, 403, 403]
    # then this dealer's approvals by that supervisor wait, even with the right password: 429 with Retry-After
    response = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "signature_locked"
    assert 1 <= int(response["Retry-After"]) <= settings.SIGNATURE_LOCKOUT_SECONDS
    assert RoundEvent.objects.filter(undone_at__isnull=False).count() == 0
    assert AuditRecord.objects.filter(action="signature.lockout").count() == 1
    # and the pit manager still signs in, and still approves at another dealer's table
    assert APIClient().post("/api/auth/token/", {"username": "pm", "password": "pass"}, format="json",
                            REMOTE_ADDR="10.1.1.1").status_code == 200
    floor.other_table.pit.managers.add(floor.manager)
    other = dealt(as_user(floor.other_dealer), floor.other_table, ["9S", "KH"])
    assert as_user(floor.other_dealer).post(f"{other}/events/undo/", APPROVAL, format="json").status_code == 200


@pytest.mark.parametrize(
    ("approval", "code"),
    [
        ({"approver_username": "dealer2", "approver_password": "pass"}, "pit_manager_required"),
        ({"approver_username": "pm2", "approver_password": "pass"}, "pit_manager_required"),
        ({"approver_username": "dealer", "approver_password": "pass"}, "same_person"),
    ],
)
def test_an_undo_approved_by_someone_who_is_not_the_tables_supervisor_is_refused(floor, dealer_api, approval, code):
    # given two cards dealt
    url = dealt(dealer_api, floor.table, ["9S", "KH"])
    before = counts()
    # when the approver is not a pit manager of this pit, or is the dealer themselves
    response = dealer_api.post(f"{url}/events/undo/", approval, format="json", HTTP_IDEMPOTENCY_KEY="undo-1")
    # then 403 naming the problem, and nothing changed
    assert response.status_code == 403, response.json()
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == (code, "approver_username")
    assert counts() == before
    assert RoundEvent.objects.filter(undone_at__isnull=False).count() == 0


def test_a_pit_manager_dealing_cannot_approve_their_own_undo(floor, manager_api):
    url = dealt(manager_api, floor.table, ["9S"])
    before = counts()
    response = manager_api.post(f"{url}/events/undo/", APPROVAL, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "same_person"
    assert counts() == before


def test_missing_approval_fields_are_400(floor, dealer_api):
    url = dealt(dealer_api, floor.table, ["9S"])
    before = counts()
    response = dealer_api.post(f"{url}/events/undo/", {"approver_username": "pm"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "approver_password"
    assert counts() == before


def test_nothing_to_undo_before_the_first_card_and_nothing_after_settlement(floor, dealer_api):
    # given a round with betting closed and no card
    url = dealt(dealer_api, floor.table, [])
    before = counts()
    response = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert counts() == before
    # given a settled round
    for card in ["9S", "KH", "5D", "3C", "2H", "4S"]:
        dealer_api.post(f"{url}/events/", {"card": card}, format="json")
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    before = counts()
    response = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "round_settled"
    assert counts() == before
    assert RoundEvent.objects.filter(undone_at__isnull=False).count() == 0


@pytest.mark.parametrize("who", ["accountant", "auditor", "other_dealer"])
def test_only_the_tables_dealer_or_manager_may_ask(floor, dealer_api, who):
    url = dealt(dealer_api, floor.table, ["9S"])
    before = counts()
    response = as_user(getattr(floor, who)).post(f"{url}/events/undo/", APPROVAL, format="json")
    assert response.status_code in (403, 404)
    assert counts() == before


def test_a_retried_undo_undoes_one_card(floor, dealer_api):
    # given three cards
    url = dealt(dealer_api, floor.table, ["9S", "KH", "5D"])
    # when the tablet sends the same undo twice (the first answer was lost)
    first = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json", HTTP_IDEMPOTENCY_KEY="undo-k")
    again = dealer_api.post(f"{url}/events/undo/", APPROVAL, format="json", HTTP_IDEMPOTENCY_KEY="undo-k")
    # then one card is undone and the retry replays the first answer
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert list(RoundEvent.objects.filter(undone_at__isnull=False).values_list("payload", flat=True)) == [
        {"card": "5D"}
    ]
    assert Round.objects.get().state["next"]["say"] == "Deal card 3 to the player"
