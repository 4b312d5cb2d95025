"""The fast paths of verification produce exactly the bytes that ``audit_log`` hashed."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.audit.record import PG_CREATED_AT, canonical_parts, canonical_text, json_text

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
    # and the writer's three parts around the head's prev_hash and seq (casino/audit/services.py) are the same text
    head, middle, tail = canonical_parts(chain, created_at, actor_id, actor_username, actor_role, client_addr,
                                         device, channel, action, object_type, object_id, table_code,
                                         json_text(before), json_text(after), request_id)
    hex_hash = hashlib.sha256(prev_hash.encode()).hexdigest()  # a prev_hash is always a hex digest
    assert f"{head}{hex_hash}{middle}{seq}{tail}" == canonical_text(
        chain, seq, created_at, actor_id, actor_username, actor_role, client_addr, device, channel, action,
        object_type, object_id, table_code, before, after, hex_hash, request_id)


def test_records_with_awkward_text_are_hashed_by_the_database_as_the_verifier_hashes_them(db):
    """The writer's single statement hashes in PostgreSQL; quotes, backslashes, control characters and
    non-ASCII text come out as the canonical form has them, and the chain verifies."""
    from django.db import transaction

    from casino.audit.models import AuditRecord
    from casino.audit.services import audit_log
    from casino.audit.verification import audit_verify

    awkward = ["it's \\ \"quoted\"", "tab\there\nnew line\r\x01\x1f", "Ünïcødé ♠♥ 🂡 \u2028", "%s %(x)s %%", ""]
    with transaction.atomic():
        for word in awkward:
            audit_log(actor=None, action=f"test.{word}"[:64], object_type="x", object_id=word[:64], table_code="T9",
                      before={word: [word, 1.5, None, True]}, after={"k": word, "n": -(2**62), "e": {}})
    records = AuditRecord.objects.filter(chain="table:T9").order_by("seq")
    assert [r.seq for r in records] == [1, 2, 3, 4, 5]
    assert [r.after["k"] for r in records] == awkward
    assert audit_verify(trigger="test").ok


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


@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_the_walks_fast_json_is_the_canonical_text_of_what_the_service_writes(value):
    """The walk canonicalises the database's JSON with orjson (casino/audit/chain.py); for the values the
    service writes (no floats: money is integers) that is the canonical encoder's text, from the database's
    spaced form too."""
    from casino.audit.chain import _exact_json, _fast_json

    for stored in (json.dumps(value), json.dumps(value, separators=(", ", ": "), ensure_ascii=True)):
        assert _fast_json(stored) == _exact_json(stored) == json_text(value)


def test_values_orjson_writes_otherwise_are_verified_by_the_exact_text(transactional_db):
    """A float with an exponent or an integer beyond 64 bits: orjson's text differs from the canonical one (or it
    refuses the value), so the walk hashes those records again with the exact text, and they verify; a record
    changed after it was written is still a break. A whole float written with an exponent (1e16) is recorded as
    the integer jsonb keeps it as, so its record verifies too."""
    from django.db import transaction

    from casino.audit.chain import _exact_json, _fast_json
    from casino.audit.models import AuditRecord
    from casino.audit.services import audit_log
    from casino.audit.verification import audit_verify
    from tests.tamper import as_owner

    awkward = [1e-07, 2.5e-300, 2**70, -(2**65), 0.1, 1.0, 1e16, 1e23, -1.5e20]
    assert _fast_json("1e-07") != _exact_json("1e-07")  # the case this is about
    with transaction.atomic():
        for n, number in enumerate(awkward):
            audit_log(actor=None, action="test.number", object_type="x", object_id=n, table_code="T8",
                      before={"n": number, "list": [number, {"deep": number}]}, after={"n": number})
    assert audit_verify(trigger="test", full=True).ok
    assert [r.after["n"] for r in AuditRecord.objects.filter(chain="table:T8").order_by("seq")][-3:] == [
        10**16, 10**23, -15 * 10**19]
    # and when one is changed behind the service's back, the verification names it
    victim = AuditRecord.objects.get(chain="table:T8", seq=3)
    as_owner(("UPDATE audit_auditrecord SET after = %s WHERE id = %s", [json.dumps({"n": 2.5e-301}), victim.pk]),
             triggers_off=["audit_auditrecord"])  # the owner's credentials, the append-only trigger switched off
    result = audit_verify(trigger="test", full=True)
    assert [(b["chain"], b["seq"], b["reason"]) for b in result.breaks] == [("table:T8", 3, "hash")]
