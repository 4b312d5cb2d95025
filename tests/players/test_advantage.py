"""Advantage play from the records: a counter's recorded shoes raise the flag in words; a player without shoe
rounds has nothing to show."""

from __future__ import annotations

import datetime as dt

from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounting.models import Alert
from casino.core.roles import Role
from players.advantage import pit_advantage, player_advantage
from players.demo import COUNTER_CARD
from players.models import Player, RatingSlip
from players.services.advantage import advantage_check
from players.services.slips import slip_rate
from tables.models import Round, Shoe, Table
from tests.factories import UserFactory
from tests.fixtures import as_user
from tests.players.advantage_helpers import record_counter


def test_a_counter_at_a_shoe_table_is_flagged_with_what_was_seen(floor):
    # given a rated counter over 24 recorded shoes (about 700 rounds)
    table, player, _ = record_counter(floor)
    since = timezone.now() - dt.timedelta(days=1)
    # when the pit reads the player's figures
    found = player_advantage(player, since=since)
    # then the bets follow the count, the 1–8 spread is seen and the decisions are basic strategy's
    assert found.rounds > 600
    assert found.tables == ["BJ1"]
    assert found.flags == ["bets_follow_count"]
    assert found.pattern is not None
    assert (found.pattern.min_bet, found.pattern.max_bet, found.pattern.spread) == (1_000, 8_000, 8.0)
    assert found.pattern.p_value < 0.01
    assert found.pattern.ev_gain > 0
    assert found.skill is not None
    assert found.skill.decisions > found.rounds // 2
    assert found.skill.deviations == 0
    assert found.skill.measured_house_edge == found.skill.basic_house_edge > 0
    # and the pit's list puts them first
    assert [a.player for a in pit_advantage([table], since=since)] == [player]


def test_nothing_is_shown_without_shoe_rounds(floor):
    table, player, _ = record_counter(floor, shoes=0)
    found = player_advantage(player, since=timezone.now() - dt.timedelta(days=1))
    assert (found.rounds, found.flags, found.pattern) == (0, [], None)
    assert pit_advantage([table], since=timezone.now() - dt.timedelta(days=1)) == []


def test_the_pit_dashboard_and_the_players_page_show_the_flag_in_words(floor, manager_api):
    # given a rated counter at a blackjack shoe table of the manager's pit
    _, player, _ = record_counter(floor)
    client = Client()
    client.force_login(floor.manager)
    # when the pit manager opens the dashboard
    page = client.get("/pit/").content.decode()
    # then the panel lists the counter, flagged, with a link to the page that explains it
    assert 'id="advantage"' in page
    assert "Carl Counter" in page
    assert "bets follow the count" in page
    # and the player's page says what was seen, over how many rounds, and how unlikely by chance
    found = player_advantage(player, since=timezone.now() - dt.timedelta(days=1))
    detail = client.get(f"/players/{player.pk}/").content.decode()
    assert "Flag: the bets follow the count." in detail
    assert f"Seen: {found.rounds} rounds played at BJ1." in detail
    assert "1 in" in detail or "under 1 in a million" in detail


def test_the_report_lists_the_counter_in_every_format_for_the_pit_and_refuses_others(floor, manager_api):
    record_counter(floor, shoes=12)
    # when the pit manager takes the report as JSON, CSV, XLSX and PDF
    answer = manager_api.get("/api/players/reports/advantage/", {"format": "json"})
    assert answer.status_code == 200, answer.content[:500]
    body = answer.json()
    keys = [c["key"] for c in body["columns"]]
    rows = [dict(zip(keys, row)) for row in body["rows"]]
    assert [r["player"] for r in rows] == ["Carl Counter"]
    assert (rows[0]["tables"], rows[0]["min_bet"], rows[0]["max_bet"], rows[0]["flags"]) == (
        "BJ1", "10.00", "80.00", "bets follow the count")
    for fmt in ("csv", "xlsx", "pdf"):
        assert manager_api.get("/api/players/reports/advantage/", {"format": fmt}).status_code == 200
    # and a cashier is refused; a filter the report does not take is a 400 naming it
    cashier = as_user(UserFactory(username="cash1", roles=[Role.CASHIER]))
    assert cashier.get("/api/players/reports/advantage/").status_code == 403
    assert manager_api.get("/api/players/reports/advantage/", {"table": "1"}).status_code == 400


