"""The client's address, the one place that decides it: behind trusted proxies, from ``X-Forwarded-For``.

Behind a load balancer ``REMOTE_ADDR`` is the balancer's address, so every client would look the same to
the sign-in lockout and to the audit trail. ``TRUSTED_PROXIES`` (settings, env-driven: addresses or
networks) names the proxies whose ``X-Forwarded-For`` is believed. Each proxy appends the address it
received the request from, so the header reads left to right from the client towards us, and only the
entries our own trusted proxies appended can be trusted: the client is the **rightmost hop that is not a
trusted proxy**. Anything to the left of it was written by that client (or someone before it) and may be
anything at all. A request whose peer is not a trusted proxy is answered with the peer's address, whatever
its ``X-Forwarded-For`` says: a header sent straight to us is a claim, not a fact.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@functools.lru_cache(maxsize=8)
def _networks(configured: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in configured if entry.strip())


def trusted_networks() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def parse_networks(entries: Sequence[str]) -> tuple[Network, ...]:
    """The networks named (raises ValueError on a bad entry: settings call it at start-up)."""
    return _networks(tuple(entries))


def _address(text: str) -> Address | None:
    """An address as a hop writes it: ``1.2.3.4``, ``1.2.3.4:5678``, ``2001:db8::1`` or ``[2001:db8::1]:443``."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:text.find("]")] if "]" in text else text[1:]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(addr: Address, networks: tuple[Network, ...]) -> bool:
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return any(addr in network for network in networks)


def client_address_of(meta: Mapping[str, Any]) -> str | None:
    """The client's address for a request's ``META``: the peer, or behind trusted proxies the rightmost
    ``X-Forwarded-For`` hop that is not one of them (the leftmost hop when every hop is trusted; the last
    trusted hop when the next one to the left is not an address at all)."""
    peer = meta.get("REMOTE_ADDR") or None
    networks = trusted_networks()
    if peer is None or not networks:
        return peer
    peer_addr = _address(peer)
    if peer_addr is None or not _trusted(peer_addr, networks):
        return peer
    client = str(peer_addr)
    # Django joins repeated headers with ","; every proxy appends one hop
    for hop in reversed(str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")):
        if not hop.strip():
            continue
        addr = _address(hop)
        if addr is None:  # garbage: whoever wrote it is not to be believed; keep the last hop we trust
            break
        client = str(addr)
        if not _trusted(addr, networks):
            break
    return client
