"""Walking hash chains: pure Python over rows sorted by (chain, seq). No database access here.

A record is sound when its content hashes to its ``hash`` (SHA-256 of the canonical form,
``casino/audit/record.py``), its ``seq`` follows the previous record's by one (the first is 1), its
``prev_hash`` is the previous record's ``hash`` (the first's is sixty-four zeros), and where a
signed checkpoint names its seq, the checkpoint's hash is its hash. The first record of a chain
that fails any of these is the chain's break; the records after it are counted, not judged (once
a link is broken, everything after it is unproven, and reporting them all would hide the cause).
After the last record, a checkpoint that names a later seq means the tail was cut off.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from json.encoder import encode_basestring  # the C function when available
from json.scanner import make_scanner
from typing import Any

import orjson

from casino.audit.record import GENESIS, record_hash
from casino.audit.record import json_text as json_value_text

# JSON text straight from the database: the C scanner, built once (``json.loads`` wraps it in two calls
# and a whitespace check per value; the database's text has no surrounding whitespace).
_scan = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: make_scanner takes its context


def _parse_json(text: str) -> Any:
    return _scan(text, 0)[0]


def _exact_json(text: str) -> str:
    """The canonical text of the database's JSON text, by the canonical encoder itself (record.json_text)."""
    return json_value_text(_parse_json(text))


_SORTED = orjson.OPT_SORT_KEYS


def _fast_json(text: str) -> str:
    """The canonical text of the database's JSON text, by orjson: about three times faster than
    :func:`_exact_json`, and the same text for what the service writes (objects, strings, integers; sorted
    keys, no spaces, UTF-8 unescaped). Where the two could differ (a float written with an exponent, an
    integer beyond 64 bits), the record's hash does not match, and the walk hashes it again with the exact
    text before it judges it."""
    try:
        return orjson.dumps(orjson.loads(text), option=_SORTED).decode()
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return _exact_json(text)


@dataclass(frozen=True, slots=True)
class Anchor:
    """A hash that a chain must have at a seq, vouched for by a signed checkpoint or a kept digest."""

    seq: int
    hash: str
    label: str


@dataclass(frozen=True, slots=True)
class Break:
    chain: str
    seq: int | None
    record_id: int | None
    reason: str  # hash, missing, seq, link, checkpoint, truncated, chain_missing, checkpoint_forged, trail_empty, anchors_missing
    message: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class WalkResult:
    records: int = 0
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)  # chain -> (last seq, last hash) as stored
    breaks: list[Break] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks


Anchors = Mapping[str, Mapping[int, Sequence[Anchor]]]


def _exact_hash(canonical: dict[str, str], ch: str, seq: int, created_at: str, actor_id: str | None,
                *values: str) -> str:
    """A record's hash from its COPY text with the exact canonical JSON (record.record_hash); the exact texts
    replace the fast ones remembered for its values."""
    *fields, before, after, prev_hash, request_id = values
    for text in (before, after):
        if text:
            canonical[text] = _exact_json(text)
    return record_hash(ch, seq, created_at, None if actor_id is None or actor_id == "" else int(actor_id), *fields,
                       _parse_json(before) if before else None, _parse_json(after) if after else None, prev_hash,
                       request_id)


