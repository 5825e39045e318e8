"""What a table socket is sent after a move, whatever the game: only what changed on its own
screen since the last frame it got (games/platform/swaps.py), never another seat's private
parts, and the whole screen to a socket that has none to build on.

The sockets here are the real consumers, driven in this process as Daphne would drive them,
their frames kept instead of written: so a test decides which socket hears which update, and
the table's sockets share their renders as they do live (games/platform/table_sockets.py)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from oob_page import Page, fresh

from games.platform import presenters, services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game, GameAction, Table
from games.platform.table_sockets import table_sockets

pytestmark = pytest.mark.django_db

PRESETS = {"chudopoly": "chudopoly", "boardroom": "standard", "commonwealth": None}


class Socket:
    """One table socket of this process: its consumer, and the frames it was sent."""

    def __init__(self, code: str, viewer: Viewer | None) -> None:
        from games.platform.consumers import TableConsumer

        session = SessionStore()
        if viewer is not None:
            session[GUEST_SESSION_KEY] = viewer.guest_key
        session.create()
        self.viewer = viewer
        self.sent: list[str] = []
        self.consumer = TableConsumer()
        token = Table.objects.get(code=code).invite_token  # as the page opens it
        self.consumer.scope = {
            "type": "websocket", "path": f"/ws/table/{code}/",
            "query_string": f"invite={token}".encode(),
            "headers": [(b"host", b"localhost")], "url_route": {"kwargs": {"code": code}},
            "cookies": {}, "session": SessionStore(session_key=session.session_key),
            "user": AnonymousUser()}
        self.consumer.channel_name = f"test.{code}.{id(self)}"
        self.consumer.channel_layer = _NoLayer()
        self.consumer._send_soon = self._take  # type: ignore[method-assign]
        self.consumer._deliver_soon = lambda code, message: None  # type: ignore[method-assign]
        self.consumer._handle({"type": "websocket.connect"})

    def _take(self, message: dict[str, Any]) -> None:
        if message.get("text"):
            self.sent.append(message["text"])
        elif message.get("type") == "websocket.close":
            raise AssertionError("the socket was closed")

    def hear(self, game: Game) -> None:
        """The table's update for `game`'s version, as the group message brings it."""
        self.consumer._handle({"type": "table.update", "version": game.version,
                               "token": f"{game.pk}.{game.version}"})

    def take(self) -> str:
        frame = "\n".join(self.sent)
        self.sent.clear()
        return frame

    def close(self) -> None:
        table_sockets.remove(self.consumer.table.pk, self.consumer)


class _NoLayer:
    async def group_add(self, group: str, channel: str) -> None:
        return None

    async def group_discard(self, group: str, channel: str) -> None:
        return None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        return None


def guests(n: int) -> list[Viewer]:
    return [Viewer(user_id=None, guest_key=f"guest-swaps-{i}-{'0' * 20}") for i in range(n)]


def started(kind: str, players: list[Viewer]) -> Game:
    spec = {"preset": PRESETS[kind]} if PRESETS[kind] else {}
    table = services.table_create(viewer=players[0], name="Ann", ruleset_spec=spec,
                                  max_seats=len(players), turn_seconds=0, response_seconds=0,
                                  game_kind=kind)
    for viewer, name in zip(players[1:], ("Ben", "Cat", "Dan"), strict=False):
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=players[0])


def move(game: Game, rng_pick: int = 0) -> Game:
    """A legal move of a seat that owes one, as its bot would choose it."""
    engine = get_game(game.game_kind)
    game.refresh_from_db()
    deciding = engine.to_decide(game.state)
    seat = deciding[rng_pick % len(deciding)]
    action = engine.bot_action(engine.view(game.state, seat), "easy")
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def screen_now(game: Game, viewer: Viewer | None) -> dict[str, str]:
    table = Table.objects.get(pk=game.table_id)
    watcher = Viewer(user_id=None, guest_key=None)
    return presenters.render_all(presenters.load_screen(table, viewer or watcher), oob=True)


def board_ids(game: Game) -> list[str]:
    return ["version", *get_game(game.game_kind).board_templates]


def assert_page_is_fresh(page: Page, game: Game, viewer: Viewer | None) -> None:
    parts = screen_now(game, viewer)
    for name in get_game(game.game_kind).board_templates:
        assert page.element(name) == fresh(parts[name], name), name
    assert page.element("table-version") == fresh(parts["version"], "table-version")


@pytest.mark.parametrize("kind", list(PRESETS))
def test_the_swaps_of_every_push_leave_the_page_a_fresh_render_would_show(kind: str) -> None:
    players = guests(3)
    game = started(kind, players)
    sockets = [Socket(game.table.code, v) for v in (*players[:2], None)]
    pages = [Page(s.take()) for s in sockets]
    shown = [screen_now(game, s.viewer) for s in sockets]
    smaller = 0
    for n in range(25):
        game = move(game, n)
        sockets[0].hear(game)  # the first to hear it shows it to the others here
        for i, (socket, page) in enumerate(zip(sockets, pages, strict=True)):
            frame = socket.take()
            page.apply(frame)
            assert_page_is_fresh(page, game, socket.viewer)
            now = screen_now(game, socket.viewer)
            # Never more than the partials that changed, whole; most often much less.
            whole = sum(len(html) for name, html in now.items() if shown[i][name] != html)
            assert len(frame) <= whole
            smaller += len(frame) < whole / 2
            shown[i] = now
        if game.status != Game.Status.RUNNING:
            break
    assert smaller > n
    for socket in sockets:
        socket.close()


@pytest.mark.parametrize("kind", list(PRESETS))
def test_a_socket_whose_screen_is_older_than_the_others_gets_what_it_lacks_never_a_broken_page(
        kind: str) -> None:
    """Ben's socket hears nothing for three moves (a dropped update, a busy process): the push
    it gets then is made from the screen it was last sent, not from the others' newer one."""
    players = guests(2)
    game = started(kind, players)
    ann, ben = (Socket(game.table.code, v) for v in players)
    table_sockets.remove(game.table_id, ben.consumer)  # Ann's pushes pass Ben by
    ann_page, ben_page = Page(ann.take()), Page(ben.take())
    for n in range(3):
        game = move(game, n)
        ann.hear(game)
        ann_page.apply(ann.take())
    assert ben.sent == []
    ben.hear(game)
    ben_page.apply(ben.take())
    assert_page_is_fresh(ann_page, game, players[0])
    assert_page_is_fresh(ben_page, game, players[1])
    ann.close()


