"""Advantage play, read from what the dealers entered (docs/game_protection.md): for each rated player at
blackjack tables dealt from a marked shoe, the Hi-Lo count before each round of the shoes they played in, how
their initial bet moved with it, whether they came and went with it, and how their decisions compare with basic
strategy. Reads only; a flag is for the pit to watch, never an accusation."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from players.conf import knob
from players.edges import edges_for
from players.models import Player, RatingSlip
from players.rating import PPM, MeasuredEdge
from tables.engines.blackjack import Blackjack, Pontoon
from tables.engines.profile import Watch
from tables.engines.registry import available_games, get_engine
from tables.models import Round, RoundStatus, Shoe, Table
from tables.protection.betting import BackCounting, BetPattern, EdgeTable, TableRound, back_counting, bet_pattern
from tables.protection.count import counts_before_rounds
from tables.protection.records import blackjack_decisions, cards_of
from tables.protection.side_bets import SideBetClustering, pair_ev, side_bet_clustering, tie_ev
from tables.protection.skill import DecisionCosts, MeasuredSkill, decision_costs, measured_skill
from tables.selectors import stored_document

RANKS = "A23456789TJQK"
SKILL_LOOK_BACK = dt.timedelta(days=30)  # the player's decisions a slip's measured edge reads


def watched_games(*kinds: Watch) -> list[str]:
    """The games whose engines declare what game protection reads from them (``GameProfile.watch``): a card
    count (the initial bet and the decisions: blackjack and Pontoon) or side bets valued from the shoe."""
    kinds = kinds or (Watch.COUNT, Watch.PAIRS)
    return [g for g in available_games() if get_engine(g).profile.watch in kinds]


def _watch_bets(game: str) -> tuple[str, ...]:
    return get_engine(game).profile.watch_bets


@dataclass
class Advantage:
    """One player's figures over the rounds they played at shoe tables in the period."""

    player: Player
    since: dt.datetime
    rounds: int = 0
    tables: list[str] = field(default_factory=list)
    pattern: BetPattern | None = None
    backcount: BackCounting | None = None
    skill: MeasuredSkill | None = None
    baccarat_rounds: int = 0
    side_bets: SideBetClustering | None = None
    tie_bets: SideBetClustering | None = None  # the tie bet against its exact expected value from the cards left
    alpha: float = 0.01
    skill_by_game: dict[str, MeasuredSkill] = field(default_factory=dict)  # blackjack and Pontoon apart

    @property
    def flags(self) -> list[str]:
        out = []
        if self.pattern is not None and self.pattern.flagged(self.alpha):
            out.append("bets_follow_count")
        if self.backcount is not None and self.backcount.flagged(self.alpha):
            out.append("back_counting")
        if self.side_bets is not None and self.side_bets.flagged(self.alpha):
            out.append("pair_bets_at_positive_ev")
        if self.tie_bets is not None and self.tie_bets.flagged(self.alpha):
            out.append("tie_bets_at_positive_ev")
        return out

    @property
    def smallest_p(self) -> float:
        ps = [x.p_value for x in (self.pattern, self.backcount, self.side_bets, self.tie_bets) if x is not None]
        return min(ps) if ps else 1.0


def _alpha() -> float:
    return knob("ADVANTAGE_FLAG_P_PPM") / 1_000_000


def _basic_edge(game: str, config: dict[str, Any]) -> float:
    """The engine's house edge of the main bet for basic strategy at these rules (the house_edge command's)."""
    edges = edges_for(game, config, compute=False)  # warmed by a job when a slip opens (players.services.slips)
    if edges is None:
        edges = edges_for(game, config, compute=True) or {}
    edge = next((edges[b] for b in _watch_bets(game) if b in edges), None)
    return float(edge) if isinstance(edge, Fraction | float | int) else 0.005


def player_advantage(player: Player, *, since: dt.datetime, until: dt.datetime | None = None) -> Advantage:
    """The player's figures over their slips at blackjack tables opened from ``since``."""
    qs = RatingSlip.objects.filter(player=player, table__game__in=watched_games(), opened_at__gte=since)
    if until is not None:  # what a slip's rating read stays what it was, whenever the job runs
        qs = qs.filter(opened_at__lte=until)
    slips = list(qs.select_related("table").order_by("opened_at"))
    return _figures(player, slips, since=since, until=until)


