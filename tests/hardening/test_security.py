"""Security checks, one (or a few) per item: websocket origin, authority over every seat action,
CSRF on every form, the per-connection rate limit and frame size limit, session fixation, and
production settings without debug pages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.platform import services
from games.platform.frames import MAX_FRAME_BYTES
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game, Seat, Table

ROOT = Path(__file__).resolve().parents[2]
ALICE = Viewer(user_id=None, guest_key="hardening-alice-000000000000")
BOB = Viewer(user_id=None, guest_key="hardening-bob-00000000000000")
MALLORY = Viewer(user_id=None, guest_key="hardening-mallory-0000000000")


@pytest.fixture(autouse=True)
def _in_process_tasks(settings: Any) -> None:
    """Scheduled work (bot moves, clocks) stays in this process and waits (conftest.py)."""
    settings.TASK_BACKEND = "inprocess"


def _application() -> Any:
    from chudopoly_site.asgi import application

    return application


def _cookie(viewer: Viewer | None) -> bytes:
    session = SessionStore()
    if viewer is not None and viewer.guest_key:
        session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}".encode()


async def _socket(path: str, viewer: Viewer | None = None, *,
                  origin: bytes | None = b"http://localhost") -> tuple[bool, Any]:
    headers = [(b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin))
    if viewer is not None:
        headers.append((b"cookie", await database_sync_to_async(_cookie)(viewer)))
    comm = WebsocketCommunicator(_application(), path, headers=headers)
    connected, _ = await comm.connect()
    return connected, comm


async def _drain(comm: Any, quiet: float = 0.3) -> list[str]:
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(await comm.receive_from())
    return out


def _code_of(html: str) -> str | None:
    match = re.search(r'id="frame-error"[^>]*data-code="([a-z_]*)"', html)
    return match.group(1) if match else None


def _two_guest_game() -> Game:
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={"preset": "blitz"},
                                  turn_seconds=0, response_seconds=0)
    services.seat_join(table_id=table.pk, viewer=BOB, name="Bob")
    return services.game_start(table_id=table.pk, viewer=ALICE)


def _owner_of_turn(game: Game) -> Viewer:
    turn = game.state["turn"]
    return ALICE if game.players[turn]["name"] == "Alice" else BOB


def _snapshot(game_id: int) -> tuple[int, Any, int]:
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, game.actions.count()


# --- websocket origin ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [b"http://evil.example", b"null", b"http://localhost.evil",
                                    None])
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/lobby/boardroom/", "/ws/queue/",
                                  "/ws/table/{code}/"])
async def test_every_socket_refuses_a_foreign_or_missing_origin(origin: bytes | None,
                                                                path: str) -> None:
    game = await database_sync_to_async(_two_guest_game)()
    connected, comm = await _socket(path.format(code=game.table.code), ALICE, origin=origin)
    await comm.disconnect()
    assert connected is False


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/lobby/boardroom/", "/ws/queue/",
                                  "/ws/table/{code}/"])
async def test_every_socket_accepts_the_sites_own_origin(path: str) -> None:
    game = await database_sync_to_async(_two_guest_game)()
    connected, comm = await _socket(path.format(code=game.table.code), ALICE)
    await comm.disconnect()
    assert connected is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [b"http://127.0.0.1:9999", b"http://localhost:9999",
                                    b"https://localhost", b"ws://localhost",
                                    b"http://localhost:notaport"])
async def test_a_table_socket_refuses_an_allowed_host_on_another_port_or_scheme(
        origin: bytes) -> None:
    game = await database_sync_to_async(_two_guest_game)()
    connected, comm = await _socket(f"/ws/table/{game.table.code}/", ALICE, origin=origin)
    # Refused at the handshake: nothing of the hand was sent.
    assert connected is False
    assert await comm.receive_nothing(timeout=0.1)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_accepts_its_own_port_and_the_trusted_origins(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://chudopoly.example", "https://*.chudopoly.example"]
    game = await database_sync_to_async(_two_guest_game)()
    path = f"/ws/table/{game.table.code}/"
    cases = [((b"localhost:8000", b"http://localhost:8000"), True),
             ((b"localhost:8000", b"http://localhost"), False),
             ((b"localhost", b"http://localhost:80"), True),
             ((b"localhost", b"https://chudopoly.example"), True),
             ((b"localhost", b"https://www.chudopoly.example"), True),
             ((b"localhost", b"http://chudopoly.example"), False),
             ((b"localhost", b"https://chudopoly.example:8443"), False),
             ((b"evil.example", b"http://evil.example"), False)]  # a host not allowed
    for (host, origin), expected in cases:
        cookie = await database_sync_to_async(_cookie)(ALICE)
        comm = WebsocketCommunicator(_application(), path, headers=[
            (b"host", host), (b"origin", origin), (b"cookie", cookie)])
        connected, _ = await comm.connect()
        await comm.disconnect()
        assert connected is expected, (host, origin)


@pytest.mark.django_db(transaction=True)
async def test_a_private_tables_socket_needs_its_invite_token_or_a_seat() -> None:
    game = await database_sync_to_async(_two_guest_game)()
    code, invite = game.table.code, game.table.invite_token
    for viewer, query, expected in [(MALLORY, "", False), (MALLORY, "?invite=guess", False),
                                    (MALLORY, f"?invite={invite}", True), (BOB, "", True)]:
        connected, comm = await _socket(f"/ws/table/{code}/{query}", viewer)
        await comm.disconnect()
        assert connected is expected, (viewer, query)


# --- authority over every seat action -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_only_the_session_that_owns_a_seat_moves_it() -> None:
    game = await database_sync_to_async(_two_guest_game)()
    code = game.table.code
    mover = _owner_of_turn(game)
    seat = next(i for i, p in enumerate(game.players) if p["name"] ==
                ("Alice" if mover is ALICE else "Bob"))
    before = await database_sync_to_async(_snapshot)(game.pk)
    end_turn = {"kind": "act", "action": {"type": "end_turn"}, "expected_version": 0}
    # No session at all, a stranger's session, and the other player naming the mover's seat.
    other = BOB if mover is ALICE else ALICE
    cases = [(None, end_turn, "spectator"), (MALLORY, end_turn, "spectator"),
             (MALLORY, {**end_turn, "seat": seat}, "spectator"),
             (other, {**end_turn, "seat": seat}, "forged"),
             (other, end_turn, "not_your_turn")]
    invite = game.table.invite_token  # the watchers came by the invite link
    for viewer, frame, expected in cases:
        connected, comm = await _socket(f"/ws/table/{code}/?invite={invite}", viewer)
        assert connected
        await _drain(comm)
        await comm.send_to(text_data=json.dumps(frame))
        got = await _drain(comm)
        assert got and _code_of(got[0]) == expected, (viewer, frame, got[:1])
        await comm.disconnect()
    assert await database_sync_to_async(_snapshot)(game.pk) == before


@pytest.mark.django_db(transaction=True)
async def test_a_seat_at_one_table_gives_no_say_at_another() -> None:
    game = await database_sync_to_async(_two_guest_game)()
    other_table = await database_sync_to_async(services.table_create)(
        viewer=MALLORY, name="Mallory", ruleset_spec={})
    await database_sync_to_async(services.seat_add_bot)(table_id=other_table.pk,
                                                        viewer=MALLORY)
    other_game = await database_sync_to_async(services.game_start)(table_id=other_table.pk,
                                                                   viewer=MALLORY)
    before = await database_sync_to_async(_snapshot)(game.pk)
    _connected, comm = await _socket(
        f"/ws/table/{game.table.code}/?invite={game.table.invite_token}", MALLORY)
    await _drain(comm)
    await comm.send_to(text_data=json.dumps({"kind": "act", "action": {"type": "scoop"},
                                             "expected_version": 0}))
    assert _code_of((await _drain(comm))[0]) == "spectator"
    await comm.send_to(text_data=json.dumps({"kind": "chat", "text": "hi"}))
    assert _code_of((await _drain(comm))[0]) == "no_seat"
    await comm.disconnect()
    assert await database_sync_to_async(_snapshot)(game.pk) == before
    assert (await database_sync_to_async(_snapshot)(other_game.pk))[0] == 0


@pytest.mark.django_db
def test_lobby_posts_from_a_stranger_change_nothing() -> None:
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={})
    bot = services.seat_add_bot(table_id=table.pk, viewer=ALICE)
    stranger = Client()
    stranger.get(table.invite_path)  # a browser with a session and the link, not seated
    before = list(Seat.objects.filter(table=table).values_list("pk", "name", "away"))
    for path in (f"/t/{table.code}/start/", f"/t/{table.code}/bots/",
                 f"/t/{table.code}/bots/{bot.pk}/remove/", f"/t/{table.code}/leave/",
                 f"/t/{table.code}/rematch/", f"/t/{table.code}/move/",
                 f"/t/{table.code}/move/not-a-token/"):
        response = stranger.post(path, {"invite": table.invite_token})
        assert response.status_code in (200, 302), path
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and not table.games.exists()
    assert list(Seat.objects.filter(table=table).values_list("pk", "name", "away")) == before
    assert not Seat.objects.filter(table=table, move_token__isnull=False).exists()


@pytest.mark.django_db
def test_a_seated_non_host_cannot_run_the_table() -> None:
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={})
    services.seat_join(table_id=table.pk, viewer=BOB, name="Bob")
    bob = Client()
    session = bob.session
    session[GUEST_SESSION_KEY] = BOB.guest_key
    session.save()
    bob.cookies["sessionid"] = session.session_key
    bob.post(f"/t/{table.code}/bots/")
    bob.post(f"/t/{table.code}/start/")
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert Seat.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_replays_and_exports_of_a_running_game_are_not_served() -> None:
    """They would show every hand and the deck order (the seed) while the game is on."""
    game = _two_guest_game()
    client = Client()
    assert client.get(f"/ladder/games/{game.pk}/replay/").status_code == 404
    assert client.get(f"/ladder/games/{game.pk}/export.json").status_code == 404


# --- CSRF on every form -------------------------------------------------------------------------


def _routes(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def _concrete(pattern: str, code: str) -> str:
    pattern = pattern.lstrip("^").rstrip("$").replace("\\Z", "")
    pattern = re.sub(r"<int:[a-z_]+>", "1", pattern)
    pattern = re.sub(r"<(?:str:)?code>", code, pattern)
    pattern = re.sub(r"<(?:str:|path:|slug:)?[a-z_0-9]+>", "x", pattern)
    pattern = re.sub(r"\(\?P<[a-z_]+>[^)]*\)", "x", pattern)
    return "/" + pattern.replace("\\", "")


@pytest.mark.django_db
def test_every_form_post_without_a_csrf_token_is_refused() -> None:
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={})
    client = Client(enforce_csrf_checks=True)
    client.get(f"/t/{table.code}/")  # a session and a CSRF cookie, but no token in the form
    checked = []
    for pattern, view in _routes():
        if pattern.startswith("api/"):
            continue  # token-authenticated, no cookies: the next test
        assert not getattr(view, "csrf_exempt", False), f"{pattern} is exempt from CSRF"
        if pattern.startswith(("static/", "media/")):
            continue
        url = _concrete(pattern, table.code)
        response = client.post(url, {"name": "Eve", "text": "x", "level": "easy"})
        assert response.status_code == 403, (url, response.status_code)
        checked.append(url)
    assert len(checked) >= 20
    assert table.seats.count() == 1


@pytest.mark.django_db
def test_no_api_endpoint_acts_for_a_signed_in_browsers_cookies() -> None:
    """/api/ is exempt from CSRF because it reads no cookies: a browser's session there is
    nobody, so every endpoint refuses it with every method it answers (401), even with the
    session's CSRF token sent as a page's script would send it."""
    user = get_user_model().objects.create_user(username="cookie", password="x" * 12)
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={})
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the CSRF cookie beside the session's
    csrf = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value}
    checked = 0
    for pattern, view in _routes():
        if not pattern.startswith("api/") or pattern == "api/openapi.json":
            continue  # the API's description is public and acts for nobody
        url = _concrete(pattern, table.code)
        # Exempt from CSRF only as a token-checking endpoint (or the catch-all's JSON 404).
        assert getattr(view, "api_methods", None) or pattern == "api/^.*$", pattern
        for method in getattr(view, "api_methods", ("GET", "POST")):
            response = client.generic(method, url, "{}", "application/json", **csrf)
            expected = 404 if pattern == "api/^.*$" else 401
            assert response.status_code == expected, (method, url, response.status_code)
            assert "error" in response.json()
            checked += 1
    assert checked >= 14
    assert table.seats.count() == 1


@pytest.mark.django_db
def test_a_nul_byte_in_any_url_is_a_bad_request_not_a_server_error() -> None:
    """PostgreSQL cannot compare a string holding NUL: `/t/%00%00/start/` used to be a 500."""
    client = Client(raise_request_exception=False)
    seen = 0
    for pattern, _view in _routes():
        if "<" not in pattern and "(?P" not in pattern:
            continue
        url = _concrete(pattern, "%00%00")
        url = re.sub(r"/x/", "/%00/", url)
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code < 500, (method.__name__, url, response.status_code)
        seen += 1
    assert seen >= 10
    assert client.get("/?next=%00").status_code == 400
    assert client.get("/t/%00%00/").status_code == 400


@pytest.mark.django_db
def test_a_post_with_the_pages_own_token_is_accepted() -> None:
    """The other side of the CSRF check: the forms the pages render do carry a valid token."""
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={})
    client = Client(enforce_csrf_checks=True)
    page = client.get(table.invite_path).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    invite = re.search(r'name="invite" value="([^"]+)"', page).group(1)
    response = client.post(f"/t/{table.code}/join/", {"name": "Bob", "invite": invite,
                                                      "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert table.seats.count() == 2


# --- rate limit and frame size ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_socket_gets_forty_frames_in_five_seconds_then_is_told_to_wait() -> None:
    from games.platform.consumers import FLOOD_FACTOR, RATE_LIMIT_FRAMES

    game = await database_sync_to_async(_two_guest_game)()
    before = await database_sync_to_async(_snapshot)(game.pk)
    _, comm = await _socket(f"/ws/table/{game.table.code}/", ALICE)
    await _drain(comm)
    codes = []
    for _ in range(RATE_LIMIT_FRAMES + 1):
        await comm.send_to(text_data="{")
        codes.append(_code_of(await comm.receive_from(timeout=5)))
    assert codes[:RATE_LIMIT_FRAMES] == ["malformed"] * RATE_LIMIT_FRAMES
    assert codes[-1] == "rate_limited"
    # A second tab has its own allowance.
    _connected, fresh = await _socket(f"/ws/table/{game.table.code}/", ALICE)
    await _drain(fresh)
    await fresh.send_to(text_data="{")
    assert _code_of(await fresh.receive_from(timeout=5)) == "malformed"
    await fresh.disconnect()
    # Keeping on past twice the limit closes the socket.
    for _ in range(RATE_LIMIT_FRAMES * (FLOOD_FACTOR - 1)):
        await comm.send_to(text_data="{")
    output = await comm.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=5)
    assert output["code"] == 4429
    assert await database_sync_to_async(_snapshot)(game.pk) == before


@pytest.mark.django_db(transaction=True)
async def test_a_frame_over_eight_kib_is_refused_and_one_under_is_read() -> None:
    game = await database_sync_to_async(_two_guest_game)()
    before = await database_sync_to_async(_snapshot)(game.pk)
    _connected, comm = await _socket(f"/ws/table/{game.table.code}/", ALICE)
    await _drain(comm)
    base = {"kind": "chat", "text": ""}
    room = MAX_FRAME_BYTES - len(json.dumps(base))
    await comm.send_to(text_data=json.dumps({**base, "text": "é" * (room // 2 + 1)}))
    assert _code_of(await comm.receive_from(timeout=5)) == "oversized"
    await comm.send_to(text_data=json.dumps({**base, "text": "x" * room}))
    assert _code_of(await comm.receive_from(timeout=5)) == "too_long"  # read, then judged
    await comm.send_to(bytes_data=b"\x00" * 10)
    assert _code_of(await comm.receive_from(timeout=5)) == "malformed"
    await comm.disconnect()
    assert await database_sync_to_async(_snapshot)(game.pk) == before


# --- sessions -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_signing_in_rotates_the_session_key_and_keeps_the_guests_seat() -> None:
    get_user_model().objects.create_user("carol", password="a long enough passphrase 1")
    client = Client()
    table_page = client.post("/tables/new/", {"name": "Carol", "preset": "chudopoly",
                                              "max_seats": 4, "turn_seconds": 60,
                                              "response_seconds": 45})
    assert table_page.status_code == 302
    before = client.cookies["sessionid"].value
    guest_key = SessionStore(session_key=before)[GUEST_SESSION_KEY]
    response = client.post("/accounts/login/", {"username": "carol",
                                                "password": "a long enough passphrase 1"})
    assert response.status_code == 302
    after = client.cookies["sessionid"].value
    assert after != before
    assert not SessionStore().exists(before), "the pre-login session must die"
    assert SessionStore(session_key=after).get(GUEST_SESSION_KEY) == guest_key
    # The planted (old) key is worth nothing: it is an empty, anonymous session now.
    planted = Client()
    planted.cookies["sessionid"] = before
    assert "_auth_user_id" not in planted.session


@pytest.mark.django_db
def test_signing_up_rotates_the_session_key_too() -> None:
    client = Client()
    client.get("/tables/new/")
    before = client.cookies["sessionid"].value
    response = client.post("/accounts/signup/", {
        "username": "dave", "email": "dave@example.com",
        "password1": "a long enough passphrase 2", "password2": "a long enough passphrase 2"})
    assert response.status_code == 302
    assert client.cookies["sessionid"].value != before
    assert not SessionStore().exists(before)


@pytest.mark.django_db
def test_logging_out_ends_the_session_on_the_server() -> None:
    get_user_model().objects.create_user("erin", password="a long enough passphrase 3")
    client = Client()
    client.post("/accounts/login/", {"username": "erin",
                                     "password": "a long enough passphrase 3"})
    key = client.cookies["sessionid"].value
    client.post("/accounts/logout/")
    assert not SessionStore().exists(key)


# --- production settings ------------------------------------------------------------------------

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "hardening-" + "k" * 60,
    "ALLOWED_HOSTS": "chudopoly.example,testserver",
    "SECURE_SSL_REDIRECT": "0",
}

_PROBE = r"""
import json, sys, types
import django
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from django.urls import include, path