@pytest.mark.parametrize("kind", list(PRESETS))
def test_a_socket_with_no_screen_to_build_on_gets_the_whole_screen(kind: str) -> None:
    players = guests(2)
    game = started(kind, players)
    ann = Socket(game.table.code, players[0])
    first = ann.take()
    for name in board_ids(game):
        assert screen_now(game, players[0])[name] in first, name  # whole, byte for byte
    game = move(game)
    ann.hear(game)
    assert 'id="log" ' not in ann.take()  # then only what changed
    # A reconnect is a new socket: no base, the whole screen again.
    again = Socket(game.table.code, players[0])
    frame = again.take()
    for name in board_ids(game):
        assert screen_now(game, players[0])[name] in frame, name
    ann.close()
    again.close()


def test_a_socket_whose_seat_changed_gets_the_whole_screen() -> None:
    """A watcher who sits down (a screen of another seat) is sent every partial whole."""
    players = guests(3)
    spec = {"preset": "chudopoly"}
    table = services.table_create(viewer=players[0], name="Ann", ruleset_spec=spec,
                                  max_seats=3, turn_seconds=0, response_seconds=0)
    services.seat_join(table_id=table.pk, viewer=players[1], name="Ben")
    cat = Socket(table.code, players[2])
    cat.take()
    services.seat_join(table_id=table.pk, viewer=players[2], name="Cat")
    game = services.game_start(table_id=table.pk, viewer=players[0])
    cat.hear(game)
    frame = cat.take()
    for name in get_game("chudopoly").board_templates:
        assert screen_now(game, players[2])[name] in frame, name
    cat.close()


# --- the hidden-information audit of the shared renders -----------------------------------

# A move's value, in double quotes or single (a JSON move is written in single quotes, its
# own double quotes kept: chudopoly's `single_quoted`).
_ACTION_VALUES = (re.compile(r'name="action"[^>]*?\svalue="([^"]*)"'),
                  re.compile(r'value="([^"]*)"[^>]*?\sname="action"'),
                  re.compile(r"name=\"action\"[^>]*?\svalue='([^']*)'"),
                  re.compile(r"value='([^']*)'[^>]*?\sname=\"action\""))
_CARD_IDS = re.compile(r'data-card-id="(\d+)"')
# The games whose board (#status) reads alike for every seat and a watcher: what is a seat's
# own on it (its centre card, its result, its auto move) is in partials of its own.
SHARED_BOARD = ("boardroom", "commonwealth")
_LOG = re.compile(r'<(ol|li)\b[^>]*(?:id="log-lines"|hx-swap-oob="[a-z]+:#(?:log|line-))'
                  r'.*?</\1>|<li\b[^>]*\bid="line-[^"]*".*?</li>', re.S)


def actions_offered(frame: str) -> set[str]:
    return {value for pattern in _ACTION_VALUES for value in pattern.findall(frame)}


