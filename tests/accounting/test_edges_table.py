"""The edges computed ahead (accounting/edges.json, ``manage.py edges_table``): the current engines' own figures,
used only while the engines are the ones that computed them, and never instead of a test's stand-in engine."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounting import hold
from accounting.management.commands import edges_table
from accounting.management.commands.edges_table import rule_sets
from accounting.models import HouseEdgeCache
from tables.engines.registry import available_games, get_engine


@pytest.fixture
def fresh_memo(monkeypatch):
    monkeypatch.setattr(hold, "_COMPUTED", {})
    monkeypatch.setattr(hold, "_table", None)


def test_the_table_is_the_current_engines_edges(db):
    # a failure here means an engine changed: `python manage.py edges_table --write` computes the table again
    out = StringIO()
    call_command("edges_table", stdout=out)
    assert "current engines' edges" in out.getvalue()
    assert json.loads(hold.TABLE.read_text())["engines"] == hold.engines_digest()
    # every banked game's demo and default rules are in it
    table = hold.edges_table()
    for game in available_games():
        if get_engine(game).banked:
            assert {hold._key(rules) for rules in rule_sets(game)} <= set(table[game]), game


@pytest.mark.parametrize("game", ["baccarat", "let_it_ride", "faro"])
def test_its_rows_are_what_the_engine_computes_now(db, game):
    for rules in rule_sets(game):
        computed = [{"bet": r.bet, "edge": hold._edge_text(r.edge), "method": r.method}
                    for r in get_engine(game).house_edge(rules)]
        assert hold.edges_table()[game][hold._key(rules)] == computed


def test_a_database_without_the_edges_reads_them_from_the_table_without_computing(db, fresh_memo, monkeypatch):
    # given the blackjack engine, which simulates for seconds, and a process that computed nothing yet
    rules = rule_sets("blackjack")[0]
    # when the edges of its demo rules are asked for on a database that never computed them
    edges = hold.house_edges("blackjack", rules)
    # then they are the table's, and the database keeps them as computed ones
    table_rows = hold.edges_table()["blackjack"][hold._key(hold.rules_of(rules))]
    assert edges == {row["bet"]: hold._edge_value(row["edge"]) for row in table_rows}
    assert hold._COMPUTED == {}  # what a process computes, it keeps: nothing was
    assert HouseEdgeCache.objects.filter(game="blackjack", config_key=hold._key(hold.rules_of(rules))).exists()


def test_a_stand_in_engine_or_changed_engines_compute_afresh(db, fresh_memo, monkeypatch):
    rules = rule_sets("baccarat")[0]
    engine_type = type(get_engine("baccarat"))
    real = engine_type.house_edge
    calls = []

    def counted(self, config, **kwargs):
        calls.append(config)
        return real(self, config, **kwargs)

    # a test's stand-in for the engine's method is called, never served from the table
    monkeypatch.setattr(engine_type, "house_edge", counted)
    hold.house_edges("baccarat", rules)
    assert len(calls) == 1
    # and once the engines are not the ones that computed the table, it is not read at all
    monkeypatch.setattr(engine_type, "house_edge", real)
    monkeypatch.setattr(hold, "_COMPUTED", {})
    monkeypatch.setattr(hold, "engines_digest", lambda: "0" * 64)
    monkeypatch.setattr(edges_table, "engines_digest", lambda: "0" * 64)
    monkeypatch.setattr(hold, "_table", None)
    assert hold.edges_table() == {}
    with pytest.raises(CommandError, match="edges_table --write"):
        call_command("edges_table", stdout=StringIO())
