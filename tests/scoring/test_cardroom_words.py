"""The card room's screens in the reader's language (issue 31): the rule settings on the opening form, a
sheet's settings, its deals' summaries and entries, the deal and correction forms — no English from the
games' texts, and no screen asks for JSON. Every setting, choice, chart line and summary phrase the games
declare (tables/scoring/phrases.py, marked ``N_``) has its words in each language the screens speak."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from cardroom.services import sheets
from tables.scoring import phrases
from tables.scoring.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
FOUR = ["ana", "bruno", "carla", "dario"]
LANGUAGES = ["zh-hant", "es"]
ENGLISH_RUN = re.compile(r"[a-z]+(?:[ '][a-z]+){2,}")
HIDDEN = re.compile(r"<(script|style)\b.*?</\1>", re.S)
TAG = re.compile(r"<[^>]+>")


def marked_messages() -> set[str]:
    """Every message the score sheets mark ``N_("…")`` (settings, choices, chart lines, summary phrases)."""
    found: set[str] = set()
    for path in (ROOT / "tables" / "scoring").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def engine_words() -> set[str]:
    """The English words of the games' own texts (settings' helps and names, choices, summary phrases)."""
    texts = [*phrases.HELPS, *phrases.HELPS.values(), *phrases.LABELS.values(), *phrases.CHOICES,
             *phrases.CHOICES.values(), *phrases.CHART_LINES.values(), *marked_messages()]
    words = {w for t in texts for w in re.findall(r"[a-z]+", t.lower().replace("_", " "))}
    return words - {"a", "i"}


def visible_text(page: str) -> str:
    return html.unescape(TAG.sub(" ", HIDDEN.sub(" ", page)))


def english_runs(page: str, vocabulary: set[str]) -> list[str]:
    """Runs of three or more lowercase English words, each a word of the games' texts (a player's name is not)."""
    return [run for run in ENGLISH_RUN.findall(visible_text(page))
            if all(w in vocabulary for w in re.split(r"[ ']", run)) and not set(run.split()) & set(FOUR)]


def test_every_setting_choice_and_chart_line_of_every_game_has_its_message():
    missing = []
    for name, game in all_games().items():
        for s in game.settings:
            if s.name not in phrases.LABELS:
                missing.append(f"{name}: label of {s.name}")
            if s.help not in phrases.HELPS:
                missing.append(f"{name}: help of {s.name}")
            missing += [f"{name}: choice {c}" for c in s.choices
                        if c not in phrases.CHOICES and not re.fullmatch(r"[2-9TJQKA]|10[SHDC]|[2-9TJQKA][SHDC]", c)]
            if isinstance(s.default, dict):
                missing += [f"{name}: line {k}" for k in s.default
                            if k not in phrases.CHART_LINES and not re.fullmatch(r"\d+(NT|[SHDC])", k)]
    assert missing == []


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES if code != "en"])
def test_every_settings_choice_and_summary_message_has_its_words_in_each_language(language):
    messages = marked_messages()
    assert set(phrases.HELPS.values()) | set(phrases.LABELS.values()) | set(phrases.CHOICES.values()) <= messages
    assert len(messages) > 100
    with translation.override(language):
        untranslated = sorted(m for m in messages if translation.gettext(m) == m)
    # the same in a language: a proper name (Sir Garnet), or facts without words ("%(n)s %(suit)s": 7 spades)
    assert [m for m in untranslated if not re.fullmatch(r"[A-Z][a-zü]+(?: [A-Z][a-zü]+)?", m)
            and re.search(r"[a-z]", re.sub(r"%\(\w+\)s", "", m))] == []


@pytest.fixture
def card_room(floor):
    """Sheets of several games at the dealer's table, each with deals (the last still open: it can be corrected)."""
    dealer, table = floor.dealer, floor.table

    def played(game, deals, *, config=None, players=FOUR, close=True):
        sheet = sheets.sheet_open(table_id=table.pk, game=game, players=players, config=config, actor=dealer)
        for entry in deals:
            sheets.deal_record(sheet_id=sheet.pk, entry=entry, actor=dealer)
        if close:
            sheets.sheet_close(sheet_id=sheet.pk, actor=dealer, reason="")
        return sheet.pk

    ids = [
        played("napoleon", [{"bidder": "ana", "bid": 3, "tricks": 4}, {"bidder": "bruno", "bid": "nap", "tricks": 4},
                            {"bidder": "carla", "revoke": "dario", "bid": 2}]),
        played("auction_hearts", [{"bid": {"player": "ana", "chips": 3}, "suit": "spades",
                                   "taken": {"ana": 0, "bruno": 5, "carla": 4, "dario": 4}}]),
        played("crazy_casino", [{"captured": {
            "ana": {"count": 30, "spades": 8, "aces": 3, "big_casino": True, "little_casino": False, "sweeps": 1},
            "bruno": {"count": 22, "spades": 5, "aces": 1, "big_casino": False, "little_casino": True, "sweeps": 0},
        }}], players=["ana", "bruno"]),
        played("carousel_rummy", [{"knocker": "ana", "hands": {"ana": {"deadwood": ["2S", "AD"]},
                                                               "bruno": {"deadwood": ["KS", "QD", "9C"]}}}],
               players=["ana", "bruno"]),
        played("auction_pitch", [
            {"pitcher": "ana", "bid": 2, "high": "ana", "low": "ana", "jack": "bruno", "game": "ana"},
            {"pitcher": "bruno", "bid": 3, "high": "bruno", "low": "ana", "jack": None, "game": "carla"},
            {"pitcher": "carla", "bid": 2, "high": "carla", "low": "bruno", "jack": "ana", "revoke": "bruno"},
            {"pitcher": "ana", "bid": 4, "high": "ana", "low": "ana", "jack": "ana", "game": "ana"},
        ], players=FOUR[:3], close=False),  # the smudge ends the game
        played("sellout", [{"pitcher": "carla", "bid": 3, "high": "carla", "low": "carla", "jack": None,
                            "game": "carla", "sold_by": "bruno"}], players=FOUR[:3]),
        played("cinch", [{"bidder": "ana", "bid": 6, "count": {"ana": 6, "bruno": 8}},
                         {"bidder": "bruno", "bid": 8, "count": {"ana": 7, "bruno": 7}}]),
        played("seven_up", [{"turned_jacks": 1, "high": "bruno", "low": "bruno"},
                            {"high": "ana", "low": "bruno", "jack": "ana", "counts": {"ana": 30, "bruno": 21},
                             "revoke": "bruno"}], players=FOUR[:2]),
        played("loo", [{"tricks": {"bruno": 2, "carla": 1}},
                       {"stood": ["bruno", "carla", "dario"], "miss": "dario", "tricks": {"bruno": 2, "dario": 1}},
                       {"stood": ["ana", "bruno", "carla"], "miss": "ana", "flush": "carla"}], players=FOUR),
        played("euchre", [{"passed": True}]),
        played("hearts", [
            {"taken": {"ana": {"hearts": 13, "queen": True}, "bruno": {"hearts": 0, "queen": False},
                       "carla": {"hearts": 0, "queen": False}, "dario": {"hearts": 0, "queen": False}}},
            {"penalty": ["bruno"]},
            {"taken": {"ana": {"hearts": 3, "queen": False}, "bruno": {"hearts": 4, "queen": True},
                       "carla": {"hearts": 6, "queen": False}, "dario": {"hearts": 0, "queen": False}}},
        ], config={"settlement": "sheet", "moon": "add_to_others"}, close=False),
    ]
    client = Client()
    client.force_login(dealer)
    return client, ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_rooms_screens_speak_the_readers_language_and_never_ask_for_json(card_room, language):
    client, ids = card_room
    vocabulary = engine_words()
    pages = {"/cardroom/": client.get("/cardroom/", HTTP_ACCEPT_LANGUAGE=language)}
    pages |= {f"/cardroom/sheets/{pk}/": client.get(f"/cardroom/sheets/{pk}/", HTTP_ACCEPT_LANGUAGE=language)
              for pk in ids}
    found = {}
    for url, response in pages.items():
        assert response.status_code == 200, url
        page = response.content.decode()
        runs = english_runs(page, vocabulary)
        if runs or "JSON" in visible_text(page):
            found[url] = runs + (["JSON"] if "JSON" in visible_text(page) else [])
    assert found == {}
    # the open form offers every game's settings; the open sheet, its correction in labelled fields, filled in
    index = pages["/cardroom/"].content.decode()
    assert all(f'data-game="{name}"' in index for name, g in all_games().items() if g.settings)
    hearts = pages[f"/cardroom/sheets/{ids[-1]}/"].content.decode()
    correction = hearts[hearts.index('id="correct-form"'):]
    assert 'name="hearts:ana"' in correction
    assert 'name="penalty"' in correction
    assert "<textarea" not in correction
    assert 'id="deals-in-force"' in hearts


