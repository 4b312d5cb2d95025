"""Signing in and signing: failed attempts slow down whoever makes them, never the account's owner.

Every sign-in goes through Django's ``authenticate`` (the web login form, the API token endpoint
below), so the lockout lives in the authentication backend. Failures are counted per **username
and client address together** (``LOGIN_FAILURE_LIMIT``): a stranger guessing the pit manager's
password from another terminal slows that terminal down, not the pit manager signing in from their
own. Past the limit each further failure locks the pair for twice as long as the last
(``LOGIN_LOCKOUT_SECONDS``, doubling up to ``LOGIN_LOCKOUT_MAX_SECONDS``); a quiet
``LOGIN_FAILURE_WINDOW`` after the last failure (or the end of its lockout) starts the count
again, and a successful sign-in clears it.

One address spraying many usernames is **slowed**, never locked (tablets may share an address, or sit
behind a proxy): past ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures each further one makes the address wait
before its next try is looked at (``LOGIN_ADDRESS_DELAY_SECONDS``, doubling up to
``LOGIN_ADDRESS_MAX_DELAY_SECONDS``, a minute by default); a try inside the wait is answered 429 with
``Retry-After`` and not checked. A username that has signed in correctly from that address before
(within ``LOGIN_KNOWN_TERMINAL_DAYS``: the person's own terminal) is not made to wait: the spraying
slows the sprayer, and a person signing in correctly is at worst asked to wait a minute.

Signatures and approvals (casino/signatures.py) have their own counts, kept apart
from sign-in: per **requester and signer** (``SIGNATURE_FAILURE_LIMIT``) and per requester over
every signer (``SIGNATURE_REQUESTER_FAILURE_LIMIT``, remembered for ``SIGNATURE_REQUESTER_WINDOW``, a day:
quiet minutes do not reset it). A dealer typing wrong supervisor passwords slows that dealer down; the
supervisor can still sign in and sign everywhere else.

Another supervisor or an admin lifts a lockout from ``/staff/lockouts/`` (casino/auth_views.py): an
account's (its sign-ins and the signatures it typed) or an address's slowdown. Nobody lifts their own, an
address is lifted from another address, and a lift clears only the counts of whom or what is lifted, never
the lifter's: a requester's wrong PINs for a supervisor stay counted against the requester when that
supervisor's lockout is lifted.
Each failed sign-in is audited as ``auth.login_failed`` (``casino.audit.receivers``), each lockout
as ``auth.lockout`` or ``signature.lockout``, each lift as ``auth.unlock``. The counters are rows
in the database, not cache entries, so they hold across processes and through a Redis outage.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, user_logged_in
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.audit.services import audit_log
from casino.authentication import token_expired
from casino.context import current
from casino.core.models import LoginThrottle
from casino.core.roles import Role, has_role, roles_of
from casino.errors import Forbidden, InvalidInput
from casino.exceptions import error_body
from casino.idempotency import idempotent
from casino.proxies import client_address_of

NO_ADDRESS = "-"


def client_address(request: Any) -> str | None:
    """The address a request came from: behind a trusted proxy, the client's (casino/proxies.py)."""
    if request is not None and getattr(request, "META", None) is not None:
        return client_address_of(request.META)
    return current().client_addr


# -- throttles with growing delays ----------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    """One count of failures: its row key, the failures allowed before delays start, the first delay."""

    key: str
    limit: int
    first_delay: int  # seconds
    scope: str  # what the audit record calls it
    who: str
    max_delay: int | None = None  # seconds; None: LOGIN_LOCKOUT_MAX_SECONDS
    window: int | None = None  # quiet seconds that start the count again; None: LOGIN_FAILURE_WINDOW


def _normal(username: str) -> str:
    return username.strip().lower()[:150]


def _window(counter: Counter) -> dt.timedelta:
    return dt.timedelta(seconds=counter.window or settings.LOGIN_FAILURE_WINDOW)


