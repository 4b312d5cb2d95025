"""Fonts for the PDFs Croupier writes (reports, the audit trail): every name must print.

DejaVu Sans Condensed (Debian's ``fonts-dejavu-core``) draws text and figures; characters it lacks
(Chinese, Japanese, Korean names) are drawn with a fallback: Droid Sans Fallback (Debian's
``fonts-droid-fallback``) or WenQuanYi Micro Hei when installed, embedded like DejaVu, else
reportlab's built-in CID font STSong-Light (not embedded: the reader's Asian font pack draws it).
Right-to-left names (Arabic) are shaped and put in visual order before drawing (``casino.scripts``).
TrueType fonts are subset: a PDF carries only the glyphs it uses. No font file is kept in the
repository: ``.ci/run`` installs both Debian packages, and docs/accounting.md says so.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from casino.scripts import visual

log = logging.getLogger(__name__)

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
REGULAR_FILES = (DEJAVU / "DejaVuSansCondensed.ttf", DEJAVU / "DejaVuSans.ttf")
BOLD_FILES = (DEJAVU / "DejaVuSansCondensed-Bold.ttf", DEJAVU / "DejaVuSans-Bold.ttf")
FALLBACK_FILES = (
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    fallback: str | None
    covered: frozenset[int]  # code points the regular font draws (bold has the same coverage)
    fallback_covered: frozenset[int] | None  # None: a CID font, assumed to draw whatever is left

    def runs(self, text: str, *, bold: bool = False) -> list[tuple[str, str]]:
        """``text`` cut into (font, piece) runs: each character in the first font that has it."""
        main = self.bold if bold else self.regular
        out: list[tuple[str, str]] = []
        for ch in text:
            font = main
            if ord(ch) not in self.covered and self.fallback is not None:
                if self.fallback_covered is None or ord(ch) in self.fallback_covered:
                    font = self.fallback
            if out and out[-1][0] == font:
                out[-1] = (font, out[-1][1] + ch)
            else:
                out.append((font, ch))
        return out

    def markup(self, text: str) -> str:
        """``text`` escaped for a reportlab Paragraph, the fallback's runs in ``<font>`` tags."""
        return "".join(
            escape(piece) if font in (self.regular, self.bold) else f'<font name="{font}">{escape(piece)}</font>'
            for font, piece in self.runs(text)
        )


def _first(paths: tuple[Path, ...]) -> Path | None:
    return next((p for p in paths if p.is_file()), None)


@functools.cache
def fonts() -> Fonts:
    """Register the fonts once per process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.ttfonts import TTFont

    regular_path, bold_path = _first(REGULAR_FILES), _first(BOLD_FILES)
    if regular_path is None or bold_path is None:  # no DejaVu: reportlab's own Vera (Latin only)
        import reportlab

        vera = Path(reportlab.__file__).parent / "fonts"
        log.warning("DejaVu fonts not found (install fonts-dejavu-core): PDF reports use Vera, Latin only")
        regular_path, bold_path = vera / "Vera.ttf", vera / "VeraBd.ttf"
    regular, bold = TTFont("CroupierSans", str(regular_path)), TTFont("CroupierSans-Bold", str(bold_path))
    pdfmetrics.registerFont(regular)
    pdfmetrics.registerFont(bold)
    fallback_path = _first(FALLBACK_FILES)
    if fallback_path is not None:
        fallback = TTFont("CroupierFallback", str(fallback_path), subfontIndex=0)
        pdfmetrics.registerFont(fallback)
        return Fonts("CroupierSans", "CroupierSans-Bold", "CroupierFallback",
                     frozenset(regular.face.charToGlyph), frozenset(fallback.face.charToGlyph))
    log.warning("no CJK TrueType font found (install fonts-droid-fallback): PDF reports use STSong-Light")
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return Fonts("CroupierSans", "CroupierSans-Bold", "STSong-Light", frozenset(regular.face.charToGlyph), None)


class Text:
    """Measuring, wrapping and drawing text in runs of fonts."""

    def __init__(self, f: Fonts) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        self.fonts = f
        self._width = stringWidth

    def width(self, text: str, size: float, *, bold: bool = False) -> float:
        return sum(self._width(piece, font, size) for font, piece in self.fonts.runs(visual(text), bold=bold))

    def wrap(self, text: str, room: float, size: float, *, bold: bool = False) -> list[str]:
        """Lines no wider than ``room``: at spaces, and inside a word only when the word alone is wider."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}" if line else word
                if self.width(candidate, size, bold=bold) <= room:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                line = ""
                for ch in word:  # a word wider than the column: break it where it must
                    if line and self.width(line + ch, size, bold=bold) > room:
                        lines.append(line)
                        line = ""
                    line += ch
            lines.append(line)
        return lines or [""]

    def draw(self, canvas: Any, x: float, y: float, text: str, size: float, *, bold: bool = False,
             right: bool = False) -> None:
        """One line at (x, y), in visual order: Arabic joined and read from the right (``casino.scripts``)."""
        if right:
            x -= self.width(text, size, bold=bold)
        for font, piece in self.fonts.runs(visual(text), bold=bold):
            canvas.setFont(font, size)
            canvas.drawString(x, y, piece)
            x += self._width(piece, font, size)
