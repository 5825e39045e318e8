"""The client's address, as every throttle of the site reads it.

One reading for the log-in lockout (django-axes), the password-reset limit and the invite-miss
limit: django-ipware under the AXES_IPWARE_* settings, so behind a proxy only the header that
proxy sets counts, never one the client wrote (chudopoly_site/settings.py, docs/deploy.md).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from axes.helpers import get_client_ip_address
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    return get_client_ip_address(request) or None


def client_address_of_scope(scope: dict[str, Any]) -> str | None:
    """The same reading for a websocket: its scope's headers as a request's META."""
    meta = {"HTTP_" + name.decode("latin1").upper().replace("-", "_"): value.decode("latin1")
            for name, value in scope.get("headers", [])}
    client = scope.get("client")
    if client:
        meta["REMOTE_ADDR"] = str(client[0])
    return get_client_ip_address(SimpleNamespace(META=meta)) or None  # type: ignore[arg-type]