def test_a_deals_summary_and_the_settings_in_traditional_chinese(card_room):
    client, ids = card_room
    page = client.get(f"/cardroom/sheets/{ids[-1]}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    text = visible_text(page)
    with translation.override("zh-hant"):
        moon = translation.gettext("%(who)s shot the moon") % {"who": "ana"}
        add = translation.gettext("Add to others")
    assert moon in text
    assert add in text
    assert "shot the moon" not in text
    assert "Add to others" not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_all_fours_and_loo_summaries_in_the_readers_words(card_room, language):
    """Issue 31: the Pitch family's and Loo's deal summaries (points won, sales, smudges, pots, loos) and a
    passed deal are worded for the reader, the facts in the reader's words."""
    client, ids = card_room
    pitch, sellout, cinch, seven_up, loo, euchre = ids[4:10]

    def text(pk):
        return visible_text(client.get(f"/cardroom/sheets/{pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode())

    with translation.override(language):
        said = {
            pitch: [translation.gettext("%(who)s smudges: all %(n)s points, and the game") % {"who": "ana", "n": "4"},
                    translation.gettext("%(who)s revoked: scores nothing and loses %(n)s") % {"who": "bruno",
                                                                                             "n": "2"}],
            sellout: [translation.gettext("%(who)s sells to %(pitcher)s for %(n)s") % {
                "who": "bruno", "pitcher": "carla", "n": "3"}],
            seven_up: [translation.gettext("%(who)s turns up a jack: %(n)s") % {"who": "ana", "n": "1"},
                       translation.gettext("%(point)s %(who)s") % {
                           "point": translation.pgettext("score sheet", "high"), "who": "bruno"}],
            loo: [translation.gettext("double pot of %(n)s") % {"n": "9"},
                  translation.gettext("%(who)s are looed") % {"who": translation.gettext("%(names)s and %(last)s")
                                                              % {"names": "ana", "last": "bruno"}}],
            euchre: [translation.gettext("all passed: no score")],
        }
    for pk, phrases_said in said.items():
        page = text(pk)
        assert all(p in page for p in phrases_said), (pk, phrases_said)
    assert "smudges" not in text(pitch)
    assert "pot of" not in text(loo)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_validity_checks_answer_in_the_readers_words(card_room, language):
    """Issue 31: a check's answer (Carousel's melds and table, Crazy Casino's builds) comes back worded in the
    reader's language (``said``, shown as is by the sheet page) beside its facts, which are unchanged."""
    client, _ = card_room
    vocabulary = engine_words() | {"not", "valid", "these", "build", "nothing", "yes", "no", "red", "black"}

    def said(game, check, payload):
        response = client.post(f"/api/cardroom/games/{game}/checks/{check}/", payload,
                               content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, response.content
        return response.json()

    answers = [
        said("carousel_rummy", "meld", {"melds": [["KS", "AS", "2S"], ["7H", "7S", "7D"], ["4C", "5C", "6C"]]}),
        said("crazy_casino", "build", {"items": ["AS", "KS", "JH", "JD"], "match": "5C"}),
        said("crazy_casino", "build", {"items": ["AS", "KS", "JH", "JD"], "match": "4C"}),
        said("carousel_rummy", "table", {"before": [["8D", "9D", "TD", "JD", "QD"]], "hand": ["TH", "TS"],
                                         "after": [["8D", "9D", "JD", "QD"], ["TD", "TH", "TS"]]}),
        said("carousel_rummy", "table", {"before": [["8D", "9D", "TD", "JD"]], "hand": [],
                                         "after": [["8D", "9D", "TD"]]}),
        said("carousel_rummy", "table", {"before": [["JK=8C", "9C", "TC"]], "hand": [],
                                         "after": [["JK=JC", "9C", "TC"]]}),
        said("carousel_rummy", "table", {"before": [["8D", "9D", "TD"]], "hand": ["JD"],
                                         "after": [["8D", "9D", "TD", "JD"]]}),
    ]
    # the facts as before (the English reason beside the worded answer)
    assert answers[0]["melds"][0]["reason"] == "an ace may start or end a sequence, not be in its middle"
    assert "missing from the table: JD" in answers[4]["reason"]
    with translation.override(language):
        expected = [
            translation.gettext("%(cards)s: not valid — %(reason)s") % {
                "cards": "KS AS 2S", "reason": translation.gettext(answers[0]["melds"][0]["reason"])},
            translation.gettext("%(cards)s: %(kind)s") % {"cards": "7H 7S 7D",
                                                          "kind": translation.pgettext("meld", "set")},
            translation.gettext("%(card)s: yes — %(how)s").split("%(how)s")[0] % {"card": "5♣"},
            translation.gettext("%(card)s: no — these cannot be built into a %(build)s") % {
                "card": "4♣", "build": translation.gettext("%(colour)s %(rank)s") % {
                    "colour": translation.pgettext("score sheet", "black"), "rank": "4"}},
        ]
    text = "\n".join(a["said"] for a in answers)
    assert all(e in text for e in expected), (expected, text)
    runs = [run for run in ENGLISH_RUN.findall(text) if all(w in vocabulary for w in re.split(r"[ ']", run))]
    assert runs == []
    assert all(a["said"] for a in answers)
