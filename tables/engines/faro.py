"""Faro and Stuss: bets on the thirteen ranks of the layout, settled turn by turn through one pack.

One round document is one **deal**: a single shuffled pack from the first card to the last.
Faro turns up the soda (no action), then 25 turns of a loser and a winner; the one card left,
the hock, has no action and is not entered (the casekeeper already knows it). Stuss has no soda
and no hock: 26 turns. A bet on a rank waits on the layout until a turn shows that rank: a
loser card loses it (a coppered bet wins), a winner card wins it (a coppered bet loses), and a
split (the rank as both loser and winner) gives the house half the bet (Stuss: all of it).
Bets are placed and taken down between turns; with three cards left a Faro player may call the
turn (4 to 1, a cat-hop 2 to 1).

>>> doc = {"game": "faro", "bets": [{"id": "b1", "seat": 1, "type": "rank", "rank": "K", "amount": 10}],
...        "events": [{"card": "5S"}, {"card": "KH"}, {"card": "2D"}]}
>>> out = FARO.play(FARO.load(doc)).to_json()
>>> out["next"]["say"], out["bets"][0]["result"], out["bets"][0]["net"], out["casekeeper"]["K"]
('Turn 2: loser card', 'lose', -10, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

from tables.engines.base import (
    LIMIT_SETTINGS,
    Bet,
    BetSpec,
    EdgeRow,
    Engine,
    Json,
    Round,
    Setting,
    SettingKind,
    awaiting,
    banked_house,
    bet_result,
    chip_setting,
    expect_card,
    handover,
    parse_bet,
    rounding_setting,
    settled,
)
from tables.engines.cards import RANK_NAMES, Card, Shoe, parse_card
from tables.engines.errors import EngineError
from tables.engines.inputs import RANK_LABELS, BetField, Deck, FieldKind, card_input, fresh_bet_id, open_bet, option
from tables.engines.money import Rounding, percent_of
from tables.engines.profile import Family, GameProfile, TurnOrder
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, speech

LAYOUT = "A23456789TJQK"  # the spade layout and the casekeeper, ace to king
SODA, LOSER, WINNER, HOCK = "soda", "loser", "winner", "hock"
RANK_BET, CALL_THE_TURN = "rank", "call_the_turn"
BET_LABELS = {RANK_BET: "Bet on a rank", CALL_THE_TURN: "Call the turn"}
CAT_HOP = "cat_hop"
PACK = 52
SLOTS = (SODA, LOSER, WINNER)


def parse_rank(value: Any, *, where: str, event: int | None = None) -> str:
    """A layout rank: ``A 2-9 T(10) J Q K``, case-insensitive; returns the canonical letter."""
    raw = value.strip().upper() if isinstance(value, str) else None
    if raw == "10":
        raw = "T"
    if raw is None or len(raw) != 1 or raw not in LAYOUT:
        raise EngineError(
            "bad_bet", f"{where} must be a rank: A 2-9 T(10) J Q K, got {value!r}", event=event, field=where, params={"value": value}
        )
    return raw


def _plural(rank: str) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


class Deal:
    """The cards of one deal in order, and the casekeeper (how many of each rank are still to come)."""

    def __init__(self, *, soda: bool, hock: bool) -> None:
        self.has_soda = soda
        self.has_hock = hock
        self.shoe = Shoe(1)
        self.casekeeper: Counter[str] = Counter(dict.fromkeys(LAYOUT, 4))
        self.soda: Card | None = None
        self.turns: list[list[Card]] = []
        self.total_turns = (PACK - int(soda) - int(hock)) // 2

    @property
    def cards_left(self) -> int:
        return sum(self.casekeeper.values())

    def next_slot(self) -> str | None:
        """Where the next card goes (soda, loser, winner), or None when the deal is complete."""
        if self.has_soda and self.soda is None:
            return SODA
        if self.turns and len(self.turns[-1]) == 1:
            return WINNER
        if len(self.turns) == self.total_turns:
            return None
        return LOSER

    def between_turns(self) -> bool:
        return self.next_slot() in (SODA, LOSER)

    def add(self, slot: str, card: Card) -> None:
        self.casekeeper[card.rank] -= 1
        if slot == SODA:
            self.soda = card
        elif slot == LOSER:
            self.turns.append([card])
        else:
            self.turns[-1].append(card)

    def hock(self) -> Card | None:
        """The card left in the box once the last turn is dealt (Faro only)."""
        if not self.has_hock or self.next_slot() is not None:
            return None
        (card,) = self.shoe.counts()
        return card

    def remaining_ranks(self) -> list[str]:
        return sorted(self.casekeeper.elements(), key=LAYOUT.index)

    def say_next(self) -> Speech:
        slot = self.next_slot()
        if slot == SODA:
            return speech("soda")
        if slot == WINNER:
            return speech("winner_card", n=len(self.turns))
        number = len(self.turns) + 1
        if slot == LOSER and self.has_hock and self.cards_left == 3:
            return speech("loser_card_last", n=number)
        return speech("loser_card", n=number)

    def hands_doc(self) -> Json:
        hock = self.hock()
        doc: Json = {}
        if self.has_soda:
            doc[SODA] = str(self.soda) if self.soda is not None else None
        doc["turns"] = [
            {"turn": n, LOSER: str(cards[0]), WINNER: str(cards[1]) if len(cards) > 1 else None}
            for n, cards in enumerate(self.turns, start=1)
        ]
        if self.has_hock:
            doc[HOCK] = str(hock) if hock is not None else None
        doc["cards_left"] = self.cards_left - (1 if hock is not None else 0)
        return doc

    def casekeeper_doc(self) -> dict[str, int]:
        hock = self.hock()
        counts = dict(self.casekeeper)
        if hock is not None:
            counts[hock.rank] -= 1  # the hock is shown when the deal ends
        return {rank: counts[rank] for rank in LAYOUT}


@dataclass(slots=True)
class _Placed:
    """A bet on the layout during the replay; ``row`` is set once it is decided or taken down."""

    bet: Bet
    rank: str | None = None
    order: tuple[str, ...] = ()
    cat_hop: bool = False
    row: Json | None = None


def rank_bet_probabilities(cards_left: int, of_rank: int, *, soda: bool, hock: bool) -> dict[str, Fraction]:
    """Exact chances that a rank bet is decided by a single card, a split, or never (soda/hock only).

    ``cards_left`` counts the soda (if still to come), the turn cards and the hock. Every
    placement of the rank's ``of_rank`` cards among those positions is equally likely; the bet
    is decided by the first turn holding one (``single``) or two (``split``) of them.
    """
    extra = int(soda) + int(hock)
    turns = (cards_left - extra) // 2
    total = comb(cards_left, of_rank)
    split = sum(comb(cards_left - 2 * j - 2, of_rank - 2) for j in range(turns)) if of_rank >= 2 else 0
    single = sum(2 * comb(cards_left - 2 * j - 2, of_rank - 1) for j in range(turns))
    never = comb(extra, of_rank)
    return {"split": Fraction(split, total), "single": Fraction(single, total), "never": Fraction(never, total)}


class Faro(Engine):
    """Faro: soda, 25 turns, hock; half of a split to the house; calling the turn."""

    name = "faro"
    title = "Faro"
    has_soda = True
    has_hock = True
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting(
            "split_takes_bp",
            SettingKind.INT,
            5000,
            "share of every bet on a split rank the house takes, basis points (rule book: half)",
            minimum=0,
            maximum=10_000,
        ),
        rounding_setting(
            "split_rounding",
            Rounding.DOWN,
            "rounding of the house's share of a split bet (down: the bettor keeps the odd chip)",
        ),
        chip_setting("house's share of a split bet"),
        Setting(
            "call_the_turn_pays",
            SettingKind.CHART,
            {CALL_THE_TURN: 4, CAT_HOP: 2},
            "calling the turn pays N to 1: three different ranks, or a cat-hop (two of the three paired)",
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        RANK_BET: BetSpec(
            "A rank of the layout wins (coppered: loses) the next time it shows; pays 1:1",
            required=("rank",),
            optional=("coppered",),
            fields=(
                BetField("rank", FieldKind.RANK, "Rank"),
                BetField("coppered", FieldKind.BOOL, "Coppered (bet to lose)"),
            ),
        ),
        CALL_THE_TURN: BetSpec(
            "With three cards left, their order (loser, winner, hock); pays 4:1, cat-hop 2:1",
            required=("order",),
            fields=(BetField("order", FieldKind.RANKS, "Loser, winner, hock", count=3),),
        ),
    }
    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(RANK_BET,), during_deal=(CALL_THE_TURN,),
                          turn_order=TurnOrder.ANY)  # the turn is called with three cards left, never before the deal

    # -- bets --------------------------------------------------------------------------------
    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.type == CALL_THE_TURN and where.startswith("bets"):
            # the round's bets are placed before the deal (``where`` is "bets[i]", or "bets" for a placement
            # checked while betting is open); the turn is called between turns, with three cards left
            raise EngineError(
                "bad_bet", f"bet {bet.id}: the turn is called with three cards left, not before the deal",
                field=f"{where}.type", params={"bet": bet.id, "cards_left": PACK, "reason": "call_early"},
            )
        if bet.type == RANK_BET:
            parse_rank(bet.get("rank"), where=f"{where}.rank")
            if "coppered" in bet.extra and not isinstance(bet.get("coppered"), bool):
                raise EngineError("bad_bet", f"bet {bet.id}: coppered must be true or false", field=f"{where}.coppered", params={"bet": bet.id})
        else:
            order = bet.get("order")
            if not isinstance(order, list) or len(order) != 3:
                raise EngineError(
                    "bad_bet",
                    f"bet {bet.id}: order must be a list of three ranks (loser, winner, hock)",
                    field=f"{where}.order", params={"bet": bet.id},
                )
            for k, rank in enumerate(order):
                parse_rank(rank, where=f"{where}.order[{k}]")

    def _place(self, bet: Bet, deal: Deal, placed: dict[str, _Placed], *, where: str, event: int | None) -> None:
        """Put a checked bet on the layout, refusing what the deal so far does not allow."""
        if bet.id in placed:
            raise EngineError("duplicate_bet", f"bet id {bet.id} is used twice", event=event, field=f"{where}.id", params={"bet": bet.id})
        if bet.type == RANK_BET:
            rank = parse_rank(bet.get("rank"), where=f"{where}.rank", event=event)
            if deal.casekeeper[rank] == 0:
                raise EngineError(
                    "bad_bet",
                    f"bet {bet.id}: all four {_plural(rank)} are out, the rank is dead",
                    event=event,
                    field=f"{where}.rank", params={"bet": bet.id},
                )
            placed[bet.id] = _Placed(bet, rank=rank)
            return
        left = deal.remaining_ranks()
        if deal.cards_left != 3:
            raise EngineError(
                "bad_bet",
                f"bet {bet.id}: the turn is called with three cards left, not {deal.cards_left}",
                event=event,
                field=f"{where}.type", params={"bet": bet.id, "cards_left": deal.cards_left},
            )
        if len(set(left)) == 1:
            raise EngineError(
                "bad_bet",
                f"bet {bet.id}: the last three cards are all {_plural(left[0])}, there is no order to call",
                event=event,
                field=f"{where}.type", params={"bet": bet.id},
            )
        order = tuple(parse_rank(r, where=f"{where}.order[{k}]", event=event) for k, r in enumerate(bet.get("order")))
        if sorted(order, key=LAYOUT.index) != left:
            raise EngineError(
                "bad_bet",
                f"bet {bet.id}: the cards left are {' '.join(left)}, the order must use exactly those ranks",
                event=event,
                field=f"{where}.order", params={"bet": bet.id, "ranks": list(left)},
            )
        placed[bet.id] = _Placed(bet, order=order, cat_hop=len(set(left)) == 2)

    # -- the deal ----------------------------------------------------------------------------
    def play(self, rnd: Round) -> RoundResult:
        cfg = rnd.config
        deal = Deal(soda=self.has_soda, hock=self.has_hock)
        placed: dict[str, _Placed] = {}
        for i, bet in enumerate(rnd.bets):
            self._place(bet, deal, placed, where=f"bets[{i}]", event=None)
        for index, event in enumerate(rnd.events):
            if "card" in event:
                self._card(event, index, deal, placed, cfg)
            elif "bet" in event:
                self._bet_event(event, index, deal, placed, cfg)
            elif "action" in event:
                self._action(event, index, deal, placed)
            else:
                raise EngineError("bad_event", f"event {index}: expected a card, a bet or an action", event=index)
        rows = [p.row for p in placed.values() if p.row is not None]
        slot = deal.next_slot()
        if slot is not None:
            step = expect_card(
                slot,
                deal.say_next(),
                bets_open=deal.between_turns(),
                bet_types=self._open_bet_types(deal),
                turn=len(deal.turns) + (slot == LOSER),
                inp=self._card_input(slot, deal, placed, fresh_bet_id(rnd.bets, rnd.events)),
            )
            return awaiting(step, hands=deal.hands_doc(), bets=rows, casekeeper=deal.casekeeper_doc())
        hock = deal.hock()
        splits = [t[0].rank for t in deal.turns if t[0].rank == t[1].rank]
        outcome: Json = {"turns": len(deal.turns), "splits": splits}
        say = speech("deal_complete")
        if hock is not None:
            outcome[HOCK] = str(hock)
            say = speech("in_hock", card=str(hock))
        return settled(
            hands=deal.hands_doc(),
            outcome=outcome,
            bets=rows,
            house=banked_house(rows),
            say=say,
            casekeeper=deal.casekeeper_doc(),
        )

    def _card_input(self, slot: str, deal: Deal, placed: Mapping[str, _Placed], bet_id: str) -> Json:
        """The next card; between turns, the bets that may be placed (a live rank; the call of the
        turn with three cards left) and taking a standing bet down."""
        bets_open: list[Json] = []
        removals: list[Json] = []
        for bet_type in self._open_bet_types(deal):
            spec = self.bet_types[bet_type]
            if bet_type == RANK_BET:
                live = tuple((r, lab) for r, lab in RANK_LABELS if deal.casekeeper[r] > 0)
                fields = [replace(spec.field("rank"), options=live), spec.field("coppered")]
            else:
                # the three cards left, each rank as often as it is left: the call puts them in order
                labels = dict(RANK_LABELS)
                left = tuple((r, labels[r]) for r in deal.remaining_ranks())
                fields = [replace(spec.field("order"), options=left)]
            bets_open.append(open_bet(bet_type, BET_LABELS[bet_type], fields, bet_id=bet_id))
        if deal.between_turns():
            for p in placed.values():
                if p.row is None:
                    what = (speech("label_take_down_rank", seat=p.bet.seat, rank=p.rank) if p.rank is not None
                            else speech("label_take_down_turn", seat=p.bet.seat))
                    event = {"seat": p.bet.seat, "action": "remove", "bet_id": p.bet.id}
                    removals.append(option("remove", event, what))
        return card_input(slot, bets_open=bets_open, options=removals)

    def _open_bet_types(self, deal: Deal) -> list[str]:
        if not deal.between_turns():
            return []
        if CALL_THE_TURN in self.bet_types and deal.cards_left == 3 and len(set(deal.remaining_ranks())) > 1:
            return [RANK_BET, CALL_THE_TURN]
        return [RANK_BET]

    def _card(
        self, event: Mapping[str, Any], index: int, deal: Deal, placed: dict[str, _Placed], cfg: Mapping[str, Any]
    ) -> None:
        extra = set(event) - {"card", "to"}
        if extra:
            raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
        slot = deal.next_slot()
        if slot is None:
            raise EngineError("out_of_turn", f"event {index}: the deal is complete, no more cards", event=index)
        to = event.get("to")
        allowed = SLOTS if self.has_soda else (LOSER, WINNER)
        if to is not None and to != slot:
            if to not in allowed:
                raise EngineError("bad_event", f"event {index}: 'to' must be one of {', '.join(allowed)}", event=index, params={"allowed": list(allowed)})
            raise EngineError("out_of_turn", f"event {index}: the next card is the {slot}, not the {to}", event=index, params={"expected": slot, "to": to})
        try:
            card = parse_card(event["card"])
            deal.shoe.take(card)
        except EngineError as exc:
            raise exc.at(index) from None
        deal.add(slot, card)
        if slot == WINNER:
            self._settle_turn(deal, placed, cfg)
            if deal.next_slot() is None:
                self._settle_last(deal, placed, cfg)

    def _bet_event(
        self, event: Mapping[str, Any], index: int, deal: Deal, placed: dict[str, _Placed], cfg: Mapping[str, Any]
    ) -> None:
        if set(event) != {"bet"}:
            raise EngineError("bad_event", f"event {index}: a bet event holds only 'bet'", event=index)
        where = f"events[{index}].bet"
        bet = parse_bet(event["bet"], self.spec_for, where=where, event=index)
        if not deal.between_turns():
            when = "the deal is complete" if deal.next_slot() is None else "a turn is being dealt (winner card due)"
            raise EngineError("out_of_turn", f"event {index}: bets are placed between turns; {when}", event=index)
        self.check_limits(bet, cfg, event=index, where=where)
        try:
            self.check_bet(bet, cfg, where=where)
        except EngineError as exc:
            raise exc.at(index) from None
        self._place(bet, deal, placed, where=where, event=index)

    def _action(self, event: Mapping[str, Any], index: int, deal: Deal, placed: dict[str, _Placed]) -> None:
        extra = set(event) - {"seat", "action", "bet_id"}
        if extra:
            raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
        if event.get("action") != "remove":
            raise EngineError(
                "illegal_action", f"event {index}: the only action is 'remove' (take a bet down)", event=index
            )
        bet_id, seat = event.get("bet_id"), event.get("seat")
        target = placed.get(bet_id) if isinstance(bet_id, str) else None
        if target is None:
            raise EngineError("bad_event", f"event {index}: no bet {bet_id!r} on the layout", event=index, params={"bet": bet_id})
        if not deal.between_turns():
            raise EngineError("out_of_turn", f"event {index}: bets are taken down between turns", event=index)
        if seat != target.bet.seat:
            raise EngineError(
                "illegal_action", f"event {index}: bet {bet_id} belongs to seat {target.bet.seat}", event=index, params={"bet": bet_id, "owner_seat": target.bet.seat}
            )
        if target.row is not None:
            raise EngineError(
                "illegal_action", f"event {index}: bet {bet_id} is already {target.row['result']}", event=index, params={"bet": bet_id}
            )
        target.row = self._row(target, "withdrawn", 0, turn=len(deal.turns))

    # -- settling ----------------------------------------------------------------------------
    def _row(self, p: _Placed, result: str, net: int, **extra: Any) -> Json:
        if p.bet.type == RANK_BET:
            return bet_result(p.bet, result, net, rank=p.rank, coppered=bool(p.bet.get("coppered", False)), **extra)
        return bet_result(p.bet, result, net, order=list(p.order), cat_hop=p.cat_hop, **extra)

    def _settle_turn(self, deal: Deal, placed: dict[str, _Placed], cfg: Mapping[str, Any]) -> None:
        loser, winner = deal.turns[-1]
        number = len(deal.turns)
        cards = [str(loser), str(winner)]
        for p in placed.values():
            if p.row is not None or p.rank is None or p.rank not in (loser.rank, winner.rank):
                continue
            coppered = bool(p.bet.get("coppered", False))
            # the dealer pays and takes as the turn decides (the stake is on the layout, the player's own)
            if loser.rank == winner.rank:
                taken = percent_of(p.bet.amount, cfg["split_takes_bp"], Rounding(cfg["split_rounding"]), cfg["chip"])
                p.row = self._row(p, "split", -taken, turn=number, cards=cards,
                                  handover=handover(take=taken, via="house", during_deal=True))
            elif (p.rank == winner.rank) != coppered:
                p.row = self._row(p, "win", p.bet.amount, turn=number, cards=cards,
                                  handover=handover(pay=p.bet.amount, via="house", during_deal=True))
            else:
                p.row = self._row(p, "lose", -p.bet.amount, turn=number, cards=cards,
                                  handover=handover(take=p.bet.amount, via="house", during_deal=True))

    def _settle_last(self, deal: Deal, placed: dict[str, _Placed], cfg: Mapping[str, Any]) -> None:
        hock = deal.hock()
        if hock is None:
            return
        loser, winner = deal.turns[-1]
        actual = (loser.rank, winner.rank, hock.rank)
        for p in placed.values():
            if p.row is not None:
                continue
            if p.rank is not None:  # only the hock's rank can still be open: the hock has no action
                p.row = self._row(p, "push", 0, turn=None, cards=[str(hock)], reason=HOCK)
            elif p.order == actual:
                odds = cfg["call_the_turn_pays"][CAT_HOP if p.cat_hop else CALL_THE_TURN]
                p.row = self._row(p, "win", p.bet.amount * odds, actual=list(actual))
            else:
                p.row = self._row(p, "lose", -p.bet.amount, actual=list(actual))

    # -- house edge --------------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact: the split is the house's only edge on a rank bet; calling the turn by counting orders."""
        cfg = self.resolve_config(config)
        share = Fraction(cfg["split_takes_bp"], 10_000)
        p = rank_bet_probabilities(PACK, 4, soda=self.has_soda, hock=self.has_hock)
        # the same bet placed a little later (after the soda; Stuss: after turn 1) with fewer of its rank to come
        to_come = PACK - (1 if self.has_soda else 2)
        later = {k: rank_bet_probabilities(to_come, k, soda=False, hock=self.has_hock)["split"] * share for k in (3, 2)}
        method = "exact enumeration of where the rank's cards lie in the pack"
        note = (
            f"placed before the first card and left until decided; split chance {p['split']} "
            f"(≈ {float(p['split']):.4%}); placed with {to_come} cards to come, 3 of them of the rank "
            f"{float(later[3]):.4%}, with 2 {float(later[2]):.4%}, with 1 0 % (no split is possible)"
        )
        rows = [
            EdgeRow(RANK_BET, p["split"] * share, method, note=note),
            EdgeRow(
                f"{RANK_BET} (coppered)",
                p["split"] * share,
                method,
                note="same as a bet to win: a loser and a winner are equally likely",
            ),
        ]
        if CALL_THE_TURN in self.bet_types:
            pays = cfg["call_the_turn_pays"]
            rows += [
                EdgeRow(
                    CALL_THE_TURN,
                    1 - Fraction(pays[CALL_THE_TURN] + 1, 6),
                    "exact: 6 equally likely orders of three different ranks",
                    note="the rule book: 'the actual odds against the player are 5 to 1'",
                ),
                EdgeRow(
                    CAT_HOP,
                    1 - Fraction(pays[CAT_HOP] + 1, 3),
                    "exact: 3 equally likely orders when two of the three cards pair",
                ),
            ]
        return rows


class Stuss(Faro):
    """Stuss: Faro without the soda, the hock or side bets; the house takes all of a split."""

    name = "stuss"
    title = "Stuss"
    has_soda = False
    has_hock = False
    settings = (
        Setting(
            "split_takes_bp",
            SettingKind.INT,
            10_000,
            "share of every bet on a split rank the house takes, basis points (rule book: the full amount)",
            minimum=0,
            maximum=10_000,
        ),
        rounding_setting(
            "split_rounding",
            Rounding.DOWN,
            "rounding of the house's share of a split bet when it is less than all of it",
        ),
        chip_setting("house's share of a split bet"),
        *LIMIT_SETTINGS,
    )
    bet_types = {RANK_BET: Faro.bet_types[RANK_BET]}
    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(RANK_BET,), turn_order=TurnOrder.ANY)


FARO = Faro()
STUSS = Stuss()
ENGINES = {FARO.name: FARO, STUSS.name: STUSS}
