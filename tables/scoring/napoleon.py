"""Napoleon (Nap), Pool Nap, Peep Nap and Sir Garnet (rule book, "NAPOLEON"), two to six players, settled
in chips after each deal.

Each player bids once the tricks, of five, he will win with a trump of his choice; a bid of all five
is Nap, overcalled by Wellington and that by Blücher (also five tricks, dearer to lose). The bidder
collects from every other player if he makes the bid and pays every player if he fails:

==============  =====================  =====================
bid             bidder wins            bidder loses
==============  =====================  =====================
1 to 4 tricks   1 a trick bid          1 a trick bid
Nap             10                     5
Wellington      10                     10
Blücher         10                     20
==============  =====================  =====================

The rule book's table prints "11 for each trick" and Nap "15" to lose. They are read as 1 and 5: the rule book
says Wellington and Blücher "incur greater penalties" than Nap, which a Nap penalty of 15 (more than
Wellington's 10) would contradict, and 1 a trick and Nap 10/5 are the game's standard stakes. A house
that reads them literally sets ``stakes`` (``per_trick`` 11, ``nap_lose`` 15).

A deal entry::

    {"bidder": "ann", "bid": 3, "tricks": 3}              # tricks: the bidder's (or an object by player)
    {"bidder": "ann", "bid": "nap", "tricks": 4}
    {"bidder": "bob", "bid": 2, "revoke": "cy"}            # play abandoned on cy's revoke
    {"bidder": "bob", "bid": 2, "tricks": 2, "out_of_turn": ["dee"]}

Pool Nap: a pool begun by every player putting in ``ante`` chips, the dealer adding ``ante`` each deal
after that (the dealer is ``dealer`` in the entry, else the deal passes left from the first player
listed); the first Nap made takes the pool, a failed Nap doubles it. Peep Nap adds one chip to the pool
per peep at the widow card (``"peeped": ["ann"]``). Sir Garnet: a player who took up the extra hand
(``"garnet": true``) must bid Nap and pays double if he fails. Totals are chips won less chips paid;
in pool games minus their sum is the pool on the table. The game has no end of its own: the sheet is
closed when the players stop.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["napoleon"], {"players": ["ann", "bob", "cy", "dee"], "deals": [
...     {"bidder": "ann", "bid": 3, "tricks": 4}, {"bidder": "bob", "bid": "nap", "tricks": 4}]})
>>> sheet["totals"]
{'ann': 14, 'bob': -18, 'cy': 2, 'dee': 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, dealer_of, name_of, names_of, only_keys, read_tricks, with_default
from tables.scoring.hearts import flag
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

TRICKS = 5
FIVE_TRICK_BIDS = ("nap", "wellington", "blucher")  # low to high
REVOKE_TO_POOL, OUT_OF_TURN = 5, 3  # chips
PEEP = 1

STAKES = Setting(
    "stakes",
    SettingKind.CHART,
    {
        "per_trick": 1,
        "nap_win": 10,
        "nap_lose": 5,
        "wellington_win": 10,
        "wellington_lose": 10,
        "blucher_win": 10,
        "blucher_lose": 20,
    },
    "chips the bidder collects from (wins) or pays to (loses) each other player: a bid of 1 to 4 tricks "
    "per_trick a trick either way; the rule book's table prints 11 and Nap 15 to lose, read as 1 and 5",
)
WELLINGTON = Setting(
    "wellington_blucher", SettingKind.BOOL, True, "Nap may be overcalled by Wellington, and that by Blücher"
)
LOWEST_BID = Setting("lowest_bid", SettingKind.INT, 1, "the fewest tricks a player may bid", minimum=1, maximum=4)
POOL = Setting(
    "pool",
    SettingKind.BOOL,
    False,
    "Pool Nap: a pool won by the first Nap made; a failed Nap doubles it; a revoke pays 5 chips and a "
    "lead out of turn 3 into it",
)
ANTE = Setting(
    "ante",
    SettingKind.INT,
    1,
    "pool games: chips each player puts in to begin a pool, and the dealer adds every deal after",
    minimum=1,
    maximum=1000,
)
PEEP_SETTING = Setting(
    "peep", SettingKind.BOOL, False, "Peep Nap: a widow card; a player may peep at it for one chip to the pool"
)
GARNET = Setting(
    "sir_garnet",
    SettingKind.BOOL,
    False,
    "Sir Garnet: an extra hand; the player who takes it up must bid Nap and pays double if he fails",
)


class Napoleon(ScoredGame):
    name = "napoleon"
    title = "Napoleon"
    rules = "NAPOLEON"
    min_players = 2
    max_players = 6
    settings = (STAKES, WELLINGTON, LOWEST_BID, POOL, ANTE, PEEP_SETTING, GARNET)

    def resolve_config(self, given: Any) -> dict[str, Any]:
        config = super().resolve_config(given)
        if config["peep"] and not config["pool"]:
            raise ScoringError("bad_config", N_("Peep Nap is played with a pool"), field="config.peep", at="config.peep")
        return config

    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        low = config.get("lowest_bid", 1)
        bids = (*range(low, TRICKS), *(FIVE_TRICK_BIDS if config.get("wellington_blucher") else FIVE_TRICK_BIDS[:1]))
        peep = (EntryField("peeped", "players", N_("Peeped at the widow")),) if config.get("peep") else ()
        garnet = (EntryField("garnet", "flag", N_("The bidder took the extra hand")),) if config.get("sir_garnet") else ()
        return (e.bidder(), e.bid(bids), e.tricks(TRICKS, N_("Tricks taken by the bidder")),
                EntryField("revoke", "player", N_("Revoked (play abandoned)")),
                EntryField("out_of_turn", "players", N_("Led out of turn")), *peep, *garnet, e.passed())

    def read_bid(self, raw: Any, config: Mapping[str, Any]) -> tuple[int, str | None]:
        """The tricks bid and the five-trick call (nap, wellington, blucher) if it is one."""
        call = raw.lower().replace("ü", "u") if isinstance(raw, str) else None
        if call in FIVE_TRICK_BIDS:
            if call != "nap" and not config["wellington_blucher"]:
                raise ScoringError("bad_bid", N_("this table does not play %(bid)s"), field="bid", at="bid", bid=call)
            return TRICKS, call
        if isinstance(raw, int) and not isinstance(raw, bool):
            if config["lowest_bid"] <= raw < TRICKS:
                return raw, None
            if raw == TRICKS:
                return TRICKS, "nap"
        if config["wellington_blucher"]:
            raise ScoringError("bad_bid", N_("%(what)s must be %(low)s to 4 tricks, nap, wellington or blucher, not %(value)s"),
                               field="bid", what="bid", low=config["lowest_bid"], value=raw)
        raise ScoringError("bad_bid", N_("%(what)s must be %(low)s to 4 tricks or nap, not %(value)s"), field="bid",
                           what="bid", low=config["lowest_bid"], value=raw)

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        allowed = ["bidder", "bid", "tricks", "revoke", "out_of_turn", "passed", "dealer"]
        allowed += ["peeped"] if config["peep"] else []
        allowed += ["garnet"] if config["sir_garnet"] else []
        only_keys(deal, allowed, self.title)
        points = dict.fromkeys(players, 0)
        notes: list[str] = []
        pool = -sum(totals.values())
        if config["pool"]:
            dealer = dealer_of(deal, players, index)
            if pool == 0:
                for p in players:
                    points[p] -= config["ante"]
                notes.append(note(N_("a new pool: each player puts in %(n)s"), n=config["ante"]))
            else:
                points[dealer] -= config["ante"]
            for p in names_of(deal.get("peeped", []), "peeped", players):
                points[p] -= PEEP
                notes.append(note(N_("%(who)s peeps at the widow: %(n)s to the pool"), who=p, n=PEEP))
        elif "dealer" in deal:
            name_of(deal["dealer"], "dealer", players)
        if "passed" in deal and flag(deal["passed"], "passed"):
            extra_key = next((k for k in deal if k not in ("passed", "dealer", "peeped")), None)
            if extra_key is not None:
                raise ScoringError("bad_deal", N_("a passed deal has no %(what)s"), field=extra_key, what=extra_key)
            notes.append(note(N_("all passed")))
            return DealScore(points, tuple(notes), self.pool_extra(config, pool, points, {}))
        bidder = name_of(deal.get("bidder"), "bidder", players)
        needed, call = self.read_bid(deal.get("bid"), config)
        garnet = flag(deal.get("garnet", False), "garnet")
        if garnet and call is None:
            raise ScoringError("bad_bid", N_("a player who takes up the extra hand must bid Nap"), field="bid", at="bid")
        stakes = config["stakes"]
        win = stakes[f"{call}_win"] if call else stakes["per_trick"] * needed
        lose = stakes[f"{call}_lose"] if call else stakes["per_trick"] * needed
        if garnet:
            lose *= 2
        others = [p for p in players if p != bidder]
        offenders = names_of(deal.get("out_of_turn", []), "out_of_turn", players)
        if bidder in offenders:
            raise ScoringError(
                "bad_deal", N_("a bidder's lead or play out of turn carries no penalty"), field="out_of_turn",
                at="out_of_turn",
            )
        bid_name = call.capitalize() if call else f"{needed}"
        if "revoke" in deal:
            revoker = name_of(deal["revoke"], "revoke", players)
            if "tricks" in deal:
                raise ScoringError("bad_deal", N_("play is abandoned on a revoke"), field="tricks", at="tricks")
            made = revoker != bidder
            if made:  # the revoking opponent alone pays what the bidder would have collected
                points[revoker] -= win * len(others)
                points[bidder] += win * len(others)
                notes.append(note(N_("%(who)s revoked: pays %(bidder)s %(n)s"), who=revoker, bidder=bidder,
                                  n=win * len(others)))
            else:
                for p in others:
                    points[p] += lose
                points[bidder] -= lose * len(others)
                notes.append(note(N_("%(who)s revoked: pays each player %(n)s as though he had lost"), who=bidder, n=lose))
            if config["pool"]:
                points[revoker] -= REVOKE_TO_POOL
                notes.append(note(N_("%(who)s puts %(n)s in the pool for the revoke"), who=revoker, n=REVOKE_TO_POOL))
            tricks = None
        else:
            tricks = self.bidder_tricks(deal.get("tricks"), bidder, players)
            made = tricks >= needed
            for p in others:
                points[p] += -win if made else lose
            points[bidder] += win * len(others) if made else -lose * len(others)
            facts = {"who": bidder, "bid": bid_name, "tricks": tricks}
            if made:
                notes.append(note(N_("%(who)s makes %(bid)s (%(tricks)s tricks): collects %(n)s from each"), **facts,
                                  n=win))
            elif garnet:
                notes.append(note(N_("%(who)s fails %(bid)s (%(tricks)s tricks): pays each %(n)s (double: Sir "
                                     "Garnet)"), **facts, n=lose))
            else:
                notes.append(note(N_("%(who)s fails %(bid)s (%(tricks)s tricks): pays each %(n)s"), **facts, n=lose))
        for p in offenders:
            if config["pool"]:
                points[p] -= OUT_OF_TURN
                notes.append(note(N_("%(who)s played out of turn: %(n)s to the pool"), who=p, n=OUT_OF_TURN))
            else:
                points[p] -= OUT_OF_TURN
                points[bidder] += OUT_OF_TURN
                notes.append(note(N_("%(who)s played out of turn: pays %(bidder)s %(n)s"), who=p, bidder=bidder,
                                  n=OUT_OF_TURN))
            if not made:  # ... and collects nothing if the bidder loses
                points[p] -= lose
                points[bidder] += lose
        if config["pool"] and call is not None:
            in_pool = pool - sum(points.values())
            if made and tricks == TRICKS:
                points[bidder] += in_pool
                notes.append(note(N_("%(who)s takes the pool of %(n)s"), who=bidder, n=in_pool))
            elif not made:
                points[bidder] -= in_pool
                notes.append(note(N_("%(who)s doubles the pool: puts in %(n)s"), who=bidder, n=in_pool))
        extra = {"bidder": bidder, "bid": call or needed, "tricks": tricks, "made": made, "garnet": garnet}
        return DealScore(points, tuple(notes), self.pool_extra(config, pool, points, extra))

    @staticmethod
    def bidder_tricks(raw: Any, bidder: str, players: Sequence[str]) -> int:
        return read_tricks(raw, Seating.individual(players), total=TRICKS, maker=bidder)[bidder]

    @staticmethod
    def pool_extra(
        config: Mapping[str, Any], before: int, points: Mapping[str, int], extra: dict[str, Any]
    ) -> dict[str, Any]:
        if not config["pool"]:
            return extra
        return {**extra, "pool_before": before, "pool_after": before - sum(points.values())}


class PoolNap(Napoleon):
    name = "pool_nap"
    title = "Pool Nap"
    rules = "NAPOLEON (Pool Nap)"
    settings = (STAKES, WELLINGTON, LOWEST_BID, with_default(POOL, True), ANTE, PEEP_SETTING, GARNET)


class PeepNap(Napoleon):
    name = "peep_nap"
    title = "Peep Nap"
    rules = "NAPOLEON (Peep Nap)"
    settings = (
        STAKES,
        WELLINGTON,
        LOWEST_BID,
        with_default(POOL, True),
        ANTE,
        with_default(PEEP_SETTING, True),
        GARNET,
    )


class SirGarnet(Napoleon):
    name = "sir_garnet"
    title = "Sir Garnet"
    rules = "NAPOLEON (Sir Garnet)"
    settings = (STAKES, WELLINGTON, LOWEST_BID, POOL, ANTE, PEEP_SETTING, with_default(GARNET, True))


GAMES: dict[str, ScoredGame] = {g.name: g for g in (Napoleon(), PoolNap(), PeepNap(), SirGarnet())}
