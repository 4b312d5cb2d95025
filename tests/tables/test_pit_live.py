"""The pit dashboard's live refresh under load: a 304 with no body when nothing changed (the ETag the page and
each refresh carry), a new ETag once a round settles, and a number of statements per page and per refresh that
does not grow with the tables on the floor."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables.models import Table
from tests.factories import TableFactory, UserFactory, assign
from tests.players.helpers import BANKER_WINS, frozen_clock, play_round

# What a page and a refresh may ask the database, whatever the tables on the floor (the session and the user
# included): the figures are running rows, one statement per kind, never one per table.
PAGE_STATEMENTS = 30
REFRESH_STATEMENTS = 28
UNCHANGED_STATEMENTS = 5  # the session, the user, their roles and language, the validator


def _web(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _statements(client: Client, path: str, **headers: str) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(path, headers=headers)
    return answer, len(seen.captured_queries)


def test_a_refresh_with_nothing_changed_is_a_304_with_no_body(floor):
    with frozen_clock():
        web = _web(floor.manager)
        # given the live part as the page's first refresh brings it, with its validator
        first = web.get("/pit/live/")
        assert first.status_code == 200
        etag = first.headers["ETag"]
        assert etag.startswith('W/"')
        assert first.headers["Cache-Control"] == "private, no-cache"
        assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
        # and the page itself carries the same validator for the first refresh
        assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in web.get("/pit/").content.decode()
        # when the browser asks again with it and nothing changed
        again, statements = _statements(web, "/pit/live/", if_none_match=etag)
        # then the answer is a 304 with no body, after a handful of statements, and the same validator
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["ETag"] == etag
        assert statements <= UNCHANGED_STATEMENTS
        # and another validator (an older part) gets the whole part
        assert web.get("/pit/live/", headers={"if_none_match": 'W/"older"'}).status_code == 200


def test_after_a_round_settles_the_etag_changes(floor):
    with frozen_clock():
        web = _web(floor.manager)
        before = web.get("/pit/live/").headers["ETag"]
        # when a round settles at one of the pit's tables
        play_round(floor.table, floor.dealer, [(1, "banker", 10_000)], BANKER_WINS)
        # then the validator the browser holds is stale: the whole part comes back, with the round in it
        after = web.get("/pit/live/", headers={"if_none_match": before})
        assert after.status_code == 200
        assert after.headers["ETag"] != before
        assert 'data-field="rounds">1<' in after.content.decode()
        # and the new one answers 304 until the next change
        assert web.get("/pit/live/", headers={"if_none_match": after.headers["ETag"]}).status_code == 304


def test_another_pits_round_leaves_the_etag_as_it_was(floor):
    with frozen_clock():
        web = _web(floor.manager)
        before = web.get("/pit/live/").headers["ETag"]
        # a round at the other pit's table (its chain, not one of this pit's)
        play_round(floor.other_table, floor.other_dealer, [(1, "banker", 10_000)], BANKER_WINS)
        assert web.get("/pit/live/", headers={"if_none_match": before}).status_code == 304


def test_the_language_and_the_shift_asked_for_are_in_the_etag(floor):
    with frozen_clock():
        web = _web(floor.manager)
        english = web.get("/pit/live/").headers["ETag"]
        assert web.get(f"/pit/live/?shift={floor.shift.pk}").headers["ETag"] != english
        web.post("/language/", {"language": "es"})
        spanish = web.get("/pit/live/", headers={"if_none_match": english})
        assert spanish.status_code == 200
        assert spanish.headers["ETag"] != english


def test_statements_per_page_and_per_refresh_do_not_grow_with_the_tables(floor):
    with frozen_clock():
        # given the pit with one table that played a round
        play_round(floor.table, floor.dealer, [(1, "banker", 10_000)], BANKER_WINS)
        web = _web(floor.manager)
        web.get("/pit/")  # the session and the language settled
        _, page_one = _statements(web, "/pit/")
        _, refresh_one = _statements(web, "/pit/live/")
        # when the pit has five more tables, each with a dealer and a round played
        for n in range(5):
            table = TableFactory(code=f"BAC{n + 10}", pit=floor.pit)
            dealer = UserFactory(username=f"dealer{n + 10}", roles=["dealer"])
            assign(dealer, table, floor.shift, floor.manager)
            play_round(table, dealer, [(1, "player", 5_000)], BANKER_WINS)
        assert Table.objects.filter(pit=floor.pit).count() == 6
        page, page_six = _statements(web, "/pit/")
        refresh, refresh_six = _statements(web, "/pit/live/")
        # then the page and a refresh ask as many statements as with one table, under the stated bound
        assert page.status_code == refresh.status_code == 200
        assert page_six == page_one, (page_one, page_six)
        assert refresh_six == refresh_one, (refresh_one, refresh_six)
        assert page_six <= PAGE_STATEMENTS
        assert refresh_six <= REFRESH_STATEMENTS
