"""The players API end to end: slips from the dealer's tablet, players, cash, exports; bad input is a 4xx."""

from __future__ import annotations

import csv
import io
import threading

import pytest
from django.db import connection

from casino.audit.models import AuditRecord
from casino.core.models import IdempotencyRecord
from players.models import BuyIn, CashTransaction, CashTransactionReport, Player, RatingSlip, SlipRating
from tests.fixtures import as_user
from tests.players.helpers import BANKER_WINS, compliance_user, make_player, play_round

SLIPS = "/api/rating-slips/"


def test_the_dealer_runs_a_slip_from_the_tablet(floor, dealer_api, clock, django_capture_on_commit_callbacks):
    # given a player with a card
    make_player(floor)
    # when the dealer seats them by card at seat 2, takes a cash buy-in, pauses, resumes and closes
    opened = dealer_api.post(
        SLIPS,
        {"table": floor.table.pk, "seat": 2, "card_number": "C1001", "estimated_average_bet": 2500},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert opened.status_code == 201, opened.json()
    slip = opened.json()
    url = f"{SLIPS}{slip['id']}"
    assert (slip["player_name"], slip["table"], slip["seat"], slip["status"]) == ("Ada Lovelace", "BAC1", 2, "open")
    bought = dealer_api.post(f"{url}/buy-ins/", {"method": "cash", "amount": 50_000}, format="json")
    assert bought.status_code == 201, bought.json()
    assert bought.json()["buy_in_cash"] == 50_000
    clock.set(1)
    play_round(floor.table, floor.dealer, [(2, "banker", 2500)], BANKER_WINS)
    clock.set(5)
    assert dealer_api.post(f"{url}/pause/").json()["status"] == "paused"
    clock.set(15)
    assert dealer_api.post(f"{url}/resume/").json()["status"] == "open"
    clock.set(20)
    with django_capture_on_commit_callbacks(execute=True):
        closed = dealer_api.post(f"{url}/close/", {"walk_with": 60_000}, format="json")
    assert closed.status_code == 200, closed.json()
    # then the answer has the figures so far (the edge was not cached when it answered)
    fig = closed.json()["figures"]
    assert (fig["active_seconds"], fig["paused_seconds"], fig["decisions"], fig["average_bet"]) == (600, 600, 1, 2500)
    assert (fig["decisions_per_hour"], fig["actual_win"]) == ("6.00", -2375)
    assert [p["ended_at"] is not None for p in closed.json()["pauses"]] == [True]
    # and the job fixed the rating: GET shows it
    again = dealer_api.get(f"{url}/").json()
    assert again["rated"] is True
    assert again["figures"]["theoretical_win"] == SlipRating.objects.get(slip_id=slip["id"]).theoretical_win == 26
    assert again["figures"]["house_edge_percent"] == "1.0579"
    # a retry of the open with the same key is the same answer and no second slip
    replay = dealer_api.post(
        SLIPS,
        {"table": floor.table.pk, "seat": 2, "card_number": "C1001", "estimated_average_bet": 2500},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert replay.status_code == 201
    assert replay.json()["id"] == slip["id"]
    assert RatingSlip.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"seat": 0}, "invalid", "seat"),
        ({"seat": 8}, "bad_seat", "seat"),  # BAC1 has 7 seats
        ({"seat": "2"}, "invalid", "seat"),
        ({"seat": 2, "estimated_average_bet": 25.5}, "invalid", "estimated_average_bet"),
        ({"seat": 2, "estimated_average_bet": 0}, "invalid", "estimated_average_bet"),
        ({"seat": 2, "player": 999_999}, "unknown_player", "player"),
        ({"seat": 2, "card_number": "NOPE"}, "unknown_card", "card_number"),
        ({"seat": 2, "player": 1, "card_number": "C1001"}, "player_ambiguous", "player"),
    ],
)
def test_a_bad_slip_is_refused_naming_the_field_and_nothing_is_written(floor, dealer_api, body, code, field):
    audits = AuditRecord.objects.count()
    response = dealer_api.post(SLIPS, {"table": floor.table.pk, **body}, format="json")
    assert 400 <= response.status_code < 500
    error = response.json()["error"]
    assert (error["code"], error.get("field")) == (code, field)
    assert RatingSlip.objects.count() == 0
    assert AuditRecord.objects.count() == audits


