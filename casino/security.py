"""Response headers Django does not set itself (Content-Security-Policy, Permissions-Policy, no-store),
and what an error report may show (:class:`SecretsHiddenReporterFilter`).

Django 5.2 sets ``X-Content-Type-Options``, ``Referrer-Policy``, ``Cross-Origin-Opener-Policy``
(SecurityMiddleware) and ``X-Frame-Options`` (XFrameOptionsMiddleware) from settings. The screens
load scripts only from our own static files (no inline script: the API docs use drf-spectacular's
split view for that reason), so the policy allows scripts from 'self' alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import pprint as safe_pformat
from django.views.debug import SafeExceptionReporterFilter


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = "; ".join(f"{name} {' '.join(values)}" for name, values in settings.CROUPIER_CSP.items())
        self.permissions = ", ".join(f"{feature}=()" for feature in settings.CROUPIER_PERMISSIONS_POLICY_DENY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.csp)
        response.headers.setdefault("Permissions-Policy", self.permissions)
        if request.path.startswith("/api/"):
            # rounds, balances and audit records must not linger in a shared tablet's or a proxy's cache
            response.headers.setdefault("Cache-Control", "no-store")
        return response


# A connection URL with credentials or a password=… pair, wherever it appears in a value's text.
_URL_OR_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|password\s*[=:]\s*\S+", re.I)


class SecretsHiddenReporterFilter(SafeExceptionReporterFilter):
    """``DEFAULT_EXCEPTION_REPORTER_FILTER``: what an error report (the debug page, a logged report) may show.

    Django's filter hides settings named like a key or a password, and only when DEBUG is off. This
    one is on in every mode and also hides anything that holds a connection (``DATABASE_URL``, the
    broker and cache URLs, ``DATABASES``…), in settings and in the request's environment, and masks
    every connection URL or ``password=`` it finds in a traceback's local variables.
    """

    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|PIN|SIGNATURE|HTTP_COOKIE|URL|DATABASE|BROKER|CACHE|LOCATION|DSN|HOST",
        flags=re.I)

    def is_active(self, request: HttpRequest | None) -> bool:
        return True

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str):
            return _URL_OR_PASSWORD.sub(self.cleansed_substitute, cleansed)
        return cleansed

    def get_traceback_frame_variables(  # type: ignore[override]  # Django's stub says ItemsView; any iterable of pairs serves
        self, request: HttpRequest | None, tb_frame: Any
    ) -> list[tuple[str, Any]]:
        out = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            if self.hidden_settings.search(str(name)):
                out.append((name, self.cleansed_substitute))
                continue
            text = safe_pformat(self.cleanse_setting("", value))  # Django's: a failing repr reads as an error
            out.append((name, _URL_OR_PASSWORD.sub(self.cleansed_substitute, text)))
        return out
