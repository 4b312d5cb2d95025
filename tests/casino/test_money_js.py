"""The browser's money (static/croupier/money.js) is the server's (casino.money): the same text for the same
amount, and the same answer — an amount, or a refusal — for the same typing, in English and Spanish."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from casino.money import MoneyInputError, format_conf, money_amount, money_parse

MONEY_JS = Path(__file__).resolve().parents[2] / "static" / "croupier" / "money.js"
TYPED = ["1,000.00", "€1,000.00", "1000", "1000.5", "25,50", "1.000,00 €", "EUR 12.5", " 1 000,50 ", "1,000",
         "1.000", "1,00,000", "1.2.3", "12.3456", "abc", "$5", "", "-€3.00", "1,234,567.89", "0", "5,", "€",
         "12345678901234567"]
AMOUNTS = [0, 5, -5, 99, 100, 123456, -123456789, 250000, 10**13]


def _node(conf: dict, typed: list[str], amounts: list[int]) -> dict:
    script = MONEY_JS.read_text() + f"""
    const conf = {json.dumps(conf)};
    const out = {{parsed: [], written: []}};
    for (const text of {json.dumps(typed)}) {{
      try {{ out.parsed.push(window.CroupierMoney.parse(text, conf)); }} catch (e) {{ out.parsed.push(null); }}
    }}
    for (const minor of {json.dumps(amounts)}) out.written.push(window.CroupierMoney.format(minor, conf));
    console.log(JSON.stringify(out));
    """
    done = subprocess.run(["node", "-e", "globalThis.window = globalThis;" + script], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "es", "zh-hant"])
def test_the_browser_reads_and_writes_money_as_the_server_does(settings, language):
    settings.CROUPIER = {**settings.CROUPIER, "CURRENCY": "EUR", "MINOR_UNIT_DIGITS": 2}
    with translation.override(language):
        # given what the server reads and writes
        expected_parsed = []
        for text in TYPED:
            try:
                expected_parsed.append(money_parse(text))
            except MoneyInputError:
                expected_parsed.append(None)
        expected_written = [money_amount(m) for m in AMOUNTS]
        # when the browser reads and writes the same
        browser = _node(format_conf(), TYPED, AMOUNTS)
    # then the answers are the same
    assert browser["parsed"] == expected_parsed
    assert browser["written"] == expected_written