def test_state_refusals_are_409_and_change_nothing(floor, dealer_api):
    banned = make_player(floor, card="B1", status="banned")
    first = dealer_api.post(SLIPS, {"table": floor.table.pk, "seat": 1}, format="json").json()
    # a second slip at the same seat
    taken = dealer_api.post(SLIPS, {"table": floor.table.pk, "seat": 1}, format="json")
    assert (taken.status_code, taken.json()["error"]["code"]) == (409, "seat_taken")
    # a banned player
    refused = dealer_api.post(SLIPS, {"table": floor.table.pk, "seat": 3, "player": banned.pk}, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "player_banned")
    # resume an open slip; act on a closed one
    assert dealer_api.post(f"{SLIPS}{first['id']}/resume/").json()["error"]["code"] == "slip_not_paused"
    assert dealer_api.post(f"{SLIPS}{first['id']}/close/", {}, format="json").status_code == 200
    audits = AuditRecord.objects.count()
    for verb in ("pause", "resume", "close"):
        answer = dealer_api.post(f"{SLIPS}{first['id']}/{verb}/", {}, format="json")
        assert (answer.status_code, answer.json()["error"]["code"]) == (409, "slip_closed")
    bad = dealer_api.post(f"{SLIPS}{first['id']}/buy-ins/", {"method": "cash", "amount": 100}, format="json")
    assert (bad.status_code, bad.json()["error"]["code"]) == (409, "slip_closed")
    assert RatingSlip.objects.count() == 1
    assert BuyIn.objects.count() == 0
    assert AuditRecord.objects.count() == audits


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"method": "cash"}, "bad_amount"),
        ({"method": "cash", "amount": -5}, "invalid"),
        ({"method": "cash", "amount": "100"}, "invalid"),
        ({"method": "cheque", "amount": 100}, "invalid"),
        ({"method": "marker"}, "marker_required"),
        ({"method": "marker", "marker": 424242}, "unknown_marker"),
    ],
)
def test_a_bad_buy_in_is_refused_and_nothing_is_written(floor, dealer_api, body, code):
    slip = dealer_api.post(SLIPS, {"table": floor.table.pk, "seat": 1}, format="json").json()
    response = dealer_api.post(f"{SLIPS}{slip['id']}/buy-ins/", body, format="json")
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["code"] == code
    assert (BuyIn.objects.count(), CashTransaction.objects.count()) == (0, 0)