def walk(rows: Iterable[Sequence[Any]], *, anchors: Anchors | None = None,
         starts: Mapping[str, tuple[int, str | None]] | None = None, json_text: bool = False) -> WalkResult:
    """Check rows (columns as :data:`FIELDS`, sorted by chain then seq) and report each chain's first break.

    ``created_at`` may be a datetime or already its ``isoformat()``; with ``json_text``, ``before``
    and ``after`` arrive as JSON text (straight from the database; empty or ``None`` for none) and are
    parsed here, and ``id``, ``seq`` and ``actor_id`` may be their text (COPY's rows).
    ``starts`` continues a chain from a known (seq, hash), for checking only the records after a
    checkpoint; a start whose hash is ``None`` begins *at* the record after that seq without judging its
    link (an incremental verification starts at a signed checkpoint's record, which its anchor holds to
    the signed hash). ``anchors`` are the signed hashes each chain must match.
    """
    anchors = anchors or {}
    starts = starts or {}
    sha256 = hashlib.sha256
    s = encode_basestring
    encode = json_value_text
    fast = _fast_json
    result = WalkResult()
    breaks = result.breaks
    heads = result.heads
    count = 0
    chain: str | None = None
    broken = False
    exp_seq: int = 1
    exp_prev: str | None = GENESIS
    marks: Mapping[int, Sequence[Anchor]] = {}
    last_seq, last_hash = 0, GENESIS
    # Records of one kind repeat their JSON values (a round's "before", a bet's shape): each text is
    # canonicalised once, and the remembered ones forgotten wholesale when there are many.
    canonical: dict[str, str] = {}
    # The tight loop: one canonical text, one SHA-256 per record; everything else is a comparison. The text is
    # record.canonical_text written out in place (a call with seventeen arguments costs more than the hash).
    for (rid, ch, seq, created_at, actor_id, actor_username, actor_role, client_addr, device, channel, action,
         object_type, object_id, table_code, before, after, prev_hash, stored, request_id) in rows:
        count += 1
        seq = int(seq)
        if ch != chain:
            if chain is not None:
                heads[chain] = (last_seq, last_hash)
            chain = ch
            start_seq, exp_prev = starts.get(ch, (0, GENESIS))
            exp_seq = start_seq + 1
            marks = anchors.get(ch, {})
            broken = False
        last_seq, last_hash = seq, stored
        if broken:
            continue
        if json_text:  # the canonical text of the database's JSON text: a pure function, so remembered
            if not before:
                before_text = "null"
            elif (known := canonical.get(before)) is not None:
                before_text = known
            else:
                before_text = canonical[before] = fast(before)
            if not after:
                after_text = "null"
            elif (known := canonical.get(after)) is not None:
                after_text = known
            else:
                after_text = canonical[after] = fast(after)
            if len(canonical) > 20_000:
                canonical.clear()
        else:
            before_text, after_text = encode(before), encode(after)
        rid_part = f'"request_id":{s(request_id)},' if request_id else ""
        computed = sha256((
            f'{{"action":{s(action)},"actor_id":{"null" if actor_id is None or actor_id == "" else actor_id},'
            f'"actor_role":{s(actor_role)},"actor_username":{s(actor_username)},"after":{after_text},'
            f'"before":{before_text},"chain":{s(ch)},"channel":{s(channel)},"client_addr":{s(client_addr)},'
            f'"created_at":"{created_at if created_at.__class__ is str else created_at.isoformat()}",'
            f'"device":{s(device)},"object_id":{s(object_id)},"object_type":{s(object_type)},'
            f'"prev_hash":{s(prev_hash)},{rid_part}"seq":{seq},"table_code":{s(table_code)}}}'
        ).encode()).hexdigest()
        if computed != stored and json_text:  # orjson's text of a value may differ from the canonical one (_fast_json)
            computed = _exact_hash(canonical, ch, seq, created_at, actor_id, actor_username, actor_role, client_addr,
                                   device, channel, action, object_type, object_id, table_code, before, after,
                                   prev_hash, request_id)
        if computed != stored:
            reason, message = "hash", (f"{ch}#{seq} (record {rid}) was altered: its content hashes to "
                                       f"{computed}, not to its stored hash {stored}")
        elif seq != exp_seq:
            if seq > exp_seq:
                gap = f"seq {exp_seq}" if seq == exp_seq + 1 else f"seqs {exp_seq} to {seq - 1}"
                reason, message = "missing", f"{ch}: {gap} missing (deleted) before {ch}#{seq} (record {rid})"
            else:
                reason, message = "seq", f"{ch}#{seq} (record {rid}) repeats or goes back: expected seq {exp_seq}"
        elif exp_prev is not None and prev_hash != exp_prev:
            reason, message = "link", (f"{ch}#{seq} (record {rid}) does not link to the record before it: "
                                       f"prev_hash {prev_hash}, expected {exp_prev}")
        elif seq in marks and any(a.hash != stored for a in marks[seq]):
            label = next(a.label for a in marks[seq] if a.hash != stored)
            reason, message = "checkpoint", (f"{ch}#{seq} (record {rid}) has hash {stored}, but {label} "
                                             f"signed another: the chain was rewritten from here or earlier")
        else:
            exp_seq = seq + 1
            exp_prev = stored
            continue
        breaks.append(Break(ch, seq, int(rid), reason, message))
        broken = True
    if chain is not None:
        heads[chain] = (last_seq, last_hash)
    result.records = count
    broken_chains = {b.chain for b in breaks}
    for ch, chain_marks in sorted(anchors.items()):
        if not chain_marks or ch in broken_chains:
            continue
        top_seq = max(chain_marks)
        label = chain_marks[top_seq][0].label
        head = heads.get(ch)
        if head is None and ch not in starts:
            breaks.append(Break(ch, None, None, "chain_missing",
                                f"{ch} has no records, but {label} signed it up to seq {top_seq}"))
        elif head is None and starts[ch][0] < top_seq:
            first = starts[ch][0] + 1
            breaks.append(Break(ch, first, None, "truncated",
                                f"{ch} has no records from seq {first} on, but {label} signed seq {top_seq}: "
                                f"seqs {first} to {top_seq} were removed"))
        elif head is not None and head[0] < top_seq:
            breaks.append(Break(ch, head[0] + 1, None, "truncated",
                                f"{ch} ends at seq {head[0]}, but {label} signed seq {top_seq}: "
                                f"seqs {head[0] + 1} to {top_seq} were removed"))
    return result
