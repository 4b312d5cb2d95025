"""Audit records for changes Django itself makes: logins, logouts, failed logins, permission changes.

These are Django's own hooks (auth signals, ``m2m_changed`` on the membership tables, saves of
users and admin log entries), so receivers are the only place to catch them whatever the path:
the admin, a shell, a command, an API. They write in the transaction of the change when there
is one (the admin's, a service's), so a change whose record cannot be written is undone.

Failed logins have no user: the record's actor is "anonymous" and the attempted username is
kept in ``after`` and as the object id (object type ``login``), so an auditor can filter by it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Group
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db import transaction
from django.db.models.signals import m2m_changed, post_save, pre_save
from django.dispatch import receiver

from casino.audit.middleware import current_actor
from casino.audit.services import audit_log

User = get_user_model()
PRIVILEGE_FIELDS = ("is_active", "is_staff", "is_superuser")


def _write(**kwargs: Any) -> None:
    with transaction.atomic():  # a savepoint inside the change's transaction, or one of its own
        audit_log(**kwargs)


# -- logins ------------------------------------------------------------------------------------

@receiver(user_logged_in, dispatch_uid="audit_login")
def audit_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    _write(actor=user, action="auth.login", object_type="user", object_id=user.pk,
           after={"username": user.get_username()})


@receiver(user_login_failed, dispatch_uid="audit_login_failed")
def audit_login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    # ``credentials`` has the password masked already; only the username is kept.
    username = str(credentials.get(User.USERNAME_FIELD) or credentials.get("username") or "")[:150]
    _write(actor=AnonymousUser(), action="auth.login_failed", object_type="login", object_id=username[:64],
           after={"username": username})


@receiver(user_logged_out, dispatch_uid="audit_logout")
def audit_logout(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is None or getattr(user, "pk", None) is None:
        return
    _write(actor=user, action="auth.logout", object_type="user", object_id=user.pk,
           after={"username": user.get_username()})


# -- permissions: group membership, user permissions, group permissions ---------------------------

def _group_names(user: Any) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


def _permission_names(owner: Any) -> list[str]:
    manager = owner.user_permissions if isinstance(owner, User) else owner.permissions
    return sorted(f"{a}.{c}" for a, c in manager.values_list("content_type__app_label", "codename"))


def _m2m_receiver(*, key: str, owner_model: Any, owners_of: Callable[[Any], Any], describe: Callable[[Any], list[str]],
                  object_type: str, record_action: str) -> Callable[..., None]:
    """Record each owner's list before and after an add, remove or clear, from either side of the relation."""

    def handler(sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None,
                **kwargs: Any) -> None:
        if action.startswith("pre_"):
            if not reverse:
                owners = [instance]
            elif action == "pre_clear":
                owners = list(owners_of(instance).all())
            else:
                owners = list(owner_model.objects.filter(pk__in=pk_set or ()))
            instance.__dict__.setdefault("_audit_m2m", {})[key] = [(o, describe(o)) for o in owners]
            return
        for owner, before in instance.__dict__.get("_audit_m2m", {}).pop(key, []):
            after = describe(owner)
            owner.__dict__.pop("_croupier_roles", None)  # the roles cached on this object are now stale
            if after != before:
                _write(actor=current_actor(), action=record_action, object_type=object_type, object_id=owner.pk,
                       before={key: before}, after={"name": str(owner), key: after})

    return handler


_on_user_groups = _m2m_receiver(key="groups", owner_model=User, owners_of=lambda group: group.user_set,
                                describe=_group_names, object_type="user", record_action="user.groups_change")
_on_user_permissions = _m2m_receiver(key="permissions", owner_model=User, owners_of=lambda perm: perm.user_set,
                                     describe=_permission_names, object_type="user",
                                     record_action="user.permissions_change")
_on_group_permissions = _m2m_receiver(key="permissions", owner_model=Group, owners_of=lambda perm: perm.group_set,
                                      describe=_permission_names, object_type="group",
                                      record_action="group.permissions_change")
m2m_changed.connect(_on_user_groups, sender=User.groups.through, dispatch_uid="audit_user_groups")
m2m_changed.connect(_on_user_permissions, sender=User.user_permissions.through, dispatch_uid="audit_user_perms")
m2m_changed.connect(_on_group_permissions, sender=Group.permissions.through, dispatch_uid="audit_group_perms")


# -- accounts: creation and privilege flags -----------------------------------------------------

@receiver(pre_save, sender=User, dispatch_uid="audit_user_privileges_before")
def _remember_privileges(sender: Any, instance: Any, raw: bool, update_fields: Any, **kwargs: Any) -> None:
    if raw or instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & set(PRIVILEGE_FIELDS):
        return  # e.g. the last_login update of every login: no extra query
    instance.__dict__["_audit_privileges"] = sender.objects.filter(pk=instance.pk).values(*PRIVILEGE_FIELDS).first()


@receiver(post_save, sender=User, dispatch_uid="audit_user_privileges_after")
def audit_user_saved(sender: Any, instance: Any, created: bool, raw: bool, **kwargs: Any) -> None:
    if raw:
        return
    now = {f: getattr(instance, f) for f in PRIVILEGE_FIELDS}
    if created:
        _write(actor=current_actor(), action="user.create", object_type="user", object_id=instance.pk,
               after={"username": instance.get_username(), **now})
        return
    before = instance.__dict__.pop("_audit_privileges", None)
    if before is None:
        return
    changed = sorted(f for f in PRIVILEGE_FIELDS if before[f] != now[f])
    if changed:
        instance.__dict__.pop("_croupier_roles", None)
        _write(actor=current_actor(), action="user.privileges_change", object_type="user", object_id=instance.pk,
               before={f: before[f] for f in changed},
               after={"username": instance.get_username(), **{f: now[f] for f in changed}})


# -- the admin site: every logged add, change and delete ---------------------------------------

_ADMIN_VERBS = {ADDITION: "add", CHANGE: "change", DELETION: "delete"}


@receiver(post_save, sender=LogEntry, dispatch_uid="audit_admin_log_entry")
def audit_admin_action(sender: Any, instance: LogEntry, created: bool, raw: bool, **kwargs: Any) -> None:
    if raw or not created:
        return
    ct = instance.content_type
    _write(actor=instance.user, action=f"admin.{_ADMIN_VERBS.get(instance.action_flag, 'action')}",
           object_type=f"{ct.app_label}.{ct.model}"[:64] if ct else "unknown", object_id=str(instance.object_id or "")[:64],
           after={"object": instance.object_repr, "change": instance.get_change_message()})
