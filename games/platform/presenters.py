"""Turn a seat's view into what the table templates show, and render the table's partials.

Only `engine.view(state, seat)` and `engine.events_for(events, seat)` output enter here, plus
public table facts (names, bots, host, clocks). The raw state never reaches a template.

The same partials serve the first page load (HTTP) and every websocket push: each partial's root
element has a stable id and, when pushed, `hx-swap-oob="true"`. A consumer remembers what it sent
last and pushes only the partials whose HTML changed, so a half-ticked payment form survives
someone else's move, and of those only the elements that changed (games/platform/swaps.py).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from html import escape
from typing import Any

from django.core.signals import setting_changed
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.platform import clocks
from games.platform.bounded_cache import BoundedCache
from games.platform.identity import Viewer
from games.platform.interface import GameEngine, get_game
from games.platform.models import ChatMessage, Game, GameAction, Seat, Table
from games.platform.one_byte import one_byte
from games.platform.partial_reads import Reads, Unreadable, reads_of
from games.platform.rendering import (
    ENGINE_SETTINGS,
    SharedList,
    content_key,
    jinja_template,
    kept,
    own_bytes,
    render_plain,
    render_unlocalized,
)
from games.platform.services import Move, decision_token, out_place, ranked_table
from games.platform.wording import marked_line

LOG_LINES = 40
PRIVATE_LINES = 3  # a seat's newest lines only it may read, beside the log
CHAT_LINES = 50

LOBBY_TEMPLATE = "games/_lobby.html"


@dataclass
class TableScreen:
    """Everything one browser (a seat, or a spectator) may see of one table right now."""

    table: Table
    seats: list[Seat]
    me: Seat | None
    viewer: Viewer
    game: Game | None = None
    seat: int | None = None  # my engine seat in the current game
    view: dict[str, Any] | None = None
    names: list[str] = field(default_factory=list)
    ctx: dict[str, Any] = field(default_factory=dict)
    # What reads the same for every viewer of the rows this screen is built from: its
    # snapshot's `shared` (a screen built on its own has its own).
    shared: dict[str, Any] = field(default_factory=dict, repr=False)
    # Its seat's decision token, once render_all has worked it out (decision_of).
    decision: str | None = None

    @property
    def version(self) -> int:
        return self.game.version if self.game else 0


@dataclass(frozen=True)
class TableSnapshot:
    """The rows every browser at a table renders from, read once: the table, its seats, the
    current game and the tail of its log. A snapshot is read-only once built, so the sockets of
    one process that heard the same update can share it (games/platform/consumers.py)."""

    table: Table
    seats: tuple[Seat, ...]
    game: Game | None
    log_rows: tuple[tuple[int, list[Any]], ...]  # (version, events), oldest first
    # What every viewer's screen builds alike from these rows (public facts only: the seats'
    # clocks and ratings, the game's `board_public`), made by the first socket that needs it.
    shared: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def load_snapshot(table_id: int, *, game: Game | None = None) -> TableSnapshot:
    """Read a table's snapshot. `game` is the table's latest game as the caller just committed
    it (the mover's socket after its move): the heaviest row, its state, is not read back."""
    table = Table.objects.get(pk=table_id)
    seats = tuple(Seat.objects.filter(table_id=table_id).order_by("position"))
    if game is None:
        game = table.games.order_by("-number").first()
    return TableSnapshot(table=table, seats=seats, game=game,
                         log_rows=_log_rows(game) if game is not None else ())


def _log_rows(game: Game) -> tuple[tuple[int, list[Any]], ...]:
    # Only actions the game row already counts: the board and the log show the same moment
    # even when a move commits between the two reads.
    recent = (GameAction.objects.filter(game=game, version__lt=game.version)
              .order_by("-version").values_list("version", "events")[:LOG_LINES])
    return tuple((version, events or []) for version, events in reversed(list(recent)))


def snapshot_after_move(move: Move, previous: TableSnapshot | None) -> TableSnapshot:
    """The snapshot a move's own rows give, read from the database only where they fall short.

    The table and seats were read under the game's lock; the log is the previous snapshot's
    (log rows never change once written) plus the rows the move appended, when the previous
    one showed this game just before the move. Otherwise, and when the move ended the game,
    whatever is missing is read."""
    game = move.game
    if move.seats is None:
        return load_snapshot(game.table_id, game=game)
    rows: tuple[tuple[int, list[Any]], ...] | None = None
    shared: dict[str, Any] = {}
    if (previous is not None and previous.game is not None and previous.game.pk == game.pk
            and move.logged and previous.game.version == move.logged[0][0]
            and move.logged[-1][0] == game.version - 1):
        rows = (previous.log_rows + move.logged)[-LOG_LINES:]
        # The previous snapshot's lines, one for each of its rows, and the move's rows:
        # this snapshot's lines describe only the move's (_snapshot_actions).
        before = previous.shared.get("actions")
        if before is not None and len(before) == len(previous.log_rows):
            shared["log_before"] = (before, move.logged)
    if previous is not None and previous.game is not None and previous.game.pk == game.pk:
        # The previous snapshot's shared lists (its board's, its log), whose items' keys
        # this one's take for the items they list again (SharedList's `before`).
        shared["lists_before"] = _shared_lists(previous.shared)
    return TableSnapshot(table=move.table, seats=move.seats, game=game,
                         log_rows=rows if rows is not None else _log_rows(game),
                         shared=shared)


def _shared_lists(shared: Mapping[str, Any]) -> dict[str, SharedList]:
    """A snapshot's shared lists by name: its public board's ("board:tiles") and its log's."""
    lists: dict[str, SharedList] = {}
    public = shared.get("board")
    board = public[2] if public is not None else None
    if isinstance(board, dict):
        lists.update((f"board:{key}", value) for key, value in board.items()
                     if type(value) is SharedList)
    log = shared.get("log")
    if type(log) is SharedList:
        lists["log"] = log
    return lists


def load_screen(table: Table, viewer: Viewer) -> TableScreen:
    return screen_from(load_snapshot(table.pk), viewer)


def screen_from(snapshot: TableSnapshot, viewer: Viewer,
                log_cache: LogCache | None = None) -> TableScreen:
    """One viewer's screen from a snapshot. `log_cache` (one per socket) keeps the log lines
    already described for this viewer, so a push describes only the new actions."""
    seats = list(snapshot.seats)
    me = next((s for s in seats if viewer.owns(s)), None)
    game = snapshot.game
    screen = TableScreen(table=snapshot.table, seats=seats, me=me, viewer=viewer, game=game,
                         shared=snapshot.shared)
    if game is not None:
        engine = get_game(game.game_kind)
        screen.names = [p["name"] for p in game.players]
        if me is not None and me.game_seat is not None and _in_game(game, me):
            screen.seat = me.game_seat
        screen.view = _screen_view(engine, game.state, screen.seat)
        screen.ctx = build_context(screen, engine, snapshot.log_rows, log_cache,
                                   shared=snapshot.shared)
    return screen


def _screen_view(engine: GameEngine, state: Any, seat: int | None) -> Any:
    """A seat's view for its screen, which only reads it: the game's `screen_view` where it
    has one (parts shared with other views), else its `view`."""
    shared_view = getattr(engine, "screen_view", None)
    return shared_view(state, seat) if callable(shared_view) else engine.view(state, seat)


def _in_game(game: Game, seat: Seat) -> bool:
    players = game.players
    return (seat.game_seat is not None and seat.game_seat < len(players)
            and players[seat.game_seat].get("seat_id") == seat.pk)


# --- from a view to template data -------------------------------------------------------------


def _name(names: Sequence[str], seat: Any, me: int | None, *, subject: bool = False) -> str:
    if seat is not None and seat == me:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "someone"


def _deadline_for(game: Game, seat: int | None) -> str | None:
    if seat is None or game.status != Game.Status.RUNNING:
        return None
    entry = (game.deadlines or {}).get(str(seat))
    return entry.get("deadline") if isinstance(entry, Mapping) else None


def _paused_turn_clock(game: Game, engine: GameEngine, view: Mapping[str, Any]
                       ) -> tuple[int | None, str | None]:
    """(turn holder, "m:ss" left) while their turn clock waits for answers
    (games/platform/clocks.py)."""
    paused = (game.deadlines or {}).get("paused")
    if game.status != Game.Status.RUNNING or not isinstance(paused, Mapping):
        return None, None
    left = max(0, round(float(paused.get("remaining") or 0)))
    return engine.clock_context(view).get("turn_seat"), f"{left // 60}:{left % 60:02d}"


def build_context(screen: TableScreen, engine: GameEngine,
                  log_rows: Sequence[tuple[int, list[Any]]] | None = None,
                  log_cache: LogCache | None = None,
                  shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The template context for one seat: the game's board context (built from the view only)
    plus what every game shares: names, bots, clocks, the log and the result. `shared` (a
    snapshot's) keeps what reads the same for every viewer, built by the first one."""
    view = screen.view or {}
    game = screen.game
    assert game is not None
    me = screen.seat
    names = screen.names
    public = shared.get("board") if shared is not None else None
    if public is None:
        public = _public_board(screen, engine)
        if shared is not None:
            public = shared.setdefault("board", public)
    seats_meta, ratings, board, paused_seat, paused_left = public
    result = view.get("result") or game.result
    # The result's places as every viewer reads them (a partial shared by every seat marks
    # the viewer's own by CSS, from its seat number), and as this seat's own ("is_me").
    public_placements = [
        {"place": place, "seat": seat_no, "name": _name(names, seat_no, None),
         "rating": ratings["seats"].get(seat_no)}
        for place, seat_no in enumerate((result or {}).get("placements") or [], start=1)
    ]
    placements = [{**p, "is_me": p["seat"] == me} for p in public_placements]
    if board is None:
        ctx = engine.board_context(view, me=me, names=names, seats=seats_meta)
    else:
        ctx = engine.board_context(view, me=me, names=names, seats=seats_meta, public=board)
    for p in ctx.get("players") or []:
        if "rating" not in p:  # a shared board's players carry theirs (seats_meta)
            p["rating"] = ratings["seats"].get(p.get("seat"))
    actions = shared.get("actions") if shared is not None else None
    if actions is None:
        actions = _snapshot_actions(game, engine, names, log_rows, log_cache, shared)
    # The log's lines read alike for every viewer: one list a snapshot, whose key a shared
    # render writes once (partial_reads: a SharedList's content, kept on it).
    log = shared.get("log") if shared is not None else None
    if log is None:
        before = shared.get("lists_before") if shared is not None else None
        log = SharedList(shared_lines(actions), before=before.get("log") if before else None)
        if shared is not None:
            log = shared.setdefault("log", log)
            # Both the board and the log took theirs (the board is built first).
            shared.pop("lists_before", None)
    ctx.update({
        "rated": ratings["rated"], "replay_url": ratings["replay_url"],
        "charts_url": ratings["charts_url"],
        "view": view, "me": me, "result": result, "placements": placements,
        "public_placements": public_placements,
        "winner_name": (_name(names, result.get("winner"), me, subject=True)
                        if result and result.get("winner") is not None else None),
        "log": log,
        "log_mine": _private_lines(actions, me, shared),
        "my_deadline": _deadline_for(game, me),
        # The auto move toggle (games with an engine `auto_move`), for a seat still playing.
        "auto_move": ({"on": bool(screen.me.auto_move)}
                      if screen.me is not None and me is not None and result is None
                      and callable(getattr(engine, "auto_move", None))
                      and out_place(game, me) is None else None),
        "my_paused": paused_left if me is not None and me == paused_seat else None,
        # Also in the lobby's context; here too, so a board partial that shows it reads it
        # from the board context and needs no lobby (render_all).
        "is_host": screen.me is not None and screen.me.pk == screen.table.host_id,
        # The same once the game has a result, None before: a result banner's rematch line
        # reads it, and a partial reading it is shared by host and guests while play lasts.
        "host_at_result": (screen.me is not None and screen.me.pk == screen.table.host_id
                           if result else None),
        "finished": game.status == Game.Status.FINISHED,
    })
    return ctx


def _public_board(screen: TableScreen, engine: GameEngine) -> tuple[Any, ...]:
    """What every viewer of a snapshot builds alike: the seats' public facts (names, bots,
    clocks, ratings), the ladder's facts and, for a game with `board_public`, its part of the
    board built from the spectator's view (so nothing private to a seat can be in it)."""
    game = screen.game
    assert game is not None
    names = screen.names
    by_seat = {s.game_seat: s for s in screen.seats if s.game_seat is not None
               and _in_game(game, s)}
    # The turn holder is public: any viewer's view tells it.
    paused_seat, paused_left = _paused_turn_clock(game, engine, screen.view or {})
    # The whole lot's deadline while an auction waits for its first bid (clocks.py).
    lot = clocks.lot_deadline(game.deadlines) if game.status == Game.Status.RUNNING else None
    ratings = _table_ratings(game)
    seats_meta = [
        {"name": names[i], "is_bot": bool(by_seat.get(i) and by_seat[i].is_bot),
         "is_away": bool(by_seat.get(i) and by_seat[i].away),
         "deadline": _deadline_for(game, i),
         "paused": paused_left if i == paused_seat else None,
         "lot_deadline": lot}
        for i in range(len(names))
    ]
    board = None
    if callable(getattr(engine, "board_public", None)):
        for i, meta in enumerate(seats_meta):
            meta["rating"] = ratings["seats"].get(i)
        board = engine.board_public(_screen_view(engine, game.state, None), names=names,
                                    seats=seats_meta)
        if isinstance(board, dict):
            # Its lists are read by every viewer's render as they are: each keeps its key
            # for the board's one render a process (`include_each`), and takes the keys of
            # the items the previous snapshot's listed too (SharedList's `before`).
            before = screen.shared.get("lists_before") or {}
            board = {key: SharedList(value, before=before.get(f"board:{key}"))
                     if type(value) is list else value for key, value in board.items()}
    return seats_meta, ratings, board, paused_seat, paused_left


def _table_ratings(game: Game) -> dict[str, Any]:
    """The ladder's facts for the page (rated badge, ratings by name, changes at the end)."""
    from ladder.table_ratings import table_ratings

    return table_ratings(game)


@dataclass(frozen=True)
class LogLine:
    """One log line: its words as a watcher reads them, the version of the action that made it
    (with its place among that action's lines, so the page can tell new lines from old), the
    redacted events behind it (for card peeks) and, by seat, the whole line as a seat reads it
    where that differs ("You paid Bea 5M." for "Ann paid Bea 5M."). A table's log is the same
    lines for every viewer, rendered once (`marked`: each seat's own words shown to it alone);
    `serial` names it for the shared renders' keys."""

    text: str
    version: int
    index: int = 0
    events: tuple[Mapping[str, Any], ...] = ()
    # Its key and list-item HTML once rendered, by how: with and without card peeks
    # (Chudopoly's log_items) or a game's line template (log_lines): a line is made once per
    # process and action (build_log), and each push lists all of them.
    rendered: dict[bool | str, tuple[str, str]] = field(default_factory=dict, compare=False,
                                                        repr=False)
    own: Mapping[int, str] = field(default_factory=dict, compare=False)
    # Its number among the lines this process made (build_log), which name it for good.
    serial: int | None = field(default=None, compare=False)

    @cached_property
    def key(self) -> str:
        return f"{self.version}.{self.index}"

    @property
    def dom_id(self) -> str:
        """Its list item's id on the page: a push adds and drops lines by it
        (games/platform/swaps.py)."""
        return f"line-{self.version}-{self.index}"

    @cached_property
    def marked(self) -> SafeString:
        """Its words as HTML, each seat's own words marked for it (wording.marked_line), one
        byte a character (one_byte: a log's words carry − and “ ”)."""
        return SafeString(one_byte(marked_line(self.text, self.own) if self.own
                                   else escape(self.text)))

    def read_by(self, seat: int | None) -> str:
        """The line as seat `seat` reads it on its screen (a watcher: None)."""
        return self.own.get(seat, self.text) if seat is not None else self.text

    @cached_property
    def partial_key(self) -> bytes:
        """What a shared render's key writes for it (partial_reads): a line never changes,
        so the process's number for it names it; one made otherwise, by its content."""
        if self.serial is not None:
            return f"!LogLine!{self.serial}".encode()
        return b"!LogLine!" + content_key((self.text, self.version, self.index,
                                           dict(self.own), list(self.events)))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class ActionLines:
    """One action's log lines: those every viewer reads (`shared`) and, by seat, the ones only
    that seat may read (the cards it drew, the terms of an offer made to it or by it), each
    with the place (`index`) of the shared line it says more than."""

    shared: tuple[LogLine, ...]
    private: Mapping[int, tuple[LogLine, ...]]

    def read_by(self, seat: int | None) -> list[str]:
        """The action's lines as seat `seat` reads them, its own in their places (the whole
        log's page, which only its viewer sees)."""
        mine = {line.index: line.text for line in self.private.get(seat, ())} \
            if seat is not None else {}
        return [mine.get(line.index) or line.read_by(seat) for line in self.shared]


LogCache = dict[tuple[int, int], ActionLines]

# Every action's lines, made once per process: each socket of a table lists the same objects
# (so a render of the log is keyed by their numbers). By the action's content, not its game's
# id and version alone: a database made again (tests) numbers its games again. Each socket
# keeps the lines of the rows it shows (its LogCache), so this needs to hold an action only
# until the table's sockets have all asked for it, the same push: the newest few thousand.
_ACTION_LINES: BoundedCache[ActionLines] = BoundedCache(2048, 4 * 1024 * 1024)
_LINE_SERIALS = itertools.count()


def build_log(game: Game, engine: GameEngine, names: Sequence[str], *,
              rows: Sequence[tuple[int, list[Any]]] | None = None,
              cache: LogCache | None = None) -> list[LogLine]:
    """The last LOG_LINES lines of the game's log, the same for every viewer."""
    return shared_lines(_actions(game, engine, names, rows, cache))


def shared_lines(actions: Sequence[ActionLines]) -> list[LogLine]:
    return [line for action in actions for line in action.shared][-LOG_LINES:]


def private_lines(actions: Sequence[ActionLines], me: int | None,
                  newest: int = PRIVATE_LINES) -> list[LogLine]:
    """Seat `me`'s newest lines, of these actions', that only it may read: newest first."""
    if me is None:
        return []
    mine: list[LogLine] = []
    for action in reversed(actions):
        mine.extend(reversed(action.private.get(me, ())))
        if len(mine) >= newest:
            break
    return mine[:newest]


def _snapshot_actions(game: Game, engine: GameEngine, names: Sequence[str],
                      rows: Sequence[tuple[int, list[Any]]] | None, cache: LogCache | None,
                      shared: dict[str, Any] | None) -> list[ActionLines]:
    """The lines of a snapshot's log rows, one for each, the same for every viewer: made
    once a snapshot (kept in its `shared`), from the previous snapshot's and the move's rows
    when the snapshot was made after a move (snapshot_after_move), else row by row (`cache`,
    the socket's, keeps the rows it described before)."""
    if shared is None:
        return _actions(game, engine, names, rows, cache)
    before = shared.pop("log_before", None)
    if before is not None and rows is not None:
        earlier, logged = before
        actions = (list(earlier) + _actions(game, engine, names, logged, None))[-LOG_LINES:]
        if len(actions) != len(rows):  # not the rows it stands for: described anew
            actions = _actions(game, engine, names, rows, cache)
    else:
        actions = _actions(game, engine, names, rows, cache)
    return shared.setdefault("actions", actions)


def _private_lines(actions: Sequence[ActionLines], me: int | None,
                   shared: dict[str, Any] | None) -> list[LogLine]:
    """`private_lines(actions, me)`, found for every seat in one walk of a snapshot's
    actions (kept in its `shared`, beside the actions): most actions have no private line,
    and a seat with fewer than PRIVATE_LINES of them walked the whole log on every push."""
    if me is None or shared is None or shared.get("actions") is not actions:
        return private_lines(actions, me)
    by_seat = shared.get("private_lines")
    if by_seat is None:
        found: dict[int, list[LogLine]] = {}
        for action in reversed(actions):
            for seat, lines in action.private.items():
                mine = found.setdefault(seat, [])
                if len(mine) < PRIVATE_LINES:
                    mine.extend(reversed(lines))
        by_seat = shared["private_lines"] = {
            seat: lines[:PRIVATE_LINES] for seat, lines in found.items()}
    return list(by_seat.get(me, ()))


def _actions(game: Game, engine: GameEngine, names: Sequence[str],
             rows: Sequence[tuple[int, list[Any]]] | None,
             cache: LogCache | None) -> list[ActionLines]:
    if rows is None:
        recent = (GameAction.objects.filter(game=game).order_by("-version")
                  .values_list("version", "events")[:LOG_LINES])
        rows = [(version, events or []) for version, events in reversed(list(recent))]
    actions: list[ActionLines] = []
    game_id = game.pk  # `pk` is a property: read once, not once per row
    for version, events in rows:
        key = (game_id, version)
        described = cache.get(key) if cache is not None else None
        if described is None:
            made = (*key, content_key((events, names, game.ruleset)))
            described = _ACTION_LINES.get(made)
            if described is None:
                described = _shared_action(game, engine, names, version, events)
                _ACTION_LINES.put(made, described)
            if cache is not None:
                cache[key] = described
        actions.append(described)
    if cache is not None and rows and len(cache) > len(rows):
        # Lines older than the window are never shown again. Every row shown is in the cache
        # now, so a longer cache holds some that are not.
        oldest = rows[0][0]
        for stale in [k for k in cache if k[1] < oldest or k[0] != game_id]:
            del cache[stale]
    return actions


def _shared_action(game: Game, engine: GameEngine, names: Sequence[str], version: int,
                   events: list[Any]) -> ActionLines:
    """An action's lines as a watcher reads them, each with the words every seat reads
    otherwise, and each seat's lines of the events redacted otherwise for it."""
    ruleset = game.ruleset
    seats = range(len(names))
    public = engine.events_for(events, None)
    concerns = _event_seats(engine)
    theirs: dict[int, list[Any]] = {}
    shared: list[LogLine] = []
    private: dict[int, list[LogLine]] = {}
    for at, event in enumerate(public):
        line = engine.describe_event(event, viewer=None, names=names, ruleset=ruleset)
        if not line:
            continue
        own = {}
        # The seats the event concerns (every seat, for a game that cannot say): any other
        # seat reads it as a watcher does, and its line is the watcher's.
        named = concerns(event) if concerns is not None else None
        for seat in seats if named is None else [s for s in seats if s in named]:
            said = engine.describe_event(event, viewer=seat, names=names, ruleset=ruleset)
            if said and said != line:
                own[seat] = said
            seen_all = theirs.get(seat)
            if seen_all is None:
                seen_all = theirs[seat] = engine.events_for(events, seat)
            seen = seen_all[at]
            # Only a line that says more than the shared one (not "You put a card back.")
            if seen != event and (secret := engine.describe_event(
                    seen, viewer=seat, names=names, ruleset=ruleset)) not in (
                        None, "", said or line):
                private.setdefault(seat, []).append(
                    LogLine(secret, version, len(shared), (seen,)))
        shared.append(LogLine(line, version, len(shared), (event,), own=own,
                              serial=next(_LINE_SERIALS)))
    return ActionLines(tuple(shared), {seat: tuple(lines) for seat, lines in private.items()})


def _event_seats(engine: GameEngine) -> Callable[[Any], Collection[int] | None] | None:
    """The game's optional `event_seats` hook (interface.py), or None."""
    hook = getattr(engine, "event_seats", None)
    return hook if callable(hook) else None


# --- rendering --------------------------------------------------------------------------------


def lobby_context(screen: TableScreen) -> dict[str, Any]:
    table = screen.table
    host_seat = next((s for s in screen.seats if s.pk == table.host_id), None)
    is_host = screen.me is not None and host_seat is not None and screen.me.pk == host_seat.pk
    free = table.max_seats - len(screen.seats)
    joinable = table.status in (Table.Status.OPEN, Table.Status.FINISHED) and free > 0
    engine = get_game(table.game_kind)
    humans = sum(1 for s in screen.seats if not s.is_bot)
    # One player against bots, from the first move to the result (and its rematches): no
    # invite link and no "private", and the same words at game over as during the game.
    bot_game = (table.status in (Table.Status.PLAYING, Table.Status.FINISHED) and humans == 1
                and len(screen.seats) > 1)
    return {
        # Games with their own clocks and leaving rules (games/platform/clocks.py).
        "own_clocks": (None if not callable(getattr(engine, "clock_seconds", None))
                       else "no clocks against bots" if bot_game
                       else getattr(engine, "clock_words", "the game's own clocks")),
        "leave_bankrupts": getattr(engine, "leave_actions", None) is not None,
        # A game against bots is saved for its player: "Continue on another device".
        "bot_game": bot_game,
        "paused": table.paused_at is not None,
        # Out of a game the others play on: the player's place, and watch or leave.
        "out_place": out_place(screen.game, screen.seat),
        "seat_count": screen.game.seat_count if screen.game is not None else 0,
        "table": table, "seats": screen.seats, "me": screen.me, "is_host": is_host,
        "host_seat": host_seat, "free_seats": max(0, free), "joinable": joinable,
        "can_start": is_host and table.status == Table.Status.OPEN and len(screen.seats) >= 2,
        "can_rematch": is_host and table.status == Table.Status.FINISHED
        and len(screen.seats) >= 2,
        "lobby_open": table.status in (Table.Status.OPEN, Table.Status.FINISHED),
        "free_range": range(max(0, free)),
        "invite_path": table.invite_path,
        "viewer_is_guest": screen.viewer.user_id is None,
        "bot_levels": list(get_game(screen.table.game_kind).bot_levels().items()),
        # A casual host may seat bots; a ranked table has none (asked only when it matters).
        "can_add_bots": is_host and free > 0
        and table.status in (Table.Status.OPEN, Table.Status.FINISHED)
        and not ranked_table(table),
        "rematch": _rematch_context(screen),
    }


REMATCH_WORDS = {"yes": "accepted", "no": "declined", None: "deciding…"}


def _rematch_context(screen: TableScreen) -> dict[str, Any] | None:
    """An open rematch offer: who has answered what, and whether this viewer is still asked."""
    offer = screen.table.rematch or {}
    if not offer or screen.table.status != Table.Status.FINISHED:
        return None
    answers = offer.get("answers") or {}
    humans = [s for s in screen.seats if not s.is_bot]
    me = screen.me
    return {
        "deadline": offer.get("deadline"),
        "rows": [{"name": s.name, "answer": answers.get(str(s.pk)),
                  "words": REMATCH_WORDS.get(answers.get(str(s.pk)), "deciding…"),
                  "me": me is not None and s.pk == me.pk} for s in humans],
        "asked": me is not None and not me.is_bot and str(me.pk) not in answers,
        "mine": answers.get(str(me.pk)) if me is not None else None,
    }


def origin_of(scope: Mapping[str, Any]) -> str:
    """The site's address as a websocket's browser reached it ("https://host:port"), so a
    pushed lobby shows the invite link whole, as the page did."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    if not host or any(c in host for c in ' "<>/\\'):
        return ""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{host}"


def render_partial(template: str, screen: TableScreen, *, oob: bool,
                   extra: Mapping[str, Any] | None = None,
                   lobby: Mapping[str, Any] | None = None) -> str:
    context = {**_base_context(screen, oob),
               **(lobby if lobby is not None else lobby_context(screen)), **(extra or {})}
    return render_unlocalized(template, context)


def lobby_key(screen: TableScreen, extra: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """Everything the lobby partial shows (templates/games/_lobby.html): equal keys, equal HTML.
    The table's and seats' part is made once per snapshot, for all its viewers."""
    return _lobby_key(screen.shared, screen.table, screen.seats, screen.game, screen.seat,
                      screen.me, screen.viewer, extra)


def _lobby_key(shared: dict[str, Any], table: Table, seats: Sequence[Seat], game: Game | None,
               seat: int | None, me: Seat | None, viewer: Viewer,
               extra: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """`lobby_key` of a screen with these parts, `shared` its snapshot's (quick_parts asks
    without a screen)."""
    public = shared.get("lobby_key")
    if public is None:
        t = table
        public = (t.pk, t.code, t.status, t.host_id, t.max_seats, t.turn_seconds,
                  t.response_seconds, t.is_public, t.ruleset_label,
                  content_key(t.rematch) if t.rematch else None, t.paused_at,
                  tuple((s.pk, s.position, s.name, s.is_bot, s.bot_level, s.away, s.away_reason)
                        for s in seats))
        shared["lobby_key"] = public
    return (public, out_place(game, seat), me.pk if me else None, viewer.user_id is None,
            tuple(sorted((extra or {}).items())))


PartialMemo = dict[str, tuple[tuple[Any, ...], str]]


def render_all(screen: TableScreen, *, oob: bool = True,
               extra: Mapping[str, Any] | None = None,
               memo: PartialMemo | None = None) -> dict[str, str]:
    """Every partial of the table page, by element id. `extra` carries per-browser values the
    lobby forms need (`csrf_value`, `remembered_name`). With a socket's `memo`, the lobby
    partial is rendered again only when what it shows changed (during a game, almost never).
    """
    screen.decision = decision_of(screen)
    out: dict[str, str] = {
        "me": seat_marker(screen.seat, oob=oob),
        "log_mine": private_log(screen.ctx.get("log_mine") or (), oob=oob),
        "version": version_inputs(screen.version, screen.decision, oob=oob,
                                  now=None if oob else _epoch_now())}
    # The lobby's context goes into the lobby's and the other partials' contexts, made
    # once, and only if one of those is rendered (during a game most pushes render neither).
    lobby: dict[str, Any] | None = None

    def render(template: str) -> str:
        nonlocal lobby
        if lobby is None:
            lobby = lobby_context(screen)
        return render_partial(template, screen, oob=oob, extra=extra, lobby=lobby)

    key = (oob, *lobby_key(screen, extra))
    if memo is not None and memo.get("lobby", ((), ""))[0] == key:
        out["lobby"] = memo["lobby"][1]
    else:
        out["lobby"] = render(LOBBY_TEMPLATE)
        if memo is not None:
            memo["lobby"] = (key, out["lobby"])
    # The board partials belong to the game; each template renders an empty element with its
    # id before the start, so the page always has every swap target. A Jinja2 partial is
    # rendered once per distinct values it reads (found from its source: partial_reads.py)
    # and process, and shared by every socket whose screen shows the same.
    engine = get_game(screen.table.game_kind)
    base: dict[str, Any] | None = None
    # The partials every seat reads alike, as the snapshot's first screen rendered them:
    # neither keyed nor looked up again (quick_parts).
    free = screen.shared.get("seat_free") if oob else None
    if free is not None and not _running(screen):
        free = None
    for name, template in engine.board_templates.items():
        if free is not None and name in free:
            out[name] = free[name]
            continue
        partial = shared_partial(template)
        if partial is None:
            out[name] = render(template)
            continue
        if base is None:
            base = _base_context(screen, oob)
        names = partial.reads.names
        reads_extra = extra is not None and not names.isdisjoint(extra)
        if partial.lobby_reads == _ME_ONLY and not reads_extra:
            # Of the lobby's values only the viewer's seat (`me is none`): the lobby's
            # context, made per screen, is not needed for it.
            context = {**base, "me": screen.me}
        elif partial.lobby_reads or reads_extra:
            if lobby is None:
                lobby = lobby_context(screen)
            context = {**base, **lobby, **(extra or {})}
        else:
            # It reads neither: the lobby's and the browser's values would change nothing.
            context = base
        values = partial.key(context)
        if values is None:  # a value that is not plain data, or a partial not shared now
            out[name] = render_unlocalized(template, context)
            continue
        # Copied to its own size before it is looked up (orjson's bytes keep the buffer they
        # were written into): kept, it is the very key the look-up hashed, not a copy hashed
        # again (most keys looked up are kept: a seat-free partial's are rarely served).
        key = (template, oob, own_bytes(values))
        html = shared_partials.kept(key)
        if html is None:
            html = shared_partials.put(key, render_plain(template, context))
            partial.renders += 1
        else:
            partial.served += 1
        # A push's partial is the kept string itself, to every socket it is served to: its
        # hash is worked out once and its tree found by identity (consumers._changes,
        # swaps.trees), not a copy hashed and compared anew per socket. The page prints it
        # as safe HTML.
        out[name] = html if oob else SafeString(html)
    if oob and "seat_free" not in screen.shared and _running(screen):
        free = _seat_free(engine, extra)
        if free:
            # What every seat's push of this snapshot shows alike (quick_parts).
            screen.shared["seat_free"] = {name: out[name] for name in free}
    return out


def _running(screen: TableScreen) -> bool:
    game = screen.game
    return (game is not None and game.status == Game.Status.RUNNING and not game.result
            and screen.ctx.get("result") is None)


def _seat_free(engine: GameEngine, extra: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The game's board partials that read alike for every seat while it runs
    (`seat_free_templates`), in the page's order: each a shared Jinja2 partial reading
    nothing of the lobby's or the browser's values. Empty for a game without
    `seat_screen_key`."""
    names = getattr(engine, "seat_free_templates", None)
    if not names or not callable(getattr(engine, "seat_screen_key", None)):
        return ()
    free = []
    for name, template in engine.board_templates.items():
        if name not in names:
            continue
        partial = shared_partial(template)
        if (partial is None or partial.lobby_reads
                or (extra is not None and not partial.reads.names.isdisjoint(extra))):
            return ()
        free.append(name)
    return tuple(free)


# `_seat_free(engine, None)` by engine, with the judged partials it was found from (_SHARED).
_SEAT_FREE_ALONE: dict[int, tuple[dict[str, SharedPartial | None], GameEngine,
                                  tuple[str, ...]]] = {}


def _seat_free_alone(engine: GameEngine) -> tuple[str, ...]:
    """`_seat_free(engine, None)`, found once per engine while the partials judged stay
    (every push of a running game asks it, for its seat's mark)."""
    found = _SEAT_FREE_ALONE.get(id(engine))
    if found is not None and found[0] is _SHARED and found[1] is engine:
        return found[2]
    free = _seat_free(engine, None)
    _SEAT_FREE_ALONE[id(engine)] = (_SHARED, engine, free)
    return free


@dataclass(frozen=True)
class SeatMark:
    """What a socket's seat's own partials were last rendered from, beside the partials every
    seat reads alike: the game's `seat_screen_key` of its view, its private log lines, the
    players' names, the lobby's key and its auto move toggle (build_context's "auto_move",
    which the lobby does not show). The next push of a later snapshot of the same game
    with the same mark shows the same own partials (quick_parts). Kept by its socket only."""

    game_id: int
    seat: int
    seat_pk: int
    names: tuple[str, ...]
    own: Any
    private: tuple[LogLine, ...]
    lobby: tuple[Any, ...]
    auto_move: bool = False


def seat_mark(screen: TableScreen, lobby: tuple[Any, ...] | None) -> SeatMark | None:
    """The mark of a screen render_all rendered for a push (`lobby`: the lobby partial's key
    it kept), or None when the next push must build its screen whatever happens: a watcher,
    no running game, a result, a game without `seat_screen_key` or one that cannot say."""
    game = screen.game
    if (game is None or screen.seat is None or screen.me is None or lobby is None
            or not _running(screen)):
        return None
    engine = get_game(game.game_kind)
    if not _seat_free_alone(engine):
        return None
    own = engine.seat_screen_key(game.state, screen.seat, screen.view)
    if own is None:
        return None
    return SeatMark(game.pk, screen.seat, screen.me.pk, tuple(screen.names), own,
                    tuple(screen.ctx.get("log_mine") or ()), lobby, bool(screen.me.auto_move))


def quick_parts(snapshot: TableSnapshot, viewer: Viewer, before: SeatMark | None,
                extra: Mapping[str, Any] | None) -> dict[str, str] | None:
    """A push's partials, without a screen, for a seat whose own partials read as its socket's
    last push showed them (`before`, that push's mark): its version line and the partials
    every seat reads alike, as another screen of the same snapshot rendered them
    (render_all's "seat_free"); its own partials, the seat marker and the lobby are left
    out, as their changes would be empty. None when its screen must be built: something of
    its own changed, or no screen of the snapshot was rendered yet.

    Nothing of another seat's comes with it: the parts every seat reads alike hold nothing
    private to any (interface.py), and the version line is this seat's own."""
    if before is None:
        return None
    found = _quick(snapshot, viewer, (before,), extra)
    return found[1] if found is not None else None


def _quick(snapshot: TableSnapshot, viewer: Viewer, marks: Sequence[SeatMark],
           extra: Mapping[str, Any] | None) -> tuple[SeatMark, dict[str, str]] | None:
    """The first of `marks` (all of one socket's seat) that the seat's screen of `snapshot`
    would have, with quick_parts's partials; None when none holds or no screen of the
    snapshot was rendered yet."""
    shared = snapshot.shared
    free = shared.get("seat_free")
    actions = shared.get("actions")
    game = snapshot.game
    if (free is None or actions is None or game is None
            or game.status != Game.Status.RUNNING or game.result):
        return None
    me = next((s for s in snapshot.seats if viewer.owns(s)), None)
    if me is None or not _in_game(game, me):
        return None
    seat = me.game_seat
    marks = [m for m in marks if m.game_id == game.pk and m.seat_pk == me.pk and m.seat == seat
             and m.auto_move == bool(me.auto_move)]
    if not marks:
        return None
    # The players' names, alike for every seat of the snapshot: made once on it.
    names = shared.get("names")
    if names is None:
        names = shared["names"] = tuple([p["name"] for p in game.players])
    engine = get_game(game.game_kind)
    own = engine.seat_screen_key(game.state, seat)
    if own is None:
        return None
    marks = [m for m in marks if m.names == names and m.own == own]
    if not marks:
        return None
    private = tuple(_private_lines(actions, seat, shared))
    # The lobby's key as its screen would make it, with no screen made for it.
    lobby = (True, *_lobby_key(shared, snapshot.table, snapshot.seats, game, seat, me, viewer,
                               extra))
    mark = next((m for m in marks if m.private == private and m.lobby == lobby), None)
    if mark is None:
        return None
    decision = decision_token(engine, game.state, seat)
    return mark, {"version": version_inputs(game.version, decision, oob=True, now=None), **free}


# A socket's own partials as it last rendered them for each of its seat's last few marks
# (KEPT_MARKS), with the order render_all gave every partial (keep_own, quick_push).
KeptOwn = list[tuple[SeatMark, tuple[str, ...], dict[str, str]]]
KEPT_MARKS = 2


def keep_own(kept: KeptOwn, mark: SeatMark | None, screen: TableScreen,
             parts: Mapping[str, str]) -> None:
    """Keep `parts`' own partials (all but the version line and the partials every seat reads
    alike) by `mark`, the mark of the screen they were rendered from, among a socket's last
    KEPT_MARKS: a seat charged and then waiting again has its waiting screen's mark back."""
    if mark is None or screen.game is None:
        return
    engine = get_game(screen.game.game_kind)
    free = _seat_free_alone(engine)
    # render_all's partials only: a push's others (the chat log of a whole screen) are not
    # the screen's to keep.
    order = tuple(name for name in parts if name in _PAGE_PARTS or name in engine.board_templates)
    own = {name: parts[name] for name in order if name != "version" and name not in free}
    kept[:] = [k for k in kept if k[0] != mark][-(KEPT_MARKS - 1):]
    kept.append((mark, order, own))


_PAGE_PARTS = frozenset({"me", "log_mine", "version", "lobby"})  # render_all's, but the board's


def quick_push(snapshot: TableSnapshot, viewer: Viewer, before: SeatMark | None,
               kept: KeptOwn, extra: Mapping[str, Any] | None
               ) -> tuple[dict[str, str], SeatMark] | None:
    """quick_parts's partials and `before`, or, for a seat whose own partials read as they did
    on a screen its socket rendered before the last (a seat that answered a charge and waits
    again), the same with its own partials as that screen rendered them (their changes from
    the socket's last push are what goes) and that screen's mark. None when its screen must
    be built. Nothing of another seat's: its own partials are this socket's own renders."""
    marks = [before] if before is not None else []
    marks += [k[0] for k in kept if k[0] is not before]
    if not marks:
        return None
    found = _quick(snapshot, viewer, marks, extra)
    if found is None:
        return None
    mark, quick = found
    if mark is before:
        return quick, mark
    order, own = next((k[1], k[2]) for k in kept if k[0] is mark)
    if any(name not in quick and name not in own for name in order):
        return None  # a partial seat-free then and not now (the browser's values): rendered
    return {name: quick[name] if name in quick else own[name] for name in order}, mark


def _base_context(screen: TableScreen, oob: bool) -> dict[str, Any]:
    """A partial's context without the lobby's and the browser's values."""
    return {"screen": screen, "table": screen.table, "oob": oob, "c": screen.ctx,
            "version": screen.version, "game": screen.game}


# The names lobby_context gives a partial's context (tests/tables/test_partial_reads.py), but
# "table", the very object the context holds already.
LOBBY_NAMES = frozenset({
    "own_clocks", "leave_bankrupts", "bot_game", "paused", "out_place", "seat_count", "seats",
    "me", "is_host", "host_seat", "free_seats", "joinable", "can_start", "can_rematch",
    "lobby_open", "free_range", "invite_path", "viewer_is_guest", "bot_levels",
    "can_add_bots", "rematch"})
_ME_ONLY = frozenset({"me"})  # lobby_context's "me" is the screen's own seat row


@dataclass
class SharedPartial:
    """A Jinja2 board partial's reads (games/platform/partial_reads.py), and whether keying its
    contexts pays. A partial that differs for every screen (a seat's own hand) is keyed for
    nothing, and each of its renders kept in `shared_partials` crowds out one that
    is shared: after a WINDOW of keys of which fewer than one in PAYS was served, its next
    `rest` renders are the screens' own, unkeyed and unkept, and then it is tried again,
    resting twice as long after each window that did not pay (up to MAX_REST). Judged by
    counts alone, so which screens share a render does not depend on the box's load."""

    WINDOW = 64
    PAYS = 8
    REST = 64
    MAX_REST = 65536

    reads: Reads
    tried: int = 0
    served: int = 0
    renders: int = 0  # of its keyed contexts, made and kept (the rest were served)
    resting: int = 0
    rest: int = REST
    lobby_reads: frozenset[str] = field(init=False)  # the names it reads of lobby_context's

    def __post_init__(self) -> None:
        self.lobby_reads = self.reads.names & LOBBY_NAMES

    def key(self, context: Mapping[str, Any]) -> bytes | None:
        if self.resting:
            self.resting -= 1
            return None
        if self.tried >= self.WINDOW:
            if self.served * self.PAYS < self.tried:
                self.resting = self.rest
                self.rest = min(self.rest * 2, self.MAX_REST)
            else:
                self.rest = self.REST
            self.tried = self.served = 0
            if self.resting:
                return None
        self.tried += 1
        return self.reads.key(context)


_SHARED: dict[str, SharedPartial | None] = {}


def _forget_shared(*, setting: str, **kwargs: Any) -> None:
    """New template engines (rendering.ENGINE_SETTINGS): whether a partial is shared is judged
    again against them (not while they reload their templates, as under DEBUG)."""
    if setting in ENGINE_SETTINGS:
        _SHARED.clear()
        _SEAT_FREE_ALONE.clear()


setting_changed.connect(_forget_shared)


def shared_partial(template: str) -> SharedPartial | None:
    """The board partial `template`'s reads of its context, found once per template and
    process; None for a Django template, one whose reads cannot be listed, and while
    templates reload (DEBUG)."""
    try:
        return _SHARED[template]
    except KeyError:
        pass
    compiled = jinja_template(template)
    found = None
    if compiled is not None and not compiled.environment.auto_reload:
        with contextlib.suppress(Unreadable):  # rendered per screen
            found = SharedPartial(reads_of(compiled.environment, template))
    _SHARED[template] = found
    return found


def version_inputs(version: int, decision: str, *, oob: bool, now: str | None) -> SafeString:
    """The two hidden inputs every move sends back (the version and the decision token it was
    made on), swapped in by every push: two lines, written here rather than rendered (a
    template's render took ten times as long). Values are escaped as Django's
    `escape` does (games/platform/jinja.py). The page's copy carries the server's clock
    ("U.u", as Django's {% now %} printed it)."""
    swap = ' hx-swap-oob="true"'
    clock = swap if oob else f' data-now="{escape(str(now))}"'
    # A number's digits need no escaping; the token is escaped once for the pushes of a
    # move (every seat's screen carries it), not once a seat.
    return SafeString(
        f'<input type="hidden" id="table-version" name="expected_version" '
        f'value="{int(version)}"{clock}>\n'
        f'<input type="hidden" id="table-decision" name="decision" '
        f'value="{_escaped_token(decision)}"{swap if oob else ""}>\n')


# The latest decision token and its escaped text (replaced whole: one read is one pair).
_latest_token: tuple[str, str] = ("", "")


def _escaped_token(decision: str) -> str:
    global _latest_token
    latest = _latest_token
    if latest[0] == decision:
        return latest[1]
    escaped = escape(decision)
    _latest_token = (decision, escaped)
    return escaped


def seat_marker(seat: int | None, *, oob: bool) -> SafeString:
    """The one element of a screen that says whose it is: `data-me`, the viewer's engine seat
    (none for a watcher, or with no game on). It stands before the table's layout, so
    CSS marks the viewer's own parts of panels that read alike for every seat
    (`[data-me="2"] ~ * .you-mark[data-seat="2"]`, static/css/site.css): those panels are
    rendered once per move and shared, and only this line differs from seat to seat."""
    me = "" if seat is None else f' data-me="{int(seat)}"'
    swap = ' hx-swap-oob="true"' if oob else ""
    return SafeString(f'<span id="table-me" class="table-me" hidden{me}{swap}></span>\n')


def private_log(lines: Sequence[LogLine], *, oob: bool) -> SafeString:
    """Beside the log every viewer shares, the few newest lines only this screen's seat may
    read (the cards it drew, an offer's terms), newest first: a small element of its own, so
    the log's one render carries nothing private. Empty and hidden for a watcher. Written
    here rather than rendered, as the seat marker is."""
    swap = ' hx-swap-oob="true"' if oob else ""
    if not lines:
        return SafeString(f'<section id="log-mine" class="log-mine" hidden{swap}></section>\n')
    items = "".join(map(_private_item, lines))
    return SafeString(
        f'<section id="log-mine" class="log-mine" aria-labelledby="log-mine-heading"{swap}>'
        f'<h2 id="log-mine-heading">Only you see</h2>'
        f'<ul class="game-log">{items}</ul></section>\n')


# Where a line keeps its item in the private log (LogLine.rendered).
_PRIVATE_ITEM = "private_log"


def _private_item(line: LogLine) -> str:
    """A private line's list item, made once a line (the same line stays among a seat's
    newest for several moves, pushed each time)."""
    made = line.rendered.get(_PRIVATE_ITEM)
    if made is None:
        made = line.rendered[_PRIVATE_ITEM] = (
            line.key, f'<li data-k="mine-{escape(line.key)}">'
                      f'<span class="log-text">{escape(line.text, quote=False)}</span></li>')
    return made[1]


def _epoch_now() -> str:
    now = datetime.now(UTC)
    return f"{int(now.timestamp())}.{now.microsecond:06d}"


class SharedPartials:
    """Rendered partials by their inputs' key, the most recent MAX_ENTRIES and no more than
    about MAX_BYTES of keys and HTML (games/platform/bounded_cache.py), for every socket
    of the process: of a table's four seats, those whose partial shows the same (nothing to
    decide, an unchanged hand) share one render per move."""

    MAX_ENTRIES = 4096
    MAX_BYTES = 4 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: BoundedCache[str] = BoundedCache(self.MAX_ENTRIES, self.MAX_BYTES)

    def get(self, key: Hashable) -> str | None:
        html = self._entries.get(key)
        return None if html is None else SafeString(html)

    def kept(self, key: Hashable) -> str | None:
        """The kept plain string itself (a push's partial: see render_all)."""
        return self._entries.get(key)

    def put(self, key: Hashable, html: str) -> str:
        """Keeps `html` by `key`; the plain string kept."""
        plain = kept(html)
        self._entries.put(key, plain)
        return plain


shared_partials = SharedPartials()


def decision_of(screen: TableScreen) -> str:
    """The token of what this screen's seat is deciding (services.decision_token), sent back
    with its moves so one made on a page a version behind still counts if it still holds."""
    game = screen.game
    if game is None or screen.seat is None or game.status != Game.Status.RUNNING:
        return ""
    return decision_token(get_game(game.game_kind), game.state, screen.seat)


def render_chat(table: Table, *, oob: bool) -> str:
    messages = list(ChatMessage.objects.filter(table=table).order_by("-id")[:CHAT_LINES])
    return render_to_string("games/_chat_log.html",
                            {"messages": list(reversed(messages)), "oob": oob})


def render_chat_line(message: ChatMessage) -> str:
    return render_to_string("games/_chat_line_oob.html", {"m": message})


def render_error(message: str, code: str) -> str:
    """The frame's answer line. The mover's "ok" rides on every move's frame, and the refusals
    are a handful of fixed sentences: each is rendered once per process."""
    return _rendered_error(message, code)


@lru_cache(maxsize=256)
def _rendered_error(message: str, code: str) -> str:
    return render_to_string("games/_frame_error.html", {"message": message, "code": code})
