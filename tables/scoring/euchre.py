"""Euchre and its family (rule book, "EUCHRE"): four-hand partnership Euchre, Railroad Euchre,
Three-Hand (Cutthroat) and Two-Hand Euchre, Auction Euchre for five to seven, Call-Ace Euchre and
Cincinnati Euchre.

The scorer enters who made the trump, whether he played alone, and the tricks won::

    {"maker": "ann", "alone": false, "tricks": 4}          # ann's side won 4 of the 5 tricks
    {"maker": "ann", "tricks": {"ann": 2, "bob": 3}}        # or each side's tricks (a player names his side)
    {"passed": true}                                        # all passed twice: no score, next deal

Four-hand: the makers score 1 for 3 or 4 tricks, 2 for a march (all five), a lone hand 4 for a
march; a side or lone hand that is euchred gives the opponents 2. Partners sit opposite: with
players ``[ann, bob, cy, dee]`` the sides are ``ann & cy`` and ``bob & dee``.

The top of this module also holds what the other trick-taking sheets share (Five Hundred, Napoleon,
Spoil Five, the All Fours family, Loo, Preference): reading names, sides and tricks from an entry.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["euchre"], {"players": ["ann", "bob", "cy", "dee"], "config": {"game_to": 10}, "deals": [
...     {"maker": "ann", "alone": True, "tricks": 5}, {"maker": "bob", "tricks": 2}]})
>>> sheet["totals"], sheet["deals"][1]["notes"]
({'ann & cy': 6, 'bob & dee': 0}, ['bob & dee are euchred: ann & cy score 2'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.hearts import count, flag
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

# ================================================================================================
# Shared by the trick-taking sheets
# ================================================================================================


def only_keys(deal: Mapping[str, Any], allowed: Sequence[str], title: str) -> None:
    """Refuse any field the game does not read, so a typo is never silently ignored."""
    for key in deal:
        if key not in allowed:
            raise ScoringError("bad_deal", N_("%(what)s is not part of a %(title)s deal (%(keys)s)"), field=str(key),
                               what=str(key), title=title, keys=list(allowed))


def name_of(value: Any, where: str, players: Sequence[str]) -> str:
    """A player of the sheet, or a refusal naming ``where``."""
    if not isinstance(value, str) or value not in players:
        raise ScoringError("bad_deal", N_("%(what)s must be a player of this sheet, not %(value)s"), field=where,
                           what=where, value=value)
    return value


def names_of(value: Any, where: str, players: Sequence[str]) -> list[str]:
    """A list of distinct players of the sheet (may be empty)."""
    if not isinstance(value, list):
        raise ScoringError("bad_deal", N_("%(what)s must be a list of players"), field=where, what=where)
    names = [name_of(v, f"{where}[{i}]", players) for i, v in enumerate(value)]
    if len(set(names)) != len(names):
        raise ScoringError("bad_deal", N_("a player is listed twice"), field=where, at=where)
    return names


def dealer_of(deal: Mapping[str, Any], players: Sequence[str], index: int) -> str:
    """Who dealt: ``deal["dealer"]`` if given, else the deal passes to the left each time, the first
    player listed dealing first (players are listed in seat order, clockwise)."""
    if "dealer" in deal:
        return name_of(deal["dealer"], "dealer", players)
    return players[index % len(players)]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who scores together: each player alone, or fixed partnerships seated alternately."""

    sides: tuple[str, ...]
    members: Mapping[str, tuple[str, ...]]

    @classmethod
    def individual(cls, players: Sequence[str]) -> Seating:
        return cls(tuple(players), {p: (p,) for p in players})

    @classmethod
    def teams(cls, players: Sequence[str], count: int = 2) -> Seating:
        """``count`` partnerships, partners alternating round the table (four: 1st & 3rd against 2nd & 4th)."""
        groups = [tuple(players[k::count]) for k in range(count)]
        names = tuple(" & ".join(g) for g in groups)
        return cls(names, dict(zip(names, groups, strict=True)))

    def side_of(self, player: str) -> str:
        return next(side for side, members in self.members.items() if player in members)

    def side(self, value: Any, where: str) -> str:
        """The side ``value`` names: a side's own name, or one of its players."""
        if isinstance(value, str):
            if value in self.members:
                return value
            for side, members in self.members.items():
                if value in members:
                    return side
        raise ScoringError("bad_deal", N_("%(value)s is neither a player nor a side of this sheet"), field=where,
                           at=where, value=value)

    def others(self, side: str) -> list[str]:
        return [s for s in self.sides if s != side]


