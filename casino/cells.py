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
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str, *, reversible: bool = False) -> str:
    if text.startswith(FORMULA_STARTS) or (reversible and text.startswith("'")):
        return "'" + text
    return text
