"""Fault tests: the service under broken brokers, killed workers, a stopped database and fuzzing.

All of them run in one xdist group (they share Redis db 13 and, for some, subprocesses), so
``make test`` keeps them on one worker; ``make faults`` runs just these.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/faults/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.faults)
            if item.config.pluginmanager.hasplugin("xdist"):
                item.add_marker(pytest.mark.xdist_group("faults"))
