"""Baccarat's side bets against the cards left (the tie bet beside the pairs) in the figures, the alert and the
advantage report; and the dealers' game protection report on screen and as CSV, XLSX and PDF
(docs/game_protection.md)."""

from __future__ import annotations

import csv
import datetime as dt
import io

from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from openpyxl import load_workbook

from accounting.models import Alert
from casino.audit.models import AuditRecord
from players.advantage import player_advantage
from players.demo import SIDE_BETTOR_CARD
from players.models import Player, RatingSlip
from players.services.advantage import advantage_check
from tables.models import PayCorrection
from tables.selectors import dealer_activity
from tests.players.advantage_helpers import dealer_team, record_tie_bettor


def test_tie_bets_where_the_cards_left_favour_them_are_flagged_explained_reported_and_alerted(
        floor, settings, manager_api):
    # given four one-deck shoes where seat 4 bets the tie only where the cards left favour it
    sharp, other = record_tie_bettor(floor, shoes=4)
    since = timezone.now() - dt.timedelta(days=1)
    # when the pit reads their figures
    found = player_advantage(sharp, since=since)
    # then every tie bet fell where the tie bet's exact value was positive (seven rounds of each shoe)
    assert found.tie_bets is not None
    assert (found.baccarat_rounds, found.tie_bets.side_bets, found.tie_bets.positive_rounds,
            found.tie_bets.side_bets_positive) == (52, 24, 28, 24)
    assert found.tie_bets.mean_ev_with_bet > 1 > 0 > found.tie_bets.mean_ev_without_bet
    assert found.flags == ["tie_bets_at_positive_ev"]
    assert found.tie_bets.p_value < 1e-6
    assert player_advantage(other, since=since).flags == []
    # and the player's page says so in words
    client = Client()
    client.force_login(floor.manager)
    detail = client.get(f"/players/{sharp.pk}/").content.decode()
    assert "Flag: tie bets where the cards left favour them." in detail
    assert "Over 52 baccarat rounds, 24 with a tie bet" in detail
    # and the advantage report's columns carry it
    answer = manager_api.get("/api/players/reports/advantage/?format=csv")
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode("utf-8-sig"))))
    head = rows[1]
    row = next(r for r in rows if r[0] == "Tia Ties")
    cell = dict(zip(head, row))
    assert (cell["Baccarat rounds"], cell["Tie bets"], cell["Rounds the cards left favoured the tie bet"],
            cell["Tie bets in those rounds"]) == ("52", "24", "28", "24")
    assert cell["Smallest bet (EUR)"] == ""  # no blackjack: the count's columns are empty
    assert row[-1] == "tie bets where the cards favour them"
    # and the rating job's check raises one alert over the casino's threshold, none under it
    slip = RatingSlip.objects.get(player=sharp)
    RatingSlip.objects.filter(pk=slip.pk).update(status="closed", closed_at=timezone.now(), closed_by=floor.manager)
    slip.refresh_from_db()
    settings.CROUPIER = {**settings.CROUPIER, "SIDE_BET_ALERT_P_PPM": 1}
    found_p = found.tie_bets.p_value
    if found_p > 1e-6:
        assert advantage_check(slip=slip) is None
    settings.CROUPIER = {**settings.CROUPIER, "SIDE_BET_ALERT_P_PPM": 10_000}
    alert = advantage_check(slip=slip)
    assert alert is not None
    assert alert.message.startswith("Advantage play to watch: Tia Ties over 52 rounds at BAC1: 24 of 24 tie bets")
    assert alert.data["tie_p"] == found_p
    assert Alert.objects.filter(kind="advantage_play").count() == 1


