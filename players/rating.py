"""A rating slip's figures from what the table recorded: plain data in, exact figures out (no database).

The slip's active time is from opening to closing (or now) less its pauses. A round belongs to the
slip when betting closed on it during the active time (the moment its stakes were fixed); a round
settled at the table then is a *table decision*, and one in which the seat bet is a *decision* of the
player. From the seat's settled bets:

* handle = Σ staked (a double or a split counts, as the settlement reports it);
* average bet = handle ÷ decisions, to the nearest minor unit (halves away from zero);
* decisions per hour = decisions ÷ active hours, shown to two decimals (halves away from zero);
* house edge = the edge of the bet types actually bet, weighted by their handle;
* theoretical win = average bet × decisions per hour × hours × house edge, computed with exact
  fractions and rounded once at the end — the same number as Σ over bet types of handle × edge;
* actual win = the house's result from the seat's bets (− Σ of the bettor's net);
* comp value = theoretical win × reinvestment % ÷ 100 and points = comp value × points per unit ÷
  one currency unit, each rounded down (the house never grants a fraction it did not earn).

**Measured skill** (docs/game_protection.md): at blackjack and Pontoon a rated player's recorded decisions give a
measured house edge — the assumed one (the engine's edge for basic strategy at the round's rules) plus the mean
cost of the player's decisions per round, as :mod:`tables.protection.skill` computes it. The cost comes in as whole
parts per million of the bet (the one conversion from the calculator's floating point); the measured edge of the
main bet is then exact, ``assumed + cost_ppm / 1 000 000``. It replaces the assumed edge in theoretical win (and so
in comps) when the player has at least ``min_rounds`` recorded rounds at the game (the ``MEASURED_EDGE_MIN_ROUNDS``
knob); below that the assumed edge stays, and the figures say why. Both theoretical wins are kept, each rounded
once, and which one was used.

Where the seat has no recorded bets, the floor's estimate of the average bet stands in, at the
table's measured pace and the edge of the table's bets. Integrity flags say when a rating should
not be trusted as it is.

>>> from datetime import datetime, timedelta, UTC
>>> t0 = datetime(2025, 1, 1, 20, 0, tzinfo=UTC)
>>> spans = active_spans(t0, t0 + timedelta(hours=1), [(t0 + timedelta(minutes=10), t0 + timedelta(minutes=40))])
>>> [(a.minute, b.minute) for a, b in spans], microseconds(spans) // 1_000_000
([(0, 10), (40, 0)], 1800)
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from accounting.money import percent_text, round_half_away

Span = tuple[dt.datetime, dt.datetime]
US_PER_HOUR = 3_600_000_000

FLAG_NO_ROUNDS_AT_TABLE = "no_rounds_at_table"
FLAG_NO_BETS_AT_SEAT = "no_bets_at_seat"
FLAG_AVERAGE_BET_MISMATCH = "average_bet_mismatch"
FLAG_OVERLAPPING = "overlapping_slip"
FLAG_BETS_WHILE_PAUSED = "bets_while_paused"
FLAGS = (
    FLAG_NO_ROUNDS_AT_TABLE,
    FLAG_NO_BETS_AT_SEAT,
    FLAG_AVERAGE_BET_MISMATCH,
    FLAG_OVERLAPPING,
    FLAG_BETS_WHILE_PAUSED,
)


@dataclass(frozen=True)
class TableRound:
    """A settled round at the slip's table: when betting closed on it, and the rules it was played with."""

    round_id: int
    at: dt.datetime
    game: str
    config: dict[str, Any]
    config_key: str = ""  # any text equal for equal rules (the database's JSON text); derived when empty


class RoundIndex:
    """A table's rounds in time order, to take those of a span by bisection (the dashboard rates every
    open slip of a table against the same rounds)."""

    def __init__(self, rounds: Iterable[TableRound]) -> None:
        self.rounds = sorted(rounds, key=lambda r: r.at)
        self.times = [r.at for r in self.rounds]

    def between(self, start: dt.datetime, end: dt.datetime) -> list[TableRound]:
        """The rounds with ``start <= at < end``."""
        return self.rounds[bisect_left(self.times, start) : bisect_left(self.times, end)]


@dataclass(frozen=True)
class SeatBet:
    """One settled bet at the slip's seat: what was staked in all and the bettor's net."""

    round_id: int
    bet_type: str
    staked: int
    net: int