def read_tricks(
    raw: Any, seating: Seating, *, total: int, maker: str, where: str = "tricks", every_side: bool = False
) -> dict[str, int]:
    """Tricks won, by side: a bare number is the maker's side's tricks (with two sides the other side
    has the rest); an object gives each side's tricks (keys: sides or their players; sides left out won
    none) and must account for all ``total`` tricks. ``every_side``: the game needs every side's tricks,
    so a bare number is refused when there are more than two sides."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        won = count(raw, where, high=total)
        if len(seating.sides) == 2:
            return {s: (won if s == maker else total - won) for s in seating.sides}
        if every_side:
            raise ScoringError(
                "bad_deal", N_("%(what)s must give each player's tricks, as an object: the game scores them one by one"),
                field=where, what=where,
            )
        return {maker: won}
    if not isinstance(raw, Mapping):
        raise ScoringError(
            "bad_deal", N_("%(what)s must be the tricks won: a number (the maker's side) or an object by side"),
            field=where, what=where,
        )
    tricks = dict.fromkeys(seating.sides, 0)
    seen: set[str] = set()
    for key, value in raw.items():
        side = seating.side(key, f"{where}.{key}")
        if side in seen:
            raise ScoringError("bad_deal", N_("%(side)s is counted twice"), field=f"{where}.{key}", at=where, side=side)
        seen.add(side)
        tricks[side] = count(value, f"{where}.{key}", high=total)
    if sum(tricks.values()) != total:
        raise ScoringError(
            "tricks_unaccounted", N_("%(n)s tricks entered, the deal has %(high)s"), field=where, at=where,
            n=sum(tricks.values()), high=total,
        )
    return tricks


def top_of(candidates: Sequence[str], totals: Mapping[str, int]) -> str | None:
    """The one candidate with the highest total; None if none or tied."""
    if not candidates:
        return None
    best = max(totals[s] for s in candidates)
    ahead = [s for s in candidates if totals[s] == best]
    return ahead[0] if len(ahead) == 1 else None


def reached(totals: Mapping[str, int], target: int | None) -> list[str]:
    """The sides at or past ``target`` (none when the game has no target)."""
    if target is None:
        return []
    return [s for s, v in totals.items() if v >= target]


def added(totals: Mapping[str, int], points: Mapping[str, int]) -> dict[str, int]:
    return {s: totals[s] + points.get(s, 0) for s in totals}


def all_passed() -> str:
    """The note of a deal thrown in without a score."""
    return note(N_("all passed: no score"))


def passed_deal(deal: Mapping[str, Any], sides: Sequence[str], note: str) -> DealScore | None:
    """``{"passed": true}``: the deal was thrown in without a score (None when the deal was played)."""
    if "passed" not in deal or not flag(deal["passed"], "passed"):
        return None
    if len(deal) > 1 + ("dealer" in deal):
        extra = next(k for k in deal if k not in ("passed", "dealer"))
        raise ScoringError("bad_deal", N_("a passed deal has nothing else to enter, not %(what)s"), field=str(extra),
                           what=str(extra))
    return DealScore(dict.fromkeys(sides, 0), (note,), {"passed": True})


def with_default(setting: Setting, default: Any) -> Setting:
    """The same rule with a game's own default."""
    return replace(setting, default=default)


# ================================================================================================
# Euchre
# ================================================================================================

