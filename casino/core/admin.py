"""The admin site's ground rules: what it writes is audited with before and after; API tokens are not listed.

DRF registers its tokens with the admin, which would list every user's key to anyone with admin
access: unregistered here (a token is issued to its owner at sign-in and revoked by them,
casino/auth.py). Floor and accounting models are read-only in the admin (tables/admin.py,
accounting/admin.py): they change through the services, which check and audit every change.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.forms.models import model_to_dict
from rest_framework.authtoken.models import TokenProxy

from casino.audit.services import audit_log

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


def _state(obj: Any) -> dict[str, Any]:
    data = model_to_dict(obj)
    return {k: (sorted(v.pk for v in v) if isinstance(v, list) else v) for k, v in data.items()}


class ReadOnlyAdmin(admin.ModelAdmin):
    """Look, never touch: the records change through the services only."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class AuditedAdmin(admin.ModelAdmin):
    """Set-up data an admin may add (and, where ``editable`` says, change): each write is audited with the
    record's fields before and after, in the admin's transaction. Never deleted."""

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def changeform_view(self, request: Any, object_id: str | None = None, form_url: str = "",
                        extra_context: dict | None = None) -> Any:
        with transaction.atomic():
            obj = self.get_object(request, object_id) if object_id else None
            request._croupier_before = _state(obj) if obj is not None else None
            return super().changeform_view(request, object_id, form_url, extra_context)

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        obj = form.instance
        name = obj._meta.model_name
        audit_log(actor=request.user, action=f"admin.{name}.{'change' if change else 'add'}", object_type=name,
                  object_id=obj.pk, table_code=obj.code if name == "table" else "",
                  before=getattr(request, "_croupier_before", None), after=_state(obj))