def private_cards(game: Game, seat: int) -> set[str]:
    """The cards in a Chudopoly seat's hand (other games keep no hands)."""
    if game.game_kind != "chudopoly":
        return set()
    return {str(c) for c in game.state["players"][seat]["hand"]}


@pytest.mark.parametrize("kind", list(PRESETS))
def test_two_seats_screens_of_one_move_keep_each_seats_private_parts_to_it(kind: str) -> None:
    """Ann's and Ben's sockets sit in one process and hear every move together, so whatever
    they see alike is rendered once and shared: nothing one of them alone may see (the moves
    their forms offer, the cards in their hand) is in a frame of the other's, and a board game's
    board, which both are sent alike, is the one a watcher is sent."""
    players = guests(2)
    game = started(kind, players)
    seats = [presenters.load_screen(game.table, v).seat for v in players]
    sockets = [Socket(game.table.code, v) for v in players]
    offered: list[set[str]] = [actions_offered(s.take()) for s in sockets]
    checked = secrets = 0
    for n in range(40):
        before = game.version
        game = move(game, n)
        sockets[n % 2].hear(game)
        frames = [s.take() for s in sockets]
        # The log is one render for both: its lines reach each seat alike, and what the
        # move's events tell one seat alone (its draw, an offer's terms) reaches the other in
        # no words at all, neither as it reads nor as its owner does.
        assert log_items(frames[0]) == log_items(frames[1])
        for me, other in ((0, 1), (1, 0)):
            told = unescape(re.sub(r"<[^>]+>", "", frames[me]))
            for line in private_lines(game, before, seats[other], seats[me]):
                assert line not in told, (me, line)
                secrets += 1
            mine = actions_offered(frames[me])
            offered[me] = mine | offered[me]
            # Another seat's offered moves, less any this seat is offered too (a pass, a roll).
            theirs = offered[other] - offered[me]
            assert not [a for a in theirs if f'value="{a}"' in frames[me]
                        or f"value='{a}'" in frames[me]]
            board = _LOG.sub("", frames[me])  # the log tells history, judged above
            hand = private_cards(game, seats[other])
            assert not hand & set(_CARD_IDS.findall(board)), (me, hand)
            checked += bool(theirs or hand)
        if kind in SHARED_BOARD:
            # The board both seats are sent is a watcher's, made from the spectator's view:
            # it can hold nothing private to either seat. So is every partial the game
            # declares alike for every seat (`seat_free_templates`: a quick push sends the
            # render of whichever screen of the move came first, presenters.quick_parts).
            alike = sorted({"status", *getattr(get_game(kind), "seat_free_templates", ())})
            watcher = screen_now(game, None)
            for screen in [screen_now(game, v) for v in players]:
                assert {name: screen[name] for name in alike} == {
                    name: watcher[name] for name in alike}
        if game.status != Game.Status.RUNNING:
            break
    assert checked, "the audit saw no private part to look for"
    assert secrets or kind == "boardroom", "the audit saw no private log line to look for"
    for socket in sockets:
        socket.close()


def test_chudopolys_players_partial_is_one_html_for_every_seat_and_a_watcher_with_nothing_private(
) -> None:
    """Every player's board is drawn alike for all four seats and a watcher (the viewer's own
    is marked by the page's CSS, from the seat marker): one render a move, shared. It offers
    no move (a seat's rearranges are in its own hand panel) and shows no card of any hand."""
    players = guests(4)
    game = started("chudopoly", players)
    table = Table.objects.get(pk=game.table_id)
    viewers = [*players, Viewer(user_id=None, guest_key=None)]
    partial = presenters.shared_partial("chudopoly/_players.html")
    assert partial is not None
    for n in range(60):
        # A fresh window: judge the sharing, not whether keying paid so far.
        partial.tried = partial.served = partial.resting = 0
        before = partial.renders
        screens = [presenters.render_all(presenters.load_screen(table, v)) for v in viewers]
        assert len({s["players"] for s in screens}) == 1, n
        assert partial.renders - before <= 1, n  # one render for the five screens, if any
        shared = screens[0]["players"]
        assert not actions_offered(shared) and "<form" not in shared
        hands = set().union(*(private_cards(game, seat) for seat in range(4)))
        assert not hands & set(_CARD_IDS.findall(shared)), n
        game = move(game, n)
        if game.status != Game.Status.RUNNING:
            break


def log_items(frame: str) -> dict[str, str]:
    """The log's list items a frame carries, by id."""
    return {m[1]: m[0] for m in re.finditer(r'<li\b[^>]*\bid="(line-[^"]*)"[^>]*>.*?</li>',
                                             frame, re.S)}


