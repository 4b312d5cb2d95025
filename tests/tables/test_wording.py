"""Every refusal the engines, the services and the API can give has words a dealer understands."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rest_framework import exceptions as drf

from tables import wording
from tables.engines.errors import ERROR_CODES
from tables.models import RoundStatus

ROOT = Path(__file__).resolve().parents[2]
# where refusals come from: the engines, the services, the API and access checks of the floor, and casino
SOURCES = ["tables/engines", "tables/services", "tables/access.py", "tables/apis.py", "floor/views.py",
           "tables/selectors.py", "casino"]
RAISERS = {"EngineError", "DomainError", "InvalidInput", "Forbidden", "NotFound", "Conflict", "Unavailable"}
DEFAULT_CODES = {"DomainError": "invalid", "InvalidInput": "invalid", "Forbidden": "forbidden",
                 "NotFound": "not_found", "Conflict": "conflict", "Unavailable": "unavailable"}
# a code built from the round's status (``f"round_{rnd.status}"``) stands for one code per status
STATUS_CODE = re.compile(r"^round_\{[^}]*status[^}]*\}$")


# refusals only IT meets, at a command line (backups, restores, archived months), never on a screen
COMMAND_LINE = {ROOT / "casino" / "ops" / "backup.py", ROOT / "casino" / "audit" / "archive.py"}


def _files() -> list[Path]:
    found: list[Path] = []
    for source in SOURCES:
        path = ROOT / source
        found += [path] if path.suffix == ".py" else sorted(p for p in path.rglob("*.py") if "migrations" not in p.parts)
    return [f for f in found if f not in COMMAND_LINE]


def _code_of(call: ast.Call, name: str) -> ast.expr | None:
    if name == "EngineError":
        return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "code"), None)
    if name == "error_body":
        return call.args[0] if call.args else None
    return next((k.value for k in call.keywords if k.arg == "code"), None)


def _codes(node: ast.expr | None, name: str, where: str) -> set[str]:
    if node is None:
        return {DEFAULT_CODES[name]}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _codes(node.body, name, where) | _codes(node.orelse, name, where)
    text = ast.unparse(node)
    if isinstance(node, ast.JoinedStr) and STATUS_CODE.match(text.removeprefix("f'").removesuffix("'")):
        return {f"round_{status}" for status in RoundStatus.values}
    if text == "exc.code":  # a refusal passed on with the code it came with
        return set()
    if name == "error_body" and text == "code":  # DRF's own refusal, reshaped: drf_codes() below
        return set()
    raise AssertionError(f"{where}: a refusal whose code this test cannot read: {text}")


def raised_codes() -> dict[str, str]:
    """Every error code raised or answered in the sources → one place that raises it."""
    codes: dict[str, str] = {}
    for path in _files():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in RAISERS and name != "error_body":
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            for code in _codes(_code_of(node, name), name, where):
                codes.setdefault(code, where)
    return codes


def drf_codes() -> set[str]:
    """The codes DRF's own refusals carry (not signed in, throttled…), which the API passes on."""
    seen: set[str] = set()
    stack = [drf.APIException]
    while stack:
        cls = stack.pop()
        seen.add(cls.default_code)
        stack += cls.__subclasses__()
    return {c for c in seen if c not in ("invalid", "parse_error", "error")} | {"error"}


def test_the_enumeration_finds_the_refusals_it_should():
    codes = raised_codes()
    # a sample from each source, so a change that blinds the walk fails here rather than passing empty
    for code in ("out_of_turn", "under_table_min", "betting_closed", "round_voided", "round_open", "not_assigned",
                 "unknown_round", "idempotency_key_reused", "invalid_credentials", "database_unavailable"):
        assert code in codes
    assert len(codes) > 60


def test_every_refusal_has_a_dealers_wording():
    missing = {code: where for code, where in raised_codes().items() if code not in wording.REFUSALS}
    missing.update({code: "rest_framework" for code in drf_codes() if code not in wording.REFUSALS})
    missing.update({code: "ERROR_CODES" for code in ERROR_CODES if code not in wording.REFUSALS})
    assert missing == {}, "codes without dealer wording in tables/wording.py: " + ", ".join(
        f"{code} ({where})" for code, where in sorted(missing.items()))


