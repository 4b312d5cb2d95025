"""Spoil Five, Forty-Five and Auction Forty-Fives (rule book, "SPOIL FIVE").

**Spoil Five** (two to ten, each for himself, in chips): before every hand each player puts a chip in
the pot. The first player to win three tricks takes it — or plays on ("jinx") for all five: if he
wins them he takes the pot and a chip from each opponent, if not he wins nothing and the pot rolls
over, as it does when nobody wins three (the hand is "spoiled"). A deal entry::

    {"tricks": {"ann": 3, "bob": 1}}                  # ann took her third trick and stopped: 4 played
    {"tricks": {"ann": 5}, "jinx": true}              # ann played on and won all five
    {"tricks": {"ann": 2, "bob": 2, "cy": 1}}         # spoiled: the pot rolls over
    {"tricks": {...}, "dead": ["cy"]}                 # cy's hand declared dead (revoke, illegal exposure)

A hand declared dead gets no cards until the pot in progress is won (it must take no tricks) but still
puts its chip in. Totals are chips won less chips paid; minus their sum is the pot on the table.

**Forty-Five** (two, or partnerships of two or three): a side taking 3 or 4 tricks scores 5, all five
10; or (``scoring: difference``) each trick 5, the side with fewer tricks' count deducted from the
other's: 3 tricks 5, 4 tricks 15, 5 tricks 25. Game 45.

**Auction Forty-Fives** (partnerships of two or three): bids in fives up to 30; each trick 5 and the
highest trump in play 5 more; a side that makes its bid scores all it takes, a side that fails loses
its bid, the other side always scores its tricks; a bid of 30 made is worth 60. Game 120.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["spoil_five"], {"players": ["ann", "bob", "cy"], "deals": [
...     {"tricks": {"ann": 2, "bob": 2, "cy": 1}}, {"tricks": {"bob": 3, "cy": 1}}]})
>>> sheet["totals"], sheet["deals"][1]["notes"]
({'ann': -2, 'bob': 4, 'cy': -2}, ['bob wins three tricks and takes the pot of 6'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, added, name_of, names_of, only_keys, reached, top_of
from tables.scoring.hearts import count, flag
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

TRICKS = 5


def side_tricks(raw: Any, seating: Seating, *, most: int = TRICKS, exact: bool = True) -> dict[str, int]:
    """Tricks by side (keys: sides or their players; sides left out took none)."""
    if not isinstance(raw, Mapping):
        raise ScoringError(
            "bad_deal", N_("%(what)s must be an object of the tricks each player (or side) won"), field="tricks",
            what="tricks",
        )
    tricks = dict.fromkeys(seating.sides, 0)
    seen: set[str] = set()
    for key, value in raw.items():
        side = seating.side(key, f"tricks.{key}")
        if side in seen:
            raise ScoringError("bad_deal", N_("%(side)s is counted twice"), field=f"tricks.{key}", at="tricks", side=side)
        seen.add(side)
        tricks[side] = count(value, f"tricks.{key}", high=most)
    played = sum(tricks.values())
    if played > most or (exact and played != most):
        raise ScoringError("tricks_unaccounted", N_("%(n)s entered, the deal has %(high)s"), field="tricks", at="tricks",
                           n=played, high=most)
    return tricks


class SpoilFive(ScoredGame):
    name = "spoil_five"
    title = "Spoil Five"
    rules = "SPOIL FIVE"
    entry = (e.tricks_by_side(TRICKS), EntryField("jinx", "flag", N_("Jinx: played on for all five")),
             EntryField("dead", "players", N_("Hands declared dead")))
    min_players = 2
    max_players = 10
    carries_state = True
    settings = (
        Setting(
            "ante", SettingKind.INT, 1, "chips each player puts in the pot before every hand", minimum=1, maximum=1000
        ),
    )

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"dead": []}

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
        state: Mapping[str, Any] | None = None,
    ) -> DealScore:
        only_keys(deal, ("tricks", "jinx", "dead", "dealer"), self.title)
        if "dealer" in deal:
            name_of(deal["dealer"], "dealer", players)
        dead_before = list((state or {}).get("dead", []))
        tricks = side_tricks(deal.get("tricks"), Seating.individual(players), exact=False)
        for p in dead_before:
            if tricks[p]:
                raise ScoringError(
                    "bad_deal", N_("%(player)s's hand is dead until the pot is won"), field=f"tricks.{p}",
                    at=f"tricks.{p}", player=p,
                )
        jinx = flag(deal.get("jinx", False), "jinx")
        newly_dead = names_of(deal.get("dead", []), "dead", players)
        ante = config["ante"]
        pot = -sum(totals.values()) + ante * len(players)
        points = dict.fromkeys(players, -ante)
        played = sum(tricks.values())
        three = next((p for p in players if tricks[p] >= 3), None)
        notes: list[str] = []
        if three is None:
            if jinx:
                raise ScoringError("bad_deal", N_("only a player who won three tricks can play on"), field="jinx",
                                   at="jinx")
            if played != TRICKS:
                raise ScoringError(
                    "tricks_unaccounted", N_("%(n)s entered; nobody won three, so all %(high)s were played"),
                    field="tricks", at="tricks", n=played, high=TRICKS,
                )
            notes.append(note(N_("spoiled: nobody won three tricks, the pot of %(pot)s rolls over"), pot=pot))
            won = False
        elif not jinx:
            if tricks[three] != 3:  # more than three: he played on past his third trick
                raise ScoringError(
                    "bad_deal", N_("%(player)s won %(n)s tricks, so played on past the third: enter jinx"),
                    field="jinx", at="jinx", player=three, n=tricks[three],
                )
            points[three] += pot
            notes.append(note(N_("%(who)s wins three tricks and takes the pot of %(pot)s"), who=three, pot=pot))
            won = True
        else:
            if played != TRICKS:
                raise ScoringError(
                    "tricks_unaccounted", N_("%(n)s entered; a jinx plays all %(high)s"), field="tricks", at="tricks",
                    n=played, high=TRICKS,
                )
            won = tricks[three] == TRICKS
            if won:
                points[three] += pot + (len(players) - 1)
                for p in players:
                    if p != three:
                        points[p] -= 1
                notes.append(note(N_("%(who)s jinxes and wins all five: the pot of %(pot)s and a chip from each"), who=three,
                                  pot=pot))
            else:
                notes.append(note(N_("%(who)s jinxed and failed: wins nothing, the pot of %(pot)s rolls over"), who=three,
                                  pot=pot))
        dead = [] if won else sorted(set(dead_before) | set(newly_dead), key=list(players).index)
        if won and newly_dead:
            notes.append(note(N_("the pot is won: dead hands are dealt in again")))
        for p in newly_dead:
            if not won:
                notes.append(note(N_("%(who)s's hand is dead until the pot is won"), who=p))
        extra = {"tricks": tricks, "pot": pot, "won": won, "pot_after": 0 if won else pot}
        return DealScore(points, tuple(notes), extra, state={"dead": dead})


FIVE_TEN, DIFFERENCE = "five_ten", "difference"


class FortyFive(ScoredGame):
    name = "forty_five"
    title = "Forty-Five"
    rules = "SPOIL FIVE (Forty-Five)"
    entry = (e.tricks_by_side(TRICKS),)
    min_players = 2
    max_players = 6
    settings = (
        Setting(
            "scoring",
            SettingKind.CHOICE,
            FIVE_TEN,
            "five_ten: 3 or 4 tricks score 5, five tricks 10; difference: each trick 5, the side with fewer "
            "tricks' count deducted (3 tricks 5, 4 tricks 15, 5 tricks 25)",
            choices=(FIVE_TEN, DIFFERENCE),
        ),
        Setting("game_to", SettingKind.INT, 45, "the first side to this score wins", minimum=1, maximum=10_000),
    )

    def check_players(self, players: Any, config: Mapping[str, Any]) -> list[str]:
        players = super().check_players(players, config)
        if len(players) not in (2, 4, 6):
            raise ScoringError(
                "bad_players", N_("Forty-Five is for two, four (two against two) or six (three against three)"),
                field="players",
            )
        return list(players)

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.individual(players) if len(players) == 2 else Seating.teams(players)

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(self.seating(players).sides)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("tricks", "dealer"), self.title)
        if "dealer" in deal:
            name_of(deal["dealer"], "dealer", players)
        seating = self.seating(players)
        tricks = side_tricks(deal.get("tricks"), seating)
        side = max(tricks, key=tricks.__getitem__)
        most = tricks[side]
        if config["scoring"] == FIVE_TEN:
            value = 10 if most == TRICKS else 5
        else:
            value = 5 * most - 5 * (TRICKS - most)
        points = {s: (value if s == side else 0) for s in seating.sides}
        return DealScore(points, (note(N_("%(side)s take %(tricks)s tricks: %(n)s"), side=side, tricks=most, n=value),),
                         {"tricks": tricks})

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        return top_of(reached(totals, config["game_to"]), totals)


TOP_BID, BID_STEP, HIGH_TRUMP = 30, 5, 5
TOP_BID_MADE = 60
FLOOR_AFTER, FLOOR = 100, 20  # a side with 100 or more may not bid less than 20


class AuctionFortyFives(ScoredGame):
    """``{"bidder": "ann", "bid": 20, "tricks": {"ann": 3, "bob": 2}, "high_trump": "cy"}`` — tricks by
    side (a player names his side), ``high_trump`` who won the highest trump in play."""

    name = "auction_forty_fives"
    title = "Auction Forty-Fives"
    rules = "SPOIL FIVE (Auction Forty-Fives)"
    entry = (e.bidder(), e.bid(tuple(range(BID_STEP, TOP_BID + 1, BID_STEP))),
             EntryField("trump", "suit", N_("Trump"), choices=e.SUITS), e.tricks_by_side(TRICKS),
             EntryField("high_trump", "player", N_("Highest trump won by"), of="sides"))
    min_players = 4
    max_players = 6
    settings = (
        Setting("game_to", SettingKind.INT, 120, "the first side to this score wins", minimum=1, maximum=10_000),
    )

    def check_players(self, players: Any, config: Mapping[str, Any]) -> list[str]:
        players = super().check_players(players, config)
        if len(players) == 5:
            raise ScoringError(
                "bad_players", N_("Auction Forty-Fives is for four (two against two) or six (three against three)"),
                field="players",
            )
        return list(players)

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(Seating.teams(players).sides)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("bidder", "bid", "trump", "tricks", "high_trump", "dealer"), self.title)
        if "dealer" in deal:
            name_of(deal["dealer"], "dealer", players)
        seating = Seating.teams(players)
        bidder = name_of(deal.get("bidder"), "bidder", players)
        side = seating.side_of(bidder)
        (other,) = seating.others(side)
        bid = deal.get("bid")
        if isinstance(bid, bool) or not isinstance(bid, int) or bid % BID_STEP or not BID_STEP <= bid <= TOP_BID:
            raise ScoringError("bad_bid", N_("%(what)s must be %(low)s to %(high)s in fives, not %(value)s"), field="bid",
                               what="bid", low=BID_STEP, high=TOP_BID, value=bid)
        if totals[side] >= FLOOR_AFTER and bid < FLOOR:
            raise ScoringError(
                "bad_bid", N_("%(side)s have %(n)s; a side with %(high)s or more bids at least %(low)s"), field="bid",
                at="bid", side=side, n=totals[side], high=FLOOR_AFTER, low=FLOOR,
            )
        if "trump" in deal and deal["trump"] not in ("clubs", "diamonds", "hearts", "spades"):
            raise ScoringError("bad_deal", N_("%(what)s must be one of %(suits)s"), field="trump", what="trump",
                               suits=["clubs", "diamonds", "hearts", "spades"])
        tricks = side_tricks(deal.get("tricks"), seating)
        high = seating.side(deal.get("high_trump"), "high_trump")
        if not tricks[high]:
            raise ScoringError(
                "bad_deal", N_("%(side)s took no tricks, so cannot have won the highest trump"), field="high_trump",
                at="high_trump", side=high,
            )
        taken = {s: BID_STEP * tricks[s] + (HIGH_TRUMP if s == high else 0) for s in seating.sides}
        made = taken[side] >= bid
        points = {side: (TOP_BID_MADE if bid == TOP_BID else taken[side]) if made else -bid, other: taken[other]}
        notes: list[str] = [
            note(N_("%(side)s make %(bid)s with %(taken)s: %(n)s"), side=side, bid=bid, taken=taken[side], n=points[side])
            if made
            else note(N_("%(side)s fail %(bid)s (%(taken)s): -%(n)s"), side=side, bid=bid, taken=taken[side], n=bid),
        ]
        if taken[other]:
            notes.append(note(N_("%(side)s score %(n)s"), side=other, n=taken[other]))
        after = added(totals, points)
        out = reached(after, config["game_to"])
        winner = side if side in out else top_of(out, after)
        if winner is not None:
            notes.append(note(N_("%(side)s reach %(n)s and win"), side=winner, n=config["game_to"]))
        extra = {"bidder": bidder, "bid": bid, "tricks": tricks, "taken": taken, "made": made}
        return DealScore(points, tuple(notes), extra, winner=winner)


GAMES: dict[str, ScoredGame] = {g.name: g for g in (SpoilFive(), FortyFive(), AuctionFortyFives())}