def boom(request):
    raise RuntimeError("secret-internal-detail")

urls = types.ModuleType("hardening_urls")
urls.urlpatterns = [path("boom/", boom), path("", include("chudopoly_site.urls"))]
urls.handler404 = "chudopoly_site.errors.page_not_found"
urls.handler500 = "chudopoly_site.errors.server_error"
sys.modules["hardening_urls"] = urls
out = {"DEBUG": settings.DEBUG, "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
       "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
       "SESSION_COOKIE_HTTPONLY": settings.SESSION_COOKIE_HTTPONLY,
       "HSTS": settings.SECURE_HSTS_SECONDS, "XFO": settings.X_FRAME_OPTIONS,
       "NOSNIFF": settings.SECURE_CONTENT_TYPE_NOSNIFF}
# Production serves collected, hashed static files; this probe has no collectstatic run.
storages = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
with override_settings(ROOT_URLCONF="hardening_urls", STORAGES=storages):
    client = Client(raise_request_exception=False, HTTP_HOST="chudopoly.example")
    r404 = client.get("/no/such/page/")
    r500 = client.get("/boom/")
    out["404"] = [r404.status_code, r404.content.decode()]
    out["500"] = [r500.status_code, r500.content.decode()]
print(json.dumps(out))
"""


def test_production_settings_serve_no_debug_pages() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(PRODUCTION)
    env["DJANGO_SETTINGS_MODULE"] = "chudopoly_site.settings"
    env["SQLITE_PATH"] = str(ROOT / f".hardening-probe-{os.getpid()}.sqlite3")
    result = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    Path(env["SQLITE_PATH"]).unlink(missing_ok=True)
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["DEBUG"] is False
    assert out["SESSION_COOKIE_SECURE"] and out["CSRF_COOKIE_SECURE"]
    assert out["SESSION_COOKIE_HTTPONLY"] and out["NOSNIFF"] and out["XFO"] == "DENY"
    assert out["HSTS"] >= 31536000
    status, body = out["404"]
    assert status == 404 and "URLconf" not in body and "Page not found at" not in body
    status, body = out["500"]
    assert status == 500
    assert "secret-internal-detail" not in body and "Traceback" not in body
    assert "Something went wrong" in body


# `manage.py check --deploy --fail-level WARNING` with production settings: that test is
# tests/site/test_settings_from_environment.py (the deploy check without warnings).


def test_the_shipped_images_run_with_debug_off() -> None:
    """An image started without DEBUG in its environment must not serve debug pages."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ENV\b.*\bDEBUG=0\b", dockerfile, re.M), "Dockerfile must set DEBUG=0"
    compose = (ROOT / "docker-compose.yml").read_text()
    assert re.search(r'DEBUG:\s*"0"', compose)
