from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.players.helpers import clock  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def _fresh_edge_memo() -> Iterator[None]:
    # the memo outlives a test's transaction (the cache rows it mirrors do not)
    from players.edges import forget
    from players.selectors import forget_held

    forget()
    forget_held()
    yield
    forget()
    forget_held()
