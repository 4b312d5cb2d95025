"""Response headers Django does not set itself: Content-Security-Policy, Permissions-Policy, no-store.

Django 5.2 sets ``X-Content-Type-Options``, ``Referrer-Policy``, ``Cross-Origin-Opener-Policy``
(SecurityMiddleware) and ``X-Frame-Options`` (XFrameOptionsMiddleware) from settings. The screens
load scripts only from our own static files (no inline script: the API docs use drf-spectacular's
split view for that reason), so the policy allows scripts from 'self' alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


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