TRICKS = 5
MAKE, MARCH, LONE_MARCH, EUCHRED, LONE_EUCHRED_ALONE = 1, 2, 4, 2, 4  # the rule book's scoring table
SINGLE, RUBBER = "game", "rubber"

GAME_TO = Setting(
    "game_to",
    SettingKind.INT,
    5,
    "the first side to reach this score wins: 5, 7 or 10, as agreed",
    minimum=1,
    maximum=1000,
)
MATCH = Setting(
    "match",
    SettingKind.CHOICE,
    SINGLE,
    "game: the sheet is one game; rubber: the first side to win two games wins the rubber, each game "
    "counting 3 rubber points if the losers scored 0 or fewer, 2 if 1 or 2, 1 if 3 or more; the margin "
    "is 2 plus the winners' rubber points less the losers'",
    choices=(SINGLE, RUBBER),
)
DEFEND_ALONE = Setting(
    "defend_alone", SettingKind.BOOL, True, "an opponent of a lone player may defend alone: euchring him alone counts 4"
)
LAPS = Setting("laps", SettingKind.BOOL, True, "in a rubber, points scored past game are credited toward the next game")
SLAM = Setting(
    "slam",
    SettingKind.BOOL,
    True,
    "in a rubber, a side that reaches game before the opponents have scored is credited with two games",
)


def rubber_points(loser: int) -> int:
    """What a game is worth in a rubber, by the losers' score in it."""
    if loser <= 0:
        return 3
    return 2 if loser <= 2 else 1


class FourHandEuchre(ScoredGame):
    """Two partnerships of two, partners opposite; alone hands; one game or a rubber."""

    name = "euchre"
    title = "Euchre"
    rules = "EUCHRE"
    min_players = 4
    max_players = 4
    settings: ClassVar[tuple[Setting, ...]] = (GAME_TO, MATCH)
    carries_state = True
    fields: ClassVar[tuple[str, ...]] = ("maker", "alone", "tricks", "passed", "dealer")
    entry: ClassVar[tuple[EntryField, ...]] = (
        e.maker(), EntryField("alone", "flag", N_("Alone (a lone hand)")), e.tricks(5), e.passed()
    )
    march: ClassVar[int] = MARCH

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.teams(players)

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(self.seating(players).sides)

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        zero = dict.fromkeys(self.sides(players, config), 0)
        return {"game": dict(zero), "games": dict(zero), "rubber_points": dict(zero), "number": 1}

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
        seating = self.seating(players)
        only_keys(deal, self.fields, self.title)
        state = state or self.initial_state(players, config)
        passed = passed_deal(deal, seating.sides, all_passed())
        if passed is not None:
            return replace(passed, state=state)
        maker = name_of(deal.get("maker"), "maker", players)
        side = seating.side_of(maker)
        alone = flag(deal.get("alone", False), "alone") if "alone" in self.fields else False
        defended = flag(deal.get("defended_alone", False), "defended_alone")
        if defended and not alone:
            raise ScoringError(
                "bad_deal", N_("only a lone hand can be defended alone"), field="defended_alone", at="defended_alone"
            )
        tricks = read_tricks(deal.get("tricks"), seating, total=TRICKS, maker=side)
        (other,) = seating.others(side)
        points = dict.fromkeys(seating.sides, 0)
        facts = {"side": side, "who": maker}
        if tricks[side] >= 3:
            points[side] = (LONE_MARCH if alone else self.march) if tricks[side] == TRICKS else MAKE
            march = tricks[side] == TRICKS
            template = (
                (N_("%(side)s (%(who)s alone) march: %(n)s") if march
                 else N_("%(side)s (%(who)s alone) make %(tricks)s tricks: %(n)s")) if alone
                else (N_("%(side)s march: %(n)s") if march else N_("%(side)s make %(tricks)s tricks: %(n)s"))
            )
            notes: list[str] = [note(template, **facts, tricks=tricks[side], n=points[side])]
        else:
            points[other] = LONE_EUCHRED_ALONE if defended else EUCHRED
            template = (
                (N_("%(side)s (%(who)s alone) is euchred by a lone defender: %(other)s score %(n)s") if defended
                 else N_("%(side)s (%(who)s alone) is euchred: %(other)s score %(n)s")) if alone
                else N_("%(side)s are euchred: %(other)s score %(n)s")
            )
            notes = [note(template, **facts, other=other, n=points[other])]
        extra = {"maker": maker, "side": side, "alone": alone, "tricks": tricks}
        return self.progress(points, notes, extra, config=config, state=state)

    # -- one game, or a rubber ---------------------------------------------------------------
    def progress(
        self,
        points: dict[str, int],
        notes: list[str],
        extra: dict[str, Any],
        *,
        config: Mapping[str, Any],
        state: Mapping[str, Any],
    ) -> DealScore:
        """Add the deal to the game in progress; a game won ends the sheet, or counts toward the rubber."""
        target = config["game_to"]
        game = added(state["game"], points)
        games, rp = dict(state["games"]), dict(state["rubber_points"])
        number = state["number"]
        winner = None
        won = top_of(reached(game, target), game)
        if won is None:
            if target == 5:
                bridge = [s for s in game if game[s] == 4 and all(game[o] <= 2 for o in game if o != s)]
                notes += [note(N_("%(side)s is at the bridge") if " & " not in s else N_("%(side)s are at the bridge"),
                               side=s) for s in bridge]
            next_state = {"game": game, "games": games, "rubber_points": rp, "number": number}
            return DealScore(points, tuple(notes), {**extra, "game": game}, state=next_state)
        losers = [s for s in game if s != won]
        loser_score = max(game[s] for s in losers)
        if config.get("match", SINGLE) == SINGLE:
            notes.append(note(N_("%(side)s wins the game") if " & " not in won else N_("%(side)s win the game"),
                              side=won))
            next_state = {"game": game, "games": {**games, won: games[won] + 1}, "rubber_points": rp, "number": number}
            return DealScore(points, tuple(notes), {**extra, "game": game}, state=next_state, winner=won)
        slam = config.get("slam", False) and loser_score == 0
        credited = 2 if slam else 1
        games[won] += credited
        rp[won] += credited * rubber_points(loser_score)
        notes.append(note(
            N_("%(side)s win game %(number)s before the opponents scored: a slam, two games (%(n)s rubber points)")
            if slam else N_("%(side)s win game %(number)s (%(n)s rubber points)"),
            side=won, number=number, n=credited * rubber_points(loser_score),
        ))
        lap = game[won] - target if config.get("laps", False) else 0
        fresh = {s: (lap if s == won else 0) for s in game}
        if lap:
            notes.append(note(N_("%(side)s carry %(n)s into the next game"), side=won, n=lap))
        extra = {**extra, "game": game, "games": games, "rubber_points": rp}
        if games[won] >= 2:
            margin = 2 + rp[won] - sum(rp[s] for s in losers)
            notes.append(note(N_("%(side)s win the rubber by %(n)s"), side=won, n=margin))
            winner = won
            extra["rubber_margin"] = margin
        next_state = {"game": fresh, "games": games, "rubber_points": rp, "number": number + credited}
        return DealScore(points, tuple(notes), extra, state=next_state, winner=winner)


