"""The API's JSON parser: DRF's, with the nesting depth bounded before the body is parsed.

Python's JSON decoder recurses once per ``[`` or ``{``: a body of a few thousand brackets (well
under the size limit) exhausts the interpreter's stack and raises ``RecursionError``, which no
handler expects. The depth is measured first, in one pass of the regular expression engine over
the raw bytes (strings skipped, so a bracket inside a string does not count), and a body nested
deeper than ``MAX_JSON_DEPTH`` is refused as malformed JSON (400) without being decoded.
"""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # a string (skipped whole) or one bracket
_OPENERS = frozenset(b"[{")


def json_depth(body: bytes, *, limit: int) -> int:
    """How deeply ``body`` nests arrays and objects, counting up to ``limit + 1`` at most.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}', limit=10)
    3
    >>> json_depth(b"[" * 5000, limit=32)
    33
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return limit  # too few brackets to go deeper than the limit: no need to walk
    depth = deepest = 0
    for match in _TOKENS.finditer(body):
        token = match.group()
        if len(token) != 1:
            continue  # a string
        if token[0] in _OPENERS:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        else:
            depth -= 1
    return deepest


class BoundedJSONParser(JSONParser):
    """``DEFAULT_PARSER_CLASSES``: refuses a body nested deeper than ``settings.MAX_JSON_DEPTH``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        if stream is None:
            return super().parse(stream, media_type, parser_context)  # type: ignore[arg-type]  # DRF's own answer to no body
        body = stream.read()
        limit = settings.MAX_JSON_DEPTH
        if json_depth(body, limit=limit) > limit:
            raise ParseError(f"the JSON is nested more than {limit} levels deep")
        try:
            return super().parse(BytesIO(body), media_type, parser_context)
        except RecursionError:  # only if MAX_JSON_DEPTH is set above what the interpreter's stack allows
            raise ParseError(f"the JSON is nested too deeply (more than {limit} levels allowed)") from None
