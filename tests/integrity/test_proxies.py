"""Trusted proxies (issue 20): behind a load balancer the lockout and the audit trail see each real client;
a forged ``X-Forwarded-For`` from anyone else changes nothing."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditRecord
from casino.core.models import LoginThrottle
from casino.proxies import client_address_of
from tests.client import APIClient

TOKEN_URL = "/api/auth/token/"
BALANCER, INNER = "10.0.0.2", "10.0.0.3"  # our proxies
ALICE, BOB = "203.0.113.7", "203.0.113.8"  # two clients behind them
STRANGER = "198.51.100.9"  # someone reaching us directly


def _token(username: str, password: str, *, peer: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return APIClient().post(TOKEN_URL, {"username": username, "password": password}, format="json", **extra)


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    (BALANCER, ALICE, ALICE),  # one trusted proxy
    (BALANCER, f"{ALICE}, {INNER}", ALICE),  # two trusted proxies in a row
    (BALANCER, f"6.6.6.6, {ALICE}", ALICE),  # what the client wrote before our proxy appended is ignored
    (BALANCER, f"{ALICE}:51234", ALICE),  # a hop with its port
    (BALANCER, f"[2001:db8::5]:443, {INNER}", "2001:db8::5"),
    (BALANCER, f"{INNER}", INNER),  # every hop trusted: the leftmost
    (BALANCER, f"not-an-address, {ALICE}", ALICE),
    (BALANCER, f"{ALICE}, not-an-address", BALANCER),  # garbage next to us: keep the last hop we trust
    (BALANCER, "", BALANCER),  # no header: the proxy itself
    (STRANGER, ALICE, STRANGER),  # an untrusted peer's header is not believed
    ("::ffff:10.0.0.2", ALICE, ALICE),  # the proxy seen through an IPv4-mapped IPv6 socket
])
def test_the_client_is_the_rightmost_hop_that_is_not_a_trusted_proxy(settings, peer, forwarded, client):
    # given the load balancer's network trusted
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    # then the client address is decided from the peer and the header as the proxies wrote it
    assert client_address_of({"REMOTE_ADDR": peer, "HTTP_X_FORWARDED_FOR": forwarded}) == client


def test_without_trusted_proxies_the_header_is_never_read(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address_of({"REMOTE_ADDR": BALANCER, "HTTP_X_FORWARDED_FOR": ALICE}) == BALANCER


def test_two_clients_behind_one_proxy_are_counted_apart(floor, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    settings.LOGIN_FAILURE_LIMIT = 3
    # given Alice guessing the pit manager's password through the load balancer until she is locked out
    codes = [_token("pm", f"guess{i}", peer=BALANCER, forwarded=ALICE).status_code for i in range(4)]
    assert codes == [400, 400, 429, 429]
    # then Alice is locked, even with the right password, and the count is hers
    assert _token("pm", "pass", peer=BALANCER, forwarded=ALICE).status_code == 429
    assert LoginThrottle.objects.filter(key=f"user:pm|{ALICE}", failures__gte=3).exists()
    assert not LoginThrottle.objects.filter(key__contains=BALANCER).exists()
    # while the pit manager, behind the same proxy at another terminal, signs in as usual
    assert _token("pm", "pass", peer=BALANCER, forwarded=BOB).status_code == 200


def test_the_address_limit_counts_each_client_behind_the_proxy(floor, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT = 50, 4
    # given Alice spraying four usernames through the proxy
    for name in ("dealer", "pm", "accountant", "auditor"):
        _token(name, "guess", peer=BALANCER, forwarded=ALICE)
    # then her address is locked for every account, Bob's is not
    assert _token("admin", "pass", peer=BALANCER, forwarded=ALICE).status_code == 429
    assert _token("admin", "pass", peer=BALANCER, forwarded=BOB).status_code == 200


def test_a_spoofed_header_from_an_untrusted_peer_is_ignored(floor, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    settings.LOGIN_FAILURE_LIMIT = 3
    # given a stranger reaching us directly and claiming a new address with every guess
    codes = [_token("pm", f"guess{i}", peer=STRANGER, forwarded=f"203.0.113.{100 + i}").status_code
             for i in range(4)]
    # then every guess counts against the stranger's own address, and the lockout holds
    assert codes == [400, 400, 429, 429]
    assert _token("pm", "pass", peer=STRANGER, forwarded=BOB).status_code == 429
    assert LoginThrottle.objects.filter(key=f"user:pm|{STRANGER}", failures=3).exists()
    assert not LoginThrottle.objects.filter(key__startswith="user:pm|203.0.113.").exists()
    # and the failures are audited from where they really came
    tried = AuditRecord.objects.filter(action="auth.login_failed", object_id="pm")
    assert set(tried.values_list("client_addr", flat=True)) == {STRANGER}


def test_a_spoofed_hop_written_by_the_client_before_our_proxy_does_not_escape_the_lockout(floor, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    settings.LOGIN_FAILURE_LIMIT = 3
    # given Alice writing a new X-Forwarded-For of her own with each guess; our proxy appends her real address
    codes = [_token("pm", f"guess{i}", peer=BALANCER, forwarded=f"192.0.2.{i}, {ALICE}").status_code
             for i in range(4)]
    # then she is counted as herself
    assert codes == [400, 400, 429, 429]
    assert LoginThrottle.objects.filter(key=f"user:pm|{ALICE}", failures=3).exists()


def test_the_audit_record_names_the_client_behind_the_proxy(floor, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/29"]
    # given the dealer opening a round from a tablet behind the load balancer
    api = APIClient(REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=f"{ALICE}, {INNER}")
    api.force_authenticate(floor.dealer)
    answer = api.post("/api/rounds/", {"table": floor.table.pk}, format="json", HTTP_IDEMPOTENCY_KEY="open-1")
    assert answer.status_code == 201, answer.content
    # then the round's audit record names the tablet's address, not the proxy's
    opened = AuditRecord.objects.get(action="round.open", object_id=str(answer.json()["id"]))
    assert opened.client_addr == ALICE
    # and a sign-in through the proxy is audited with the client's address too
    assert _token("dealer", "pass", peer=BALANCER, forwarded=BOB).status_code == 200
    assert AuditRecord.objects.filter(action="auth.login", actor_username="dealer").latest("id").client_addr == BOB
