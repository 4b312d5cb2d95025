"""Errors raised by the game engines.

Every refusal an engine makes is an :class:`EngineError` with a stable ``code``, a human
message and, where one event is at fault, its index in the round's ``events``. ``params`` holds
the facts the message states as plain values (amounts as integers in minor units, limits, the
seat, the card, the bet id…) so a screen can word the refusal itself, with money in major units.
The API and ``settle_round`` turn it into ``{"error": {"code", "message", "event", "field",
"params"}}`` (``field`` and ``params`` only when there are some).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class EngineError(Exception):
    """Bad input to an engine: refused whole, never partly applied."""

    def __init__(self, code: str, message: str, *, event: int | None = None, field: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
        self.field = field
        self.params: dict[str, Any] = dict(params or {})

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message, "event": self.event}
        if self.field is not None:
            body["field"] = self.field
        if self.params:
            body["params"] = dict(self.params)
        return body

    def at(self, event: int | None) -> EngineError:
        """The same error, pinned to an event index (kept if already pinned)."""
        if self.event is None:
            self.event = event
        return self
