"""The audit record's canonical form, written once: which fields are hashed, how each becomes text,
the hash, and the CSV cells an auditor recomputes it from (docs/audit.md, "Canonical form and hash").

A record's hash is the SHA-256 of the JSON object of its :data:`HASHED` fields with sorted keys,
compact separators and unescaped UTF-8; ``created_at`` is Python's ``isoformat()`` of the UTC time
(:data:`PG_CREATED_AT` is the same text computed by PostgreSQL, for the verification's walk). The
service hashes with :func:`hash_of` when it writes a record, the walk with :func:`record_hash` on
the columns it streams, the CSV export with :func:`csv_cells`. ``casino/audit/offline.py`` is the
auditor's independent implementation of the same form and shares no code with this one on
purpose (tests/audit holds the two to the same bytes).

Pure Python: no Django, so the walk and the benchmark can use it on raw rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]  # the C functions when available
from typing import Any

GENESIS = "0" * 64  # the prev_hash of a chain's first record

# The hashed fields (the model's attribute names), and the columns a walk or an export reads: these
# with the row id first and the stored hash last.
HASHED = ("chain", "seq", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
          "channel", "action", "object_type", "object_id", "table_code", "before", "after", "prev_hash", "request_id")
# ``request_id`` comes after the stored hash in a row: records from before it existed hash without it.
FIELDS = ("id", *HASHED[:-1], "hash", "request_id")
_CREATED_AT, _BEFORE, _AFTER = FIELDS.index("created_at"), FIELDS.index("before"), FIELDS.index("after")
_ACTOR_ID = FIELDS.index("actor_id")

# One encoder, built once: ``json.dumps`` with these options would build a new one per call, and
# verification hashes a million records in a tight loop. Same bytes as ``json.dumps(...)``.
ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
# ``JSONEncoder.encode`` builds its C encoder again on every call; this one is built once (the same
# arguments ``iterencode`` passes it; no circular-reference markers: the values come from JSON).
_C_ENCODE = c_make_encoder(None, str, encode_basestring, None, ":", ",", True, False, True) if c_make_encoder else None


def json_text(value: Any) -> str:
    """The canonical JSON text of a value: the same bytes as ``ENCODER.encode(value)``."""
    if value is None:
        return "null"
    if value.__class__ is str:
        return encode_basestring(value)
    if _C_ENCODE is None or value.__class__ not in (dict, list):
        return ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))

# ``created_at`` as the hashed text, by PostgreSQL: Python's isoformat() of an aware UTC datetime
# (no fraction when the microseconds are zero). Parsing a timestamptz into a datetime and formatting
# it back costs the walk more than hashing the record.
PG_CREATED_AT = """to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
       || CASE WHEN mod(EXTRACT(MICROSECONDS FROM created_at)::bigint, 1000000) = 0 THEN ''
               ELSE to_char(created_at AT TIME ZONE 'UTC', '.US') END || '+00:00'"""


def canonical_text(chain: str, seq: int, created_at: str, actor_id: int | None, actor_username: str,
                   actor_role: str, client_addr: str, device: str, channel: str, action: str, object_type: str,
                   object_id: str, table_code: str, before: Any, after: Any, prev_hash: str,
                   request_id: str = "") -> str:
    """The canonical JSON of a record's :data:`HASHED` values (``created_at`` already as text).

    The keys are fixed, so they are written here in sorted order and only ``before`` and ``after``
    go through the JSON encoder: the same text as encoding the dict, about twice as fast.
    Top-level values are the database's own types (str, int, None). ``request_id`` is a key only
    when it is not empty (records from before request ids hash without it).
    """
    s = encode_basestring
    rid = f'"request_id":{s(request_id)},' if request_id else ""
    return (f'{{"action":{s(action)},"actor_id":{"null" if actor_id is None else int(actor_id)},'
            f'"actor_role":{s(actor_role)},"actor_username":{s(actor_username)},"after":{json_text(after)},'
            f'"before":{json_text(before)},"chain":{s(chain)},"channel":{s(channel)},'
            f'"client_addr":{s(client_addr)},"created_at":{s(created_at)},"device":{s(device)},'
            f'"object_id":{s(object_id)},"object_type":{s(object_type)},"prev_hash":{s(prev_hash)},'
            f'{rid}"seq":{int(seq)},"table_code":{s(table_code)}}}')


def canonical_parts(chain: str, created_at: str, actor_id: int | None, actor_username: str, actor_role: str,
                    client_addr: str, device: str, channel: str, action: str, object_type: str, object_id: str,
                    table_code: str, before_text: str, after_text: str,
                    request_id: str = "") -> tuple[str, str, str]:
    """The canonical text of a record not yet written, around the two values only its chain's head
    decides: ``head + prev_hash + middle + str(seq) + tail`` is :func:`canonical_text` (held byte for
    byte equal to it by a property test). ``before_text``/``after_text`` are the values' :func:`json_text`.
    The writer hands the three parts to PostgreSQL, which appends the record and hashes it in the one
    statement that reads the head (casino/audit/services.py)."""
    s = encode_basestring
    head = (f'{{"action":{s(action)},"actor_id":{"null" if actor_id is None else int(actor_id)},'
            f'"actor_role":{s(actor_role)},"actor_username":{s(actor_username)},"after":{after_text},'
            f'"before":{before_text},"chain":{s(chain)},"channel":{s(channel)},'
            f'"client_addr":{s(client_addr)},"created_at":{s(created_at)},"device":{s(device)},'
            f'"object_id":{s(object_id)},"object_type":{s(object_type)},"prev_hash":"')
    rid = f'"request_id":{s(request_id)},' if request_id else ""
    return head, f'",{rid}"seq":', f',"table_code":{s(table_code)}}}'


def record_hash(*values: Any) -> str:
    """SHA-256 (hex) of the canonical text of the :data:`HASHED` values, in that order."""
    return hashlib.sha256(canonical_text(*values).encode()).hexdigest()


def hash_of(record: Any) -> str:
    """The hash of a record object (the model, or anything with the :data:`HASHED` attributes;
    ``created_at`` a datetime or its text)."""
    values = [getattr(record, name) for name in HASHED]
    created_at = values[2]
    values[2] = created_at if isinstance(created_at, str) else created_at.isoformat()
    return record_hash(*values)


def csv_cells(row: Sequence[Any]) -> list[Any]:
    """A record's columns (:data:`FIELDS`) as the CSV export carries them: the time and the JSON as
    they are hashed, an empty cell for none."""
    out = list(row)
    out[_CREATED_AT] = row[_CREATED_AT].isoformat()
    out[_ACTOR_ID] = "" if row[_ACTOR_ID] is None else row[_ACTOR_ID]
    out[_BEFORE] = "" if row[_BEFORE] is None else json_text(row[_BEFORE])
    out[_AFTER] = "" if row[_AFTER] is None else json_text(row[_AFTER])
    return out