@pytest.mark.parametrize("code", sorted(wording.REFUSALS))
def test_each_wording_ends_in_a_plain_sentence_without_codes_fields_or_minor_units(code):
    texts = [str(t) for t in wording.REFUSALS[code]]
    # the last wording needs nothing from the refusal, so there is always one to show
    assert [name for name, _ in wording.placeholders(texts[-1]) if name not in wording.SCREEN_NAMES] == []
    for text in texts:
        for name, kind in wording.placeholders(text):
            assert kind is None or kind in wording.KINDS, (code, text)
            assert kind == "money" or name not in ("amount", "min", "max", "pot", "bank"), (code, text)
        plain = wording.PLACEHOLDER.sub("", text)
        assert plain[:1].isupper() or text.startswith("{"), (code, text)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b|\bbets\[|\bconfig\.|\d{3,}", plain), (code, text)


def test_money_is_shown_in_major_units_with_the_currency(settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    assert (wording.money(2500), wording.money(-5), wording.money(0)) == ("€25.00", "-€0.05", "€0.00")
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "CHF", "MINOR_UNIT_DIGITS": 2}
    assert wording.money(123456) == "1,234.56 CHF"
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "JPY", "MINOR_UNIT_DIGITS": 0}
    assert wording.money(5000) == "¥5,000"


def engine_reasons() -> dict[str, str]:
    """Every ``code:reason`` an engine refuses with (``params={"reason": …}``) → one place that raises it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "tables" / "engines").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in ("EngineError", "BetSetError") or not node.args:
                continue
            params = next((k.value for k in node.keywords if k.arg == "params"), None)
            if not isinstance(params, ast.Dict):
                continue
            for key, value in zip(params.keys, params.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "reason":
                    values = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
                    for v in values:
                        assert isinstance(v, ast.Constant), f"{path}:{node.lineno}: a reason this test cannot read"
                        found.setdefault(f"{ast.literal_eval(node.args[0])}:{v.value}", f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_reason_an_engine_gives_has_its_own_dealers_wording():
    reasons = engine_reasons()
    # the refusals issue 30 named: no bets at "No more bets", faro's call before the deal, a Calcutta bid
    # equal to the high bid, and a bet at the banker's seat
    assert {"bad_bet:no_bets", "bad_bet:players", "bad_bet:call_early", "bad_amount:bid_low", "bad_bet:bank_seat"} <= set(reasons)
    missing = {key: where for key, where in reasons.items() if key not in wording.REFUSALS}
    assert missing == {}, f"reasons without their own wording in tables/wording.py: {missing}"
    unused = {key for key in wording.REFUSALS if ":" in key and key not in reasons}
    assert unused == set()


@pytest.mark.parametrize(
    ("code", "params", "said"),
    [
        ("bad_bet", {"reason": "no_bets"}, "No bet is down yet: place at least one bet, then tap “No more bets”."),
        ("bad_bet", {"reason": "players", "players": 1, "max_players": 8},
         "A deal needs 2 to 8 players, each with an ante, and 1 have anted: take the antes, then tap “No more bets”."),
        ("bad_bet", {"reason": "call_early", "cards_left": 52},
         "The turn is called only with three cards left: take the call then, between the last turns."),
        ("bad_amount", {"reason": "bid_low", "min": 600, "high": 500, "amount": 500},
         "The high bid is €5.00: the next bid must be at least €6.00."),
        ("bad_bet", {"reason": "bank_seat", "seat": 4},
         "Seat 4 holds the bank and cannot bet against it: take the bet at another seat."),
        ("bad_bet", {"reason": "no_such_reason", "seat": 4},
         "Seat 4 cannot take that bet now: check the seat, the bet and what it is on."),
    ],
)
def test_a_refusal_is_worded_by_its_reason_first(settings, code, params, said):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    assert wording.say(code, params) == said
