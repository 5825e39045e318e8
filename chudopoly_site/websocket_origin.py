"""Websocket Origin check: the page that opens a socket must be one of the site's own.

Channels' AllowedHostsOriginValidator compares the Origin's host name with ALLOWED_HOSTS and
ignores scheme and port, so a page at http://127.0.0.1:9999 (any program listening on another
port of an allowed host) could open a table socket with the visitor's cookies and receive
their hand. Here an Origin is accepted only when its scheme, host and port are the request's
own (the Host header, itself in ALLOWED_HOSTS) or match an entry of CSRF_TRUSTED_ORIGINS, the
same origins Django's CSRF check accepts for form posts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]


def _origin(url: str) -> Origin | None:
    """(scheme, host, port) of an origin, or None when it is not an http(s) origin."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[parts.scheme]


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {name.decode("latin1").lower(): value.decode("latin1")
            for name, value in scope.get("headers", [])}


def _own_scheme(scope: dict[str, Any], headers: dict[str, str]) -> str:
    if scope.get("scheme") in ("https", "wss"):
        return "https"
    # Daphne puts no scheme in a websocket scope; behind a TLS proxy the same header that tells
    # Django a page request was secure tells us the socket is.
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        header = name.removeprefix("HTTP_").replace("_", "-").lower()
        if headers.get(header, "").split(",")[0].strip() == value:
            return "https"
    return "http"


def _own_origin(scope: dict[str, Any], headers: dict[str, str]) -> Origin | None:
    host = headers.get("host", "")
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = _own_scheme(scope, headers)
    try:
        number = int(port) if port else _DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, domain.strip("[]"), number


def _trusted(origin: Origin) -> bool:
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        scheme, _, rest = entry.partition("://")
        if scheme != origin[0]:
            continue
        if rest.startswith("*."):
            # Django's wildcard: any subdomain, on the port written (or the default).
            pattern = _origin(f"{scheme}://{rest[2:]}")
            if pattern and pattern[2] == origin[2] and is_same_domain(origin[1],
                                                                       "." + pattern[1]):
                return True
        elif _origin(entry) == origin:
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    headers = _headers(scope)
    origin = _origin(headers.get("origin", ""))
    if origin is None:  # missing, "null", or not http(s)
        return False
    own = _own_origin(scope, headers)
    if own is not None:
        own = (own[0], own[1].lower(), own[2])
    return origin == own or _trusted(origin)


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not one of the site's is refused before
    the consumer (and anything it would send) runs."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
