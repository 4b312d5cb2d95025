from __future__ import annotations

from django.apps import AppConfig


class UpgradeReleaseConfig(AppConfig):
    name = "tests.ops.upgrade_release"
    label = "upgrade_release"
    default_auto_field = "django.db.models.BigAutoField"