def pit_advantage(tables: list[Table], *, since: dt.datetime, until: dt.datetime | None = None) -> list[Advantage]:
    """Every rated player at these (blackjack) tables since ``since``, the flagged first, then by the smallest
    p-value."""
    watched = watched_games()
    qs = RatingSlip.objects.filter(table__in=[t for t in tables if t.game in watched], opened_at__gte=since,
                                   player__isnull=False)
    if until is not None:
        qs = qs.filter(opened_at__lt=until)
    by_player: dict[int, list[RatingSlip]] = defaultdict(list)
    for slip in qs.select_related("table", "player").order_by("opened_at"):
        assert slip.player_id is not None
        by_player[slip.player_id].append(slip)
    found = [_figures(s[0].player, s, since=since, until=until) for s in by_player.values() if s[0].player is not None]
    found = [a for a in found if a.rounds or a.baccarat_rounds]
    return sorted(found, key=lambda a: (not a.flags, a.smallest_p))


def _figures(player: Player, slips: list[RatingSlip], *, since: dt.datetime,
             until: dt.datetime | None = None) -> Advantage:
    out = Advantage(player=player, since=since, alpha=_alpha())
    if not slips:
        return out
    now = until or timezone.now()
    bets: list[tuple[float, int]] = []
    table_rounds: list[TableRound] = []
    round_costs: list[float] = []
    decisions = deviations = 0
    base_edges: list[tuple[float, int]] = []
    costs_by_rules: dict[str, DecisionCosts] = {}
    pair_rounds: list[tuple[float, bool]] = []
    by_game: dict[str, tuple[list[float], list[int], list[float]]] = {}  # round costs, [decisions, deviations], edge
    tie_rounds: list[tuple[float, bool]] = []
    for slip in slips:
        if get_engine(slip.table.game).profile.watch is Watch.PAIRS:
            if _pair_rounds(slip, now, pair_rounds, ties=tie_rounds) and slip.table.code not in out.tables:
                out.tables.append(slip.table.code)
            continue
        window = (slip.opened_at, min(slip.closed_at or now, now))
        shoe_ids = _slip_shoes(slip, window[1])
        if not shoe_ids:
            continue
        if slip.table.code not in out.tables:
            out.tables.append(slip.table.code)
        shoes = {s.pk: s for s in Shoe.objects.filter(pk__in=shoe_ids)}
        rounds = list(Round.objects.filter(shoe_id__in=shoe_ids).exclude(status=RoundStatus.VOIDED)
                      .only("pk", "shoe_id", "number", "opened_at", "status", "config", "game", "document")
                      .order_by("shoe_id", "number"))
        by_shoe: dict[int, list[Round]] = defaultdict(list)
        for rnd in rounds:
            assert rnd.shoe_id is not None
            by_shoe[rnd.shoe_id].append(rnd)
        for shoe_id in sorted(by_shoe):
            shoe_rounds = by_shoe[shoe_id]
            docs = [stored_document(r) for r in shoe_rounds]
            counts = counts_before_rounds(shoes[shoe_id].decks, [cards_of(d["events"]) for d in docs],
                                          burn=shoes[shoe_id].burn)
            for rnd, doc, before in zip(shoe_rounds, docs, counts):
                stake = next((b["amount"] for b in doc["bets"] if b.get("seat") == slip.seat
                              and b.get("type") in _watch_bets(rnd.game)), None)
                played = (stake is not None and rnd.status == RoundStatus.SETTLED
                          and window[0] <= rnd.opened_at <= window[1])
                table_rounds.append(TableRound(shoe_id, before.true_count, played))
                if not played:
                    continue
                assert stake is not None
                bets.append((before.true_count, int(stake)))
                key = repr(sorted(rnd.config.items()))
                coster = costs_by_rules.get(key)
                engine = get_engine(rnd.game)
                assert isinstance(engine, Blackjack | Pontoon)  # the games whose decisions are costed
                rules = engine.rules(rnd.config)
                pontoon = rules.pontoon
                if coster is None:
                    coster = costs_by_rules[key] = decision_costs(rules)
                    base_edges.append((_basic_edge(rnd.game, rnd.config), 0))
                game = by_game.setdefault(rnd.game, ([], [0, 0], [_basic_edge(rnd.game, rnd.config)]))
                cost = 0.0
                for d in blackjack_decisions(rnd.config, doc["bets"], doc["events"], pontoon=pontoon):
                    if d.seat != slip.seat:
                        continue
                    decisions += 1
                    c = coster.cost(list(d.hand), d.up, d.action, d.allowed)
                    deviations += c != 0
                    game[1][0] += 1
                    game[1][1] += c != 0
                    cost += c
                round_costs.append(cost)
                game[0].append(cost)
    out.rounds = len(bets)
    out.baccarat_rounds = len(pair_rounds)
    if pair_rounds:
        out.side_bets = side_bet_clustering(pair_rounds)
    if tie_rounds:
        out.tie_bets = side_bet_clustering(tie_rounds)
    if not bets:
        return out
    base = base_edges[0][0] if base_edges else 0.005
    out.pattern = bet_pattern(bets, EdgeTable.linear(house_edge=base))
    out.backcount = back_counting(table_rounds)
    out.skill = measured_skill(round_costs, decisions=decisions, deviations=deviations, basic_house_edge=base)
    out.skill_by_game = {g: measured_skill(c, decisions=n[0], deviations=n[1], basic_house_edge=e[0])
                         for g, (c, n, e) in by_game.items()}
    return out


