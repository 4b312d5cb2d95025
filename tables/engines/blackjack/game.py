"""The blackjack and Pontoon engines: settings, bet types, the play of a round document, house edges."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

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
    rounding_setting,
)
from tables.engines.blackjack.edge import SIMULATED_ROUNDS, simulate
from tables.engines.blackjack.rules import DOUBLE_ON, INSURANCE_BET, MAIN_BET, Rules
from tables.engines.blackjack.table import BlackjackTable
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.money import Rounding
from tables.engines.profile import Bank, Family, GameProfile, Watch
from tables.engines.result import Line, RoundResult

# -- the engines ---------------------------------------------------------------------------
_SHARED = (
    Setting(
        "double_on",
        SettingKind.CHOICE,
        "9_10_11",
        "two-card hard totals that may double: 9_10_11 (rule book), 10_11, or any_two",
        choices=DOUBLE_ON,
    ),
    Setting("double_after_split", SettingKind.BOOL, True, "whether a split hand may double (rule book silent)"),
    Setting(
        "max_splits",
        SettingKind.INT,
        3,
        "splits one seat may make in a round (3: up to four hands)",
        minimum=0,
        maximum=7,
    ),
    Setting("resplit_aces", SettingKind.BOOL, False, "whether split aces that draw an ace may split again"),
    Setting(
        "split_unlike_tens",
        SettingKind.BOOL,
        False,
        "whether two unlike ten-cards (J-Q) may split; the rule book says same denomination",
    ),
)


class Blackjack(Engine):
    name = "blackjack"
    title = "Blackjack (permanent bank)"
    settings = (
        Setting(
            "decks",
            SettingKind.INT,
            6,
            "52-card packs in the shoe (the rule book: six is the most popular)",
            minimum=1,
            maximum=8,
        ),
        Setting(
            "seats", SettingKind.INT, 7, "seats at the table (the rule book: up to seven players)", minimum=1, maximum=7
        ),
        Setting("dealer_hits_soft_17", SettingKind.BOOL, False, "H17 instead of the rule book's stand on all 17s"),
        Setting(
            "blackjack_pays_numerator",
            SettingKind.INT,
            3,
            "a natural pays numerator:denominator (3:2)",
            minimum=1,
            maximum=10,
        ),
        Setting(
            "blackjack_pays_denominator",
            SettingKind.INT,
            2,
            "a natural pays numerator:denominator (3:2)",
            minimum=1,
            maximum=10,
        ),
        rounding_setting(
            "blackjack_rounding", Rounding.DOWN, "rounding of a natural's pay on an odd bet (down: 3:2 on 5 pays 7)"
        ),
        *_SHARED,
        Setting("insurance", SettingKind.BOOL, True, "insurance (up to half the bet, pays 2:1) against an ace"),
        Setting(
            "surrender",
            SettingKind.CHOICE,
            "none",
            "late surrender after the peek: none or late",
            choices=("none", "late"),
        ),
        rounding_setting(
            "surrender_rounding",
            Rounding.DOWN,
            "rounding of the half bet a surrender gives back (down: the house keeps the odd chip)",
        ),
        *LIMIT_SETTINGS,
    )
    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(MAIN_BET,), during_deal=(INSURANCE_BET,),
                          watch=Watch.COUNT, watch_bets=(MAIN_BET,))
    bet_types = {
        MAIN_BET: BetSpec("The seat's bet: wins 1:1, a natural pays blackjack_pays; doubles and splits add stakes"),
        INSURANCE_BET: BetSpec(
            "Taken with the action 'insurance' when the dealer shows an ace; pays 2:1. "
            "Appears in results as '<bet id>:insurance'",
            limits_apply=False,
        ),
    }

    def stakes_taken_by_choices(self, lines: Sequence[Line], events: Sequence[Mapping[str, Any]],
                                placed: Collection[str]) -> list[tuple[Bet, int]]:
        """Insurance is put down by the ``insurance`` action, not placed as a bet: its line
        (``"<bet id>:insurance"``) becomes a bet of the event that took it (the action named after
        the line's type, at its seat)."""
        taken = []
        for line in lines:
            if line.id in placed:
                continue
            index = next((i for i, e in enumerate(events)
                          if e.get("action") == line.type and e.get("seat") == line.seat), None)
            if index is not None:
                taken.append((Bet(line.id, line.seat, line.type, line.amount, dict(line.extras)), index))
        return taken
    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.type == INSURANCE_BET:
            raise EngineError(
                "bad_bet_type",
                f"bet {bet.id}: insurance is taken with the action 'insurance' when the dealer shows an ace",
                field=f"{where}.type", params={"bet": bet.id},
            )

    def rules(self, config: Mapping[str, Any]) -> Rules:
        return Rules.of(config, pontoon=False)

    def play(self, rnd: Round) -> RoundResult:
        table = BlackjackTable(self.rules(rnd.config), rnd.bets)
        for index, event in enumerate(rnd.events):
            table.apply(event, index)
        return table.report()

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1, rounds: int | None = None) -> list[EdgeRow]:
        """The main bet by seeded simulation (``rounds``, default :data:`SIMULATED_ROUNDS`); insurance exactly."""
        cfg = self.resolve_config(config)
        rules = self.rules(cfg)
        rounds = rounds or SIMULATED_ROUNDS
        mean, half = simulate(rules, rounds, seed)
        num, den = rules.blackjack_pays
        method = (
            f"seeded simulation (random.Random({seed})) of {rounds:,} rounds: one seat playing the "
            f"published multi-deck basic strategy for these rules, {rules.decks}-deck shoe cut at 75 %; "
            "95 % CI from the per-round spread"
        )
        rows = [
            EdgeRow(
                MAIN_BET,
                -mean,
                method,
                ci95=(-mean - half, -mean + half),
                note=f"per initial bet; natural pays {num}:{den}, no insurance taken",
            )
        ]
        if rules.insurance:
            tens, others = 16 * rules.decks, 52 * rules.decks - 1
            p = Fraction(tens, others)
            rows.append(
                EdgeRow(
                    INSURANCE_BET,
                    1 - 3 * p,
                    f"exact: {tens} ten-cards among the {others} cards other than the up ace",
                    note="off the top of the shoe, ignoring the players' cards",
                )
            )
        return rows


