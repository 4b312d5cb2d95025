"""Statistical hold: the house's actual hold against the theoretical one from the engines' edges.

For each table and game over a period: the statistical hold is the rounds win ÷ the handle (both
:mod:`accounting.figures`'); the theoretical win is Σ over bet types of edge × stake. The 95 % interval is theoretical hold ± 1.96
standard errors, the variance of each bet type estimated from its results per unit staked around
its theoretical edge (so the interval is the one the edge predicts). A hold outside the interval
is flagged; with fewer than ``MIN_BETS`` bets the normal approximation is too rough to flag.
Edges are cached per game and rules (:class:`HouseEdgeCache`) because some engines simulate; a process also keeps
the edges it computed, so a cache row lost with a rolled-back transaction is written again without simulating again.
A new database starts from ``edges.json`` beside this module: the engines' edges for the rules of the demo's tables
and each game's defaults, computed ahead by ``manage.py edges_table --write`` (a minute of simulation a fresh install
no longer spends), and used only while the engines are byte for byte the ones that computed it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, FloatField, QuerySet, Sum
from django.db.models.functions import Cast
from django.utils import timezone

from accounting import figures
from accounting.models import HouseEdgeCache
from tables.engines.errors import EngineError
from tables.engines.registry import available_games, get_engine
from tables.models import Settlement, SettlementLine

Z95 = 1.96
MIN_BETS = 30
STATE_KEYS = {"min_bet", "max_bet", "button"}  # round-to-round state and limits: no effect on the edge


def rules_of(config: dict[str, Any]) -> dict[str, Any]:
    """The settings that decide the edge: drop limits and what carries from round to round."""
    return {k: v for k, v in sorted((config or {}).items()) if k not in STATE_KEYS and not k.endswith("carry_in")}


def _key(rules: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(rules, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _edge_text(edge: Fraction | float) -> str:
    return f"{edge.numerator}/{edge.denominator}" if isinstance(edge, Fraction) else repr(float(edge))


def _edge_value(text: str) -> Fraction | float:
    return Fraction(text) if "/" in text else float(text)


# (game, rules' key, the engine's house_edge function) → the rows it computed, in this process. The function is part
# of the key: an engine whose method is replaced (a test's spy) computes afresh. Deterministic engines only give
# the same rows again, so this is the database cache's copy, not a second truth; bounded by the rule sets in play.
_COMPUTED: dict[tuple[str, str, Any], list[dict[str, str]]] = {}
_COMPUTED_MAX = 256


TABLE = Path(__file__).with_name("edges.json")
ENGINES = Path(__file__).resolve().parents[1] / "tables" / "engines"
_table: dict[str, dict[str, list[dict[str, str]]]] | None = None


def engines_digest() -> str:
    """One digest of every engine module (tables/engines, its packages included): the edges in ``TABLE`` are the
    engines' only while this is the digest they were computed under."""
    digest = hashlib.sha256()
    for path in sorted(ENGINES.rglob("*.py")):
        digest.update(path.relative_to(ENGINES).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def written_table() -> dict[str, Any]:
    """``TABLE`` as written (``{"engines": digest, "edges": ...}``); empty when it is missing or unreadable."""
    try:
        data = json.loads(TABLE.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def edges_table() -> dict[str, dict[str, list[dict[str, str]]]]:
    """Game → rules' key → the rows its engine computes, from ``TABLE``; empty when the engines changed since."""
    global _table
    if _table is None:
        data = written_table()
        _table = data.get("edges", {}) if data.get("engines") == engines_digest() else {}
    return _table


def _computed_rows(game: str, rules: dict[str, Any], key: str) -> list[dict[str, str]]:
    engine = get_engine(game)
    method = getattr(type(engine), "house_edge", None)
    memo = (game, key, method)
    rows = _COMPUTED.get(memo)
    if rows is None and getattr(method, "__module__", "").startswith("tables.engines."):
        rows = edges_table().get(game, {}).get(key)  # computed ahead by this very engine (never a test's stand-in)
    if rows is None:
        try:
            rows = [{"bet": r.bet, "edge": _edge_text(r.edge), "method": r.method} for r in engine.house_edge(rules)]
        except EngineError as exc:
            rows = [{"error": exc.message}]
        if len(_COMPUTED) >= _COMPUTED_MAX:
            _COMPUTED.clear()
        _COMPUTED[memo] = rows
    return rows


def house_edges(game: str, config: dict[str, Any], *, compute: bool = True) -> dict[str, Fraction | float] | None:
    """Bet type → the house's edge for these rules, computed once and cached in the database.

    With ``compute=False`` only the cache is read (None when the edges were never computed): what the
    reconciliation does while it holds the shift's lock, after :func:`edges_prepare` ran without it.
    """
    rules = rules_of(config)
    key = _key(rules)
    cached = HouseEdgeCache.objects.filter(game=game, config_key=key).values_list("rows", flat=True).first()
    if cached is None:
        if not compute:
            return None
        rows = _computed_rows(game, rules, key)
        try:
            with transaction.atomic():
                HouseEdgeCache.objects.create(
                    game=game, config_key=key, config=rules, rows=rows, computed_at=timezone.now()
                )
        except IntegrityError:  # computed concurrently: same rules, same edges
            pass
        cached = rows
    edges: dict[str, Fraction | float] = {}
    for row in cached:
        if "bet" in row and row["bet"] not in edges:
            edges[row["bet"]] = _edge_value(row["edge"])
    return edges


def _banked_games() -> list[str]:
    return [g for g in available_games() if get_engine(g).banked]


def edges_prepare(settlements: QuerySet[Settlement]) -> int:
    """Compute (and cache) the edges of every banked game and rules ``settlements`` were played with;
    returns how many rule sets there were. Some engines simulate for seconds: call it before taking
    a lock, never under one."""
    seen: set[tuple[str, str]] = set()
    pairs = settlements.filter(round__game__in=_banked_games()).values_list("round__game", "round__config")
    for game, config in pairs.distinct().iterator(chunk_size=2_000):
        key = (game, _key(rules_of(config)))
        if key not in seen:
            seen.add(key)
            house_edges(game, config)
    return len(seen)


def _settlements(**filters: Any) -> QuerySet[Settlement]:
    qs = Settlement.objects.all()
    if filters.get("table") is not None:
        qs = qs.filter(round__table=filters["table"])
    if filters.get("shift") is not None:
        qs = qs.filter(round__shift=filters["shift"])
    if filters.get("game"):
        qs = qs.filter(round__game=filters["game"])
    if filters.get("pit"):
        qs = qs.filter(round__table__pit__code=filters["pit"])
    if filters.get("date_from"):
        qs = qs.filter(round__shift__gaming_date__gte=filters["date_from"])
    if filters.get("date_to"):
        qs = qs.filter(round__shift__gaming_date__lte=filters["date_to"])
    return qs


def statistical_hold(*, compute_edges: bool = True, **filters: Any) -> list[dict[str, Any]]:
    """One row per table and game: handle, rounds win, the statistical hold (rounds win ÷ handle), the
    theoretical hold from the engines' edges, its 95 % interval and a flag.

    Filters: ``table``, ``shift`` (objects or ids), ``game``, ``pit`` (code), ``date_from``, ``date_to``.
    Handle and rounds win are :mod:`accounting.figures`' (so they equal every other report's). The
    theoretical win is Σ edge × stake over the bet types the engine has an edge for (edges are quoted
    per unit staked as placed); a bet without an edge counts at its actual result, so the theoretical
    and actual holds share one divisor, the handle. With ``compute_edges=False`` only cached edges
    are used (types without one count as uncovered).
    """
    settlements = _settlements(**filters)
    per_table = figures.round_figures(settlements, by=["round__table__code", "round__game"])
    amount = Cast("bet__amount", FloatField())
    per_unit = Cast(-F("net"), FloatField()) / amount
    groups = (
        SettlementLine.objects.filter(settlement__in=settlements)
        .values("settlement__round__table__code", "settlement__round__game", "settlement__round__config", "bet__type")
        .annotate(
            n=Count("id"),
            stake=Sum("bet__amount"),
            gain=Sum(-F("net")),
            stake2=Sum(amount * amount),
            y=Sum(per_unit),
            y2=Sum(per_unit * per_unit),
        )
        .order_by("settlement__round__table__code", "settlement__round__game")
    )
    acc: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {
            "bets": 0,
            "covered_bets": 0,
            "covered_handle": 0,
            "covered_win": 0,
            "theoretical_win": 0.0,
            "variance": 0.0,
            "uncovered_types": set(),
        }
    )
    edges_of: dict[tuple[str, str], dict[str, Fraction | float] | None] = {}
    for g in groups:
        key = (g["settlement__round__table__code"], g["settlement__round__game"])
        a = acc[key]
        n, stake, gain = g["n"], int(g["stake"]), int(g["gain"])
        a["bets"] += n
        if not get_engine(key[1]).banked:
            continue
        config = g["settlement__round__config"]
        rules = (key[1], _key(rules_of(config)))
        if rules not in edges_of:
            edges_of[rules] = house_edges(key[1], config, compute=compute_edges)
        edge = (edges_of[rules] or {}).get(g["bet__type"])
        if edge is None:
            a["uncovered_types"].add(g["bet__type"])
            continue
        e = float(edge)
        a["covered_handle"] += stake
        a["covered_bets"] += n
        a["covered_win"] += gain
        a["theoretical_win"] += e * stake
        # σ² per unit staked, around the theoretical edge: E[(y − e)²]
        sigma2 = max((g["y2"] - 2 * e * g["y"] + n * e * e) / n, 0.0)
        a["variance"] += sigma2 * g["stake2"]
    rows = []
    for (table, game), r in sorted(per_table.items()):
        a = acc[(table, game)]
        banked = get_engine(game).banked
        row: dict[str, Any] = {
            "table": table,
            "game": game,
            "family": str(figures.family_of(game)),
            "bets": a["bets"],
            "handle": r.handle,
            "win": r.rounds_win,
            "statistical_hold": figures.ratio_text(r.statistical_hold),  # exact, "n/d"
            "actual_hold": None if r.statistical_hold is None else round(float(r.statistical_hold), 6),
            "covered_handle": a["covered_handle"],
            "uncovered_bet_types": sorted(a["uncovered_types"]),
            "theoretical_win": None,
            "theoretical_hold": None,
            "ci95": None,
            "flag": False,
        }
        if banked and a["covered_handle"] and r.handle:
            # bets without an edge count at their actual result: they move both sides alike
            theoretical = a["theoretical_win"] + (r.rounds_win - a["covered_win"])
            half = Z95 * math.sqrt(a["variance"])
            row.update(
                theoretical_win=round(theoretical),
                theoretical_hold=round(theoretical / r.handle, 6),
                ci95=[round((theoretical - half) / r.handle, 6), round((theoretical + half) / r.handle, 6)],
                flag=a["covered_bets"] >= MIN_BETS and not (theoretical - half <= r.rounds_win <= theoretical + half),
            )
        if not banked:
            row["note"] = "not banked: the house's take is its commission or rake, not a hold against an edge"
        rows.append(row)
    return rows
