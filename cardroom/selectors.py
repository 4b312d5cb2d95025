"""Reads: which sheets a user sees, a sheet with its entries, a tournament's standings."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum

from cardroom.models import ScoreSheet, SheetStatus, Tournament
from casino.core.roles import Role, has_role
from tables.access import can_view_table
from tables.engines.base import Json
from tables.scoring.registry import get_game
from tables.selectors import visible_tables


def visible_sheets(user: Any) -> QuerySet[ScoreSheet]:
    """Accountants, auditors and admins see every sheet; pit managers their pits'; dealers their tables'."""
    qs = ScoreSheet.objects.select_related("table", "tournament")
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR):
        return qs
    return qs.filter(table__in=visible_tables(user).values("pk"))


def can_view_sheet(user: Any, sheet: ScoreSheet) -> bool:
    return can_view_table(user, sheet.table)


def sheet_entries(sheet: ScoreSheet) -> list[Json]:
    """Every entry as made, corrections included, oldest first."""
    rows = sheet.deal_entries.select_related("recorded_by", "supersedes").order_by("seq")
    return [
        {
            "seq": r.seq,
            "deal": r.deal,
            "entry": r.entry,
            "points": r.points,
            "corrects": r.supersedes.seq if r.supersedes else None,
            "reason": r.reason,
            "in_force": not hasattr(r, "superseded_by"),
            "recorded_by": r.recorded_by.get_username(),
            "recorded_at": r.recorded_at.isoformat(),
        }
        for r in rows
    ]


def tournament_standings(tournament: Tournament) -> list[Json]:
    """The sides across the tournament's sheets — each player, or each partnership in partnership games:
    sheets played (in progress included), games won (finished or closed sheets), points.

    Only what was played is ranked: best first — most wins, then the better points total (lowest for
    games where the lowest wins) — ties sharing a place. An entrant seated at no sheet yet follows,
    unplaced (``place`` None), by name: no score is not a score of 0, which would outrank every side
    behind on points (or, where the lowest wins, ahead). In partnership games an entrant who has played
    is counted in his side's row, not again on his own."""
    lowest = get_game(tournament.game).lowest_wins
    rows: dict[str, Json] = {}
    seated: set[str] = set()
    for players, totals, winner, status in tournament.sheets.values_list("players", "totals", "winner", "status"):
        seated.update(players)
        for side, points in (totals or {}).items():
            row = rows.setdefault(side, {"player": side, "sheets": 0, "wins": 0, "points": 0})
            row["sheets"] += 1
            row["points"] += int(points)
            if side == winner and status in (SheetStatus.FINISHED, SheetStatus.CLOSED):
                row["wins"] += 1
    ordered = sorted(rows.values(), key=lambda r: (-r["wins"], r["points"] if lowest else -r["points"], r["player"]))
    place, previous = 0, None
    for i, row in enumerate(ordered):
        key = (row["wins"], row["points"])
        if key != previous:
            place, previous = i + 1, key
        row["place"] = place
    waiting = tournament.entries.exclude(player__in=seated).order_by("player").values_list("player", flat=True)
    return ordered + [{"player": p, "sheets": 0, "wins": 0, "points": 0, "place": None} for p in waiting]


def tournament_detail(tournament: Tournament) -> Json:
    return {
        "prize_pool": prize_pool(tournament),
        "entries": [
            {"player": e.player, "fee": e.fee, "house_fee": e.house_fee, "registered_at": e.registered_at.isoformat()}
            for e in tournament.entries.all()
        ],
        "payouts": [{"place": p.place, "player": p.player, "amount": p.amount} for p in tournament.payouts.all()],
        "standings": tournament_standings(tournament),
    }


def prize_pool(tournament: Tournament) -> int:
    """Every entry fee paid into the tournament (minor units)."""
    return int(tournament.entries.aggregate(s=Sum("fee"))["s"] or 0)
