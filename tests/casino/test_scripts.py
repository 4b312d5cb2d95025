"""Right-to-left names in PDFs: Arabic joined and read from the right (``casino.scripts``), so a PDF
reader and ``pdftotext`` give the name back in reading order."""

from __future__ import annotations

import io
import subprocess
import unicodedata

from accounting.reports.base import TEXT, Column, Filters, Report
from accounting.reports.pdf import write_pdf
from casino.scripts import shape, visual

NAME = "فاطمة الزهراء"
CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u200e\u200f"))


class Names(Report):
    name = "names"
    title = "Players"
    columns = (Column("player", "Player", TEXT), Column("note", "Note", TEXT))

    def rows(self):
        yield (NAME, "VIP")
        yield ("Zoë Łukasz 王伟", "regular")


def reading_text(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return unicodedata.normalize("NFKC", out).translate(CONTROLS)


def test_arabic_letters_take_their_joined_forms():
    # ب joins both ways: initial, medial, final forms; ا joins only to the right
    assert shape("ببب") == "\ufe91\ufe92\ufe90"
    assert shape("با") == "\ufe91\ufe8e"
    assert shape("لا") == "\ufefb"  # lam-alef, one ligature
    assert unicodedata.normalize("NFKC", shape(NAME)) == NAME


def test_a_line_is_drawn_in_visual_order_with_latin_and_numbers_left_to_right():
    assert visual("Table BAC1") == "Table BAC1"
    drawn = visual(f"Player {NAME} (VIP) 12")
    assert drawn.startswith("Player ")
    assert drawn.endswith(" (VIP) 12")
    # the Arabic run is reversed: its first letter is drawn rightmost
    arabic = drawn[len("Player "):-len(" (VIP) 12")]
    assert unicodedata.normalize("NFKC", arabic[::-1]) == NAME


def test_a_pdf_with_an_arabic_name_extracts_in_reading_order():
    # given a report whose rows carry an Arabic name beside Latin and Chinese ones
    out = io.BytesIO()
    # when it is written as PDF
    write_pdf(Names(Filters()), out, generated_by="auditor")
    text = reading_text(out.getvalue())
    # then pdftotext gives the name back as it is read, joined letters and all
    assert NAME in text
    assert NAME[::-1] not in text
    assert "Zoë Łukasz 王伟" in text
