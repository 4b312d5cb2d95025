"""Who is acting and from where, for the audit trail, without threading it through every call.

The middleware fills it per request; commands and tasks set it with :func:`acting_as`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RequestContext:
    client_addr: str | None = None
    device: str | None = None
    channel: str = "system"  # api, web, command, task, system


_current: ContextVar[RequestContext] = ContextVar("croupier_request_context", default=RequestContext())  # noqa: B039 (frozen)


def current() -> RequestContext:
    return _current.get()


@contextlib.contextmanager
def acting_as(context: RequestContext) -> Iterator[None]:
    token = _current.set(context)
    try:
        yield
    finally:
        _current.reset(token)


@dataclass(slots=True)
class Serving:
    """The request or job being served: its id, and what its log line should name (table, round)."""

    request_id: str
    notes: dict[str, str] = field(default_factory=dict)


# Set by casino/ops/requests.py (requests) and casino/ops/jobs.py (jobs): the id is in the log lines, the
# audit records and the error bodies, so "it said error 7f3a…" finds all three.
_serving: ContextVar[Serving | None] = ContextVar("croupier_serving", default=None)


def request_id() -> str:
    serving_now = _serving.get()
    return serving_now.request_id if serving_now is not None else ""


def note(**fields: object) -> None:
    """Name what this request acts on in its log line (the first value of each field stands)."""
    serving_now = _serving.get()
    if serving_now is not None:
        for key, value in fields.items():
            if value not in (None, ""):
                serving_now.notes.setdefault(key, str(value))


def serve(rid: str) -> Token[Serving | None]:
    """Serve ``rid`` until :func:`unserve` (a job's start and end are two Celery signals)."""
    return _serving.set(Serving(rid))


def unserve(token: Token[Serving | None]) -> None:
    _serving.reset(token)


def serving_now() -> Serving | None:
    return _serving.get()


@contextlib.contextmanager
def serving(rid: str) -> Iterator[Serving]:
    now = Serving(rid)
    token = _serving.set(now)
    try:
        yield now
    finally:
        _serving.reset(token)
