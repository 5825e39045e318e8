"""A locked-out log-in is answered with the log-in page saying when to try again (HTTP 429),
through the WSGI test client and through the ASGI application Daphne serves, whose middleware
chain runs django-axes' async path.

Each ASGI request here runs to its end, as under Daphne: Django's handler sends the response
and only then closes it, and closing it (request_finished) is what gives the request's thread's
database connection back to PostgreSQL's pool. A request abandoned after its last byte keeps
that connection checked out for the rest of the test process."""

from __future__ import annotations

import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

PASSWORD = "correct horse battery"
LOGIN_FAILURES_ALLOWED = django_settings.AXES_FAILURE_LIMIT
TRY_AGAIN = re.compile(r"Too many failed log-ins.*Try again in 1[45] minutes", re.S)


class AsgiBrowser:
    """One browser talking to `chudopoly_site.asgi:application` from one address: it keeps
    its cookies and sends the CSRF token the way a page's form does."""

    def __init__(self, address: str = "203.0.113.7") -> None:
        from chudopoly_site.asgi import application

        self.application = application
        self.address = address
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str,
                      form: dict[str, str] | None = None) -> dict:
        headers = [(b"host", b"localhost")]
        if self.cookies:
            jar = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            headers.append((b"cookie", jar.encode()))
        body = b""
        if form is not None:
            body = urlencode({**form, "csrfmiddlewaretoken": self.cookies["csrftoken"]}).encode()
            headers.append((b"content-type", b"application/x-www-form-urlencoded"))
        communicator = HttpCommunicator(self.application, method, path, body=body,
                                        headers=headers)
        communicator.scope["client"] = (self.address, 50000)
        response = await communicator.get_response(timeout=30)
        # Let the handler finish: dropping the communicator now would cancel it before it
        # closes the response, and the connection its thread used would never be returned.
        await communicator.wait(timeout=30)
        for name, value in response["headers"]:
            if name.lower() == b"set-cookie":
                for morsel in SimpleCookie(value.decode()).values():
                    self.cookies[morsel.key] = morsel.value
        return response

    async def log_in(self, username: str, password: str) -> dict:
        if "csrftoken" not in self.cookies:
            await self.request("GET", reverse("accounts:login"))
        return await self.request("POST", reverse("accounts:login"),
                                  {"username": username, "password": password})


def _player(username: str) -> None:
    get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_locked_out_log_in_gets_the_lockout_page_not_a_server_error(
) -> None:
    await database_sync_to_async(_player)("lou")
    browser = AsgiBrowser()
    for _ in range(LOGIN_FAILURES_ALLOWED):
        await browser.log_in("lou", "wrong")
    for password in ("wrong", PASSWORD):  # even the right password is refused for now
        response = await browser.log_in("lou", password)
        assert response["status"] == 429
        page = response["body"].decode()
        assert TRY_AGAIN.search(page), page[:500]
        assert '<form method="post"' in page
        assert not await _signed_in(browser)


async def _signed_in(browser: AsgiBrowser) -> bool:
    """The profile link leads a signed-in browser to its own page, a guest to the log-in."""
    profile = await browser.request("GET", reverse("accounts:profile"))
    location = dict(profile["headers"]).get(b"Location", b"").decode()
    return location.startswith("/accounts/u/")


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_another_address_still_logs_in() -> None:
    await database_sync_to_async(_player)("mo")
    locked = AsgiBrowser("203.0.113.8")
    for _ in range(LOGIN_FAILURES_ALLOWED):
        await locked.log_in("mo", "wrong")
    assert (await locked.log_in("mo", PASSWORD))["status"] == 429
    elsewhere = AsgiBrowser("203.0.113.9")
    response = await elsewhere.log_in("mo", PASSWORD)
    assert response["status"] == 302
    assert await _signed_in(elsewhere)


class PoolCheckouts:
    """Counts the connections taken from PostgreSQL's pool and not yet given back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from psycopg_pool import ConnectionPool

        self.out = 0
        take, give = ConnectionPool.getconn, ConnectionPool.putconn

        def getconn(pool, *args, **kwargs):
            conn = take(pool, *args, **kwargs)
            self.out += 1
            return conn

        def putconn(pool, conn):
            self.out -= 1
            return give(pool, conn)

        monkeypatch.setattr(ConnectionPool, "getconn", getconn)
        monkeypatch.setattr(ConnectionPool, "putconn", putconn)


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="the connection pool is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
async def test_under_asgi_log_ins_and_lockouts_give_their_database_connections_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    await database_sync_to_async(_player)("pat")
    checkouts = PoolCheckouts(monkeypatch)
    browser = AsgiBrowser("203.0.113.10")
    for _ in range(LOGIN_FAILURES_ALLOWED):
        await browser.log_in("pat", "wrong")
    assert (await browser.log_in("pat", PASSWORD))["status"] == 429
    assert checkouts.out == 0


@pytest.mark.django_db
def test_through_the_test_client_a_locked_out_log_in_gets_the_same_page(client: Client) -> None:
    _player("nan")
    for _ in range(LOGIN_FAILURES_ALLOWED):
        client.post(reverse("accounts:login"), {"username": "nan", "password": "wrong"})
    response = client.post(reverse("accounts:login"), {"username": "nan", "password": PASSWORD,
                                                       "next": "/ladder/play/"})
    assert response.status_code == 429
    page = response.content.decode()
    assert TRY_AGAIN.search(page)
    assert 'name="next" value="/ladder/play/"' in page
    assert "_auth_user_id" not in client.session
