"""``Idempotency-Key`` on every write: a retried request returns the first answer, once.

A write without the header is refused (400 ``idempotency_key_required``): a client that cannot
say whether it is retrying could write twice.

The dealer's tablet sends a fresh key with each action and retries with the same key until it
hears back. The key's record is written in the same transaction as the write, so either both
exist or neither does. Same key, same body: the first response is replayed and nothing new is
written. Same key, different body: 409. Only successful responses are kept; a refused request
wrote nothing, so retrying it simply asks again.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from casino import task_names
from casino.core import sql
from casino.core.models import IdempotencyRecord, RenderedJson
from casino.errors import Conflict, InvalidInput

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
_RENDERER = JSONRenderer()  # the API's defaults (casino.renderers.ApiJSONRenderer is DRF's)
T = TypeVar("T")


class _LostRace(Exception):
    """Another request with the same key committed first: undo ours and replay theirs."""


def _request_hash(request: Request) -> str:
    # a secret in the body (a signer's password or PIN, at any depth) is never kept, not even hashed
    body = json.dumps(_without_secrets(request.data), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _without_secrets(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_secrets(v) for k, v in data.items() if not _SECRET.search(str(k))}
    if isinstance(data, list):
        return [_without_secrets(v) for v in data]
    return data


_SECRET = re.compile(r"^(?:.*_)?(?:password|pin)$", re.I)  # password, pin, approver_password, new_pin…


def _replay(record: IdempotencyRecord, request_hash: str) -> Response:
    if record.request_hash != request_hash:
        raise Conflict(gettext("%(header)s was already used for a different request") % {"header": HEADER},
                       code="idempotency_key_reused",
                       field=HEADER)
    return Response(record.response_body, status=record.status_code, headers={REPLAYED_HEADER: "true"})


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method that writes.

    The first request with a key is not looked up first: it runs, and its record is written in its
    transaction, where the key's unique index decides a race. Only a refused or conflicting request
    reads the key, to replay what a first request with it answered.
    """

    @functools.wraps(method)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None:
            raise InvalidInput(gettext("the %(header)s header is required on every write: a fresh key per action, the "
                                       "same key when retrying it") % {"header": HEADER},
                               code="idempotency_key_required", field=HEADER)
        if not 1 <= len(key) <= 128 or not key.isprintable():
            raise InvalidInput(gettext("%(header)s must be 1 to 128 printable characters") % {"header": HEADER},
                               code="bad_idempotency_key",
                               field=HEADER)
        request_hash = _request_hash(request)
        user: Any = request.user  # signed in: a write API's permission classes have run
        try:
            with transaction.atomic():
                flag = _request_transaction.set(True)
                try:
                    response = method(view, request, *args, **kwargs)
                finally:
                    _request_transaction.reset(flag)
                if 200 <= response.status_code < 300:
                    # rendered once: the record keeps these bytes and the answer sends them (ApiJSONRenderer)
                    content = _RENDERER.render(response.data)
                    response.rendered_json = (response.data, content)  # type: ignore[attr-defined]
                    body = RenderedJson(content) if response.data is not None else None
                    # With the commit, in its round trip (casino/dbbackend): the key's unique index then refuses
                    # the commit of a request that lost the race, which rolls it back whole and replays below.
                    # Without that backend it is written now. No savepoint either way: losing the race rolls
                    # the whole write back anyway.
                    try:
                        sql.insert_later(IdempotencyRecord(
                            user=user, key=key, method=cast(str, request.method), path=request.path[:300],
                            request_hash=request_hash, status_code=response.status_code, response_body=body))
                    except IntegrityError:
                        raise _LostRace from None
                return response
        except _LostRace:
            return _replay(IdempotencyRecord.objects.get(user=user, key=key), request_hash)
        except Exception:
            # A retry of a write that succeeded is often refused now (the round is settled, the bet id
            # taken): the first answer is the answer. Everything this request wrote is rolled back.
            existing = IdempotencyRecord.objects.filter(user=user, key=key).first()
            if existing is not None:
                return _replay(existing, request_hash)
            raise

    wrapper.idempotency_key_required = True  # type: ignore[attr-defined]  # the schema documents the header
    return wrapper


_request_transaction: ContextVar[bool] = ContextVar("croupier_request_transaction", default=False)


