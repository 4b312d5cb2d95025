"""A dealer's request costs few round trips to PostgreSQL (docs/scaling.md, "Profile of a round"): the table,
round and assignment are read under their locks in one query string, and the event's row, the round's new
state, the idempotency key and the audit record go with the COMMIT. Nothing a caller can see changes: every
row is written, a retry still replays, and a key taken by a request that committed first (a lost race, now
found at the commit) replays that request's answer."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from casino.audit.models import AuditRecord
from casino.audit.verification import audit_verify
from casino.core.models import IdempotencyRecord
from casino.idempotency import _request_hash
from tables.models import Round, RoundEvent
from tables.services import rounds
from tests.tables.helpers import BANKER_WIN, open_round

pytestmark = pytest.mark.django_db(transaction=True)


def sent(queries: Any) -> list[str]:
    """The query strings a request sent (a statement prepared once per connection is not one of a request's)."""
    return [q["sql"] for q in queries if not q["sql"].startswith("PREPARE")]


def test_a_card_post_is_three_round_trips_and_writes_everything(floor, dealer_api):
    # given a round whose betting is closed
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert dealer_api.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").status_code == 201
    assert dealer_api.post(f"{url}/close-betting/").status_code == 200
    records = AuditRecord.objects.count()
    # when the dealer posts a card
    with CaptureQueriesContext(connection) as queries:
        answer = dealer_api.post(f"{url}/events/", {"card": BANKER_WIN[0]}, format="json", HTTP_IDEMPOTENCY_KEY="c1")
    # then the answer is the round as the engine now has it
    assert answer.status_code == 201, answer.json()
    assert answer.json()["status"] == "dealing"
    assert answer.json()["document"]["events"] == [{"card": BANKER_WIN[0]}]
    assert answer.json()["table_now"] is not None
    # and the request sent BEGIN, the locks with the assignment, and the writes with the COMMIT: nothing else
    strings = sent(queries)
    assert len(strings) == 3, strings
    assert strings[0] == "BEGIN"
    assert "FOR UPDATE" in strings[1]
    assert "tables_assignment" in strings[1]
    assert strings[2].rstrip().endswith("COMMIT")
    # and every row is there: the event, the round's state and document, the key with its answer, the record
    stored = Round.objects.get(pk=rnd["id"])
    assert stored.status == "dealing"
    assert stored.document["events"] == [{"card": BANKER_WIN[0]}]
    assert stored.state == answer.json()["state"]
    assert list(RoundEvent.objects.filter(round_id=rnd["id"]).values_list("seq", "payload")) == [(0, {"card": BANKER_WIN[0]})]
    assert IdempotencyRecord.objects.get(key="c1").response_body == answer.json()
    assert AuditRecord.objects.count() == records + 1
    assert audit_verify(trigger="test", full=True).ok
    # and a retry replays the answer, writing nothing
    again = dealer_api.post(f"{url}/events/", {"card": BANKER_WIN[0]}, format="json", HTTP_IDEMPOTENCY_KEY="c1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == answer.json()
    assert RoundEvent.objects.filter(round_id=rnd["id"]).count() == 1


def test_a_key_taken_while_the_request_ran_fails_its_commit_and_replays_the_first_answer(floor, dealer_api):
    # given a round open for bets
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}/close-betting/"
    first_answer = {"first": True}
    real = rounds.betting_close

    def other_request_commits_first(**kwargs: Any) -> Any:
        # while this request runs, another with the same key and body commits (on its own connection)
        def commit_other() -> None:
            try:
                request = mock.Mock(method="POST", path=url, data={})
                IdempotencyRecord.objects.create(user=floor.dealer, key="race", method="POST", path=url,
                                                 request_hash=_request_hash(request), status_code=200,
                                                 response_body=first_answer)
            finally:
                connections.close_all()

        thread = threading.Thread(target=commit_other)
        thread.start()
        thread.join()
        return real(**kwargs)

    # when this request finishes its work and commits
    with mock.patch.object(rounds, "betting_close", side_effect=other_request_commits_first):
        answer = dealer_api.post(url, HTTP_IDEMPOTENCY_KEY="race")
    # then its commit was refused by the key's unique index: nothing it wrote stays, and the first answer is replayed
    assert answer.status_code == 200, answer.json()
    assert answer.json() == first_answer
    assert answer["Idempotent-Replayed"] == "true"
    assert Round.objects.get(pk=rnd["id"]).status == "open"
    assert not AuditRecord.objects.filter(action="round.close_betting").exists()
    assert audit_verify(trigger="test", full=True).ok
