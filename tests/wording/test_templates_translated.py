"""Every word a template shows a person goes through the translation system.

The code-token scan (``scan.py``) finds codes on rendered pages; this one finds the words a template writes
itself outside ``{% translate %}``/``{% blocktranslate %}``: visible text and the attributes a person reads or a
screen reader says (``aria-label``, ``title``, ``placeholder``, ``alt``). Such words stay English in every
language, as the slot floor's liability note and the demo's banner once did (docs/languages.md).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ_ATTRIBUTES = re.compile(r'\b(?:aria-label|aria-description|title|placeholder|alt)="([^"]*)"')
WORDS = re.compile(r"[A-Za-z][A-Za-z'’]+(?:[ ,;:.()\"-]+[A-Za-z][A-Za-z'’]*)*")
# What may stand in a template as it is: format and brand names, HTML entities, CSS class or code examples
# (kebab-case, as ``page-dealer`` or a progressive's code ``crazy-dragon``).
ALLOWED = re.compile(r"CSV|XLSX|PDF|Excel|XLSX \(Excel\)|Croupier|nbsp|times|middot|mdash|ndash|rarr|larr|hellip|amp"
                     r"|[a-z0-9]+(?:-[a-z0-9]+)+")


def _blank(match: re.Match[str]) -> str:
    """The matched text as its line breaks only, so that line numbers stay true."""
    return "\n" * match.group(0).count("\n")


def untranslated(source: str) -> list[tuple[int, str]]:
    """(line, words) a template shows outside the translation tags.

    >>> untranslated('{% load i18n %}<h1>{% translate "Cage" %}</h1><p title="Back">Count {{ n }} chips</p>')
    [(1, 'Back'), (1, 'Count'), (1, 'chips')]
    >>> untranslated('<p>{% blocktranslate %}Count {{ n }} chips{% endblocktranslate %}</p><b class="x">€</b>')
    []
    """
    text = re.sub(r"(?s)\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", _blank, source)
    text = re.sub(r"(?s)\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", _blank, text)
    text = re.sub(r"(?s)\{\{.*?\}\}|\{%.*?%\}", "\u00a4", text)
    text = re.sub(r"(?s)<script.*?</script>|<style.*?</style>|<!--.*?-->", _blank, text)
    found: list[tuple[int, str]] = []
    for m in READ_ATTRIBUTES.finditer(text):
        if re.search(r"[a-z]{3,}", m.group(1)) and not ALLOWED.fullmatch(m.group(1)):
            found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    shown = re.sub(r"(?s)<[^>]*>", _blank, text)
    for number, line in enumerate(shown.split("\n"), 1):
        for m in WORDS.finditer(line):
            if re.search(r"[a-z]{2,}", m.group(0)) and not ALLOWED.fullmatch(m.group(0)):
                found.append((number, m.group(0)))
    return sorted(found)


def templates() -> list[Path]:
    paths = set(ROOT.glob("templates/**/*.html")) | set(ROOT.glob("*/templates/**/*.html"))
    return sorted(p for p in paths if ".venv" not in p.parts)


def test_every_template_word_is_translated() -> None:
    assert len(templates()) > 50
    found = [f"{path.relative_to(ROOT)}:{line}: {words}" for path in templates()
             for line, words in untranslated(path.read_text())]
    assert not found, "words outside the translation system:\n" + "\n".join(found)
