"""OpenAPI schema: the errors every operation can answer (a post-processing hook) and the
``Idempotency-Key`` header every write requires (:class:`CroupierAutoSchema`).

The API answers bad input, missing roles, unknown objects, conflicts, throttling and an
unreachable database with one JSON body, ``{"error": {"code", "message", "field"?, "event"?}}``
(casino/exceptions.py); the schema says so for every operation, so a client generated from it
and a contract test (schemathesis, tests/faults) know every status the API may send.
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "stable machine-readable reason"},
                "message": {"type": "string", "description": "what a person reads"},
                "field": {"type": "string", "nullable": True, "description": "the input field at fault, if any"},
                "event": {"type": "integer", "nullable": True, "description": "the round event at fault, if any"},
                "request_id": {"type": "string", "description": "the request's id, as in X-Request-ID, its log "
                                                                "line and its audit records"},
            },
            "required": ["code", "message"],
        },
    },
    "required": ["error"],
}
ERRORS = {
    "400": "Bad input: nothing was written",
    "401": "Not signed in",
    "403": "Signed in, but the role or the table does not allow it",
    "404": "No such object (or not one the caller may see)",
    "409": "The current state forbids it (already settled, round not open, idempotency key reused…)",
    "413": "The request body is too large",
    "429": "Throttled or locked out; see Retry-After",
    "503": "The database is unreachable; retry after Retry-After seconds",
}
# Django renders a TimeField as "06:00:00", which is not RFC 3339's full-time (that needs an offset),
# so "format: time" would make every correct answer a schema violation.
TIME_PATTERN = r"^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$"


def _fix_time_formats(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "string" and node.get("format") == "time":
            del node["format"]
            node["pattern"] = TIME_PATTERN
        for value in node.values():
            _fix_time_formats(value)
    elif isinstance(node, list):
        for value in node:
            _fix_time_formats(value)


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = copy.deepcopy(ERROR_SCHEMA)
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for code, description in ERRORS.items():
                operation["responses"].setdefault(code, {"description": description, "content": copy.deepcopy(body)})
    _fix_time_formats(result)
    return result


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
    description="A fresh key for each action, the same key when retrying it (1 to 128 printable characters): "
                "a retry replays the first answer; the same key with another body is a 409; without it, 400.",
    pattern=r"^[!-~]{1,128}$")


class CroupierAutoSchema(AutoSchema):
    """``DEFAULT_SCHEMA_CLASS``: a write whose view requires an ``Idempotency-Key`` (casino/idempotency.py)
    documents the header as required."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        action = getattr(self.view, "action", None)
        handler = getattr(self.view, action or self.method.lower(), None)
        if getattr(handler, "idempotency_key_required", False):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters
