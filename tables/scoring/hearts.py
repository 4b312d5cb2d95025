"""Hearts and its family: Omnibus, Cancellation, Domino, Auction Hearts and Hearts without the
Black Lady (rule book, "HEARTS" and the sections after it).

The scorer enters, per player, what the rules count: the hearts taken and whether the queen of
spades (the Black Lady) was among them, and in Omnibus whether the plus card was. Every deal is
checked against the pack: all 13 hearts (26 with two packs) and the queen(s) must be accounted
for, so a deal's points add up to a multiple of 26 on a standard sheet.

A deal entry (players that took nothing may be left out; a bare number is a count of hearts)::

    {"taken": {"ann": {"hearts": 3, "queen": true}, "bob": {"hearts": 10}}}
    {"penalty": ["cy"]}   # a revoke, or tricks mixed so a revoke cannot be proved: cy takes the deal's points

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["hearts"], {"players": ["ann", "bob", "cy", "dee"], "deals": [
...     {"taken": {"ann": {"hearts": 13, "queen": True}}}]})
>>> sheet["totals"], sheet["deals"][0]["notes"]
({'ann': 0, 'bob': 26, 'cy': 26, 'dee': 26}, ['ann shot the moon'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tables.engines.base import Setting, SettingKind
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.phrases import note, pot_note
from tables.scoring.refusals import N_, ScoringError

HEART = 1  # each heart taken
QUEEN = 13  # the queen of spades
PLUS = 10  # Omnibus: the ten (or jack) of diamonds counts plus 10
SUITS = ("clubs", "diamonds", "hearts", "spades")

# How a deal's points are settled (the rule book's "Scoring Variations" and Hearts without the Black Lady)
SHEET, CHIPS, SWEEPSTAKES, HOWELL = "sheet", "chips", "sweepstakes", "howell"
# Shooting the moon: the rule book's rule (the others each score the deal's points, the shooter none), the
# common variant (the shooter takes the points off their own score), or no such rule
MOON_ADD, MOON_SUBTRACT, MOON_NONE = "add_to_others", "subtract_from_self", "none"

GAME_TO = Setting(
    "game_to",
    SettingKind.INT,
    100,
    "the game ends when a player reaches this score (some play to 50)",
    minimum=1,
    maximum=10_000,
)
MOON = Setting(
    "moon",
    SettingKind.CHOICE,
    MOON_ADD,
    "shooting the moon: add_to_others (the rule book: each opponent scores the deal's points, the shooter "
    "none), subtract_from_self (the shooter deducts them), none (no such rule)",
    choices=(MOON_ADD, MOON_SUBTRACT, MOON_NONE),
)
SETTLEMENT = Setting(
    "settlement",
    SettingKind.CHOICE,
    SHEET,
    "sheet: points on a score sheet, game to game_to; chips: each pays a chip a point into the "
    "pot and the lowest score of the deal takes it; sweepstakes: only a player who scores zero "
    "takes the pot (the rule book's scoring variations 1 and 2)",
    choices=(SHEET, CHIPS, SWEEPSTAKES),
)


def count(value: Any, where: str, *, low: int = 0, high: int) -> int:
    """A whole number from ``low`` to ``high``, or a refusal naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError("bad_deal", N_("%(what)s must be a whole number"), field=where, what=where)
    if not low <= value <= high:
        raise ScoringError("bad_deal", N_("%(what)s must be from %(low)s to %(high)s, not %(n)s"), field=where,
                           what=where, low=low, high=high, n=value)
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScoringError("bad_deal", N_("%(what)s must be true or false"), field=where, what=where)
    return value


def per_player(deal: Mapping[str, Any], key: str, players: Sequence[str]) -> dict[str, Any]:
    """``deal[key]``, an object keyed by player names (players left out took nothing)."""
    raw = deal.get(key)
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_deal", N_("%(what)s must be an object of what each player took, by name"), field=key,
                           what=key)
    for name in raw:
        if name not in players:
            raise ScoringError("bad_deal", N_("%(player)s is not a player of this sheet"), field=f"{key}.{name}",
                               at=f"{key}.{name}", player=name)
    return {p: raw.get(p) for p in players}


def split_pot(pot: int, takers: Sequence[str]) -> tuple[dict[str, int], int]:
    """The pot shared equally by ``takers``; the odd chips stay in the pot (returned second)."""
    if not takers:
        return {}, pot
    share = pot // len(takers)
    return dict.fromkeys(takers, share), pot - share * len(takers)


class _Hearts(ScoredGame):
    """Shared rules: counting cards per player, the pack check, the moon, settlements, game end."""

    lowest_wins = True
    packs: ClassVar[int] = 1
    plus_card: ClassVar[bool] = False  # Omnibus
    fields: ClassVar[tuple[str, ...]] = ("hearts", "queen")

    # -- what a deal is worth --------------------------------------------------------------
    def queen_scores(self, config: Mapping[str, Any]) -> bool:
        return True

    def counted_fields(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        """What a player's entry may say: hearts, queen (queens with two packs), plus (Omnibus)."""
        return self.fields

    def deal_points(self, config: Mapping[str, Any]) -> int:
        """Every minus point in the pack: 26 (13 hearts and the queen), 52 with two packs, 13 without the queen."""
        return self.packs * (13 * HEART + (QUEEN if self.queen_scores(config) else 0))

    def read_taken(self, deal: Mapping[str, Any], players: Sequence[str], config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Each player's hearts, queens (and plus card); the pack must be accounted for exactly."""
        raw = per_player(deal, "taken", players)
        hearts_in_pack, queens_in_pack = 13 * self.packs, self.packs
        fields = self.counted_fields(config)
        taken: dict[str, dict[str, Any]] = {}
        for p in players:
            got = raw[p] if raw[p] is not None else {}
            where = f"taken.{p}"
            if isinstance(got, int) and not isinstance(got, bool):
                got = {"hearts": got}
            if not isinstance(got, Mapping):
                raise ScoringError("bad_deal", N_("%(what)s must be an object of %(keys)s taken"), field=where,
                                   what=where, keys=list(fields))
            for key in got:
                if key not in fields:
                    raise ScoringError(
                        "bad_deal", N_("%(what)s is not counted in this game (fields: %(keys)s)"),
                        field=f"{where}.{key}", what=f"{where}.{key}", keys=list(fields),
                    )
            entry = {
                "hearts": count(got.get("hearts", 0), f"{where}.hearts", high=hearts_in_pack),
                "queens": 0,
                "plus": False,
            }
            if "queen" in fields:
                entry["queens"] = int(flag(got.get("queen", False), f"{where}.queen"))
            if "queens" in fields:
                entry["queens"] = count(got.get("queens", 0), f"{where}.queens", high=queens_in_pack)
            if self.plus_card:
                entry["plus"] = flag(got.get("plus", False), f"{where}.plus")
            taken[p] = entry
        hearts = sum(e["hearts"] for e in taken.values())
        if hearts != hearts_in_pack:
            raise ScoringError(
                "hearts_unaccounted", N_("the players took %(n)s hearts: all %(high)s must be accounted for"),
                field="taken", n=hearts, high=hearts_in_pack,
            )
        if "queen" in fields or "queens" in fields:
            queens = sum(e["queens"] for e in taken.values())
            if queens != queens_in_pack:
                if queens_in_pack == 1:
                    raise ScoringError("queen_unaccounted",
                                       N_("the queen of spades must be taken by exactly one player each, %(n)s entered"),
                                       field="taken", n=queens)
                raise ScoringError(
                    "queen_unaccounted",
                    N_("both queens of spades (%(high)s) must be taken by exactly one player each, %(n)s entered"),
                    field="taken", n=queens, high=queens_in_pack,
                )
        if self.plus_card:
            plus = sum(e["plus"] for e in taken.values())
            if plus != 1:
                raise ScoringError(
                    "plus_card_unaccounted", N_("the plus card must be taken by exactly one player, %(n)s entered"),
                    field="taken", n=plus,
                )
        return taken

    def counted(self, entry: Mapping[str, Any], config: Mapping[str, Any]) -> int:
        return int(entry["hearts"] * HEART + (entry["queens"] * QUEEN if self.queen_scores(config) else 0))

    def shot_the_moon(self, entry: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        """Took every counting card of the deal."""
        return self.counted(entry, config) == self.deal_points(config)

    def penalty(self, deal: Mapping[str, Any], players: Sequence[str], config: Mapping[str, Any]) -> DealScore:
        """A revoke (or tricks mixed so a claim of revoke cannot be proved): each player charged takes
        the deal's points, play is abandoned and nothing else counts."""
        charged = deal.get("penalty")
        if not isinstance(charged, list) or not charged or not all(isinstance(p, str) for p in charged):
            raise ScoringError("bad_deal", N_("the penalty must be a list of the players charged"), field="penalty")
        for p in charged:
            if p not in players:
                raise ScoringError("bad_deal", N_("%(player)s is not a player of this sheet"), field="penalty",
                                   at="penalty", player=p)
        if len(set(charged)) != len(charged):
            raise ScoringError("bad_deal", N_("a player is charged twice"), field="penalty", at="penalty")
        if "taken" in deal:
            raise ScoringError(
                "bad_deal", N_("a deal is either counted (taken) or abandoned on a penalty, not both"), field="penalty"
            )
        full = self.deal_points(config)
        points = {p: (full if p in charged else 0) for p in players}
        return DealScore(
            points, tuple(note(N_("%(who)s is charged %(n)s for a revoke"), who=p, n=full) for p in charged), {"penalty": list(charged)}
        )

    def base_points(
        self, deal: Mapping[str, Any], players: Sequence[str], config: Mapping[str, Any]
    ) -> tuple[dict[str, int], list[str], dict[str, Any]]:
        """The deal's points before settlement: counted cards, the moon applied."""
        taken = self.read_taken(deal, players, config)
        points = {p: self.counted(taken[p], config) for p in players}
        notes: list[str] = []
        moon = config.get("moon", MOON_NONE)
        shooter = next((p for p in players if self.shot_the_moon(taken[p], config)), None)
        if shooter is not None and moon != MOON_NONE:
            full = self.deal_points(config)
            notes.append(note(N_("%(who)s shot the moon"), who=shooter))
            if moon == MOON_ADD:
                points = {p: (0 if p == shooter else full) for p in players}
            else:
                points = {p: (-full if p == shooter else 0) for p in players}
        return points, notes, {"moon": shooter} if shooter is not None and moon != MOON_NONE else {}

    # -- settlement ------------------------------------------------------------------------
    def settle(
        self,
        points: dict[str, int],
        notes: list[str],
        extra: dict[str, Any],
        *,
        totals: Mapping[str, int],
        config: Mapping[str, Any],
    ) -> DealScore:
        settlement = config.get("settlement", SHEET)
        if settlement == SHEET:
            return DealScore(points, tuple(notes), extra)
        # Chips: the totals are each player's chips paid in less chips taken out, so what is still in
        # the pot (odd chips left for the next deal, pots nobody won) is their sum.
        carried = sum(totals.values())
        pot = carried + sum(points.values())
        if settlement == CHIPS:
            low = min(points.values())
            takers = [p for p, v in points.items() if v == low]
        else:  # sweepstakes: only a player who scored zero takes the pot
            takers = [p for p, v in points.items() if v == 0]
        won, left = split_pot(pot, takers)
        net = {p: points[p] - won.get(p, 0) for p in points}
        if won:
            notes.append(pot_note(takers, pot, left, N_("%(who)s takes the pot of %(pot)s"),
                                  N_("%(who)s share the pot of %(pot)s"),
                                  N_("%(who)s takes the pot of %(pot)s; %(left)s left for the next deal"),
                                  N_("%(who)s share the pot of %(pot)s; %(left)s left for the next deal")))
        else:
            notes.append(note(N_("nobody scored zero: the pot of %(pot)s stays for the next deal"), pot=pot))
        return DealScore(net, tuple(notes), {**extra, "paid": points, "pot": pot, "won": won, "pot_left": left})

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        for key in deal:
            if key not in ("taken", "penalty"):
                raise ScoringError("bad_deal", N_("%(what)s is not part of a %(title)s deal (%(keys)s)"), field=key,
                                   what=key, title=self.title, keys=["taken", "penalty"])
        if "penalty" in deal:
            scored = self.penalty(deal, players, config)
            return self.settle(
                dict(scored.points), list(scored.notes), dict(scored.extra), totals=totals, config=config
            )
        points, notes, extra = self.base_points(deal, players, config)
        return self.settle(points, notes, extra, totals=totals, config=config)

    # -- the end -----------------------------------------------------------------------------
    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        """Game to ``game_to``: once a player reaches it, the lowest score wins (a tie for lowest plays on).
        Chips games have no end of their own: the sheet is closed when the players stop."""
        if config.get("settlement", SHEET) != SHEET or "game_to" not in config:
            return None
        if max(totals.values()) < config["game_to"]:
            return None
        return self.leader(totals, config=config)


class Hearts(_Hearts):
    name = "hearts"
    title = "Hearts"
    rules = "HEARTS"
    min_players = 3
    max_players = 7
    settings = (GAME_TO, MOON, SETTLEMENT)

    def resolve_config(self, given: Any) -> dict[str, Any]:
        config = super().resolve_config(given)
        if config["settlement"] != SHEET and config["moon"] == MOON_SUBTRACT:
            raise ScoringError(
                "bad_config",
                N_("a shooter cannot pay minus chips; with chips settlements the moon adds to the others, or is not played"),
                field="config.moon", at="config.moon",
            )
        return config


class OmnibusHearts(_Hearts):
    """The ten of diamonds (in some places the jack) counts plus 10 for whoever wins it; taking all fifteen
    counting cards is a slam, 26 plus instead of 16 minus. The rule book gives Omnibus no other moon."""

    name = "omnibus_hearts"
    title = "Omnibus Hearts"
    rules = "HEARTS (Omnibus Hearts)"
    min_players = 4
    max_players = 6
    plus_card = True
    fields = ("hearts", "queen", "plus")
    settings = (
        GAME_TO,
        Setting(
            "plus_card",
            SettingKind.CHOICE,
            "10D",
            "the plus card: the ten of diamonds, or the jack in some localities",
            choices=("10D", "JD"),
        ),
    )

    def counted(self, entry: Mapping[str, Any], config: Mapping[str, Any]) -> int:
        return super().counted(entry, config) - (PLUS if entry["plus"] else 0)

    def base_points(
        self, deal: Mapping[str, Any], players: Sequence[str], config: Mapping[str, Any]
    ) -> tuple[dict[str, int], list[str], dict[str, Any]]:
        taken = self.read_taken(deal, players, config)
        points = {p: self.counted(taken[p], config) for p in players}
        slam = next(
            (p for p in players if taken[p]["hearts"] == 13 and taken[p]["queens"] == 1 and taken[p]["plus"]), None
        )
        if slam is None:
            return points, [], {}
        return (
            {p: (-26 if p == slam else 0) for p in players},
            [note(N_("%(who)s made a slam: all fifteen counting cards, 26 plus"), who=slam)],
            {"slam": slam},
        )


class CancellationHearts(_Hearts):
    """Two packs shuffled together for seven to ten players: 26 hearts and two queens of spades."""

    name = "cancellation_hearts"
    title = "Cancellation Hearts"
    rules = "HEARTS (Cancellation Hearts)"
    min_players = 7
    max_players = 10
    packs = 2
    fields = ("hearts", "queens")
    settings = (GAME_TO, MOON)


class DominoHearts(_Hearts):
    """Six cards each and a stock; the last survivor keeps the cards left in his hand (enter them as
    taken by him). The queen of spades is usually not scored."""

    name = "domino_hearts"
    title = "Domino Hearts"
    rules = "HEARTS (Domino Hearts)"
    min_players = 2
    max_players = 7
    settings = (
        GAME_TO,
        MOON,
        Setting("queen_scores", SettingKind.BOOL, False, "the queen of spades counts 13 (usually it is not scored)"),
    )

    def queen_scores(self, config: Mapping[str, Any]) -> bool:
        return bool(config["queen_scores"])

    def counted_fields(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        return self.fields if self.queen_scores(config) else ("hearts",)


class HeartsWithoutBlackLady(_Hearts):
    """Only the hearts count (13 points a deal); no passing. Settled by the Howell method: for each
    heart taken a player puts up one chip per other player, then takes out as many chips as 13 less
    the hearts he took. On a score sheet instead, the game runs to ``game_to``."""

    name = "hearts_without_black_lady"
    title = "Hearts without the Black Lady"
    rules = "HEARTS (Hearts Without Black Lady)"
    min_players = 3
    max_players = 7
    settings = (
        Setting(
            "settlement",
            SettingKind.CHOICE,
            HOWELL,
            "howell: chips by the Howell method (the rule book's usual settlement); sheet: points on a "
            "score sheet, game to game_to",
            choices=(HOWELL, SHEET),
        ),
        GAME_TO,
    )

    def queen_scores(self, config: Mapping[str, Any]) -> bool:
        return False

    def counted_fields(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        return ("hearts",)

    def settle(
        self,
        points: dict[str, int],
        notes: list[str],
        extra: dict[str, Any],
        *,
        totals: Mapping[str, int],
        config: Mapping[str, Any],
    ) -> DealScore:
        if config["settlement"] != HOWELL:
            return super().settle(points, notes, extra, totals=totals, config=config)
        others = len(points) - 1
        hearts = points  # a revoking hand is charged all 13 hearts and settles as if it took them
        if sum(hearts.values()) != 13:
            raise ScoringError(
                "bad_deal", N_("with the Howell settlement only one player can be charged a penalty"), field="penalty"
            )
        put_up = {p: h * others for p, h in hearts.items()}
        take_out = {p: 13 - h for p, h in hearts.items()}
        net = {p: put_up[p] - take_out[p] for p in points}
        return DealScore(net, tuple(notes), {**extra, "hearts": hearts, "put_up": put_up, "take_out": take_out})


class AuctionHearts(ScoredGame):
    """Hearts without the Black Lady where the players bid chips for the right to name the suit to avoid.

    A deal entry: the winning bid (the highest; each player bids once, higher than the last, or passes),
    the suit it named and the cards of that suit each player took::

        {"bid": {"player": "ann", "chips": 5}, "suit": "clubs", "taken": {"bob": 4, "cy": 9}}

    The bidder's chips and one chip per card of the suit taken go into the pot. A player taking none
    wins the pot; two such players divide it (an odd chip is left for the next pot). If more than two
    take none, one takes all 13, or each takes at least one, nobody wins: the next deal is played
    without bidding, the same bidder naming the suit (its entry has no ``bid``), until the pot is won.

    Totals are chips paid in less chips taken out (the lowest is ahead); their sum is the pot still
    on the table. The game has no end of its own: the sheet is closed when the players stop.
    """

    name = "auction_hearts"
    title = "Auction Hearts"
    rules = "HEARTS (Auction Hearts)"
    min_players = 3
    max_players = 7
    lowest_wins = True
    carries_state = True
    settings = ()

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"bidder": None}

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
        for key in deal:
            if key not in ("bid", "suit", "taken"):
                raise ScoringError(
                    "bad_deal", N_("%(what)s is not part of a %(title)s deal (%(keys)s)"), field=key, what=key,
                    title=self.title, keys=["bid", "suit", "taken"],
                )
        redeal_by = (state or {}).get("bidder")
        bid = deal.get("bid")
        if redeal_by is not None:
            if bid is not None:
                raise ScoringError(
                    "no_bidding", N_("nobody won the last pot: %(player)s names the suit again without bidding"),
                    field="bid", player=redeal_by,
                )
            bidder, chips = redeal_by, 0
        else:
            if not isinstance(bid, Mapping) or set(bid) != {"player", "chips"}:
                raise ScoringError("bad_deal", N_("the bid must be the winning bid: the player and the chips bid"),
                                   field="bid")
            bidder = bid["player"]
            if bidder not in players:
                raise ScoringError(
                    "bad_deal", N_("%(value)s is not a player of this sheet"), field="bid.player", at="bid.player",
                    value=bidder,
                )
            chips = count(bid["chips"], "bid.chips", low=1, high=1_000_000)
        suit = deal.get("suit")
        if suit not in SUITS:
            raise ScoringError("bad_deal", N_("the suit must be the suit named to avoid: %(suits)s"), field="suit",
                               suits=list(SUITS))
        raw = per_player(deal, "taken", players)
        cards: dict[str, int] = {}
        for p in players:
            got = raw[p] if raw[p] is not None else 0
            if isinstance(got, Mapping):
                if set(got) - {"cards"}:
                    raise ScoringError(
                        "bad_deal", N_("count the cards of the suit %(player)s took"), field=f"taken.{p}",
                        at=f"taken.{p}", player=p,
                    )
                got = got.get("cards", 0)
            cards[p] = count(got, f"taken.{p}", high=13)
        if sum(cards.values()) != 13:
            raise ScoringError(
                "cards_unaccounted", N_("the players took %(n)s %(suit)s: all 13 must be accounted for"),
                field="taken", n=sum(cards.values()), suit=suit,
            )
        paid = {p: cards[p] + (chips if p == bidder else 0) for p in players}
        pot = sum(totals.values()) + sum(paid.values())
        clean = [p for p in players if cards[p] == 0]
        notes = [note(N_("%(who)s bid %(chips)s and named %(suit)s"), who=bidder, chips=chips, suit=suit) if chips
                 else note(N_("%(who)s names %(suit)s again"), who=bidder, suit=suit)]
        if any(c == 13 for c in cards.values()) or len(clean) not in (1, 2):
            won: dict[str, int] = {}
            left = pot
            notes.append(note(N_("no winner: the pot of %(pot)s stays, %(who)s names the suit on the next deal"),
                              pot=pot, who=bidder))
            next_state = {"bidder": bidder}
        else:
            won, left = split_pot(pot, clean)
            notes.append(pot_note(clean, pot, left, N_("%(who)s takes the pot of %(pot)s"),
                                  N_("%(who)s share the pot of %(pot)s"),
                                  N_("%(who)s takes the pot of %(pot)s; %(left)s left for the next pot"),
                                  N_("%(who)s share the pot of %(pot)s; %(left)s left for the next pot")))
            next_state = {"bidder": None}
        points = {p: paid[p] - won.get(p, 0) for p in players}
        extra = {
            "bidder": bidder,
            "bid": chips,
            "suit": suit,
            "cards": cards,
            "paid": paid,
            "pot": pot,
            "won": won,
            "pot_left": left,
        }
        return DealScore(points, tuple(notes), extra, state=next_state)


GAMES: dict[str, ScoredGame] = {
    g.name: g
    for g in (
        Hearts(),
        OmnibusHearts(),
        CancellationHearts(),
        DominoHearts(),
        HeartsWithoutBlackLady(),
        AuctionHearts(),
    )
}
