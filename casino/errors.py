"""Domain errors: the small hierarchy every service raises, mapped to HTTP in one handler.

A service never returns an HTTP response and never catches a bare ``Exception``; it raises one
of these with a stable ``code`` and a message a dealer can read. ``casino.exceptions`` turns
them into ``{"error": {"code", "message", "field", "event"}}`` with the status below.
"""

from __future__ import annotations


class DomainError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None,
                 event: int | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field = field
        self.event = event
        self.params = params  # the figures in the message, as numbers (minor units), for the screens' wording

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        if self.event is not None:
            body["event"] = self.event
        if self.params:
            body["params"] = self.params
        return body


class InvalidInput(DomainError):
    status = 400
    default_code = "invalid"


class Forbidden(DomainError):
    status = 403
    default_code = "forbidden"


class NotFound(DomainError):
    status = 404
    default_code = "not_found"


class Conflict(DomainError):
    """The request is well-formed but the state forbids it (settled twice, round not open…)."""

    status = 409
    default_code = "conflict"


class Unavailable(DomainError):
    status = 503
    default_code = "unavailable"
