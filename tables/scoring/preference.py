"""Preference (rule book, "PREFERENCE"), three players, 32 cards, in chips with a pot.

The bidding is for the right to name trump, the bidder undertaking six of the ten tricks. In the first
round each player bids a suit once (higher than the last: hearts, the "preference suit", highest, then
diamonds, clubs, spades); if all pass, a second round in which players put chips in the pot, the most
chips winning the bid (and the widow). The stakes are agreed beforehand — the house's settings: each
player's ``ante`` to the pot every deal, the ``win`` paid from the pot to a bidder who takes six tricks
or more (at most what the pot holds), the ``lose`` a bidder who fails pays into it.

A deal entry::

    {"bidder": "ann", "suit": "hearts", "tricks": 7}                   # first round
    {"bidder": "bob", "chips": {"bob": 3, "cy": 2}, "tricks": 5}       # second round: chips put in
    {"passed": true}                                                   # all passed both rounds

``tricks`` is the bidder's (or an object of each player's, adding up to ten). Totals are chips won
less chips paid; minus their sum is the pot. The game has no end of its own: the sheet is closed
when the players stop.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["preference"], {"players": ["ann", "bob", "cy"], "deals": [
...     {"bidder": "ann", "suit": "hearts", "tricks": 7}, {"bidder": "bob", "suit": "spades", "tricks": 4}]})
>>> sheet["totals"], sheet["deals"][1]["extra"]["pot_after"]
({'ann': 1, 'bob': -5, 'cy': -2}, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, name_of, only_keys, read_tricks
from tables.scoring.hearts import count, flag
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

TRICKS, CONTRACT = 10, 6
SUITS = ("spades", "clubs", "diamonds", "hearts")  # low to high; hearts is the preference suit


class Preference(ScoredGame):
    name = "preference"
    title = "Preference"
    rules = "PREFERENCE"
    entry = (e.bidder(), EntryField("suit", "suit", N_("Trump"), choices=e.SUITS),
             EntryField("chips", "per_side", N_("Chips each bidder put in the pot (second round)"), minimum=0),
             e.tricks(TRICKS, N_("Tricks taken by the bidder")), e.passed())
    min_players = 3
    max_players = 3
    settings = (
        Setting("ante", SettingKind.INT, 1, "chips each player puts in the pot every deal", minimum=0, maximum=10_000),
        Setting(
            "win",
            SettingKind.INT,
            3,
            "chips paid from the pot to a bidder who takes six tricks or more (at most what the pot holds)",
            minimum=1,
            maximum=100_000,
        ),
        Setting("lose", SettingKind.INT, 3, "chips a bidder who fails pays into the pot", minimum=1, maximum=100_000),
    )

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("bidder", "suit", "chips", "tricks", "passed", "dealer"), self.title)
        if "dealer" in deal:
            name_of(deal["dealer"], "dealer", players)
        before = -sum(totals.values())
        points = dict.fromkeys(players, -config["ante"])
        notes: list[str] = [note(N_("each antes %(n)s"), n=config["ante"])] if config["ante"] else []
        if "passed" in deal and flag(deal["passed"], "passed"):
            stray = next((k for k in deal if k not in ("passed", "dealer")), None)
            if stray is not None:
                raise ScoringError("bad_deal", N_("a passed deal has no bid"), field=stray, at=stray)
            notes.append(note(N_("all passed both rounds: no bid")))
            return self.deal_score(points, notes, before, {"passed": True})
        bidder = name_of(deal.get("bidder"), "bidder", players)
        suit = deal.get("suit")
        if suit is not None and suit not in SUITS:
            raise ScoringError("bad_deal", N_("%(what)s must be one of %(suits)s"), field="suit", what="suit",
                               suits=list(reversed(SUITS)))
        if "chips" in deal:
            chips = self.chips_bid(deal["chips"], bidder, players)
            for p, c in chips.items():
                points[p] -= c
            notes.append(note(N_("second round: %(who)s wins the bid with %(n)s chips to the pot"), who=bidder,
                              n=chips[bidder]))
        elif suit is None:
            raise ScoringError(
                "bad_deal", N_("a first-round bid names its suit (a second-round bid gives chips)"), field="suit",
                at="suit",
            )
        else:
            chips = {}
            notes.append(note(N_("%(who)s bids %(suit)s"), who=bidder, suit=suit))
        tricks = read_tricks(deal.get("tricks"), Seating.individual(players), total=TRICKS, maker=bidder)[bidder]
        made = tricks >= CONTRACT
        if made:
            in_pot = before - sum(points.values())
            paid = min(config["win"], in_pot)
            points[bidder] += paid
            notes.append(note(N_("%(who)s takes %(tricks)s tricks: %(n)s from the pot"), who=bidder, tricks=tricks, n=paid))
        else:
            points[bidder] -= config["lose"]
            notes.append(note(N_("%(who)s takes %(tricks)s tricks, short of six: pays %(n)s into the pot"), who=bidder,
                              tricks=tricks, n=config["lose"]))
        extra = {"bidder": bidder, "suit": suit, "chips": chips, "tricks": tricks, "made": made}
        return self.deal_score(points, notes, before, extra)

    @staticmethod
    def chips_bid(raw: Any, bidder: str, players: Sequence[str]) -> dict[str, int]:
        """The second round: chips each player who bid put in; the bidder's must be the most."""
        if not isinstance(raw, Mapping) or not raw:
            raise ScoringError("bad_deal", N_("%(what)s must be the chips each second-round bidder put in"), field="chips",
                               what="chips")
        chips: dict[str, int] = {}
        for key, value in raw.items():
            who = name_of(key, f"chips.{key}", players)
            chips[who] = count(value, f"chips.{key}", low=1, high=1_000_000)
        if bidder not in chips:
            raise ScoringError("bad_deal", N_("the bidder %(player)s won with chips, so put some in"), field="chips",
                               at="chips", player=bidder)
        if any(c >= chips[bidder] for p, c in chips.items() if p != bidder):
            raise ScoringError("bad_deal", N_("%(player)s must have put in the most chips"), field="chips", at="chips",
                               player=bidder)
        return chips

    @staticmethod
    def deal_score(points: dict[str, int], notes: list[str], before: int, extra: dict[str, Any]) -> DealScore:
        return DealScore(
            points, tuple(notes), {**extra, "pot_before": before, "pot_after": before - sum(points.values())}
        )


GAMES: dict[str, ScoredGame] = {g.name: g for g in (Preference(),)}
