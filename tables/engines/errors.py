"""Errors raised by the game engines.

Every refusal an engine makes is an :class:`EngineError` with a stable ``code``, a human
message and, where one event is at fault, its index in the round's ``events``. The API and
``settle_round`` turn it into ``{"error": {"code", "message", "event"}}`` unchanged.
"""

from __future__ import annotations


class EngineError(Exception):
    """Bad input to an engine: refused whole, never partly applied."""

    def __init__(self, code: str, message: str, *, event: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
        self.field = field

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message, "event": self.event}
        if self.field is not None:
            body["field"] = self.field
        return body

    def at(self, event: int | None) -> EngineError:
        """The same error, pinned to an event index (kept if already pinned)."""
        if self.event is None:
            self.event = event
        return self
