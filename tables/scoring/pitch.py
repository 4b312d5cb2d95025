"""The All Fours family (rule book, "AUCTION PITCH", "CINCH", "SEVEN-UP", "CALIFORNIA JACK"): Auction
Pitch, Pitch (Smudge), Auction Pitch with a Joker, Sellout, Cinch, Seven-Up, California Jack and
Shasta Sam.

Every game scores the same kind of points, each to whoever the rules give it: **high** (the highest
trump in play), **low** (the lowest), **jack** (the jack of trumps), **game** (the most counting
points in tricks won: each ten 10, ace 4, king 3, queen 2, jack 1) — and the joker in the joker game,
the two pedros in Cinch. The scorer enters who got each one (a player, or a side in partnership
games; null when the card was not in play or game was tied)::

    {"pitcher": "ann", "bid": 3, "high": "ann", "low": "bob", "jack": "ann", "game": null}
    {"pitcher": "ann", "bid": 2, "high": "ann", "low": "ann", "jack": null, "counts": {"ann": 22, "bob": 22}}

``counts`` (the counting points each player took) may be entered instead of ``game``: the one highest
count wins game, a tie gives it to nobody (Seven-Up two-hand: to the non-dealer). Who gets low is the
house's rule (the player dealt it in Auction Pitch, the player winning it in the variation and in Pitch).

Auction Pitch: the pitcher scores his points if they reach his bid (2 to 4; bidding 4 is a "smudge"),
else he is set back the bid; everyone else scores what he makes. First to 7 wins, the pitcher counted
first, then High, Low, Jack, Game. A smudge made (all four points) wins the game at once unless the
smudger was in the hole. The winner collects 1 from each player with 1 or more, 2 from each player at
zero or in the hole.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["auction_pitch"], {"players": ["ann", "bob", "cy"], "deals": [
...     {"pitcher": "ann", "bid": 3, "high": "ann", "low": "bob", "jack": "cy", "game": "ann"}]})
>>> sheet["totals"], sheet["deals"][0]["notes"]
({'ann': -3, 'bob': 1, 'cy': 1}, ['ann made 2 of a bid of 3: set back 3'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tables.engines.base import Setting, SettingKind
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, dealer_of, name_of, only_keys
from tables.scoring.hearts import count, flag
from tables.scoring.phrases import Note, awards_note, collects_note, note
from tables.scoring.refusals import N_, ScoringError

COUNTING_POINTS_IN_PACK = 80  # four suits of ten 10, ace 4, king 3, queen 2, jack 1


@dataclass(frozen=True, slots=True)
class Point:
    """One scoring point of a deal: its value, and whether some player always wins it."""

    name: str
    value: int = 1
    always: bool = False


HIGH, LOW, JACK, JOKER, GAME = "high", "low", "jack", "joker", "game"
# In the rule book's counting order (High, Low, Jack, [Joker,] Game): who reaches the target first.
PITCH_POINTS = (Point(HIGH, always=True), Point(LOW, always=True), Point(JACK), Point(GAME))
JOKER_PITCH_POINTS = (Point(HIGH, always=True), Point(LOW, always=True), Point(JACK), Point(JOKER), Point(GAME))
# Seven-Up: nobody may have been dealt a trump (the turned-up card is not in play).
OPTIONAL_POINTS = (Point(HIGH), Point(LOW), Point(JACK), Point(GAME))
# California Jack plays out the whole pack: the ace, deuce and jack of trumps are always won by someone.
PACK_POINTS = (Point(HIGH, always=True), Point(LOW, always=True), Point(JACK, always=True), Point(GAME))
CINCH_POINTS = (
    Point(HIGH),
    Point(LOW),
    Point(JACK),
    Point(GAME),  # in Cinch, "game" is the ten of trumps
    Point("right_pedro", 5),
    Point("left_pedro", 5),
)


def game_to(default: int) -> Setting:
    return Setting("game_to", SettingKind.INT, default, "the first to this score wins", minimum=1, maximum=1000)


def first_to(target: int, totals: Mapping[str, int], steps: Sequence[tuple[str, int]]) -> str | None:
    """Count the deal's points in the rules' order: the first side to reach ``target`` wins."""
    running = dict(totals)
    for side, value in steps:
        running[side] += value
        if value > 0 and running[side] >= target:
            return side
    return None


# who won each point, as the entry form asks it
POINT_LABELS = {
    HIGH: N_("High won by"), LOW: N_("Low won by"), JACK: N_("Jack won by"), JOKER: N_("Joker won by"),
    GAME: N_("Game won by"), "right_pedro": N_("Right pedro won by"), "left_pedro": N_("Left pedro won by"),
}
PITCHER = EntryField("pitcher", "player", N_("Pitcher"))
REVOKE = EntryField("revoke", "player", N_("Revoked"))
SIDE_REVOKED = EntryField("revoke", "player", N_("Revoked"), of="sides")


class _AllFours(ScoredGame):
    """Reading who won each point, by player or side, and the game point from counts."""

    point_spec: ClassVar[tuple[Point, ...]] = PITCH_POINTS
    # the entry form: these parts, who won each point, then these
    entry_before: ClassVar[tuple[EntryField, ...]] = ()
    entry_after: ClassVar[tuple[EntryField, ...]] = ()

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        points = tuple(EntryField(p.name, "player", POINT_LABELS[p.name], of="sides") for p in self.point_spec)
        return (*self.entry_before, *points, *self.entry_after)
    counts_total: ClassVar[int | None] = None  # the counts must add up to this (the whole pack is played)

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.individual(players)

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(self.seating(players).sides)

    def point_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.point_spec)

    def tied_game(self, tied: Sequence[str], deal: Mapping[str, Any], players: Sequence[str], index: int) -> str | None:
        """Who scores game when the counts tie: nobody (Seven-Up two-hand overrides)."""
        return None

    def read_awards(
        self, deal: Mapping[str, Any], seating: Seating, players: Sequence[str], index: int
    ) -> dict[str, str | None]:
        awards: dict[str, str | None] = {}
        for point in self.point_spec:
            raw = deal.get(point.name)
            if raw is None:
                if point.always:
                    raise ScoringError("bad_deal", N_("%(what)s: someone always wins it; say who"), field=point.name,
                                       what=point.name)
                awards[point.name] = None
            else:
                awards[point.name] = seating.side(raw, point.name)
        if "counts" in deal and GAME in awards:
            from_counts = self.game_from_counts(deal, seating, players, index)
            if GAME in deal and awards[GAME] != from_counts:  # null (no one, a tie) must agree too
                raise ScoringError(
                    "bad_deal", N_("the counts give game to %(counted)s, the entry to %(entered)s"), field=GAME,
                    at=GAME, counted=from_counts, entered=awards[GAME],
                )
            awards[GAME] = from_counts
        return awards

    def game_from_counts(
        self, deal: Mapping[str, Any], seating: Seating, players: Sequence[str], index: int
    ) -> str | None:
        raw = deal["counts"]
        if not isinstance(raw, Mapping):
            raise ScoringError(
                "bad_deal", N_("%(what)s must be the counting points each player took, as an object"), field="counts",
                what="counts",
            )
        counts = dict.fromkeys(seating.sides, 0)
        seen: set[str] = set()
        for key, value in raw.items():
            side = seating.side(key, f"counts.{key}")
            if side in seen:
                raise ScoringError("bad_deal", N_("%(side)s is counted twice"), field=f"counts.{key}", at="counts",
                                   side=side)
            seen.add(side)
            counts[side] = count(value, f"counts.{key}", high=COUNTING_POINTS_IN_PACK)
        total = sum(counts.values())
        if total > COUNTING_POINTS_IN_PACK or (self.counts_total is not None and total != self.counts_total):
            if self.counts_total is None:
                raise ScoringError("counts_unaccounted", N_("%(n)s counting points entered, the deal has at most %(high)s"),
                                   field="counts", at="counts", n=total, high=COUNTING_POINTS_IN_PACK)
            raise ScoringError(
                "counts_unaccounted", N_("%(n)s counting points entered, the deal has %(high)s"), field="counts",
                at="counts", n=total, high=self.counts_total,
            )
        best = max(counts.values())
        ahead = [s for s in counts if counts[s] == best]
        if best == 0:
            return None
        return ahead[0] if len(ahead) == 1 else self.tied_game(ahead, deal, players, index)

    @staticmethod
    def won_by(awards: Mapping[str, str | None], spec: Sequence[Point], sides: Sequence[str]) -> dict[str, int]:
        won = dict.fromkeys(sides, 0)
        for point in spec:
            side = awards[point.name]
            if side is not None:
                won[side] += point.value
        return won

    @staticmethod
    def describe_awards(awards: Mapping[str, str | None]) -> Note:
        return awards_note(dict(awards))


def out_first(target: int, winner: str) -> Note:
    return note(N_("game to %(n)s: %(who)s out first"), n=target, who=winner)


# -- Auction Pitch and its variants --------------------------------------------------------------

LOWEST_BID, SMUDGE = 2, 4


class AuctionPitch(_AllFours):
    name = "auction_pitch"
    title = "Auction Pitch"
    rules = "AUCTION PITCH"
    min_players = 2
    max_players = 7
    carries_state = True
    settings = (
        game_to(7),
        Setting(
            "setback_payments",
            SettingKind.BOOL,
            False,
            "the rule book's variation: the winner also collects a point from each player for each time he was set back",
        ),
    )
    entry_before: ClassVar[tuple[EntryField, ...]] = (PITCHER, EntryField("bid", "bid", N_("Bid"), choices=(2, 3, 4)))
    entry_after: ClassVar[tuple[EntryField, ...]] = (REVOKE,)
    fields: ClassVar[tuple[str, ...]] = (
        "pitcher",
        "bid",
        *(p.name for p in PITCH_POINTS),
        "counts",
        "revoke",
        "dealer",
    )
    any_smudge: ClassVar[bool] = False  # Pitch: whoever wins all four points smudges, pitcher or not

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"set_back": dict.fromkeys(players, 0)}

    def sale(
        self,
        deal: Mapping[str, Any],
        pitcher: str,
        bid: int,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        config: Mapping[str, Any],
        index: int,
    ) -> tuple[dict[str, int], list[str]]:
        """Points scored before play (Sellout's sale); none in Auction Pitch."""
        return {}, []

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
        only_keys(deal, self.fields, self.title)
        state = state or self.initial_state(players, config)
        seating = self.seating(players)
        dealer_of(deal, players, index)
        pitcher = name_of(deal.get("pitcher"), "pitcher", players)
        bid = deal.get("bid")
        if isinstance(bid, bool) or not isinstance(bid, int) or not LOWEST_BID <= bid <= SMUDGE:
            raise ScoringError(
                "bad_bid", N_("%(what)s must be %(low)s to %(high)s (4 is a smudge), not %(value)s"), field="bid",
                what="bid", low=LOWEST_BID, high=SMUDGE, value=bid,
            )
        awards = self.read_awards(deal, seating, players, index)
        won = self.won_by(awards, self.point_spec, players)
        in_play = sum(p.value for p in self.point_spec if awards[p.name] is not None)
        revoker = name_of(deal["revoke"], "revoke", players) if "revoke" in deal else None
        before, notes = self.sale(deal, pitcher, bid, players=players, totals=totals, config=config, index=index)
        points = dict.fromkeys(players, 0)
        for p, v in before.items():
            points[p] += v
        set_back = dict(state["set_back"])
        made = won[pitcher] >= bid
        if revoker == pitcher or (revoker is None and not made):
            points[pitcher] -= bid
            set_back[pitcher] += 1
            notes.append(
                note(N_("%(who)s revoked: set back %(n)s"), who=pitcher, n=bid)
                if revoker == pitcher
                else note(N_("%(who)s made %(won)s of a bid of %(n)s: set back %(n)s"), who=pitcher,
                          won=won[pitcher], n=bid)
            )
        else:
            points[pitcher] += won[pitcher]
            notes.append(
                note(N_("%(who)s makes %(won)s on a bid of %(n)s"), who=pitcher, won=won[pitcher], n=bid)
                if made
                else note(N_("%(who)s scores %(won)s: %(revoker)s's revoke saves him from the set back"),
                          who=pitcher, won=won[pitcher], revoker=revoker)
            )
        for p in players:
            if p == pitcher:
                continue
            if p == revoker:
                points[p] -= bid
                set_back[p] += 1
                notes.append(note(N_("%(who)s revoked: scores nothing and loses %(n)s"), who=p, n=bid))
            else:
                points[p] += won[p]
        # Who goes out: a smudge at once; else the sale, the pitcher, then High, Low, Jack, (Joker), Game.
        target = config["game_to"]
        winner = None
        smudger = self.smudger(pitcher, bid, won, in_play, revoker)
        if smudger is not None:
            if self.any_smudge or totals[smudger] >= 0:
                winner = smudger
                notes.append(note(N_("%(who)s smudges: all %(n)s points, and the game"), who=smudger, n=in_play))
            else:
                notes.append(note(N_("%(who)s smudges from the hole: scores the %(n)s points only"), who=smudger,
                                 n=in_play))
        if winner is None:
            steps = [*before.items(), (pitcher, points[pitcher] - before.get(pitcher, 0))]
            steps += [
                (side, pt.value)
                for pt in self.point_spec
                if (side := awards[pt.name]) is not None and side not in (pitcher, revoker)
            ]
            winner = first_to(target, totals, steps)
            if winner is not None:
                notes.append(out_first(target, winner))
        extra: dict[str, Any] = {"pitcher": pitcher, "bid": bid, "awards": awards, "won": won, "made": made}
        if winner is not None:
            final = {p: totals[p] + points[p] for p in players}
            pays = {
                p: (1 if final[p] >= 1 else 2) + (set_back[p] if config["setback_payments"] else 0)
                for p in players
                if p != winner
            }
            extra["settlement"] = {winner: sum(pays.values()), **{p: -v for p, v in pays.items()}}
            notes.append(collects_note(winner, pays))
        return DealScore(points, tuple(notes), extra, state={"set_back": set_back}, winner=winner)

    def smudger(self, pitcher: str, bid: int, won: Mapping[str, int], in_play: int, revoker: str | None) -> str | None:
        """The pitcher who bid 4 and won every point in play (at least four)."""
        if revoker is None and bid == SMUDGE and in_play >= SMUDGE and won[pitcher] == in_play:
            return pitcher
        return None


class Pitch(AuctionPitch):
    """Auction Pitch, except that winning all four points in a hand is a smudge by any player, pitcher or
    not, and wins the game at once whatever his score; low goes to the player winning it in a trick.
    (It is customary to start at 7 and count down to zero: the same game, score = 7 − total.)"""

    name = "pitch"
    title = "Pitch (Smudge)"
    rules = "AUCTION PITCH (Pitch)"
    any_smudge = True

    def smudger(self, pitcher: str, bid: int, won: Mapping[str, int], in_play: int, revoker: str | None) -> str | None:
        if in_play < SMUDGE:
            return None
        return next((p for p, v in won.items() if v == in_play and p != revoker), None)


class AuctionPitchJoker(AuctionPitch):
    """53 cards: the joker, the lowest trump, is a fifth point to whoever wins it (it never counts for Low).
    Game 10; points count High, Low, Jack, Joker, Game. A smudge made means every point in play."""

    name = "auction_pitch_joker"
    title = "Auction Pitch with a Joker"
    rules = "AUCTION PITCH (with a Joker)"
    point_spec = JOKER_PITCH_POINTS
    settings = (game_to(10), AuctionPitch.settings[1])
    fields = ("pitcher", "bid", *(p.name for p in JOKER_PITCH_POINTS), "counts", "revoke", "dealer")


class Sellout(AuctionPitch):
    """The player on the dealer's left (the seller) may take the contract at 4, or hear one bid from each
    player and then sell to the highest bidder (``"sold_by": seller``: the seller scores the bid at once,
    the buyer pitches) or pitch himself at that bid (``"refused": high bidder``: the high bidder scores the
    bid at once). Nobody may bid enough to put the seller out by selling; the seller must sell if refusing
    would put the high bidder out. Game 7."""

    name = "sellout"
    title = "Sellout"
    rules = "AUCTION PITCH (Sellout)"
    min_players = 3
    entry_after = (REVOKE, EntryField("sold_by", "player", N_("Sold the bid: the seller")),
                   EntryField("refused", "player", N_("Refused to buy: the high bidder")))
    fields = (*AuctionPitch.fields, "sold_by", "refused")

    def sale(
        self,
        deal: Mapping[str, Any],
        pitcher: str,
        bid: int,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        config: Mapping[str, Any],
        index: int,
    ) -> tuple[dict[str, int], list[str]]:
        dealer = dealer_of(deal, players, index)
        seller = players[(players.index(dealer) + 1) % len(players)]
        target = config["game_to"]
        if "sold_by" in deal and "refused" in deal:
            raise ScoringError("bad_deal", N_("the seller either sells or refuses"), field="sold_by",
                               at="sold_by, refused")
        if "sold_by" in deal:
            if name_of(deal["sold_by"], "sold_by", players) != seller:
                raise ScoringError(
                    "bad_deal", N_("only the player on the dealer's left (%(player)s) sells"), field="sold_by",
                    at="sold_by", player=seller,
                )
            if pitcher == seller:
                raise ScoringError("bad_deal", N_("the seller sold the pitch to another player"), field="pitcher",
                                   at="pitcher")
            self.check_bid_for_sale(seller, bid, totals, target)
            return {seller: bid}, [note(N_("%(who)s sells to %(pitcher)s for %(n)s"), who=seller, pitcher=pitcher,
                                        n=bid)]
        if pitcher != seller:
            raise ScoringError(
                "bad_deal", N_("only the seller (%(player)s) or a player he sold to pitches (enter who sold)"),
                field="pitcher", at="pitcher", player=seller,
            )
        if "refused" in deal:
            bidder = name_of(deal["refused"], "refused", players)
            if bidder == seller:
                raise ScoringError("bad_deal", N_("the high bidder the seller refused"), field="refused", at="refused")
            # the bid was made before the seller chose: it may not be one that would put him out if he sold
            self.check_bid_for_sale(seller, bid, totals, target)
            if totals[bidder] + bid >= target:
                raise ScoringError(
                    "bad_deal", N_("refusing would put %(player)s (%(n)s) out, so %(seller)s must sell"),
                    field="refused", at="refused", player=bidder, n=totals[bidder], seller=seller,
                )
            return {bidder: bid}, [note(N_("%(who)s refuses %(bidder)s's %(n)s and pitches: %(bidder)s scores %(n)s"),
                                        who=seller, bidder=bidder, n=bid)]
        if bid != SMUDGE:
            raise ScoringError(
                "bad_bid", N_("a seller who takes the contract without selling or refusing bids 4"), field="bid",
                at="bid",
            )
        return {}, [note(N_("%(who)s takes the contract for %(n)s"), who=seller, n=SMUDGE)]

    @staticmethod
    def check_bid_for_sale(seller: str, bid: int, totals: Mapping[str, int], target: int) -> None:
        """The rule book: "a player is not permitted to make any bid high enough to put the player on the
        dealer's left out if he sells" — whether he then sells or not."""
        if totals[seller] + bid >= target:
            raise ScoringError(
                "bad_bid", N_("%(bid)s would put the seller (%(seller)s, %(n)s) out if he sold"), field="bid",
                at="bid", bid=bid, seller=seller, n=totals[seller],
            )


# -- Cinch ---------------------------------------------------------------------------------------

CINCH_POINTS_IN_PLAY = 14


class Cinch(_AllFours):
    """Four players, two partnerships. Points to the side winning them: high, low, jack, game (the ten of
    trumps) 1 each, each pedro 5 — 14 in all. Bid 1 to 14. If the bidders win at least their bid, the side
    with the higher count scores the difference; if not, the other side scores 14 plus the shortfall.
    Game 51.

    ``{"bidder": "ann", "bid": 6, "high": "ann", "low": "bob", "jack": "cy", "game": "bob",
    "right_pedro": "ann", "left_pedro": "bob"}`` or the counts: ``{"bidder": "ann", "bid": 6,
    "count": {"ann": 6, "bob": 8}}`` (by side; a player names his side).
    """

    name = "cinch"
    title = "Cinch"
    rules = "CINCH"
    min_players = 4
    max_players = 4
    entry_before = (EntryField("bidder", "player", N_("Bidder")),
                    EntryField("bid", "number", N_("Bid"), minimum=1, maximum=CINCH_POINTS_IN_PLAY))
    entry_after = (SIDE_REVOKED,)
    point_spec = CINCH_POINTS
    settings = (game_to(51),)

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.teams(players)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("bidder", "bid", *self.point_names(), "count", "revoke", "dealer"), self.title)
        dealer_of(deal, players, index)
        seating = self.seating(players)
        bidder = name_of(deal.get("bidder"), "bidder", players)
        side = seating.side_of(bidder)
        (other,) = seating.others(side)
        bid = deal.get("bid")
        if isinstance(bid, bool) or not isinstance(bid, int) or not 1 <= bid <= CINCH_POINTS_IN_PLAY:
            raise ScoringError("bad_bid", N_("%(what)s must be %(low)s to %(high)s, not %(value)s"), field="bid",
                               what="bid", low=1, high=CINCH_POINTS_IN_PLAY, value=bid)
        if "count" in deal:
            clash = next((n for n in self.point_names() if n in deal), None)
            if clash is not None:
                raise ScoringError("bad_deal", N_("enter either the points' winners or the count"), field=clash,
                                   at=clash)
            won = self.read_count(deal["count"], seating)
            awards = None
        else:
            awards = self.read_awards(deal, seating, players, index)
            won = self.won_by(awards, self.point_spec, seating.sides)
        offender = seating.side(deal["revoke"], "revoke") if "revoke" in deal else None
        points = dict.fromkeys(seating.sides, 0)
        made = won[side] >= bid or offender == other  # a revoking opponent: the bidders cannot be set
        if made:
            high = max(seating.sides, key=won.__getitem__)
            diff = abs(won[side] - won[other])
            if diff and high != offender:
                points[high] = diff
            summary = (
                note(N_("%(who)s make %(n)s with %(won)s to %(lost)s: %(high)s score the difference, %(diff)s"),
                     who=side, n=bid, won=won[side], lost=won[other], high=high, diff=points[high])
                if points[high]
                else note(N_("%(who)s make %(n)s with %(won)s to %(lost)s: no score"), who=side, n=bid,
                          won=won[side], lost=won[other])
            )
        else:
            short = bid - won[side]
            if other != offender:
                points[other] = CINCH_POINTS_IN_PLAY + short
            summary = note(N_("%(who)s are cinched: %(won)s of %(n)s; %(other)s score %(points)s"), who=side,
                           won=won[side], n=bid, other=other, points=points[other])
        revoked = [note(N_("%(who)s revoked: they cannot score this hand"), who=offender)] if offender else []
        notes = [summary, *revoked]
        extra = {"bidder": bidder, "bid": bid, "won": won, "made": made, **({"awards": awards} if awards else {})}
        return DealScore(points, tuple(notes), extra)

    @staticmethod
    def read_count(raw: Any, seating: Seating) -> dict[str, int]:
        if not isinstance(raw, Mapping):
            raise ScoringError("bad_deal", N_("%(what)s must be each side's points, as an object"), field="count",
                               what="count")
        won = dict.fromkeys(seating.sides, 0)
        seen: set[str] = set()
        for key, value in raw.items():
            side = seating.side(key, f"count.{key}")
            if side in seen:
                raise ScoringError("bad_deal", N_("%(side)s is counted twice"), field=f"count.{key}", at="count",
                                   side=side)
            seen.add(side)
            won[side] = count(value, f"count.{key}", high=CINCH_POINTS_IN_PLAY)
        if sum(won.values()) > CINCH_POINTS_IN_PLAY:
            raise ScoringError(
                "points_unaccounted", N_("%(n)s points entered, a deal has %(high)s"), field="count", at="count",
                n=sum(won.values()), high=CINCH_POINTS_IN_PLAY,
            )
        return won

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        out = [s for s in totals if totals[s] >= config["game_to"]]
        return out[0] if len(out) == 1 else None  # only one side scores in a deal


