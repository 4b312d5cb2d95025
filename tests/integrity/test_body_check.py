"""The JSON body's nesting check is right and linear whatever the body holds (issue 28: "Anyone can stop
the service"): a body of ``"`` and ``\\"`` × 64,000 and ``[`` × 33, posted anonymously, held both gunicorn
workers for a minute under the earlier check.

Hypothesis feeds adversarial bodies (quotes, escapes, brackets, long strings, deep nesting, and their
mixes, valid JSON cut and spliced) and holds the check to a plain character-by-character reading of JSON's
strings, and to ``json.loads`` on the bodies that are JSON. The worst bodies at the size limit go to every
endpoint family, anonymously and signed in: each gets a 4xx, never a 5xx. How fast: ``bench/body_check.py``
(run at a small size here, timed only there).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.body_check import shapes as adversarial  # the benchmark times the same shapes
from casino.parsers import json_depth
from tables.models import Round
from tests.client import APIClient
from tests.fixtures import as_user

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 32


def reference_depth(body: bytes) -> int:
    """The depth as JSON reads it, one byte at a time: brackets outside strings; a backslash in a string
    takes the next byte with it; a string that never closes runs to the end."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def value_depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((value_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((value_depth(v) for v in value.values()), default=0)
    return 0


# text that JSON strings and the check find hard: quotes, backslashes, brackets, unicode
TRICKY = st.text(alphabet=st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", " ", "é", "\n", "\u2028", "😀"]),
                 max_size=40)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=60,
)
PIECES = st.sampled_from([b'"', b'\\"', b"\\", b"\\\\", b"[", b"]", b"{", b"}", b'{"a":', b",", b":", b"1",
                          b" ", b'"[', b']"', "é".encode(), b"\xff"])


def nested(depth: int, kind: str) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value] if kind == "list" else {"k[\"{": value}
    return value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_VALUES, st.integers(0, 40), st.sampled_from(["list", "dict"]), st.booleans())
def test_on_json_the_check_measures_what_json_loads_builds(value, extra, kind, ascii_only):
    # given a JSON document, possibly wrapped deeper than the limit
    doc = nested(extra, kind) if extra else value
    if extra and isinstance(value, (list, dict)):
        doc = [doc, value]
    body = json.dumps(doc, ensure_ascii=ascii_only).encode()
    depth = value_depth(json.loads(body))
    # then the check agrees with what the decoder builds, counting past the limit no further than one
    assert json_depth(body, limit=LIMIT) == (min(depth, LIMIT + 1) if depth > LIMIT or _many_brackets(body)
                                             else LIMIT)


