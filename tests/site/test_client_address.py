"""The client's address (chudopoly_site/client_address.py): X-Forwarded-For counts only when the
connection comes from a proxy listed in TRUSTED_PROXIES, and `serve` leaves it to the app (no
Daphne --proxy-headers), so a client that reaches Daphne directly cannot pick its address."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from ipaddress import ip_network
from pathlib import Path

import pytest

from chudopoly_site.client_address import client_address_of_scope, forwarded_client
from tests.conftest import _free_port, _stop

ROOT = Path(__file__).resolve().parents[2]
PEER = "203.0.113.5"


@pytest.fixture
def proxy_listed(settings) -> None:
    settings.TRUSTED_PROXY_NETWORKS = (ip_network("203.0.113.0/28"), ip_network("10.0.0.7"))


def test_with_no_proxy_listed_the_header_is_never_read() -> None:
    assert forwarded_client(PEER, "198.51.100.1") == PEER


def test_a_listed_proxy_names_the_client(proxy_listed: None) -> None:
    assert forwarded_client(PEER, "198.51.100.1") == "198.51.100.1"


def test_a_client_that_is_no_listed_proxy_is_not_believed(proxy_listed: None) -> None:
    assert forwarded_client("198.51.100.9", "198.51.100.1") == "198.51.100.9"


def test_what_the_client_wrote_left_of_the_proxies_entries_counts_for_nothing(
        proxy_listed: None) -> None:
    assert forwarded_client(PEER, "6.6.6.6, 198.51.100.1, 10.0.0.7") == "198.51.100.1"


def test_an_entry_that_is_no_address_stops_the_walk_at_the_last_proxy(
        proxy_listed: None) -> None:
    assert forwarded_client(PEER, "unknown") == PEER


def test_a_socket_reads_its_scope_the_same_way(proxy_listed: None) -> None:
    scope = {"client": (PEER, 50000), "headers": [(b"x-forwarded-for", b"198.51.100.1")]}
    assert client_address_of_scope(scope) == "198.51.100.1"
    assert client_address_of_scope({**scope, "client": ("198.51.100.9", 1)}) == "198.51.100.9"


def _serve(tmp_path: Path, database: Path, trusted: str | None) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE",
                        "DJANGO_ALLOW_ASYNC_UNSAFE", "TRUSTED_PROXIES")}
    env.update({"SQLITE_PATH": str(database), "STATIC_ROOT": str(tmp_path / "static"),
                "PYTHONUNBUFFERED": "1"})
    if trusted is not None:
        env["TRUSTED_PROXIES"] = trusted
    server = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                return server, base
        except OSError:
            assert server.poll() is None, "serve exited"
            assert time.monotonic() < deadline, "serve did not answer within 90 s"
            time.sleep(0.3)


def _wrong_password_from(base: str, forged: str) -> None:
    """One failed log-in over HTTP, the request carrying a forged X-Forwarded-For."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(f"{base}/accounts/login/", timeout=10) as response:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"',
                          response.read().decode())
    assert token is not None
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": "mia",
                                   "password": "wrong"}).encode()
    request = urllib.request.Request(f"{base}/accounts/login/", data=body,
                                     headers={"X-Forwarded-For": forged})
    # A refusal (the lockout's 429) is fine: the address it counted is what the test reads.
    with contextlib.suppress(urllib.error.HTTPError):
        opener.open(request, timeout=10).close()


def _addresses_counted(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT ip_address FROM axes_accessattempt")}


@pytest.mark.slow
@pytest.mark.parametrize(("trusted", "counted"), [
    (None, {"127.0.0.1"}),
    ("127.0.0.1", {"198.51.100.1", "198.51.100.2"}),
], ids=["no-proxy-listed", "proxy-listed"])
def test_serve_counts_a_forged_forwarded_for_only_from_a_listed_proxy(
        tmp_path: Path, trusted: str | None, counted: set[str]) -> None:
    database = tmp_path / "serve.sqlite3"
    server, base = _serve(tmp_path, database, trusted)
    try:
        for forged in ("198.51.100.1", "198.51.100.2"):
            _wrong_password_from(base, forged)
        assert _addresses_counted(database) == counted
    finally:
        _stop(server)
