"""The client's address, as every throttle of the site reads it.

One reading for the log-in lockout (django-axes), the password-reset limit and the invite-miss
limit: django-ipware under the AXES_IPWARE_* settings, so behind a proxy only the header that
proxy sets counts, never one the client wrote (chudopoly_site/settings.py, docs/deploy.md).
"""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    return get_client_ip_address(request) or None
