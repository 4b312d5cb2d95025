"""The card room's score sheets, tournaments, rake and entry fees, end to end through the API (cardroom/)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from accounting.models import Account, Entry, LedgerTransaction
from cardroom.models import (
    PLAYER_NAME_MAX,
    SIDE_NAME_MAX,
    ScoreSheet,
    SheetDeal,
    SheetRake,
    Tournament,
    TournamentEntry,
    TournamentPayout,
)
from casino.audit.models import AuditRecord
from tables.scoring.registry import all_games
from tests.fixtures import as_user

FOUR = ["ann", "bob", "cy", "dee"]
SHEETS = "/api/cardroom/sheets/"


def hearts(**taken) -> dict:
    return {"entry": {"taken": taken}}


def open_sheet(client, table, *, game="hearts", players=FOUR, config=None, **more) -> dict:
    body = {"table": table.pk, "game": game, "players": players, **more}
    if config is not None:
        body["config"] = config
    response = client.post(SHEETS, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def balances() -> dict[str, int]:
    out: dict[str, int] = {}
    for e in Entry.objects.select_related("account"):
        out[e.account.code] = out.get(e.account.code, 0) + e.amount
    return {k: v for k, v in out.items() if v}


def unchanged(sheet_id: int) -> tuple:
    s = ScoreSheet.objects.get(pk=sheet_id)
    return (
        s.status,
        s.deals,
        s.entries,
        s.totals,
        s.winner,
        SheetDeal.objects.count(),
        AuditRecord.objects.count(),
        LedgerTransaction.objects.count(),
    )


# -- a sheet through the game ---------------------------------------------------------------------


def test_a_game_of_hearts_to_100_as_the_tables_dealer(floor, dealer_api):
    # given a Hearts sheet at the dealer's table
    sheet = open_sheet(dealer_api, floor.table)
    assert (sheet["status"], sheet["totals"]) == ("open", dict.fromkeys(FOUR, 0))
    url = f"{SHEETS}{sheet['id']}"
    # when eight deals are entered: bob takes 13 hearts, cy the queen, seven times; then bob 10, ann 3, dee the queen
    for _ in range(7):
        answer = dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 13}, cy={"queen": True}), format="json")
        assert answer.status_code == 201, answer.json()
    assert answer.json()["totals"] == {"ann": 0, "bob": 91, "cy": 91, "dee": 0}
    assert answer.json()["status"] == "open"
    last = dealer_api.post(
        f"{url}/deals/", hearts(bob={"hearts": 10}, ann={"hearts": 3}, dee={"queen": True}), format="json"
    )
    # then bob's 101 ends the game and ann, lowest, wins
    assert last.status_code == 201
    done = last.json()
    assert done["totals"] == {"ann": 3, "bob": 101, "cy": 91, "dee": 13}
    assert (done["status"], done["winner"], done["deals"], done["entries"]) == ("finished", "ann", 8, 8)
    assert done["state"]["deals"][7]["points"] == {"ann": 3, "bob": 10, "cy": 0, "dee": 13}
    stored = ScoreSheet.objects.get(pk=sheet["id"])
    assert stored.ended_at is not None
    assert list(SheetDeal.objects.filter(sheet=stored).values_list("deal", flat=True)) == list(range(8))
    actions = list(AuditRecord.objects.filter(chain="table:BAC1").values_list("action", flat=True))
    assert actions == ["sheet.open"] + ["sheet.deal"] * 8
    # and nothing more can be entered
    more = dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 13}, cy={"queen": True}), format="json")
    assert more.status_code == 409
    assert more.json()["error"]["code"] == "sheet_not_open"


def test_a_deal_that_does_not_account_for_the_pack_is_refused_and_nothing_is_written(floor, dealer_api):
    # given a sheet with one deal
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(ann={"hearts": 13}, bob={"queen": True}), format="json")
    before = unchanged(sheet["id"])
    # when a deal with 12 hearts is entered
    answer = dealer_api.post(f"{url}/deals/", hearts(ann={"hearts": 12}, bob={"queen": True}), format="json")
    # then it is a 400 naming the problem, the field and the deal, and nothing changed
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "code": "hearts_unaccounted",
        "event": 1,
        "field": "taken",
        "message": "Deal 2: The players took 12 hearts: all 13 must be accounted for",  # in the reader's words
        "params": {"n": 12, "high": 13},
        "request_id": answer["X-Request-ID"],
    }
    assert unchanged(sheet["id"]) == before
    # and a malformed body is a 400 too
    bad = dealer_api.post(f"{url}/deals/", {"entry": [1, 2]}, format="json")
    assert bad.status_code == 400
    assert unchanged(sheet["id"]) == before


def test_preview_scores_without_writing(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table)
    before = unchanged(sheet["id"])
    answer = dealer_api.post(
        f"{SHEETS}{sheet['id']}/preview/", hearts(bob={"hearts": 13, "queen": True}), format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["deal"]["points"] == {"ann": 26, "bob": 0, "cy": 26, "dee": 26}
    assert unchanged(sheet["id"]) == before


def test_one_sheet_at_a_time_per_table(floor, dealer_api):
    open_sheet(dealer_api, floor.table)
    again = dealer_api.post(SHEETS, {"table": floor.table.pk, "game": "hearts", "players": FOUR}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "sheet_in_progress"
    assert ScoreSheet.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"game": "chess", "players": FOUR}, "unknown_game", "game"),
        ({"game": "hearts", "players": ["ann", "bob"]}, "bad_players", "players"),
        ({"game": "hearts", "players": ["ann", "ann", "bob"]}, "bad_players", "players"),
        ({"game": "hearts", "players": FOUR, "config": {"game_to": "100"}}, "bad_config", "config.game_to"),
        ({"game": "hearts", "players": FOUR, "config": {"jokers": 2}}, "unknown_setting", "config.jokers"),
    ],
)
def test_opening_a_sheet_checks_the_game_players_and_settings(floor, dealer_api, body, code, field):
    audits = AuditRecord.objects.count()
    answer = dealer_api.post(SHEETS, {"table": floor.table.pk, **body}, format="json")
    assert answer.status_code == 400
    assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == (code, field)
    assert ScoreSheet.objects.count() == 0
    assert AuditRecord.objects.count() == audits


def test_a_retried_deal_with_the_same_key_is_recorded_once(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}/deals/"
    body = hearts(ann={"hearts": 13}, bob={"queen": True})
    first = dealer_api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    again = dealer_api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert SheetDeal.objects.count() == 1
    assert ScoreSheet.objects.get(pk=sheet["id"]).totals == {"ann": 13, "bob": 13, "cy": 0, "dee": 0}
    other = dealer_api.post(
        url, hearts(cy={"hearts": 13}, bob={"queen": True}), format="json", HTTP_IDEMPOTENCY_KEY="deal-1"
    )
    assert other.status_code == 409
    assert SheetDeal.objects.count() == 1


# -- corrections ------------------------------------------------------------------------------------


def test_a_correction_supersedes_the_entry_and_the_sheet_is_replayed(floor, dealer_api):
    # given two deals, the first entered wrongly (ann and bob swapped)
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(ann={"hearts": 10}, bob={"hearts": 3, "queen": True}), format="json")
    dealer_api.post(f"{url}/deals/", hearts(cy={"hearts": 13}, dee={"queen": True}), format="json")
    # when the dealer corrects deal 0
    answer = dealer_api.post(
        f"{url}/corrections/",
        {
            "deal": 0,
            "entry": {"taken": {"bob": {"hearts": 10}, "ann": {"hearts": 3, "queen": True}}},
            "reason": "ann and bob swapped",
        },
        format="json",
    )
    # then the totals are replayed, the old entry stays in the log, superseded
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["totals"] == {"ann": 16, "bob": 10, "cy": 13, "dee": 13}
    assert (body["deals"], body["entries"]) == (2, 3)
    log = body["log"]
    assert [(e["seq"], e["deal"], e["in_force"], e["corrects"]) for e in log] == [
        (0, 0, False, None),
        (1, 1, True, None),
        (2, 0, True, 0),
    ]
    assert log[2]["reason"] == "ann and bob swapped"
    assert log[0]["points"] == {"ann": 10, "bob": 16, "cy": 0, "dee": 0}  # what it scored when entered
    audit = AuditRecord.objects.get(action="sheet.correct")
    assert audit.before["points"] == {"ann": 10, "bob": 16, "cy": 0, "dee": 0}
    assert audit.after["points"] == {"ann": 16, "bob": 10, "cy": 0, "dee": 0}
    assert audit.after["reason"] == "ann and bob swapped"


def test_a_correction_needs_a_reason_a_valid_entry_and_an_existing_deal(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(ann={"hearts": 13}, bob={"queen": True}), format="json")
    before = unchanged(sheet["id"])
    good = {"taken": {"ann": {"hearts": 12}, "cy": {"hearts": 1}, "bob": {"queen": True}}}
    for body, status, code in (
        ({"deal": 0, "entry": good, "reason": "  "}, 400, "invalid"),
        ({"deal": 0, "entry": {"taken": {"ann": {"hearts": 1}}}, "reason": "typo"}, 400, "hearts_unaccounted"),
        ({"deal": 5, "entry": good, "reason": "typo"}, 404, "unknown_deal"),
    ):
        answer = dealer_api.post(f"{url}/corrections/", body, format="json")
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
        assert unchanged(sheet["id"]) == before


def test_after_the_game_ends_only_a_pit_manager_corrects_and_the_winner_follows(floor, dealer_api, manager_api):
    # given a game to 26 that ann won: bob took 26
    sheet = open_sheet(dealer_api, floor.table, config={"game_to": 26, "moon": "none"})
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 13, "queen": True}), format="json")
    dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 1}, cy={"hearts": 12}, dee={"queen": True}), format="json")
    assert ScoreSheet.objects.get(pk=sheet["id"]).winner == "ann"
    fix = {"deal": 0, "entry": {"taken": {"bob": {"hearts": 13}, "ann": {"queen": True}}}, "reason": "queen was ann's"}
    before = unchanged(sheet["id"])
    # when the dealer tries to correct: 403, nothing changed
    denied = dealer_api.post(f"{url}/corrections/", fix, format="json")
    assert denied.status_code == 403
    assert unchanged(sheet["id"]) == before
    # when the pit manager does: the sheet is replayed, bob's 14 no longer ends the game … ann 13, cy 12, dee 13
    answer = manager_api.post(f"{url}/corrections/", fix, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["totals"] == {"ann": 13, "bob": 14, "cy": 12, "dee": 13}
    assert (answer.json()["status"], answer.json()["winner"]) == ("open", "")
    assert ScoreSheet.objects.get(pk=sheet["id"]).ended_at is None


def test_a_correction_that_would_end_the_game_before_later_deals_is_refused(floor, dealer_api):
    # given a game to 23 with two deals, neither reaching it
    sheet = open_sheet(dealer_api, floor.table, config={"game_to": 23})
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 12}, cy={"hearts": 1}, dee={"queen": True}), format="json")
    dealer_api.post(f"{url}/deals/", hearts(bob={"hearts": 5}, ann={"hearts": 8}, cy={"queen": True}), format="json")
    assert ScoreSheet.objects.get(pk=sheet["id"]).totals == {"ann": 8, "bob": 17, "cy": 14, "dee": 13}
    before = unchanged(sheet["id"])
    # when deal 0 is corrected so that bob reaches 23 there (and dee, on 0, would have won)
    fix = {"taken": {"bob": {"hearts": 10, "queen": True}, "ann": {"hearts": 1}, "cy": {"hearts": 2}}}
    answer = dealer_api.post(f"{url}/corrections/", {"deal": 0, "entry": fix, "reason": "miscounted"}, format="json")
    # then the replay refuses deal 1, and nothing changed
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "game_over"
    assert answer.json()["error"]["event"] == 1
    assert unchanged(sheet["id"]) == before


def test_deal_entries_are_append_only_in_the_database(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table)
    dealer_api.post(f"{SHEETS}{sheet['id']}/deals/", hearts(ann={"hearts": 13}, bob={"queen": True}), format="json")
    row = SheetDeal.objects.get()
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE cardroom_sheetdeal SET entry = '{}' WHERE id = %s", [row.pk])
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("DELETE FROM cardroom_sheetdeal WHERE id = %s", [row.pk])
    assert SheetDeal.objects.get().entry == row.entry


# -- who may ----------------------------------------------------------------------------------------


def test_roles_decide_who_scores_and_who_reads(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}"
    deal = hearts(ann={"hearts": 13}, bob={"queen": True})
    before = unchanged(sheet["id"])
    # a dealer of another table, the other pit's manager, an accountant, an auditor and nobody cannot enter a deal
    for user in (floor.other_dealer, floor.other_manager, floor.accountant, floor.auditor, floor.nobody):
        assert as_user(user).post(f"{url}/deals/", deal, format="json").status_code == 403, user.username
    assert unchanged(sheet["id"]) == before
    # nor open a sheet at this table
    for user in (floor.other_dealer, floor.accountant):
        answer = as_user(user).post(SHEETS, {"table": floor.table.pk, "game": "hearts", "players": FOUR}, format="json")
        assert answer.status_code == 403
    # the accountant and the auditor read every sheet; the other dealer sees none of this table's
    for user in (floor.accountant, floor.auditor, floor.manager):
        assert as_user(user).get(f"{url}/").status_code == 200
        assert [s["id"] for s in as_user(user).get(SHEETS).json()["results"]] == [sheet["id"]]
    assert as_user(floor.other_dealer).get(f"{url}/").status_code == 404
    assert as_user(floor.other_dealer).get(SHEETS).json()["results"] == []
    assert as_user(floor.nobody).get(SHEETS).status_code == 403
    # the table's pit manager enters deals
    assert as_user(floor.manager).post(f"{url}/deals/", deal, format="json").status_code == 201


# -- closing, rake --------------------------------------------------------------------------------------


def test_closing_a_chips_game_names_the_player_ahead(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table, config={"settlement": "chips"})
    url = f"{SHEETS}{sheet['id']}"
    dealer_api.post(f"{url}/deals/", hearts(bob=5, cy=8, dee={"queen": True}), format="json")
    answer = dealer_api.post(f"{url}/close/", {"reason": "players stop"}, format="json")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["status"], body["winner"], body["close_reason"]) == ("closed", "ann", "players stop")
    assert body["totals"] == {"ann": -26, "bob": 5, "cy": 8, "dee": 13}
    assert dealer_api.post(f"{url}/close/", {}, format="json").status_code == 409


def test_rake_is_posted_to_the_ledger_once(floor, dealer_api):
    # given a sheet
    sheet = open_sheet(dealer_api, floor.table)
    url = f"{SHEETS}{sheet['id']}"
    # when the dealer takes 500 of rake
    answer = dealer_api.post(
        f"{url}/rake/", {"amount": 500, "memo": "time charge"}, format="json", HTTP_IDEMPOTENCY_KEY="rake-1"
    )
    dealer_api.post(
        f"{url}/rake/", {"amount": 500, "memo": "time charge"}, format="json", HTTP_IDEMPOTENCY_KEY="rake-1"
    )
    # then one record, one balanced transaction: the desk +500, the table's card-room rake −500
    assert answer.status_code == 201
    rake = SheetRake.objects.get()
    txn = LedgerTransaction.objects.get(source_type="cardroom_rake", source_id=str(rake.pk))
    assert {e.account.code: e.amount for e in txn.entries.select_related("account")} == {
        "cardroom:desk": 500,
        "cardroom:table:BAC1:rake": -500,
    }
    assert (txn.kind, txn.table_id, txn.shift_id) == ("cardroom_rake", floor.table.pk, floor.shift.pk)
    assert Account.objects.get(code="cardroom:table:BAC1:rake").kind == "revenue"
    assert AuditRecord.objects.filter(action="sheet.rake").count() == 1
    # and a bad amount is refused, nothing written
    before = unchanged(sheet["id"])
    for amount in (0, -5, 2.5, "500"):
        assert dealer_api.post(f"{url}/rake/", {"amount": amount}, format="json").status_code == 400
    assert as_user(floor.accountant).post(f"{url}/rake/", {"amount": 5}, format="json").status_code == 403
    assert unchanged(sheet["id"]) == before


# -- the other games through the service ---------------------------------------------------------------


def test_carousel_rummy_through_the_api_with_the_game_and_box_bonuses(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table, game="carousel_rummy", players=["ann", "bob", "cy"])
    url = f"{SHEETS}{sheet['id']}/deals/"
    ann_wins = {"entry": {"knocker": "ann", "hands": {"ann": [], "bob": ["KS", "QS", "JS"], "cy": ["5H"]}}}
    bob_wins = {"entry": {"knocker": "bob", "hands": {"ann": ["KD", "5D"], "bob": ["2C"], "cy": ["7C"]}}}
    for body in (ann_wins, ann_wins, bob_wins, ann_wins):
        answer = dealer_api.post(url, body, format="json")
        assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["totals"] == {"ann": 355, "bob": 43, "cy": 0}
    assert (body["status"], body["winner"]) == ("finished", "ann")
    assert body["state"]["state"] == {"hands_won": {"ann": 3, "bob": 1, "cy": 0}}
    # a knock on 7 is refused with the field
    sheet2 = open_sheet(as_user(floor.other_dealer), floor.other_table, game="carousel_rummy", players=["a", "b"])
    bad = as_user(floor.other_dealer).post(
        f"{SHEETS}{sheet2['id']}/deals/",
        {"entry": {"knocker": "a", "hands": {"a": ["7C"], "b": ["KS"]}}},
        format="json",
    )
    assert (bad.status_code, bad.json()["error"]["code"], bad.json()["error"]["field"]) == (
        400,
        "cannot_knock",
        "knocker",
    )


def test_crazy_casino_through_the_api(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table, game="crazy_casino", players=["ann", "bob"], config={"hands": 2})
    url = f"{SHEETS}{sheet['id']}/deals/"
    deal = {
        "entry": {
            "captured": {
                "ann": {"count": 30, "spades": 8, "aces": 3, "big_casino": True, "little_casino": False, "sweeps": 2},
                "bob": {"count": 22, "spades": 5, "aces": 1, "big_casino": False, "little_casino": True, "sweeps": 1},
            }
        }
    }
    dealer_api.post(url, deal, format="json")
    answer = dealer_api.post(url, deal, format="json")
    assert answer.json()["totals"] == {"ann": 22, "bob": 6}
    assert answer.json()["winner"] == "ann"


def test_the_games_and_their_checks(floor, dealer_api):
    games = {g["game"]: g for g in dealer_api.get("/api/cardroom/games/").json()}
    assert {
        "hearts",
        "omnibus_hearts",
        "cancellation_hearts",
        "domino_hearts",
        "auction_hearts",
        "carousel_rummy",
        "crazy_casino",
    } <= set(games)
    assert games["carousel_rummy"]["checks"] == ["meld", "table"]
    meld = dealer_api.post(
        "/api/cardroom/games/carousel_rummy/checks/meld/", {"melds": [["KS", "AS", "2S"]]}, format="json"
    )
    assert meld.status_code == 200
    assert meld.json()["melds"][0]["reason"] == "an ace may start or end a sequence, not be in its middle"
    build = dealer_api.post(
        "/api/cardroom/games/crazy_casino/checks/build/", {"items": ["9H", "4D", "6S"], "match": "7H"}, format="json"
    )
    assert build.json()["valid"] is True
    assert dealer_api.post("/api/cardroom/games/hearts/checks/meld/", {}, format="json").status_code == 404
    assert dealer_api.post("/api/cardroom/games/chess/checks/meld/", {}, format="json").status_code == 400
    bad = dealer_api.post("/api/cardroom/games/crazy_casino/checks/build/", {"items": ["ZZ"]}, format="json")
    assert (bad.status_code, bad.json()["error"]["field"]) == (400, "items[0]")
    assert (
        as_user(floor.accountant)
        .post("/api/cardroom/games/crazy_casino/checks/build/", {"items": ["9H"]}, format="json")
        .status_code
        == 403
    )


# -- tournaments -----------------------------------------------------------------------------------------


def make_tournament(client, floor, **more) -> dict:
    body = {
        "name": "Friday hearts",
        "pit": floor.pit.pk,
        "game": "hearts",
        "entry_fee": 10_000,
        "house_fee": 1_500,
        "config": {"game_to": 26, "moon": "none"},
        **more,
    }
    answer = client.post("/api/cardroom/tournaments/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_tournament_entries_sheets_standings_and_prizes(floor, dealer_api, manager_api):
    # given a tournament with four entries at 100.00 + 15.00
    t = make_tournament(manager_api, floor)
    url = f"/api/cardroom/tournaments/{t['id']}"
    for p in FOUR:
        assert manager_api.post(f"{url}/entries/", {"player": p}, format="json").status_code == 201
    # then each entry posted 11,500: 10,000 to the prize pool, 1,500 to house fees
    assert balances() == {
        "cardroom:desk": 46_000,
        f"cardroom:tournament:{t['id']}:prizes": -40_000,
        f"cardroom:tournament:{t['id']}:fees": -6_000,
    }
    again = manager_api.post(f"{url}/entries/", {"player": "ann"}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_entered")
    # when it starts, the dealer opens a sheet in it and plays it out: ann wins
    assert manager_api.post(f"{url}/start/", format="json").json()["status"] == "running"
    assert manager_api.post(f"{url}/entries/", {"player": "eve"}, format="json").status_code == 409
    stranger = dealer_api.post(
        SHEETS, {"table": floor.table.pk, "players": ["ann", "bob", "cy", "zed"], "tournament": t["id"]}, format="json"
    )
    assert (stranger.status_code, stranger.json()["error"]["field"]) == (400, "players")
    sheet = open_sheet(dealer_api, floor.table, game="hearts", players=FOUR, tournament=t["id"])
    assert sheet["config"] == {"game_to": 26, "moon": "none", "settlement": "sheet"}
    dealer_api.post(f"{SHEETS}{sheet['id']}/deals/", hearts(bob={"hearts": 13}, cy={"queen": True}), format="json")
    done = dealer_api.post(
        f"{SHEETS}{sheet['id']}/deals/", hearts(bob={"hearts": 13}, dee={"queen": True}), format="json"
    ).json()
    assert (done["winner"], done["totals"]) == ("ann", {"ann": 0, "bob": 26, "cy": 13, "dee": 13})
    standings = manager_api.get(f"{url}/").json()["detail"]["standings"]
    assert [(r["place"], r["player"], r["wins"], r["points"], r["sheets"]) for r in standings] == [
        (1, "ann", 1, 0, 1),
        (2, "cy", 0, 13, 1),
        (2, "dee", 0, 13, 1),
        (4, "bob", 0, 26, 1),
    ]
    # when the prizes do not share out the pool, nothing is paid
    short = manager_api.post(f"{url}/finish/", {"payouts": [{"player": "ann", "amount": 30_000}]}, format="json")
    assert (short.status_code, short.json()["error"]["code"]) == (400, "prizes_not_pool")
    assert TournamentPayout.objects.count() == 0
    # when they do, the prize pool is paid out in one transaction
    paid = manager_api.post(
        f"{url}/finish/",
        {"payouts": [{"player": "ann", "amount": 28_000}, {"player": "cy", "amount": 12_000}]},
        format="json",
    )
    assert paid.status_code == 200, paid.json()
    assert paid.json()["status"] == "finished"
    assert paid.json()["detail"]["payouts"] == [
        {"place": 1, "player": "ann", "amount": 28_000},
        {"place": 2, "player": "cy", "amount": 12_000},
    ]
    assert balances() == {"cardroom:desk": 6_000, f"cardroom:tournament:{t['id']}:fees": -6_000}
    actions = list(
        AuditRecord.objects.filter(chain="casino", action__startswith="tournament.").values_list("action", flat=True)
    )
    assert actions == ["tournament.create"] + ["tournament.register"] * 4 + ["tournament.start", "tournament.finish"]
    # and its sheets are final now
    fix = manager_api.post(
        f"{SHEETS}{sheet['id']}/corrections/",
        {"deal": 0, "entry": {"taken": {"bob": {"hearts": 13}, "dee": {"queen": True}}}, "reason": "late"},
        format="json",
    )
    assert (fix.status_code, fix.json()["error"]["code"]) == (409, "tournament_ended")


def standings_of(client, url: str) -> list[tuple]:
    rows = client.get(f"{url}/").json()["detail"]["standings"]
    return [(r["place"], r["player"], r["wins"], r["points"], r["sheets"]) for r in rows]


def test_standings_rank_what_was_played_and_list_entrants_still_to_play_unplaced(
    floor, dealer_api, manager_api, client
):
    # given a Hearts tournament (lowest wins) with six entries, four of them seated at the first sheet
    t = make_tournament(manager_api, floor, entry_fee=0, house_fee=0)
    url = f"/api/cardroom/tournaments/{t['id']}"
    for p in ("fay", *FOUR, "eve"):
        assert manager_api.post(f"{url}/entries/", {"player": p}, format="json").status_code == 201
    assert manager_api.post(f"{url}/start/", format="json").status_code == 200
    first = open_sheet(dealer_api, floor.table, players=FOUR, tournament=t["id"])
    dealer_api.post(f"{SHEETS}{first['id']}/deals/", hearts(bob={"hearts": 13}, cy={"queen": True}), format="json")
    done = dealer_api.post(
        f"{SHEETS}{first['id']}/deals/", hearts(bob={"hearts": 13}, dee={"queen": True}), format="json"
    ).json()
    assert (done["status"], done["winner"]) == ("finished", "ann")
    # when the standings are read
    # then the four who played are ranked; eve and fay, on no sheet yet, follow unplaced (their 0 would
    # otherwise have put them second, ahead of everyone who took a point)
    assert standings_of(manager_api, url) == [
        (1, "ann", 1, 0, 1),
        (2, "cy", 0, 13, 1),
        (2, "dee", 0, 13, 1),
        (4, "bob", 0, 26, 1),
        (None, "eve", 0, 0, 0),
        (None, "fay", 0, 0, 0),
    ]
    client.force_login(floor.manager)
    page = client.get(f"/cardroom/tournaments/{t['id']}/").content.decode()
    assert '<tr><td class="num">—</td><th scope="row">eve</th>' in page
    # when eve and fay sit down with ann and a deal is entered (the sheet in progress counts)
    second = open_sheet(dealer_api, floor.table, players=["eve", "fay", "ann"], tournament=t["id"])
    answer = dealer_api.post(
        f"{SHEETS}{second['id']}/deals/", hearts(eve={"hearts": 13}, fay={"queen": True}), format="json"
    )
    assert answer.status_code == 201, answer.json()
    # then they are ranked with the others
    assert standings_of(manager_api, url) == [
        (1, "ann", 1, 0, 2),
        (2, "cy", 0, 13, 1),
        (2, "dee", 0, 13, 1),
        (2, "eve", 0, 13, 1),
        (2, "fay", 0, 13, 1),
        (6, "bob", 0, 26, 1),
    ]


def test_every_games_longest_side_fits_a_sheets_winner():
    # given every registered game, seated with as many players as it takes, each name as long as allowed
    longest = ScoreSheet._meta.get_field("winner").max_length
    assert longest == SIDE_NAME_MAX == 126
    for name, game in all_games().items():
        for n in range(game.min_players, game.max_players + 1):
            players = [chr(ord("a") + i) * PLAYER_NAME_MAX for i in range(n)]
            # when its sides are named
            sides = game.sides(players, game.resolve_config(None))
            # then the longest side's name fits the sheet's winner
            assert max(map(len, sides)) <= longest, (name, n)


def test_a_cancelled_tournament_refunds_every_entry(floor, manager_api):
    t = make_tournament(manager_api, floor)
    url = f"/api/cardroom/tournaments/{t['id']}"
    for p in ("ann", "bob"):
        manager_api.post(f"{url}/entries/", {"player": p}, format="json")
    assert manager_api.post(f"{url}/cancel/", {"reason": ""}, format="json").status_code == 400
    answer = manager_api.post(f"{url}/cancel/", {"reason": "not enough players"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["status"] == "cancelled"
    assert balances() == {}
    assert LedgerTransaction.objects.filter(kind="reversal").count() == 2
    assert TournamentEntry.objects.count() == 2  # the entries stay; their money went back
    assert manager_api.post(f"{url}/cancel/", {"reason": "again"}, format="json").status_code == 409


def test_tournaments_are_run_by_the_pits_managers(floor, dealer_api, manager_api):
    body = {"name": "x", "pit": floor.pit.pk, "game": "hearts", "entry_fee": 100}
    for user in (floor.dealer, floor.accountant, floor.other_manager):
        assert as_user(user).post("/api/cardroom/tournaments/", body, format="json").status_code == 403
    assert Tournament.objects.count() == 0
    t = make_tournament(manager_api, floor)
    url = f"/api/cardroom/tournaments/{t['id']}"
    assert as_user(floor.other_manager).post(f"{url}/entries/", {"player": "ann"}, format="json").status_code == 403
    assert dealer_api.post(f"{url}/entries/", {"player": "ann"}, format="json").status_code == 403
    assert TournamentEntry.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0
    for user in (floor.dealer, floor.accountant, floor.auditor):
        assert as_user(user).get(f"{url}/").status_code == 200
    bad = manager_api.post(
        "/api/cardroom/tournaments/", {**body, "game": "hearts", "config": {"moon": "sideways"}}, format="json"
    )
    assert (bad.status_code, bad.json()["error"]["field"]) == (400, "config.moon")


# -- the screens ---------------------------------------------------------------------------------------


def test_the_sheet_page_shows_the_running_totals_and_the_winner(floor, dealer_api, client):
    sheet = open_sheet(dealer_api, floor.table, config={"game_to": 26, "moon": "none"})
    url = f"{SHEETS}{sheet['id']}/deals/"
    dealer_api.post(url, hearts(bob={"hearts": 13}, cy={"queen": True}), format="json")
    dealer_api.post(url, hearts(bob={"hearts": 13}, dee={"queen": True}), format="json")
    client.force_login(floor.dealer)
    page = client.get(f"/cardroom/sheets/{sheet['id']}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "ann wins" in html
    assert '<a href="/cardroom/"' in html  # the nav link
    assert "<strong>26</strong>" in html  # bob's running total after deal 2
    index = client.get("/cardroom/")
    assert index.status_code == 200
    assert f"/cardroom/sheets/{sheet['id']}/" in index.content.decode()
    client.force_login(floor.other_dealer)
    assert client.get(f"/cardroom/sheets/{sheet['id']}/").status_code == 403
    client.force_login(floor.nobody)
    assert client.get("/cardroom/").status_code == 403


def test_the_entry_form_is_the_games(floor, dealer_api, client):
    client.force_login(floor.dealer)
    for game, players, marker in (
        ("hearts", FOUR, 'name="queen"'),
        ("carousel_rummy", ["a", "b"], 'name="knocker"'),
        ("crazy_casino", ["a", "b"], 'name="big_casino"'),
        ("auction_hearts", FOUR, 'name="bidder"'),
    ):
        sheet = open_sheet(dealer_api, floor.table, game=game, players=players)
        html = client.get(f"/cardroom/sheets/{sheet['id']}/").content.decode()
        assert marker in html, game
        dealer_api.post(f"{SHEETS}{sheet['id']}/close/", {}, format="json")


# -- at once -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_simultaneous_deals_on_one_sheet_are_entered_one_after_the_other(floor):
    from tests.tables.test_concurrency import _race

    # given a sheet and four scorers sending a deal each at the same moment
    dealer = as_user(floor.dealer)
    sheet = open_sheet(dealer, floor.table)
    clients = [as_user(floor.dealer), as_user(floor.manager), as_user(floor.dealer), as_user(floor.manager)]
    deal = hearts(ann={"hearts": 13}, bob={"queen": True})
    # when they race
    statuses = _race(4, lambda i: clients[i].post(f"{SHEETS}{sheet['id']}/deals/", deal, format="json").status_code)
    # then all four are entered, as deals 0 to 3, and the totals count each once
    assert statuses == [201, 201, 201, 201]
    assert sorted(SheetDeal.objects.values_list("deal", "seq")) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    stored = ScoreSheet.objects.get(pk=sheet["id"])
    assert (stored.deals, stored.totals) == (4, {"ann": 52, "bob": 52, "cy": 0, "dee": 0})
