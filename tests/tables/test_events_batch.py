"""Several cards and choices in one request (``POST /api/rounds/{id}/events/batch/``): the same rows, records and
answer as posting them one by one, all or none, one lock and one commit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.audit.models import AuditRecord
from tables.models import Round, RoundEvent
from tests.tables.helpers import BANKER_WIN, counts, open_round


def closed_round(client, table) -> str:
    rnd = open_round(client, table)
    url = f"/api/rounds/{rnd['id']}"
    assert client.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").status_code == 201
    assert client.post(f"{url}/bets/", {"seat": 2, "type": "player", "amount": 1000}, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/").status_code == 200
    return url


def test_a_batch_answers_and_records_as_the_cards_posted_one_by_one(floor, dealer_api):
    # given two rounds at the same point, one dealt card by card and one in two batches
    one_by_one = closed_round(dealer_api, floor.table)
    for card in BANKER_WIN:
        assert dealer_api.post(f"{one_by_one}/events/", {"card": card}, format="json").status_code == 201
    single = dealer_api.post(f"{one_by_one}/settle/").json()
    batched = closed_round(dealer_api, floor.table)
    # when the dealer sends the first four cards, then the two draws, each group in one request
    first = dealer_api.post(f"{batched}/events/batch/", {"events": [{"card": c} for c in BANKER_WIN[:4]]}, format="json")
    second = dealer_api.post(f"{batched}/events/batch/", {"events": [{"card": c} for c in BANKER_WIN[4:]]}, format="json")
    # then each answer is the round after its last card, as a single post would have answered
    assert first.status_code == 201, first.json()
    assert first.json()["state"]["next"]["to"] == "player"  # the player draws on 4
    assert second.status_code == 201, second.json()
    assert second.json()["state"]["status"] == "settled"
    assert second.json()["state"]["next"] is None
    settled = dealer_api.post(f"{batched}/settle/").json()
    assert settled["state"]["bets"] == single["state"]["bets"]
    assert settled["state"]["house"] == single["state"]["house"] == {"net": -2375 + 1000, "commission": 125, "rake": 0}
    # and every card has its row, in order, and its own audit record with the step that followed it
    rnd = Round.objects.get(pk=int(batched.rsplit("/", 1)[1]))
    assert [e.payload["card"] for e in RoundEvent.objects.filter(round=rnd).order_by("seq")] == BANKER_WIN
    posted = AuditRecord.objects.filter(action="event.post", object_id=str(rnd.pk)).order_by("id")
    assert [r.after["seq"] for r in posted] == list(range(6))
    assert posted.last().after["next"] is None


@pytest.mark.django_db(transaction=True)  # BEGIN and COMMIT are the request's own
def test_a_batch_is_one_lock_and_one_commit(floor, dealer_api):
    url = closed_round(dealer_api, floor.table)
    with CaptureQueriesContext(connection) as queries:
        answer = dealer_api.post(f"{url}/events/batch/", {"events": [{"card": c} for c in BANKER_WIN[:4]]},
                                 format="json")
    assert answer.status_code == 201, answer.json()
    strings = [q["sql"] for q in queries if not q["sql"].startswith("PREPARE")]
    assert strings[0] == "BEGIN"
    assert strings[-1].rstrip().endswith("COMMIT")
    assert len(strings) == 3, strings


def test_a_refused_card_in_a_batch_writes_none_of_it_and_names_the_event(floor, dealer_api):
    # given a round whose betting is closed
    url = closed_round(dealer_api, floor.table)
    before = counts()
    # when the third card of the batch is impossible
    answer = dealer_api.post(f"{url}/events/batch/", {"events": [{"card": "9S"}, {"card": "KH"}, {"card": "1X"}]},
                             format="json")
    # then nothing is written, and the refusal says which of the round's events it was
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["event"] == 2
    assert counts() == before
    assert Round.objects.get(pk=int(url.rsplit("/", 1)[1])).status == "betting_closed"


def test_a_batch_needs_events_and_a_closed_betting(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    before = counts()
    assert dealer_api.post(f"{url}/events/batch/", {"events": []}, format="json").status_code == 400
    assert dealer_api.post(f"{url}/events/batch/", {"events": "AS"}, format="json").status_code == 400
    assert dealer_api.post(f"{url}/events/batch/", {"events": [{}]}, format="json").status_code == 400
    refused = dealer_api.post(f"{url}/events/batch/", {"events": [{"card": "AS"}]}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "betting_open"
    too_many = dealer_api.post(f"{url}/events/batch/", {"events": [{"card": "AS"}] * 61}, format="json")
    assert too_many.status_code == 400
    assert too_many.json()["error"]["code"] == "too_many_events"
    assert counts() == before


def test_a_retried_batch_replays_its_answer_and_writes_nothing_more(floor, dealer_api):
    url = closed_round(dealer_api, floor.table)
    body = {"events": [{"card": c} for c in BANKER_WIN[:4]]}
    first = dealer_api.post(f"{url}/events/batch/", body, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    rows = counts()
    again = dealer_api.post(f"{url}/events/batch/", body, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert counts() == rows


def test_only_the_tables_dealer_may_post_a_batch(floor, dealer_api, api):
    from tests.factories import UserFactory

    url = closed_round(dealer_api, floor.table)
    other = UserFactory(roles=["dealer"])
    api.force_authenticate(other)
    before = counts()
    answer = api.post(f"{url}/events/batch/", {"events": [{"card": "9S"}]}, format="json")
    assert answer.status_code == 403, answer.json()
    assert counts() == before


def test_close_betting_places_the_bets_it_carries_first(floor, dealer_api):
    # given an open round with one bet posted on its own
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert dealer_api.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").status_code == 201
    # when the dealer closes betting with the last two bets entered
    closed = dealer_api.post(f"{url}/close-betting/", {"bets": [{"seat": 2, "type": "player", "amount": 1000},
                                                                {"seat": 3, "type": "tie", "amount": 500}]}, format="json")
    # then the three bets play, each with its row and its audit record
    assert closed.status_code == 200, closed.json()
    assert [b["id"] for b in closed.json()["document"]["bets"]] == ["b1", "b2", "b3"]
    assert closed.json()["state"]["next"]["expect"] == "card"
    stored = Round.objects.get(pk=rnd["id"])
    assert sorted(stored.bets.values_list("client_id", flat=True)) == ["b1", "b2", "b3"]
    assert AuditRecord.objects.filter(action="bet.place").count() == 3


def test_a_refused_bet_in_close_betting_writes_nothing_and_is_named(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    before = counts()
    refused = dealer_api.post(f"{url}/close-betting/", {"bets": [{"seat": 2, "type": "player", "amount": 1000},
                                                                 {"seat": 99, "type": "tie", "amount": 500}]},
                              format="json")
    assert refused.status_code == 400, refused.json()
    assert refused.json()["error"]["field"] == "bets[1].seat"
    assert counts() == before
    assert Round.objects.get(pk=rnd["id"]).status == "open"
    over = dealer_api.post(f"{url}/close-betting/", {"bets": [{"seat": 2, "type": "player", "amount": 10**9}]},
                           format="json")
    assert over.status_code == 400
    assert over.json()["error"]["field"].startswith("bets[0]"), over.json()
    assert counts() == before
