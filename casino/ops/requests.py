"""Every request gets an id, a JSON log line and a latency observation.

The id is the client's ``X-Request-ID`` when it sends a sensible one (letters, digits, ``.-_:``,
up to 64), otherwise a new one. It is answered in the ``X-Request-ID`` header, written into every
error body (``casino.exceptions``), every audit record of the request (``casino.audit.services``)
and every log line written while serving it, and sent along with the jobs the request asks for
(``casino.ops.jobs``): a dealer's "it said error 7f3a…" finds the request, its records and its jobs.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from casino.context import serving
from casino.ops.metrics import observe_request
from casino.proxies import client_address_of

log = logging.getLogger("croupier.request")

HEADER = "X-Request-ID"
_ACCEPTED = re.compile(r"[A-Za-z0-9._:-]{1,64}")
# Probes and static files are not worth a line each (health probes never reach here: casino.ops.health).
QUIET_PREFIXES = ("/static/",)


def new_request_id() -> str:
    return uuid.uuid4().hex


def incoming_request_id(value: str | None) -> str | None:
    return value if value and _ACCEPTED.fullmatch(value) else None


def _view(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "static" if request.path_info.startswith(QUIET_PREFIXES) else "unresolved"
    return match.view_name or match.route or "unnamed"


def _what(request: HttpRequest, notes: dict[str, str]) -> tuple[str, str]:
    """The table and round the request acted on: what its audit records named, else its URL."""
    match = getattr(request, "resolver_match", None)
    kwargs = match.kwargs if match is not None else {}
    view = (match.view_name or "") if match is not None else ""
    table = notes.get("table") or (str(kwargs.get("code", "")) if "table" in view else "")
    round_ = notes.get("round") or (str(kwargs.get("pk", "")) if view.startswith("round-") else "")
    return table, round_


def _user(request: HttpRequest) -> str:
    user = getattr(request, "user", None)  # DRF sets the token's user on the request it wraps
    if user is None or not user.is_authenticated:
        return ""
    return user.get_username()


class RequestTelemetryMiddleware:
    """Second in ``MIDDLEWARE`` (after the health probes), so the line times everything else."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = incoming_request_id(request.headers.get(HEADER)) or new_request_id()
        request.request_id = rid  # type: ignore[attr-defined]
        started = time.perf_counter()
        with serving(rid) as now:
            response = self.get_response(request)
            seconds = time.perf_counter() - started
            response[HEADER] = rid
            view = _view(request)
            observe_request(view, request.method or "", response.status_code, seconds)
            if view == "static":
                return response
            table, round_ = _what(request, now.notes)
            fields = {"request_id": rid, "method": request.method, "path": request.path, "view": view,
                      "status": response.status_code, "duration_ms": round(seconds * 1000, 1),
                      "user": _user(request), "table": table, "round": round_,
                      "client_addr": client_address_of(request.META) or ""}
            level = logging.ERROR if response.status_code >= 500 else logging.INFO
            log.log(level, "%s %s %s", request.method, request.path, response.status_code,
                    extra={"croupier": fields})
        return response
