"""accounting.figures: every game has a family, and docs/accounting.md's worked example of each family is
what the engines and the figures give (replayed here), as its CSV column lists are what the code writes."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from accounting import figures
from accounting.money import money_text
from accounting.reports import REPORTS, Filters
from tables.engines.registry import available_games, play, result

DOC = (Path(__file__).resolve().parents[2] / "docs" / "accounting.md").read_text()

EXAMPLES = {
    figures.Family.BANKED: (
        {"game": "blackjack", "config": {"decks": 6},
         "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 10000},
                  {"id": "b2", "seat": 2, "type": "bet", "amount": 5000}],
         "events": [{"card": "5S"}, {"card": "TH"}, {"card": "9H"}, {"card": "6D"}, {"card": "8C"},
                    {"seat": 1, "action": "double", "hand": 0}, {"card": "TC"}, {"seat": 2, "action": "stand", "hand": 0},
                    {"card": "7C"}, {"card": "KD"}]},
        {"handle": 25_000, "rounds_win": -25_000, "commission": 0, "pool_change": 0},
    ),
    figures.Family.COMMISSION: (
        {"game": "baccarat", "config": {"decks": 8},
         "bets": [{"id": "b1", "seat": 3, "type": "banker", "amount": 50000},
                  {"id": "b2", "seat": 5, "type": "banker", "amount": 25000},
                  {"id": "b3", "seat": 6, "type": "player", "amount": 2500},
                  {"id": "b4", "seat": 7, "type": "banker", "amount": 2500}],
         "events": [{"card": "TC"}, {"card": "TD"}, {"card": "AH"}, {"card": "8D"}]},
        {"handle": 80_000, "rounds_win": -71_125, "commission": 3_875, "pool_change": 0},
    ),
    figures.Family.POT: (
        {"game": "in_between",
         "config": {"ante": 500, "carry_in": 8000, "pair_pays": 1000, "rake_bp": 500, "rake_on": "win",
                    "rake_rounding": "down"},
         "bets": [{"id": f"b{i}", "seat": s, "type": "ante", "amount": 500} for i, s in enumerate((1, 4, 7, 8), 1)],
         "events": [{"card": "2H"}, {"card": "8S"}, {"bet": {"id": "p1", "seat": 1, "type": "pot_bet", "amount": 2500}},
                    {"card": "6D"}, {"card": "TC"}, {"card": "9D"},
                    {"bet": {"id": "p2", "seat": 4, "type": "pot_bet", "amount": 500}}, {"card": "2S"}, {"card": "QC"},
                    {"bet": {"id": "p3", "seat": 7, "type": "pot_bet", "amount": 4000}}, {"card": "2C"}, {"card": "8H"},
                    {"card": "AH"}, {"bet": {"id": "p4", "seat": 8, "type": "pot_bet", "amount": 1500}},
                    {"card": "3H"}]},
        {"handle": 10_500, "rounds_win": 125, "commission": 0, "pool_change": 5_500},
    ),
    figures.Family.PARI_MUTUEL: (
        {"game": "carousel",
         "config": {"foundations": 6, "limit": 500, "chip": 100, "rake_bp": 1000, "rake_rounding": "up",
                    "carry_in": 900, "button": 2},
         "bets": [],
         "events": [{"players": [6, 7]}, *({"card": c} for c in "10 3 9 5 7 10".split()),
                    {"bet": {"id": "n1", "seat": 6, "type": "count", "number": 6, "amount": 500}},
                    {"bet": {"id": "n2", "seat": 7, "type": "count", "number": 6, "amount": 500}},
                    *({"card": c} for c in "8 9 10 5 2 3".split()),
                    {"bet": {"id": "n3", "seat": 6, "type": "count", "number": 4, "amount": 500}},
                    *({"card": c} for c in "6 9 9 10 1".split()),
                    {"bet": {"id": "n4", "seat": 6, "type": "count", "number": 1, "amount": 500}},
                    *({"card": c} for c in "8 2 4".split())]},
        {"handle": 2_000, "rounds_win": 500, "commission": 0, "pool_change": -900},
    ),
    figures.Family.PLAYER_BANKED: (
        {"game": "chemin_de_fer", "config": {"decks": 8},
         "bets": [{"id": "b1", "seat": 9, "type": "bank", "amount": 10000},
                  {"id": "b2", "seat": 6, "type": "punto", "amount": 10000}],
         "events": [{"card": "2S"}, {"card": "9C"}, {"card": "AC"}, {"card": "TC"}]},
        {"handle": 20_000, "rounds_win": 500, "commission": 500, "pool_change": 0},
    ),
}


def test_every_game_has_a_family():
    assert {g: figures.family_of(g) for g in available_games()}  # no KeyError
    assert figures.family_of("baccarat") is figures.Family.COMMISSION
    assert figures.family_of("blackjack") is figures.Family.BANKED
    assert figures.family_of("pontoon") is figures.Family.PLAYER_BANKED


@pytest.mark.parametrize("family", list(EXAMPLES))
def test_the_documented_example_of_each_family(family):
    document, expected = EXAMPLES[family]
    assert figures.family_of(document["game"]) is family
    state = play(document)
    assert state["status"] == "settled"
    pool = state.get("pool") or {}
    got = {
        "handle": result(document).handle(),
        "rounds_win": state["house"]["net"],
        "commission": state["house"].get("commission", 0),
        "pool_change": int(pool.get("carry_out", 0)) - int(pool.get("carry_in", 0)),
    }
    assert got == expected
    # the worked example in docs/accounting.md says the same figures
    section = DOC[DOC.index(f"**{family.value.capitalize()} ("):][:1200]
    def written(minor: int) -> str:  # as the docs print it: bold, the minus sign typeset
        return f"**{money_text(minor, grouping=True).replace('-', '−')}**"

    for value in (got["handle"], got["rounds_win"]):
        assert written(value) in section, (family, value)
    if family in (figures.Family.POT, figures.Family.PARI_MUTUEL):
        assert written(got["pool_change"]) in section
        # the players' net is not the house's win: it also carries the pot's change
        assert -sum(b["net"] for b in state["bets"]) == got["rounds_win"] + got["pool_change"]
    assert figures.statistical_hold(got["rounds_win"], got["handle"]) == Fraction(got["rounds_win"], got["handle"])


def test_the_documented_csv_columns_are_the_code_s(db):
    for name, cls in REPORTS.items():
        report = cls(Filters(group="table") if name == "revenue" else Filters())
        header = ", ".join(report.header())
        if name == "revenue":
            header = header.split(", Table shifts, ", 1)[1]
        assert header in DOC, name