def test_the_demos_day_includes_a_rated_counter(db):
    # when the demo writes a short day
    call_command("demo", "--quiet", "--rounds", "12", "--shifts", "0")
    # then the counter is rated at the blackjack table, every round of theirs from a marked shoe
    counter = Player.objects.get(card_number=COUNTER_CARD)
    found = player_advantage(counter, since=timezone.now() - dt.timedelta(days=1))
    assert found.rounds > 40
    assert found.pattern is not None  # two shoes: the counter bets up only if the count rose (make run's day: ten)
    assert found.pattern.min_bet == 1_000
    assert Round.objects.filter(game="blackjack", shoe__isnull=False, status="settled").count() == found.rounds
    # and writing the day again adds no second counter
    call_command("demo", "--quiet", "--rounds", "12", "--shifts", "0")
    assert Player.objects.filter(card_number=COUNTER_CARD).count() == 1


def test_a_rated_slip_over_the_casinos_threshold_raises_one_alert_and_under_it_none(floor, settings):
    # given the counter's slip, closed
    _, player, slip = record_counter(floor)
    RatingSlip.objects.filter(pk=slip.pk).update(status="closed", closed_at=timezone.now(), closed_by=floor.manager)
    # when the casino's threshold is a chance of 1 in a million, the rating job raises nothing
    settings.CROUPIER = {**settings.CROUPIER, "ADVANTAGE_ALERT_P_PPM": 1}
    assert slip_rate(slip_id=slip.pk) is not None
    assert not Alert.objects.filter(kind="advantage_play").exists()
    # and at 1 in 100 the same figures raise one alert, which names what was seen and accuses no one
    settings.CROUPIER = {**settings.CROUPIER, "ADVANTAGE_ALERT_P_PPM": 10_000}
    slip.refresh_from_db()
    alert = advantage_check(slip=slip)
    assert alert is not None
    assert advantage_check(slip=slip) == alert
    assert (alert.kind, alert.severity, alert.table.code) == ("advantage_play", "info", "BJ1")
    assert alert.message.startswith("Advantage play to watch: Carl Counter over ")
    assert "bets follow the count" in alert.message
    assert alert.message.endswith("A flag, not an accusation.")
    assert alert.data["player"] == player.pk


def _baccarat_shoes(floor, *, shoes: int) -> tuple[Player, Player]:
    """One-deck baccarat shoes dealt rank by rank: the pair bet favours the player once four ranks are out.
    Seat 2 bets the pairs exactly then; seat 3 only before."""
    Table.objects.filter(pk=floor.table.pk).update(config={"decks": 1})
    now = timezone.now()
    sharp, other = (Player.objects.create(first_name=f, last_name="Pairs", created_by=floor.manager, created_at=now,
                                          updated_at=now) for f in ("Pat", "Sam"))
    start = now - dt.timedelta(hours=6)
    for player, seat in ((sharp, 2), (other, 3)):
        RatingSlip.objects.create(player=player, table=floor.table, seat=seat, shift=floor.shift,
                                  opened_by=floor.manager, opened_at=start)
    rows, number, at = [], 0, start
    for n in range(1, shoes + 1):
        shoe = Shoe.objects.create(table=floor.table, number=n, decks=1, burn=0, opened_by=floor.dealer, opened_at=at)
        for k, rank in enumerate("A23456789TJQK"):
            number += 1
            at += dt.timedelta(minutes=1)
            bets = [{"id": "b2", "seat": 2, "type": "player_pair" if k >= 4 else "banker", "amount": 1000},
                    {"id": "b3", "seat": 3, "type": "player_pair" if k < 4 else "banker", "amount": 1000}]
            rows.append(Round(table=floor.table, shift=floor.shift, number=number, game="baccarat",
                              config={"decks": 1, "pair_pays": 11}, status="settled", dealer=floor.dealer,
                              opened_at=at, settled_at=at, shoe=shoe,
                              document={"bets": bets, "events": [{"card": rank + s} for s in "SHDC"]}))
    Round.objects.bulk_create(rows)
    return sharp, other


def test_pair_bets_that_follow_the_cards_left_are_flagged_and_explained(floor):
    # given five one-deck shoes where seat 2 bets the pairs only once the cards left favour them
    sharp, other = _baccarat_shoes(floor, shoes=5)
    since = timezone.now() - dt.timedelta(days=1)
    # when the pit reads their figures
    found = player_advantage(sharp, since=since)
    # then every pair bet fell where the pair bet's exact expected value was positive, and it is flagged
    assert found.side_bets is not None
    assert (found.baccarat_rounds, found.side_bets.side_bets, found.side_bets.positive_rounds,
            found.side_bets.side_bets_positive) == (65, 45, 45, 45)
    assert found.flags == ["pair_bets_at_positive_ev"]
    assert found.side_bets.p_value < 1e-6
    assert player_advantage(other, since=since).flags == []
    # and the player's page says so in words
    client = Client()
    client.force_login(floor.manager)
    detail = client.get(f"/players/{sharp.pk}/").content.decode()
    assert "Flag: pair bets where the cards left favour them." in detail
    assert "Over 65 baccarat rounds, 45 with a pair bet" in detail
