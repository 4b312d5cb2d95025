"""Every dealer step of every game, in every language the screens speak: worded by tables/wording.py from
the engines' message ids and params (tables/engines/speech.py), with no code-like token (card codes, minor
units, snake_case, JSON) and no sentence left in the engine's English.

The rounds are the demo's (tables/simulation/autoplay, as ``manage.py demo`` plays them), each replayed
event by event so that every step a dealer meets is asked for its words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from tables import wording
from tables.engines import speech
from tables.engines.registry import available_games, get_engine
from tables.simulation.autoplay import play_round
from tests.engines.helpers import message_text, table_config
from tests.wording.scan import report, scan_text

ROUNDS = 4
LANGUAGES = [code for code, _ in settings.LANGUAGES]


@cache
def said(game: str) -> tuple[tuple[dict[str, Any], ...], tuple[Any, ...]]:
    """Every step due (``next``) and settled round's call (its ``say`` and ``message``) of the game's demo
    rounds, and every document that holds its labels (the steps, the bets' fields)."""
    engine = get_engine(game)
    config = table_config(game)
    rng = random.Random(f"prompts:{game}")
    first: list[dict[str, Any]] = []
    steps: dict[str, dict[str, Any]] = {}
    labels: dict[str, Any] = {}  # each label's English → a document that holds it
    for _ in range(ROUNDS):
        doc = play_round(engine, config, rng, events=first)
        for n in range(len(doc["events"]) + 1):
            out = engine.play(engine.load({**doc, "events": doc["events"][:n]})).to_json()
            for words in (out.get("next"), out):
                if words and words.get("say"):
                    steps.setdefault(repr(words["message"]), {"say": words["say"], "message": words["message"]})
            if out.get("next"):
                labels.update(dict.fromkeys(wording.labels_in(out["next"]), out["next"]))
        out = engine.play(engine.load(doc)).to_json()
        more, players = engine.carry_over(out)
        first = [{"players": players}] if players else []
        config = {**config, **more}
    for spec in engine.describe()["bet_types"].values():
        labels.update(dict.fromkeys(wording.labels_in(spec.get("fields", [])), spec.get("fields", [])))
    return tuple(steps.values()), tuple(labels.items())


def numbers(text: str) -> list[str]:
    """The numbers of a text as written, each whole (``€2,500.00`` → ``2,500.00``)."""
    return re.findall(r"\d(?:[\d.,\u00a0\u202f]*\d)?", text)


def parts(message: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every part of a message, nested ones (a poker hand, whose hand) included."""
    for part in message:
        yield part
        for name, kind in speech.kinds(part["id"]).items():
            value = part["params"][name]
            if kind == "words":
                yield from parts(value)
            elif kind in ("words_list", "words_or"):
                for item in value:
                    yield from parts(item)


@pytest.mark.parametrize("game", available_games())
def test_every_prompt_and_label_of_the_game_is_a_message_the_wording_layer_words(game):
    steps, labels = said(game)
    assert steps
    assert [s["say"] for s in steps if message_text(s["message"]) != s["say"]] == []  # say is the message
    assert [s["say"] for s in steps if wording.message_words(s["message"]) is None] == []
    assert [label for label, doc in labels if not wording.label_known(label) and label not in said_labels(doc)] == []


def said_labels(doc: Any) -> set[str]:
    """The labels and reasons of ``doc`` said as a message (``label_message``, ``why_message`` beside them),
    each checked to be the English of its message."""
    found: set[str] = set()
    if isinstance(doc, dict):
        for key in ("label", "why"):
            if isinstance(doc.get(key), str) and doc.get(f"{key}_message"):
                assert message_text(doc[f"{key}_message"]) == doc[key]
                assert wording.message_words(doc[f"{key}_message"]) is not None, doc[key]
                found.add(doc[key])
        for value in doc.values():
            found |= said_labels(value)
    elif isinstance(doc, list | tuple):
        for value in doc:
            found |= said_labels(value)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_dealer_step_reads_without_codes_or_cents_in_each_language(game, language, settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    steps, labels = said(game)
    with translation.override(language):
        worded = [(wording.prompt(s), s) for s in steps]
        labelled = [wording.labels_in(doc)[label] for label, doc in labels]
    found = [f for text in [w for w, _ in worded] + labelled for f in scan_text(text)]
    assert found == [], report(found, f"{game} in {language}")
    # no amount of a step shows as its minor units: each is in the house currency
    bare = []
    for words, step in worded:
        for part in parts(step["message"]):
            others = {str(v) for k, v in part["params"].items() if speech.kinds(part["id"])[k] != "money"}
            for name, kind in speech.kinds(part["id"]).items():
                amount = part["params"][name]
                if kind == "money" and amount >= 100 and str(amount) not in others and str(amount) in numbers(words):
                    bare.append((words, amount))
    assert bare == []


def test_every_message_an_engine_can_say_has_a_translatable_template_with_its_placeholders():
    missing = sorted(set(speech.MESSAGES) - set(wording.STEP_WORDS))
    unknown = sorted(set(wording.STEP_WORDS) - set(speech.MESSAGES))
    assert (missing, unknown) == ([], [])
    for message_id in speech.MESSAGES:
        english = speech.templates(message_id)
        screen = wording.step_templates(message_id)
        # a counted message (a ``count`` param) has a singular and a plural on screen, worded with ngettext
        assert len(screen) == (2 if "count" in speech.kinds(message_id) else 1) >= len(english), message_id
        for template in screen:
            assert set(speech.placeholders(template)) == set(speech.kinds(message_id)), (message_id, template)
            assert all(kind is None for kind in speech.placeholders(template).values()), template


def test_every_kind_of_param_is_one_the_wording_layer_words():
    used = {kind for message_id in speech.MESSAGES for kind in speech.kinds(message_id).values()}
    assert used - {None} <= speech.KINDS


def test_no_step_speaks_a_sentence_without_its_message():
    with pytest.raises(TypeError):
        speech.said("Seat 1: fold or raise 5000?")  # type: ignore[arg-type]


def words_of(message: speech.Speech) -> dict[str, Any]:
    return speech.said(message)


@pytest.mark.parametrize(
    ("message", "language", "words"),
    [
        (speech.speech("turn_against_bet", seat=1, amount=5000), "en", "Turn up a card against seat 1's bet of €50.00"),
        (speech.speech("turn_middle", seat=2, card="3C", card2="JD", amount=2000), "en",
         "Seat 2: turn the middle card (3♣ and J♦, bet €20.00)"),
        (speech.speech("community_paying", cards=["8D", "2S"], count=1), "en", "Community cards 8♦ 2♠: 1 paying hand"),
        (speech.speech("community_paying", cards=["8D", "2S"], count=3), "en", "Community cards 8♦ 2♠: 3 paying hands"),
        (speech.speech("in_hock", card="JH"), "en", "Deal complete: J♥ in hock"),
        (speech.speech("fold_or_raise", seat=1, amount=500000), "es", "Asiento 1: ¿se retira o sube 5\u00a0000,00\u00a0€?"),
        (speech.speech("banker_wins", n=7, m=4), "zh-hant", "莊贏，7 點對 4 點"),
        (speech.speech("player_wins", n=9, m=4), "zh-hant", "閒贏，9 點對 4 點"),
        (speech.speech("tie"), "zh-hant", "和局"),
        (speech.speech("banker_wins", n=7, m=4), "es", "Gana la banca, 7 a 4"),
        (speech.speech("player_wins", n=9, m=4), "es", "Gana el jugador, 9 a 4"),
        (speech.speech("tie"), "es", "Empate"),
        (speech.speech("dealer_behind", hand=speech.speech("hand_pair", ranks="K")).then(
            "; ", speech.speech("in_front", hand=speech.speech("hand_high", rank="A"))).then(
            ". ", speech.speech("seat_wins", seat=2)), "en", "Dealer: pair of kings behind; ace high in front. Seat 2 wins"),
    ],
)
def test_the_prompts_the_issue_named_carry_money_and_cards_in_the_readers_words(settings, message, language, words):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    with translation.override(language):
        assert wording.prompt(words_of(message)) == words


def test_a_step_stored_before_messages_still_shows_cards_not_codes():
    assert wording.prompt({"say": "Something new: QS and TD"}) == "Something new: Q♠ and 10♦"
    assert wording.prompt(None) == ""


REASONS = [  # each reason a seat may be given, as the engines say it
    speech.speech("why_round_over"), speech.speech("why_no_bets_now"),
    speech.speech("why_no_bets_now_step", say=speech.speech("deal_player_card", n=1).to_json()),
    speech.speech("why_seat_to_act", seat=2), speech.speech("why_bank_seat", seat=3),
    speech.speech("why_bank_holder", seat=3), speech.speech("why_has_ante", seat=1),
    speech.speech("why_has_three_bets", seat=1), speech.speech("why_has_wager", seat=1),
    speech.speech("why_has_bet", seat=4, bet="Pony (last hand standing)"),
    speech.speech("why_bets_before", seat=4, after=5, button=3), speech.speech("why_bets_first", seat=3, button=3),
    speech.speech("why_bets_next", seat=4, button=3),
    speech.speech("why_not_now_may", seat=1, bet="high_card", list=[2, 3]),
    speech.speech("why_not_now", seat=1, bet="living_win"),
    speech.speech("label_hand", n=3), speech.speech("label_seat_passes", seat=2),
    speech.speech("label_take_down_turn", seat=2), speech.speech("label_take_down_rank", seat=2, rank="Q"),
    speech.speech("horse_odds", suit="H", odds=3),
]


def test_every_label_and_reason_id_is_a_message_with_its_template():
    ids = {m for m in speech.MESSAGES if m.startswith(("label_", "why_"))}
    assert ids <= {r.parts[0].id for r in REASONS}
    assert ids <= set(wording.STEP_WORDS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_labels_and_reasons_are_worded_from_their_message_in_each_language(language):
    docs = [{"seat": 1, "why": r.text(), "why_message": r.to_json()} for r in REASONS]
    with translation.override(language):
        labels = wording.labels_in(docs)
    assert set(labels) == {r.text() for r in REASONS}
    found = [f for text in labels.values() for f in scan_text(text)]
    assert found == [], report(found, f"labels in {language}")
    if language != "en":
        assert [english for english, words in labels.items() if words == english] == []


def test_labels_in_english_read_as_the_engines_english_and_old_labels_as_given():
    with translation.override("en"):
        labels = wording.labels_in([{"why": r.text(), "why_message": r.to_json()} for r in REASONS])
        assert labels["Seat 4 already has a pony (last hand standing) bet"] == (
            "Seat 4 already has a pony (last hand standing) bet")
        assert labels["No bets now: Deal card 1 to the player"] == "No bets now: Deal card 1 to the player"
        assert labels["Seat 1 cannot place a high card bet now: seats 2, 3 may"] == (
            "Seat 1 cannot place a high card bet now: seats 2, 3 may")
        assert labels["Take down seat 2's bet on the queen"] == "Take down seat 2's bet on the queen"
        assert labels["Hearts 3-1"] == "Hearts 3-1"
        # a label stored before labels were messages: as the engine gave it, its cards as cards
        assert wording.labels_in({"label": "Seat 2 on QS"}) == {"Seat 2 on QS": "Seat 2 on Q♠"}
        assert wording.labels_in({"label": "Hit"}) == {"Hit": "Hit"}
