"""Text cells for spreadsheet tools: free text that a spreadsheet would run as a formula is neutralised.

Excel, LibreOffice and Google Sheets treat a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and,
after a tab or a carriage return, whatever follows) as a formula, so a player named
``=HYPERLINK("http://…","click")`` becomes a live link in the accountant's spreadsheet. Every CSV
and XLSX export writes its text cells through :func:`neutralise`, which puts an apostrophe in front:
the spreadsheet shows the text, the apostrophe only in the formula bar. Numbers are written as
numbers and are never touched.

With ``reversible=True`` a leading apostrophe is escaped too (``'x`` → ``''x``), so a reader that
drops one leading apostrophe gets the original text back exactly (the audit trail's CSV, whose
cells must hash to the record's hash: ``casino/audit/offline.py``).

>>> neutralise('=HYPERLINK("http://x","y")'), neutralise("-5"), neutralise("Zoë"), neutralise("")
('\\'=HYPERLINK("http://x","y")', "'-5", 'Zoë', '')
>>> neutralise("'quoted"), neutralise("'quoted", reversible=True)
("'quoted", "''quoted")

A spreadsheet's cell cannot hold the control characters below a space (other than tab, line feed and
carriage return): :func:`sheet_text` writes each as U+FFFD, so free text that carries one (a typed filter,
a name) is exported instead of failing the export.

>>> sheet_text("ab\x01c"), sheet_text("=1+1")
('ab\ufffdc', "'=1+1")
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NOT_IN_A_SHEET = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")  # what an XLSX cell cannot hold (openpyxl's rule)


def neutralise(text: str, *, reversible: bool = False) -> str:
    if text.startswith(FORMULA_STARTS) or (reversible and text.startswith("'")):
        return "'" + text
    return text


def sheet_text(text: str) -> str:
    """A text cell of a spreadsheet (XLSX): neutralised, with what a cell cannot hold shown as U+FFFD."""
    return neutralise(NOT_IN_A_SHEET.sub("\ufffd", text))