def _delay(counter: Counter, failures: int) -> dt.timedelta | None:
    """No delay below the limit; at the limit the first delay, doubling with each further failure."""
    if failures < counter.limit:
        return None
    doublings = min(failures - counter.limit, 32)
    cap = counter.max_delay or settings.LOGIN_LOCKOUT_MAX_SECONDS
    return dt.timedelta(seconds=min(cap, counter.first_delay * 2**doublings))


def locked_until(counters: list[Counter]) -> dt.datetime | None:
    """When the longest lockout in force on any of ``counters`` ends, if one is."""
    return (LoginThrottle.objects.filter(key__in=[c.key for c in counters], locked_until__gt=timezone.now())
            .order_by("-locked_until").values_list("locked_until", flat=True).first())


@transaction.atomic
def failure_record(counters: list[Counter], *, action: str, details: dict[str, Any]) -> dt.datetime | None:
    """Count one failure on each counter; lock (and audit it) where a limit is passed. Returns the lockout's end."""
    now = timezone.now()
    locked: dt.datetime | None = None
    for counter in sorted(counters, key=lambda c: c.key):  # one lock order for every caller
        row, _ = LoginThrottle.objects.select_for_update().get_or_create(key=counter.key,
                                                                       defaults={"window_started_at": now})
        quiet_since = max(t for t in (row.last_failure_at, row.locked_until, row.window_started_at) if t)
        if quiet_since <= now - _window(counter):
            row.failures, row.window_started_at, row.locked_until = 0, now, None
        row.failures += 1
        row.last_failure_at = now
        delay = _delay(counter, row.failures)
        if delay is not None:
            until = max(row.locked_until or now, now + delay)
            row.locked_until = until
        row.save(update_fields=["failures", "window_started_at", "locked_until", "last_failure_at"])
        if delay is not None:
            audit_log(actor=AnonymousUser(), action=action, object_type="login", object_id=counter.who[:64],
                      after={"scope": counter.scope, "who": counter.who, "failures": row.failures,
                             "until": until.isoformat(), "seconds": int(delay.total_seconds()),
                             **details})
            locked = max(locked, until) if locked else until
    return locked


def counters_clear(keys: list[str]) -> int:
    return LoginThrottle.objects.filter(key__in=keys).delete()[0]


def retry_after(until: dt.datetime) -> int:
    return max(1, math.ceil((until - timezone.now()).total_seconds()))


def _minutes(until: dt.datetime) -> int:
    return max(1, math.ceil(retry_after(until) / 60))


# -- signing in --------------------------------------------------------------------------------


def login_counters(*, username: str, addr: str | None) -> list[Counter]:
    """The pair's count (a lockout) and, with an address, the address's (a slowdown, never a lockout)."""
    name, where = _normal(username), (addr or NO_ADDRESS)[:45]
    counters = [Counter(f"user:{name}|{where}", settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_LOCKOUT_SECONDS,
                        "username_at_address", name)]
    if addr:
        counters.append(Counter(f"addr:{where}", settings.LOGIN_ADDRESS_FAILURE_LIMIT,
                                settings.LOGIN_ADDRESS_DELAY_SECONDS, "address", where,
                                max_delay=settings.LOGIN_ADDRESS_MAX_DELAY_SECONDS))
    return counters


def _known_key(username: str, addr: str | None) -> str:
    return f"known:{_normal(username)}|{(addr or NO_ADDRESS)[:45]}"


def known_terminal(*, username: str, addr: str | None) -> bool:
    """Whether ``username`` signed in correctly from ``addr`` within ``LOGIN_KNOWN_TERMINAL_DAYS``."""
    since = timezone.now() - dt.timedelta(days=settings.LOGIN_KNOWN_TERMINAL_DAYS)
    return LoginThrottle.objects.filter(key=_known_key(username, addr), window_started_at__gt=since).exists()


