"""X-Forwarded-Proto says a request came over HTTPS only when a listed proxy says it
(TRUSTED_PROXIES): a client reaching Daphne directly over plain HTTP cannot claim HTTPS."""

from __future__ import annotations

from ipaddress import ip_network

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from chudopoly_site.middleware import ForwardedHeadersFromTrustedProxiesOnly

PROXY = "172.18.0.9"


@pytest.fixture
def https_only(settings) -> None:
    """The production settings that read the header (DEBUG off)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True


def _home(remote_addr: str, proto: str) -> int | str:
    response = Client(REMOTE_ADDR=remote_addr).get("/", HTTP_X_FORWARDED_PROTO=proto)
    return response["Location"] if response.status_code == 301 else response.status_code


@pytest.mark.django_db
@pytest.mark.usefixtures("https_only")
def test_with_no_proxy_listed_a_client_saying_https_is_still_sent_to_https(settings) -> None:
    settings.TRUSTED_PROXY_NETWORKS = ()
    assert _home("203.0.113.5", "https") == "https://testserver/"
    assert _home(PROXY, "https") == "https://testserver/"


@pytest.mark.django_db
@pytest.mark.usefixtures("https_only")
def test_a_listed_proxy_is_believed_and_a_client_beside_it_is_not(settings) -> None:
    settings.TRUSTED_PROXY_NETWORKS = (ip_network("172.18.0.0/16"),)
    assert _home(PROXY, "https") == 200
    assert _home(PROXY, "http") == "https://testserver/"
    assert _home("203.0.113.5", "https") == "https://testserver/"


def _as_a_view_sees_it(remote_addr: str) -> dict[str, object]:
    """What a view behind the middleware reads of a request sending every forwarded header."""
    seen: dict[str, object] = {}

    def view(request: HttpRequest) -> HttpResponse:
        seen["uri"] = request.build_absolute_uri("/x")
        seen["headers"] = sorted(k for k in request.META if k.startswith("HTTP_X_FORWARDED_"))
        return HttpResponse()

    request = RequestFactory().get("/", REMOTE_ADDR=remote_addr,
                                   HTTP_X_FORWARDED_PROTO="https",
                                   HTTP_X_FORWARDED_HOST="elsewhere.example",
                                   HTTP_X_FORWARDED_FOR="198.51.100.1")
    ForwardedHeadersFromTrustedProxiesOnly(view)(request)
    return seen


def test_no_view_sees_a_forwarded_header_a_client_wrote(settings) -> None:
    """Absolute links (a move-seat link, a password-reset mail) are built from the request:
    a client's X-Forwarded-Proto or -Host never reaches them; a listed proxy's do."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.USE_X_FORWARDED_HOST = True
    settings.ALLOWED_HOSTS = ["testserver", "elsewhere.example"]
    settings.TRUSTED_PROXY_NETWORKS = (ip_network("172.18.0.0/16"),)
    assert _as_a_view_sees_it("203.0.113.5") == {"uri": "http://testserver/x", "headers": []}
    assert _as_a_view_sees_it(PROXY) == {
        "uri": "https://elsewhere.example/x",
        "headers": ["HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PROTO"]}
