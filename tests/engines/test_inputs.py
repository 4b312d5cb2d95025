"""Every ``next`` of every game says what the dealer enters, and the event it describes is taken.

Seeded believable rounds of every registered game (the autoplay simulator) are replayed event by
event; at each step the engine's ``next.input`` must be one of the known kinds, complete, and
every event it describes — each option, the amount at both bounds, the house-way split, the dice,
a bid and the sale, each bet it opens — must be accepted by the engine right there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tables.engines.base import Engine
from tables.engines.errors import EngineError
from tables.engines.inputs import FieldKind, InputKind, fill, validate_input
from tables.engines.registry import available_games, get_engine
from tables.simulation.autoplay import play_round
from tests.engines.helpers import table_config

SEEDS = range(4)


def accepted(engine: Engine, doc: dict[str, Any], events: list[dict[str, Any]], event: dict[str, Any]) -> None:
    """Posting ``event`` after ``events`` is taken (raises the engine's refusal otherwise)."""
    try:
        engine.play(engine.load({**doc, "events": [*events, event]}))
    except EngineError as exc:
        raise AssertionError(f"{engine.name}: {event} refused after {len(events)} events: {exc.message}") from None


def field_value(field: dict[str, Any]) -> Any:
    """A value a dealer could enter in a bet field: the first allowed."""
    kind = field["kind"]
    if kind == FieldKind.RANK:
        return field["ranks"][0]["value"]
    if kind == FieldKind.RANKS:
        return [r["value"] for r in field["ranks"]][: field["count"]]
    if kind == FieldKind.INT:
        return field["min"]
    if kind == FieldKind.CHOICE:
        return field["options"][0]["value"]
    assert kind == FieldKind.BOOL
    return False


def events_described(inp: dict[str, Any], engine: Engine, config: dict[str, Any], actual: dict[str, Any] | None):
    """Every complete event the input describes (for a card: the card actually dealt next, with its ``to``)."""
    kind = inp["kind"]
    for opt in inp.get("options", []):
        yield opt["event"]
    if kind == InputKind.CARD and actual is not None and "card" in actual:
        yield {"card": actual["card"], **({"to": inp["to"]} if inp["to"] is not None else {})}
    if kind == InputKind.AMOUNT:
        yield fill(inp["event"], inp["path"], inp["min"])
        yield fill(inp["event"], inp["path"], inp["max"])
    if kind == InputKind.SET_HAND:
        assert engine.check_set(inp["cards"], inp["house_way"]) is None  # the house way never fouls
        yield {**inp["event"], **inp["house_way"]}
        yield inp["house_way_event"]
    if kind == InputKind.DICE:
        yield {"dice": [inp["faces"]] * inp["count"]}
    if kind == InputKind.BID:
        high = inp["high_bid"]
        seat = 2 if high is not None and high["seat"] == 1 else 1
        yield {"bid": {"seat": seat, "horse": inp["horses"][0]["value"], "amount": inp["min"]}}
        if inp["sell"] is not None:
            yield inp["sell"]
    for bet_open in inp.get("bets_open", []):
        bet = dict(bet_open["event"]["bet"])
        after = (bet_open.get("order") or {}).get("after")  # bets in seat order: a seat after the last to bet
        taken = bet_open.get("seats_taken") or []
        seats = bet_open["seats"] or [s for s in range((after or 0) + 1, 100) if s not in taken]
        bet["seat"] = seats[0]
        bet["amount"] = bet_open["amount"] or config.get("min_bet") or 1
        for field in bet_open["fields"]:
            bet[field["name"]] = field_value(field)
        yield {"bet": bet}


# tables with more rules switched on, played longer, so the rarer steps come up too: insurance and
# the peek, chemin de fer's draw-or-stand, the re-ante of an emptied pot, pusoy's surrender
VARIANTS: dict[str, tuple[dict[str, Any], int]] = {
    "blackjack": ({"surrender": "late"}, 16),
    "chemin_de_fer": ({"drawing": "free"}, 12),
    "red_dog": ({}, 12),
    "in_between": ({}, 12),
    "pusoy": ({"surrender": "players_and_dealer", "royalties": True}, 6),
}


def steps_of(game: str, config: dict[str, Any], seeds: range) -> Counter[str]:
    """Replay seeded rounds step by step, checking each ``next.input``; the kinds and options met."""
    engine = get_engine(game)
    met: Counter[str] = Counter()
    for seed in seeds:
        # given a believable seeded round of the game, played to the end
        doc = play_round(engine, config, random.Random(f"inputs:{game}:{seed}"))
        doc_events = doc["events"]
        for i in range(len(doc_events) + 1):
            # when the round is replayed up to event i
            out = engine.play(engine.load({**doc, "events": doc_events[:i]})).to_json()
            step = out["next"]
            if step is None:
                assert i == len(doc_events)
                continue
            # then next carries a well-formed input of a known kind…
            inp = step.get("input")
            assert validate_input(inp) == [], (game, i, step)
            met[inp["kind"]] += 1
            met.update(f"{inp['kind']}:{o['value']}" for o in inp.get("options", []))
            met.update("bets_open" for _ in inp.get("bets_open", [])[:1])
            # …and every event it describes is taken at this point
            actual = doc_events[i] if i < len(doc_events) else None
            for event in events_described(inp, engine, config, actual):
                accepted(engine, doc, doc_events[:i], event)
    return met


# what each game's walk must meet at least; together, every kind of the closed set
MEETS: dict[str, set[str]] = {
    "baccarat": {"card"}, "chemin_de_fer": {"card"}, "trente_et_quarante": {"card"},
    "blackjack": {"card", "choice:hit", "choice:stand"}, "pontoon": {"card", "choice:hit"},
    "pai_gow_poker": {"dice", "card", "set_hand"}, "pusoy": {"card", "set_hand"},
    "caribbean_stud": {"card", "choice:raise", "choice:fold"}, "let_it_ride": {"card", "choice:let_it_ride"},
    "red_dog": {"card", "amount"}, "in_between": {"card", "amount"},
    "faro": {"card", "bets_open", "card:remove"}, "stuss": {"card", "bets_open", "card:remove"},
    "carousel": {"card", "bets_open"}, "pony": {"card", "bets_open"}, "merry_go_round": {"card", "bets_open"},
    "horse_race": {"card", "bets_open"}, "calcutta_horse_race": {"card", "bid"},
}  # fmt: skip


def test_the_walks_meet_every_input_kind_of_every_game():
    assert set(MEETS) == set(available_games())
    kinds = {name.split(":")[0] for name in set().union(*MEETS.values())}
    assert {k.value for k in InputKind} - {InputKind.BETS} <= kinds  # "bets" is the round service's, before the deal


@pytest.mark.parametrize("game", available_games())
def test_every_next_names_an_input_whose_events_the_engine_takes(game):
    met = steps_of(game, table_config(game), SEEDS)
    assert MEETS[game] <= set(met), MEETS[game] - set(met)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_the_rarer_steps_name_inputs_too(game):
    extra, rounds = VARIANTS[game]
    met = steps_of(game, {**table_config(game), **extra}, range(100, 100 + rounds))
    expected = {
        "blackjack": {"amount", "amount:no_insurance", "choice:no_blackjack", "choice:surrender"},
        "chemin_de_fer": {"choice:draw", "choice:stand"},
        "red_dog": {"amount:forfeit", "choice:ante"},
        "in_between": {"amount", "choice:ante"},
        "pusoy": {"set_hand", "set_hand:surrender"},
    }[game]
    assert expected <= set(met), expected - set(met)


@pytest.mark.parametrize("game", available_games())
def test_every_bet_field_says_how_it_is_entered(game):
    # given the game's vocabulary
    described = get_engine(game).describe()["bet_types"]
    for name, spec in described.items():
        # then every extra field a bet type takes has a kind the bet panel draws
        fields = {f["name"]: f for f in spec["fields"]}
        assert set(fields) == set(spec["required"]) | set(spec["optional"]), name
        for field in fields.values():
            assert field["kind"] in {k.value for k in FieldKind}
            assert field["label"]


def test_a_set_hand_that_fouls_is_refused_saying_why():
    # given a pai gow seat's seven cards and a pusoy seat's thirteen
    pai_gow, pusoy = get_engine("pai_gow_poker"), get_engine("pusoy")
    seven = ["KS", "KD", "9H", "9C", "5S", "4D", "2C"]
    thirteen = ["AS", "AH", "KD", "KC", "2S", "3D", "4C", "5H", "7S", "8D", "9C", "JH", "QS"]
    # when hands are set with the front above the back, or the middle above the back
    # then the check says why in a dealer's words; a good setting passes
    assert pai_gow.check_set(seven, {"back": ["9H", "9C", "5S", "4D", "2C"], "front": ["KS", "KD"]}) == (
        "the front's pair of kings outranks the back's pair of nines"
    )
    assert pai_gow.check_set(seven, {"back": ["KS", "KD", "5S", "4D", "2C"], "front": ["9H", "9C"]}) is None
    assert pusoy.check_set(thirteen, {"back": ["2S", "3D", "4C", "5H", "7S"],
                                      "middle": ["AS", "AH", "8D", "9C", "JH"], "front": ["KD", "KC", "QS"]}) == (
        "the middle's pair of aces outranks the back's seven-five high"
    )
    assert pusoy.check_set(thirteen, {"back": ["AS", "AH", "8D", "9C", "JH"],
                                      "middle": ["KD", "KC", "2S", "3D", "4C"], "front": ["5H", "7S", "QS"]}) is None
    # and a setting that does not use the seat's cards is refused
    with pytest.raises(EngineError) as refused:
        pai_gow.check_set(seven, {"back": ["AS", "KD", "5S", "4D", "2C"], "front": ["9H", "9C"]})
    assert refused.value.code == "bad_set"
    assert refused.value.params == {"cards": seven}