@dataclass(frozen=True)
class Refusal:
    """Why a sign-in is not looked at now: ``locked`` (this username from this address) or ``slowed`` (the
    address, for a username it has not seen sign in), and until when."""

    kind: str
    until: dt.datetime

    def message(self) -> str:
        if self.kind == "slowed":
            seconds = retry_after(self.until)
            return ngettext("too many failed sign-ins from this address: wait %(seconds)d second and try again",
                            "too many failed sign-ins from this address: wait %(seconds)d seconds and try again",
                            seconds) % {"seconds": seconds}
        minutes = _minutes(self.until)
        return ngettext("too many failed sign-ins: try again in %(minutes)d minute, or ask a supervisor to unlock the "
                        "account",
                        "too many failed sign-ins: try again in %(minutes)d minutes, or ask a supervisor to unlock the "
                        "account", minutes) % {"minutes": minutes}


def login_refusal(*, username: str, addr: str | None) -> Refusal | None:
    """Whether a sign-in as ``username`` from ``addr`` is refused unchecked now, and why."""
    pair, *address = login_counters(username=username, addr=addr)
    until = locked_until([pair])
    if until is not None:
        return Refusal("locked", until)
    if address:
        until = locked_until(address)
        if until is not None and not known_terminal(username=username, addr=addr):
            return Refusal("slowed", until)
    return None


def login_locked_until(*, username: str, addr: str | None) -> dt.datetime | None:
    """When the lockout on this username from this address (or the address's wait) ends, if one is in force."""
    refusal = login_refusal(username=username, addr=addr)
    return refusal.until if refusal else None


def login_failure_record(*, username: str, addr: str | None) -> dt.datetime | None:
    """Count one failed sign-in; lock (and audit it) when a limit is passed. Returns the lockout's end."""
    return failure_record(login_counters(username=username, addr=addr), action="auth.lockout",
                          details={"username": username[:150], "address": addr or ""})


def login_success_record(*, username: str, addr: str | None) -> None:
    """A successful sign-in clears its username's count from that address (never the address's own:
    one good account must not wipe out the failures of a password-spraying client) and remembers the
    address as a terminal of this person's."""
    counters_clear([login_counters(username=username, addr=addr)[0].key])
    now = timezone.now()
    LoginThrottle.objects.update_or_create(key=_known_key(username, addr),
                                           defaults={"window_started_at": now, "failures": 0})


class LockoutBackend(ModelBackend):
    """Django's model backend behind the lockout (``AUTHENTICATION_BACKENDS``)."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        addr = client_address(request)
        if login_refusal(username=username, addr=addr) is not None:
            # ``authenticate`` stops at PermissionDenied and reports a failed login (audited)
            raise PermissionDenied("locked out")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            login_failure_record(username=username, addr=addr)
        else:
            login_success_record(username=username, addr=addr)
        return user


class LockoutAuthenticationForm(AuthenticationForm):
    """The web sign-in form, saying so when this account is locked out on this device."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy("Your username and password didn't match. Please try again."),
        "locked_out": gettext_lazy("Too many failed sign-ins: try again in %(minutes)s minutes, or ask a supervisor "
                                   "to unlock your account."),
        "slowed": gettext_lazy("Too many failed sign-ins from this terminal: wait %(seconds)s seconds and try again."),
    }

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            refusal = login_refusal(username=self.cleaned_data.get("username") or "",
                                    addr=client_address(self.request))
            if refusal is not None and refusal.kind == "slowed":
                raise forms.ValidationError(self.error_messages["slowed"], code="slowed",
                                            params={"seconds": retry_after(refusal.until)}) from None
            if refusal is not None:
                raise forms.ValidationError(self.error_messages["locked_out"], code="locked_out",
                                            params={"minutes": _minutes(refusal.until)}) from None
            raise


# -- signatures and approvals ---------------------------------------------------------------------