def request_service(func: Callable[..., T]) -> Callable[..., T]:
    """``@transaction.atomic`` for a service a write API calls on the hot path (the round flow).

    Called by the view straight inside the transaction that :func:`idempotent` opened, it joins that
    transaction without a savepoint (two round trips fewer): any error it raises propagates to that
    transaction, which rolls the whole request back. Anywhere else (inside another service, a job, a
    command, a test) it is ``transaction.atomic`` with its savepoint, so a caller may catch its errors.
    """

    @functools.wraps(func)
    def inner(*args: Any, **kwargs: Any) -> T:
        connection = transaction.get_connection()
        joins = _request_transaction.get() and connection.in_atomic_block and not connection.savepoint_ids
        with transaction.atomic(savepoint=not joins):
            return func(*args, **kwargs)

    return inner


# -- the server-rendered forms ----------------------------------------------------------------------

FORM_FIELD = "form_key"  # a hidden field of every form that writes (the ``form_key`` template tag)
_FORM_UNSIGNED = frozenset({"csrfmiddlewaretoken", FORM_FIELD})


def new_form_key() -> str:
    """A fresh key for one rendered form: submitting it twice (a double tap, a resent page) writes once."""
    return uuid.uuid4().hex


def once_per_form(request: Any, action: Callable[[], T]) -> tuple[T | None, bool]:
    """Run a form's write once per its key, as :func:`idempotent` does for the API: the key's record is
    written in the write's transaction. Returns ``(result, False)``, or ``(None, True)`` when the form was
    already submitted and done (nothing is written again). A form without a key just runs."""
    key = str(request.POST.get(FORM_FIELD) or "")
    if not key:
        return action(), False
    if len(key) > 64 or not key.isprintable():
        raise InvalidInput(gettext("the form's key is malformed"), code="bad_idempotency_key", field=FORM_FIELD)
    fields = sorted((k, request.POST.getlist(k)) for k in request.POST if k not in _FORM_UNSIGNED and not _SECRET.search(k))
    request_hash = hashlib.sha256(f"POST {request.path}\n{json.dumps(fields)}".encode()).hexdigest()
    stored_key = f"form:{key}"

    def done_before() -> bool:
        record = IdempotencyRecord.objects.filter(user=request.user, key=stored_key).first()
        if record is not None and record.request_hash != request_hash:
            raise Conflict(gettext("the form's key was already used for another form"), code="idempotency_key_reused")
        return record is not None

    try:
        with transaction.atomic():
            result = action()
            try:
                with transaction.atomic():
                    IdempotencyRecord.objects.create(user=request.user, key=stored_key, method="POST",
                                                     path=request.path[:300], request_hash=request_hash,
                                                     status_code=200, response_body={"form": True})
            except IntegrityError:
                raise _LostRace from None
            return result, False
    except _LostRace:
        if done_before():
            return None, True
        raise
    except Exception:
        if done_before():  # a resubmitted form is often refused now (the void approved already): it was done
            return None, True
        raise


# -- retention -------------------------------------------------------------------------------------

PURGE_BATCH = 5_000


def idempotency_purge(*, now: dt.datetime | None = None, batch: int = PURGE_BATCH) -> int:
    """Delete the keys older than ``IDEMPOTENCY_RETENTION_DAYS``; returns how many went.

    Within the window a retry replays its first answer; after it the key is forgotten, and a request
    that reuses it runs as a new one (the services' own checks still refuse what is already done: a
    settled round, a taken bet id). Walks the primary key from the oldest row in bounded batches,
    one short transaction each, and stops at the first batch that reaches rows still in the window
    (ids follow insertion, so no index on the time is needed and a write never pays for one).
    """
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.IDEMPOTENCY_RETENTION_DAYS)
    deleted = 0
    while True:
        rows = list(IdempotencyRecord.objects.order_by("pk").values_list("pk", "created_at")[:batch])
        old = [pk for pk, created_at in rows if created_at < cutoff]
        if old:
            deleted += IdempotencyRecord.objects.filter(pk__in=old).delete()[0]
        if len(old) < batch:
            return deleted


@shared_task(name=task_names.IDEMPOTENCY_PURGE, acks_late=True, ignore_result=True)
def purge() -> int:
    """Beat: forget the idempotency keys past their window (settings ``IDEMPOTENCY_RETENTION_DAYS``)."""
    return idempotency_purge()
