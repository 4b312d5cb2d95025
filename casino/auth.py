"""Signing in: failed attempts are counted and lead to a lockout, which is audited.

Every sign-in goes through Django's ``authenticate`` (the web login form, the API token endpoint
below), so the lockout lives in the authentication backend: while a username or a client address
is locked out, even the right password is refused. Failures are counted per username
(``LOGIN_FAILURE_LIMIT`` within ``LOGIN_FAILURE_WINDOW`` seconds) and per client address
(``LOGIN_ADDRESS_FAILURE_LIMIT``, higher: tablets may share an address); reaching either locks
for ``LOGIN_LOCKOUT_SECONDS``. Each failed attempt is audited as ``auth.login_failed`` (by
``casino.audit.receivers``), each lockout as ``auth.lockout``. The counters are rows in PostgreSQL,
not cache entries, so they hold across processes and through a Redis outage.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, user_logged_in
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.audit.services import audit_log
from casino.context import current
from casino.core.models import LoginThrottle
from casino.errors import InvalidInput
from casino.exceptions import error_body


def _limits() -> tuple[int, int, dt.timedelta, dt.timedelta]:
    return (settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT,
            dt.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW), dt.timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS))


def _keys(username: str, addr: str | None) -> list[tuple[str, int]]:
    per_user, per_addr, _, _ = _limits()
    keys = [(f"user:{username.strip().lower()[:150]}", per_user)]
    if addr:
        keys.append((f"addr:{addr[:45]}", per_addr))
    return keys


def _client_addr(request: Any) -> str | None:
    if request is not None and getattr(request, "META", None) is not None:
        return request.META.get("REMOTE_ADDR")
    return current().client_addr


def login_locked_until(*, username: str, addr: str | None) -> dt.datetime | None:
    """When the lockout on this username or address ends, if one is in force."""
    keys = [key for key, _ in _keys(username, addr)]
    until = (LoginThrottle.objects.filter(key__in=keys, locked_until__gt=timezone.now())
             .order_by("-locked_until").values_list("locked_until", flat=True).first())
    return until


@transaction.atomic
def login_failure_record(*, username: str, addr: str | None) -> dt.datetime | None:
    """Count one failed sign-in; lock (and audit it) when a limit is reached. Returns the lockout's end."""
    _, _, window, lockout = _limits()
    now = timezone.now()
    locked: dt.datetime | None = None
    for key, limit in sorted(_keys(username, addr)):  # one lock order for every caller
        row, _ = LoginThrottle.objects.select_for_update().get_or_create(key=key, defaults={"window_started_at": now})
        if row.window_started_at <= now - window:
            row.failures, row.window_started_at = 0, now
        row.failures += 1
        newly_locked = row.failures >= limit and not (row.locked_until and row.locked_until > now)
        if newly_locked:
            row.locked_until = now + lockout
        row.save(update_fields=["failures", "window_started_at", "locked_until"])
        if newly_locked:
            scope, _, who = key.partition(":")
            audit_log(actor=AnonymousUser(), action="auth.lockout", object_type="login", object_id=who[:64],
                      after={"scope": "username" if scope == "user" else "address", "who": who,
                             "failures": row.failures, "until": row.locked_until.isoformat(),  # type: ignore[union-attr]  # set above when newly locked
                             "username": username[:150]})
        if row.locked_until and row.locked_until > now:
            locked = max(locked, row.locked_until) if locked else row.locked_until
    return locked


def login_success_record(*, username: str) -> None:
    """A successful sign-in clears its username's count (never the address's: one good account must
    not wipe out the failures of a password-spraying client)."""
    LoginThrottle.objects.filter(key=_keys(username, None)[0][0]).delete()


class LockoutBackend(ModelBackend):
    """Django's model backend behind the lockout (``AUTHENTICATION_BACKENDS``)."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        addr = _client_addr(request)
        if login_locked_until(username=username, addr=addr) is not None:
            # ``authenticate`` stops at PermissionDenied and reports a failed login (audited)
            raise PermissionDenied("locked out")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            login_failure_record(username=username, addr=addr)
        else:
            login_success_record(username=username)
        return user


def _minutes(until: dt.datetime) -> int:
    return max(1, math.ceil((until - timezone.now()).total_seconds() / 60))


class LockoutAuthenticationForm(AuthenticationForm):
    """The web sign-in form, saying so when the account or this device is locked out."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "Your username and password didn't match. Please try again.",
        "locked_out": "Too many failed sign-ins: try again in %(minutes)s minutes, or ask a supervisor.",
    }

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            until = login_locked_until(username=self.cleaned_data.get("username") or "",
                                       addr=_client_addr(self.request))
            if until is not None:
                raise forms.ValidationError(self.error_messages["locked_out"], code="locked_out",
                                            params={"minutes": _minutes(until)}) from None
            raise


class TokenInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class ObtainTokenView(APIView):
    """``POST /api/auth/token/``: a user's API token for their username and password, with the lockout."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(request=TokenInput, responses={200: TokenOutput}, auth=[],
                   description="The caller's API token (send it as `Authorization: Token <token>`). Repeated "
                               "failures lock the username or the client address out for a while: 429.")
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        username, password = data.validated_data["username"], data.validated_data["password"]
        user = authenticate(request._request, username=username, password=password)
        if user is None:
            until = login_locked_until(username=username, addr=_client_addr(request._request))
            if until is not None:
                seconds = max(1, math.ceil((until - timezone.now()).total_seconds()))
                return Response(error_body("locked_out", f"too many failed sign-ins: try again in {_minutes(until)} "
                                                         "minutes"), status=429, headers={"Retry-After": str(seconds)})
            raise InvalidInput("the username or password is wrong", code="invalid_credentials")
        with transaction.atomic():
            token, _ = Token.objects.get_or_create(user=user)
            user_logged_in.send(sender=type(user), request=request._request, user=user)  # audited as auth.login
        return Response({"token": token.key})

