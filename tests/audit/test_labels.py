"""Every code the audit trail can carry has words in every shipped language (casino/audit/labels.py).

The codes are read from the sources, not from a list kept by hand: every ``action=``, ``object_type=`` and
``channel=`` a call passes (``audit_log``, its helpers, ``RequestContext``), the values a helper's parameter
is called with (``_audit(actor, "slip.open", …)``), the names a variable is given before it is passed
(``object_type, object_id = "address", where``), and the f-strings' codes for each value their kind can take.
A code written anywhere without a phrase, or with a phrase one language lacks, fails here.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.utils import translation
from django.utils.translation import trans_real

from accounting.models import CountKind, SlipKind
from casino.audit import labels
from casino.core.admin import AuditedAdmin

ROOT = pathlib.Path(__file__).resolve().parents[2]
APPS = ("casino", "tables", "accounting", "players", "slots", "cardroom", "floor")
KINDS = {"action": "action", "record_action": "action", "object_type": "object_type", "channel": "channel"}
NOT_AUDIT = {"add_argument"}  # argparse's ``action="store_true"``
LANGUAGES = ("zh_Hant", "zh_Hans", "es")


def _name(call: ast.Call) -> str:
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None) or ""


def _constants(node: ast.AST) -> list[str]:
    """A string literal, or each branch of a conditional of literals; none for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def _assigned(function: ast.AST, name: str) -> list[str]:
    """The literals a function assigns to ``name`` (``x = "a"``, ``x, y = "a", b``)."""
    found = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                found += _constants(node.value)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                for t, v in zip(target.elts, node.value.elts):
                    if isinstance(t, ast.Name) and t.id == name:
                        found += _constants(v)
    return found


def _passed(tree: ast.Module, function: ast.FunctionDef, name: str) -> list[str]:
    """The literals the module's calls of ``function`` pass for its parameter ``name``."""
    params = [a.arg for a in function.args.posonlyargs + function.args.args]
    index = params.index(name) if name in params else None
    found = []
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and _name(call) == function.name:
            if index is not None and index < len(call.args):
                found += _constants(call.args[index])
            found += [c for kw in call.keywords if kw.arg == name for c in _constants(kw.value)]
    return found


def _expanded(path: str, value: ast.JoinedStr) -> list[str]:
    """An f-string code for each value its placeholders can take (the kinds the models allow)."""
    places = {
        "accounting/services/counts.py": {"kind": CountKind.values},
        "accounting/services/slips.py": {"kind": SlipKind.values, "slip.kind": SlipKind.values},
        "casino/audit/receivers.py": {"_ADMIN_VERBS.get(instance.action_flag, 'action')": list(labels.ADMIN_VERBS)},
        "casino/core/admin.py": {
            "name": [m._meta.model_name for m, a in admin.site._registry.items() if isinstance(a, AuditedAdmin)],
            "'change' if change else 'add'": ["change", "add"],
        },
    }.get(path, {})
    codes = [""]
    for part in value.values:
        if isinstance(part, ast.Constant):
            codes = [c + str(part.value) for c in codes]
            continue
        assert isinstance(part, ast.FormattedValue)
        expression = ast.unparse(part.value)
        assert expression in places, f"{path}: the code f-string's {{{expression}}} has no known values here"
        codes = [c + str(v) for c in codes for v in places[expression]]
    return codes