def signature_counters(*, requester: Any, signer: str) -> list[Counter]:
    """The counts a wrong password or PIN for ``signer`` typed by ``requester`` (the signed-in user) adds to."""
    who = _normal(requester.get_username()) if getattr(requester, "pk", None) else NO_ADDRESS
    name = _normal(signer)
    return [
        Counter(f"sign:{who}>{name}", settings.SIGNATURE_FAILURE_LIMIT, settings.SIGNATURE_LOCKOUT_SECONDS,
                "signer_from_requester", name),
        Counter(f"signby:{who}", settings.SIGNATURE_REQUESTER_FAILURE_LIMIT, settings.SIGNATURE_LOCKOUT_SECONDS,
                "requester", who, window=settings.SIGNATURE_REQUESTER_WINDOW),
    ]


def signature_locked_until(*, requester: Any, signer: str) -> dt.datetime | None:
    return locked_until(signature_counters(requester=requester, signer=signer))


def signature_failure_record(*, requester: Any, signer: str, field: str) -> dt.datetime | None:
    """Count a refused signature (called after the refused request rolled back, so the count stays)."""
    until = failure_record(signature_counters(requester=requester, signer=signer), action="signature.lockout",
                           details={"requester": getattr(requester, "username", ""), "signer": signer[:150],
                                    "field": field})
    audit_log(actor=requester if getattr(requester, "pk", None) else None, action="signature.refused",
              object_type="signature", object_id=_normal(signer)[:64],
              after={"signer": signer[:150], "field": field, "locked_until": until.isoformat() if until else None})
    return until


def signature_success_record(*, requester: Any, signer: str) -> None:
    counters_clear([signature_counters(requester=requester, signer=signer)[0].key])


# -- lifting a lockout --------------------------------------------------------------------------


def lockouts_in_force() -> list[dict[str, Any]]:
    """Every lockout (and address slowdown) in force now, newest end last: what the unlock screen lists.
    Each row names what lifts it: an account (``username``) or an address (``address``)."""
    now = timezone.now()
    rows = LoginThrottle.objects.filter(locked_until__gt=now).order_by("locked_until")
    out = []
    for row in rows:
        kind, _, rest = row.key.partition(":")
        entry = {"key": row.key, "username": "", "address": "", "until": row.locked_until, "failures": row.failures}
        if kind == "user":
            username, _, where = rest.partition("|")
            entry.update(username=username, what=gettext("signing in from %(address)s") % {"address": where})
        elif kind == "sign":
            requester, _, signer = rest.partition(">")
            entry.update(username=requester, what=gettext("signing for %(signer)s") % {"signer": signer})
        elif kind == "signby":
            entry.update(username=rest, what=gettext("signatures typed on their screen"))
        elif kind == "addr":
            entry.update(address=rest, what=gettext("sign-ins slowed: accounts not seen there before wait between tries"))
        else:
            continue
        out.append(entry)
    return out


@transaction.atomic
def lockout_lift(*, actor: Any, username: str = "", address: str = "", actor_addr: str | None = None) -> int:
    """Another supervisor or an admin lifts every lockout on ``username`` (their sign-ins from any address and
    the signatures they typed), or the slowdown of ``address``. Never their own, never from the address being
    lifted, and never the lifter's own counts. Returns how many counts were cleared."""

    if not has_role(actor, Role.PIT_MANAGER):
        raise Forbidden(gettext("only a supervisor or an admin may unlock an account"), code="supervisor_required")
    mine = _normal(actor.get_username())
    if address:
        where = address.strip()[:45]
        if actor_addr is not None and where == actor_addr:
            raise Forbidden(gettext("an address is unlocked from another terminal, never from itself"), code="same_address")
        rows = LoginThrottle.objects.filter(key=f"addr:{where}")
        object_type, object_id = "address", where
    elif username.strip():
        name = _normal(username)
        if name == mine:
            raise Forbidden(gettext("an account is unlocked by someone else, never by its owner"), code="same_person")
        target = get_user_model().objects.filter(username__iexact=name).first()
        if target is not None and Role.ADMIN in roles_of(target) and not has_role(actor):  # ``has_role()``: admin
            raise Forbidden(gettext("only an admin may unlock an admin's account"), code="admin_required")
        # the account's own counts: not the counts of others' wrong signatures for it (the lifter's among them)
        rows = LoginThrottle.objects.filter(Q(key__startswith=f"user:{name}|") | Q(key__startswith=f"sign:{name}>")
                                            | Q(key=f"signby:{name}"))
        object_type, object_id = "login", name
    else:
        raise InvalidInput(gettext("name the account or the address to unlock"), code="nothing_to_unlock")
    rows = rows.exclude(Q(key__startswith=f"user:{mine}|") | Q(key__startswith=f"sign:{mine}>")
                        | Q(key=f"signby:{mine}"))  # never the lifter's own (belt and braces)
    cleared = [(r.key, r.failures, r.locked_until) for r in rows]
    rows.delete()
    audit_log(actor=actor, action="auth.unlock", object_type=object_type, object_id=object_id[:64],
              before={"counts": [{"key": k, "failures": f, "until": u.isoformat() if u else None}
                                 for k, f, u in cleared]},
              after={"counts": []})
    return len(cleared)


