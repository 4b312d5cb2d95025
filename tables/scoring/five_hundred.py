"""Five Hundred (rule book, "FIVE HUNDRED"), two to six players.

Two, three and five play as individuals (three-hand: the other two combine against the contractor
for the deal, but each scores his own tricks; five-hand: the contractor names a partner, two if he
bid eight or more); four play two partnerships, six two partnerships of three, partners alternating.

A deal entry: the contractor, his bid (tricks and denomination, or ``nullo``) and the tricks won —
by each player in individual games (every opponent scores his own), by side in partnership games::

    {"contractor": "ann", "bid": "7H", "tricks": {"ann": 7, "bob": 2, "cy": 1}}
    {"contractor": "ann", "bid": "8S", "partners": ["dee"], "tricks": {"ann": 5, "dee": 3, "bob": 2}}
    {"passed": true}

Made: the contractor (and each partner) scores the bid's value, at least 250 for all ten tricks;
set: the value is deducted. Either way each opponent scores 10 a trick. The rule book's scoring table is
missing from its text ("see chart next page"), so the values are the standard Avondale schedule,
the one the rule book recommends: 6 tricks 40 (spades), 60 (clubs), 80 (diamonds), 100 (hearts), 120 (no
trump), each further trick 100 more; nullo 250. A house on another schedule overrides the chart
(``bid_values``).

>>> from tables.scoring.base import score_sheet
>>> sheet = score_sheet(GAMES["five_hundred"], {"players": ["ann", "bob", "cy"], "deals": [
...     {"contractor": "ann", "bid": "7H", "tricks": {"ann": 8, "bob": 1, "cy": 1}},
...     {"contractor": "bob", "bid": "8NT", "tricks": {"ann": 3, "bob": 7}}]})
>>> sheet["totals"]
{'ann': 230, 'bob': -310, 'cy': 10}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.scoring import entry as e
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.entry import EntryField
from tables.scoring.euchre import Seating, added, name_of, names_of, only_keys, passed_deal, read_tricks
from tables.scoring.hearts import count
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

TRICKS = 10
DENOMINATIONS = ("S", "C", "D", "H", "NT")  # low to high
NULLO = "nullo"
ALL_TRICKS_MINIMUM = 250
TRICK = 10  # each opponent's trick
HOLE = -500  # "a player or side that goes 500 in the hole loses"


def avondale(tricks: int, denomination: str) -> int:
    """The Avondale schedule: 40 for six spades, 20 more a denomination, 100 more a trick."""
    return 40 + 20 * DENOMINATIONS.index(denomination) + 100 * (tricks - 6)


AVONDALE = {f"{t}{d}": avondale(t, d) for t in range(6, 11) for d in DENOMINATIONS} | {NULLO: 250}

# The most the cards won can count with the card-points option (ace 1, ten and faces 10, lower cards
# their pips, joker 0), by number of players: 33 cards (A-7 and the joker); 43 (A-5, the red fours and
# the joker); 53 (the pack and the joker); 63 (plus elevens and twelves, thirteens in two suits, the
# spot cards above ten counted at their pips).
CARD_POINTS_IN_PACK = {2: 260, 3: 260, 4: 312, 5: 340, 6: 458}

REDEAL, NO_TRUMP = "redeal", "no_trump"


class FiveHundred(ScoredGame):
    name = "five_hundred"
    title = "Five Hundred"
    rules = "FIVE HUNDRED"
    min_players = 2
    max_players = 6
    carries_state = True
    settings = (
        Setting(
            "game_to",
            SettingKind.INT,
            500,
            "the first to this score wins (500; some play 1,000 or 1,500, with card_points)",
            minimum=100,
            maximum=10_000,
        ),
        Setting(
            "bid_values",
            SettingKind.CHART,
            AVONDALE,
            "what each contract is worth: the Avondale schedule (the rule book's recommendation; its table is "
            "missing from the rule book's text); override lines for the Original or Inverted schedule",
        ),
        Setting("nullo", SettingKind.BOOL, False, "the bid Nullo (lose every trick at no trump, 250) is allowed"),
        Setting(
            "passed_deal",
            SettingKind.CHOICE,
            REDEAL,
            "redeal: a deal all pass is abandoned without a score; no_trump: it is played at no trump, each "
            "for himself, 10 a trick",
            choices=(REDEAL, NO_TRUMP),
        ),
        Setting(
            "card_points",
            SettingKind.BOOL,
            False,
            "also score the cards won: ace 1, ten and face cards 10, lower cards their pips, joker 0 "
            "(for games to 1,000 or 1,500)",
        ),
    )

    # -- who scores ------------------------------------------------------------------------------
    def entry_fields(self, players: Sequence[str], config: Mapping[str, Any]) -> tuple[EntryField, ...]:
        bids = tuple(f"{n}{d}" for n in range(6, 11) for d in ("S", "C", "D", "H", "NT"))
        partners = (EntryField("partners", "players", N_("Partners (five-hand)")),) if len(players) == 5 else ()
        cards = (EntryField("cards", "per_side", N_("Card points won"), minimum=0),) if config.get("card_points") else ()
        return (e.maker("contractor", N_("Contractor")), e.bid(bids + (("nullo",) if config.get("nullo") else ())),
                *partners, e.tricks_by_side(TRICKS), *cards,
                EntryField("first_out", "player", N_("First out (two opponents reaching the game on one deal)")),
                e.passed(keep=("tricks",) if config.get("passed_deal") == NO_TRUMP else ()))

    def seating(self, players: Sequence[str]) -> Seating:
        return Seating.teams(players) if len(players) in (4, 6) else Seating.individual(players)

    def sides(self, players: Sequence[str], config: Mapping[str, Any]) -> list[str]:
        return list(self.seating(players).sides)

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"in_the_hole": [], "void": False}

    # -- the entry -------------------------------------------------------------------------------
    def read_bid(self, raw: Any, config: Mapping[str, Any]) -> tuple[str, int | None, int]:
        """The contract's name, the tricks it needs (None for nullo) and its value."""
        bid = raw.upper() if isinstance(raw, str) else raw
        if bid == NULLO.upper():
            if not config["nullo"]:
                raise ScoringError("bad_bid", N_("this table does not play %(bid)s"), field="bid", at="bid", bid=NULLO)
            return NULLO, None, config["bid_values"][NULLO]
        if not isinstance(bid, str) or bid not in config["bid_values"]:
            raise ScoringError(
                "bad_bid",
                N_("%(what)s must be 6 to 10 tricks and a denomination (S, C, D, H, NT), e.g. 7H or 10NT, not %(value)s"),
                field="bid", what="bid", value=raw,
            )
        return bid, int(bid.rstrip("SCDHNT")), config["bid_values"][bid]

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
        state = state or self.initial_state(players, config)
        if state.get("void"):
            raise ScoringError(
                "game_void", N_("a player back from 500 in the hole went out first: no one wins; close the sheet")
            )
        only_keys(
            deal,
            ("contractor", "bid", "partners", "tricks", "cards", "first_out", "passed", "dealer"),
            self.title,
        )
        seating = self.seating(players)
        if deal.get("passed") is True and config["passed_deal"] == NO_TRUMP:
            return self.passed_no_trump(deal, seating, players=players, config=config, totals=totals, state=state)
        passed = passed_deal(deal, seating.sides, note(N_("all passed: the deal is abandoned")))
        if passed is not None:
            return DealScore(passed.points, passed.notes, passed.extra, state=state)
        contractor = name_of(deal.get("contractor"), "contractor", players)
        bid, needed, value = self.read_bid(deal.get("bid"), config)
        partners = self.read_partners(deal, contractor, needed, players)
        individual = len(seating.sides) == len(players)
        tricks = read_tricks(
            deal.get("tricks"),
            seating,
            total=TRICKS,
            maker=seating.side_of(contractor),
            every_side=individual and len(players) > 2,
        )
        contracting = (
            [contractor, *partners] if individual else [seating.side_of(contractor)]
        )  # the accounts credited with the contract
        opponents = [s for s in seating.sides if s not in contracting]
        won = sum(tricks[s] for s in contracting)
        points = dict.fromkeys(seating.sides, 0)
        notes: list[str] = []
        who = " & ".join(contracting)
        one = individual and len(contracting) == 1  # "ann makes", "ann & dee make", "ann & cy make"
        if needed is None:  # nullo: the contractor alone must lose every trick
            if individual and partners:
                raise ScoringError("bad_deal", N_("a nullo contractor plays alone"), field="partners", at="partners")
            made = won == 0
            for s in contracting:
                points[s] = value if made else -value
            if made:
                notes.append(note(N_("%(who)s makes nullo: %(n)s") if one else N_("%(who)s make nullo: %(n)s"),
                                  who=who, n=value))
            else:
                for s in opponents:
                    points[s] = TRICK * won
                notes.append(note(N_("%(who)s took %(tricks)s trick(s) at nullo: -%(n)s, each opponent %(each)s"),
                                  who=who, tricks=won, n=value, each=TRICK * won))
        else:
            made = won >= needed
            score = max(value, ALL_TRICKS_MINIMUM) if made and won == TRICKS else value
            for s in contracting:
                points[s] = score if made else -score
            if made:
                template = (N_("%(who)s makes %(bid)s with %(tricks)s tricks: %(n)s") if one
                            else N_("%(who)s make %(bid)s with %(tricks)s tricks: %(n)s"))
            else:
                template = (N_("%(who)s is set on %(bid)s (%(tricks)s tricks): -%(n)s") if one
                            else N_("%(who)s are set on %(bid)s (%(tricks)s tricks): -%(n)s"))
            notes.append(note(template, who=who, bid=bid, tricks=won, n=score))
            for s in opponents:
                points[s] = TRICK * tricks[s]
        if config["card_points"]:
            self.add_card_points(deal, seating, points, len(players))
        extra = {
            "contractor": contractor,
            "bid": bid,
            "value": value,
            "contracting": contracting,
            "tricks": tricks,
            "made": made,
        }
        return self.game_end(
            deal, points, notes, extra, first=contracting, players=players, config=config, totals=totals, state=state
        )

    def read_partners(
        self, deal: Mapping[str, Any], contractor: str, needed: int | None, players: Sequence[str]
    ) -> list[str]:
        """Five-hand: the partner(s) the contractor named, one, or two on a bid of eight or more."""
        if "partners" not in deal:
            return []
        if len(players) != 5:
            raise ScoringError("bad_deal", N_("only five-hand Five Hundred names partners"), field="partners",
                               at="partners")
        partners = names_of(deal["partners"], "partners", players)
        if contractor in partners:
            raise ScoringError("bad_deal", N_("the contractor cannot be his own partner"), field="partners",
                               at="partners")
        most = 2 if needed is not None and needed >= 8 else 1
        if len(partners) > most:
            raise ScoringError(
                "bad_deal", N_("a bid of %(bid)s tricks takes at most %(n)s partner(s)"), field="partners",
                at="partners", bid=needed or NULLO, n=most,
            )
        return partners

    def add_card_points(self, deal: Mapping[str, Any], seating: Seating, points: dict[str, int], n: int) -> None:
        raw = deal.get("cards")
        if not isinstance(raw, Mapping):
            raise ScoringError(
                "bad_deal", N_("%(what)s must be the card points each player (or side) won, as an object"),
                field="cards", what="cards",
            )
        most = CARD_POINTS_IN_PACK[n]
        seen: dict[str, int] = {}
        for key, value in raw.items():
            side = seating.side(key, f"cards.{key}")
            if side in seen:
                raise ScoringError("bad_deal", N_("%(side)s is counted twice"), field=f"cards.{key}", at="cards", side=side)
            seen[side] = count(value, f"cards.{key}", high=most)
        if sum(seen.values()) > most:
            raise ScoringError(
                "cards_unaccounted", N_("%(n)s card points entered, the pack holds %(high)s"), field="cards",
                at="cards", n=sum(seen.values()), high=most,
            )
        for side, pts in seen.items():
            points[side] += pts

    def passed_no_trump(
        self,
        deal: Mapping[str, Any],
        seating: Seating,
        *,
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        state: Mapping[str, Any],
    ) -> DealScore:
        """A passed deal played at no trump: each for himself, 10 a trick, nobody set back."""
        for key in ("contractor", "bid", "partners"):
            if key in deal:
                raise ScoringError("bad_deal", N_("a passed deal has no contract"), field=key, at=key)
        per_player = read_tricks(
            deal.get("tricks"), Seating.individual(players), total=TRICKS, maker=players[0], every_side=True
        )
        points = dict.fromkeys(seating.sides, 0)
        for p, won in per_player.items():
            points[seating.side_of(p)] += TRICK * won
        if config["card_points"]:
            self.add_card_points(deal, seating, points, len(players))
        return self.game_end(
            deal,
            points,
            ["all passed: played at no trump, 10 a trick"],
            {"passed": True, "tricks": per_player},
            first=[],
            players=players,
            config=config,
            totals=totals,
            state=state,
        )

    # -- the end of the game ---------------------------------------------------------------------
    def leader(self, totals: Mapping[str, int], *, config: Mapping[str, Any]) -> str | None:
        """The one side ahead of a sheet closed early — none when the game is void: a side at or past
        ``game_to`` that did not win it can only be the player back from 500 in the hole who went out
        first, and then "no one wins the game"."""
        if any(total >= config["game_to"] for total in totals.values()):
            return None
        return super().leader(totals, config=config)

    def game_end(
        self,
        deal: Mapping[str, Any],
        points: dict[str, int],
        notes: list[str],
        extra: dict[str, Any],
        *,
        first: Sequence[str],
        players: Sequence[str],
        config: Mapping[str, Any],
        totals: Mapping[str, int],
        state: Mapping[str, Any],
    ) -> DealScore:
        """500 wins; if the contractor and an opponent reach it together the contractor wins; two
        opponents together: the first to reach it (``first_out``). Two sides: going 500 in the hole
        loses. Three or more: a player 500 in the hole cannot win, and if he goes out first no one does."""
        after = added(totals, points)
        out = [s for s in after if after[s] >= config["game_to"]]
        first_out = deal.get("first_out")
        if first_out is not None:
            first_out = self.seating(players).side(first_out, "first_out")
        hole = set(state["in_the_hole"])
        winner: str | None = None
        leader = next((s for s in first if s in out), None)
        if leader is None and len(out) == 1:
            leader = out[0]
        elif leader is None and len(out) > 1:
            if first_out not in out:
                raise ScoringError(
                    "first_out_needed", N_("%(both)s passed %(n)s on this deal; say who got there first"),
                    field="first_out", at="first_out", both=list(out), n=config["game_to"],
                )
            leader = first_out
        sunk = [s for s in after if after[s] <= HOLE]
        next_state = {"in_the_hole": sorted(hole | set(sunk)), "void": False}
        if len(after) == 2:
            if leader is not None:
                winner = leader
            elif sunk:
                winner = next(s for s in after if s not in sunk)
                notes.append(note(N_("%(who)s: 500 in the hole, the game is lost"), who=sunk[0]))
        elif leader is not None:
            if leader in hole:
                notes.append(note(N_("%(who)s went out first after being 500 in the hole: no one wins the game"),
                                  who=leader))
                next_state["void"] = True
            else:
                winner = leader
        if winner is not None:
            notes.append(note(N_("%(who)s won the game"), who=winner))
        for s in sunk:
            if s not in hole and len(after) > 2:
                notes.append(note(N_("%(who)s is 500 in the hole and cannot win this game"), who=s))
        return DealScore(points, tuple(notes), extra, state=next_state, winner=winner)


GAMES: dict[str, ScoredGame] = {g.name: g for g in (FiveHundred(),)}
