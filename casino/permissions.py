from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import BasePermission

from casino.core.roles import Role, has_role, roles_of


def role_permission(*roles: Role, read_roles: tuple[Role, ...] | None = None) -> type[BasePermission]:
    """A permission class: writes need one of ``roles``; reads need one of ``read_roles`` (default: any staff role)."""

    class _RolePermission(BasePermission):
        message = f"this needs the role {' or '.join(r.value for r in roles) or 'admin'}"

        def has_permission(self, request: Any, view: Any) -> bool:
            if not request.user or not request.user.is_authenticated:
                return False
            if request.method in ("GET", "HEAD", "OPTIONS"):
                return has_role(request.user, *read_roles) if read_roles is not None else bool(roles_of(request.user))
            return has_role(request.user, *roles)

    return _RolePermission


class ApiDocsAccess(BasePermission):
    """``/api/schema/`` and ``/api/docs/`` (``SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"]``): anyone when
    ``API_DOCS_PUBLIC`` is on (development's default), else a signed-in user (production's default)."""

    message = "the API's schema and docs need a signed-in user"

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(settings.API_DOCS_PUBLIC or (request.user and request.user.is_authenticated))