class RailroadEuchre(FourHandEuchre):
    """Four-hand Euchre speeded up: a joker (the highest trump), calling for best (neither changes the
    score), defending alone (a lone defender euchring a lone hand scores 4), laps and slams in a rubber."""

    name = "railroad_euchre"
    title = "Railroad Euchre"
    rules = "EUCHRE (Railroad Euchre)"
    settings = (GAME_TO, with_default(MATCH, RUBBER), DEFEND_ALONE, LAPS, SLAM)
    fields = ("maker", "alone", "defended_alone", "tricks", "passed", "dealer")
    entry = (*FourHandEuchre.entry[:2], EntryField("defended_alone", "flag", N_("Defended alone")),
             *FourHandEuchre.entry[2:])

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        return self.entry if config.get("defend_alone") else tuple(f for f in self.entry if f.name != "defended_alone")

    def score_deal(self, deal: Mapping[str, Any], **kwargs: Any) -> DealScore:
        if "defended_alone" in deal and not kwargs["config"]["defend_alone"]:
            raise ScoringError(
                "bad_deal", N_("this table does not play defending alone"), field="defended_alone",
                at="defended_alone",
            )
        return super().score_deal(deal, **kwargs)


class TwoHandEuchre(FourHandEuchre):
    """24 cards; no lone hands; a march scores 2."""

    name = "two_hand_euchre"
    title = "Two-Hand Euchre"
    rules = "EUCHRE (Two-Hand Euchre)"
    min_players = 2
    max_players = 2
    fields = ("maker", "tricks", "passed", "dealer")
    entry = (e.maker(), e.tricks(5, N_("Tricks taken by the maker")), e.passed())

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.individual(players)


class ThreeHandEuchre(ScoredGame):
    """Cutthroat: the other two combine against the maker. Maker 3 or 4 tricks 1, 5 tricks 3; a
    euchred maker gives each opponent 2."""

    name = "three_hand_euchre"
    title = "Three-Hand Euchre"
    rules = "EUCHRE (Three-Hand Euchre)"
    entry = (e.maker(), e.tricks(5, N_("Tricks taken by the maker")), e.passed())
    min_players = 3
    max_players = 3
    settings = (GAME_TO,)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("maker", "tricks", "passed", "dealer"), self.title)
        passed = passed_deal(deal, players, all_passed())
        if passed is not None:
            return passed
        maker = name_of(deal.get("maker"), "maker", players)
        seating = Seating.individual(players)
        raw = deal.get("tricks")
        tricks = read_tricks(raw, seating, total=TRICKS, maker=maker)[maker]
        points = dict.fromkeys(players, 0)
        if tricks >= 3:
            points[maker] = 3 if tricks == TRICKS else MAKE
            notes = [note(N_("%(who)s marches: %(n)s") if tricks == TRICKS else N_("%(who)s makes %(tricks)s tricks: %(n)s"),
                          who=maker, tricks=tricks, n=points[maker])]
        else:
            for p in players:
                if p != maker:
                    points[p] = EUCHRED
            notes = [note(N_("%(who)s is euchred: each opponent scores %(n)s"), who=maker, n=EUCHRED)]
        return DealScore(points, tuple(notes), {"maker": maker, "tricks": tricks})

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        """The first to game; two opponents reaching it together: the higher, a tie plays on."""
        return top_of(reached(totals, config["game_to"]), totals)


# -- Auction Euchre ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contract:
    """What a bid obliges: tricks to win, partners the maker takes (None: fixed partnerships), alone."""

    tricks: int
    partners: int | None
    alone: bool = False


AUCTION_BIDS: dict[int, dict[int, Contract]] = {
    5: {
        3: Contract(3, 1),
        4: Contract(4, 2),
        5: Contract(5, 2),
        8: Contract(5, 0, alone=True),
        15: Contract(5, 0, alone=True),
    },
    6: {
        3: Contract(3, None),
        4: Contract(4, None),
        5: Contract(5, None),
        8: Contract(5, None, alone=True),
        15: Contract(5, None, alone=True),
    },
    7: {
        4: Contract(4, 1),
        5: Contract(5, 1),
        6: Contract(6, 2),
        7: Contract(7, 2),
        10: Contract(7, 0, alone=True),
        20: Contract(7, 0, alone=True),
    },
}
AUCTION_TRICKS = {5: 5, 6: 5, 7: 7}  # seven players are dealt seven cards each


