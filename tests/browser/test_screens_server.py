"""The screens without a browser: who lands where, who may see what (and the 403s), pages render."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.money import money_words
from casino.core.roles import Role
from floor.templatetags.croupier import accounting_home
from tables.models import Round
from tables.services import rounds
from tests.factories import TableFactory, UserFactory
from tests.tables.helpers import BANKER_WIN


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_anonymous_goes_to_the_login_page(floor):
    for path in ("/", "/dealer/", "/dealer/BAC1/", "/pit/", "/pit/live/", "/pit/tables/BAC1/", "/reports/"):
        response = Client().get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/login/?next="), path


def test_a_dashboard_poll_after_the_session_ended_sends_the_page_to_sign_in(floor):
    response = Client().get("/pit/live/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Redirect"] == "/login/?next=/pit/"


def test_login_page_has_labelled_fields(floor):
    body = Client().get("/login/").content.decode()
    assert '<label for="id_username">Username</label>' in body
    assert '<label for="id_password">Password</label>' in body


def test_signing_in_with_the_form_lands_on_the_roles_home(floor):
    client = Client()
    response = client.post("/login/", {"username": "dealer", "password": "pass"})
    assert response.status_code == 302
    assert client.get(response["Location"])["Location"] == "/dealer/"


@pytest.mark.parametrize(
    ("who", "home"),
    [
        ("dealer", "/dealer/"),
        ("manager", "/pit/"),
        ("admin", "/pit/"),
        ("accountant", "/reports/"),
        ("auditor", "/audit/"),
    ],
)
def test_each_role_lands_on_its_screen(floor, who, home):
    if home == "/reports/":  # the accounting pages once installed, else the screens' list of report downloads
        home = accounting_home() or home
    response = signed_in(getattr(floor, who)).get("/")
    assert response.status_code == 302
    assert response["Location"] == home


def test_a_user_without_a_role_is_told_so(floor):
    response = signed_in(floor.nobody).get("/")
    assert response.status_code == 200
    assert "has no role" in response.content.decode()


def test_the_dealer_screen_opens_on_the_dealers_own_table_only(floor):
    client = signed_in(floor.dealer)
    assert client.get("/dealer/")["Location"] == "/dealer/BAC1/"
    page = client.get("/dealer/BAC1/")
    assert page.status_code == 200
    assert page.context["boot"]["table"]["code"] == "BAC1"
    assert page.context["boot"]["chips"] == [100, 500, 2500, 10000, 50000, 100000, 500000]
    assert [t["type"] for t in page.context["boot"]["bet_types"]] == [
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
    ]
    # another dealer's table is refused, saying why
    other = client.get("/dealer/BAC2/")
    assert other.status_code == 403
    assert "not assigned to table BAC2" in other.content.decode()


def test_a_dealer_with_no_assignment_is_told_so(floor):
    free = UserFactory(username="spare", roles=[Role.DEALER])
    page = signed_in(free).get("/dealer/")
    assert page.status_code == 200
    assert "not assigned to a table" in page.content.decode()


@pytest.mark.parametrize("who", ["dealer", "accountant", "auditor", "nobody"])
def test_only_pit_managers_see_the_dashboard(floor, who):
    client = signed_in(getattr(floor, who))
    assert client.get("/pit/").status_code == 403
    assert client.get("/pit/live/").status_code == 403


def test_the_dashboard_shows_each_table_of_the_managers_pits_and_no_other(floor):
    # given a settled baccarat round at BAC1: banker 25.00 wins (house −23.75), player 10.00 loses
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=2500)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=2, type="player", amount=1000)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in BANKER_WIN:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)
    # when the pit manager looks
    page = signed_in(floor.manager).get("/pit/live/")
    # then BAC1 only, with the rounds' win and the hold of the handle
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [r.table.code for r in rows] == ["BAC1"]
    row = rows[0]
    assert (row.rounds, row.handle, row.win, row.win_basis, row.hold_basis, row.dealer) == (
        1,
        3500,
        -1375,
        "rounds",
        "handle",
        "dealer",
    )
    body = page.content.decode()
    assert f'<dd data-field="win">{money_words(-1375)}</dd>' in body
    assert '<dd data-field="hold">-39.29 %</dd>' in body  # −1375 / 3500 = −39.2857… %
    assert page.context["charts"]["by_table"] == [
        {"table": "BAC1", "win": -1375, "handle": 3500, "rounds": 1, "hold_pct": -39.29, "hold_basis": "handle"}
    ]
    assert sum(h["win"] for h in page.context["charts"]["by_hour"]) == -1375


def test_table_history_and_round_trail(floor):
    # given a round with an undone card
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="player", amount=1000)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": "9S"})
    rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": "KH"})
    rounds.event_undo(round_id=rnd.pk, actor=floor.dealer, approver=floor.manager)
    client = signed_in(floor.manager)
    # then the table page lists it and the trail shows each event, the undone one with who approved
    history = client.get("/pit/tables/BAC1/")
    assert history.status_code == 200
    assert f'href="/pit/rounds/{rnd.pk}/"' in history.content.decode()
    trail = client.get(f"/pit/rounds/{rnd.pk}/")
    assert trail.status_code == 200
    steps = trail.context["trail"].steps
    assert [(s.event.payload, s.event.undone_at is not None) for s in steps] == [
        ({"card": "9S"}, False),
        ({"card": "KH"}, True),
    ]
    assert steps[0].state["next"]["say"] == "Deal card 2 to the banker"
    body = trail.content.decode()
    assert "approved by pm" in body
    assert [r.action for r in trail.context["trail"].audit] == [
        "round.open",
        "bet.place",
        "round.close_betting",
        "event.post",
        "event.post",
        "event.undo",
    ]
    # and a pit manager of another pit, or a dealer, may not look
    assert signed_in(floor.other_manager).get("/pit/tables/BAC1/").status_code == 403
    assert signed_in(floor.other_manager).get(f"/pit/rounds/{rnd.pk}/").status_code == 403
    assert signed_in(floor.dealer).get(f"/pit/rounds/{rnd.pk}/").status_code == 403
    assert signed_in(floor.auditor).get(f"/pit/rounds/{rnd.pk}/").status_code == 200


def test_the_dealer_screen_boots_with_the_live_round(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    page = signed_in(floor.dealer).get("/dealer/BAC1/")
    assert page.context["boot"]["round"]["id"] == rnd.pk
    assert page.context["boot"]["round"]["status"] == "open"
    assert Round.objects.count() == 1


def test_a_triangle_deck_table_gets_the_triangle_keypad(floor):
    table = TableFactory(code="CAR1", pit=floor.pit, game="carousel", config={"limit": 100}, min_bet=100, max_bet=100)
    page = signed_in(floor.manager).get("/dealer/CAR1/")
    assert page.status_code == 200
    assert page.context["boot"]["deck"] == "triangle"
    assert page.context["boot"]["table"]["id"] == table.pk
