"""Carousel, a manipulation rummy for two to five players (rule book).

One pack and one joker for two players, two packs and two jokers for three to five. All melds are
on the table and shared; a player who ends a turn with less than five points of deadwood (cards in
hand that are not in a meld) may knock. Cards count: joker 25, face cards 10, aces 1, the rest their
pips. The knocker wins the hand unless an opponent's deadwood is lower or equal: then the lowest
wins (every tied player but the knocker) and scores 10 for undercutting. A winner scores the
difference between their deadwood and each opponent's, plus 25 if they melded every card; nobody
else scores. The game ends when a player reaches 150: that player scores a 100-point game bonus, and
every player 25 for each hand they won (box bonus).

A deal entry: who knocked, and each player's hand when the hand ended — the deadwood, and any melds
still held in hand (they do not count; a joker in a meld says which card it stands for)::

    {"knocker": "ann", "hands": {"ann": {"deadwood": ["2C", "AH"]},
                                  "bob": {"deadwood": ["KS", "9D"], "melds": [["7H", "7S", "JK=7D"]]}}}

A bare list is the deadwood. The game also offers two checks: ``meld`` (is each meld a set or a
sequence?) and ``table`` (after a turn's rearranging, is every card on the table in a valid meld,
with nothing taken back into the hand?).

>>> GAMES["carousel_rummy"].check("meld", {"melds": [["JD", "JS", "JH"], ["KS", "AS", "2S"]]})["melds"][1]
{'cards': ['KS', 'AS', '2S'], 'valid': False, 'reason': 'an ace may start or end a sequence, not be in its middle'}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.engines.base import Json, Setting, SettingKind
from tables.engines.cards import JOKER, Card, Shoe, parse_card
from tables.engines.errors import EngineError
from tables.scoring.base import DealScore, ScoredGame
from tables.scoring.phrases import Note, note, phrase_json
from tables.scoring.refusals import N_, ScoringError

JOKER_POINTS = 25
LOW_ORDER = "A23456789TJQK"  # ace low: A-2-3 …
HIGH_ORDER = "23456789TJQKA"  # ace high: … Q-K-A


def card_points(card: Card) -> int:
    """Deadwood value: joker 25, face cards 10, ace 1, the rest their pips."""
    if card.is_joker:
        return JOKER_POINTS
    if card.rank in "TJQK":
        return 10
    return 1 if card.rank == "A" else int(card.rank)


@dataclass(frozen=True, slots=True)
class MeldCard:
    """A card in a meld: a natural card, or the joker standing for ``card``."""

    card: Card
    joker: bool = False

    def __str__(self) -> str:
        return f"JK={self.card}" if self.joker else str(self.card)

    @property
    def physical(self) -> str:
        return JOKER if self.joker else str(self.card)


def parse_meld_card(text: Any, where: str) -> MeldCard:
    """``"7H"``, ``"10H"`` or ``"JK=7H"`` (the joker as the seven of hearts)."""
    if isinstance(text, str) and text.strip().upper().startswith(JOKER):
        raw = text.strip().upper()
        if not raw.startswith(JOKER + "="):
            raise ScoringError(
                "bad_card", N_("a joker in a meld must say which card it stands for, e.g. JK=7H"), field=where, at=where
            )
        return MeldCard(_card(raw[3:], where), joker=True)
    return MeldCard(_card(text, where))


def _card(text: Any, where: str, *, joker: bool = False) -> Card:
    try:
        return parse_card(text, allow_joker=joker)
    except EngineError as exc:
        raise ScoringError.inner(exc, field=where) from None


def parse_meld(raw: Any, where: str) -> list[MeldCard]:
    if not isinstance(raw, list) or not raw:
        raise ScoringError("bad_meld", N_("%(what)s must be a list of cards"), field=where, what=where)
    return [parse_meld_card(c, f"{where}[{i}]") for i, c in enumerate(raw)]


def meld_problem(meld: Sequence[MeldCard]) -> tuple[str | None, str | None]:
    """(kind, None) for a valid set or sequence, else (None, why not). Jokers count as the card they stand for."""
    cards = [m.card for m in meld]
    if len(cards) < 3:
        return None, N_("a meld has at least three cards")
    if len({c.rank for c in cards}) == 1:
        if len(cards) > 4:
            return None, N_("a set has three or four cards")
        if len({c.suit for c in cards}) != len(cards):
            return None, N_("a set cannot hold two cards of the same suit")
        return "set", None
    if len({c.suit for c in cards}) != 1:
        return None, N_("a meld is a set (one rank, different suits) or a sequence (one suit, consecutive ranks)")
    for order in (LOW_ORDER, HIGH_ORDER):
        places = sorted(order.index(c.rank) for c in cards)
        if places == list(range(places[0], places[0] + len(places))):
            return "sequence", None
    if any(c.rank == "A" for c in cards) and _round_the_corner([c.rank for c in cards]):
        return None, N_("an ace may start or end a sequence, not be in its middle")
    return None, N_("the cards of a sequence must be consecutive, each rank once")


def _round_the_corner(ranks: list[str]) -> bool:
    """K-A-2 and the like: distinct ranks that would be consecutive if the ranks went round the corner."""
    places = [LOW_ORDER.index(r) for r in ranks]
    if len(set(places)) != len(places):
        return False
    return any(sorted((p - start) % 13 for p in places) == list(range(len(places))) for start in places)


def check_melds(raw: Any) -> Json:
    """Each meld: is it a set or a sequence, and if not, why not."""
    if not isinstance(raw, list):
        raise ScoringError("bad_check", N_("%(what)s must be a list of melds, each a list of cards"), field="melds",
                           what="melds")
    answers = []
    for i, m in enumerate(raw):
        meld = parse_meld(m, f"melds[{i}]")
        kind, why = meld_problem(meld)
        answers.append(
            {"cards": [str(c) for c in meld], "valid": True, "kind": kind}
            if kind
            else {"cards": [str(c) for c in meld], "valid": False, "reason": why}
        )
    return {"valid": all(a["valid"] for a in answers), "melds": answers}


def check_table(payload: Mapping[str, Any]) -> Json:
    """A turn's rearranging: ``before`` (the melds on the table), ``hand`` (the cards the player adds from
    hand) and ``after``. Valid if every meld after is valid and the cards after are exactly those before
    plus those from hand (nothing goes back into a hand). A joker may stand for another card only once
    the natural card it stood for is in play."""
    melds: dict[str, list[list[MeldCard]]] = {}
    for key in ("before", "after"):
        raw = payload.get(key)
        if not isinstance(raw, list):
            raise ScoringError("bad_check", N_("%(what)s must be a list of melds, each a list of cards"), field=key,
                               what=key)
        melds[key] = [parse_meld(m, f"{key}[{i}]") for i, m in enumerate(raw)]
    hand_raw = payload.get("hand", [])
    if not isinstance(hand_raw, list):
        raise ScoringError("bad_check", N_("%(what)s must be the list of cards played from hand"), field="hand",
                           what="hand")
    hand = [_card(c, f"hand[{i}]", joker=True) for i, c in enumerate(hand_raw)]

    def answer(valid: bool, reasons: Sequence[Note] = (), **more: Any) -> Json:
        """The answer; a refusal also says why: ``reason`` (the English) and ``phrases`` (its templates and
        facts, worded for the reader by the card room)."""
        out: Json = {"valid": valid, **more}
        if reasons:
            out["reason"] = "; ".join(reasons)
            out["phrases"] = [phrase_json(r) for r in reasons]
        return out

    for key in ("before", "after"):
        for i, meld in enumerate(melds[key]):
            kind, why = meld_problem(meld)
            if kind is None:
                return answer(
                    False,
                    [note(N_("%(meld)s (%(cards)s) is not a valid meld: %(reason)s"), meld=f"{key}[{i}]",
                          cards=" ".join(str(c) for c in meld), reason=why)],
                    meld=f"{key}[{i}]",
                )
    before = Counter(c.physical for m in melds["before"] for c in m) + Counter(str(c) for c in hand)
    after = Counter(c.physical for m in melds["after"] for c in m)
    if after != before:
        missing, extra = before - after, after - before
        parts = []
        if missing:
            parts.append(note(N_("missing from the table: %(cards)s (no card goes back into a hand, every card stays "
                                 "in a meld)"), cards=" ".join(sorted(missing.elements()))))
        if extra:
            parts.append(note(N_("not on the table before nor played from hand: %(cards)s"),
                              cards=" ".join(sorted(extra.elements()))))
        return answer(False, parts)
    stood_before = Counter(str(c.card) for m in melds["before"] for c in m if c.joker)
    stood_after = Counter(str(c.card) for m in melds["after"] for c in m if c.joker)
    naturals_after = {str(c.card) for m in melds["after"] for c in m if not c.joker}
    for card in (stood_before - stood_after).elements():
        if card not in naturals_after:
            return answer(
                False,
                [note(N_("a joker stood for %(cards)s: it may stand for another card only once the natural "
                         "%(cards)s takes its place on the table"), cards=card)],
            )
    return answer(True, melds=[{"cards": [str(c) for c in m], "kind": meld_problem(m)[0]} for m in melds["after"]])


def _setting(name: str, default: int, help: str) -> Setting:
    return Setting(name, SettingKind.INT, default, help, minimum=0, maximum=10_000)


class CarouselRummy(ScoredGame):
    name = "carousel_rummy"
    title = "Carousel (rummy)"
    rules = "Carousel"
    min_players = 2
    max_players = 5
    carries_state = True
    checks = ("meld", "table")
    settings = (
        Setting(
            "knock_below",
            SettingKind.INT,
            5,
            "a player may knock with less than this much deadwood",
            minimum=1,
            maximum=100,
        ),
        _setting("undercut_bonus", 10, "bonus for a player who undercuts the knocker"),
        _setting("all_melded_bonus", 25, "bonus for a winner who melded every card (no deadwood)"),
        Setting(
            "game_to",
            SettingKind.INT,
            150,
            "the game ends when a player reaches this score",
            minimum=1,
            maximum=100_000,
        ),
        _setting("game_bonus", 100, "bonus for the player who wins the game"),
        _setting("box_bonus", 25, "bonus to every player, at the end of the game, for each hand they won"),
    )

    def initial_state(self, players: Sequence[str], config: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hands_won": dict.fromkeys(players, 0)}

    def check(self, name: str, payload: Any) -> Json:
        if not isinstance(payload, Mapping):
            raise ScoringError("bad_check", N_("a check takes an object"), field="check")
        if name == "meld":
            return check_melds(payload.get("melds"))
        if name == "table":
            return check_table(payload)
        return super().check(name, payload)

    def _read_hands(self, deal: Mapping[str, Any], players: Sequence[str]) -> dict[str, int]:
        hands = deal.get("hands")
        if not isinstance(hands, Mapping):
            raise ScoringError(
                "bad_deal", N_("%(what)s must be an object: each player's deadwood (and melds held)"), field="hands",
                what="hands",
            )
        for name in hands:
            if name not in players:
                raise ScoringError(
                    "bad_deal", N_("%(player)s is not a player of this sheet"), field=f"hands.{name}",
                    at=f"hands.{name}", player=name,
                )
        shoe = Shoe(decks=1 if len(players) == 2 else 2, jokers=1 if len(players) == 2 else 2)
        deadwood: dict[str, int] = {}
        for p in players:
            where = f"hands.{p}"
            if p not in hands:
                raise ScoringError(
                    "bad_deal", N_("every player's deadwood is needed (an empty list if none): %(player)s's is missing"),
                    field=where, at=where, player=p,
                )
            hand = hands[p]
            if isinstance(hand, list):
                hand = {"deadwood": hand}
            if not isinstance(hand, Mapping) or set(hand) - {"deadwood", "melds"} or "deadwood" not in hand:
                raise ScoringError(
                    "bad_deal", N_("%(what)s must be the deadwood (a list of cards) and the melds held (lists of cards)"),
                    field=where, what=where,
                )
            if not isinstance(hand["deadwood"], list):
                raise ScoringError("bad_deal", N_("%(what)s must be a list of cards"), field=f"{where}.deadwood",
                                   what=f"{where}.deadwood")
            cards = [_card(c, f"{where}.deadwood[{i}]", joker=True) for i, c in enumerate(hand["deadwood"])]
            melds_raw = hand.get("melds", [])
            if not isinstance(melds_raw, list):
                raise ScoringError("bad_deal", N_("%(what)s must be a list of melds"), field=f"{where}.melds",
                                   what=f"{where}.melds")
            held: list[Any] = []
            for i, raw in enumerate(melds_raw):
                meld = parse_meld(raw, f"{where}.melds[{i}]")
                kind, why = meld_problem(meld)
                if kind is None:
                    raise ScoringError(
                        "bad_meld", N_("%(what)s is not a valid meld: %(reason)s"), field=f"{where}.melds[{i}]",
                        what=f"{where}.melds[{i}]", reason=why,
                    )
                held.extend(physical_card(m) for m in meld)
            for c in cards + held:
                try:
                    shoe.take(c)
                except EngineError as exc:
                    raise ScoringError.inner(exc, field=where) from None
            deadwood[p] = sum(card_points(c) for c in cards)
        return deadwood

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
            if key not in ("knocker", "hands"):
                raise ScoringError("bad_deal", N_("%(what)s is not part of a %(title)s deal (%(keys)s)"), field=key,
                                   what=key, title=self.title, keys=["knocker", "hands"])
        knocker = deal.get("knocker")
        if not isinstance(knocker, str) or knocker not in players:
            raise ScoringError("bad_deal", N_("%(what)s must be the player who knocked"), field="knocker",
                               what="knocker")
        deadwood = self._read_hands(deal, players)
        if deadwood[knocker] >= config["knock_below"]:
            raise ScoringError(
                "cannot_knock", N_("%(player)s has %(n)s in deadwood: a player may knock with less than %(high)s"),
                field="knocker", player=knocker, n=deadwood[knocker], high=config["knock_below"],
            )
        opponents = [p for p in players if p != knocker]
        lowest = min(deadwood[p] for p in opponents)
        undercut = lowest <= deadwood[knocker]
        winners = [p for p in opponents if deadwood[p] == lowest] if undercut else [knocker]
        points = dict.fromkeys(players, 0)
        notes = []
        for w in winners:
            diff = sum(deadwood[o] - deadwood[w] for o in players if o != w)
            bonus = (config["undercut_bonus"] if undercut else 0) + (
                config["all_melded_bonus"] if not deadwood[w] else 0
            )
            points[w] = diff + bonus
            facts = {"who": w, "n": diff, "undercut": config["undercut_bonus"], "melded": config["all_melded_bonus"]}
            if undercut and deadwood[w]:
                notes.append(note(N_("%(who)s undercuts: %(n)s + %(undercut)s undercut"), **facts))
            elif undercut:
                notes.append(note(N_("%(who)s undercuts: %(n)s + %(undercut)s undercut + %(melded)s all melded"),
                                  **facts))
            elif deadwood[w]:
                notes.append(note(N_("%(who)s wins on the knock: %(n)s"), **facts))
            else:
                notes.append(note(N_("%(who)s wins on the knock: %(n)s + %(melded)s all melded"), **facts))
        won = dict((state or {}).get("hands_won") or dict.fromkeys(players, 0))
        for w in winners:
            won[w] = won.get(w, 0) + 1
        extra: Json = {
            "knocker": knocker,
            "deadwood": deadwood,
            "winners": winners,
            "undercut": undercut,
            "hand": dict(points),
        }
        game_winner = None
        after = {p: totals.get(p, 0) + points[p] for p in players}
        reached = [p for p in players if after[p] >= config["game_to"]]
        if reached:
            top = max(after[p] for p in reached)
            leaders = [p for p in reached if after[p] == top]
            if len(leaders) == 1:
                game_winner = leaders[0]
                boxes = {p: config["box_bonus"] * won.get(p, 0) for p in players}
                points[game_winner] += config["game_bonus"]
                for p in players:
                    points[p] += boxes[p]
                extra.update(game_bonus={game_winner: config["game_bonus"]}, box_bonus=boxes)
                notes.append(note(N_("%(who)s reaches %(n)s and wins the game: +%(bonus)s game bonus, %(box)s a "
                                     "hand won to each player"), who=game_winner, n=after[game_winner],
                                  bonus=config["game_bonus"], box=config["box_bonus"]))
            else:
                notes.append(note(N_("%(who)s tie at %(n)s: play another hand"), who=leaders, n=top))
        return DealScore(points, tuple(notes), extra, state={"hands_won": won}, winner=game_winner)


def physical_card(m: MeldCard) -> Card:
    """The card in the hand or on the table: the joker, whatever it stands for."""
    return parse_card(JOKER, allow_joker=True) if m.joker else m.card


GAMES: dict[str, ScoredGame] = {"carousel_rummy": CarouselRummy()}