class AuctionEuchre(ScoredGame):
    """Five, six or seven players bid points for the right to name trump. Five and seven: the maker
    chooses partners after seeing the widow (how many, the bid says) and every member of a side is
    credited the full amount individually. Six: fixed partnerships of three, seats alternating.

    ``{"maker": "ann", "bid": 4, "partners": ["cy", "eve"], "tricks": 4}`` — ``tricks`` is what the
    maker's side won (or an object by player or side). Made: each member of the making side scores
    the bid; no credit for extra tricks. Euchred: each opponent scores the bid.
    """

    name = "auction_euchre"
    title = "Auction Euchre"
    rules = "EUCHRE (Auction Euchre)"
    min_players = 5
    max_players = 7
    settings = (with_default(GAME_TO, None),)

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        n = len(players) if len(players) in AUCTION_BIDS else 5
        partners = () if n == 6 else (EntryField("partners", "players", N_("Partners chosen by the maker")),)
        return (e.maker(), e.bid(tuple(sorted(AUCTION_BIDS[n]))), *partners, e.tricks(AUCTION_TRICKS[n]), e.passed())

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.teams(players) if len(players) == 6 else Seating.individual(players)

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
        n = len(players)
        seating = self.seating(players)
        only_keys(deal, ("maker", "bid", "partners", "tricks", "passed", "dealer"), self.title)
        passed = passed_deal(deal, seating.sides, all_passed())
        if passed is not None:
            return passed
        maker = name_of(deal.get("maker"), "maker", players)
        bids = AUCTION_BIDS[n]
        bid = deal.get("bid")
        if isinstance(bid, bool) or not isinstance(bid, int) or bid not in bids:
            raise ScoringError(
                "bad_bid", N_("%(what)s must be one of %(bids)s with %(n)s players, not %(value)s"), field="bid",
                what="bid", bids=list(bids), n=n, value=bid,
            )
        contract = bids[bid]
        if contract.partners is None:  # six: fixed partnerships
            if "partners" in deal:
                raise ScoringError("bad_deal", N_("six play in fixed partnerships"), field="partners", at="partners")
            side = seating.side_of(maker)
            makers = [side]
            opponents = seating.others(side)
            tricks = read_tricks(deal.get("tricks"), seating, total=AUCTION_TRICKS[n], maker=side)[side]
        else:
            partners = names_of(deal.get("partners", []), "partners", players)
            if maker in partners:
                raise ScoringError("bad_deal", N_("the maker cannot be his own partner"), field="partners",
                                   at="partners")
            if len(partners) != contract.partners:
                if contract.alone:
                    raise ScoringError("bad_deal", N_("a bid of %(bid)s takes no partner (alone)"), field="partners",
                                       at="partners", bid=bid)
                raise ScoringError("bad_deal", N_("a bid of %(bid)s takes %(n)s partner(s)"), field="partners",
                                   at="partners", bid=bid, n=contract.partners)
            makers = [maker, *partners]
            opponents = [p for p in players if p not in makers]
            tricks = making_tricks(deal.get("tricks"), players, makers, total=AUCTION_TRICKS[n])
        points = dict.fromkeys(seating.sides, 0)
        made = tricks >= contract.tricks
        for s in makers if made else opponents:
            points[s] = bid
        who = " & ".join(makers)
        alone = makers[0] in players and len(makers) == 1  # a lone maker, not a side of three
        if made:
            note = f"{who} makes {bid} ({tricks} tricks): {bid}"
            if not alone:
                note = f"{who} make {bid} ({tricks} tricks): each scores {bid}"
        else:
            note = (
                f"{who} {'is' if alone else 'are'} euchred ({tricks} of {contract.tricks} tricks): "
                f"each opponent scores {bid}"
            )
        extra = {"maker": maker, "bid": bid, "makers": makers, "tricks": tricks, "made": made}
        return DealScore(points, (note,), extra)

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        """With ``game_to`` set, the highest at or past it (a tie plays on); else the sheet is closed by hand."""
        return top_of(reached(totals, config["game_to"]), totals)


