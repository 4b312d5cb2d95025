"""Every refusal a person reads comes through the translation system.

A service refuses with casino.errors' DomainError family (InvalidInput, Forbidden, NotFound, Conflict,
Unavailable and the apps' subclasses); the API and the screens show its message to the person who asked,
in their language. A message written as a plain string or an f-string stays English for everyone: this test
reads the sources (AST) and fails on one. The pure engines (tables/engines, tables/scoring) refuse with
message ids and params that the apps word (docs/languages.md); internal errors nobody reads on a screen
(RuntimeError, CommandError…) are not refusals.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "tables", "accounting", "players", "cardroom", "slots", "floor")
BASE = {"DomainError", "InvalidInput", "Forbidden", "NotFound", "Conflict", "Unavailable"}
PURE = ("/migrations/", "/engines/", "/scoring/", "/protection/", "/simulation/", "/management/commands/")
TRANSLATE = {"gettext", "_", "gettext_lazy", "pgettext", "ngettext", "npgettext", "pgettext_lazy", "ngettext_lazy"}


def sources() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if not any(part in "/" + path.relative_to(ROOT).as_posix() for part in PURE):
                yield path


def refusal_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """The DomainError family: the base classes and every app class derived from one of them."""
    names = set(BASE)
    grown = True
    while grown:
        grown = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names and any(
                        (base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")) in names
                        for base in node.bases):
                    names.add(node.name)
                    grown = True
    return names


def translated(message: ast.expr) -> bool:
    """Whether a refusal's message is a translated sentence (or a value passed through, as ``exc.message``).

    >>> translated(ast.parse('gettext("No shift %(shift)s.") % {"shift": 1}', mode="eval").body)
    True
    >>> translated(ast.parse('f"no shift {shift_id}"', mode="eval").body)
    False
    >>> translated(ast.parse('"no such shift"', mode="eval").body)
    False
    >>> translated(ast.parse('exc.message', mode="eval").body)
    True
    """
    if isinstance(message, ast.BinOp) and isinstance(message.op, ast.Mod):
        message = message.left
    if isinstance(message, ast.Call):
        func = message.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in TRANSLATE:
            return True
        if name == "format" and isinstance(func, ast.Attribute):
            return translated(func.value)
        return not (isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Constant, ast.JoinedStr)))
    if isinstance(message, ast.JoinedStr):
        return False
    if isinstance(message, ast.Constant):
        return not (isinstance(message.value, str) and message.value.strip())
    return not isinstance(message, ast.BinOp)


def untranslated() -> list[str]:
    trees = {path: ast.parse(path.read_text()) for path in sources()}
    refusals = refusal_classes(trees)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in refusals:
                continue
            args = node.exc.args
            message = args[0] if args else next((k.value for k in node.exc.keywords if k.arg == "message"), None)
            if message is not None and not translated(message):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(message)[:100]}")
    return found


def test_every_refusal_is_a_translated_sentence() -> None:
    found = untranslated()
    assert not found, "refusals outside the translation system:\n" + "\n".join(found)
