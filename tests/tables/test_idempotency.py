"""Retries with the same Idempotency-Key: one effect; a different body under the same key: 409."""

from __future__ import annotations

import json

import pytest
from rest_framework.renderers import JSONRenderer

from casino.core.models import IdempotencyRecord
from tables.models import Bet, Round, RoundEvent, Settlement
from tests.tables.helpers import BANKER_WIN, counts, open_round


def test_same_key_same_body_replays_the_first_response(floor, dealer_api):
    # given
    body = {"table": floor.table.pk}
    first = dealer_api.post("/api/rounds/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-open-1")
    before = counts()
    # when the tablet retries (it never heard the answer)
    again = dealer_api.post("/api/rounds/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-open-1")
    # then one round, the same answer, nothing new written
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Round.objects.count() == 1
    assert counts() == before


def test_a_write_is_rendered_once_and_its_record_holds_the_bytes_sent(floor, dealer_api, monkeypatch):
    # given every JSON rendering of an answer counted (DRF's renderer and the API's, which is DRF's underneath;
    # the test client renders the request's body with it too)
    rendered = []
    real = JSONRenderer.render

    def counting(self, data, *args, **kwargs):
        if isinstance(data, dict) and "id" in data:
            rendered.append(data)
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(JSONRenderer, "render", counting)
    # when a round is opened
    answer = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k-once")
    # then its answer was rendered once, and the record keeps exactly what was sent
    assert answer.status_code == 201
    assert len(rendered) == 1
    assert IdempotencyRecord.objects.get(key="k-once").response_body == json.loads(answer.content)


@pytest.mark.parametrize("accept", ["application/json; indent=2", "text/html"])
def test_an_answer_asked_for_in_another_form_is_rendered_in_it(floor, dealer_api, accept):
    # when the tablet (or someone at the browsable API) asks for it indented, or as a page
    answer = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k-form",
                             HTTP_ACCEPT=accept)
    # then it comes in that form, and the record is the same answer as JSON
    assert answer.status_code == 201
    stored = IdempotencyRecord.objects.get(key="k-form").response_body
    if accept.startswith("application/json"):
        assert answer.content.decode().startswith('{\n  "id"')
        assert json.loads(answer.content) == stored
    else:
        assert answer["Content-Type"].startswith("text/html")
        assert f"&quot;id&quot;: {stored['id']}" in answer.content.decode() or f'"id": {stored["id"]}' in answer.content.decode()


def test_same_key_different_body_is_409(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}/bets/"
    assert dealer_api.post(url, {"seat": 1, "type": "player", "amount": 1000}, format="json",
                           HTTP_IDEMPOTENCY_KEY="bet-1").status_code == 201
    before = counts()
    response = dealer_api.post(url, {"seat": 1, "type": "player", "amount": 9000}, format="json",
                               HTTP_IDEMPOTENCY_KEY="bet-1")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert counts() == before
    assert list(Bet.objects.values_list("amount", flat=True)) == [1000]


def test_retried_bets_cards_and_settle_have_one_effect_each(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    for _ in range(3):
        r = dealer_api.post(f"{url}/bets/", {"seat": 2, "type": "banker", "amount": 2500}, format="json",
                            HTTP_IDEMPOTENCY_KEY="bet-a")
        assert r.status_code == 201
    for _ in range(2):
        assert dealer_api.post(f"{url}/close-betting/", HTTP_IDEMPOTENCY_KEY="close").status_code == 200
    for i, card in enumerate(BANKER_WIN):
        for _ in range(2):
            r = dealer_api.post(f"{url}/events/", {"card": card}, format="json", HTTP_IDEMPOTENCY_KEY=f"card-{i}")
            assert r.status_code == 201, r.json()
    answers = [dealer_api.post(f"{url}/settle/", HTTP_IDEMPOTENCY_KEY="settle") for _ in range(3)]
    assert {a.status_code for a in answers} == {200}
    assert answers[0].json() == answers[2].json()
    assert Bet.objects.count() == 1
    assert RoundEvent.objects.count() == 6
    assert Settlement.objects.count() == 1


def test_keys_are_per_user(floor, dealer_api, manager_api):
    # the pit manager reusing a dealer's key string is a different request, not a replay
    dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    response = manager_api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "round_in_progress"


def test_a_refused_request_is_not_remembered(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}/bets/"
    over = {"seat": 1, "type": "player", "amount": 999_999_999}
    assert dealer_api.post(url, over, format="json", HTTP_IDEMPOTENCY_KEY="b").status_code == 400
    ok = {"seat": 1, "type": "player", "amount": 1000}
    assert dealer_api.post(url, ok, format="json", HTTP_IDEMPOTENCY_KEY="b2").status_code == 201


def test_bad_idempotency_key_is_400(floor, dealer_api):
    response = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json",
                               HTTP_IDEMPOTENCY_KEY="x" * 200)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert Round.objects.count() == 0


def test_in_one_request_transaction_a_refusal_writes_nothing_and_a_retry_replays(transactional_db, floor, dealer_api):
    # given real request transactions (no test transaction around them): the round services join the
    # request's transaction without a savepoint (casino.idempotency.request_service)
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert dealer_api.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json",
                           HTTP_IDEMPOTENCY_KEY="t-bet").status_code == 201
    assert dealer_api.post(f"{url}/close-betting/", HTTP_IDEMPOTENCY_KEY="t-close").status_code == 200
    before = counts()
    # when an impossible card is posted
    refused = dealer_api.post(f"{url}/events/", {"card": "1X"}, format="json", HTTP_IDEMPOTENCY_KEY="t-bad")
    # then it is refused, nothing is written, and the connection serves the next request
    assert refused.status_code == 400, refused.json()
    assert counts() == before
    for i, card in enumerate(BANKER_WIN):
        r = dealer_api.post(f"{url}/events/", {"card": card}, format="json", HTTP_IDEMPOTENCY_KEY=f"t-card-{i}")
        assert r.status_code == 201, r.json()
    # and a card retried after the round moved on replays its first answer, writing nothing
    first_card = dealer_api.post(f"{url}/events/", {"card": BANKER_WIN[0]}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="t-card-0")
    assert first_card.status_code == 201
    assert first_card["Idempotent-Replayed"] == "true"
    assert first_card.json()["document"]["events"] == [{"card": BANKER_WIN[0]}]
    settled = dealer_api.post(f"{url}/settle/", HTTP_IDEMPOTENCY_KEY="t-settle")
    again = dealer_api.post(f"{url}/settle/", HTTP_IDEMPOTENCY_KEY="t-settle")
    assert settled.status_code == again.status_code == 200
    assert again.json() == settled.json()
    # and the same key for another request is still a conflict
    reused = dealer_api.post(f"{url}/bets/", {"seat": 2, "type": "player", "amount": 500}, format="json",
                             HTTP_IDEMPOTENCY_KEY="t-bet")
    assert reused.status_code == 409
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert RoundEvent.objects.filter(round_id=rnd["id"]).count() == len(BANKER_WIN)
    assert Settlement.objects.filter(round_id=rnd["id"]).count() == 1
