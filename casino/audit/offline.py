"""Verify an audit trail export offline, with Python's standard library and nothing else.

    python offline.py audit-trail.csv [--digest digest.json] [--key KEY]

An auditor copies this file, the CSV export (``/api/audit/records/export.csv``, unfiltered or
filtered by ``chain``) and the digests they kept, and checks on their own machine that every
record hashes to its hash, links to the one before, follows it by one, and — with a digest —
that each chain still has the hash that was signed at the digest's seq. With ``--key`` (the
``AUDIT_CHECKPOINT_KEY``) the digest's HMAC signatures are checked too. Exit status 0 when all
holds, 1 otherwise. It deliberately shares no code with the service: it is a second, independent
implementation of the canonical form documented in docs/audit.md.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import hmac
import json
import sys
from collections.abc import Iterable
from typing import Any

GENESIS = "0" * 64
DIGEST_FORMAT = "croupier-audit-digest/1"
MESSAGE_FORMAT = "croupier-audit-checkpoint/1"


def plain(cell: str) -> str:
    """A cell as recorded: the export puts an apostrophe in front of text a spreadsheet would run as a
    formula (and of text that starts with one), so one leading apostrophe is dropped."""
    return cell[1:] if cell.startswith("'") else cell


def record_hash(cells: dict[str, str]) -> str:
    """SHA-256 of a CSV row's canonical content: every column but ``id`` and ``hash``, as JSON, sorted keys."""
    row = {k: plain(v) if isinstance(v, str) else v for k, v in cells.items()}
    content: dict[str, Any] = {
        "chain": row["chain"], "seq": int(row["seq"]), "created_at": row["created_at"],
        "actor_id": int(row["actor_id"]) if row["actor_id"] else None,
        "actor_username": row["actor_username"], "actor_role": row["actor_role"],
        "client_addr": row["client_addr"], "device": row["device"], "channel": row["channel"],
        "action": row["action"], "object_type": row["object_type"], "object_id": row["object_id"],
        "table_code": row["table_code"],
        "before": json.loads(row["before"]) if row["before"] else None,
        "after": json.loads(row["after"]) if row["after"] else None,
        "prev_hash": row["prev_hash"],
    }
    if row.get("request_id"):  # a key only when set (exports from before it existed have no column)
        content["request_id"] = row["request_id"]
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def checkpoint_signature(entry: dict[str, Any], key: bytes) -> str:
    message = json.dumps([MESSAGE_FORMAT, entry["chain"], int(entry["seq"]), entry["hash"], entry["signed_at"]],
                         separators=(",", ":"), ensure_ascii=False).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def verify(rows: Iterable[dict[str, str]], digest: dict[str, Any] | None = None,
           key: bytes | None = None) -> tuple[list[str], list[str]]:
    """Returns (problems, notes). No problems means the export is sound (and matches the digest)."""
    problems: list[str] = []
    notes: list[str] = []
    chains: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        chains.setdefault(row["chain"], []).append(row)
    anchors: dict[str, dict[int, str]] = {}
    for entry in (digest or {}).get("checkpoints", []):
        if key is not None and not hmac.compare_digest(checkpoint_signature(entry, key), entry["signature"]):
            problems.append(f"digest entry {entry['chain']}#{entry['seq']}: the signature does not match the key")
            continue
        anchors.setdefault(entry["chain"], {})[int(entry["seq"])] = entry["hash"]
    for chain, records in sorted(chains.items()):
        records.sort(key=lambda r: int(r["seq"]))
        first = int(records[0]["seq"])
        expected_seq, expected_prev = first, records[0]["prev_hash"] if first != 1 else GENESIS
        if first != 1:
            notes.append(f"{chain}: the export starts at seq {first}; checked from there on")
        for row in records:
            seq = int(row["seq"])
            where = f"{chain}#{seq} (record {row['id']})"
            if record_hash(row) != row["hash"]:
                problems.append(f"{where}: its content does not hash to its hash: altered")
                break
            if seq != expected_seq:
                problems.append(f"{where}: seq {expected_seq} to {seq - 1} missing")
                break
            if row["prev_hash"] != expected_prev:
                problems.append(f"{where}: does not link to the record before it")
                break
            if anchors.get(chain, {}).get(seq, row["hash"]) != row["hash"]:
                problems.append(f"{where}: differs from the hash the digest signed")
                break
            expected_seq, expected_prev = seq + 1, row["hash"]
        else:
            last = int(records[-1]["seq"])
            later = [s for s in anchors.get(chain, {}) if s > last]
            if later:
                notes.append(f"{chain}: the digest signed seq {max(later)}, the export ends at {last} "
                             f"(records since the export, or a cut tail: compare with the live trail)")
            notes.append(f"{chain}: seq {first} to {last} sound ({len(records)} records)")
    for chain in sorted(set(anchors) - set(chains)):
        notes.append(f"{chain}: in the digest, not in the export")
    return problems, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", help="the CSV export of the audit trail")
    parser.add_argument("--digest", help="a digest kept outside the database (JSON)")
    parser.add_argument("--key", help="the checkpoint key, to check the digest's signatures")
    args = parser.parse_args(argv)
    digest = None
    if args.digest:
        with open(args.digest, encoding="utf-8") as fh:
            digest = json.load(fh)
        if digest.get("format") != DIGEST_FORMAT:
            print(f"{args.digest}: not a {DIGEST_FORMAT} document", file=sys.stderr)
            return 2
    csv.field_size_limit(sys.maxsize)
    with open(args.export, encoding="utf-8", newline="") as fh:
        problems, notes = verify(csv.DictReader(fh), digest, args.key.encode() if args.key else None)
    for note in notes:
        print(note)
    for problem in problems:
        print(f"BROKEN {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
