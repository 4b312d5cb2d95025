"""A score sheet's refusal reaches the card room in the reader's language (cardroom/wording.py): every template
the games refuse with is translated in each shipped language with the same placeholders, and through the API a
card-room user reading Spanish or Traditional Chinese is refused in it, with the same code, field and params."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext

from cardroom.wording import ENTRY_WORDS, entry_words, refusal_words
from casino.core.models import StaffProfile
from tables.scoring.refusals import ScoringError, placeholders
from tests.client import APIClient
from tests.scoring.test_cardroom_service import FOUR, SHEETS, hearts, open_sheet
from tests.scoring.test_refusals import templates

LANGUAGES = ("zh-hant", "zh-hans", "es")


def same_in_every_language(message: str) -> bool:
    """A proper name (the deal summaries' Sir Garnet, Howell) or facts without words ("%(n)s %(suit)s")."""
    return bool(re.fullmatch(r"[A-Z][a-zü]+(?: [A-Z][a-zü]+)?", message)) or not re.search(
        r"[a-z]", re.sub(r"%\(\w+\)s", "", message))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_scoring_refusal_template_is_translated_with_its_placeholders(language):
    untranslated, mismatched = [], []
    with translation.override(language):
        for template in templates():
            words = gettext(template)
            if words == template and not same_in_every_language(template):
                untranslated.append(template)
            elif sorted(placeholders(words)) != sorted(placeholders(template)):
                mismatched.append((template, words))
    assert (untranslated, mismatched) == ([], [])


def test_a_place_in_the_entry_is_worded_as_what_it_holds_and_whose():
    with translation.override("es"):
        assert entry_words("tricks.ann") == "bazas de ann"
        assert entry_words("hands.bob.melds[1]") == "combinaciones de bob, n.º 2"
        assert entry_words("config.moon") == "ajustes › tirar a la luna"
    with translation.override("zh-hant"):
        assert entry_words("tricks.ann") == "ann的墩數"
    assert all(str(words) for words in ENTRY_WORDS.values())


def test_a_refusal_is_worded_from_its_template_and_params():
    err = ScoringError("bad_deal", "%(player)s's hand is dead until the pot is won", field="tricks.cy",
                       at="tricks.cy", player="cy")
    with translation.override("es"):
        assert refusal_words(err) == "La mano de cy está muerta hasta que se gane el bote"
    with translation.override("zh-hant"):
        assert refusal_words(err) == "在彩池被贏走之前，cy 的牌無效"
    with translation.override("en"):
        assert refusal_words(err) == "cy's hand is dead until the pot is won"  # a name as it is written


def reader(user, language: str) -> APIClient:
    """A card-room user who picked ``language`` on their staff profile, signed in as the screens are."""
    StaffProfile.objects.update_or_create(user=user, defaults={"language": language})
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("language", "says", "not_said"), [
    ("es", "Mano 1: Bazas de bob debe ser de 0 a 10, no 14", "must be from"),
    ("zh-hant", "第 1 局：bob的墩數 必須在 0 至 10 之間，而不是 14", "must be from"),
])
def test_a_bad_score_entry_is_refused_in_the_readers_language_with_the_same_code_and_field(
    floor, dealer_api, language, says, not_said
):
    # given a Five Hundred sheet at the dealer's table, and the refusal of an impossible deal in English
    sheet = open_sheet(dealer_api, floor.table, game="five_hundred", players=["ann", "bob", "cy"])
    url = f"{SHEETS}{sheet['id']}/deals/"
    entry = {"entry": {"contractor": "ann", "bid": "7H", "tricks": {"ann": 7, "bob": 14}}}
    english = dealer_api.post(url, entry, format="json").json()["error"]
    # when the same dealer, reading another language, enters the same impossible deal
    answer = reader(floor.dealer, language).post(url, entry, format="json")
    # then it is refused in that language, with the same code, field and facts, and nothing is written
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["field"], error["params"]) == (english["code"], english["field"], english["params"])
    assert (error["code"], error["field"]) == ("bad_deal", "tricks.bob")
    assert error["message"] == says
    assert not_said not in error["message"]
    assert "tricks.bob" not in error["message"]
    assert dealer_api.get(f"{SHEETS}{sheet['id']}/").json()["deals"] == 0


def test_a_hearts_deal_short_of_the_pack_is_refused_in_spanish(floor, dealer_api):
    sheet = open_sheet(dealer_api, floor.table, players=FOUR)
    answer = reader(floor.dealer, "es").post(f"{SHEETS}{sheet['id']}/deals/",
                                             hearts(ann={"hearts": 12}, bob={"queen": True}), format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["field"], error["params"]) == ("hearts_unaccounted", "taken", {"n": 12, "high": 13})
    assert error["message"] == "Mano 1: Los jugadores se llevaron 12 corazones: hay que contar los 13"
