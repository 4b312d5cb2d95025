"""The interface every scored card-room game follows.

A card-room game is kept on a score sheet: players (or partnerships), deals, what each deal
scored under the rules, running totals, the end of the game and its winner. A scorer enters
what the rules need for one deal (for Hearts: hearts and the queen of spades taken by each
player; for rummy: melds and deadwood); :meth:`ScoredGame.score_deal` checks it and says what
each side scored, or refuses it with an :class:`~tables.engines.errors.EngineError` naming the
field at fault. Like the engines, a game never touches a database; the sheet is a document:

    {"game": "hearts", "config": {...}, "players": ["ann", "bob", "cy", "dee"],
     "deals": [{"taken": {"ann": {"hearts": 3, "queen": false}, ...}}, ...]}

and :func:`score_sheet` replays it into totals, per-deal scores and the winner.

>>> from tables.scoring.registry import get_game  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tables.engines.base import Json, Setting
from tables.engines.errors import EngineError
from tables.scoring.entry import EntryField
from tables.scoring.phrases import phrase_json
from tables.scoring.refusals import N_, ScoringError


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one deal scored: points per side (player or partnership name), and why."""

    points: Mapping[str, int]
    # "ann shot the moon", "bob was euchred"…: each a phrases.note (its template and facts) where the game words it so
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # game-specific facts (bids, tricks…)
    # Optional, for games whose next deal depends on more than the totals (a pot carried to a re-deal,
    # hands won for a box bonus): what the next deal needs to know. Only read when the game sets
    # ``carries_state``; it is handed to the next ``score_deal`` as ``state=``.
    state: Mapping[str, Any] | None = None
    # Optional: the game ends with this deal and this side wins, for games whose end the totals alone
    # do not tell (Carousel rummy's winner reached 150 before the game and box bonuses were added).
    winner: str | None = None


class ScoredGame:
    """Base class. Subclasses set the class attributes and implement :meth:`score_deal`."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules: ClassVar[str]  # the rule book's section the game follows, e.g. "HEARTS"
    settings: ClassVar[tuple[Setting, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    lowest_wins: ClassVar[bool] = False  # Hearts: the lowest score wins
    # Optional: True if score_deal takes a keyword ``state`` (what the previous deal's DealScore.state
    # said, :meth:`initial_state` before the first deal).
    carries_state: ClassVar[bool] = False
    # Optional: the validity checks the game offers (a rummy meld, a casino build): see :meth:`check`.
    checks: ClassVar[tuple[str, ...]] = ()
    # What the scorer enters for a deal, as typed and labelled fields (tables/scoring/entry.py): the sheet page
    # renders them, nobody types JSON. Games whose parts depend on the players or settings override entry_fields.
    entry: ClassVar[tuple[EntryField, ...]] = ()

    # -- config and players ------------------------------------------------------------
    def resolve_config(self, given: Any) -> dict[str, Any]:
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise ScoringError("bad_config", N_("the settings must be an object of rule settings"), field="config")
        known = {s.name: s for s in self.settings}
        for name in given:
            if name not in known:
                raise ScoringError("unknown_setting", N_("%(what)s is not a setting of %(title)s"),
                                   field=f"config.{name}", what=f"config.{name}", title=self.title)
        return {s.name: _clean(s, given[s.name]) if s.name in given else s.default for s in self.settings}

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        """Who scores: the players, or partnership names for partnership games (override)."""
        return list(players)

    def check_players(self, players: Any, config: Mapping[str, Any]) -> list[str]:
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise ScoringError("bad_players", N_("the players must be a list of names"), field="players")
        if len(set(players)) != len(players):
            raise ScoringError("bad_players", N_("a player is listed twice"), field="players")
        if not self.min_players <= len(players) <= self.max_players:
            raise ScoringError("bad_players", N_("%(title)s takes %(low)s to %(high)s players"), field="players",
                               title=self.title, low=self.min_players, high=self.max_players)
        return players

    # -- the rules -----------------------------------------------------------------------
    def score_deal(self, deal: Mapping[str, Any], *, players: Sequence[str], config: Mapping[str, Any],
                   totals: Mapping[str, int], index: int) -> DealScore:  # pragma: no cover - abstract
        """Check one deal's entry and score it. ``totals`` are the running totals before this deal."""
        raise NotImplementedError

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        """The winner once the game is over, else None. Override for each game's end condition."""
        return None

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        """The parts of a deal's entry at this sheet (its players and settings), as fields to fill in."""
        return self.entry

    # -- optional helpers ----------------------------------------------------------------
    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The state before the first deal (games with ``carries_state``)."""
        return None

    def leader(self, totals: Mapping[str, int], *, config: Mapping[str, Any]) -> str | None:
        """The one side ahead (lowest or highest total, per ``lowest_wins``), None on a tie or no sides.

        What a sheet closed before the game's own end names as its winner (a chips game of Hearts has
        no target score: the session ends when the players stop).
        """
        if not totals:
            return None
        best = min(totals.values()) if self.lowest_wins else max(totals.values())
        ahead = [side for side, total in totals.items() if total == best]
        return ahead[0] if len(ahead) == 1 else None

    def check(self, name: str, payload: Any) -> Json:
        """Run one of the validity checks in ``checks`` (override); unknown names are refused."""
        if self.checks:
            raise ScoringError("unknown_check", N_("%(title)s offers no '%(name)s' check (checks: %(checks)s)"),
                               field="check", title=self.title, name=str(name), checks=list(self.checks))
        raise ScoringError("unknown_check", N_("%(title)s offers no '%(name)s' check"), field="check",
                           title=self.title, name=str(name))

    def describe(self) -> Json:
        return {"game": self.name, "title": self.title, "rules": self.rules, "min_players": self.min_players,
                "max_players": self.max_players, "lowest_wins": self.lowest_wins,
                "settings": [{"name": s.name, "kind": s.kind.value, "default": s.default, "help": s.help}
                             for s in self.settings],
                **({"checks": list(self.checks)} if self.checks else {})}


def _clean(setting: Setting, value: Any) -> Any:
    """A rule setting's value, or its refusal as the sheet words it."""
    try:
        return setting.clean(value)
    except EngineError as exc:
        raise ScoringError.setting(exc, setting) from None


