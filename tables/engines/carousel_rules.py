"""Carousel's rule settings and bet types (its engines are in :mod:`tables.engines.carousel`)."""

from __future__ import annotations

from tables.engines.base import LIMIT_SETTINGS, BetSpec, Setting, SettingKind, rounding_setting
from tables.engines.inputs import BetField, FieldKind
from tables.engines.money import Rounding
from tables.engines.speech import speech
from tables.engines.triangle import MAX_SEAT

__all__ = ["BASE_SETTINGS", "COUNT_SPEC", "HIGH_CARD_CARRY", "HIGH_CARD_SPEC", "LIMIT_SETTINGS", "LIVING_WIN_PAYS",
           "LIVING_WIN_SPEC", "PONY_CARRY", "PONY_SPEC", "SEATS"]

BASE_SETTINGS = (
    Setting("foundations", SettingKind.INT, 6, "hands (horses) dealt at the start of a game", minimum=2, maximum=8),
    Setting(
        "limit", SettingKind.INT, 500, "the table limit: every pool bet stakes exactly this, minor units", minimum=1
    ),
    Setting(
        "chip", SettingKind.INT, 1, "smallest chip in play, minor units: shares and rake are whole chips", minimum=1
    ),
    Setting(
        "rake_bp",
        SettingKind.INT,
        1000,
        "the house's take of each non-zero carry, basis points",
        minimum=0,
        maximum=10_000,
    ),
    rounding_setting("rake_rounding", Rounding.UP, "rounding of the rake to a whole chip (up: the rule book's rule)"),
    Setting(
        "carry_in",
        SettingKind.INT,
        0,
        "chips carried into this game's count pool by the last game (filled by the service from the ledger)",
        minimum=0,
    ),
    Setting(
        "button",
        SettingKind.INT,
        1,
        "seat of the button: count bets go in seat order from it",
        minimum=1,
        maximum=MAX_SEAT,
    ),
)
SEATS = Setting(
    "seats", SettingKind.INT, None,
    "the table's seats (filled by the service): with them the engine knows whose turn it is to bet or pass; "
    "without, count bets need only come in seat order",
    minimum=1, maximum=MAX_SEAT,
)
PONY_CARRY = Setting(
    "pony_carry_in",
    SettingKind.INT,
    0,
    "chips carried into this game's pony pool by the last game (filled by the service from the ledger)",
    minimum=0,
)
HIGH_CARD_CARRY = Setting(
    "high_card_carry_in",
    SettingKind.INT,
    0,
    "chips carried into this game's high card pool by the last game (filled by the service from the ledger)",
    minimum=0,
)
LIVING_WIN_PAYS = Setting(
    "living_win_pays", SettingKind.INT, 6, "the house-backed living-win bet pays N to 1", minimum=1, maximum=100
)

HAND_FIELD = BetField("hand", FieldKind.CHOICE, "Hand", options=tuple((h, speech("label_hand", n=h)) for h in range(1, 9)))
COUNT_SPEC = BetSpec(
    "How many hands survive the next deal (0 to the running hands); stakes exactly the limit; "
    "the right count splits the whole pot",
    required=("number",),
    limits_apply=False,
    fields=(BetField("number", FieldKind.INT, "Hands to survive", minimum=0, maximum=8),),
)
PONY_SPEC = BetSpec(
    "First betting round: the hand that survives longest; stakes exactly the limit; "
    "a separate pool split by the winners",
    required=("hand",),
    limits_apply=False,
    fields=(HAND_FIELD,),
)
LIVING_WIN_SPEC = BetSpec(
    "First betting round, house-backed: the hand is the last one standing, alive; pays living_win_pays to 1",
    required=("hand",),
    fields=(HAND_FIELD,),
)
HIGH_CARD_SPEC = BetSpec(
    "A running hand draws this round's highest card, alone; stakes exactly the limit; "
    "a separate pool, ties carry to the next round",
    required=("hand",),
    limits_apply=False,
    fields=(HAND_FIELD,),
)
