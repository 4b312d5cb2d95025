"""Every score sheet's refusal is a sentence template and its typed params (tables/scoring/refusals.py), never a
finished sentence: each template is marked ``N_("…")`` where the refusal is made, so ``make locale`` extracts
it, and each refusal passes every param its template names. Pure Python: runs without Django."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tables.engines.errors import EngineError
from tables.scoring.base import score_sheet
from tables.scoring.refusals import KINDS, ScoringError, placeholders
from tables.scoring.registry import get_game

SCORING = Path(__file__).resolve().parents[2] / "tables" / "scoring"
POINTERS = {"field", "event", "at"}  # ScoringError's own keywords: not params


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(SCORING.glob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _marked(node: ast.AST) -> list[str]:
    """The N_-marked templates under ``node``."""
    return [
        call.args[0].value
        for call in ast.walk(node)
        if isinstance(call, ast.Call) and _name(call) == "N_" and call.args and isinstance(call.args[0], ast.Constant)
    ]


def _bound(func: ast.FunctionDef, name: str) -> list[str]:
    """The marked templates ``name`` is bound to in ``func`` (an assignment, or a loop over tuples)."""
    said: list[str] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            said.extend(_marked(node.value))
        if isinstance(node, ast.For) and any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.target)):
            said.extend(_marked(node.iter))
    return said


def templates() -> list[str]:
    """Every template the score sheets refuse with (and the meld reasons they state), as extracted."""
    found: list[str] = []
    for _, tree in _modules():
        found.extend(t for t in _marked(tree) if t not in found)
    return found


def refusals() -> Iterator[tuple[str, ast.Call, list[str], set[str]]]:
    """Each refusal made: where, the call, the templates it may say, the params it passes."""
    for path, tree in _modules():
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for call in ast.walk(func):
                makers = ("ScoringError", "cls") if path.name == "refusals.py" else ("ScoringError",)
                if not (isinstance(call, ast.Call) and _name(call) in makers):
                    continue
                where = f"{path.name}:{call.lineno}"
                assert len(call.args) == 2, f"{where}: a refusal is ScoringError(code, template, ..., **params)"
                template = call.args[1]
                if isinstance(template, ast.Call) and _name(template) == "N_":
                    said = _marked(template)
                else:  # a name the function binds to marked templates (one of two, or each of a loop's)
                    assert isinstance(template, ast.Name), f"{where}: the template is N_(...) or a name bound to one"
                    said = _bound(func, template.id)
                assert said, f"{where}: no N_-marked template"
                assert all(kw.arg is not None for kw in call.keywords), f"{where}: params by name, not **"
                yield where, call, said, {str(kw.arg) for kw in call.keywords} - POINTERS


def test_the_score_sheets_refuse_only_with_templates():
    plain = [
        f"{path.name}:{call.lineno}"
        for path, tree in _modules()
        if path.name != "refusals.py"
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and _name(call) == "EngineError"
    ]
    assert plain == []
    made = list(refusals())
    assert len(made) > 150


def test_every_placeholder_a_template_names_is_a_param_the_refusal_passes():
    for where, _, said, given in refusals():
        for template in said:
            missing = set(placeholders(template)) - given
            assert not missing, f"{where}: {template!r} needs {sorted(missing)}"


def test_every_template_is_extractable_and_python_format():
    for template in templates():
        names = placeholders(template)
        # only %(name)s placeholders: the catalogs' python-format, filled from a dict
        assert template.count("%") == len(names), template
        assert template % dict.fromkeys(names, "x")


def test_a_refusal_keeps_its_code_and_field_and_says_its_facts():
    with pytest.raises(EngineError) as caught:
        score_sheet(get_game("spoil_five"), {"players": ["ann", "bob", "cy"], "deals": [
            {"tricks": {"ann": 2, "bob": 1, "cy": 1}}, {"tricks": {"cy": 1, "ann": 3}}]})
    err = caught.value
    assert isinstance(err, ScoringError)
    assert (err.code, err.field, err.event) == ("tricks_unaccounted", "tricks", 0)
    assert err.template == "%(n)s entered; nobody won three, so all %(high)s were played"
    assert err.params == {"n": 4, "high": 5}
    assert err.as_dict()["params"] == {"n": 4, "high": 5}


def test_a_place_in_the_entry_is_a_param_not_part_of_the_sentence():
    with pytest.raises(ScoringError) as caught:
        score_sheet(get_game("hearts"), {"players": ["ann", "bob", "cy", "dee"], "deals": [
            {"taken": {"ann": {"hearts": 14}}}]})
    err = caught.value
    assert (err.field, err.params) == ("taken.ann.hearts", {"what": "taken.ann.hearts", "low": 0, "high": 13, "n": 14})
    assert "taken.ann" not in err.template
    assert err.message == "taken.ann.hearts must be from 0 to 13, not 14"


def test_a_refusal_missing_a_param_is_a_programming_error():
    with pytest.raises(TypeError, match="missing its params"):
        ScoringError("bad_deal", "%(player)s passed", field="flush")


def test_every_kind_is_one_the_card_room_words():
    assert set(KINDS.values()) <= {
        "entry", "entries", "value", "card", "cards", "suit", "suits", "bid", "bids", "title", "names", "names_and",
        "checks", "colour", "who", "sentence", "choices",
    }