# -- Seven-Up ------------------------------------------------------------------------------------


class SevenUp(_AllFours):
    """Two or three players, or four as partners. No bidding: high and low to the players dealt them,
    jack to the winner of its trick, game; the dealer scores 1 for each jack turned up as trump
    (``turned_jacks``: the first upcard, and again if the cards were run, ``ran``), the player on the
    dealer's left 1 when he begs and the dealer gives (``gift``). First to 7 (or 10) wins, counting the
    turned jacks and gift first, then High, Low, Jack, Game. (Played with chips: each starts with seven
    and puts one in the pot per point; the first out of chips wins — the same count.)

    A revoke (``"revoke": player``): the offender cannot score jack or game; each opponent scores 1, or
    2 if the jack was in play.
    """

    name = "seven_up"
    title = "Seven-Up"
    rules = "SEVEN-UP"
    min_players = 2
    max_players = 4
    entry_before = (EntryField("turned_jacks", "number", N_("Jacks turned up for trump (to the dealer)"), minimum=0, maximum=2),
                    EntryField("ran", "flag", N_("The cards were run")),
                    EntryField("gift", "flag", N_("A point given to the player who begged")))
    entry_after = (SIDE_REVOKED,)
    point_spec = OPTIONAL_POINTS
    settings = (game_to(7),)

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.teams(players) if len(players) == 4 else Seating.individual(players)

    def tied_game(self, tied: Sequence[str], deal: Mapping[str, Any], players: Sequence[str], index: int) -> str | None:
        if len(players) != 2:
            return None
        dealer = dealer_of(deal, players, index)
        return next(p for p in players if p != dealer)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("dealer", "turned_jacks", "ran", "gift", *self.point_names(), "counts", "revoke"), self.title)
        seating = self.seating(players)
        dealer = dealer_of(deal, players, index)
        eldest = players[(players.index(dealer) + 1) % len(players)]
        ran = flag(deal.get("ran", False), "ran")
        gift = flag(deal.get("gift", False), "gift")
        if ran and gift:
            raise ScoringError("bad_deal", N_("a dealer who runs the cards gives no gift"), field="gift", at="gift")
        turned = count(deal.get("turned_jacks", 0), "turned_jacks", high=1 + ran)
        awards = self.read_awards(deal, seating, players, index)
        offender = seating.side(deal["revoke"], "revoke") if "revoke" in deal else None
        steps: list[tuple[str, int]] = []
        notes: list[str] = []
        if turned:
            steps.append((seating.side_of(dealer), turned))
            notes.append(note(N_("%(who)s turns up a jack: %(n)s"), who=dealer, n=turned) if turned == 1
                         else note(N_("%(who)s turns up two jacks: %(n)s"), who=dealer, n=turned))
        if gift:
            steps.append((seating.side_of(eldest), 1))
            notes.append(note(N_("%(who)s begs and is given a point"), who=eldest))
        for point in self.point_spec:
            side = awards[point.name]
            if side is None:
                continue
            if side == offender and point.name in (JACK, GAME):
                notes.append(note(N_("%(who)s revoked: no %(point)s"), who=side, point=point.name))
                continue
            steps.append((side, point.value))
        if offender is not None:
            penalty = 2 if awards[JACK] is not None else 1
            for s in seating.others(offender):
                steps.append((s, penalty))
            notes.append(note(N_("%(who)s revoked: each opponent scores %(n)s"), who=offender, n=penalty))
        points = dict.fromkeys(seating.sides, 0)
        for side, value in steps:
            points[side] += value
        notes.append(self.describe_awards(awards))
        winner = first_to(config["game_to"], totals, steps)
        if winner is not None:
            notes.append(out_first(config["game_to"], winner))
        return DealScore(points, tuple(notes), {"dealer": dealer, "awards": awards}, winner=winner)


