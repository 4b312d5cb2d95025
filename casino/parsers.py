"""The API's JSON parser: DRF's, with the nesting depth bounded before the body is parsed.

Python's JSON decoder recurses once per ``[`` or ``{``: a body of a few thousand brackets (well
under the size limit) exhausts the interpreter's stack and raises ``RecursionError``, which no
handler expects. The depth is measured first and a body nested deeper than ``MAX_JSON_DEPTH`` is
refused as malformed JSON (400) without being decoded.

The measure is linear in the body whatever its content, so that it cannot be made the slow part:

1. every string is cut out in one left-to-right pass of the regular expression engine. The pattern
   only goes forward (possessive quantifiers, no backtracking) and a string that never closes runs
   to the end of the body, so no position is scanned twice (the earlier pattern retried an unclosed
   string at every later quote: a body of ``"`` and ``\\"`` × 64,000 cost the square of its length);
2. the brackets left are mapped to +1 and -1 and the running sum's highest value is the depth, in
   C (``bytes.translate``, ``itertools.accumulate``), one step per bracket.

Up to the first thing that is not JSON, the strings cut out are JSON's own (UTF-8 never puts an ASCII
byte inside a multi-byte character; a body in another charset is converted to UTF-8 first), so the
decoder, which stops at that first error, never goes deeper than the depth measured.
``bench/body_check.py`` measures the cost per KB on adversarial bodies up to the size limit.
"""

from __future__ import annotations

import codecs
import operator
import re
from io import BytesIO
from itertools import accumulate, repeat
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# a string, cut out whole: forward only, and one that never closes runs to the end of the body
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")  # minus one below: +1 an opener, -1 a closer


def json_depth(body: bytes, *, limit: int) -> int:
    """How deeply ``body`` (UTF-8 JSON) nests arrays and objects, counting up to ``limit + 1`` at most.
    Time linear in ``len(body)`` whatever it holds.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}', limit=2)  # the brackets in a string do not count
    3
    >>> json_depth(b'{"a": [1]}', limit=10)  # fewer brackets than the limit: the limit, unwalked
    10
    >>> json_depth(b"[" * 5000, limit=32)
    33
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return limit  # too few brackets to go deeper than the limit: no need to walk
    steps = _STRING.sub(b"", body).translate(_BRACKET_STEP, _NOT_BRACKETS)
    deepest = max(accumulate(map(operator.sub, steps, repeat(1)), initial=0))
    return min(deepest, limit + 1)


class BoundedJSONParser(JSONParser):
    """``DEFAULT_PARSER_CLASSES``: refuses a body nested deeper than ``settings.MAX_JSON_DEPTH``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        if stream is None:
            return super().parse(stream, media_type, parser_context)  # type: ignore[arg-type]  # DRF's own answer to no body
        body = stream.read()
        limit = settings.MAX_JSON_DEPTH
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET  # the request's charset
        scanned = body
        try:
            if codecs.lookup(encoding).name != "utf-8":  # measured in UTF-8, where a bracket is always a bracket
                scanned = body.decode(encoding).encode("utf-8", "surrogatepass")  # (text codecs only)
        except (LookupError, UnicodeError):
            raise ParseError(gettext("the body is not text in the charset “%(charset)s”") % {"charset": encoding}) from None
        if json_depth(scanned, limit=limit) > limit:
            raise ParseError(gettext("the JSON is nested more than %(limit)s levels deep") % {"limit": limit})
        try:
            return super().parse(BytesIO(body), media_type, parser_context)
        except RecursionError:  # only if MAX_JSON_DEPTH is set above what the interpreter's stack allows
            raise ParseError(gettext("the JSON is nested too deeply (more than %(limit)s levels allowed)") % {"limit": limit}) from None
