from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from casino.context import RequestContext, acting_as
from casino.core.models import StaffProfile
from casino.proxies import client_address_of


class RequestContextMiddleware:
    """Records the client address (behind trusted proxies, the client's: casino/proxies.py) and the device
    (``X-Device-Id``, the dealer tablet) for audit."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        device = request.headers.get("X-Device-Id", "")[:64] or None
        channel = "api" if request.path.startswith("/api/") else "web"
        with acting_as(RequestContext(client_addr=client_address_of(request.META), device=device, channel=channel)):
            return self.get_response(request)


SESSION_LANGUAGE = "croupier_language"  # [user id, language code]: the signed-in person's pick, read once


def user_language(request: HttpRequest) -> str:
    """The language the signed-in person picked (their staff profile), kept in the session from the first
    request after signing in; "" when they picked none (the browser's language then, LocaleMiddleware)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    kept = request.session.get(SESSION_LANGUAGE)
    if isinstance(kept, list) and len(kept) == 2 and kept[0] == user.pk:
        return str(kept[1])
    profile = StaffProfile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    language = profile if profile and translation.check_for_language(profile) else ""
    request.session[SESSION_LANGUAGE] = [user.pk, language]
    return language


class UserLanguageMiddleware:
    """After LocaleMiddleware and authentication: the signed-in person's own language wins over the
    browser's (each person picks theirs; the dealer switches at the table)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = user_language(request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
