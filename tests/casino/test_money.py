"""The one money format (casino.money.money_amount) and the one parser of typed money (money_parse):
what the format writes, the parser reads back, in every shipped language; what could be read two ways is
refused in words."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.money import chips_words, percent_decimal, percent_text, percent_words
from casino.money import MoneyInputError, money_amount, money_parse, number_words

LANGUAGES = ("en", "es", "zh-hans", "zh-hant")


@pytest.fixture(autouse=True)
def _euro(settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}


@pytest.mark.parametrize(
    ("language", "minor", "text"),
    [
        ("en", 250000, "€2,500.00"),
        ("en", -5, "-€0.05"),
        ("en", 0, "€0.00"),
        ("en", 123456789, "€1,234,567.89"),
        ("es", 250000, "2\u00a0500,00\u00a0€"),
        ("zh-hant", 250000, "€2,500.00"),  # by threes with commas, as Macau writes money
        ("zh-hans", 100, "€1.00"),
    ],
)
def test_money_is_written_one_way_per_language(language, minor, text):
    with translation.override(language):
        assert money_amount(minor) == text


def test_a_currency_without_a_symbol_is_written_with_its_code(settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "CHF"}
    with translation.override("en"):
        assert money_amount(123456) == "1,234.56 CHF"


def test_a_currency_without_minor_units_has_no_decimals(settings):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "JPY", "MINOR_UNIT_DIGITS": 0}
    with translation.override("en"):
        assert money_amount(1500000) == "¥1,500,000"
        assert money_parse("¥1,500,000") == 1500000


@pytest.mark.parametrize(
    ("typed", "minor"),
    [
        ("1,000.00", 100000),
        ("€1,000.00", 100000),
        ("1000", 100000),
        ("1000.5", 100050),
        ("25,50", 2550),
        ("1.000,00 €", 100000),
        ("EUR 12.5", 1250),
        ("12.50 eur", 1250),
        (" 1 000,50 ", 100050),
        ("1,000", 100000),
        ("1,234,567.89", 123456789),
        ("-€3.00", -300),
        ("0", 0),
    ],
)
def test_what_the_format_shows_is_accepted_as_typed(typed, minor):
    with translation.override("en"):
        assert money_parse(typed) == minor


@pytest.mark.parametrize(
    ("language", "typed", "words"),
    [
        ("en", "1.000", "could be read two ways"),  # a thousand, or one?
        ("es", "1,000", "se puede leer de dos maneras"),  # in the reader's language (locale/es)
        ("en", "1,00,000", "not in threes"),
        ("en", "1.2.3", "not in threes"),
        ("en", "12.345", "could be read two ways"),
        ("en", "1.005,5.5", "not an amount"),
        ("en", "1.234", "could be read two ways"),
        ("en", "12.3456", "more decimals than the currency"),
        ("en", "abc", "not an amount"),
        ("en", "$5", "not an amount"),
        ("en", "", "Type an amount"),
        ("en", "€", "not an amount"),
        ("en", "1e5", "not an amount"),
        ("en", "12345678901234567", "too large"),
    ],
)
def test_what_could_be_read_two_ways_or_is_not_money_is_refused_in_words(language, typed, words):
    with translation.override(language), pytest.raises(MoneyInputError) as refused:
        money_parse(typed)
    assert words in refused.value.message


def test_the_same_text_is_one_amount_in_spanish():
    with translation.override("es"):
        assert money_parse("1.000") == 100000  # "." groups thousands in Spanish
        assert money_parse("1.000,50 €") == 100050
        assert money_parse("25,5") == 2550


@settings(max_examples=300, deadline=None)
@given(minor=st.integers(min_value=-(10**14), max_value=10**14), language=st.sampled_from(LANGUAGES),
       symbol=st.booleans())
def test_what_the_format_writes_the_parser_reads_back_exactly(minor, language, symbol):
    with translation.override(language):
        assert money_parse(money_amount(minor, symbol=symbol)) == minor


@settings(max_examples=300, deadline=None)
@given(whole=st.integers(min_value=0, max_value=10**12), cents=st.integers(min_value=0, max_value=99))
def test_a_plain_amount_with_a_point_is_read_as_typed(whole, cents):
    with translation.override("en"):
        assert money_parse(f"{whole}.{cents:02d}") == whole * 100 + cents
        assert money_parse(str(whole)) == whole * 100


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="0123456789.,€ -eE+", max_size=14))
def test_any_text_is_an_amount_or_a_refusal_in_words_never_an_error(text):
    with translation.override("en"):
        try:
            value = money_parse(text)
        except MoneyInputError as refused:
            assert refused.message
        else:
            assert isinstance(value, int)


def test_number_words_group_by_the_languages_separator():
    with translation.override("en"):
        assert number_words(-123456789, 2) == "-1,234,567.89"
        assert number_words(999, 0) == "999"


def test_chips_are_counted_by_value():
    with translation.override("en"):
        assert chips_words(50000, 2) == "2 × €500"
        assert chips_words(250, 4) == "4 × €2.50"


def test_the_charts_and_the_tiles_round_a_percentage_the_same_way():
    # given 17 won of 32: 53.125 % exactly
    hold = Fraction(17, 32)
    # then the tile's text and the chart's number are both 53.13 (decimal half away from zero, not a float's 53.12)
    assert percent_text(hold) == "53.13"
    assert str(percent_decimal(hold)) == "53.13"
    with translation.override("en"):
        assert percent_words(hold) == "53.13 %"
    with translation.override("es"):
        assert percent_words(hold) == "53,13 %"
    assert round(float(hold * 100), 2) == 53.12  # what the charts did before: a binary float
