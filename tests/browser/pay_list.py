"""The pay list the dealer's screen must show, built from the engine's settlement on its own.

The round document is read back from the API after the round and replayed through the engine here;
these rows are then compared with the pay list on the screen, cell for cell. The rules are the
screen's (one line per bet, or per hand where a bet played several; the stake staked in all; pay or
collect the net; the commission), written again independently of static/croupier/dealer/paylist.js.
"""

from __future__ import annotations

from typing import Any

from tables.engines.registry import get_engine
from tables.wording import money

RESULTS = {"win": "Win", "lose": "Lose", "push": "Push", "anted": "Anted", "forfeit": "Forfeit", "void": "Void",
           "refund": "Returned", "surrender": "Surrender", "blackjack": "Blackjack", "natural": "Natural",
           "split": "Split", "lost": "Lose", "won": "Win"}
SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
DETAILS = ["rank", "number", "horse", "hand", "order", "coppered"]


def settle(document: dict[str, Any]) -> dict[str, Any]:
    """The engine's settlement of a round document (as the API returns it)."""
    engine = get_engine(document["game"])
    return engine.play(engine.load({k: document[k] for k in ("game", "config", "bets", "events")})).to_json()


def _rank(r: str) -> str:
    return "10" if r == "T" else r


def _detail(row: dict[str, Any]) -> str:
    parts = []
    for name in DETAILS:
        value = row.get(name)
        if value is None or value is False:
            continue
        if name == "coppered":
            parts.append("coppered")
        elif name == "rank":
            parts.append(_rank(value))
        elif name == "horse":
            parts.append(SUITS.get(value, str(value).replace("_", " ").capitalize()))
        elif isinstance(value, list):
            parts.append(" ".join(_rank(v) for v in value))
        elif not isinstance(value, dict):
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def _what(net: int) -> str:
    return f"Pay {money(net)}" if net > 0 else f"Collect {money(-net)}" if net < 0 else "Stake stays"


def _handed(state: dict[str, Any], row: dict[str, Any]) -> tuple[str, int, int]:
    """A pot or pool game's line (or a faro turn's): what the dealer hands over, and what of it moves now
    (pay, collect); a move made as the bet was decided during the deal is recalled in the past tense."""
    moved = row["handover"]
    where = "the tray" if moved.get("via") == "house" else "the pot" if "pot" in state else "the pool"
    done = moved["when"] == "deal"
    if moved["pay"] > 0:
        words = f"{'Paid' if done else 'Pay'} {money(moved['pay'])}" + ("" if where == "the tray" else f" from {where}")
        return words, 0 if done else moved["pay"], 0
    if moved["take"] > 0:
        words = f"{'Took' if done else 'Take'} {money(moved['take'])}" + ("" if where == "the tray" else f" into {where}")
        return words, 0, 0 if done else moved["take"]
    if moved["at_bet"] > 0:
        return (f"Anted {money(moved['at_bet'])} at the start" if row["result"] == "anted" else f"In {where} since the bet"), 0, 0
    return "Stake stays", 0, 0


def expected_rows(state: dict[str, Any], labels: dict[str, str]) -> list[list[str]]:
    """Seat, bet, stake, result, pay / collect, commission: as the screen's pay list shows them.
    ``labels``: bet type → the name the layout gives it."""
    rows = sorted(state["bets"], key=lambda r: (r.get("seat") or 0, str(r["id"])))
    out = []
    for r in rows:
        bet = " · ".join(p for p in (labels.get(r["type"], r["type"].replace("_", " ").capitalize()), _detail(r)) if p)
        hands = r.get("hands")
        if isinstance(hands, list) and len(hands) > 1:
            for i, hand in enumerate(hands, start=1):
                commission = hand.get("commission") or 0
                out.append([f"Seat {r['seat']}, hand {i}", bet, money(hand["stake"]),
                            RESULTS.get(hand["result"], hand["result"].replace("_", " ").capitalize()),
                            _what(hand["net"]), money(commission) if commission else "—"])
        else:
            commission = r.get("commission") or 0
            what = _handed(state, r)[0] if r.get("handover") else _what(r["net"])
            out.append([f"Seat {r['seat']}", bet, money(r.get("staked") or r["amount"]),
                        RESULTS.get(r["result"], r["result"].replace("_", " ").capitalize()), what,
                        money(commission) if commission else "—"])
    return out


def expected_totals(state: dict[str, Any]) -> str:
    """The totals line: what the lines pay and collect now, from the settlement's nets (or, where a line
    says what is handed over, from that)."""
    pay = collect = 0
    for r in state["bets"]:
        if r.get("handover"):
            _, p, c = _handed(state, r)
            pay, collect = pay + p, collect + c
            continue
        hands = r.get("hands")
        nets = [h["net"] for h in hands] if isinstance(hands, list) and len(hands) > 1 else [r["net"]]
        pay += sum(n for n in nets if n > 0)
        collect -= sum(n for n in nets if n < 0)
    return f"Pay {money(pay)} · collect {money(collect)}"
