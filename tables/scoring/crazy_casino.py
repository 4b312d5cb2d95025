"""Crazy Casino: Casino for two with builds as signed colour arithmetic (rule book).

Scoring, as in Casino, from each player's captured cards: a majority of the cards 3 points, a
majority of the spades 1, each ace 1, the ten of diamonds (big casino) 2, the deuce of spades
(little casino) 1, and each sweep 1. A deal entry says, per player, either the captured cards
themselves or their counts, and the sweeps::

    {"captured": {"ann": {"cards": ["AS", "TD", …], "sweeps": 2},
                  "bob": {"count": 27, "spades": 6, "aces": 2, "big_casino": false, "little_casino": true,
                          "sweeps": 0}}}

Every deal is checked against the pack: 52 cards, 13 spades, 4 aces, one big and one little casino.

Building: one colour counts positive, the other negative (red +, black − here); 2-10 count their pips,
J 11, Q 12, K 13, an ace 1 or 14 — and a build that comes to 1 or 14 is an ace, again either. Two
cards (or builds) of the same rank and colour may also be collapsed into one without changing rank.
A build is captured by, or left to match, a card of the same rank and colour. The ``build`` check
lists every card the given cards can be built into, with one way to do it:

>>> GAMES["crazy_casino"].check("build", {"items": ["9H", "4D", "6S"], "match": "7D"})["how"]
'(9♥ + 6♠ = red 3) + 4♦ = red 7'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import Json, Setting, SettingKind
from tables.engines.cards import Card, Shoe, parse_card
from tables.engines.errors import EngineError
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.phrases import note
from tables.scoring.refusals import N_, ScoringError

CARDS, SPADES, ACES = 52, 13, 4
MAJORITY_CARDS, MAJORITY_SPADES, ACE, BIG_CASINO, LITTLE_CASINO, SWEEP = 3, 1, 1, 2, 1, 1
PLAYS = 24  # each player plays 24 times a hand: at most one sweep a play
MAX_BUILD_ITEMS = 9  # the check tries every way of merging: 9 items are ~10,000 ways, a turn rarely uses 6

VALUES = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}
NAMES = {1: "A", 14: "A", 11: "J", 12: "Q", 13: "K"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _label(card: Card) -> str:
    return ("10" if card.rank == "T" else card.rank) + SYMBOLS[card.suit]


def _name(value: int) -> str:
    """A signed build value as the rule book says it: 7 → "red 7", −14 → "black A", −27 → "black 27"."""
    colour = "red" if value > 0 else "black"
    return f"{colour} {NAMES.get(abs(value), str(abs(value)))}"


def _with_ace(options: dict[int, str]) -> dict[int, str]:
    """A build of 1 or 14 is an ace: it may then count as either."""
    for value, how in list(options.items()):
        if abs(value) in (1, 14):
            sign = 1 if value > 0 else -1
            options.setdefault(sign * 1, how)
            options.setdefault(sign * 14, how)
    return options


def _item(raw: Any, where: str) -> tuple[dict[int, str], str]:
    """A card (``"9H"``) or a build left on the table (``{"rank": "7", "colour": "red"}``): its values."""
    if isinstance(raw, Mapping):
        rank, colour = raw.get("rank"), raw.get("colour")
        if isinstance(rank, int) and not isinstance(rank, bool):
            rank = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
        rank = "T" if rank == "10" else str(rank).upper() if isinstance(rank, str) else rank
        if rank not in VALUES or colour not in ("red", "black") or set(raw) - {"rank", "colour"}:
            raise ScoringError(
                "bad_build", N_("a build is a rank (A to K) and a colour (red or black)"), field=where, at=where
            )
        sign = 1 if colour == "red" else -1
        label = f"[{colour} {NAMES.get(VALUES[rank], '10' if rank == 'T' else rank)}]"
        return _with_ace({sign * VALUES[rank]: label}), label
    try:
        card = parse_card(raw)
    except EngineError as exc:
        raise ScoringError.inner(exc, field=where) from None
    sign = 1 if card.is_red else -1
    label = _label(card)
    return _with_ace({sign * VALUES[card.rank]: label}), label


def build_options(items: Sequence[dict[int, str]]) -> dict[int, str]:
    """Every signed value the items can be built into as one pile, each with one way to build it.

    A pile is made by merging two piles at a time: their values add (zero makes nothing), or two piles
    of the same rank and colour collapse into one. Intermediate values may pass 14 (black 27) and come
    back down; only the final pile must be a card's rank to be left or captured.
    """
    n = len(items)
    memo: dict[int, dict[int, str]] = {1 << i: dict(items[i]) for i in range(n)}

    def reach(mask: int) -> dict[int, str]:
        found = memo.get(mask)
        if found is not None:
            return found
        out: dict[int, str] = {}
        low = mask & -mask
        sub = (mask - 1) & mask
        while sub:
            if sub & low:  # each split once: the part holding the lowest item on the left
                left, right = reach(sub), reach(mask ^ sub)
                for a, how_a in left.items():
                    for b, how_b in right.items():
                        total = a + b
                        if total and total not in out:
                            out[total] = f"{_wrap(how_a)} + {_wrap(how_b)} = {_name(total)}"
                        if a == b and a not in out:
                            out[a] = f"{_wrap(how_a)} + {_wrap(how_b)} = {_name(a)} (collapsed)"
            sub = (sub - 1) & mask
        memo[mask] = _with_ace(out)
        return memo[mask]

    return reach((1 << n) - 1) if n else {}


def _wrap(how: str) -> str:
    return f"({how})" if " = " in how else how


def check_build(payload: Mapping[str, Any]) -> Json:
    """``items``: the cards (from the table and the one from hand) and builds to merge into one pile;
    ``match`` (optional): the card from hand that must capture the pile, or that it is left for."""
    raw = payload.get("items")
    if not isinstance(raw, list) or not raw:
        raise ScoringError("bad_check", N_("%(what)s must be a list of cards (and builds) to merge"), field="items",
                           what="items")
    if len(raw) > MAX_BUILD_ITEMS:
        raise ScoringError(
            "bad_check", N_("the build check takes at most %(high)s cards and builds"), field="items",
            high=MAX_BUILD_ITEMS,
        )
    parsed = [_item(r, f"items[{i}]") for i, r in enumerate(raw)]
    options = build_options([p[0] for p in parsed])
    builds, seen = [], set()
    for value in sorted(options, key=lambda v: (v < 0, abs(v) % 14)):  # red first, aces first
        if not 1 <= abs(value) <= 14:
            continue  # black 16, red 21: must be built further before it can be left or captured
        colour, rank = _name(value).split(" ")
        if (colour, rank) not in seen:
            seen.add((colour, rank))
            builds.append({"rank": rank, "colour": colour, "how": options[value]})
    answer: Json = {"items": [p[1] for p in parsed], "builds": builds}
    match = payload.get("match")
    if match is not None:
        try:
            card = parse_card(match)
        except EngineError as exc:
            raise ScoringError.inner(exc, field="match") from None
        sign = 1 if card.is_red else -1
        targets = [sign * VALUES[card.rank]] + ([sign * 14] if card.rank == "A" else [])
        hit = next((t for t in targets if t in options), None)
        answer["match"] = _label(card)
        answer["valid"] = hit is not None
        if hit is not None:
            answer["how"] = options[hit]
        else:
            answer["reason"] = (
                f"these cannot be built into a {'red' if sign > 0 else 'black'} "
                f"{NAMES.get(VALUES[card.rank], str(VALUES[card.rank]))}"
            )
    return answer


class CrazyCasino(ScoredGame):
    name = "crazy_casino"
    title = "Crazy Casino"
    rules = "Crazy Casino"
    min_players = 2
    max_players = 2
    checks = ("build",)
    settings = (
        Setting(
            "game_to",
            SettingKind.INT,
            None,
            "play to this many points (none: until the sheet is closed)",
            minimum=1,
            maximum=10_000,
        ),
        Setting(
            "hands",
            SettingKind.INT,
            None,
            "play this many hands (an even number offsets who plays first)",
            minimum=1,
            maximum=1_000,
        ),
    )

    def check(self, name: str, payload: Any) -> Json:
        if name == "build":
            if not isinstance(payload, Mapping):
                raise ScoringError("bad_check", N_("a check takes an object"), field="check")
            return check_build(payload)
        return super().check(name, payload)

    def _read_player(self, p: str, raw: Any, shoe: Shoe) -> dict[str, int]:
        where = f"captured.{p}"
        if not isinstance(raw, Mapping):
            raise ScoringError(
                "bad_deal", N_("%(what)s must be an object: the cards captured (or their counts) and the sweeps"),
                field=where, what=where,
            )
        sweeps = _count(raw.get("sweeps", 0), f"{where}.sweeps", PLAYS)
        if "cards" in raw:
            if set(raw) - {"cards", "sweeps"}:
                raise ScoringError(
                    "bad_deal", N_("give the cards captured or their counts, not both"), field=where, at=where
                )
            if not isinstance(raw["cards"], list):
                raise ScoringError("bad_deal", N_("%(what)s must be a list of cards"), field=f"{where}.cards",
                                   what=f"{where}.cards")
            cards = []
            for i, text in enumerate(raw["cards"]):
                try:
                    card = parse_card(text)
                    shoe.take(card)
                except EngineError as exc:
                    raise ScoringError.inner(exc, field=f"{where}.cards[{i}]") from None
                cards.append(card)
            return {
                "count": len(cards),
                "spades": sum(c.suit == "S" for c in cards),
                "aces": sum(c.rank == "A" for c in cards),
                "big_casino": int(any(c.rank == "T" and c.suit == "D" for c in cards)),
                "little_casino": int(any(c.rank == "2" and c.suit == "S" for c in cards)),
                "sweeps": sweeps,
            }
        known = {"count", "spades", "aces", "big_casino", "little_casino", "sweeps"}
        for key in raw:
            if key not in known:
                raise ScoringError(
                    "bad_deal", N_("%(what)s is not counted in %(title)s (cards, or %(keys)s)"),
                    field=f"{where}.{key}", what=f"{where}.{key}", title=self.title, keys=sorted(known),
                )
        got = {
            "count": _count(raw.get("count", 0), f"{where}.count", CARDS),
            "spades": _count(raw.get("spades", 0), f"{where}.spades", SPADES),
            "aces": _count(raw.get("aces", 0), f"{where}.aces", ACES),
            "big_casino": int(_flag(raw.get("big_casino", False), f"{where}.big_casino")),
            "little_casino": int(_flag(raw.get("little_casino", False), f"{where}.little_casino")),
            "sweeps": sweeps,
        }
        # the fewest cards these facts need: the spades and the aces (the ace of spades may be both), 10♦
        fewest = got["spades"] + got["aces"] - min(1, got["spades"], got["aces"]) + got["big_casino"]
        if got["count"] < fewest:
            template = (N_("%(n)s cards cannot hold %(spades)s spades, %(aces)s aces and big casino") if got["big_casino"]
                        else N_("%(n)s cards cannot hold %(spades)s spades, %(aces)s aces"))
            raise ScoringError("bad_deal", template, field=f"{where}.count", at=where, n=got["count"],
                               spades=got["spades"], aces=got["aces"])
        if got["little_casino"] and not got["spades"]:
            raise ScoringError(
                "bad_deal", N_("little casino is a spade, but no spades are counted"), field=f"{where}.spades",
                at=where,
            )
        return got

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
            if key != "captured":
                raise ScoringError("bad_deal", N_("%(what)s is not part of a %(title)s deal (%(keys)s)"), field=key,
                                   what=key, title=self.title, keys=["captured"])
        captured = deal.get("captured")
        if not isinstance(captured, Mapping):
            raise ScoringError(
                "bad_deal", N_("%(what)s must be an object: each player's captures and sweeps"), field="captured",
                what="captured",
            )
        for p in captured:
            if p not in players:
                raise ScoringError("bad_deal", N_("%(player)s is not a player of this sheet"), field=f"captured.{p}",
                                   at=f"captured.{p}", player=p)
        shoe = Shoe(decks=1)
        got = {}
        for p in players:
            if p not in captured:
                raise ScoringError("bad_deal", N_("both players' captures are needed: %(player)s's are missing"),
                                   field=f"captured.{p}", at=f"captured.{p}", player=p)
            got[p] = self._read_player(p, captured[p], shoe)
        for key, whole, template in (
            ("count", CARDS, N_("the captures hold %(n)s cards: the pack has %(high)s")),
            ("spades", SPADES, N_("the captures hold %(n)s spades: the pack has %(high)s")),
            ("aces", ACES, N_("the captures hold %(n)s aces: the pack has %(high)s")),
            ("big_casino", 1, N_("the captures hold %(n)s big casino (10♦): the pack has %(high)s")),
            ("little_casino", 1, N_("the captures hold %(n)s little casino (2♠): the pack has %(high)s")),
        ):
            total = sum(g[key] for g in got.values())
            if total != whole:
                raise ScoringError("cards_unaccounted", template, field="captured", n=total, high=whole)
        a, b = players
        points = dict.fromkeys(players, 0)
        notes = []
        for key, worth, most_of, even in (
            ("count", MAJORITY_CARDS, N_("%(who)s has most cards (%(n)s): %(points)s"),
             N_("cards split evenly: no points")),
            ("spades", MAJORITY_SPADES, N_("%(who)s has most spades (%(n)s): %(points)s"),
             N_("spades split evenly: no points")),
        ):
            if got[a][key] != got[b][key]:
                most = a if got[a][key] > got[b][key] else b
                points[most] += worth
                notes.append(note(most_of, who=most, n=got[most][key], points=worth))
            else:
                notes.append(note(even))
        for p in players:
            points[p] += (
                got[p]["aces"] * ACE
                + got[p]["big_casino"] * BIG_CASINO
                + got[p]["little_casino"] * LITTLE_CASINO
                + got[p]["sweeps"] * SWEEP
            )
        return DealScore(points, tuple(notes), {"captured": got})

    def winner(self, totals: Mapping[str, int], *, config: Mapping[str, Any], deals: int) -> str | None:
        """After ``hands`` hands, or once a player reaches ``game_to``, the higher total wins (a tie plays on)."""
        if config["hands"] is not None and deals >= config["hands"]:
            return self.leader(totals, config=config)
        if config["game_to"] is not None and max(totals.values()) >= config["game_to"]:
            return self.leader(totals, config=config)
        return None


def _count(value: Any, where: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ScoringError("bad_deal", N_("%(what)s must be a whole number from 0 to %(high)s"), field=where,
                           what=where, high=high)
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScoringError("bad_deal", N_("%(what)s must be true or false"), field=where, what=where)
    return value


GAMES: dict[str, ScoredGame] = {"crazy_casino": CrazyCasino()}