def private_lines(game: Game, since: int, owner: int, reader: int) -> list[str]:
    """The words of the events from version `since` on that only seat `owner` may read
    (redacted otherwise for a watcher), as `owner` reads them and as `reader` would."""
    engine = get_game(game.game_kind)
    names = [p["name"] for p in game.players]
    found = []
    for events in GameAction.objects.filter(game=game, version__gte=since).values_list(
            "events", flat=True):
        for public, own in zip(engine.events_for(events, None), engine.events_for(events, owner),
                               strict=True):
            for seat in (owner, reader) if own != public else ():
                line, shared = (engine.describe_event(e, viewer=seat, names=names,
                                                      ruleset=game.ruleset)
                                for e in (own, public))
                if line and line != shared:  # not "You put a card back." either way
                    found.append(line)
    return found


# --- what a socket keeps of its screen ------------------------------------------------------

def strings_reachable(root: object) -> set[str]:
    """Every str an object holds, through its containers and its objects' slots."""
    import gc

    seen: set[int] = set()
    found: set[str] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            found.add(obj)
        else:
            todo.extend(gc.get_referents(obj))
    return found


@pytest.mark.parametrize("kind", list(PRESETS))
def test_a_socket_keeps_no_html_of_its_partials_between_pushes(kind: str) -> None:
    """What a socket keeps of each partial (a board game's board, fifty kilobytes a socket
    as HTML) to build its next push on is its digests, ids and tags, not its HTML."""
    players = guests(2)
    game = started(kind, players)
    ann, ben = (Socket(game.table.code, v) for v in players)
    for n in range(4):
        game = move(game, n)
        ann.hear(game)
    for socket in (ann, ben):
        socket.take()
        assert socket.consumer.sent, "the socket keeps what it sent"
        for key, sent in socket.consumer.sent.items():
            kept = strings_reachable(sent)
            assert not [s for s in kept if "<" in s or len(s) > 64], key
    ann.close()
    ben.close()


@pytest.mark.parametrize("kind", list(PRESETS))
def test_sockets_sent_the_same_partial_share_one_reading_of_it_and_one_making_of_its_swaps(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two watchers see the same screen: each new partial is read once for both, both keep
    the same base of it, and the swaps from that base to the new partial are made once."""
    from games.platform import swaps

    players = guests(2)
    game = started(kind, players)
    watchers = [Socket(game.table.code, None) for _ in range(2)]
    made: list[tuple[int, int]] = []
    make = swaps.swaps

    # Counted where the consumer asks for them (a compiled swaps module calls its own
    # functions directly: games/platform/speedups.py): made when not made before.
    def counted(old: swaps.Base, new: swaps.Tree, screen: dict[str, swaps.Base] | None = None,
                apart: tuple[str, ...] = ()) -> list[str] | None:
        if swaps._made.get(old, new) is None:
            made.append((id(old.root), id(new.base.root)))
        return make(old, new, screen, apart)

    monkeypatch.setattr(swaps, "swaps", counted)
    reads = []
    for n in range(6):
        game = move(game, n)
        before = swaps.trees.reads
        watchers[0].hear(game)
        reads.append(swaps.trees.reads - before)
        frames = [w.take() for w in watchers]
        assert frames[0] == frames[1]
        first, second = (w.consumer.sent for w in watchers)
        assert first.keys() == second.keys()
        assert all(first[key] is second[key] for key in first)
    assert max(reads) <= len(watchers[0].consumer.sent)  # once a partial, not once a socket
    assert made and len(made) == len(set(made))
    for watcher in watchers:
        watcher.close()


def test_a_push_whose_changes_fail_sends_the_whole_screen_and_the_next_push_builds_on_it(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The swaps of a partial fail midway through a push (the version partial already done):
    the socket is sent the whole screen and forgets what it kept, so no push after it lacks
    the version or builds on a screen the page never got."""
    from games.platform import swaps

    players = guests(2)
    game = started("boardroom", players)
    ann = Socket(game.table.code, players[0])
    page = Page(ann.take())
    made = swaps.swaps
    failures = []

    def failing_once(*args: Any, **kwargs: Any) -> list[str] | None:
        if not failures:
            failures.append(1)
            raise RuntimeError("a diff that failed")
        return made(*args, **kwargs)

    monkeypatch.setattr(swaps, "swaps", failing_once)
    game = move(game)
    ann.hear(game)
    frame = ann.take()
    assert failures and "the changes of a push failed" in caplog.text
    for name in board_ids(game):
        assert screen_now(game, players[0])[name] in frame, name  # whole, byte for byte
    page.apply(frame)
    assert_page_is_fresh(page, game, players[0])
    game = move(game, 1)
    ann.hear(game)
    frame = ann.take()
    assert 'id="table-version"' in frame
    page.apply(frame)
    assert_page_is_fresh(page, game, players[0])
    ann.close()
