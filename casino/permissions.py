from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework.permissions import BasePermission

from casino.core.roles import Role, has_role, role_label, roles_of


def role_permission(*roles: Role, read_roles: tuple[Role, ...] | None = None) -> type[BasePermission]:
    """A permission class: writes need one of ``roles``; reads need one of ``read_roles`` (default: any staff role)."""

    class _RolePermission(BasePermission):
        @property
        def message(self) -> str:  # read by DRF when the permission refuses: in the reader's language
            named = gettext(" or ").join(role_label(r) for r in roles) or role_label(Role.ADMIN)
            return gettext("this needs the role: %(roles)s") % {"roles": named}

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

    message = gettext_lazy("the API's schema and docs need a signed-in user")

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(settings.API_DOCS_PUBLIC or (request.user and request.user.is_authenticated))