@dataclass(frozen=True)
class CompRule:
    reinvestment_percent: int
    points_per_unit: int
    minor_per_unit: int  # 100 when the currency has two decimals


EDGE_MEASURED = "measured"
EDGE_ASSUMED = "assumed"
REASON_TOO_FEW_ROUNDS = "too_few_rounds"
PPM = 1_000_000


@dataclass(frozen=True)
class MeasuredEdge:
    """A player's measured skill at one game, as the rating reads it: the mean decision cost per round in whole
    parts per million of the initial bet, over ``rounds`` rounds and ``decisions`` decisions."""

    game: str
    bet_type: str  # the bet whose assumed edge it corrects (the main bet)
    rounds: int
    decisions: int
    cost_ppm: int
    min_rounds: int

    @property
    def usable(self) -> bool:
        return self.rounds >= self.min_rounds and self.rounds > 0


@dataclass
class Figures:
    active_us: int
    paused_us: int
    decisions: int
    table_decisions: int
    handle: int
    covered_handle: int
    measured_average_bet: int | None
    estimated_average_bet: int | None
    average_bet: int | None
    average_bet_source: str  # measured, estimate or none
    decisions_per_hour: Decimal | None
    house_edge: Fraction | None
    theoretical_win: int | None  # None while an edge is not computed yet
    actual_win: int | None
    comp_value: int | None
    comp_points: int | None
    flags: list[str]
    by_type: list[dict[str, Any]] = field(default_factory=list)
    overlaps: list[int] = field(default_factory=list)
    paused_bets: int = 0
    skill: dict[str, Any] | None = None  # the assumed and measured edges side by side (see the module's text)

    @property
    def active_seconds(self) -> int:
        return self.active_us // 1_000_000

    @property
    def paused_seconds(self) -> int:
        return self.paused_us // 1_000_000

    @property
    def edge_pending(self) -> bool:
        return self.theoretical_win is None


def active_spans(
    opened_at: dt.datetime, end: dt.datetime, pauses: Iterable[tuple[dt.datetime, dt.datetime | None]]
) -> list[Span]:
    """[opened_at, end) less the pauses (a pause still running lasts until ``end``), as ordered spans."""
    spans: list[Span] = []
    at = opened_at
    for start, stop in sorted(pauses, key=lambda p: p[0]):
        stop = end if stop is None or stop > end else stop
        start = max(start, opened_at)
        if start > at:
            spans.append((at, min(start, end)))
        at = max(at, stop)
        if at >= end:
            break
    if at < end:
        spans.append((at, end))
    return [(a, b) for a, b in spans if b > a]


def microseconds(spans: Iterable[Span]) -> int:
    total = dt.timedelta(0)
    for a, b in spans:
        total += b - a
    return total // dt.timedelta(microseconds=1)


def two_places(value: Fraction) -> Decimal:
    return Decimal(round_half_away(value * 100)).scaleb(-2)


def comp_for(theo: int, rule: CompRule) -> tuple[int, int]:
    """(comp value, points), each rounded down; nothing for a theoretical loss."""
    value = max(theo, 0) * rule.reinvestment_percent // 100
    return value, value * rule.points_per_unit // rule.minor_per_unit


def far_apart(estimate: int, measured: int, factor_percent: int) -> bool:
    """True when one average bet is more than ``factor_percent`` % of the other (integers, no floats)."""
    if measured <= 0:
        return estimate > 0
    return estimate * 100 > measured * factor_percent or measured * 100 > estimate * factor_percent


EdgeSource = Callable[[str, dict[str, Any]], dict[str, Any] | None]


def _weighted(
    stakes: dict[tuple[str, str, str], int], configs: dict[str, dict[str, Any]], edges_of: EdgeSource
) -> tuple[Fraction, int, bool, dict[tuple[str, str, str], Fraction | None]]:
    """Σ handle × edge over the (game, rules, bet type) groups; the handle with an edge; pending?"""
    theo, covered, pending = Fraction(0), 0, False
    per: dict[tuple[str, str, str], Fraction | None] = {}
    for (game, config_key, bet_type), stake in stakes.items():
        edges = edges_of(game, configs[config_key])
        if edges is None:
            pending = True
            per[(game, config_key, bet_type)] = None
            continue
        edge = edges.get(bet_type)
        if edge is None:
            per[(game, config_key, bet_type)] = None
            continue
        exact = edge if isinstance(edge, Fraction) else Fraction(edge)
        per[(game, config_key, bet_type)] = exact
        theo += stake * exact
        covered += stake
    return theo, covered, pending, per


