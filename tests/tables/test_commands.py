"""settle_round (stdin → stdout, no database), house_edge, demo, and the production settings check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROUND = {"game": "baccarat", "bets": [{"id": "b1", "seat": 1, "type": "banker", "amount": 2500}],
         "events": [{"card": c} for c in ["9S", "KH", "5D", "3C", "2H", "4S"]]}


def manage(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # no database: point DATABASE_URL at a server that does not exist, so any query would fail loudly
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}  # browser tests set it
    base = {**inherited, "DJANGO_SETTINGS_MODULE": "casino.settings",
            "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    return subprocess.run([sys.executable, "manage.py", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env={**base, **(env or {})}, timeout=120)


def test_settle_round_reads_stdin_and_touches_no_database():
    done = manage("settle_round", stdin=json.dumps(ROUND))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "settled"
    assert answer["bets"][0]["net"] == 2375
    assert answer["house"] == {"net": -2375, "commission": 125, "rake": 0}


@pytest.mark.parametrize(("text", "code", "event"), [
    ("{not json", "malformed_json", None),
    (json.dumps({**ROUND, "game": "snap"}), "unknown_game", None),
    (json.dumps({**ROUND, "events": [{"card": "9S"}, {"card": "9S", "to": "player"}]}), "out_of_turn", 1),
    (json.dumps({**ROUND, "config": {"decks": 1}, "events": [{"card": "9S"}, {"card": "9S"}]}), "card_exhausted", 1),
    (json.dumps([1, 2]), "bad_document", None),
])
def test_settle_round_bad_input_exits_2_with_the_error(text, code, event):
    done = manage("settle_round", stdin=text)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == code
    assert error["event"] == event


def test_house_edge_baccarat_reproduces_the_published_figures():
    done = manage("house_edge", "baccarat", "--json")
    assert done.returncode == 0, done.stderr
    edges = {row["bet"]: row["edge_pct"] for row in json.loads(done.stdout)["edges"]}
    assert round(edges["banker"], 2) == 1.06
    assert round(edges["player"], 2) == 1.24
    assert round(edges["tie"], 2) == 14.36


def test_house_edge_moves_with_the_config():
    done = manage("house_edge", "baccarat", "--json", "--config", '{"tie_pays": 9, "decks": 6}')
    edges = {row["bet"]: row["edge_pct"] for row in json.loads(done.stdout)["edges"]}
    assert 4.8 < edges["tie"] < 5.0  # a 9:1 tie is a much better bet
    assert edges["banker"] < 1.0579  # fewer decks, slightly better banker


def test_house_edge_refuses_unknown_settings():
    done = manage("house_edge", "baccarat", "--config", '{"jokers": 2}')
    assert done.returncode == 2
    assert json.loads(done.stderr)["error"]["code"] == "unknown_setting"


def test_production_settings_pass_check_deploy():
    env = {"CROUPIER_MODE": "production", "SECRET_KEY": "k" * 20 + "3Fv9!x#Qz7@Lm2$Wp8%Rt5^Yh1&Jc4*Nb6",
           "ALLOWED_HOSTS": "croupier.example", "DEBUG": "false"}
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key():
    done = manage("check", env={"CROUPIER_MODE": "production", "ALLOWED_HOSTS": "x", "SECRET_KEY": ""})
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_demo_builds_the_floor_twice_without_change(db):
    from django.core.management import call_command

    from tables.models import Assignment, Pit, Shift, Table

    call_command("demo", "--quiet")
    first = (Pit.objects.count(), Table.objects.count(), Shift.objects.count(), Assignment.objects.count())
    call_command("demo", "--quiet")
    assert (Pit.objects.count(), Table.objects.count(), Shift.objects.count(), Assignment.objects.count()) == first
    assert first[0] >= 2
    from django.contrib.auth import authenticate

    from tables.demo import DEMO_PASSWORD
    for username in ("admin", "pitboss", "accountant", "auditor", "dealer1"):
        assert authenticate(username=username, password=DEMO_PASSWORD) is not None
    assert Table.objects.filter(game="baccarat").exists()


def test_demo_simulates_rounds_through_the_services(db):
    from django.core.management import call_command

    from accounting.models import LedgerTransaction
    from tables.models import Round

    call_command("demo", "--quiet", "--rounds", "6")
    settled = Round.objects.filter(status="settled", game="baccarat")
    assert settled.count() >= 1
    assert LedgerTransaction.objects.filter(source_type="round").count() == Round.objects.filter(
        status="settled").count()
    # and the day's card room is filled in: a sheet won, one under way, a tournament played and paid
    from cardroom.models import ScoreSheet, Tournament

    sheets = {s.status: s for s in ScoreSheet.objects.filter(tournament__isnull=True)}
    assert sheets["finished"].winner
    assert sheets["open"].deals == 3
    cup = Tournament.objects.get()
    assert cup.status == "finished"
    assert cup.sheets.get().status == "finished"