def _many_brackets(body: bytes) -> bool:
    return body.count(b"[") + body.count(b"{") > LIMIT


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(PIECES, st.integers(1, 200)), max_size=12), JSON_VALUES, st.integers(0, 200))
@example([(b'"', 1), (b'\\"', 2000), (b"[", 33)], None, 0)  # the body, smaller
@example([(b"[", 33), (b'"', 1)], None, 0)
@example([(b'"\\', 1), (b'"', 1), (b"[", 40)], None, 0)
def test_on_any_body_the_check_reads_strings_as_json_does(pieces, value, cut):
    # given spliced runs of quotes, escapes and brackets around valid JSON cut anywhere
    text = json.dumps(value).encode()
    body = b"".join(piece * times for piece, times in pieces[: len(pieces) // 2]) + text[: len(text) - cut] + \
        b"".join(piece * times for piece, times in pieces[len(pieces) // 2:])
    measured = json_depth(body, limit=LIMIT)
    # then the check reads the strings as JSON does, so the decoder, which stops at the first error, never
    # goes deeper than measured
    expected = reference_depth(body)
    if _many_brackets(body):
        assert measured == min(expected, LIMIT + 1)
    else:
        assert measured == LIMIT
        assert expected <= LIMIT
    try:
        decoded = json.loads(body)
    except ValueError:  # not JSON (nor UTF-8): refused by the parser as a 400 whatever the depth
        return
    assert value_depth(decoded) <= expected


@pytest.mark.parametrize("name", sorted(adversarial(1024)))
def test_the_adversarial_shapes_at_the_size_limit_are_measured_right(name):
    body = adversarial(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 64)[name]
    assert json_depth(body, limit=LIMIT) == (min(reference_depth(body), LIMIT + 1) if _many_brackets(body) else LIMIT)


def _post_paths() -> list[str]:
    """Every POST of the published API, with ids filled in."""
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.filter(is_superuser=True).first()
    schema = as_user(admin).get("/api/schema/?format=json").json()
    return sorted({re.sub(r"\{[^}]+\}", "1", p) for p, methods in schema["paths"].items() if "post" in methods})


FAMILIES = ("auth", "rounds", "shifts", "assignments", "accounting", "players", "rating-slips", "cardroom", "slots")


def test_adversarial_bodies_to_every_endpoint_family_get_a_4xx_anonymous_or_signed_in(floor):
    paths = _post_paths()
    # every family the issue names has a POST in the schema
    for family in FAMILIES:
        assert any(p.startswith(f"/api/{family}/") for p in paths), family
    # anonymously, at the size limit: every body refused (the sign-in endpoint reads it; the rest ask who)
    anonymous = APIClient()
    for name, body in adversarial(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 64).items():
        for path in paths:
            answer = anonymous.post(path, body, content_type="application/json")
            assert 400 <= answer.status_code < 500, (path, name, answer.status_code)
        # the sign-in endpoint: the deep ones are refused by depth, the rest as not JSON or not a sign-in
        answer = anonymous.post("/api/auth/token/", body, content_type="application/json")
        assert answer.status_code == 400, name
        assert answer.json()["error"]["code"] == ("invalid" if name == "arrays" else "malformed_json"), name
    # signed in as an admin, whom no role check stops before the body is read: each body that is not JSON
    # (or too deep) is a 4xx wherever it goes, and nothing is written
    signed_in = as_user(floor.admin)
    rounds_before = Round.objects.count()
    for name, body in adversarial(16 * 1024).items():
        if name == "arrays":
            continue  # valid JSON: an endpoint that takes no body may well accept it
        for path in paths:
            answer = signed_in.post(path, body, content_type="application/json")
            assert 400 <= answer.status_code < 500, (path, name, answer.status_code)
            if answer.status_code == 400:  # (a 404 or 403 when the object or the role is looked at first)
                assert answer.json()["error"]["code"] == "malformed_json", (path, name)
    assert Round.objects.count() == rounds_before


def test_a_body_in_another_charset_is_measured_in_its_own_characters(floor):
    client = as_user(floor.dealer)
    # "Ģ" (U+0122) is the bytes 22 01 in UTF-16-LE: a quote to a byte-wise reading, which would then take
    # everything after it for one long string and count one level
    deep = ('["\u0122", ' + "[" * 40 + "1" + "]" * 41).encode("utf-16-le")
    answer = client.post("/api/rounds/", deep, content_type="application/json; charset=utf-16-le")
    assert answer.status_code == 400
    assert "nested more than 32 levels" in answer.json()["error"]["message"]
    broken = client.post("/api/rounds/", b"[\xff\xfe\xff", content_type="application/json; charset=utf-8")
    assert broken.status_code == 400
    # a charset that is not text (a decompressor) or not known is refused before anything is decoded
    for charset in ("bz2_codec", "no-such-charset"):
        answer = client.post("/api/rounds/", b"[1]", content_type=f"application/json; charset={charset}")
        assert answer.status_code == 400, charset


def test_the_benchmark_runs_at_a_small_size():
    done = subprocess.run([sys.executable, "bench/body_check.py", "--max-kb", "4", "--repeat", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "body_check"
    assert figures["max_kb"] == 4
    assert set(figures["shapes"]) == set(adversarial(1024))
    assert figures["worst_ms_per_kb"] > 0
    assert figures["baseline_ms_per_kb"] > 0
