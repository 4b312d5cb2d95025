"""Garbage at every write endpoint: always a 4xx (or a success), never a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tables.helpers import open_round

scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
field_names = st.sampled_from(["seat", "type", "amount", "id", "card", "to", "action", "hand", "bet", "table",
                               "reason", "number", "x"])
near_valid = st.dictionaries(field_names, json_values | st.sampled_from(["AS", "10h", "player", "banker", 1, 500]),
                             max_size=5)
bodies = st.one_of(json_values.map(json.dumps), near_valid.map(json.dumps),
                   st.binary(max_size=64).map(lambda b: b.decode("latin-1")))
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _post(client, url, body, content_type="application/json"):
    response = client.generic("POST", url, body, content_type=content_type)
    assert response.status_code < 500, (url, body, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    return response


@FUZZ
@given(body=bodies, which=st.sampled_from(["", "bets/", "close-betting/", "events/", "settle/", "void/",
                                           "void/approve/"]),
       content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]))
def test_round_endpoints_never_500(floor, dealer_api, body, which, content_type):
    from tables.models import LIVE_STATUSES, Round

    live = Round.objects.filter(table=floor.table, status__in=LIVE_STATUSES).first()
    rnd = live.pk if live is not None else open_round(dealer_api, floor.table)["id"]
    url = "/api/rounds/" if which == "" else f"/api/rounds/{rnd}/{which}"
    _post(dealer_api, url, body, content_type)


@FUZZ
@given(body=bodies, url=st.sampled_from(["/api/shifts/", "/api/assignments/", "/api/auth/token/",
                                         "/api/rounds/abc/bets/", "/api/rounds/-1/events/"]))
def test_floor_endpoints_never_500(floor, manager_api, body, url):
    _post(manager_api, url, body)
