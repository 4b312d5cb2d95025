"""A release's new migration, for the upgrade test only (tests/ops/test_upgrade.py): never installed by the
service's settings; the test's "new code" is ``tests.ops.upgrade_release.settings``."""