def _config_key(config: dict[str, Any]) -> str:
    import json

    return json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)


def figures(
    *,
    opened_at: dt.datetime,
    end: dt.datetime,
    pauses: Iterable[tuple[dt.datetime, dt.datetime | None]],
    table_rounds: Iterable[TableRound] | RoundIndex,
    seat_bets: Iterable[SeatBet],
    estimated_average_bet: int | None,
    edges_of: EdgeSource,
    rule: CompRule,
    factor_percent: int,
    table_bets: Iterable[SeatBet] | None = None,
    fallback_config: tuple[str, dict[str, Any]] | None = None,
    overlaps: Sequence[int] = (),
    measured_edge: MeasuredEdge | None = None,
) -> Figures:
    """The slip's figures. ``table_bets`` (every seat's, for the estimate's edge) is only read when the
    seat has no bets of its own and the floor gave an estimate. ``measured_edge``: the player's measured skill at the
    slip's game, which replaces the assumed edge of its main bet when it has enough rounds."""
    pauses = list(pauses)
    spans = active_spans(opened_at, end, pauses)
    active_us = microseconds(spans)
    paused_us = max(microseconds([(opened_at, end)]) - active_us, 0)
    index = table_rounds if isinstance(table_rounds, RoundIndex) else RoundIndex(table_rounds)
    rounds_in = {r.round_id: r for a, b in spans for r in index.between(a, b)}
    bets = list(seat_bets)
    mine = [b for b in bets if b.round_id in rounds_in]
    if len(mine) < len(bets):
        whole = {r.round_id for r in index.between(opened_at, end)}
        paused_bets = sum(1 for b in bets if b.round_id in whole and b.round_id not in rounds_in)
    else:
        paused_bets = 0

    configs: dict[str, dict[str, Any]] = {}
    stakes: dict[tuple[str, str, str], int] = defaultdict(int)
    nets: dict[tuple[str, str, str], int] = defaultdict(int)
    for b in mine:
        rnd = rounds_in[b.round_id]
        ck = rnd.config_key or _config_key(rnd.config)
        configs[ck] = rnd.config
        stakes[(rnd.game, ck, b.bet_type)] += b.staked
        nets[(rnd.game, ck, b.bet_type)] += b.net
    decisions = len({b.round_id for b in mine})
    table_decisions = len(rounds_in)
    handle = sum(stakes.values())
    theo_exact, covered, pending, per = _weighted(stakes, configs, edges_of)
    by_type = [
        {
            "game": game,
            "bet_type": bet_type,
            "handle": stake,
            "actual_win": -nets[(game, ck, bet_type)],
            "edge": None if (per_type := per[(game, ck, bet_type)]) is None else _fraction_text(per_type),
        }
        for (game, ck, bet_type), stake in sorted(stakes.items())
    ]
    measured = round_half_away(Fraction(handle, decisions)) if decisions else None
    edge: Fraction | None = theo_exact / covered if covered else None
    actual: int | None = None
    flags: list[str] = []
    skill: dict[str, Any] | None = None
    if decisions:
        source, average, pace_decisions = "measured", measured, decisions
        theo: int | None = None if pending else round_half_away(theo_exact)
        actual = -sum(nets.values())
        if measured_edge is not None and not pending and covered:
            skill, theo_used = _with_measured(measured_edge, theo_exact, covered, stakes, per)
            theo, edge = round_half_away(theo_used), theo_used / covered
    elif estimated_average_bet and table_decisions:
        source, average, pace_decisions = "estimate", estimated_average_bet, table_decisions
        theo, edge = _estimated_theo(
            estimated_average_bet, table_decisions, rounds_in, table_bets, edges_of, fallback_config
        )
    else:
        source, average, pace_decisions = ("estimate" if estimated_average_bet else "none"), estimated_average_bet, 0
        theo, edge = 0, None
    per_hour = two_places(Fraction(pace_decisions * US_PER_HOUR, active_us)) if active_us else None
    if not table_decisions:
        flags.append(FLAG_NO_ROUNDS_AT_TABLE)
    elif not decisions:
        flags.append(FLAG_NO_BETS_AT_SEAT)
    if measured is not None and estimated_average_bet and far_apart(estimated_average_bet, measured, factor_percent):
        flags.append(FLAG_AVERAGE_BET_MISMATCH)
    if overlaps:
        flags.append(FLAG_OVERLAPPING)
    if paused_bets:
        flags.append(FLAG_BETS_WHILE_PAUSED)
    comp_value, comp_points = comp_for(theo, rule) if theo is not None else (None, None)
    return Figures(
        active_us=active_us,
        paused_us=paused_us,
        decisions=decisions,
        table_decisions=table_decisions,
        handle=handle,
        covered_handle=covered,
        measured_average_bet=measured,
        estimated_average_bet=estimated_average_bet,
        average_bet=average,
        average_bet_source=source,
        decisions_per_hour=per_hour,
        house_edge=edge,
        theoretical_win=theo,
        actual_win=actual,
        comp_value=comp_value,
        comp_points=comp_points,
        flags=flags,
        by_type=by_type,
        overlaps=list(overlaps),
        paused_bets=paused_bets,
        skill=skill,
    )


