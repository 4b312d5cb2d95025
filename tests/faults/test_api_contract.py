"""schemathesis against ``/api/schema/``: generated requests, as every role.

Every operation of the published schema gets valid (positive) and invalid (negative) generated
requests; each is sent once with the token of each role (dealer, pit manager, shift manager, accountant,
auditor, compliance, cashier, count team, admin). No answer may be a 500, and every answer must match
the schema: a documented status code, the documented content type and headers, a body that validates. The run is bounded and
deterministic (derandomized Hypothesis), and it must send at least 1,000 requests. The one operation
left out is the revocation of one's own token (it would sign the role out of the rest of the run;
tests/integrity/test_lockout.py tests it).
"""

from __future__ import annotations

import collections
import re
import uuid
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from casino.core.roles import Role
from tests.factories import UserFactory

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
# per generation mode; each example is sent once per role. Two (with the schema's explicit examples): ~5,300
# requests over the 153 operations (four sent about twice as many, for ~40 CPU-seconds more)
EXAMPLES_PER_OPERATION = 2
MIN_REQUESTS = 1000
LEFT_OUT = {"POST /api/auth/token/revoke/"}


@pytest.fixture
def in_process_wsgi() -> Any:
    # Django's test client does the same: requests handled in this thread must not close the test's
    # connection (and its transaction) when they finish.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _failure_name(exc: BaseException) -> str:
    found = re.findall(r"- (ST\d+ [^\n]*)", str(exc))
    return "; ".join(found) if found else f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def _exercise(operation: Any, mode: GenerationMode, roles: dict[str, str], sent: collections.Counter,
              failures: dict[tuple[str, str, int], str]) -> Any:
    """A Hypothesis test for one operation and generation mode; it records, never stops at, a failure."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @hypothesis_settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None, derandomize=True,
                         suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    def exercise(case: Any) -> None:
        # not_a_server_error is among the checks: a 500 is a failure like any schema violation
        for role, token in roles.items():
            # a fresh Idempotency-Key per request, as every client sends: generated keys repeat (a short
            # string), and a repeated key with another body is only ever the 409 it should be
            headers = {"Authorization": f"Token {token}"}
            if case.method.upper() != "GET":
                case.headers = {**(case.headers or {}), "Idempotency-Key": uuid.uuid4().hex}
            response = case.call(headers=headers)
            sent[response.status_code] += 1
            try:
                case.validate_response(response, checks=CHECKS, headers=headers)
            except (AssertionError, BaseExceptionGroup) as exc:
                key = (f"{operation.label} [{mode.value}, {role}]", _failure_name(exc), response.status_code)
                failures.setdefault(key, f"{case.method} {case.formatted_path} body={case.body!r:.200}")

    return exercise


def test_generated_requests_as_every_role_get_no_500_and_match_the_schema(floor, in_process_wsgi):
    # given the published schema and a signed-in user of every role
    schema = schemathesis.openapi.from_wsgi("/api/schema/", in_process_wsgi)
    users = {"dealer": floor.dealer, "pit_manager": floor.manager, "accountant": floor.accountant,
             "auditor": floor.auditor, "admin": floor.admin}
    for role in Role:  # every other role the service knows (compliance, shift manager, cashier, count team…)
        if role.value not in users:
            users[role.value] = UserFactory(username=f"schema_{role.value}", roles=[role])
    assert set(users) == {role.value for role in Role}
    roles = {role: Token.objects.create(user=user).key for role, user in users.items()}
    sent = collections.Counter()
    failures: dict[tuple[str, str, int], str] = {}

    # when every operation is sent generated valid and invalid requests as each role
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.label in LEFT_OUT:
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _exercise(operation, mode, roles, sent, failures)()
            except Unsatisfiable:
                pass  # nothing invalid can be generated for an operation without inputs

    # then at least 1,000 requests, none a 500 and none breaking the schema
    print(f"schemathesis: {sum(sent.values())} requests as {len(roles)} roles; by status {dict(sorted(sent.items()))}")
    assert sum(sent.values()) >= MIN_REQUESTS, sent
    assert not [code for code in sent if code >= 500], sent
    assert not failures, "\n".join(f"{k[0]}: {k[1]} ({k[2]}) e.g. {v}" for k, v in sorted(failures.items()))