# -- API tokens ---------------------------------------------------------------------------------


@transaction.atomic
def token_issue(*, user: Any) -> Token:
    """The user's token: the one they hold while it lives, else a new one (an expired one is replaced)."""
    token = Token.objects.select_for_update().filter(user=user).first()
    if token is not None and token_expired(token):
        token.delete()
        token = None
    if token is None:
        token = Token.objects.create(user=user)
    return token


@transaction.atomic
def token_revoke(*, user: Any) -> bool:
    """The owner revokes their token (a lost tablet): every client holding it is signed out. Audited."""
    deleted = Token.objects.filter(user=user).delete()[0]
    audit_log(actor=user, action="auth.token_revoke", object_type="user", object_id=user.pk,
              before={"token": bool(deleted)}, after={"token": False})
    return bool(deleted)


class TokenInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()
    expires_at = serializers.DateTimeField(allow_null=True, help_text="when the token stops working (null: never)")


class TokenRevokeOutput(serializers.Serializer):
    revoked = serializers.BooleanField(help_text="whether a token was revoked (false: the caller held none)")


def _token_answer(token: Token) -> dict[str, Any]:
    ttl = settings.API_TOKEN_TTL
    return {"token": token.key, "expires_at": token.created + dt.timedelta(seconds=ttl) if ttl else None}


class ObtainTokenView(APIView):
    """``POST /api/auth/token/``: a user's API token for their username and password, with the lockout."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(request=TokenInput, responses={200: TokenOutput}, auth=[],
                   description="The caller's API token (send it as `Authorization: Token <token>`), valid until "
                               "`expires_at`. Repeated failures for a username from one address lock that pair out "
                               "for a while (429 `locked_out`); many failures from one address make it wait "
                               "between tries (429 `slowed`, with `Retry-After`), except for a username that has "
                               "signed in from there before.")
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        username, password = data.validated_data["username"], data.validated_data["password"]
        user = authenticate(request._request, username=username, password=password)
        if user is None:
            refusal = login_refusal(username=username, addr=client_address(request._request))
            if refusal is not None:
                code = "slowed" if refusal.kind == "slowed" else "locked_out"
                return Response(error_body(code, refusal.message()), status=429,
                                headers={"Retry-After": str(retry_after(refusal.until))})
            raise InvalidInput(gettext("the username or password is wrong"), code="invalid_credentials")
        with transaction.atomic():
            token = token_issue(user=user)
            user_logged_in.send(sender=type(user), request=request._request, user=user)  # audited as auth.login
        return Response(_token_answer(token))


class RevokeTokenView(APIView):
    """``POST /api/auth/token/revoke/``: the signed-in owner revokes their own API token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TokenRevokeOutput},
                   description="Revoke the caller's own token (a lost tablet): every client holding it must sign in "
                               "again.")
    @idempotent
    def post(self, request: Request) -> Response:
        return Response({"revoked": token_revoke(user=request.user)})
