"""Signing checkpoints: HMAC-SHA256 over (chain, seq, hash, time) with a key kept outside the database.

The key is ``AUDIT_CHECKPOINT_KEY`` (environment); without it, a key derived from ``SECRET_KEY``
(never ``SECRET_KEY`` itself, so a leaked checkpoint key does not sign sessions). ``key_id`` names
the key in every checkpoint and digest without revealing it, so a rotated key is recognised.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json

from django.conf import settings

MESSAGE_FORMAT = "croupier-audit-checkpoint/1"
DIGEST_FORMAT = "croupier-audit-digest/1"


def checkpoint_key() -> bytes:
    configured = getattr(settings, "AUDIT_CHECKPOINT_KEY", "") or ""
    if configured:
        return configured.encode()
    secret = settings.SECRET_KEY or ""  # never empty: settings refuse to start without one
    return hmac.new(secret.encode(), b"croupier.audit.checkpoint/1", hashlib.sha256).digest()


def key_id(key: bytes | None = None) -> str:
    """A short public name of the key: the first 16 hex digits of SHA-256("croupier.audit.key-id/1" + key)."""
    return hashlib.sha256(b"croupier.audit.key-id/1" + (key if key is not None else checkpoint_key())).hexdigest()[:16]


def checkpoint_message(chain: str, seq: int, record_hash: str, signed_at: dt.datetime | str) -> bytes:
    """The signed bytes: a compact JSON array, unambiguous whatever the chain's name holds.

    >>> checkpoint_message("casino", 7, "ab" * 32, "2026-01-02T03:04:05.000006+00:00")[:45]
    b'["croupier-audit-checkpoint/1","casino",7,"ab'
    """
    when = signed_at if isinstance(signed_at, str) else signed_at.isoformat()
    return json.dumps([MESSAGE_FORMAT, chain, seq, record_hash, when], separators=(",", ":"),
                      ensure_ascii=False).encode()


def sign(chain: str, seq: int, record_hash: str, signed_at: dt.datetime | str, *, key: bytes | None = None) -> str:
    key = key if key is not None else checkpoint_key()
    return hmac.new(key, checkpoint_message(chain, seq, record_hash, signed_at), hashlib.sha256).hexdigest()


def signature_valid(chain: str, seq: int, record_hash: str, signed_at: dt.datetime | str, signature: str, *,
                    key: bytes | None = None) -> bool:
    return hmac.compare_digest(sign(chain, seq, record_hash, signed_at, key=key), signature)
