"""The service's settings plus the test release's app: the code of the "next release" in the upgrade test."""

from casino.settings import *  # noqa: F403
from casino.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.ops.upgrade_release"]