class Pontoon(Engine):
    name = "pontoon"
    title = "Pontoon (blackjack with a changing bank)"
    # a player holds the bank; the house is no party to the bets
    profile = GameProfile(Family.PLAYER_BANKED, Deck.STANDARD, before_deal=(MAIN_BET,), bank=Bank.SEAT,
                          watch=Watch.COUNT, watch_bets=(MAIN_BET,))
    settings = (
        Setting(
            "decks", SettingKind.INT, 1, "52-card packs (the rule book: a single pack is always used)", minimum=1, maximum=2
        ),
        Setting(
            "seats",
            SettingKind.INT,
            14,
            "seats at the table, the banker's included (the rule book: 2 to 14)",
            minimum=2,
            maximum=14,
        ),
        Setting(
            "banker_seat",
            SettingKind.INT,
            None,
            "the seat holding the bank this round (required)",
            minimum=1,
            maximum=14,
        ),
        Setting(
            "bonus_pays",
            SettingKind.CHART,
            {"natural": 2, "five_card_charlie": 2, "three_sevens": 3, "six_seven_eight": 2},
            "the banker pays N times the bet: a natural; five cards of 21 or under (doubling for each card "
            "more); 7-7-7; 8-7-6",
        ),
        Setting(
            "dealer_natural_collects",
            SettingKind.INT,
            2,
            "a banker's natural collects N times each bet (a player natural pays just the bet)",
            minimum=1,
            maximum=5,
        ),
        *_SHARED,
        *LIMIT_SETTINGS,
    )
    bet_types = {MAIN_BET: BetSpec("The seat's bet against the banker; doubles and splits add stakes")}

    def carry_over(self, previous: Mapping[str, Any] | None) -> tuple[Json, list[Any] | None]:
        """The bank passes: the next round opens with the banker the last one named (``outcome.next_banker``)."""
        outcome = previous.get("outcome") if isinstance(previous, Mapping) else None
        if isinstance(outcome, Mapping) and isinstance(outcome.get("next_banker"), int):
            return {"banker_seat": outcome["next_banker"]}, None
        return super().carry_over(previous)

    def bank_seat(self, rnd: Round) -> int | None:
        banker = rnd.config.get("banker_seat")
        return banker if isinstance(banker, int) else None
    def rules(self, config: Mapping[str, Any]) -> Rules:
        return Rules.of(config, pontoon=True)

    def check_config(self, config: dict[str, Any]) -> None:
        banker = config["banker_seat"]
        if banker is not None and banker > config["seats"]:
            raise EngineError(
                "bad_config",
                f"config.banker_seat must be a seat from 1 to {config['seats']}",
                field="config.banker_seat", params={"seats": config['seats']},
            )

    def play(self, rnd: Round) -> RoundResult:
        if rnd.config["banker_seat"] is None:
            raise EngineError(
                "bad_config", "pontoon needs config.banker_seat: the seat holding the bank", field="config.banker_seat"
            )
        table = BlackjackTable(self.rules(rnd.config), rnd.bets)
        for index, event in enumerate(rnd.events):
            table.apply(event, index)
        return table.report()

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1, rounds: int | None = None) -> list[EdgeRow]:
        """The banker's edge over one punter, by seeded simulation."""
        cfg = self.resolve_config(config)
        rules = self.rules(cfg)
        rounds = rounds or SIMULATED_ROUNDS
        mean, half = simulate(rules, rounds, seed)
        method = (
            f"seeded simulation (random.Random({seed})) of {rounds:,} rounds: one punter playing casino "
            "basic strategy (standing on any charlie it could bust), the banker drawing to 17; "
            f"{rules.decks}-pack shuffled at 75 %; 95 % CI from the per-round spread"
        )
        return [
            EdgeRow(
                MAIN_BET,
                -mean,
                method,
                ci95=(-mean - half, -mean + half),
                note="the banker's edge: a player holds the bank, not the house",
            )
        ]



BLACKJACK = Blackjack()
PONTOON = Pontoon()
ENGINES: dict[str, Engine] = {"blackjack": BLACKJACK, "pontoon": PONTOON}