def test_the_dealers_report_shows_each_dealer_against_the_others_in_words_in_every_format(floor, manager_api):
    # given three dealers, one voiding far more than the others, one with a corrected pay list
    dealer_team(floor)
    # when the pit manager takes the report as CSV
    answer = manager_api.get("/api/players/reports/dealers/?format=csv")
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode("utf-8-sig"))))
    # then its scope comes first, in words, then a row per dealer
    assert rows[0][0].startswith("Dealers' game protection. Covers: Rounds opened from ")
    head = rows[1]
    assert head[:4] == ["Pit", "Game", "Dealer", "Rounds"]
    by = {r[2]: dict(zip(head, r)) for r in rows[2:] if r[0] == "Main pit"}
    assert by["dealer4"]["Voids"] == "15"
    assert by["dealer4"]["Voids: per 100 rounds"] == "7.5"
    assert by["dealer4"]["Voids: the others, per 100 rounds"] == "0.5"
    assert by["dealer4"]["Stands out"] == "Voids (under 1 in a million)"
    assert by["dealer4"]["Game"] == "Baccarat"
    first = next(v for k, v in by.items() if v["Rounds"] == "201")
    assert first["Pay lists corrected"] == "1"
    assert first["Pay lists corrected: per 100 rounds"] == "0.5"
    assert by["dealer3"]["Stands out"] == "nothing"
    # and as XLSX and PDF, audited as exports
    xlsx = manager_api.get("/api/players/reports/dealers/?format=xlsx")
    sheet = load_workbook(io.BytesIO(b"".join(xlsx.streaming_content))).active
    values = [[c.value for c in r] for r in sheet.iter_rows()]
    assert str(values[0][0]).startswith("Dealers' game protection. Covers: ")
    assert any(r[2] == "dealer4" for r in values[2:])
    pdf = manager_api.get("/api/players/reports/dealers/?format=pdf")
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert set(AuditRecord.objects.filter(action="export", object_id__startswith="players.dealers.")
               .values_list("object_id", flat=True)) == {"players.dealers.csv", "players.dealers.xlsx",
                                                         "players.dealers.pdf"}
    # and a dealer may not take it
    dealer = Client()
    dealer.force_login(floor.dealer)
    assert dealer.get("/players/reports/dealers/").status_code == 403


def test_the_dealers_report_screen_has_its_scope_its_rows_and_the_files(floor):
    dealer_team(floor)
    client = Client()
    client.force_login(floor.manager)
    page = client.get("/players/reports/dealers/").content.decode()
    assert "Covers: Rounds opened from " in page
    assert "dealer4" in page
    assert "/api/players/reports/dealers/?format=pdf" in page
    # a filter it cannot read is a 400 in words, not a 500
    bad = client.get("/players/reports/dealers/?date_from=yesterday")
    assert bad.status_code == 400
    assert "These filters cannot be read" in bad.content.decode()
    assert client.get("/players/reports/nope/").status_code == 404
    # and the pit's panels lead to it
    assert "/players/reports/dealers/" in client.get("/pit/").content.decode()


def test_the_demos_day_leaves_side_bets_and_a_corrected_pay_list_to_show(db):
    # when the demo writes a short day
    call_command("demo", "--quiet", "--rounds", "12", "--shifts", "0")
    # then a rated baccarat player's pair and tie bets are read against the cards left
    bettor = Player.objects.get(card_number=SIDE_BETTOR_CARD)
    found = player_advantage(bettor, since=timezone.now() - dt.timedelta(days=1))
    assert found.baccarat_rounds == 12
    assert found.side_bets is not None
    assert found.side_bets.side_bets > 0
    assert found.tie_bets is not None
    assert found.tie_bets.side_bets > 0
    # and one pay list the dealer confirmed was corrected by the pit manager, counted against that dealer
    correction = PayCorrection.objects.get()
    now = timezone.now()
    table = correction.round.table
    team = dealer_activity([table], since=now - dt.timedelta(days=1), until=now)["baccarat"]
    assert [a.pay_corrected for a in team if a.dealer == correction.confirmed_by.username] == [1]
    # and writing the day again adds nothing
    call_command("demo", "--quiet", "--rounds", "12", "--shifts", "0")
    assert (Player.objects.filter(card_number=SIDE_BETTOR_CARD).count(), PayCorrection.objects.count()) == (1, 1)
