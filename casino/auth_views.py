"""Screens and endpoints around signing in and signing: lifting lockouts, setting one's signing PIN.

``/staff/lockouts/`` lists every lockout in force and lets another supervisor (a pit manager) or an
admin lift those of an account, or an address's slowdown (casino/auth.py ``lockout_lift``, audited as
``auth.unlock``): the only way back in before a lockout ends, never by the locked account itself, an
address never from itself.
``POST /api/auth/pin/`` sets the signed-in person's own signing PIN (casino/signatures.py).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.auth import client_address, lockout_lift, lockouts_in_force
from casino.core.roles import Role, has_role
from casino.errors import DomainError
from casino.idempotency import idempotent
from casino.signatures import staff_pin_set


@login_required
@require_http_methods(["GET", "POST"])
def lockouts(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return render(request, "registration/forbidden.html",
                      {"message": _("lockouts are lifted by a supervisor or an admin")}, status=403)
    if request.method == "POST":
        username = (request.POST.get("username") or "").strip()
        address = "" if username else (request.POST.get("address") or "").strip()
        what = username or address
        try:
            cleared = lockout_lift(actor=request.user, username=username, address=address,
                                   actor_addr=client_address(request))
        except DomainError as refused:
            messages.error(request, _(refused.message))
        else:
            if cleared:
                messages.success(request, ngettext("%(what)s is unlocked (%(n)d count cleared).",
                                                   "%(what)s is unlocked (%(n)d counts cleared).", cleared)
                                 % {"what": what, "n": cleared})
            else:
                messages.success(request, _("%(what)s had no lockout or failed attempt.") % {"what": what})
        return redirect("staff-lockouts")
    rows = lockouts_in_force()
    now = timezone.now()
    for row in rows:
        row["minutes"] = max(1, int((row["until"] - now).total_seconds() // 60) + 1)
    return render(request, "registration/lockouts.html", {"rows": rows})


class PinInput(serializers.Serializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})
    pin = serializers.CharField(max_length=12, trim_whitespace=False, style={"input_type": "password"})


class PinOutput(serializers.Serializer):
    pin_set = serializers.BooleanField()


class PinView(APIView):
    """``POST /api/auth/pin/``: set your own signing PIN (4 to 12 digits), proving it is you with your password."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PinInput, responses={200: PinOutput})
    @idempotent
    def post(self, request: Request) -> Response:
        data = PinInput(data=request.data)
        data.is_valid(raise_exception=True)
        staff_pin_set(actor=request.user, password=data.validated_data["password"], pin=data.validated_data["pin"])
        return Response({"pin_set": True})