def _with_measured(
    me: MeasuredEdge,
    theo_exact: Fraction,
    covered: int,
    stakes: dict[tuple[str, str, str], int],
    per: dict[tuple[str, str, str], Fraction | None],
) -> tuple[dict[str, Any] | None, Fraction]:
    """The assumed and the measured theoretical win side by side, and the exact one used. The measured edge of
    the main bet is its assumed edge plus the cost (ppm); the other bets keep their edges."""
    main = sum(
        stake for (game, ck, bet_type), stake in stakes.items()
        if game == me.game and bet_type == me.bet_type and per[(game, ck, bet_type)] is not None
    )
    if not main:
        return None, theo_exact
    theo_measured = theo_exact + main * Fraction(me.cost_ppm, PPM)
    used = EDGE_MEASURED if me.usable else EDGE_ASSUMED
    skill = {
        "game": me.game,
        "rounds": me.rounds,
        "decisions": me.decisions,
        "min_rounds": me.min_rounds,
        "cost_ppm": me.cost_ppm,
        "handle": main,
        "assumed_edge": _fraction_text(theo_exact / covered),
        "measured_edge": _fraction_text(theo_measured / covered),
        "theo_assumed": round_half_away(theo_exact),
        "theo_measured": round_half_away(theo_measured),
        "used": used,
        "reason": "" if me.usable else REASON_TOO_FEW_ROUNDS,
    }
    return skill, theo_measured if me.usable else theo_exact


def _estimated_theo(
    estimate: int,
    table_decisions: int,
    rounds_in: dict[int, TableRound],
    table_bets: Iterable[SeatBet] | None,
    edges_of: EdgeSource,
    fallback: tuple[str, dict[str, Any]] | None,
) -> tuple[int | None, Fraction | None]:
    """estimate × the table's decisions × the edge of what the table's players bet (by handle); with no
    bets recorded at the table at all, the lowest positive edge the game offers (the conservative one)."""
    configs: dict[str, dict[str, Any]] = {}
    stakes: dict[tuple[str, str, str], int] = defaultdict(int)
    for b in table_bets or ():
        rnd = rounds_in.get(b.round_id)
        if rnd is None:
            continue
        ck = rnd.config_key or _config_key(rnd.config)
        configs[ck] = rnd.config
        stakes[(rnd.game, ck, b.bet_type)] += b.staked
    theo_exact, covered, pending, _ = _weighted(stakes, configs, edges_of)
    if pending:
        return None, None
    if covered:
        edge = theo_exact / covered
    else:
        if fallback is None:
            return 0, None
        edges = edges_of(*fallback)
        if edges is None:
            return None, None
        positive = [e if isinstance(e, Fraction) else Fraction(e) for e in edges.values() if e > 0]
        if not positive:
            return 0, None
        edge = min(positive)
    return round_half_away(estimate * table_decisions * edge), edge


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def fraction_text(value: Fraction | None) -> str:
    return "" if value is None else _fraction_text(value)


def percent4(value: Fraction | None) -> str:
    """An edge as a percentage with four decimals, halves away from zero (display only)."""
    return percent_text(value, 4)
