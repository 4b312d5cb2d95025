"""Loo (rule book, "LOO"), three-card Loo for three to sixteen players, each for himself, in chips.

The dealer antes three chips, so the pot always divides into three, one part for each trick. A player
who wins no trick is "looed" and pays three chips into the next pot. A deal that begins with only the
dealer's three chips is a **single**: everyone plays. Any other is a **double**: a "miss" hand is dealt,
and each player passes (out of the deal), stands, or takes the miss (and stands).

Single pot — the tricks each player won (three in all; players left out won none and are looed)::

    {"tricks": {"ann": 2, "cy": 1}}

Double pot — who stood (taking the miss counts as standing), and then one of::

    {"stood": ["ann", "cy", "dee"], "miss": "cy", "tricks": {"ann": 1, "dee": 2}}   # played out
    {"stood": ["dee"], "miss": "dee"}                       # the lone player takes the pot, no play
    {"stood": ["bob", "dee"], "miss": "dee", "defend": true, "tricks": {"bob": 1, "dee": 2}}
    {"stood": ["ann", "bob", "cy"], "flush": "bob"}         # three trumps: the whole pot, the others looed

The lone player must be the dealer or the player who took the miss (a lone stander ahead of the dealer
makes the dealer stand or defend). A dealer who takes the miss to "defend the pot" against one player
neither collects nor pays: the parts of the pot his tricks win stay in it. The dealer is ``dealer`` in
the entry, else the deal passes to the left each time from the first player listed.

Totals are chips won less chips paid; minus their sum is the pot on the table for the next deal. The game
has no end of its own: the sheet is closed when the players stop.

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["loo"], {"players": ["ann", "bob", "cy", "dee", "eve"], "deals": [
...     {"tricks": {"bob": 2, "cy": 1}}]})
>>> sheet["totals"], sheet["deals"][0]["notes"]
({'ann': -6, 'bob': 2, 'cy': 1, 'dee': -3, 'eve': -3}, ['single pot of 3', 'bob wins 2 tricks: 2', 'cy wins 1 trick: 1', 'ann, dee and eve are looed: 3 each to the next pot'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, dealer_of, name_of, names_of, only_keys, read_tricks
from tables.scoring.hearts import flag
from tables.scoring.phrases import Note, note
from tables.scoring.refusals import N_, ScoringError

TRICKS = 3


def and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def players_note(template: str, english: str, **params: Any) -> Note:
    """A note naming several players, its English with the names as "ann, bob and cy"."""
    return Note(template, params, english)


class Loo(ScoredGame):
    name = "loo"
    title = "Loo"
    rules = "LOO"
    entry = (EntryField("stood", "players", N_("Stood (a double pot)")), EntryField("miss", "player", N_("Took the miss")),
             EntryField("defend", "flag", N_("The dealer defended the pot")),
             EntryField("flush", "player", N_("A flush (three trumps) held by")), e.tricks_by_side(TRICKS))
    min_players = 3
    max_players = 16
    settings = (
        Setting(
            "ante",
            SettingKind.INT,
            3,
            "chips the dealer puts in the pot every deal (a multiple of 3)",
            minimum=3,
            maximum=3000,
        ),
        Setting(
            "loo",
            SettingKind.INT,
            3,
            "chips a looed player pays into the next pot (a multiple of 3)",
            minimum=3,
            maximum=3000,
        ),
    )

    def resolve_config(self, given: Any) -> dict[str, Any]:
        config = super().resolve_config(given)
        for key in ("ante", "loo"):
            if config[key] % TRICKS:
                raise ScoringError(
                    "bad_config", N_("the pot must divide into three, so a multiple of 3"), field=f"config.{key}",
                    at=f"config.{key}",
                )
        return config

    def score_deal(
        self,
        deal: Mapping[str, Any],
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        index: int,
    ) -> DealScore:
        only_keys(deal, ("tricks", "stood", "miss", "defend", "flush", "dealer"), self.title)
        dealer = dealer_of(deal, players, index)
        pot = -sum(totals.values()) + config["ante"]
        points = dict.fromkeys(players, 0)
        points[dealer] -= config["ante"]
        single = pot == config["ante"]
        notes: list[str] = [note(N_("single pot of %(n)s") if single else N_("double pot of %(n)s"), n=pot)]
        third = pot // TRICKS
        if single:
            for key in ("stood", "miss", "defend", "flush"):
                if key in deal:
                    raise ScoringError(
                        "bad_deal", N_("the pot holds only the dealer's ante, a single: everyone plays"), field=key,
                        at=key,
                    )
            playing = list(players)
            defender = None
        else:
            playing, defender, settled = self.declarations(deal, players, dealer, pot, points, notes, config)
            if settled is not None:
                return self.result(
                    points, notes, pot=pot, paid=pot, single=False, playing=playing, looed=settled, loo=config["loo"]
                )
        tricks = read_tricks(
            deal.get("tricks"), Seating.individual(players), total=TRICKS, maker=playing[0], every_side=True
        )
        strays = [p for p in players if tricks[p] and p not in playing]
        if strays:
            raise ScoringError(
                "bad_deal", N_("%(player)s passed and took no part"), field=f"tricks.{strays[0]}",
                at=f"tricks.{strays[0]}", player=strays[0],
            )
        paid = 0
        for p in playing:
            if tricks[p] and p != defender:
                points[p] += tricks[p] * third
                paid += tricks[p] * third
                notes.append(note(N_("%(who)s wins %(tricks)s trick: %(n)s") if tricks[p] == 1
                                  else N_("%(who)s wins %(tricks)s tricks: %(n)s"),
                                  who=p, tricks=tricks[p], n=tricks[p] * third))
        if defender is not None and tricks[defender]:
            notes.append(note(N_("%(who)s defends the pot: %(n)s stays in it"), who=defender,
                              n=tricks[defender] * third))
        looed = [p for p in playing if not tricks[p] and p != defender]
        for p in looed:
            points[p] -= config["loo"]
        if looed:
            notes.append(
                note(N_("%(who)s is looed: %(n)s to the next pot"), who=looed[0], n=config["loo"])
                if len(looed) == 1
                else players_note(N_("%(who)s are looed: %(n)s each to the next pot"),
                                  f"{and_list(looed)} are looed: {config['loo']} each to the next pot",
                                  who=looed, n=config["loo"])
            )
        return self.result(
            points,
            notes,
            pot=pot,
            paid=paid,
            single=single,
            playing=playing,
            looed=looed,
            loo=config["loo"],
            tricks=tricks,
        )

    def declarations(
        self,
        deal: Mapping[str, Any],
        players: Sequence[str],
        dealer: str,
        pot: int,
        points: dict[str, int],
        notes: list[str],
        config: Mapping[str, Any],
    ) -> tuple[list[str], str | None, list[str] | None]:
        """A double pot's passes, stands and miss: who plays, who defends, and — when it is settled
        without play (a lone player, a flush) — who is looed."""
        stood = names_of(deal.get("stood"), "stood", players)
        if not stood:
            raise ScoringError("bad_deal", N_("somebody stands (the dealer, if all others pass)"), field="stood",
                               at="stood")
        playing = [p for p in players if p in stood]
        miss = name_of(deal["miss"], "miss", players) if "miss" in deal else None
        if miss is not None and miss not in stood:
            raise ScoringError("bad_deal", N_("%(player)s took the miss, so stood"), field="miss", at="miss",
                               player=miss)
        defend = flag(deal.get("defend", False), "defend")
        if defend and (miss != dealer or len(stood) != 2):
            raise ScoringError(
                "bad_deal", N_("the dealer defends the pot by taking the miss against a lone stander"),
                field="defend", at="defend",
            )
        if "flush" in deal:
            holder = name_of(deal["flush"], "flush", players)
            if holder not in stood:
                raise ScoringError("bad_deal", N_("%(player)s passed"), field="flush", at="flush", player=holder)
            if "tricks" in deal:
                raise ScoringError("bad_deal", N_("a flush wins without play"), field="tricks", at="tricks")
            points[holder] += pot
            looed = [p for p in playing if p != holder]
            for p in looed:
                points[p] -= config["loo"]
            notes.append(note(N_("%(who)s holds a flush and takes the pot of %(n)s"), who=holder, n=pot))
            if looed:
                notes.append(note(N_("%(who)s is looed"), who=looed[0]) if len(looed) == 1
                             else players_note(N_("%(who)s are looed"), f"{and_list(looed)} are looed", who=looed))
            return playing, None, looed
        if len(stood) == 1:
            (lone,) = stood
            if lone not in (dealer, miss):
                raise ScoringError(
                    "bad_deal", N_("a lone player ahead of the dealer makes the dealer (%(dealer)s) stand or defend"),
                    field="stood", at="stood", dealer=dealer,
                )
            if "tricks" in deal:
                raise ScoringError("bad_deal", N_("the lone player takes the pot without play"), field="tricks",
                                   at="tricks")
            points[lone] += pot
            notes.append(note(N_("everyone else passed: %(who)s takes the pot of %(n)s"), who=lone, n=pot))
            return playing, None, []
        standing = and_list(playing)
        notes.append(
            players_note(N_("%(who)s stand, %(miss)s on the miss"), f"{standing} stand, {miss} on the miss",
                         who=list(playing), miss=miss)
            if miss
            else players_note(N_("%(who)s stand"), f"{standing} stand", who=list(playing))
        )
        return playing, (dealer if defend else None), None

    @staticmethod
    def result(
        points: dict[str, int],
        notes: list[str],
        *,
        pot: int,
        paid: int,
        single: bool,
        playing: Sequence[str],
        looed: Sequence[str],
        loo: int,
        tricks: Mapping[str, int] | None = None,
    ) -> DealScore:
        extra: dict[str, Any] = {
            "pot": pot,
            "single": single,
            "playing": list(playing),
            "looed": list(looed),
            "paid": paid,
            "next_pot": pot - paid + loo * len(looed),  # before the next dealer's ante
        }
        if tricks is not None:
            extra["tricks"] = {p: tricks[p] for p in playing}
        return DealScore(points, tuple(notes), extra)


GAMES: dict[str, ScoredGame] = {g.name: g for g in (Loo(),)}