def making_tricks(raw: Any, players: Sequence[str], makers: Sequence[str], *, total: int) -> int:
    """The tricks of a side formed for one deal: a bare number, or an object by player summed over the side."""
    if isinstance(raw, Mapping):
        per_player = read_tricks(raw, Seating.individual(players), total=total, maker=makers[0])
        return sum(per_player[p] for p in makers)
    return count(raw, "tricks", high=total)


class CallAceEuchre(ScoredGame):
    """Four to six players, partnerships found in secret: the maker calls a suit and the holder of its
    best card is his partner. The rule book scores it as four-hand Euchre (1, march 2, lone march 4, euchred
    2), every member of a side credited individually as in Auction Euchre.

    ``{"maker": "ann", "partner": "cy", "tricks": 3}`` — ``partner`` null or left out: the maker held
    the best card himself, or declared alone (``"alone": true``): a lone hand.
    """

    name = "call_ace_euchre"
    title = "Call-Ace Euchre"
    rules = "EUCHRE (Call-Ace Euchre)"
    min_players = 4
    max_players = 6
    settings = (GAME_TO,)
    entry = (e.maker(), EntryField("partner", "player", N_("Partner (holder of the called card)")),
             EntryField("alone", "flag", N_("Alone (a lone hand)")), e.tricks(TRICKS), e.passed())

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("maker", "partner", "alone", "tricks", "passed", "dealer"), self.title)
        passed = passed_deal(deal, players, all_passed())
        if passed is not None:
            return passed
        maker = name_of(deal.get("maker"), "maker", players)
        partner = deal.get("partner")
        alone = flag(deal.get("alone", False), "alone")
        if partner is not None:
            partner = name_of(partner, "partner", players)
            if partner == maker:
                raise ScoringError("bad_deal", N_("the maker cannot be his own partner"), field="partner", at="partner")
            if alone:
                raise ScoringError("bad_deal", N_("a lone hand has no partner"), field="partner", at="partner")
        makers = [maker] if partner is None else [maker, partner]
        lone = partner is None
        tricks = making_tricks(deal.get("tricks"), players, makers, total=TRICKS)
        points = dict.fromkeys(players, 0)
        who = " & ".join(makers)
        if tricks >= 3:
            value = (LONE_MARCH if lone else MARCH) if tricks == TRICKS else MAKE
            for p in makers:
                points[p] = value
            note = f"{who}{' alone' if lone else ''} {'march' if tricks == TRICKS else f'make {tricks} tricks'}: {value} each"
        else:
            for p in players:
                if p not in makers:
                    points[p] = EUCHRED
            note = f"{who}{' alone' if lone else ''} euchred: each opponent scores {EUCHRED}"
        return DealScore(points, (note,), {"maker": maker, "makers": makers, "alone": lone, "tricks": tricks})

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        return top_of(reached(totals, config["game_to"]), totals)


# -- Cincinnati Euchre ---------------------------------------------------------------------------

CINCINNATI_TRICKS = 6  # 24 cards, six each
MOONS = {"moon": 12, "double_moon": 24, "triple_moon": 32, "quadruple_moon": 48}  # the rule book's values


