"""Who is acting, for audit records written from Django's own hooks (auth signals, m2m changes).

Those hooks are not handed the request's user, so this remembers the request for their duration.
The user is read when a record is written, not here: DRF authenticates tokens inside the view,
after this middleware ran, and sets the user on the same request.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

_request: ContextVar[HttpRequest | None] = ContextVar("croupier_audit_request", default=None)


def current_actor() -> Any:
    """The authenticated user of the request being served, or None (a job, a command, anonymous)."""
    request = _request.get()
    user = getattr(request, "user", None) if request is not None else None
    return user if user is not None and user.is_authenticated else None


class AuditActorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)
