"""The API test client: DRF's, sending a fresh ``Idempotency-Key`` with every write, as every screen does.

A test that sends its own key (``HTTP_IDEMPOTENCY_KEY=…``) keeps it; ``APIClient(idempotency_keys=False)``
sends none, to see the write refused.
"""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework import test

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class APIClient(test.APIClient):
    def __init__(self, *args: Any, idempotency_keys: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.idempotency_keys = idempotency_keys

    def generic(self, method: str, path: str, *args: Any, **extra: Any) -> Any:
        if self.idempotency_keys and method.upper() in WRITES and "HTTP_IDEMPOTENCY_KEY" not in extra:
            extra["HTTP_IDEMPOTENCY_KEY"] = f"test-{uuid.uuid4().hex}"
        return super().generic(method, path, *args, **extra)
