"""A user's roles (``auth_user_groups``: a row added, changed or removed) are privileged changes too: recorded in
``core_privilegedchange`` like a pit's managers (0008)."""

from django.db import migrations

LOG = "core_privilegedchange"
ROLES = "auth_user_groups"


def forwards(apps, schema_editor):
    run = schema_editor.execute
    if schema_editor.connection.vendor == "postgresql":
        insert = (f"INSERT INTO {LOG} (at, db_user, txid, \"table\", row_id, \"column\", before, after) "
                  "VALUES (clock_timestamp(), session_user, txid_current(), TG_TABLE_NAME, {row_id}, 'role', {before}, "
                  "{after});")
        fn = f"{ROLES}_privileged_change"
        run(f"""CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql
                SECURITY DEFINER SET search_path = public, pg_temp AS $$
                BEGIN
                  IF TG_OP IN ('DELETE', 'UPDATE') THEN
                    {insert.format(row_id="OLD.user_id::text", before="(SELECT name FROM auth_group WHERE id = OLD.group_id)", after="''")}
                  END IF;
                  IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    {insert.format(row_id="NEW.user_id::text", before="''", after="(SELECT name FROM auth_group WHERE id = NEW.group_id)")}
                  END IF;
                  RETURN NULL;
                END $$;""", params=None)
        run(f"DROP TRIGGER IF EXISTS {fn} ON {ROLES};", params=None)
        run(f"CREATE TRIGGER {fn} AFTER INSERT OR UPDATE OR DELETE ON {ROLES} FOR EACH ROW EXECUTE FUNCTION {fn}();",
            params=None)
        return
    insert = (f"INSERT INTO {LOG} (at, db_user, txid, \"table\", row_id, \"column\", before, after) "
              "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now'), 'sqlite', NULL, '{table}', {row_id}, 'role', {before}, "
              "{after}")
    for event, row_id, before, after in (
            ("insert", "CAST(NEW.user_id AS TEXT)", "''", "(SELECT name FROM auth_group WHERE id = NEW.group_id)"),
            ("delete", "CAST(OLD.user_id AS TEXT)", "(SELECT name FROM auth_group WHERE id = OLD.group_id)", "''"),
            ("update", "CAST(NEW.user_id AS TEXT)", "(SELECT name FROM auth_group WHERE id = OLD.group_id)",
             "(SELECT name FROM auth_group WHERE id = NEW.group_id)")):
        name = f"{ROLES}_{event}_privileged_change"
        run(f"DROP TRIGGER IF EXISTS {name};", params=None)
        run(f"""CREATE TRIGGER {name} AFTER {event.upper()} ON {ROLES}
                BEGIN {insert.format(table=ROLES, row_id=row_id, before=before, after=after)}; END;""", params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {ROLES}_privileged_change ON {ROLES};", params=None)
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {ROLES}_privileged_change();", params=None)
        return
    for event in ("insert", "update", "delete"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {ROLES}_{event}_privileged_change;", params=None)


class Migration(migrations.Migration):
    dependencies = [("core", "0008_privileged_changes")]
    operations = [migrations.RunPython(forwards, backwards)]
