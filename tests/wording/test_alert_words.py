"""Every alert the code can raise, as the pit reads it in its language: worded from the alert's facts
(``Alert.data``), never the English sentence stored as its record.

The kinds are found in the code itself (every ``alert_raise(kind=...)`` call, read with ``ast``), so a new kind
that is not registered in ``accounting.services.alerts.KINDS`` or not worded by ``floor.labels.alert_text``
fails here."""

from __future__ import annotations

import ast
import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from accounting.models import Alert
from accounting.money import money_words
from accounting.services import reconcile
from accounting.services.alerts import KINDS
from casino.core.models import StaffProfile
from floor.labels import alert_text
from players.models import Player
from tests.factories import build_floor

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounting", "players", "tables", "cardroom", "slots", "casino", "floor")
RECORD = "ENGLISH RECORD"  # the stored message: never what a reader sees for a kind the code raises
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _module_strings(tree: ast.Module) -> dict[str, str]:
    return {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for t in node.targets if isinstance(t, ast.Name)}


def raised_kinds() -> dict[str, set[str]]:
    """Every alert kind an ``alert_raise`` call in the apps can store, with the files raising it."""
    found: dict[str, set[str]] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            constants = _module_strings(tree)
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                        == "alert_raise"):
                    continue
                kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
                if isinstance(kind, ast.Constant):
                    kinds = {kind.value}
                elif isinstance(kind, ast.Name) and kind.id in constants:
                    kinds = {constants[kind.id]}
                elif path.name == "reconcile.py":  # one alert per reconciliation cause, by its table of causes
                    kinds = {k for k, _ in reconcile.CAUSE_ALERTS.values()}
                else:
                    raise AssertionError(f"{path}:{node.lineno}: an alert kind this test cannot read")
                for name in kinds:
                    found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_raised_kind_is_registered():
    found = raised_kinds()
    assert set(found) == set(KINDS), (set(found) ^ set(KINDS))


def _samples(floor: Any, player: Player) -> dict[str, tuple[Any, dict[str, Any]]]:
    """A realistic alert of each kind: (its table, its data) as the raising code stores it."""
    since = (timezone.now() - dt.timedelta(minutes=40)).isoformat()
    cause = {"reconciliation": 7, "causes": [{"cause": "x", "detail": "round #12"}]}
    return {
        "large_bet": (floor.table, {"bet": 1, "round": 2, "amount": 1_234_500, "type": "banker", "seat": 3,
                                    "threshold": 1_000_000}),
        "large_loss": (floor.table, {"round": 2, "house_net": -2_345_600, "handle": 3_000_000,
                                     "threshold": 2_000_000}),
        "variance": (floor.table, {"reconciliation": 7, "variance": -1_234_500, "threshold": 100_000}),
        "count_discrepancy": (floor.table, {"count": 1, "previous_closer": 2, "net": -1_234_500,
                                            "gross": 2_345_600}),
        "missing_count": (floor.table, cause),
        "unposted_round": (floor.table, cause),
        "mismatch": (floor.table, cause),
        "live_round": (floor.table, cause),
        "round_after_close": (floor.table, cause),
        "hold_outside_interval": (floor.table, cause),
        "stale_job": (None, {"key": "reconciliation", "title": "Shift reconciliation", "since": since,
                             "late_after_seconds": 1860, "message": RECORD, "severity": "warning",
                             "period": 900}),
        "advantage_play": (floor.table, {"player": player.pk, "rounds": 240, "baccarat_rounds": 0,
                                         "tables": [floor.table.code],
                                         "flags": ["bets_follow_count", "tie_bets_at_positive_ev"],
                                         "bets_p": 1e-5, "back_p": None, "pair_p": None, "tie_p": 1e-4}),
        "cash_threshold": (floor.table, {"player": player.pk, "gaming_date": "2026-11-27", "direction": "in",
                                         "total": 1_234_500, "threshold": 1_000_000, "transactions": 2}),
        "running_figures": (floor.table, {"table": floor.table.code, "shift": floor.shift.pk,
                                          "figure": "rounds_win", "running": 1_234_500, "records": 2_345_600}),
    }


@pytest.fixture
def floor_alerts(db):
    floor = build_floor()
    player = Player.objects.create(first_name="Carl", last_name="Counter", created_by=floor.manager,
                                   created_at=timezone.now(), updated_at=timezone.now())
    alerts = {}
    for kind, (table, data) in _samples(floor, player).items():
        alerts[kind] = Alert.objects.create(kind=kind, severity="warning", message=RECORD, dedupe_key=f"t:{kind}",
                                            table=table, shift=floor.shift, data=data, created_at=timezone.now())
    return floor, alerts


@pytest.mark.parametrize("language", ["es", "zh-hant"])
def test_every_kind_is_worded_in_the_readers_language(floor_alerts, language):
    _, alerts = floor_alerts
    assert set(alerts) == set(KINDS)  # a sample of every kind the code raises
    for kind, alert in alerts.items():
        with translation.override("en"):
            english = alert_text(alert)
        with translation.override(language):
            text = alert_text(alert)
        assert RECORD not in english, kind
        assert RECORD not in text, kind
        assert text != english, (kind, text)
        assert not SNAKE.search(text), (kind, text)
        for key in ("amount", "total", "variance", "gross", "threshold", "running", "house_net"):
            if isinstance(alert.data.get(key), int):
                assert str(abs(alert.data[key])) not in text, (kind, text)  # minor units never shown
        assert "2026-11-27" not in text, (kind, text)  # a day in the reader's date format


def test_running_figures_and_stale_jobs_read_in_spanish(floor_alerts):
    _, alerts = floor_alerts
    with translation.override("es"):
        running = alert_text(alerts["running_figures"])
        stale = alert_text(alerts["stale_job"])
        cash = alert_text(alerts["cash_threshold"])
        amounts = money_words(1_234_500), money_words(2_345_600)
    assert all(amount in running for amount in amounts), running
    assert "40 min" in stale, stale
    assert "15 min" in stale, stale
    assert "accounting." not in stale, stale
    assert "27 de noviembre de 2026" in cash, cash


def test_an_older_row_without_its_figures_reads_as_stored(floor_alerts):
    floor, _ = floor_alerts
    old = Alert.objects.create(kind="stale_job", severity="warning", message="Old sentence", dedupe_key="old",
                               data={}, created_at=timezone.now())
    with translation.override("es"):
        assert alert_text(old) == "Old sentence"


def test_the_pit_alerts_page_in_spanish(floor_alerts):
    floor, alerts = floor_alerts
    StaffProfile.objects.filter(user=floor.manager).update(language="es")
    client = Client()
    client.force_login(floor.manager)
    html = client.get("/pit/alerts/").content.decode()
    assert RECORD not in html
    with translation.override("es"):
        for alert in alerts.values():
            if alert.table is None or alert.table.pit_id == floor.pit.pk:
                assert str(alert_text(alert)).replace("'", "&#x27;") in html, alert.kind


def test_the_alerts_api_words_an_alert_as_the_screen(floor_alerts):
    floor, alerts = floor_alerts
    StaffProfile.objects.filter(user=floor.manager).update(language="zh-hant")
    client = Client()
    client.force_login(floor.manager)
    body = client.get(f"/api/accounting/alerts/{alerts['running_figures'].pk}/").json()
    with translation.override("zh-hant"):
        assert body["text"] == alert_text(alerts["running_figures"])
    assert body["message"] == RECORD
    assert body["data"]["figure"] == "rounds_win"
