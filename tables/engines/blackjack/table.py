"""One blackjack or Pontoon round being replayed: every event checked against the rules, then applied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines.base import (
    Bet,
    Json,
    awaiting,
    banked_house,
    bet_result,
    expect_action,
    expect_card,
    settled,
)
from tables.engines.blackjack.rules import (
    _ACTIONS,
    _CARDS,
    _TO,
    A_DOUBLE,
    A_HIT,
    A_INSURANCE,
    A_NO_INSURANCE,
    A_PEEK,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    DEALER,
    INSURANCE_BET,
    ORDINALS,
    PEEK_LABELS,
    PEEK_RESULTS,
    PH_DEAL,
    PH_DEALER_ACTION,
    PH_DEALER_CARD,
    PH_DONE,
    PH_HOLE,
    PH_HOLE_BLACKJACK,
    PH_INSURANCE,
    PH_PEEK,
    PH_PLAYERS,
    ST_BUST,
    ST_NATURAL,
    ST_OPEN,
    ST_STOOD,
    ST_SURRENDERED,
    TEN_RANKS,
    Action,
    Hand,
    LazyShoe,
    Rules,
    _describe,
    _is_int,
    _paid_as,
    _rank_word,
    is_natural,
)
from tables.engines.cards import parse_card
from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import amount_input, choice_input, option
from tables.engines.money import divide, pay_ratio
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, english_value, speech


class BlackjackTable:
    """One round being replayed: every event is checked against the rules, then applied."""

    def __init__(self, rules: Rules, bets: Sequence[Bet]) -> None:
        self.rules = rules
        self.shoe = LazyShoe(rules.decks)
        self.bets = bets
        self.main: dict[int, Bet] = {}
        banker = rules.banker_seat if rules.pontoon else None
        for i, bet in enumerate(bets):
            if bet.seat > rules.seats:
                raise EngineError(
                    "bad_bet", f"bet {bet.id}: the table has seats 1 to {rules.seats}", field=f"bets[{i}].seat", params={"bet": bet.id, "seats": rules.seats}
                )
            if bet.seat in self.main:
                raise EngineError("bad_bet", f"bet {bet.id}: seat {bet.seat} already has a bet", field=f"bets[{i}].seat", params={"bet": bet.id, "seat": bet.seat})
            if bet.seat == banker:
                raise EngineError(
                    "bad_bet", f"bet {bet.id}: seat {bet.seat} holds the bank and does not bet", field=f"bets[{i}].seat", params={"bet": bet.id, "seat": bet.seat, "reason": "bank_seat"}
                )
            self.main[bet.seat] = bet
        if any(bet.id.endswith(":insurance") for bet in bets):  # rare: only then is the full check worth it
            ids = {b.id for b in bets}
            for bet in bets:
                if f"{bet.id}:insurance" in ids:
                    raise EngineError("duplicate_bet",
                                      f"bet id {bet.id}:insurance is kept for the insurance of {bet.id}", params={"bet": bet.id})
        if not self.main:
            raise BetSetError(
                "bad_bet", "no seat has a bet: the deal starts once at least one 'bet' is down",
                params={"reason": "no_bets"},
            )
        if rules.pontoon:
            banker = rules.banker_seat or 0
            # play goes round to the banker's left: the seats after the bank, then those before it
            self.seats = sorted(s for s in self.main if s > banker) + sorted(s for s in self.main if s < banker)
        else:
            self.seats = sorted(self.main)
        self.hands: dict[int, list[Hand]] = {s: [Hand(s, 0, self.main[s].amount)] for s in self.seats}
        self.splits = dict.fromkeys(self.seats, 0)
        self.dealer_hand = Hand(0, 0, 0)  # its running total; the seat and stake mean nothing
        self.dealer: list[str] = self.dealer_hand.cards
        self.dealer_ranks: list[str] = self.dealer_hand.ranks
        targets: list[int | None] = [*self.seats, None, *self.seats]
        if rules.pontoon:
            targets.append(None)
        self.targets = targets
        self.target_to = [DEALER if t is None else f"seat:{t}" for t in targets]
        self.dealt = 0
        self.phase = PH_DEAL
        self.insurance: dict[int, int] = {}  # seat → amount taken (0: declined)
        self.insurance_queue: list[int] = []
        self.peek: str | None = None
        self.turn = 0
        self.current: Hand | None = None
        self.dealer_natural = False

    # -- what comes next ------------------------------------------------------------------
    def to_of(self, hand: Hand) -> str:
        return hand.to

    def dealer_total(self) -> tuple[int, bool]:
        hand = self.dealer_hand
        return hand.total, hand.soft

    def allowed(self, hand: Hand) -> list[str]:
        """What the hand may do now; a hand that needs a card has no choice."""
        r = self.rules
        n = len(hand.ranks)
        can_split = (
            n == 2
            and self.splits[hand.seat] < r.max_splits
            and (
                hand.ranks[0] == hand.ranks[1]
                or (r.split_unlike_tens and hand.ranks[0] in TEN_RANKS and hand.ranks[1] in TEN_RANKS)
            )
            and (hand.ranks[0] != "A" or not hand.split or r.resplit_aces)
        )
        if hand.split_aces and n == 2:  # split aces take one card; only a resplit is still open
            return [A_SPLIT, A_STAND]
        acts: list[str] = [A_HIT, A_STAND]
        if n == 2 and (not hand.split or r.double_after_split) and r.may_double(hand.total, hand.soft):
            acts.append(A_DOUBLE)
        if can_split:
            acts.append(A_SPLIT)
        if r.surrender and n == 2 and len(self.hands[hand.seat]) == 1:
            acts.append(A_SURRENDER)
        return acts

    def can_resplit_aces(self, hand: Hand) -> bool:
        return self.rules.resplit_aces and hand.ranks == ["A", "A"] and self.splits[hand.seat] < self.rules.max_splits

    def next_card_to(self) -> str | None:
        """Where the next card goes, or None when a choice (or nothing) is due."""
        ph = self.phase
        if ph is PH_DEAL:
            return self.target_to[self.dealt]
        if ph is PH_HOLE_BLACKJACK or ph is PH_HOLE or ph is PH_DEALER_CARD:
            return DEALER
        if ph is PH_PLAYERS and self.current is not None and self.current.needs_card:
            return self.to_of(self.current)
        return None

    def due_choice(self) -> tuple[int | None, int | str | None, list[str]] | None:
        """(seat, hand, allowed) of the choice due now, or None when a card (or nothing) is due."""
        ph = self.phase
        if ph is PH_PLAYERS:
            hand = self.current
            if hand is None or hand.needs_card:
                return None
            return hand.seat, hand.index, self.allowed(hand)
        if ph is PH_INSURANCE:
            return self.insurance_queue[0], None, [A_INSURANCE, A_NO_INSURANCE]
        if ph is PH_PEEK:
            return None, None, [A_PEEK]
        if ph is PH_DEALER_ACTION:
            return self.rules.banker_seat, DEALER, [A_HIT, A_STAND]
        return None

    def next_step(self) -> Json | None:
        """What the dealer must do next, in the words of the dealer screen."""
        ph = self.phase
        r = self.rules
        if ph is PH_DEAL:
            seat = self.targets[self.dealt]
            second = self.dealt > len(self.seats)
            word = "second" if second else "first"
            if seat is None:
                return expect_card(DEALER, speech(f"dealer_{word}_card" if r.pontoon else "dealer_up_card"))
            return expect_card(f"seat:{seat}", speech(f"seat_{word}_card", seat=seat))
        if ph is PH_INSURANCE:
            seat = self.insurance_queue[0]
            most = self.main[seat].amount // 2
            decline = {"seat": seat, "action": str(A_NO_INSURANCE)}
            full = {"seat": seat, "action": str(A_INSURANCE), "amount": most}
            return expect_action(
                seat,
                [str(A_INSURANCE), str(A_NO_INSURANCE)],
                speech("insurance", seat=seat, amount=most),
                max_amount=most,
                inp=amount_input(
                    seat, "Insurance", 1, most, {"seat": seat, "action": str(A_INSURANCE)}, "amount",
                    options=[option("insurance", full, "Full insurance"), option("no_insurance", decline)],
                ),
            )
        if ph is PH_PEEK:
            shows = "peek_ace" if self.dealer_ranks[0] == "A" else "peek_ten"
            return expect_action(
                None, [str(A_PEEK)], speech(shows), results=list(PEEK_RESULTS),
                inp=choice_input(None, [option(result, {"action": str(A_PEEK), "result": result},
                                               PEEK_LABELS[result]) for result in PEEK_RESULTS]),
            )
        if ph is PH_HOLE_BLACKJACK:
            return expect_card(DEALER, speech("dealer_blackjack_turn_hole"))
        if ph is PH_PLAYERS:
            hand = self.current
            assert hand is not None
            who = self._who(hand)
            if hand.needs_card:
                return expect_card(self.to_of(hand), speech("hand_card", who=who))
            allowed = self.allowed(hand)
            soft = "_soft" if hand.soft else ""
            words = [str(a) for a in allowed]
            if r.pontoon:
                n = len(hand.ranks)
                if n >= 5:
                    say = speech(f"choice_charlie{soft}", who=who, k=n, n=hand.total, choices=words)
                else:
                    say = speech(f"choice_on{soft}", who=who, n=hand.total, choices=words)
            else:
                say = speech(f"choice_against{soft}", who=who, n=hand.total, up=_rank_word(self.dealer_ranks[0]),
                             choices=words)
            return expect_action(hand.seat, words, say, hand=hand.index)
        if ph is PH_HOLE:
            return expect_card(DEALER, speech("turn_hole_card"))
        if ph is PH_DEALER_CARD:
            d_total, d_soft = self.dealer_total()
            return expect_card(DEALER, speech("dealer_draws_soft" if d_soft else "dealer_draws", n=d_total))
        if ph is PH_DEALER_ACTION:
            d_total, d_soft = self.dealer_total()
            return expect_action(
                r.banker_seat,
                [str(A_HIT), str(A_STAND)],
                speech("banker_dealer_soft" if d_soft else "banker_dealer", seat=r.banker_seat, n=d_total),
                hand=DEALER,
            )
        return None

    def _who(self, hand: Hand) -> Speech:
        if len(self.hands[hand.seat]) == 1:
            return speech("who_seat", seat=hand.seat)
        return speech(f"who_{ORDINALS[hand.index]}_hand", seat=hand.seat)

    # -- applying events ------------------------------------------------------------------
    def apply(self, event: Mapping[str, Any], index: int) -> None:
        if "card" in event:
            if "action" in event or "bet" in event:
                raise EngineError("bad_event", f"event {index}: a card or a choice, not both", event=index)
            self.apply_card(event, index)
        elif "action" in event:
            if "bet" in event:
                raise EngineError("bad_event", f"event {index}: a choice or a bet, not both", event=index)
            self.apply_action(event, index)
        elif "bet" in event:
            raise EngineError(
                "bad_event",
                f"event {index}: {self.game} takes no bets once the deal has started; "
                "doubles, splits and insurance are actions",
                event=index, params={"game": self.game},
            )
        else:
            raise EngineError("bad_event", f"event {index}: an event is a card or a choice", event=index)

    @property
    def game(self) -> str:
        return "pontoon" if self.rules.pontoon else "blackjack"

    def apply_card(self, event: Mapping[str, Any], index: int) -> None:
        expected = self.next_card_to()
        if expected is None:
            if self.phase is PH_DONE:
                raise EngineError("out_of_turn", f"event {index}: the round is complete, no more cards", event=index)
            step = self.next_step()
            assert step is not None
            raise EngineError(
                "out_of_turn", f"event {index}: a choice is due next ({step['say']}), not a card", event=index
            )
        if len(event) > 1:
            for key in event:
                if key != "card" and key != "to":
                    raise EngineError("bad_event", f"event {index}: unknown field {key!r} on a card", event=index, params={"field": key})
            to = event.get("to")
            if to is not None and to != expected and not (to == expected + ":0" and expected.count(":") == 1):
                if not isinstance(to, str) or _TO.fullmatch(to) is None:
                    raise EngineError(
                        "bad_event", f"event {index}: 'to' is 'dealer', 'seat:N' or 'seat:N:H'", event=index
                    )
                raise EngineError(
                    "out_of_turn", f"event {index}: the next card goes to {expected}, not {to}", event=index, params={"expected": expected, "to": to}
                )
        text = event["card"]
        card = _CARDS.get(text) if type(text) is str else None
        try:
            if card is None:
                card = parse_card(text)
                text = str(card)
            self.shoe.take_text(text, card)
        except EngineError as exc:
            raise exc.at(index) from None
        ph = self.phase
        if ph is PH_DEAL:
            self.deal_card(text)
        elif ph is PH_PLAYERS:
            hand = self.current
            assert hand is not None
            hand.add(text)
            self.after_card(hand)
            self.advance_players()
        else:
            self.dealer_card(text, index)

    def deal_card(self, text: str) -> None:
        seat = self.targets[self.dealt]
        self.dealt += 1
        if seat is None:
            self.dealer_hand.add(text)
        else:
            hand = self.hands[seat][0]
            hand.add(text)
            if len(hand.ranks) == 2 and hand.total == 21:
                hand.status = ST_NATURAL
        if self.dealt == len(self.targets):
            self.after_deal()

    def dealer_card(self, card: str, index: int) -> None:
        r = self.rules
        ph = self.phase
        ranks = [*self.dealer_ranks, card[0]]
        if ph is PH_HOLE_BLACKJACK and not is_natural(ranks):
            raise EngineError(
                "impossible_card",
                f"event {index}: the peek found a blackjack, so the hole card "
                f"must make 21 with the {english_value(_rank_word(ranks[0]), 'words')}, not {card}",
                event=index, params={"card": str(card)},
            )
        if ph is PH_HOLE and self.peek == "no_blackjack" and is_natural(ranks):
            raise EngineError(
                "impossible_card",
                f"event {index}: the peek found no blackjack, so the hole card cannot be {card}",
                event=index, params={"card": str(card)},
            )
        self.dealer_hand.add(card)
        if ph is PH_HOLE_BLACKJACK:
            self.dealer_natural = True
            self.phase = PH_DONE
            return
        total, soft = self.dealer_total()
        if r.pontoon:
            self.phase = PH_DONE if total >= 21 else PH_DEALER_ACTION
            return
        if not self.live_hands():
            self.phase = PH_DONE
        elif total < 17 or (total == 17 and soft and r.dealer_hits_soft_17):
            self.phase = PH_DEALER_CARD
        else:
            self.phase = PH_DONE

    def apply_action(self, event: Mapping[str, Any], index: int) -> None:
        for key in event:
            if key not in ("seat", "action", "hand", "amount", "result"):
                raise EngineError("bad_event", f"event {index}: unknown field {key!r} on a choice", event=index, params={"field": key})
        action = event["action"]
        if not isinstance(action, str) or action not in _ACTIONS:
            raise EngineError(
                "bad_event",
                f"event {index}: unknown action {action!r} ({', '.join(a.value for a in Action)})",
                event=index, params={"action": action, "actions": [a.value for a in Action]},
            )
        if "amount" in event and action != A_INSURANCE:
            raise EngineError("bad_event", f"event {index}: only insurance carries an amount", event=index)
        if "result" in event and action != A_PEEK:
            raise EngineError("bad_event", f"event {index}: only the peek carries a result", event=index)
        due = self.due_choice()
        if due is None:
            step = self.next_step()
            if step is None:
                raise EngineError("out_of_turn", f"event {index}: the round is complete, no more choices", event=index)
            raise EngineError(
                "out_of_turn", f"event {index}: a card is due next ({step['say']}), not {_describe(event)}", event=index
            )
        due_seat, due_hand, allowed = due
        seat = event.get("seat")
        if (seat is not None and not _is_int(seat)) or (seat is None and due_seat is not None and action != A_PEEK):
            raise EngineError("bad_event", f"event {index}: a choice names its 'seat' by number", event=index)
        if seat != due_seat:
            who = "the dealer's peek" if due_seat is None else f"seat {due_seat}"
            raise EngineError("out_of_turn", f"event {index}: it is {who}'s turn ({self.say_due()})", event=index, params={"seat": due_seat, "seat_given": seat, **({"reason": "seat_turn"} if due_seat is not None else {})})
        if "hand" in event and event["hand"] != (due_hand if due_hand is not None else 0):
            raise EngineError(
                "out_of_turn",
                f"event {index}: {self.say_due()} (hand {due_hand or 0}), not hand {event['hand']!r}",
                event=index, params={"hand": due_hand or 0, "hand_given": event['hand']},
            )
        if action not in allowed:
            raise EngineError(
                "illegal_action", f"event {index}: {action} is not allowed here: {self.say_due()}", event=index, params={"action": action}
            )
        ph = self.phase
        if ph is PH_INSURANCE:
            self.take_insurance(event, index)
        elif ph is PH_PEEK:
            result = event.get("result")
            if result not in PEEK_RESULTS:
                raise EngineError(
                    "bad_event", f"event {index}: a peek's result is 'blackjack' or 'no_blackjack'", event=index
                )
            self.peek = result
            if result == "blackjack":
                self.phase = PH_HOLE_BLACKJACK
            else:
                self.no_dealer_natural()
                self.start_players()
        elif ph is PH_DEALER_ACTION:
            self.phase = PH_DEALER_CARD if action == A_HIT else PH_DONE
        else:
            hand = self.current
            assert hand is not None
            self.play_hand(hand, action)
            self.advance_players()

    def say_due(self) -> str:
        step = self.next_step()
        return step["say"] if step else "the round is complete"

    def take_insurance(self, event: Mapping[str, Any], index: int) -> None:
        seat = self.insurance_queue.pop(0)
        if event["action"] == A_INSURANCE:
            most = self.main[seat].amount // 2
            amount = event.get("amount", most)
            if not _is_int(amount) or not 1 <= amount <= most:
                raise EngineError(
                    "bad_amount",
                    f"event {index}: insurance is a whole amount from 1 to {most} (half the bet)",
                    event=index, params={"min": 1, "max": most, "amount": amount},
                )
            self.insurance[seat] = amount
        else:
            self.insurance[seat] = 0
        if not self.insurance_queue:
            self.to_peek()

    def play_hand(self, hand: Hand, action: str) -> None:
        if action == A_HIT:
            hand.pending = True
        elif action == A_STAND:
            self.stand(hand)
        elif action == A_DOUBLE:
            hand.stake += self.main[hand.seat].amount
            hand.doubled = True
            hand.pending = True
        elif action == A_SPLIT:
            hands = self.hands[hand.seat]
            new = Hand(hand.seat, len(hands), self.main[hand.seat].amount, split=True)
            card = hand.cards[-1]
            hand.remove_last()
            new.add(card)
            hand.split = True
            hand.to = f"seat:{hand.seat}:{hand.index}"
            hands.append(new)
            self.splits[hand.seat] += 1
        else:  # surrender: the house keeps half, the odd chip by the rounding setting
            hand.status = ST_SURRENDERED
            back = divide(hand.stake, 2, self.rules.surrender_rounding)
            hand.decide("surrender", back - hand.stake)

    def stand(self, hand: Hand) -> None:
        hand.status = ST_STOOD
        if self.rules.pontoon:
            self.pontoon_bonus(hand)

    def after_card(self, hand: Hand) -> None:
        total = hand.total
        n = len(hand.ranks)
        if total > 21:
            hand.status = ST_BUST
            hand.decide("lose", -hand.stake)
        elif hand.split_aces and n == 2:
            if not self.can_resplit_aces(hand):
                self.stand(hand)
        elif hand.doubled or total == 21:
            self.stand(hand)

    def pontoon_bonus(self, hand: Hand) -> None:
        """A Pontoon bonus hand collects at once and cannot lose afterwards."""
        chart = self.rules.bonus
        n = len(hand.ranks)
        if n >= 5:
            hand.decide("win", hand.stake * chart["five_card_charlie"] * 2 ** (n - 5), "five_card_charlie")
        elif n == 3 and hand.ranks == ["7", "7", "7"]:
            hand.decide("win", hand.stake * chart["three_sevens"], "three_sevens")
        elif n == 3 and sorted(hand.ranks) == ["6", "7", "8"]:
            hand.decide("win", hand.stake * chart["six_seven_eight"], "six_seven_eight")

    # -- stage transitions ----------------------------------------------------------------
    def after_deal(self) -> None:
        r = self.rules
        if r.pontoon:
            if is_natural(self.dealer_ranks):
                self.dealer_natural = True
                self.phase = PH_DONE
            else:
                self.no_dealer_natural()
                self.start_players()
            return
        if self.dealer_ranks[0] == "A" and r.insurance:
            self.insurance_queue = [s for s in self.seats if self.main[s].amount >= 2]
            if self.insurance_queue:
                self.phase = PH_INSURANCE
                return
        self.to_peek()

    def to_peek(self) -> None:
        up = self.dealer_ranks[0]
        if up == "A" or up in TEN_RANKS:
            self.phase = PH_PEEK
        else:
            self.no_dealer_natural()
            self.start_players()

    def no_dealer_natural(self) -> None:
        """The dealer cannot hold a natural: every player natural is paid at once."""
        r = self.rules
        for seat in self.seats:
            hand = self.hands[seat][0]
            if hand.status is ST_NATURAL:
                if r.pontoon:
                    hand.decide("win", hand.stake * r.bonus["natural"], "natural")
                else:
                    num, den = r.blackjack_pays
                    hand.decide("win", pay_ratio(hand.stake, num, den, r.blackjack_rounding), "natural")

    def start_players(self) -> None:
        self.phase = PH_PLAYERS
        self.turn = 0
        self.current = None
        self.advance_players()

    def advance_players(self) -> None:
        """Find the first open hand from the current seat on, or hand over to the dealer."""
        while self.turn < len(self.seats):
            for hand in self.hands[self.seats[self.turn]]:
                if hand.status is ST_OPEN:
                    self.current = hand
                    return
            self.turn += 1
        self.current = None
        self.to_dealer()

    def live_hands(self) -> bool:
        return any(h.status is ST_STOOD and h.result is None for hs in self.hands.values() for h in hs)

    def to_dealer(self) -> None:
        if not self.rules.pontoon:
            self.phase = PH_HOLE
        elif self.live_hands():
            self.phase = PH_DEALER_ACTION
        else:
            self.phase = PH_DONE

    # -- the answer -----------------------------------------------------------------------
    def settle_hands(self) -> None:
        r = self.rules
        if self.dealer_natural:
            for hands in self.hands.values():
                for hand in hands:
                    if hand.result is not None:
                        continue
                    if hand.status is ST_NATURAL:
                        if r.pontoon:  # "the player pays just the amount of his bet"
                            hand.decide("lose", -hand.stake)
                        else:
                            hand.decide("push", 0)
                    else:
                        hand.decide("lose", -hand.stake * (r.dealer_natural_collects if r.pontoon else 1))
            return
        total, _ = self.dealer_total()
        bust = total > 21
        for hands in self.hands.values():
            for hand in hands:
                if hand.result is not None:
                    continue
                mine = hand.total
                if bust or mine > total:
                    hand.decide("win", hand.stake)
                elif mine == total and not r.pontoon:
                    hand.decide("push", 0)
                else:  # Pontoon: ties pay the dealer
                    hand.decide("lose", -hand.stake)

    def rows(self) -> list[Json]:
        """One row per bet whose result is known, and a row per insurance bet once the peek is made."""
        out: list[Json] = []
        for bet in self.bets:
            seat = bet.seat
            hands = self.hands[seat]
            if len(hands) == 1:
                hand = hands[0]
                if hand.result is not None:
                    paid = _paid_as(hand)
                    parts = [{"hand": 0, "stake": hand.stake, "result": hand.result, "net": hand.net, **paid}]
                    out.append(bet_result(bet, hand.result, hand.net or 0, staked=hand.stake, hands=parts, **paid))
            elif all(h.result is not None for h in hands):
                net = sum(h.net or 0 for h in hands)
                result = "win" if net > 0 else "lose" if net < 0 else "push"
                parts = [
                    {"hand": h.index, "stake": h.stake, "result": h.result, "net": h.net, **_paid_as(h)} for h in hands
                ]
                out.append(bet_result(bet, result, net, staked=sum(h.stake for h in hands), hands=parts))
            taken = self.insurance.get(seat, 0)
            if taken and self.peek is not None:
                ins = Bet(f"{bet.id}:insurance", seat, INSURANCE_BET, taken, {"insures": bet.id})
                if self.peek == "blackjack":
                    out.append(bet_result(ins, "win", 2 * taken, insures=bet.id))
                else:
                    out.append(bet_result(ins, "lose", -taken, insures=bet.id))
        return out

    def hands_doc(self) -> Json:
        total, soft = self.dealer_total() if self.dealer_ranks else (0, False)
        dealer: Json = {
            "cards": list(self.dealer),
            "total": total,
            "soft": soft,
            "blackjack": self.dealer_natural,
            "bust": total > 21,
        }
        if self.rules.pontoon:
            dealer["seat"] = self.rules.banker_seat
        doc: Json = {DEALER: dealer}
        for seat in self.seats:
            for hand in self.hands[seat]:
                row: Json = {
                    "seat": seat,
                    "hand": hand.index,
                    "cards": list(hand.cards),
                    "total": hand.total,
                    "soft": hand.soft,
                    "stake": hand.stake,
                    "doubled": hand.doubled,
                    "status": hand.status.value,
                    "result": hand.result,
                    "net": hand.net,
                }
                row.update(_paid_as(hand))
                doc[self.to_of(hand)] = row
        return doc

    def report(self) -> RoundResult:
        if self.phase is not PH_DONE:
            step = self.next_step()
            assert step is not None
            return awaiting(step, hands=self.hands_doc(), bets=self.rows())
        self.settle_hands()
        rows = self.rows()
        total, _ = self.dealer_total()
        outcome: Json = {"dealer_total": total, "dealer_blackjack": self.dealer_natural, "dealer_bust": total > 21}
        if self.dealer_natural:
            say = speech("dealer_blackjack")
        elif total > 21:
            say = speech("dealer_busts", n=total)
        else:
            say = speech("dealer_total", n=total)
        if not self.rules.pontoon:
            return settled(hands=self.hands_doc(), outcome=outcome, bets=rows, house=banked_house(rows), say=say)
        banker = self.rules.banker_seat
        next_banker = banker
        if not self.dealer_natural:
            for seat in self.seats:  # the natural nearest the dealer's left takes the bank
                if self.hands[seat][0].status is ST_NATURAL:
                    next_banker = seat
                    break
        outcome.update(next_banker=next_banker, bank_passes=next_banker != banker)
        return settled(
            hands=self.hands_doc(),
            outcome=outcome,
            bets=rows,
            house={"net": 0, "commission": 0, "rake": 0},
            banker={"seat": banker, "net": -sum(r["net"] for r in rows)},
            say=say,
        )