# -- California Jack and Shasta Sam ----------------------------------------------------------------


class CaliforniaJack(_AllFours):
    """Two players; the whole pack is played out, so high (the ace of trumps), low (the deuce), the jack
    and, unless tied, game are always won. First to 10; both reaching it in one hand: High, Low, Jack,
    Game decide. ``counts`` must add up to all 80 counting points."""

    name = "california_jack"
    title = "California Jack"
    rules = "CALIFORNIA JACK"
    min_players = 2
    max_players = 2
    point_spec = PACK_POINTS
    counts_total = COUNTING_POINTS_IN_PACK
    settings = (game_to(10),)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("dealer", *self.point_names(), "counts"), self.title)
        dealer_of(deal, players, index)
        seating = self.seating(players)
        awards = self.read_awards(deal, seating, players, index)
        steps = [(side, p.value) for p in self.point_spec if (side := awards[p.name]) is not None]
        points = dict.fromkeys(players, 0)
        for side, value in steps:
            points[side] += value
        notes = [self.describe_awards(awards)]
        winner = first_to(config["game_to"], totals, steps)
        if winner is not None:
            notes.append(out_first(config["game_to"], winner))
        return DealScore(points, tuple(notes), {"awards": awards}, winner=winner)


class ShastaSam(CaliforniaJack):
    """California Jack with the stock face down and the trump cut from the pack: scored the same."""

    name = "shasta_sam"
    title = "Shasta Sam"
    rules = "CALIFORNIA JACK (Shasta Sam)"


GAMES: dict[str, ScoredGame] = {
    g.name: g
    for g in (
        AuctionPitch(),
        Pitch(),
        AuctionPitchJoker(),
        Sellout(),
        Cinch(),
        SevenUp(),
        CaliforniaJack(),
        ShastaSam(),
    )
}
