"""How API calls authenticate (``REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]``).

A module of its own, importing little: DRF imports it while it loads its views.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from casino.core import sql
from casino.core.roles import remember_roles


def token_expired(token: Token) -> bool:
    """A token older than ``API_TOKEN_TTL`` seconds no longer signs anyone in (0: tokens never expire)."""
    ttl = settings.API_TOKEN_TTL
    return bool(ttl) and token.created <= timezone.now() - dt.timedelta(seconds=ttl)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check, with the user's roles read in the same statement: every call a dealer's
    tablet makes starts here (casino/core/sql.py). On SQLite, DRF's own check; roles on first use.
    A token past ``API_TOKEN_TTL`` is refused (the owner signs in again for a new one)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = self._credentials(key)
        if token_expired(token):
            raise exceptions.AuthenticationFailed(gettext("The token has expired: sign in again."))
        return user, token

    def _credentials(self, key: str) -> tuple[Any, Token]:
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        user_model = get_user_model()
        groups, members = Group, user_model.groups.through
        row = sql.fetch_one(
            f"SELECT {sql.columns(Token, 'k')}, {sql.columns(user_model, 'u')}, "
            f"ARRAY(SELECT g.name FROM {sql.table(groups)} g JOIN {sql.table(members)} m ON m.group_id = g.id "
            f"WHERE m.user_id = u.id) FROM {sql.table(Token)} k JOIN {sql.table(user_model)} u ON u.id = k.user_id "
            "WHERE k.key = %s",
            [key])
        if row is None:
            raise exceptions.AuthenticationFailed(gettext("Invalid token."))
        token = sql.instance(Token, row)
        token.user = user = sql.instance(user_model, row, sql.width(Token))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(gettext("User inactive or deleted."))
        remember_roles(user, row[-1])
        return user, token