def slip_measured_edge(slip: RatingSlip) -> MeasuredEdge | None:
    """The player's measured skill at the slip's game over ``SKILL_LOOK_BACK`` to the slip's close, for its rating
    (players.rating: it replaces the assumed edge from ``MEASURED_EDGE_MIN_ROUNDS`` rounds on); None for an
    anonymous slip or a game whose decisions are not costed."""
    game = slip.table.game
    if slip.player is None or game not in watched_games(Watch.COUNT):
        return None
    end = slip.closed_at or timezone.now()
    found = player_advantage(slip.player, since=slip.opened_at - SKILL_LOOK_BACK, until=end)
    skill = found.skill_by_game.get(game)
    rounds, decisions, cost = (skill.rounds, skill.decisions, skill.cost_per_round) if skill else (0, 0, 0.0)
    return MeasuredEdge(game=game, bet_type=_watch_bets(game)[0], rounds=rounds, decisions=decisions,
                        cost_ppm=round(cost * PPM), min_rounds=knob("MEASURED_EDGE_MIN_ROUNDS"))


def _slip_shoes(slip: RatingSlip, end: dt.datetime) -> set[int]:
    """The marked shoes the slip's table dealt rounds from while the slip was open (to ``end``)."""
    return set(Round.objects.filter(table=slip.table, shoe__isnull=False, opened_at__gte=slip.opened_at,
                                    opened_at__lte=end).values_list("shoe_id", flat=True))


def _pair_rounds(slip: RatingSlip, now: dt.datetime, out: list[tuple[float, bool]], *,
                 ties: list[tuple[float, bool]] | None = None) -> bool:
    """The slip's baccarat rounds from marked shoes: the pair bet's exact expected value before each (from the
    ranks not yet dealt) and whether the seat bet a pair; True when there were any. ``ties``: the same for the
    tie bet (its exact expected value from the cards left), where the table offers it."""
    end = slip.closed_at or now
    shoe_ids = _slip_shoes(slip, end)
    before = len(out)
    for shoe in Shoe.objects.filter(pk__in=shoe_ids).order_by("pk"):
        left = dict.fromkeys(RANKS, shoe.decks * 4)
        for rnd in (Round.objects.filter(shoe=shoe).exclude(status=RoundStatus.VOIDED)
                    .only("pk", "status", "opened_at", "config", "document", "game").order_by("number")):
            doc = stored_document(rnd)
            seat_bets = [b for b in doc["bets"] if b.get("seat") == slip.seat]
            if seat_bets and rnd.status == RoundStatus.SETTLED and slip.opened_at <= rnd.opened_at <= end:
                pays = int(rnd.config.get("pair_pays", 11))
                out.append((pair_ev(left, pays=pays), any(b.get("type") in _watch_bets(rnd.game) for b in seat_bets)))
                if ties is not None:
                    ties.append((tie_ev(left, pays=int(rnd.config.get("tie_pays", 8))),
                                 any(b.get("type") == "tie" for b in seat_bets)))
            for card in cards_of(doc["events"]):
                rank = card[:-1].upper().replace("10", "T")
                if left.get(rank, 0) > 0:
                    left[rank] -= 1
    return len(out) > before


def chance_words(p: Any) -> str:
    """A p-value in words a pit reads: ``1 in 2,500``, or ``under 1 in a million`` (the screens and reports)."""
    try:
        value = float(p)
    except (TypeError, ValueError):
        return "—"
    if value <= 1e-6:
        return gettext("under 1 in a million")
    if value >= 0.5:
        return gettext("about even")
    return gettext("1 in %(n)s") % {"n": f"{round(1 / value):,}"}
