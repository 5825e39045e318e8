"""A read changes nothing: every URL pattern of the site, asked with GET and HEAD by a guest,
by a seated player, by a signed-in one and by a program with an API token, leaves every row of
every table as it was. A link
or a redirect from another site makes a browser send a GET with its cookies, so a GET that
acted (declined a rematch, gave up a seat, recorded an arrival) would act for them. Views
that change something answer POST only."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.api_tokens import API_SCOPES, token_create
from accounts.models import ApiToken
from challenges.models import Challenge
from challenges.services import challenge_create
from games.platform import moverows, services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game, registered_games
from games.platform.models import ClockSweep, Game, Outage, PartHeartbeat, Seat, Table
from ladder import services as ladder
from ladder.models import QueueTicket

ALICE = Viewer(user_id=None, guest_key="reads-alice-00000000000000000")
BOB = Viewer(user_id=None, guest_key="reads-bob-0000000000000000000")
PASSWORD = "correct horse battery"

# Kept out of the comparison, each for its reason:
UNCOMPARED = {
    # The session is the browser's own cookie jar kept on the server: a first GET starts one
    # (a guest's key, a CSRF secret). Who is signed in is checked apart (`_still_who_it_was`).
    Session: None,
    # Reading the quick-match page is the sign its player is still there (the page without
    # script refreshes itself, so this is its only heartbeat); a ticket silent for a minute
    # is dropped. Only that time stamp moves: the ticket's status, match and arrival do not.
    QueueTicket: {"last_seen"},
    # When an API token was last used, shown to its owner (written at most once a minute).
    ApiToken: {"last_used_at"},
    # The clock sweep and the parts' heartbeats are written by the worker's beat (CI runs one
    # beside the suite) and the web's heartbeat thread on their own schedule, whatever any
    # request does; a request never writes them.
    ClockSweep: None,
    PartHeartbeat: None,
    Outage: None,
}


# --- the site as one visitor of each kind finds it ----------------------------------------------


@dataclass
class Scene:
    user: Any
    una: Viewer
    lobby: Table
    playing: Table
    rematch: Table
    finished_game: Game
    bot_seat: Seat
    move_token: str
    tickets: dict[str, QueueTicket]
    challenge: Challenge
    api_token: ApiToken
    api_secret: str

    @property
    def codes(self) -> list[str]:
        return [self.lobby.code, self.playing.code, self.rematch.code]


def _finish(game: Game) -> Game:
    engine = get_game(game.game_kind)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), "basic")
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=game.version)
    raise AssertionError("the game did not end")


def _table(host: Viewer, *others: tuple[Viewer, str], bots: int = 0) -> Table:
    table = services.table_create(viewer=host, name="Alice", ruleset_spec={"preset": "blitz"},
                                  turn_seconds=0, response_seconds=0, max_seats=4)
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=host)
    return table


def _scene() -> Scene:
    user = get_user_model().objects.create_user(username="una", password=PASSWORD,
                                                email="una@example.com")
    una = Viewer(user_id=user.pk, guest_key=None, username="una")
    # A lobby with a bot; a game running, with a link made to move Alice's seat; a finished
    # game whose host asked for a rematch that Bob and Una have not answered.
    lobby = _table(ALICE, (una, "una"), bots=1)
    bot_seat = lobby.seats.get(is_bot=True)
    playing = _table(ALICE, (una, "una"), (BOB, "Bob"))
    services.game_start(table_id=playing.pk, viewer=ALICE)
    move_token = services.seat_move_link_create(table_id=playing.pk, viewer=ALICE)
    rematch = _table(ALICE, (una, "una"), (BOB, "Bob"))
    finished_game = _finish(services.game_start(table_id=rematch.pk, viewer=ALICE))
    services.game_rematch(table_id=rematch.pk, viewer=ALICE)
    # Alice and Una matched in a casual queue, neither at the table yet; Bob waiting in one.
    for viewer, name in ((ALICE, "Alice"), (una, "una")):
        ladder.queue_join(viewer=viewer, preset="blitz", seats=2, ranked=False, name=name)
    (match,) = ladder.queue_pair()
    ladder.queue_join(viewer=BOB, preset="chudopoly", seats=4, ranked=False, name="Bob")
    # Bob's queue page stays open for the whole walk: the beat's pairing run (CI runs a worker
    # beside the suite) cancels a waiting ticket with no open page after a while, on its own
    # schedule, and a walk on a loaded box outlasted that (CI saw the ticket change mid-walk).
    QueueTicket.objects.filter(guest_key=BOB.guest_key, status=QueueTicket.Status.WAITING
                               ).update(sockets=1, last_seen=timezone.now() + timedelta(hours=1))
    tickets = {"alice": match.tickets.get(guest_key=ALICE.guest_key),
               "una": match.tickets.get(user_id=user.pk)}
    # Vic has challenged Una, who has not answered; Una's program holds an API token.
    vic = get_user_model().objects.create_user(username="vic", password=PASSWORD)
    challenge = challenge_create(challenger_id=vic.pk, username="una", game_kind="chudopoly")
    api = token_create(user_id=user.pk, description="Una's bot", scopes=API_SCOPES)
    return Scene(user=user, una=una, lobby=lobby, playing=playing, rematch=rematch,
                 finished_game=finished_game, bot_seat=bot_seat, move_token=move_token,
                 tickets=tickets, challenge=challenge, api_token=api.token,
                 api_secret=api.secret)


def _visitors(scene: Scene) -> dict[str, Client]:
    seated = Client()
    session = seated.session
    session[GUEST_SESSION_KEY] = ALICE.guest_key
    session.save()
    signed_in = Client()
    signed_in.force_login(scene.user)
    # The /api/ reads no cookie: its visitor is a program holding Una's token.
    program = Client(HTTP_AUTHORIZATION=f"Bearer {scene.api_secret}")
    return {"guest": Client(), "seated": seated, "signed_in": signed_in, "program": program}


# --- every URL pattern, filled with real objects -----------------------------------------------


@dataclass(frozen=True)
class Route:
    pattern: str  # the whole pattern, prefixes joined: "t/<str:code>/rematch/answer/"
    params: tuple[str, ...]

    def url(self, values: dict[str, Any]) -> str:
        """The path with each parameter filled in (route and regex patterns alike)."""
        path = self.pattern
        for param, value in values.items():
            path = re.sub(rf"\(\?P<{param}>[^)]*\)", str(value), path)
            path = re.sub(rf"<(?:\w+:)?{param}>", str(value), path)
        path = path.replace("^", "").replace("$", "").replace("\\Z", "")
        return "/" + path.replace("\\", "")


def _routes(resolver: URLResolver | None = None, prefix: str = "",
            params: tuple[str, ...] = ()) -> Iterator[Route]:
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        own = tuple(entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            yield from _routes(entry, prefix + str(entry.pattern), params + own)
        elif isinstance(entry, URLPattern):
            yield Route(prefix + str(entry.pattern), params + own)


def _choices(scene: Scene, visitor: str, route: Route) -> dict[str, list[Any]]:
    """The values each path parameter is tried with: the objects of the scene."""
    ticket = scene.tickets["una" if visitor in ("signed_in", "program") else "alice"]
    user = scene.user
    reset = "uidb64" in route.params
    return {
        "code": scene.codes,
        "seat_id": [scene.bot_seat.pk],
        "token": ([default_token_generator.make_token(user)] if reset
                  else [scene.move_token]),
        "uidb64": [urlsafe_base64_encode(force_bytes(user.pk))],
        "ticket_id": [ticket.pk],
        "game_id": [scene.finished_game.pk],
        "username": [user.get_username()],
        "game_kind": list(registered_games()),
        "preset": ["blitz"],
        "challenge_id": [scene.challenge.pk],
        "answer": ["accept", "decline", "cancel"],
        "token_id": [scene.api_token.pk],
        "ref": [scene.playing.code, scene.finished_game.pk],
        # Django's admin (a signed-in player who is not staff is sent to its log-in).
        "app_label": ["auth"],
        "model_name": ["user"],
        "object_id": [user.pk],
        "id": [user.pk],
        "content_type_id": [ContentType.objects.get_for_model(user).pk],
        "url": ["auth/user/"],
    }


def _urls(scene: Scene, visitor: str) -> Iterator[tuple[Route, str]]:
    for route in _routes():
        choices = _choices(scene, visitor, route)
        missing = [p for p in route.params if p not in choices]
        assert not missing, f"{route.pattern}: give the walk a real value for {missing}"
        kwargs_list: list[dict[str, Any]] = [{}]
        for param in route.params:
            kwargs_list = [{**kw, param: value} for kw in kwargs_list
                           for value in choices[param]]
        for kwargs in kwargs_list:
            yield route, route.url(kwargs)


# --- every row of every table -------------------------------------------------------------------


def _rows() -> dict[str, str]:
    """A digest of each model table's rows (sorted by primary key), the uncompared fields
    left out."""
    digests = {}
    for model in apps.get_models(include_auto_created=True):
        if model in UNCOMPARED and UNCOMPARED[model] is None:
            continue
        skipped = UNCOMPARED.get(model) or set()
        fields = [f.attname for f in model._meta.concrete_fields if f.name not in skipped]
        rows = model.objects.order_by("pk").values_list(*fields)
        digests[model._meta.db_table] = hashlib.sha256(
            repr(list(rows)).encode()).hexdigest()
    return digests


class WriteRecorder:
    """Counts every statement but a SELECT that any connection of this process sends.

    A row changes only through such a statement (INSERT, UPDATE, DELETE, or anything else that
    is not a plain read), so a request that sent none changed no row and its digest is the
    one before; a request that sent one has every table digested in full. It is patched on
    Django's cursor class, so the /api/ streams' connections on other threads count too.
    Savepoints and the like count as writes: they cost a digest, never a miss."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.writes = 0
        self._lock = threading.Lock()
        recorder = self
        for name in ("execute", "executemany"):
            original = getattr(CursorWrapper, name)

            def recorded(cursor: CursorWrapper, sql: Any, *args: Any,
                         _original: Any = original, **kwargs: Any) -> Any:
                if not str(sql).lstrip().upper().startswith("SELECT"):
                    with recorder._lock:
                        recorder.writes += 1
                return _original(cursor, sql, *args, **kwargs)

            monkeypatch.setattr(CursorWrapper, name, recorded)
        monkeypatch.setattr(CursorWrapper, "callproc", _refused_callproc)
        # A move's messages go to libpq without a Django cursor (games/platform/moverows.py):
        # each one locks or writes a game.
        exchange = moverows._Lane._exchange

        def sent(lane: Any, conn: Any, sql: bytes) -> Any:
            with recorder._lock:
                recorder.writes += 1
            return exchange(lane, conn, sql)

        monkeypatch.setattr(moverows._Lane, "_exchange", sent)