def test_players_are_recorded_by_pit_managers_and_compliance(floor, manager_api):
    created = manager_api.post(
        "/api/players/", {"first_name": "Grace", "last_name": "Hopper", "card_number": "G7"}, format="json"
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    doc = manager_api.post(
        f"/api/players/{pk}/documents/",
        {"kind": "passport", "number": "X123", "issuer": "US", "expires_on": "2031-05-01"},
        format="json",
    )
    assert doc.status_code == 201
    assert doc.json()["documents"][0]["number"] == "X123"
    changed = manager_api.patch(f"/api/players/{pk}/", {"status": "self_excluded"}, format="json")
    assert changed.json()["status"] == "self_excluded"
    duplicate = manager_api.post("/api/players/", {"first_name": "Other", "card_number": "G7"}, format="json")
    assert (duplicate.status_code, duplicate.json()["error"]["code"]) == (409, "card_in_use")
    nameless = manager_api.post("/api/players/", {"card_number": "G8"}, format="json")
    assert (nameless.status_code, nameless.json()["error"]["code"]) == (400, "name_required")
    assert Player.objects.count() == 1
    found = manager_api.get("/api/players/?q=hop").json()
    assert [p["name"] for p in found["results"]] == ["Grace Hopper"]
    assert list(AuditRecord.objects.filter(object_type="player").values_list("action", flat=True)) == [
        "player.create",
        "player.document_add",
        "player.update",
    ]


def test_accountants_export_ratings_as_csv(floor, clock):
    # given one closed, rated slip
    from players.edges import edges_for
    from players.services import slips

    edges_for("baccarat", floor.table.engine_config(), compute=True)
    player = make_player(floor)
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk)
    clock.set(3)
    play_round(floor.table, floor.dealer, [(1, "banker", 10_000)], BANKER_WINS)
    clock.set(30)
    slips.slip_close(actor=floor.dealer, slip_id=slip.pk)
    # when the accountant takes the ratings and comps as CSV
    accountant = as_user(floor.accountant)
    response = accountant.get("/api/players/reports/ratings/?format=csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    # then one line with the figures (theo 10,000 × 1.0579 % = 105.79 → 106), and the TOTAL row
    _preamble, header, line, total = rows  # the first row says what the report covers
    got = dict(zip(header, line))
    assert (got["Player"], got["Table"], got["Seat"], got["Minutes played"], got["Decisions"]) == (
        "Ada Lovelace",
        "BAC1",
        "1",
        "30",
        "1",
    )
    assert (got["Decisions per hour"], got["Handle (EUR)"], got["Average bet (EUR)"], got["Theoretical win (EUR)"]) == (
        "2.00",
        "100.00",
        "100.00",
        "1.06",
    )
    assert (got["Actual win (EUR)"], got["Comp value (EUR)"], got["Comp points"], got["House edge %"]) == (
        "-95.00",
        "0.31",
        "3",
        "1.0579",
    )
    assert total[0] == "TOTAL"
    comps = accountant.get("/api/players/reports/comps/?format=json").json()
    assert comps["rows"] == [
        [str(floor.shift.gaming_date), "Ada Lovelace", "C1001", "1", "30", "100.00", "1.06", "-95.00", "0.31", "3"]
    ]
    assert AuditRecord.objects.filter(action="export").count() == 2


@pytest.mark.django_db(transaction=True)
def test_simultaneous_cash_at_two_tables_makes_one_report_line(floor):
    # given a player at two tables, 6,000.00 bought in at each at the same moment (12,000.00: above)
    player = make_player(floor)
    from players.services import slips

    a = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk)
    b = slips.slip_open(actor=floor.other_dealer, table_id=floor.other_table.pk, seat=1, player_id=player.pk)
    clients = [(as_user(floor.dealer), a.pk), (as_user(floor.other_dealer), b.pk)]
    barrier = threading.Barrier(2)
    statuses = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            client, slip_id = clients[i]
            statuses.append(
                client.post(
                    f"{SLIPS}{slip_id}/buy-ins/", {"method": "cash", "amount": 600_000}, format="json"
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    # then both went through and exactly one report line and one alert were made
    assert statuses == [201, 201]
    assert CashTransactionReport.objects.count() == 1
    assert CashTransactionReport.objects.get().total == 1_200_000
    from accounting.models import Alert

    assert Alert.objects.filter(kind="cash_threshold").count() == 1


def test_a_cash_transaction_recorder_gets_the_line_back_not_the_log(floor, manager_api):
    make_player(floor)
    recorded = manager_api.post(
        "/api/cash-transactions/",
        {"kind": "buy_in", "amount": 10_000, "table": floor.table.pk, "card_number": "C1001"},
        format="json",
    )
    assert recorded.status_code == 201, recorded.json()
    assert set(recorded.json()) == {
        "id",
        "player",
        "slip",
        "direction",
        "kind",
        "amount",
        "gaming_date",
        "location",
        "recorded_at",
    }
    assert recorded.json()["location"] == "BAC1"
    other_pit = manager_api.post(
        "/api/cash-transactions/",
        {"kind": "buy_in", "amount": 10_000, "table": floor.other_table.pk, "card_number": "C1001"},
        format="json",
    )
    assert other_pit.status_code == 403
    anonymous = manager_api.post("/api/cash-transactions/", {"kind": "buy_in", "amount": 10_000}, format="json")
    assert anonymous.json()["error"]["code"] == "description_required"
    assert CashTransaction.objects.count() == 1
    # every write carries an Idempotency-Key: the one that succeeded keeps its answer (the line), the refused none
    assert list(IdempotencyRecord.objects.values_list("response_body", flat=True)) == [recorded.json()]


def test_compliance_reads_the_log_the_day_totals_and_the_report_lines(floor):
    officer = as_user(compliance_user())
    make_player(floor)
    assert (
        officer.post(
            "/api/cash-transactions/",
            {"kind": "front_money_deposit", "amount": 1_200_000, "card_number": "C1001"},
            format="json",
        ).status_code
        == 201
    )
    day = floor.shift.gaming_date
    log = officer.get(f"/api/cash-transactions/?gaming_date={day}").json()
    assert [(t["player_name"], t["amount"], t["location"]) for t in log["results"]] == [
        ("Ada Lovelace", 1_200_000, "cage")
    ]
    totals = officer.get(f"/api/cash-transactions/daily/?gaming_date={day}").json()
    assert totals == [
        {
            "player": Player.objects.get().pk,
            "name": "Ada Lovelace",
            "card_number": "C1001",
            "direction": "in",
            "total": 1_200_000,
            "transactions": 1,
        }
    ]
    lines = officer.get("/api/cash-reports/").json()["results"]
    assert [(x["player_name"], x["total"], x["direction"]) for x in lines] == [("Ada Lovelace", 1_200_000, "in")]
    exported = officer.get("/api/players/reports/cash_transactions/?format=csv")
    rows = list(csv.reader(io.StringIO(b"".join(exported.streaming_content).decode())))
    assert rows[2][3:9] == ["Ada Lovelace", "C1001", "", "Cash in", "Front money deposited", "12000.00"]
    xlsx = officer.get("/api/players/reports/cash_reports/?format=xlsx")
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    bad = officer.get("/api/cash-transactions/daily/")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "missing_parameter")
