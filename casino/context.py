"""Who is acting and from where, for the audit trail, without threading it through every call.

The middleware fills it per request; commands and tasks set it with :func:`acting_as`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass


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
