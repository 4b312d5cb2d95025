"""Every staff role is a group of the same name (casino/core/roles.py): the cage cashier's and the count team's
join the others, so an administrator can put people in them from the first day."""

from django.db import migrations

ROLES = ("dealer", "pit_manager", "shift_manager", "accountant", "auditor", "compliance", "cashier", "count_team")


def forwards(apps, schema_editor):
    group = apps.get_model("auth", "Group")
    for name in ROLES:
        group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("core", "0006_outbox_request_id"),
    ]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
