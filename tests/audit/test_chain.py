"""The fast paths of verification produce exactly the bytes that ``audit_log`` hashed."""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.audit.record import PG_CREATED_AT, canonical_text

text = st.text(max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63) | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(chain=text, seq=st.integers(min_value=1, max_value=2**62), actor_id=st.none() | st.integers(1, 2**40),
       strings=st.lists(text, min_size=10, max_size=10), before=json_values, after=json_values, request_id=text)
def test_canonical_text_is_byte_for_byte_the_canonical_form(chain, seq, actor_id, strings, before, after,
                                                            request_id):
    created_at = "2026-05-06T07:08:09.123456+00:00"
    (actor_username, actor_role, client_addr, device, channel, action, object_type, object_id, table_code,
     prev_hash) = strings
    content = {"chain": chain, "seq": seq, "created_at": created_at, "actor_id": actor_id,
               "actor_username": actor_username, "actor_role": actor_role, "client_addr": client_addr,
               "device": device, "channel": channel, "action": action, "object_type": object_type,
               "object_id": object_id, "table_code": table_code, "before": before, "after": after,
               "prev_hash": prev_hash}
    if request_id:  # a key only when set: records from before request ids hash without it
        content["request_id"] = request_id
    fast = canonical_text(chain, seq, created_at, actor_id, actor_username, actor_role, client_addr, device, channel,
                          action, object_type, object_id, table_code, before, after, prev_hash, request_id)
    # the form docs/audit.md states (and casino/audit/offline.py implements on its own)
    assert fast == json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_the_database_writes_the_time_as_python_does(db):
    """Whole seconds have no fraction in isoformat(); the SQL that formats times for the walk agrees."""
    from django.db import connection

    time_sql = PG_CREATED_AT

    cases = [dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC), dt.datetime(2026, 1, 2, 3, 4, 5, 7, tzinfo=dt.UTC),
             dt.datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=dt.UTC),
             dt.datetime(2026, 6, 1, 12, 0, 0, 500000, tzinfo=dt.timezone(dt.timedelta(hours=2)))]
    with connection.cursor() as cursor:
        for value in cases:
            cursor.execute(f"SELECT {time_sql} FROM (SELECT %s::timestamptz AS created_at) t", [value])
            assert cursor.fetchone()[0] == value.astimezone(dt.UTC).isoformat()