def score_sheet(game: ScoredGame, doc: Mapping[str, Any]) -> Json:
    """Replay a whole score sheet: per-deal scores, running totals, the winner (or None)."""
    if not isinstance(doc, Mapping):
        raise ScoringError("bad_document", N_("a score sheet must be a JSON object"))
    config = game.resolve_config(doc.get("config"))
    players = game.check_players(doc.get("players"), config)
    deals = doc.get("deals") or []
    if not isinstance(deals, list):
        raise ScoringError("bad_document", N_("the deals must be a list"), field="deals")
    sides = game.sides(players, config)
    totals = dict.fromkeys(sides, 0)
    rows: list[Json] = []
    winner = None
    state = game.initial_state(players, config) if game.carries_state else None
    for i, deal in enumerate(deals):
        if winner is not None:
            raise ScoringError("game_over", N_("the game is already won by %(player)s"), event=i, at=f"deal {i}",
                               player=winner)
        if not isinstance(deal, Mapping):
            raise ScoringError("bad_deal", N_("deal %(n)s must be an object"), event=i, n=i)
        try:
            more = {"state": state} if game.carries_state else {}
            scored = game.score_deal(deal, players=players, config=config, totals=dict(totals), index=i, **more)
        except EngineError as exc:
            raise exc.at(i) from None
        for side, pts in scored.points.items():
            if side not in totals:
                raise ScoringError("bad_deal", N_("%(side)s is not a side of this game"), event=i, at=f"deal {i}",
                                   side=side)
            totals[side] += pts
        rows.append({"deal": i, "points": dict(scored.points), "totals": dict(totals), "notes": list(scored.notes),
                     **({"phrases": [phrase_json(n) for n in scored.notes]} if scored.notes else {}),
                     **({"extra": dict(scored.extra)} if scored.extra else {})})
        if game.carries_state:
            state = scored.state
        if scored.winner is not None and scored.winner not in totals:
            raise ScoringError("bad_deal", N_("the winner %(side)s is not a side of this game"), event=i,
                               at=f"deal {i}", side=scored.winner)
        winner = scored.winner if scored.winner is not None else game.winner(totals, config=config, deals=i + 1)
    return {"game": game.name, "config": config, "players": players, "sides": sides, "deals": rows,
            "totals": totals, "winner": winner, "status": "finished" if winner is not None else "in_progress",
            **({"state": state} if game.carries_state else {})}
