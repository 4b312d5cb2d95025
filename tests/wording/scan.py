"""The code-token scanner: what a person reads, searched for what only a programmer should read.

A screen, a dealer prompt, a report cell or an export speaks in the casino's words: labels, names, money
in the house format, times in the casino's time zone. This module finds the tokens that betray code in
such text (docs/languages.md says what it guards; the tests that use it say how):

- ``snake_case``      ``count_variance``, ``pit_manager``: a code where its label belongs
- ``timestamp``       ``2026-11-27T10:27:32Z``, ``2026-11-27 10:27:32+00:00``: a machine's time
- ``employee_id``     ``D0002``, ``E00017``: a signer's id where their name belongs
- ``chips_code``      ``50000x2``: a chip count in minor units (the screen says ``2 × €500``)
- ``bare_number``     ``25000``, ``25000.00``, ``2500000``: a number of 4+ digits without the thousands
                      separator (money in minor units, or an amount outside the one money format)
- ``json``            ``{`` or ``}``: JSON or a template's leftovers
- ``card_code``       ``3C``, ``JD``, ``TS``: a card as the engine writes it (the screen shows ``3♣``)
- ``code_word``       a text that is exactly a known code (``credit``, ``received``, ``baccarat``, ``main``),
                      lower case as stored: the value of a choice shown instead of its label. Only checked
                      against the codes passed in (``codes=``; :func:`known_codes` collects the project's).

Pure Python (no Django) except :func:`known_codes`. Three entry points:

>>> [f.kind for f in scan_text("Fill 50000x2 signed by D0002 at 2026-11-27T10:27:32Z")]
['chips_code', 'employee_id', 'timestamp']
>>> [f.token for f in scan_html('<td>credit</td><td title="pit_manager">€1,000.00</td>', codes={"credit"})]
['credit', 'pit_manager']
>>> scan_html('<span class="mono" translate="no">509336285006</span>')  # a seal's fingerprint, marked as no language's
[]
>>> scan_text("2 × €500 on 27 Nov 2026, 10:27 — Seat 1: €25.00, 3♣ J♦, round #1234, year 2026")
[]
>>> [f.kind for f in scan_cells(["Table", "BAC-1", "received", "25000.00"], codes={"received"})]
['code_word', 'bare_number']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser

# Tokens anybody may read, whatever the pattern says. Keep it short and say why for each.
ALLOWED: frozenset[str] = frozenset({
    "e.g",  # not a code
    "1234.56",  # a CSV's first line shows its machine form of numbers by this example (reports/base.py)
})

# attributes whose text a person reads (a tooltip, a screen reader's name, an empty field's hint, an image)
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "aria-description")
# elements whose content nobody reads as text
SKIP_ELEMENTS = {"script", "style", "template", "noscript", "svg"}
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class Finding:
    kind: str
    token: str
    context: str  # the text around it, to find it on the page

    def __str__(self) -> str:
        return f"{self.kind}: {self.token!r} in …{self.context}…"


PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("timestamp", re.compile(r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
                             r"|[ ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))")),
    ("snake_case", re.compile(r"(?<![\w.@/-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w@/-])")),
    ("chips_code", re.compile(r"\b\d+[x×]\d+\b")),
    ("employee_id", re.compile(r"\b[A-Z]\d{4,6}\b(?!-\d)")),  # not a slip's number (F2026-000001)
    ("card_code", re.compile(r"(?<![\w-])(?:[2-9TJQKA][SHDC])(?![\w-])")),
    ("json", re.compile(r"[{}]")),
    # 4+ digits with no thousands separator: minor units, or money outside the one format. A year (1900-2099
    # alone), a number after "#" or "No." (an id the casino prints: a round, a slip) and digits inside a
    # code (BAC-1001, a date 27/11/2026) are not amounts.
    ("bare_number", re.compile(r"(?<![\w#.,/:-])(?<!No\. )(?<!№)\d{4,}(?:[.,]\d+)?(?![\w/:-]|[.,]\d)")),
)
YEAR = re.compile(r"(?:19|20)\d{2}")


def _context(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 30):end + 30].split())


def scan_text(text: str, *, allowed: Iterable[str] = ()) -> list[Finding]:
    """The code-like tokens of a plain text (a PDF's text, a dealer prompt, a CSV cell), in order."""
    allow = ALLOWED | set(allowed)
    found: list[tuple[int, Finding]] = []
    taken: list[tuple[int, int]] = []  # a timestamp's digits are not also a bare number
    for kind, pattern in PATTERNS:
        for m in pattern.finditer(text):
            token = m.group(0)
            if token in allow or any(a <= m.start() < b for a, b in taken):
                continue
            if kind == "bare_number" and YEAR.fullmatch(token):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), Finding(kind, token, _context(text, m.start(), m.end()))))
    return [f for _, f in sorted(found, key=lambda pair: pair[0])]


