"""Blackjack with a permanent bank, and Pontoon (blackjack with a changing bank) as a variant.

The dealer enters the cards in dealing order: each seat's first card (seat order), the dealer's
up card, each seat's second card. The hole card is entered when it is turned over: after every
seat has acted, or at once when the peek finds a blackjack. With an ace or a ten up the dealer
peeks (``{"action": "peek", "result": "blackjack" | "no_blackjack"}``), after offering
insurance when the ace shows. After that the engine says whose turn it is and what they may do,
or where the next card goes, until the dealer has drawn to 17 and every bet is settled.

>>> doc = {"game": "blackjack", "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 100}],
...        "events": [{"card": "TS"}, {"card": "6H"}, {"card": "9D"},
...                   {"seat": 1, "action": "stand"}, {"card": "KC"}]}
>>> out = BLACKJACK.play(BLACKJACK.load(doc)).to_json()
>>> out["hands"]["seat:1"]["total"], out["hands"]["dealer"]["total"], out["next"]["say"]
(19, 16, 'Dealer draws on 16')
>>> doc["events"].append({"card": "8S"})
>>> out = BLACKJACK.play(BLACKJACK.load(doc)).to_json()
>>> out["status"], out["bets"][0]["result"], out["bets"][0]["net"], out["house"]["net"]
('settled', 'win', 100, -100)
"""

from __future__ import annotations

from tables.engines.blackjack.edge import PENETRATION, SIMULATED_ROUNDS, round_player, simulate
from tables.engines.blackjack.game import BLACKJACK, ENGINES, PONTOON, Blackjack, Pontoon
from tables.engines.blackjack.rules import (
    A_DOUBLE,
    A_HIT,
    A_INSURANCE,
    A_NO_INSURANCE,
    A_PEEK,
    A_SPLIT,
    A_STAND,
    A_SURRENDER,
    DEALER,
    DOUBLE_ON,
    INSURANCE_BET,
    MAIN_BET,
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
    VALUES,
    Action,
    Hand,
    LazyShoe,
    Phase,
    Rules,
    Status,
    hand_total,
    is_natural,
)
from tables.engines.blackjack.strategy import BasicStrategy
from tables.engines.blackjack.table import BlackjackTable

__all__ = ["A_DOUBLE", "A_HIT", "A_INSURANCE", "A_NO_INSURANCE", "A_PEEK", "A_SPLIT", "A_STAND", "A_SURRENDER", "Action", "BLACKJACK", "BasicStrategy", "Blackjack", "DEALER", "DOUBLE_ON", "ENGINES", "Hand", "INSURANCE_BET", "LazyShoe", "MAIN_BET", "ORDINALS", "PEEK_LABELS", "PEEK_RESULTS", "PENETRATION", "PH_DEAL", "PH_DEALER_ACTION", "PH_DEALER_CARD", "PH_DONE", "PH_HOLE", "PH_HOLE_BLACKJACK", "PH_INSURANCE", "PH_PEEK", "PH_PLAYERS", "PONTOON", "Phase", "Pontoon", "Rules", "SIMULATED_ROUNDS", "ST_BUST", "ST_NATURAL", "ST_OPEN", "ST_STOOD", "ST_SURRENDERED", "Status", "TEN_RANKS", "BlackjackTable", "VALUES", "hand_total", "is_natural", "round_player", "simulate"]
