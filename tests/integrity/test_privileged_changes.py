"""The service role cannot change privileges (flags and roles), PIN hashes, pit managers or progressive amounts unseen (issue 28,
"Smaller": "such changes leave no audit record"). The tests run as the service role (tests/dbbackend): each
privileged UPDATE in its own SQL is recorded by the database in ``core_privilegedchange``, which the service
can read and never write, empty or alter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError, connection, transaction

from casino.audit.models import AuditRecord
from casino.core.models import PrivilegedChange, StaffProfile
from slots.models import Progressive
from tests.fixtures import as_user, fresh_sqlite, sqlite_env
from tests.slots.helpers import progressive

REFUSED = "refused on|permission denied"


def _sql(statement: str, params: list | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params or [])


def _service_role() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        return cursor.fetchone()[0]


def _changes() -> list[tuple[str, str, str, str, str]]:
    return list(PrivilegedChange.objects.values_list("table", "row_id", "column", "before", "after"))


def test_each_privileged_update_by_the_service_role_is_recorded_by_the_database(floor):
    role = _service_role()
    dealer, profile = floor.dealer, StaffProfile.objects.get(user=floor.dealer)
    jackpot = progressive(floor.manager)
    before = PrivilegedChange.objects.count()
    # when the service role makes the dealer a superuser and staff, sets a PIN hash, moves pit managers and
    # raises a progressive in its own SQL, past every service
    _sql("UPDATE auth_user SET is_superuser = true, is_staff = true WHERE id = %s", [dealer.pk])
    _sql("UPDATE core_staffprofile SET pin_hash = %s WHERE id = %s", ["pbkdf2_sha256$1$x$y", profile.pk])
    _sql("INSERT INTO tables_pit_managers (pit_id, user_id) VALUES (%s, %s)", [floor.other_pit.pk, floor.manager.pk])
    _sql("DELETE FROM tables_pit_managers WHERE pit_id = %s AND user_id = %s", [floor.pit.pk, floor.manager.pk])
    _sql("UPDATE slots_progressive SET amount = amount + 100000 WHERE id = %s", [jackpot.pk])
    _sql("INSERT INTO auth_user_groups (user_id, group_id) SELECT %s, id FROM auth_group WHERE name = 'admin'",
         [dealer.pk])
    # then the database wrote down every one, with who (the service role) and never the PIN's hash
    rows = PrivilegedChange.objects.order_by("id")[before:]
    assert [(r.table, r.row_id, r.column, r.before, r.after) for r in rows] == [
        ("auth_user", str(dealer.pk), "is_superuser", "false", "true"),
        ("auth_user", str(dealer.pk), "is_staff", "false", "true"),
        ("core_staffprofile", str(profile.pk), "pin_hash", "none", "a new PIN"),
        ("tables_pit_managers", str(floor.other_pit.pk), "manager", "", str(floor.manager.pk)),
        ("tables_pit_managers", str(floor.pit.pk), "manager", str(floor.manager.pk), ""),
        ("slots_progressive", str(jackpot.pk), "amount", str(jackpot.amount), str(jackpot.amount + 100_000)),
        ("auth_user_groups", str(dealer.pk), "role", "", "admin"),
    ]
    assert {r.db_user for r in rows} == {role}
    assert all(r.txid for r in rows)
    assert "pbkdf2" not in str(_changes())
    # an UPDATE that changes none of those columns writes nothing (a sign-in's last_login, a full save)
    count = PrivilegedChange.objects.count()
    _sql("UPDATE auth_user SET last_login = now(), is_superuser = is_superuser WHERE id = %s", [dealer.pk])
    assert PrivilegedChange.objects.count() == count


@pytest.mark.parametrize("statement", [
    "UPDATE core_privilegedchange SET after = 'false'",
    "DELETE FROM core_privilegedchange",
    "TRUNCATE core_privilegedchange",
    "INSERT INTO core_privilegedchange (at, db_user, \"table\", row_id, \"column\", before, after) "
    "VALUES (now(), 'x', 'auth_user', '1', 'is_superuser', 'true', 'false')",
])
def test_the_service_role_cannot_alter_or_forge_the_record_of_privileged_changes(floor, statement):
    _sql("UPDATE auth_user SET is_staff = true WHERE id = %s", [floor.dealer.pk])
    recorded = _changes()  # (the floor's pit managers, added when it was built, are in it too)
    assert recorded[-1] == ("auth_user", str(floor.dealer.pk), "is_staff", "false", "true")
    with pytest.raises(DatabaseError, match=REFUSED), transaction.atomic():
        _sql(statement)
    assert _changes() == recorded


def test_the_services_own_changes_are_recorded_too_beside_their_audit_records(floor):
    # a PIN set through its service: audited by the service and recorded by the database
    answer = as_user(floor.dealer).post("/api/auth/pin/", {"password": "pass", "pin": "4821"}, format="json")
    assert answer.status_code == 200
    profile = StaffProfile.objects.get(user=floor.dealer)
    assert ("core_staffprofile", str(profile.pk), "pin_hash", "none", "a new PIN") in _changes()
    assert AuditRecord.objects.filter(action="staff.pin_set", object_id=str(profile.pk)).exists()
    # a progressive's amount changed through the ORM is recorded like any other change
    jackpot = progressive(floor.manager)
    Progressive.objects.filter(pk=jackpot.pk).update(amount=jackpot.amount + 5)
    assert ("slots_progressive", str(jackpot.pk), "amount", str(jackpot.amount), str(jackpot.amount + 5)) in _changes()


SQLITE_SCRIPT = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import DatabaseError, connection, transaction
from casino.core.models import PrivilegedChange, StaffProfile
from tables.models import Pit

user = get_user_model().objects.create_user(username="mallory", password="x")
profile = StaffProfile.objects.create(user=user, employee_id="E-1", display_name="Mallory")
pit = Pit.objects.create(code="main", name="Main pit")
with connection.cursor() as cursor:
    cursor.execute("UPDATE auth_user SET is_superuser = 1 WHERE id = %s", [user.pk])
    cursor.execute("UPDATE core_staffprofile SET pin_hash = 'x' WHERE id = %s", [profile.pk])
    cursor.execute("INSERT INTO tables_pit_managers (pit_id, user_id) VALUES (%s, %s)", [pit.pk, user.pk])
    cursor.execute("INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)",
                   [user.pk, Group.objects.get_or_create(name="admin")[0].pk])
try:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM core_privilegedchange")
    erased = "allowed"
except DatabaseError as exc:
    erased = str(exc)
print(json.dumps({"rows": [[c.table, c.column, c.before, c.after] for c in PrivilegedChange.objects.all()],
                  "erase": erased}))
"""


def test_the_embedded_mode_records_the_same_changes(tmp_path, migrated_sqlite):
    root = Path(__file__).resolve().parents[2]
    env = sqlite_env(tmp_path)
    fresh_sqlite(migrated_sqlite, tmp_path)  # as `manage.py migrate` leaves it
    done = subprocess.run([sys.executable, "-c", SQLITE_SCRIPT], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["rows"] == [["auth_user", "is_superuser", "0", "1"], ["core_staffprofile", "pin_hash", "none", "a new PIN"],
                           ["tables_pit_managers", "manager", "", "1"], ["auth_user_groups", "role", "", "admin"]]
    assert "append-only" in out["erase"]
