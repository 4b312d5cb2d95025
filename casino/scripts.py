"""Right-to-left text for documents drawn glyph by glyph (the PDFs): Arabic letters joined into their
contextual forms, and every line put in visual order, so a name typed as ``فاطمة الزهراء`` prints
joined and read from the right, and ``Fatima فاطمة (VIP)`` keeps its Latin words left to right.

PDF drawing (reportlab's canvas) places characters in the order given, with the font's default
glyph: without this an Arabic name comes out reversed and unjoined. Two steps, both from the
Unicode character database that ships with Python (no table kept here):

* shaping: each Arabic letter takes its initial, medial, final or isolated presentation form
  (U+FB50–U+FEFF, which DejaVu Sans draws) from its neighbours' joining, and lam followed by
  alef becomes the lam-alef ligature;
* ordering: the Unicode bidirectional algorithm's essentials for one line (strong types, numbers,
  neutrals between strong runs, then reversing runs from the highest level down; mirrored
  brackets at odd levels). Explicit embeddings and isolates are not honoured: names and report
  cells do not carry them.

>>> visual("abc")
'abc'
>>> visual("بب") == "\\ufe90\\ufe91"
True
>>> visual("No. 12 for علي")
'No. 12 for ﻲﻠﻋ'
"""

from __future__ import annotations

import functools
import unicodedata

_FORMS = ("isolated", "final", "initial", "medial")
_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<", "«": "»", "»": "«"}
_ALEFS = frozenset("\u0622\u0623\u0625\u0627")
_TATWEEL = "\u0640"


@functools.cache
def _tables() -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict[str, str]]]:
    """Presentation forms by letter and form, and the lam-alef ligatures, from the character database."""
    forms: dict[str, dict[str, str]] = {}
    ligatures: dict[tuple[str, str], dict[str, str]] = {}
    for cp in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        decomposition = unicodedata.decomposition(chr(cp))
        if not decomposition.startswith("<"):
            continue
        tag, *points = decomposition.split()
        form = tag.strip("<>")
        if form not in _FORMS:
            continue
        letters = "".join(chr(int(p, 16)) for p in points)
        if len(letters) == 1:
            forms.setdefault(letters, {}).setdefault(form, chr(cp))
        elif len(letters) == 2 and letters[0] == "\u0644" and letters[1] in _ALEFS:
            ligatures.setdefault((letters[0], letters[1]), {}).setdefault(form, chr(cp))
    return forms, ligatures


def _joins_both(ch: str) -> bool:
    forms = _tables()[0].get(ch, {})
    return ch == _TATWEEL or "initial" in forms or "medial" in forms


def _joins(ch: str) -> bool:
    return ch == _TATWEEL or ch in _tables()[0]


def _transparent(ch: str) -> bool:
    return unicodedata.category(ch) == "Mn"


def shape(text: str) -> str:
    """Arabic letters in their contextual presentation forms (logical order kept)."""
    forms, ligatures = _tables()
    if not any(ch in forms for ch in text):
        return text
    out: list[str] = []
    chars = list(text)
    n = len(chars)

    def neighbour(i: int, step: int) -> str | None:
        j = i + step
        while 0 <= j < n and _transparent(chars[j]):
            j += step
        return chars[j] if 0 <= j < n else None

    i = 0
    while i < n:
        ch = chars[i]
        if ch not in forms:
            out.append(ch)
            i += 1
            continue
        before, after = neighbour(i, -1), neighbour(i, 1)
        joins_before = before is not None and _joins_both(before)
        if ch == "\u0644" and i + 1 < n and (ch, chars[i + 1]) in ligatures:
            lig = ligatures[(ch, chars[i + 1])]
            out.append(lig.get("final" if joins_before else "isolated") or lig.get("isolated") or ch + chars[i + 1])
            i += 2
            continue
        joins_after = _joins_both(ch) and after is not None and _joins(after)
        form = ("medial" if joins_after else "final") if joins_before else ("initial" if joins_after else "isolated")
        mine = forms[ch]
        out.append(mine.get(form) or mine.get("final" if form == "medial" else "isolated") or mine.get("isolated") or ch)
        i += 1
    return "".join(out)


def _kind(ch: str) -> str:
    t = unicodedata.bidirectional(ch)
    if t in ("R", "AL"):
        return "R"
    if t == "L":
        return "L"
    if t in ("EN", "AN"):
        return "N"
    if t == "NSM":
        return "M"
    return "O"


def levels(text: str, base: int | None = None) -> list[int]:
    """Each character's embedding level (0 left to right; 1 right to left; 2 numbers and Latin inside)."""
    kinds = [_kind(ch) for ch in text]
    for i, k in enumerate(kinds):  # a mark takes its base character's type
        if k == "M":
            kinds[i] = kinds[i - 1] if i else "O"
    if base is None:
        first = next((k for k in kinds if k in ("L", "R")), "L")
        base = 1 if first == "R" else 0
    strong: list[str] = []  # each character's strong direction (numbers are R for the neutrals, but keep "N")
    last = "R" if base else "L"
    for k in kinds:
        if k == "N":
            strong.append("N" if last == "R" else "L")  # a number after Latin text is Latin text (W7)
        elif k in ("L", "R"):
            last = k
            strong.append(k)
        else:
            strong.append("O")
    # neutrals between two runs of the same direction take it; else the paragraph's (N1, N2)
    resolved = list(strong)
    n = len(resolved)
    i = 0
    while i < n:
        if resolved[i] != "O":
            i += 1
            continue
        j = i
        while j < n and resolved[j] == "O":
            j += 1
        left = resolved[i - 1] if i else ("R" if base else "L")
        right = resolved[j] if j < n else ("R" if base else "L")
        left, right = ("R" if left == "N" else left), ("R" if right == "N" else right)
        fill = left if left == right else ("R" if base else "L")
        for m in range(i, j):
            resolved[m] = fill
        i = j
    # trailing spaces return to the paragraph's level (L1)
    end = n
    while end and text[end - 1].isspace():
        end -= 1
        resolved[end] = "B"
    out = []
    for r in resolved:
        if r == "B":
            out.append(base)
        elif base == 0:
            out.append({"L": 0, "R": 1, "N": 2}[r])
        else:
            out.append({"L": 2, "R": 1, "N": 2}[r])
    return out


def visual(text: str) -> str:
    """One line as it is drawn left to right: Arabic shaped, right-to-left runs reversed."""
    if not any(_kind(ch) == "R" for ch in text):
        return text
    shaped = shape(text)
    lv = levels(shaped)
    chars = [(_MIRROR.get(ch, ch) if level % 2 else ch) for ch, level in zip(shaped, lv)]
    top = max(lv)
    lowest_odd = 1
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(chars):
            if lv[i] < level:
                i += 1
                continue
            j = i
            while j < len(chars) and lv[j] >= level:
                j += 1
            chars[i:j] = chars[i:j][::-1]
            lv[i:j] = lv[i:j][::-1]
            i = j
    return "".join(chars)
