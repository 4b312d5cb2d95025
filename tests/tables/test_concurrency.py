"""Two dealers (or two retries) at once: exactly one effect, the other a clear 409."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from tables.models import Bet, Round, Settlement
from tests.fixtures import as_user
from tests.tables.helpers import BANKER_WIN, open_round


def _race(n: int, work) -> list:
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_simultaneous_settles_settle_once(floor):
    # given a complete coup
    dealer = as_user(floor.dealer)
    rnd = open_round(dealer, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    dealer.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json")
    dealer.post(f"{url}/close-betting/")
    for card in BANKER_WIN:
        dealer.post(f"{url}/events/", {"card": card}, format="json")
    clients = [as_user(floor.dealer), as_user(floor.manager), as_user(floor.dealer), as_user(floor.manager)]
    # when four settle requests arrive at once
    statuses = _race(4, lambda i: clients[i].post(f"{url}/settle/").status_code)
    # then one settled, the rest were told it was already settled
    assert sorted(statuses) == [200, 409, 409, 409]
    assert Settlement.objects.count() == 1
    assert Round.objects.get(pk=rnd["id"]).status == "settled"


@pytest.mark.django_db(transaction=True)
def test_simultaneous_retries_with_one_key_have_one_effect(floor):
    dealer = as_user(floor.dealer)
    rnd = open_round(dealer, floor.table)
    url = f"/api/rounds/{rnd['id']}/bets/"
    clients = [as_user(floor.dealer) for _ in range(4)]
    answers = _race(4, lambda i: clients[i].post(url, {"seat": 3, "type": "player", "amount": 5000},
                                                 format="json", HTTP_IDEMPOTENCY_KEY="tablet-retry-1"))
    assert {a.status_code for a in answers} == {201}
    assert Bet.objects.count() == 1
    assert len({json.dumps(a.json(), sort_keys=True) for a in answers}) == 1


@pytest.mark.django_db(transaction=True)
def test_two_dealers_opening_rounds_at_one_table_get_one_round(floor):
    clients = [as_user(floor.dealer), as_user(floor.manager)]
    statuses = _race(2, lambda i: clients[i].post("/api/rounds/", {"table": floor.table.pk}, format="json")
                     .status_code)
    assert sorted(statuses) == [201, 409]
    assert Round.objects.count() == 1
