"""Statistical hold: the house's actual hold against the theoretical one from the engines' edges.

For each table and game over a period: theoretical win = Σ over bet types of edge × handle; the
actual win is Σ of what the house won on those bets. The 95 % interval is theoretical hold ± 1.96
standard errors, the variance of each bet type estimated from its results per unit staked around
its theoretical edge (so the interval is the one the edge predicts). A hold outside the interval
is flagged; with fewer than ``MIN_BETS`` bets the normal approximation is too rough to flag.
Edges are cached per game and rules (:class:`HouseEdgeCache`) because some engines simulate.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, FloatField, Sum
from django.db.models.functions import Cast
from django.utils import timezone

from accounting.models import HouseEdgeCache
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import SettlementLine

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


def house_edges(game: str, config: dict[str, Any]) -> dict[str, Fraction | float]:
    """Bet type → the house's edge for these rules, computed once and cached in the database."""
    rules = rules_of(config)
    key = _key(rules)
    cached = HouseEdgeCache.objects.filter(game=game, config_key=key).values_list("rows", flat=True).first()
    if cached is None:
        try:
            rows = [
                {"bet": r.bet, "edge": _edge_text(r.edge), "method": r.method}
                for r in get_engine(game).house_edge(rules)
            ]
        except EngineError as exc:
            rows = [{"error": exc.message}]
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


def _lines(**filters: Any) -> Any:
    lines = SettlementLine.objects.all()
    if filters.get("table") is not None:
        lines = lines.filter(settlement__round__table=filters["table"])
    if filters.get("shift") is not None:
        lines = lines.filter(settlement__round__shift=filters["shift"])
    if filters.get("game"):
        lines = lines.filter(settlement__round__game=filters["game"])
    if filters.get("pit"):
        lines = lines.filter(settlement__round__table__pit__code=filters["pit"])
    if filters.get("date_from"):
        lines = lines.filter(settlement__round__shift__gaming_date__gte=filters["date_from"])
    if filters.get("date_to"):
        lines = lines.filter(settlement__round__shift__gaming_date__lte=filters["date_to"])
    return lines


def statistical_hold(**filters: Any) -> list[dict[str, Any]]:
    """One row per table and game: handle, actual and theoretical hold, the 95 % interval and a flag.

    Filters: ``table``, ``shift`` (objects), ``game``, ``pit`` (code), ``date_from``, ``date_to``.
    """
    amount = Cast("bet__amount", FloatField())
    per_unit = Cast(-F("net"), FloatField()) / amount
    groups = (
        _lines(**filters)
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
            "handle": 0,
            "win": 0,
            "covered_handle": 0,
            "covered_win": 0,
            "theoretical_win": 0.0,
            "variance": 0.0,
            "uncovered_types": set(),
        }
    )
    for g in groups:
        key = (g["settlement__round__table__code"], g["settlement__round__game"])
        a = acc[key]
        n, stake, gain = g["n"], int(g["stake"]), int(g["gain"])
        a["bets"] += n
        a["handle"] += stake
        a["win"] += gain
        engine = get_engine(key[1])
        if not engine.banked:
            a["uncovered_types"].add(g["bet__type"])
            continue
        edge = house_edges(key[1], g["settlement__round__config"]).get(g["bet__type"])
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
    for (table, game), a in acc.items():
        covered = a["covered_handle"]
        row: dict[str, Any] = {
            "table": table,
            "game": game,
            "bets": a["bets"],
            "handle": a["handle"],
            "win": a["win"],
            "covered_handle": covered,
            "uncovered_bet_types": sorted(a["uncovered_types"]),
            "actual_hold": None,
            "theoretical_hold": None,
            "ci95": None,
            "flag": False,
        }
        if covered:
            actual = a["covered_win"] / covered
            theo = a["theoretical_win"] / covered
            half = Z95 * math.sqrt(a["variance"]) / covered
            row.update(
                actual_hold=round(actual, 6),
                theoretical_hold=round(theo, 6),
                ci95=[round(theo - half, 6), round(theo + half, 6)],
                flag=a["covered_bets"] >= MIN_BETS and not (theo - half <= actual <= theo + half),
            )
        if not get_engine(game).banked:
            row["note"] = "pool game: the house's take is its rake, not a hold against an edge"
        rows.append(row)
    return rows
