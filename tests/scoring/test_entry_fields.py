"""Issue 31: no screen asks for JSON or codes. Every scored game declares its deal entry as typed, labelled fields
(tables/scoring/entry.py); the sheet page renders them, sheet.js assembles the entry (``entry.assemble`` is its
twin) and the game accepts it."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation

from cardroom.services import sheets
from tables.scoring.base import score_sheet
from tables.scoring.entry import KINDS, assemble
from tables.scoring.registry import all_games

FOUR = ["ana", "bruno", "carla", "dario"]
PAIRS = ("ana & carla", "bruno & dario")
LABELLED = {"hearts", "cancellation_hearts", "domino_hearts", "hearts_without_black_lady", "omnibus_hearts",
            "auction_hearts", "carousel_rummy", "crazy_casino"}  # their own forms (templates/cardroom/_deal_fields.html)
TAG = re.compile(r"<[^>]+>")

# a deal of each game as the page's fields hold it (a number as typed, a player chosen by name), and its players
DEALS: dict[str, tuple[list[str], dict[str, object]]] = {
    "euchre": (FOUR, {"maker": "ana", "alone": False, "tricks": "4"}),
    "railroad_euchre": (FOUR, {"maker": "ana", "alone": True, "tricks": "5"}),
    "two_hand_euchre": (FOUR[:2], {"maker": "ana", "tricks": "3"}),
    "three_hand_euchre": (FOUR[:3], {"maker": "ana", "tricks": "3"}),
    "auction_euchre": ([*FOUR, "eva"], {"maker": "ana", "bid": "4", "partners": ["carla", "eva"], "tricks": "4"}),
    "call_ace_euchre": (FOUR, {"maker": "ana", "partner": "carla", "tricks": "3"}),
    "cincinnati_euchre": (FOUR, {"bidder": "ana", "bid": "4", "trump": "hearts", "tricks": "5"}),
    "five_hundred": (FOUR[:3], {"contractor": "ana", "bid": "7H", "tricks": {"ana": "7", "bruno": "2", "carla": "1"}}),
    "napoleon": (FOUR, {"bidder": "ana", "bid": "3", "tricks": "4"}),
    "pool_nap": (FOUR, {"bidder": "ana", "bid": "nap", "tricks": "5"}),
    "peep_nap": (FOUR, {"bidder": "ana", "bid": "2", "tricks": "2", "peeped": ["bruno"]}),
    "sir_garnet": (FOUR, {"bidder": "ana", "bid": "3", "tricks": "3", "out_of_turn": ["dario"]}),
    "auction_pitch": (FOUR, {"pitcher": "ana", "bid": "3", "high": "ana", "low": "bruno", "jack": "ana", "game": ""}),
    "pitch": (FOUR, {"pitcher": "ana", "bid": "2", "high": "ana", "low": "ana", "jack": "", "game": "carla"}),
    "auction_pitch_joker": (FOUR, {"pitcher": "ana", "bid": "3", "high": "ana", "low": "bruno", "jack": "ana",
                                   "joker": "ana", "game": "carla"}),
    "sellout": (FOUR, {"pitcher": "bruno", "bid": "4", "high": "bruno", "low": "bruno", "jack": "bruno",
                       "game": "bruno"}),
    "cinch": (FOUR, {"bidder": "ana", "bid": "7", "high": PAIRS[0], "low": PAIRS[0], "jack": PAIRS[1],
                     "game": PAIRS[0], "right_pedro": PAIRS[0], "left_pedro": PAIRS[1]}),
    "seven_up": (FOUR[:2], {"high": "ana", "low": "bruno", "jack": "ana", "game": "ana", "turned_jacks": ""}),
    "california_jack": (FOUR[:2], {"high": "ana", "low": "bruno", "jack": "ana", "game": "bruno"}),
    "shasta_sam": (FOUR[:2], {"high": "bruno", "low": "bruno", "jack": "ana", "game": "bruno"}),
    "loo": (FOUR, {"tricks": {"ana": "2", "bruno": "", "carla": "1", "dario": "0"}}),
    "spoil_five": (FOUR, {"tricks": {"ana": "3", "bruno": "1"}, "jinx": False}),
    "forty_five": (FOUR, {"tricks": {PAIRS[0]: "3", PAIRS[1]: "2"}}),
    "auction_forty_fives": (FOUR, {"bidder": "ana", "bid": "20", "trump": "spades",
                                   "tricks": {PAIRS[0]: "4", PAIRS[1]: "1"}, "high_trump": PAIRS[0]}),
    "preference": (FOUR[:3], {"bidder": "ana", "suit": "hearts", "tricks": "7"}),
}
# more deals: a partnership Five Hundred, a passed deal (the rest of the form left as it was), a second round
MORE = [
    ("five_hundred", FOUR, {}, {"contractor": "bruno", "bid": "8NT", "tricks": {PAIRS[0]: "1", PAIRS[1]: "9"}}),
    ("five_hundred", FOUR[:3], {}, {"passed": True, "contractor": "ana", "bid": "7H"}),
    ("five_hundred", FOUR[:3], {"passed_deal": "no_trump"},
     {"passed": True, "contractor": "ana", "tricks": {"ana": "4", "bruno": "3", "carla": "3"}}),
    ("euchre", FOUR, {}, {"passed": True, "maker": "carla", "tricks": "2"}),
    ("napoleon", FOUR, {}, {"bidder": "carla", "bid": "2", "revoke": "dario", "passed": False}),
    ("preference", FOUR[:3], {}, {"bidder": "bruno", "chips": {"bruno": "3", "carla": "2"}, "tricks": "6"}),
    ("cincinnati_euchre", FOUR, {}, {"bidder": "ana", "bid": "3", "forced": True, "tricks": "3"}),
]


def scored(name, players, config, values):
    game = all_games()[name]
    config = game.resolve_config(config)
    fields = game.entry_fields(players, config)
    assert set(values) <= {f.name for f in fields}, f"{name}: {set(values) - {f.name for f in fields}} not declared"
    entry = assemble(fields, values)
    return entry, score_sheet(game, {"players": players, "config": config, "deals": [entry]})


def test_every_game_without_its_own_form_declares_its_entry_and_every_family_has_a_deal_here():
    for name, game in all_games().items():
        if name in LABELLED:
            continue
        fields = game.entry_fields(DEALS[name][0], game.resolve_config({}))
        assert fields, name
        assert all(f.kind in KINDS and f.label for f in fields), name


@pytest.mark.parametrize("name", sorted(DEALS))
def test_a_deal_assembled_from_the_declared_fields_is_accepted(name):
    players, values = DEALS[name]
    entry, sheet = scored(name, players, {}, values)
    assert len(sheet["deals"]) == 1, entry
    assert all(isinstance(v, int) for v in sheet["totals"].values())


@pytest.mark.parametrize(("name", "players", "config", "values"), MORE)
def test_more_deals_by_the_fields(name, players, config, values):
    entry, sheet = scored(name, players, config, values)
    assert len(sheet["deals"]) == 1, entry
    if values.get("passed"):
        assert "contractor" not in entry
        assert "maker" not in entry


def test_the_assembly_reads_each_kind_as_the_page_does():
    game = all_games()["five_hundred"]
    fields = game.entry_fields(["ana", "bruno", "carla", "dario", "eva"], game.resolve_config({}))
    entry = assemble(fields, {"contractor": "ana", "bid": "8S", "partners": ["carla"], "first_out": "",
                              "tricks": {"ana": "8", "bruno": "0", "carla": ""}})
    assert entry == {"contractor": "ana", "bid": "8S", "partners": ["carla"], "tricks": {"ana": 8}}


def visible(page: str) -> str:
    return html.unescape(TAG.sub(" ", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)))


def test_every_games_sheet_page_asks_by_labelled_fields_never_json(floor):
    client = Client()
    client.force_login(floor.manager)
    for name, game in sorted(all_games().items()):
        players = DEALS[name][0] if name in DEALS else FOUR[: max(game.min_players, 2)]
        if len(players) < game.min_players:
            players = [*FOUR, "eva", "fabio", "gina"][: game.min_players]
        sheet = sheets.sheet_open(table_id=floor.table.pk, game=name, players=players, config=None, actor=floor.dealer)
        page = client.get(f"/cardroom/sheets/{sheet.pk}/").content.decode()
        form = page[page.index('id="deal-form"'):page.index("</form>", page.index('id="deal-form"'))]
        assert "<textarea" not in page, name
        assert "JSON" not in visible(page), name
        if name not in LABELLED:
            assert 'data-build="fields"' in page, name
            for f in game.entry_fields(players, game.resolve_config({})):
                assert f'data-name="{f.name}"' in form, (name, f.name)
                box = form[form.index(f'data-name="{f.name}"'):]
                box = box[:box.index("</div>")]
                assert f.label in html.unescape(box), (name, f.name)
                assert "<label" in box or "<legend" in box, (name, f.name)
        sheets.sheet_close(sheet_id=sheet.pk, actor=floor.dealer, reason="")


def test_the_fields_read_in_the_readers_language(floor):
    client = Client()
    client.force_login(floor.manager)
    sheet = sheets.sheet_open(table_id=floor.table.pk, game="five_hundred", players=FOUR[:3], config=None,
                              actor=floor.dealer)
    page = visible(client.get(f"/cardroom/sheets/{sheet.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    with translation.override("es"):
        for label in ("Contractor", "Bid", "Tricks taken", "All passed (no score)"):
            assert translation.gettext(label) in page
            assert translation.gettext(label) != label
    assert "Contractor" not in page
    assert "7♥" in page  # a bid in words, not the code 7H
