"""Read replicas for dashboards, reports and exports (``DATABASE_REPLICA_URLS``).

With one or more replica URLs set, settings add a database alias per replica (``replica``,
``replica_2``, …), this router and :class:`ReplicaReadsMiddleware`. Reads made inside
:func:`replica_reads` go to a replica: the middleware opens it around the views of the screens and
report endpoints listed in ``DATABASE_REPLICA_PATHS`` (GET and HEAD only, after the user was
authenticated against the primary), the report export job around building its file, and
:func:`replica_stream` around each chunk of a streamed CSV (which is produced after the view
returned). Every write, every read elsewhere and every migration stay on ``default``. Without the
setting nothing changes: there is no replica alias and the router sends everything to ``default``.

Choosing a replica: in turn among those not known to be down, each checked on the way (a connection
that answers; ``CONN_HEALTH_CHECKS`` pings a kept connection). One that fails is left alone for
``DATABASE_REPLICA_RETRY_AFTER`` seconds and the next is tried; with none left the reads go to the
primary. A replica lost in the middle of a request makes the middleware serve that request again
from the primary (GET and HEAD only, which change nothing). So the screens survive any replica's
loss; a CSV already streaming when its replica dies is cut short (its download fails visibly).

What a replica may show is as old as its replication lag: fine for a floor dashboard refreshed
every few seconds and for reports of closed shifts, never for a service deciding a write (those
read and lock on the primary, in their own transaction).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

log = logging.getLogger("casino.dbrouter")

REPLICA = "replica"
T = TypeVar("T")

# the replica chosen for the reads of this request or job; None: the primary
_reading: ContextVar[str | None] = ContextVar("croupier_replica_reads", default=None)
_down: dict[str, float] = {}  # alias -> monotonic time until which it is not tried
_lock = threading.Lock()
_turn = itertools.count()


def replica_aliases() -> list[str]:
    """The configured replicas' aliases, in order."""
    return [alias for alias in settings.DATABASES if alias == REPLICA or alias.startswith(f"{REPLICA}_")]


def _answers(alias: str) -> bool:
    """Whether the replica answers now (connecting if need be); a failure marks it down for a while."""
    wrapper = connections[alias]
    try:
        if wrapper.connection is not None and not wrapper.is_usable():
            wrapper.close()
        wrapper.ensure_connection()
        return True
    except DatabaseError as exc:
        replica_down(alias, exc)
        return False


def replica_down(alias: str, exc: BaseException | None = None) -> None:
    """Leave ``alias`` alone for ``DATABASE_REPLICA_RETRY_AFTER`` seconds (it failed)."""
    with _lock:
        _down[alias] = time.monotonic() + getattr(settings, "DATABASE_REPLICA_RETRY_AFTER", 30)
    with contextlib.suppress(DatabaseError):
        connections[alias].close()
    log.warning("replica %s is unavailable, reading from the primary or another replica: %s", alias, exc)


def replica_alias() -> str | None:
    """A replica to read from now (the next one in turn that answers), or None: read the primary."""
    aliases = replica_aliases()
    if not aliases:
        return None
    now = time.monotonic()
    first = next(_turn)
    for i in range(len(aliases)):
        alias = aliases[(first + i) % len(aliases)]
        if _down.get(alias, 0) > now:
            continue
        if _answers(alias):
            return alias
    return None


def reads_from_replica() -> bool:
    return _reading.get() is not None


def reading_alias() -> str | None:
    """The replica the current reads go to, if any."""
    return _reading.get()


@contextlib.contextmanager
def replica_reads() -> Iterator[str | None]:
    """Reads inside go to a replica, if one is configured and answers (writes never do). Yields its alias."""
    token = _reading.set(_reading.get() or replica_alias())
    try:
        yield _reading.get()
    finally:
        _reading.reset(token)


def replica_stream(chunks: Iterator[T]) -> Iterator[T]:
    """A streamed response's chunks, each produced reading from the replica chosen now. A streamed body is
    produced after the view (and this request's middleware) returned, so the choice is carried along."""
    alias = _reading.get() or replica_alias()
    while True:
        token = _reading.set(alias)
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        finally:
            _reading.reset(token)
        yield chunk


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return _reading.get()

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # a replica is a copy of default: the same rows

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool | None:
        return db == "default"


_LOST = (DatabaseError,)


class ReplicaReadsMiddleware:
    """Serves the read-only dashboard and report views from a replica; from the primary when it is lost."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.prefixes = tuple(getattr(settings, "DATABASE_REPLICA_PATHS", ()))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        self._stop(request)
        return response

    @staticmethod
    def _stop(request: HttpRequest) -> None:
        token = request.__dict__.pop("_croupier_replica_token", None)
        if token is not None:
            _reading.reset(token)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> None:
        if request.method in ("GET", "HEAD") and self.prefixes and request.path.startswith(self.prefixes):
            # who is asking is read on the primary: a session created a moment ago may not be on the replica yet
            _ = getattr(request, "user", None) and request.user.is_authenticated
            alias = replica_alias()
            if alias is not None:
                request.__dict__["_croupier_replica_token"] = _reading.set(alias)
                request.__dict__["_croupier_replica_view"] = (view, args, kwargs)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The replica failed while this request read from it: mark it down and serve the request again from
        the primary (a GET or HEAD changes nothing, so running its view twice is harmless)."""
        alias = _reading.get()
        retry = request.__dict__.pop("_croupier_replica_view", None)
        if alias is None or retry is None or not isinstance(exception, _LOST):
            return None
        replica_down(alias, exception)
        self._stop(request)
        view, args, kwargs = retry
        response: Any = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render) and not response.is_rendered:
            response = response.render()
        return response