def scan_cells(cells: Iterable[object], *, codes: Iterable[str] = (), allowed: Iterable[str] = ()) -> list[Finding]:
    """Each cell (of a CSV or XLSX row, a list of prompts) scanned, and refused when it is exactly a code."""
    code_set = set(codes) - ALLOWED - set(allowed)
    found: list[Finding] = []
    for cell in cells:
        if cell is None:
            continue
        text = str(cell).strip()
        if text in code_set:
            found.append(Finding("code_word", text, text))
        else:
            found.extend(scan_text(text, allowed=allowed))
    return found


class _Reader(HTMLParser):
    """The texts a person reads on a page: each text node (between two tags) and the read attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []
        self._buffer: list[str] = []

    def _flush(self) -> None:
        text = " ".join("".join(self._buffer).split())
        if text:
            self.texts.append(text)
        self._buffer = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            if tag == self.skipping[-1] and tag not in VOID_ELEMENTS:
                self.skipping.append(tag)
            return
        if tag in SKIP_ELEMENTS or dict(attrs).get("translate") == "no":
            # translate="no": HTML's own mark for a text no language changes (a seal's fingerprint)
            self._flush()
            self.skipping.append(tag)
            return
        if tag not in {"b", "strong", "em", "i", "abbr", "small", "span", "a", "time", "bdi", "sup", "sub"}:
            self._flush()  # inline elements keep a sentence in one piece ("Seat <b>1</b>'s bet")
        hidden = dict(attrs).get("type") == "hidden"
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name == "value" and tag == "input" and not hidden and
                                                     dict(attrs).get("type") in {"submit", "button"})):
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if tag not in {"b", "strong", "em", "i", "abbr", "small", "span", "a", "time", "bdi", "sup", "sub"}:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self._buffer.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def readable_texts(html: str) -> list[str]:
    """The pieces of text a person reads on an HTML page, in document order (scripts, styles and hidden
    inputs left out; titles, labels for screen readers, placeholders and button values included)."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.texts


def scan_html(html: str, *, codes: Iterable[str] = (), allowed: Iterable[str] = ()) -> list[Finding]:
    """The code-like tokens of a page as a person reads it (:func:`readable_texts`)."""
    return scan_cells(readable_texts(html), codes=codes, allowed=allowed)


def report(findings: Iterable[Finding], where: str = "") -> str:
    lines = [str(f) for f in findings]
    return f"{len(lines)} code-like token(s){' on ' + where if where else ''}:\n  " + "\n  ".join(lines)


def known_codes() -> set[str]:
    """Every stored code a person must read as its label: the choices of every model field (statuses,
    kinds, causes, roles, bet types…), the registered games, the pits' and shifts' codes. Lower case ones
    only: a code written in capitals is a table's code (``BAC-1``), which the casino prints as it is."""
    from django.apps import apps

    from casino.core.roles import Role
    from tables.engines.registry import available_games
    from tables.models import Pit

    codes: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for value, _label in getattr(field, "flatchoices", None) or ():
                if isinstance(value, str):
                    codes.add(value)
    codes.update(str(role.value) for role in Role)
    codes.update(available_games())
    codes.update(Pit.objects.values_list("code", flat=True))  # needs the database (the test's ``db``)
    return {c for c in codes if c and c == c.lower() and not c.isdigit() and len(c) > 1}
