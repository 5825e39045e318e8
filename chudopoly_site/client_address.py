"""The client's address, as every throttle of the site reads it.

One reading for the log-in lockout (django-axes, through AXES_CLIENT_IP_CALLABLE), the
password-reset limit, the invite-miss limit and the sockets: the address the connection came
from, unless that address is one of TRUSTED_PROXIES. Only then is X-Forwarded-For read, from
its right-hand end (the entry the proxy itself appended or wrote) leftwards past any further
trusted proxy, so the client's own address is the first entry no trusted proxy could have
written; whatever a client wrote to the left of that counts for nothing. With no proxy
configured the header is never read, so a client reaching Daphne directly cannot choose its
address (docs/deploy.md, "Client addresses and throttles").
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in networks)


def from_trusted_proxy(peer: str | None) -> bool:
    """Whether the connection's own address is one of TRUSTED_PROXIES."""
    return bool(peer) and _trusted(str(peer), settings.TRUSTED_PROXY_NETWORKS)


def forwarded_client(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address, given the connection's own (`peer`) and its X-Forwarded-For."""
    networks: tuple[Network, ...] = settings.TRUSTED_PROXY_NETWORKS
    if not peer or not forwarded_for or not _trusted(peer, networks):
        return peer or None
    client = peer
    for entry in reversed(forwarded_for.split(",")):
        if not _trusted(client, networks):
            break
        entry = entry.strip()
        try:
            ipaddress.ip_address(entry)
        except ValueError:
            break  # not written by a proxy of ours: the last trusted hop is all we know
        client = entry
    return client


def client_address(request: HttpRequest) -> str | None:
    return forwarded_client(request.META.get("REMOTE_ADDR"),
                            request.META.get("HTTP_X_FORWARDED_FOR"))


def client_address_of_scope(scope: dict[str, Any]) -> str | None:
    """The same reading for a websocket, from its ASGI scope."""
    client = scope.get("client")
    forwarded = [value.decode("latin1") for name, value in scope.get("headers", [])
                 if name.lower() == b"x-forwarded-for"]
    return forwarded_client(str(client[0]) if client else None,
                            ",".join(forwarded) if forwarded else None)
