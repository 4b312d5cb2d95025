"""The catalogs in locale/: every message the code marks has its words in each language the screens speak (no
fallback to English), the translations keep every placeholder, and the compiled catalogs (.mo, committed so a
clean clone runs without gettext) are those of the .po files beside them.

docs/languages.md says how catalogs are built; ``make locale`` re-extracts and compiles them.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import to_locale

from tests.languages.po import Entry, read

ROOT = Path(__file__).resolve().parents[2]
LOCALES = [to_locale(code) for code, _ in settings.LANGUAGES]
DOMAINS = ("django", "djangojs")
# what makemessages reads: the apps, the templates and the screens' JavaScript (the same as `make locale`)
SOURCES = ["accounting", "cardroom", "casino", "floor", "players", "slots", "tables", "templates", "static/croupier",
           "manage.py"]
PYTHON_FORMAT = re.compile(r"%\((\w+)\)[sd]|%%")
BRACE_FORMAT = re.compile(r"\{(\w+)(?::\w+)?\}")
MARKUP = re.compile(r"</?\w+[^>]*>")


def catalog(locale: str, domain: str) -> list[Entry]:
    return read(ROOT / "locale" / locale / "LC_MESSAGES" / f"{domain}.po")


def untranslated(entries: list[Entry], plurals: int) -> list[str]:
    bad = []
    for e in entries[1:]:
        if e.obsolete:
            continue
        forms = plurals if e.msgid_plural is not None else 1
        if "fuzzy" in e.flags or any(not e.msgstr.get(i) for i in range(forms)):
            bad.append(e.msgid)
    return bad


def plural_count(entries: list[Entry]) -> int:
    m = re.search(r"nplurals=(\d+)", entries[0].msgstr.get(0, ""))
    assert m, "the catalog's header names no plural forms"
    return int(m.group(1))


def test_the_screens_speak_english_both_chineses_and_spanish():
    assert LOCALES == ["en", "zh_Hant", "zh_Hans", "es"]
    for locale in LOCALES:
        for domain in DOMAINS:
            assert (ROOT / "locale" / locale / "LC_MESSAGES" / f"{domain}.po").is_file(), (locale, domain)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_in_the_catalogs_has_its_words_in_the_language(locale, domain):
    entries = catalog(locale, domain)
    assert len(entries) > 100
    assert untranslated(entries, plural_count(entries)) == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_each_translation_keeps_the_placeholders_and_markup_of_its_message(locale, domain):
    wrong = []
    for e in catalog(locale, domain)[1:]:
        for pattern in (PYTHON_FORMAT, BRACE_FORMAT, MARKUP):
            wanted = sorted(pattern.findall(e.msgid))
            for text in e.msgstr.values():
                got = sorted(pattern.findall(text))
                # a named %-placeholder may go unused (a language without the message's English plural "s"),
                # never one the message does not give; {name} and markup are kept exactly
                if got != wanted and not (pattern is PYTHON_FORMAT and set(got) <= set(wanted)):
                    wrong.append((e.msgid, text))
    assert wrong == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_the_compiled_catalog_is_the_one_of_its_po_file(locale, domain):
    # given the catalog as written and as compiled (committed: a clean clone needs no msgfmt)
    entries = catalog(locale, domain)
    with (ROOT / "locale" / locale / "LC_MESSAGES" / f"{domain}.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    # then every message is there with the same words, and nothing else
    expected: dict[object, str] = {}
    for e in entries[1:]:
        if e.obsolete or "fuzzy" in e.flags:
            continue
        if e.msgid_plural is None:
            expected[e.key] = e.msgstr[0]
        else:
            expected.update({(e.key, i): text for i, text in e.msgstr.items()})
    got = {k: v for k, v in compiled.items() if k != ""}
    assert got == expected, f"locale/{locale}/LC_MESSAGES/{domain}.mo is stale: run `make locale`"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext's xgettext extracts the messages (.ci/run installs it)")
def test_every_message_the_code_marks_is_in_every_catalog_with_its_words(tmp_path):
    # given a copy of the sources and catalogs, its messages extracted afresh (as `make locale` does)
    for source in SOURCES:
        src = ROOT / source
        if src.is_dir():
            shutil.copytree(src, tmp_path / source, ignore=shutil.ignore_patterns("__pycache__", "vendor"))
        else:
            shutil.copy2(src, tmp_path / source)
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    args = ["--no-obsolete", "--ignore=static/vendor", *(f"-l{locale}" for locale in LOCALES)]
    for domain in DOMAINS:
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "makemessages", "-d", domain, *args],
                       cwd=tmp_path, check=True, capture_output=True, timeout=600)
    # then each catalog already had every message (none new, none fuzzy-matched), each with its words
    missing = {}
    for locale in LOCALES:
        for domain in DOMAINS:
            fresh = read(tmp_path / "locale" / locale / "LC_MESSAGES" / f"{domain}.po")
            ours = {e.key for e in catalog(locale, domain)[1:]}
            new = [e.msgid for e in fresh[1:] if e.key not in ours]
            bad = untranslated(fresh, plural_count(fresh))
            if new or bad:
                missing[f"{locale}/{domain}"] = sorted(set(new) | set(bad))[:20]
    assert missing == {}, "messages without words (run `make locale` and translate them): " + repr(missing)
