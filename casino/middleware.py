from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from casino.context import RequestContext, acting_as
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
