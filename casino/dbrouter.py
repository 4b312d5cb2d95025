"""Optional read replica for dashboards and reports (``DATABASE_REPLICA_URL``).

With ``DATABASE_REPLICA_URL`` set, settings add a ``replica`` database, this router and
:class:`ReplicaReadsMiddleware`. Reads made inside :func:`replica_reads` (the middleware opens it
around the views of the screens and report endpoints listed in ``DATABASE_REPLICA_PATHS``, for
GET and HEAD only, after the user was authenticated against the primary) go to the replica;
every write, every read elsewhere and every migration stay on ``default``. Without the setting
nothing changes: there is no ``replica`` database and the router sends everything to ``default``.

What a replica may show is as old as its replication lag: fine for a floor dashboard refreshed
every few seconds and for reports of closed shifts, never for a service deciding a write (those
read and lock on the primary, in their own transaction).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
_reading_from_replica: ContextVar[bool] = ContextVar("croupier_replica_reads", default=False)


def replica_alias() -> str | None:
    return REPLICA if REPLICA in settings.DATABASES else None


def reads_from_replica() -> bool:
    return _reading_from_replica.get()


@contextlib.contextmanager
def replica_reads() -> Iterator[None]:
    """Reads inside go to the replica, if one is configured (writes never do)."""
    token = _reading_from_replica.set(True)
    try:
        yield
    finally:
        _reading_from_replica.reset(token)


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if _reading_from_replica.get():
            return replica_alias()
        return None

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # the replica is a copy of default: the same rows

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool | None:
        return db == "default"


class ReplicaReadsMiddleware:
    """Serves the read-only dashboard and report views from the replica."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.prefixes = tuple(getattr(settings, "DATABASE_REPLICA_PATHS", ()))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        token = request.__dict__.pop("_croupier_replica_token", None)
        if token is not None:
            _reading_from_replica.reset(token)
        return response

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> None:
        if request.method in ("GET", "HEAD") and self.prefixes and request.path.startswith(self.prefixes):
            # who is asking is read on the primary: a session created a moment ago may not be on the replica yet
            _ = getattr(request, "user", None) and request.user.is_authenticated
            request.__dict__["_croupier_replica_token"] = _reading_from_replica.set(True)