def written_codes() -> Iterator[tuple[str, str, str]]:
    """(kind, code, where) for every code the sources can write."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            where = str(path.relative_to(ROOT))
            tree = ast.parse(path.read_text(encoding="utf-8"))
            functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
            for function in [tree, *functions]:
                for call in ast.walk(function):
                    if not isinstance(call, ast.Call) or _name(call) in NOT_AUDIT:
                        continue
                    for kw in call.keywords:
                        kind = KINDS.get(kw.arg or "")
                        if kind is None:
                            continue
                        if isinstance(kw.value, ast.JoinedStr):
                            codes = _expanded(where, kw.value)
                        elif isinstance(kw.value, ast.Name) and function is not tree:
                            codes = (_assigned(function, kw.value.id)
                                     or _passed(tree, function, kw.value.id))  # type: ignore[arg-type]
                        else:
                            codes = _constants(kw.value)
                        for code in codes:
                            yield kind, code, f"{where}:{call.lineno}"


CODES = sorted(set(written_codes()))


def test_the_sources_are_read():
    kinds = {kind for kind, _, _ in CODES}
    actions = {code for kind, code, _ in CODES if kind == "action"}
    # the reading finds what the apps write, the helpers' and the f-strings' codes among them
    assert kinds == {"action", "object_type", "channel"}
    assert {"round.open", "bet.place", "slip.open", "fill.void_request", "count.closer", "admin.table.change",
            "slots.bonus.create", "auth.lockout"} <= actions
    assert len(actions) >= 100
    assert {code for kind, code, _ in CODES if kind == "object_type"} >= {"address", "rating_slip", "user"}
    assert {code for kind, code, _ in CODES if kind == "channel"} >= {"command", "task", "system"}


def phrases_of(kind: str, code: str) -> list[Any]:
    """The catalogue's phrases that word a code (an admin site change: the verb's and the model's)."""
    table = {"action": labels.ACTIONS, "object_type": labels.OBJECT_TYPES, "channel": labels.CHANNELS}[kind]
    if code in table:
        return [table[code]]
    parts = code.split(".")
    if kind == "action" and len(parts) == 3 and parts[0] == "admin" and parts[2] in labels.ADMIN_MODEL_ACTIONS:
        return [labels.ADMIN_MODEL_ACTIONS[parts[2]], *phrases_of("object_type", parts[1])]
    return []


def translated(phrase: Any, language: str) -> bool:
    """Whether the language's catalogue has the phrase (its msgid, with its context where it has one)."""
    args = phrase._args  # the lazy translation's msgid, or (context, msgid)
    key = args[0] if len(args) == 1 else f"{args[0]}\x04{args[1]}"
    return bool(trans_real.translation(language)._catalog.get(key))


@pytest.mark.parametrize(("kind", "code", "where"), CODES, ids=[f"{k}={c}" for k, c, _ in CODES])
def test_every_code_written_has_words_in_every_language(kind, code, where):
    phrases = phrases_of(kind, code)
    assert phrases, f"{where} writes the {kind} {code!r}, which casino/audit/labels.py has no words for"
    for language in LANGUAGES:
        missing = [str(p) for p in phrases if not translated(p, language)]
        assert missing == [], f"the {kind} {code!r} is not translated into {language}"
    with translation.override("es"):
        assert LABEL[kind](code) not in (None, labels.code_words(code))


LABEL = {"action": labels.action_label, "object_type": labels.object_label, "channel": labels.channel_label}


def test_the_channels_the_middleware_writes_have_words():
    # casino/middleware.py chooses "api" or "web" at run time
    for code in ("api", "web"):
        assert phrases_of("channel", code)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_of_the_catalogue_is_translated(language):
    phrases = [(f"{kind} {code}", phrase) for kind, by_code in labels.all_codes().items()
               for code, phrase in by_code.items()]
    phrases += [(f"admin {verb}", phrase) for verb, phrase in labels.ADMIN_MODEL_ACTIONS.items()]
    assert [f"{name}: {phrase}" for name, phrase in phrases if not translated(phrase, language)] == []


def test_an_unknown_code_still_reads_as_words():
    # a record from an older version
    assert labels.action_words("round.redeal") == "Round · redeal"
    assert labels.object_words("side_pot") == "Side pot"
    assert labels.channel_words("kiosk") == "Kiosk"
    assert labels.chain_words("table:BAC1") == "Table BAC1"
    assert labels.field_words("side_bet_limit") == "Side bet limit"