def _refused_callproc(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a stored procedure ran during the walk: the recorder cannot see it")


def _changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(table for table in before.keys() | after.keys()
                  if before.get(table) != after.get(table))


def _still_who_it_was(client: Client, visitor: str, scene: Scene) -> None:
    session = client.session
    if visitor == "seated":
        assert session.get(GUEST_SESSION_KEY) == ALICE.guest_key
    if visitor == "signed_in":
        assert session.get("_auth_user_id") == str(scene.user.pk)


HEALTH_CHECK = "healthz"


@pytest.mark.slow  # over 1,000 requests, each that wrote followed by a digest of every table
# Committed data: the /api/ streams read through channels' database_sync_to_async, which
# closes this thread's connection (and with it a test's enclosing transaction).
@pytest.mark.django_db(transaction=True)
def test_no_get_or_head_of_any_url_changes_a_row_for_any_visitor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = WriteRecorder(monkeypatch)
    scene = _scene()
    assert recorder.writes > 0  # the recorder sees this backend's writes
    routes_seen: set[str] = set()
    asked = 0
    visitors = _visitors(scene)
    first = before = _rows()
    for visitor, client in visitors.items():
        for route, url in _urls(scene, visitor):
            for method in (client.get, client.head):
                writes = recorder.writes
                response = method(url)
                # No writing statement, no changed row: the digest stays the one before.
                after = _rows() if recorder.writes != writes else before
                changed = _changed(before, after)
                assert not changed, (f"{method.__name__.upper()} {url} as {visitor} "
                                     f"({response.status_code}) changed {changed}")
                # /healthz answers 503 when a part it checks is down (in CI the suite's
                # worker and beat heartbeats may be stale); that is its job, not an error.
                if route.pattern != HEALTH_CHECK:
                    assert response.status_code < 500, (url, visitor, response.status_code)
                before = after
                asked += 1
            routes_seen.add(route.pattern)
        _still_who_it_was(client, visitor, scene)
    # The whole walk, digested in full once more, left every table as it found it.
    assert not _changed(first, _rows())
    # Every pattern was asked (a pattern added later is walked without a word here).
    assert routes_seen == {route.pattern for route in _routes()}
    assert asked > 300


@pytest.mark.django_db
def test_every_site_view_refuses_methods_other_than_get_head_and_post() -> None:
    """PUT, PATCH, DELETE and OPTIONS reach no view of the site (405); Django's admin, for
    staff only, is left to Django."""
    scene = _scene()
    client = _visitors(scene)["signed_in"]  # past every log-in check, to the method check
    before = _rows()
    asked = 0
    for route, url in _urls(scene, "signed_in"):
        if route.pattern.startswith("admin/"):
            continue
        view = resolve(url)
        # The /api/ catch-all answers any method to any other path with its JSON 404; an
        # /api/ endpoint names its methods (DELETE leaves the bots' queue: a program's
        # request with its token, which no page can make for a browser).
        expected = 404 if view.url_name == "not_found" else 405
        declared = getattr(view.func, "api_methods", ())
        for method in (client.put, client.patch, client.delete, client.options):
            if method.__name__.upper() in declared:
                continue
            response = method(url)
            assert response.status_code == expected, (method.__name__.upper(), url,
                                                      response.status_code)
            asked += 1
    assert not _changed(before, _rows())
    assert asked > 100


@pytest.mark.django_db
def test_a_get_of_the_rematch_answer_is_refused_and_the_rematch_still_waits_for_the_answer(
) -> None:
    scene = _scene()
    una = _visitors(scene)["signed_in"]
    url = f"/t/{scene.rematch.code}/rematch/answer/"
    for method in (una.get, una.head):
        assert method(url).status_code == 405
    scene.rematch.refresh_from_db()
    assert scene.rematch.rematch and scene.rematch.seats.filter(user=scene.user).exists()
    page = una.get(f"/t/{scene.rematch.code}/").content.decode()
    assert 'id="rematch-decline"' in page
    assert una.post(url, {"answer": "no"}).status_code == 302
    scene.rematch.refresh_from_db()
    seat = scene.rematch.seats.get(user=scene.user)
    assert scene.rematch.rematch["answers"][str(seat.pk)] == "no"


@pytest.mark.django_db
def test_a_get_of_the_match_link_is_refused_and_the_player_has_not_arrived() -> None:
    scene = _scene()
    una = _visitors(scene)["signed_in"]
    ticket = scene.tickets["una"]
    url = f"/ladder/match/{ticket.pk}/go/"
    assert una.get(url).status_code == 405
    ticket.refresh_from_db()
    assert ticket.arrived_at is None
    page = una.get("/ladder/play/").content.decode()
    # The ready page goes on by itself with a POST (htmx, on load), never by a GET.
    assert f'<form method="post" action="{url}" hx-post="{url}" hx-trigger="load, submit">' \
        in page
    assert una.post(url)["Location"] == scene.tickets["una"].match.table.get_absolute_url()
    ticket.refresh_from_db()
    assert ticket.arrived_at is not None


@pytest.mark.django_db(transaction=True)  # the same committed scene as the walk above
def test_every_page_that_answers_a_get_answers_a_head_too() -> None:
    """HEAD is GET without the body (a link checker, a monitor, a proxy's probe): a page that
    reads answers both, so no read-only page answers 405 to HEAD. The /api/ names its own
    methods for programs; Django's admin is left to Django."""
    scene = _scene()
    asked = 0
    for visitor, client in _visitors(scene).items():
        if visitor == "program":
            continue
        for route, url in _urls(scene, visitor):
            if route.pattern.startswith(("api/", "admin/")):
                continue
            if client.get(url).status_code == 405:
                continue  # a POST-only view refuses both, as it should
            head = client.head(url)
            assert head.status_code != 405, (f"HEAD {url} as {visitor}", head["Allow"])
            asked += 1
    assert asked > 50


@pytest.mark.django_db(transaction=True)
def test_the_walks_write_recorder_sees_a_write_made_on_another_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk skips the digest after a request that sent no writing statement, so the
    recorder must see writes from every connection (the /api/ streams use other threads')."""
    from django.db import connection

    recorder = WriteRecorder(monkeypatch)
    get_user_model().objects.count()
    assert recorder.writes == 0

    def write() -> None:
        get_user_model().objects.create_user(username="thread", password=PASSWORD)
        connection.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    assert recorder.writes > 0