class CincinnatiEuchre(ScoredGame):
    """Four players in fixed partnerships, 24 cards, trump (or no trump) by bidding 3 to 6 tricks, or
    a Moon (all six, alone): 12, a Double Moon 24, Triple 32, Quadruple 48.

    ``{"bidder": "ann", "bid": 4, "tricks": 5}`` (``bid`` 3–6 or ``moon`` … ``quadruple_moon``;
    ``"forced": true`` for the dealer's forced bid of three when all pass). A side that makes its bid
    scores the tricks it took (a Moon its value); a side that is set loses the bid (a Moon its value).
    The defenders score the tricks they took (``defenders_score``). Game 32; scores may go negative.
    """

    name = "cincinnati_euchre"
    title = "Cincinnati Euchre"
    rules = "EUCHRE (Cincinnati Euchre)"
    min_players = 4
    max_players = 4
    settings = (
        with_default(GAME_TO, 32),
        Setting(
            "defenders_score",
            SettingKind.BOOL,
            True,
            "the side that did not bid scores the tricks it took (the rule book: points are the tricks a "
            "partnership takes); false: only the bidding side scores",
        ),
    )

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(Seating.teams(players).sides)

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        return (e.bidder(), e.bid((3, 4, 5, 6, *MOONS)), EntryField("forced", "flag", N_("The dealer's forced bid")),
                EntryField("trump", "suit", N_("Trump"), choices=(*e.SUITS, "notrump")),
                e.tricks(CINCINNATI_TRICKS, N_("Tricks taken by the bidder's side")))

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("bidder", "bid", "forced", "tricks", "trump", "dealer"), self.title)
        seating = Seating.teams(players)
        bidder = name_of(deal.get("bidder"), "bidder", players)
        side = seating.side_of(bidder)
        (other,) = seating.others(side)
        bid = deal.get("bid")
        if isinstance(bid, str) and bid in MOONS:
            needed, value, moon = CINCINNATI_TRICKS, MOONS[bid], bid
        elif isinstance(bid, int) and not isinstance(bid, bool) and 3 <= bid <= CINCINNATI_TRICKS:
            needed, value, moon = bid, bid, None
        else:
            raise ScoringError("bad_bid", N_("%(what)s must be 3 to 6 tricks or %(bids)s, not %(value)s"), field="bid",
                               what="bid", bids=list(MOONS), value=bid)
        if flag(deal.get("forced", False), "forced"):
            if bid != 3:
                raise ScoringError("bad_bid", N_("the dealer's forced bid is three"), field="bid", at="forced")
            dealer = dealer_of(deal, players, index)
            if bidder != dealer:  # "If no player bids (all pass), the dealer must accept a Force bid of three"
                raise ScoringError(
                    "bad_deal", N_("only the dealer (%(dealer)s) is forced to bid, not %(player)s"), field="bidder",
                    at="forced", dealer=dealer, player=bidder,
                )
        if "trump" in deal and deal["trump"] not in ("clubs", "diamonds", "hearts", "spades", "notrump"):
            raise ScoringError("bad_deal", N_("%(what)s must be %(suits)s or notrump"), field="trump", what="trump",
                               suits=["clubs", "diamonds", "hearts", "spades"])
        tricks = read_tricks(deal.get("tricks"), seating, total=CINCINNATI_TRICKS, maker=side)
        points = dict.fromkeys(seating.sides, 0)
        made = tricks[side] >= needed
        if made:
            points[side] = value if moon else tricks[side]
            notes = [note(N_("%(side)s make %(bid)s: %(n)s"), side=side, bid=bid, n=points[side])]
        else:
            points[side] = -value
            notes = [note(N_("%(side)s are set (%(tricks)s of %(needed)s tricks): -%(n)s"), side=side,
                          tricks=tricks[side], needed=needed, n=value)]
        if config["defenders_score"] and tricks[other]:
            points[other] = tricks[other]
            notes.append(note(N_("%(side)s score %(n)s for their tricks"), side=other, n=tricks[other]))
        after = added(totals, points)
        out = reached(after, config["game_to"])
        winner = side if side in out else top_of(out, after)
        if winner is not None:
            notes.append(note(N_("%(side)s reach %(n)s and win"), side=winner, n=config["game_to"]))
        extra = {"bidder": bidder, "side": side, "bid": bid, "tricks": tricks, "made": made}
        return DealScore(points, tuple(notes), extra, winner=winner)


GAMES: dict[str, ScoredGame] = {
    g.name: g
    for g in (
        FourHandEuchre(),
        RailroadEuchre(),
        ThreeHandEuchre(),
        TwoHandEuchre(),
        AuctionEuchre(),
        CallAceEuchre(),
        CincinnatiEuchre(),
    )
}
