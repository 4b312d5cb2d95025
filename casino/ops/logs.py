"""Log formats: one JSON object per line (``LOG_FORMAT=json``, the production default) or text.

Every line carries the request id of the request or job being served, when there is one; the
request and job lines (``croupier.request``, ``croupier.job``) carry their fields (user, table,
round, status, duration) as top-level keys.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from casino.context import request_id


class RequestIdFilter(logging.Filter):
    """Puts the request id being served on every record (``record.request_id``, "" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        body: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", "") or request_id()
        if rid:
            body["request_id"] = rid
        body.update(getattr(record, "croupier", None) or {})
        if record.exc_info:
            body["exception"] = self.formatException(record.exc_info)
        return json.dumps(body, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """For a developer's console: the usual line, then the request's fields as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = dict(getattr(record, "croupier", None) or {})
        rid = getattr(record, "request_id", "") or request_id()
        if rid:
            fields.setdefault("request_id", rid)
        extra = " ".join(f"{k}={v}" for k, v in fields.items() if v not in ("", None) and k not in ("method", "path"))
        return f"{line} [{extra}]" if extra else line
