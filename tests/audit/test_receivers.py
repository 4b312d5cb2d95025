"""Logins, failed logins, logouts, permission changes and exports leave their records."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from casino.audit.models import AuditRecord
from casino.audit.services import audit_export_logged
from tests.factories import UserFactory


def records(action: str, *, since: int = 0) -> list[AuditRecord]:
    return list(AuditRecord.objects.filter(action=action, id__gt=since).order_by("id"))


def mark() -> int:
    """The last record's id: the floor fixture itself creates users and groups, which are recorded."""
    return AuditRecord.objects.order_by("-id").values_list("id", flat=True).first() or 0


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def test_login_and_logout_are_recorded(floor):
    # given the auditor's browser
    client = Client()
    # when they log in and out
    assert client.login(username="auditor", password="pass")
    client.logout()
    # then both are on the casino chain, by the auditor
    login, = records("auth.login")
    logout, = records("auth.logout")
    for rec in (login, logout):
        assert (rec.chain, rec.object_type, rec.object_id) == ("casino", "user", str(floor.auditor.pk))
        assert (rec.actor_id, rec.actor_username, rec.actor_role) == (floor.auditor.pk, "auditor", "auditor")
        assert rec.after == {"username": "auditor"}
    assert login.id < logout.id


def test_failed_login_records_the_attempted_username_and_address(floor, root):
    # when someone tries a wrong password on the admin login page
    response = Client().post("/admin/login/", {"username": "root", "password": "guess"}, REMOTE_ADDR="203.0.113.9")
    # then they stay out, and the attempt is recorded: no user, the username tried, from where
    assert response.status_code == 200
    rec, = records("auth.login_failed")
    assert (rec.actor_id, rec.actor_username, rec.actor_role) == (None, "", "anonymous")
    assert (rec.object_type, rec.object_id, rec.after) == ("login", "root", {"username": "root"})
    assert (rec.client_addr, rec.channel) == ("203.0.113.9", "web")
    assert "guess" not in str(rec.after)


def test_a_failed_login_for_a_name_that_does_not_exist_is_recorded_too(db):
    assert not Client().login(username="mallory", password="x")
    rec, = records("auth.login_failed")
    assert (rec.object_id, rec.after) == ("mallory", {"username": "mallory"})


def test_group_changes_through_the_admin_record_who_and_before_after(floor, root):
    # given an admin logged in to the admin site
    client = Client()
    client.force_login(root)
    auditor = Group.objects.get(name="auditor")
    since = mark()
    # when they put "nobody" in the auditor group with the user change form
    response = client.post(f"/admin/auth/user/{floor.nobody.pk}/change/", {
        "username": "nobody", "is_active": "on", "groups": [auditor.pk], "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00", "first_name": "", "last_name": "", "email": "",
    }, REMOTE_ADDR="198.51.100.4")
    # then the membership change is recorded with the admin as actor, from where they were
    assert response.status_code == 302, response.content[:2000]
    rec, = records("user.groups_change", since=since)
    assert (rec.object_type, rec.object_id) == ("user", str(floor.nobody.pk))
    assert (rec.before, rec.after) == ({"groups": []}, {"name": "nobody", "groups": ["auditor"]})
    assert (rec.actor_username, rec.actor_role, rec.client_addr) == ("root", "admin", "198.51.100.4")
    # and the admin's own log entry of the change
    admin_rec, = records("admin.change", since=since)
    assert (admin_rec.object_type, admin_rec.object_id, admin_rec.actor_username) == (
        "auth.user", str(floor.nobody.pk), "root")
    assert admin_rec.after["object"] == "nobody"
    assert "Groups" in admin_rec.after["change"]


def test_group_changes_from_either_side_and_clear_are_recorded(floor):
    pit_manager = Group.objects.get(name="pit_manager")
    since = mark()
    # from the group's side
    pit_manager.user_set.add(floor.dealer)
    added, = records("user.groups_change", since=since)
    assert (added.object_id, added.before, added.after) == (
        str(floor.dealer.pk), {"groups": ["dealer"]}, {"name": "dealer", "groups": ["dealer", "pit_manager"]})
    # removing a group the user is not in changes nothing and records nothing
    floor.dealer.groups.remove(Group.objects.get(name="auditor"))
    assert len(records("user.groups_change", since=since)) == 1
    # clearing
    floor.dealer.groups.clear()
    cleared = records("user.groups_change", since=since)[-1]
    assert (cleared.before, cleared.after) == ({"groups": ["dealer", "pit_manager"]},
                                               {"name": "dealer", "groups": []})
    assert cleared.actor_role == "system"  # no request: a shell or a command did it


def test_permission_and_privilege_changes_are_recorded(floor):
    perm = Permission.objects.get(codename="view_auditrecord")
    since = mark()
    floor.nobody.user_permissions.add(perm)
    user_perm, = records("user.permissions_change", since=since)
    assert (user_perm.before, user_perm.after) == ({"permissions": []},
                                                   {"name": "nobody", "permissions": ["audit.view_auditrecord"]})
    group = Group.objects.get(name="dealer")
    group.permissions.add(perm)
    group_perm, = records("group.permissions_change", since=since)
    assert (group_perm.object_type, group_perm.object_id) == ("group", str(group.pk))
    assert group_perm.after == {"name": "dealer", "permissions": ["audit.view_auditrecord"]}
    # a superuser flag is a permission too
    floor.nobody.is_superuser = True
    floor.nobody.save()
    flag, = records("user.privileges_change", since=since)
    assert (flag.before, flag.after) == ({"is_superuser": False}, {"username": "nobody", "is_superuser": True})


def test_creating_an_account_is_recorded_with_its_privileges(db):
    user = UserFactory(username="newbie", is_staff=True)
    rec, = records("user.create")
    assert rec.actor_role == "system"
    assert (rec.object_id, rec.after) == (str(user.pk), {"username": "newbie", "is_active": True, "is_staff": True,
                                                         "is_superuser": False})


def test_a_login_updates_no_privilege_and_records_no_privilege_change(floor):
    since = mark()
    Client().login(username="dealer", password="pass")
    assert [r.action for r in AuditRecord.objects.filter(id__gt=since)] == ["auth.login"]


def test_an_export_is_recorded_by_the_helper_other_areas_call(floor):
    audit_export_logged(floor.accountant, "shift_report.xlsx", {"shift": 3, "table": "BAC1"}, rows=12)
    rec = AuditRecord.objects.order_by("-id").first()
    assert (rec.chain, rec.action, rec.object_type, rec.object_id) == ("casino", "export", "report",
                                                                       "shift_report.xlsx")
    assert rec.after == {"report": "shift_report.xlsx", "filters": {"shift": 3, "table": "BAC1"}, "rows": 12}
    assert (rec.actor_username, rec.actor_role) == ("accountant", "accountant")
