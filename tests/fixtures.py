"""The floor as tests need it: a pit, a baccarat table, an open shift, staff of every role."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _audit_anchors(request: Any, tmp_path: Any) -> None:
    """Each test anchors the audit trail's checkpoints in a directory of its own (casino/audit/verification.py).
    Without Django (``-p no:django``: the engine tests) there are no settings to set."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    request.getfixturevalue("settings").AUDIT_ANCHOR_DIR = str(tmp_path / "audit-anchors")


@pytest.fixture(autouse=True)
def _language_reset(request: Any) -> Any:
    """Each test starts and ends in the default language: a request made as a person who reads Spanish leaves
    Spanish active in the thread (the middleware activates the reader's language and nothing deactivates it), and
    the next test would read its English words translated."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def floor(db: Any) -> Any:
    from tests.factories import build_floor

    return build_floor()


@pytest.fixture
def api() -> Any:
    from tests.client import APIClient

    return APIClient()


def as_user(user: Any) -> Any:
    from tests.client import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def dealer_api(floor: Any) -> Any:
    return as_user(floor.dealer)


@pytest.fixture
def manager_api(floor: Any) -> Any:
    return as_user(floor.manager)


@pytest.fixture
def now() -> dt.datetime:
    from django.utils import timezone

    return timezone.now()
