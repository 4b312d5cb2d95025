"""One place where errors become HTTP: ``{"error": {"code", "message", "field"?, "event"?, "request_id"}}``.

Domain errors and engine refusals keep their code; DRF's own errors (validation, parse,
authentication, throttling) are reshaped into the same body. Database conflicts that slip past
the services' checks (a unique key hit by a concurrent request) are 409, an unreachable
database is 503 — never a 500 with a stack trace.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, Protocol, cast

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, DataError, IntegrityError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.context import request_id
from casino.errors import DomainError

log = logging.getLogger(__name__)


class Refusal(Protocol):
    """An app's own refusal that is not a :class:`DomainError` (the pure engines cannot import casino)."""

    def as_dict(self) -> dict[str, Any]: ...


_refusals: dict[type[Exception], int] = {}


def register_refusal(error: type[Exception], *, status: int = 400) -> None:
    """Answer ``error`` (which has ``as_dict()``) with ``status`` and its own body; the apps call this from
    their ``AppConfig.ready`` (tables: the engines' ``EngineError``), so casino never imports them."""
    _refusals[error] = status


def error_body(code: str, message: str, **more: Any) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    error.update({k: v for k, v in more.items() if v is not None})
    return {"error": with_request_id(error)}


def with_request_id(error: dict[str, Any]) -> dict[str, Any]:
    """The request's id in its error, as in its log line and audit records (casino/ops/requests.py)."""
    rid = request_id()
    if rid:
        error["request_id"] = rid
    return error


def _first_message(detail: Any) -> tuple[str | None, str]:
    """The first field and message of a DRF validation error detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            field, message = _first_message(value)
            name = key if key != "non_field_errors" else None
            return (f"{name}.{field}" if name and field else name or field), message
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return None, str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    for error, status in _refusals.items():
        if isinstance(exc, error):
            return Response({"error": with_request_id(cast(Refusal, exc).as_dict())}, status=status)
    if isinstance(exc, DomainError):
        # the request's transaction has rolled back by now: what a refusal must leave behind (a count of
        # wrong signatures) is written here, on its own
        after_rollback = getattr(exc, "after_rollback", None)
        if after_rollback is not None:
            after_rollback()
        seconds = getattr(exc, "retry_after", None)
        return Response({"error": with_request_id(exc.as_dict())}, status=exc.status,
                        headers={"Retry-After": str(seconds)} if seconds else None)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("body_too_large", gettext("the request body is too large")), status=413)
    if isinstance(exc, DataError | OverflowError):
        # a number or a text the database cannot hold (an id past bigint in a filter, a value too long):
        # bad input, named as such, never the database's words
        log.info("value out of range: %s", exc)
        return Response(error_body("out_of_range", gettext("a value in the request is out of range")), status=400)
    if isinstance(exc, IntegrityError):
        log.info("integrity conflict: %s", exc)
        return Response(error_body("conflict", gettext("the request conflicts with the current state; reload and retry")),
                        status=409)
    if isinstance(exc, OperationalError | InterfaceError):
        log.warning("database unavailable: %s", exc)
        return Response(error_body("database_unavailable", gettext("the database is unavailable; retry shortly")),
                        status=503, headers={"Retry-After": "5"})
    if isinstance(exc, DatabaseError):
        log.warning("database refused the request: %s", exc)
        return Response(error_body("refused", gettext("the database refused the request")), status=409)
    if isinstance(exc, SuspiciousOperation):
        return Response(error_body("bad_request", str(exc) or gettext("bad request")), status=400)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, drf.ValidationError):
        field, message = _first_message(exc.detail)
        response.data = error_body("invalid", gettext("%(field)s: %(message)s") % {"field": field, "message": message}
                                   if field else message, field=field,
                                   fields=exc.detail)
    elif isinstance(exc, drf.ParseError):
        response.data = error_body("malformed_json", gettext("the body is not valid JSON: %(detail)s") % {"detail": exc.detail})
    elif isinstance(exc, drf.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = error_body(code, str(exc.detail))
    return response


def json_404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", gettext("nothing at %(path)s") % {"path": request.path}), status=404)


class ApiNotFoundMiddleware:
    """Any 404 under ``/api/`` is the JSON error body, never an HTML page (Django's debug page in DEBUG,
    the screens' page otherwise): an API client always gets ``{"error": {"code": "not_found", …}}``.
    Listed outside CommonMiddleware, so a path missing its slash is still redirected first."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and not str(response.get("Content-Type", "")).startswith("application/json")
        ):
            return json_404(request)
        return response


def json_400(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("bad_request", gettext("bad request")), status=400)


def json_403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A refusal: the JSON error body under ``/api/``; a screen's refusal page elsewhere, as every screen
    refuses (registration/forbidden.html), never JSON in a person's browser."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("forbidden", gettext("you may not do this")), status=403)
    reason = str(exception or "").strip() if isinstance(exception, PermissionDenied) else ""
    message = f"{reason[:1].upper()}{reason[1:].rstrip('.')}." if reason else gettext("Your role may not open this page.")
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


def json_500(request: HttpRequest) -> JsonResponse:
    # Django calls this while handling the exception: a database that went away under a screen (or a
    # middleware) is a 503 like in the API, not a 500.
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return JsonResponse(error_body("database_unavailable", gettext("the database is unavailable; retry shortly")),
                            status=503, headers={"Retry-After": "5"})
    return JsonResponse(error_body("server_error", gettext("unexpected error; it has been logged")), status=500)
