"""The scanner finds each code-like token the issue saw on the screens, and nothing in the casino's words."""

from __future__ import annotations

import pytest

from tests.wording.scan import readable_texts, scan_cells, scan_html, scan_text


@pytest.mark.parametrize(
    ("text", "kind", "token"),
    [
        ("Chips 50000x2", "chips_code", "50000x2"),
        ("Cause: count_variance", "snake_case", "count_variance"),
        ("Role pit_manager", "snake_case", "pit_manager"),
        ("Signed by D0002", "employee_id", "D0002"),
        ("At 2026-11-27T10:27:32Z", "timestamp", "2026-11-27T10:27:32Z"),
        ("At 2026-11-27 10:27:32+00:00", "timestamp", "2026-11-27 10:27:32+00:00"),
        ("At 2026-11-27T10:27:32.123456+00:00", "timestamp", "2026-11-27T10:27:32.123456+00:00"),
        ('{"amount": 2500}', "json", "{"),
        ("turn the middle card (3C and JD, bet 2000)", "card_code", "3C"),
        ("Deal complete: JH in hock", "card_code", "JH"),
        ("Turn up a card against seat 1's bet of 5000", "bare_number", "5000"),
        ("Limit 25000.00", "bare_number", "25000.00"),
        ("Cage €1000.00", "bare_number", "1000.00"),
        ("max 2500000", "bare_number", "2500000"),
    ],
)
def test_each_code_like_token_of_the_issue_is_found(text, kind, token):
    # when
    found = scan_text(text)
    # then
    assert (kind, token) in [(f.kind, f.token) for f in found], found


@pytest.mark.parametrize(
    "text",
    [
        "2 × €500",
        "€1,000.00",
        "1,000.00 EUR",
        "1.000,00 €",
        "27 Nov 2026, 10:27",
        "Round #1234",
        "Gaming day 27/11/2026",
        "Table BAC-1001",
        "Slip F2026-000001 · Marker M2026-000003",
        "Seat 1 hand 2: hit",
        "10♠ J♦ 3♣",
        "Hold 53.13 %",
        "Main pit · Day shift · Baccarat",
        "pitboss@example.com",
        "Year 2026",
        "Closed 27 November 2026 at 18:00",
    ],
)
def test_the_casinos_words_pass(text):
    assert scan_text(text) == []


def test_a_page_is_read_as_a_person_reads_it():
    # given a page with a script, a style, a hidden input, a tooltip and inline markup
    page = """<html><head><title>Pit</title><style>.a{color:red}</style></head><body>
      <script>const x = {"max_bet": 2500000};</script>
      <form><input type="hidden" name="table_id" value="2026-11-27T10:27:32Z">
        <input type="submit" value="Save limits"></form>
      <p>Seat <b>1</b>'s bet of <span>€25.00</span></p>
      <abbr title="count_variance">Variance</abbr>
      <table><tr><td>received</td><td>Received</td></tr></table>
    </body></html>"""
    # when
    texts = readable_texts(page)
    found = scan_html(page, codes={"received"})
    # then
    assert "Seat 1's bet of €25.00" in texts
    assert "Save limits" in texts
    assert [(f.kind, f.token) for f in found] == [("snake_case", "count_variance"), ("code_word", "received")]


def test_a_code_is_refused_only_as_a_whole_text_and_only_as_stored():
    # given
    codes = {"credit", "main", "baccarat"}
    # then: the code alone is refused, its label and a sentence using the word are not
    assert [f.token for f in scan_cells(["credit", "Credit", "Main pit", "baccarat"], codes=codes)] == [
        "credit", "baccarat"]
    assert scan_cells(["A credit of €5.00 to the main bank"], codes=codes) == []


def test_the_allowed_list_lets_a_named_token_through():
    assert scan_text("Export as report_2026.csv", allowed={"report_2026"}) == []
    assert [f.token for f in scan_text("Export as report_2026.csv")] == ["report_2026"]


def test_the_scanners_examples_run():
    import doctest

    from tests.wording import scan

    assert doctest.testmod(scan).failed == 0
