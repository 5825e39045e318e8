"""What one move costs the web process, without the network: CPU and database queries.

    uv run python bench/move_cost.py                 # PostgreSQL (its own chudopoly_movecost)
    uv run python bench/move_cost.py --sqlite        # the embedded default
    uv run python bench/move_cost.py --database x    # another database, for runs side by side
    uv run python bench/move_cost.py --game boardroom # or commonwealth (default chudopoly)
    uv run python bench/move_cost.py --parts         # also the CPU of each part of a move
    uv run python bench/move_cost.py --pause 30      # 30 ms asleep before each move, as live
    uv run python bench/move_cost.py --steady-clocks # clocks on the bench's time (see below)

It drives the real `TableConsumer` code in one process: four sockets per 4-seat table (guests,
the game's stock preset), each consumer connected as Daphne would connect it, with its frames
captured instead of written to a socket. A seat that owes a decision picks a move from the
forms its last push showed (bench/liveplay.py's scripted player: every kind of move, trades,
deals, auctions and bids too) and sends it as htmx would;
the mover's handler pushes the table's other three sockets (all in one process, as live:
games/platform/table_sockets.py), and the group message is then handed to them as the event
loop would (dropped there, already shown). Per move it prints the CPU time of that whole
cycle (the mover's frame, the move, four pushes), the bytes each push sent, the database
queries it made and every refused frame by its reason; on
PostgreSQL also the CPU its server process spent (read from /proc: the server runs here) and
the WAL written.

This is the part of `bench/live_latency.py`'s "web CPU per move" that our code controls;
Daphne, the event loop and the channel layer come on top (docs/performance.md).

Back to back, a move finds what the last one used still in the CPU's caches. Live, a web
process's table lane waits tens of milliseconds between moves while other processes run,
and each move pays to bring it back: with `--pause MS` each move is made after that long
asleep (not timed), which costs about what the live lane spends on the same calls
(docs/performance.md, "The process model, live").

The games' clocks read wall time (Commonwealth's run 60 s for a bid or an answer): each
deadline a move sets is `now` plus the seconds, so the pages' deadlines, and what a push
sends, depend on when the run was made. With `--steady-clocks` (on with `--count-handlers`)
the clocks read the bench's own time instead: a fixed instant, moved on STEADY_TICK a move.
Two runs then set the same deadlines, and no clock can come near lapsing (150 moves take
1.5 s of it): run under valgrind, at whatever speed the loaded box allows, they count the
same work. Deadlines still start over when a move restarts a clock, as live. The sockets'
check-ins (at most one write each SOCKET_CHECK_IN_SECONDS a process) are timed on it too.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))


class Socket:
    """One consumer with its outgoing frames kept, as its browser would have them."""

    def __init__(self, code: str, cookie: str) -> None:
        from games.platform.consumers import TableConsumer

        session_key = cookie.split("=", 1)[1]
        import liveplay
        import pageforms

        self.page = liveplay.Page()
        self.errors: list[tuple[str, str]] = []
        self.refused: dict[str, int] = {}
        self.memory = pageforms.Memory()
        self.inbox: list[str] = []
        self.pushes = self.pushed_bytes = 0
        self._liveplay = liveplay
        self.consumer = TableConsumer()
        self.consumer.scope = _scope(code, session_key)
        self.consumer.channel_name = f"bench.{code}.{session_key[:8]}"
        self.consumer.channel_layer = _NoLayer()
        # The mover's group message goes where every other delivery goes here (`run` patches
        # broadcast._deliver), not to an event loop this script does not have.
        self.consumer._deliver_soon = _deliver_now  # type: ignore[method-assign]
        # Every frame goes through _send_soon (the consumer's base_send returns it); older
        # code, run with this script to compare, sent through base_send itself.
        self.consumer._send_soon = self._take  # type: ignore[method-assign]
        self.consumer.base_send = self._take  # type: ignore[method-assign]
        self.consumer._handle({"type": "websocket.connect"})
        self.read()

    def _take(self, message: dict[str, Any]) -> None:
        # Kept as the socket would write it; read (as the browser would) after the timing.
        text = message.get("text")
        if text:
            self.inbox.append(text)

    def read(self) -> None:
        liveplay = self._liveplay
        for text in self.inbox:
            self.pushes += 1
            self.pushed_bytes += len(text)
            self.page.take(text)
            error = liveplay.error_in(text)
            if error is not None and error[0] != "ok":
                self.refused[error[0]] = self.refused.get(error[0], 0) + 1
                if error[0] not in liveplay.RACES:
                    self.errors.append(error)
        self.inbox.clear()

    @property
    def version(self) -> int:
        return self.page.version

    @property
    def decision(self) -> str:
        return self.page.decision

    def choose(self, rng: random.Random, *, idle: bool) -> dict[str, Any] | None:
        return self.page.choose(rng, memory=self.memory, idle=idle)


class _NoLayer:
    """The group joins a connecting socket makes; deliveries are handed out by `run`."""

    async def group_add(self, group: str, channel: str) -> None:
        return None

    async def group_discard(self, group: str, channel: str) -> None:
        return None


def _deliver_now(code: str, message: dict[str, Any]) -> None:
    from games.platform import broadcast

    broadcast._deliver(code, message)


def _scope(code: str, session_key: str) -> dict[str, Any]:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    return {"type": "websocket", "path": f"/ws/table/{code}/", "headers": [],
            "url_route": {"kwargs": {"code": code}}, "cookies": {},
            "session": SessionStore(session_key=session_key), "user": AnonymousUser()}


# Each game's stock preset (as bench/live_latency.py's tables).
PRESETS = {"chudopoly": "chudopoly", "boardroom": "standard", "commonwealth": "standard"}
IDLE_SHARE = 0.01  # of the moves: an optional one (a deal offered out of turn, one taken back)


def move_kind(move: dict[str, Any]) -> str:
    """A move's type, with its answer or kind where one type covers several moves (a trade's
    swap or sale, an offer accepted or refused)."""
    action = move["action"]
    kind = action["type"]
    if kind == "propose":
        return f"propose {action.get('kind')}"
    if kind == "answer":
        return "answer " + ("accept" if action.get("accept") else "refuse")
    return kind


# --steady-clocks: the clocks' time, a fixed instant moved on this much a move (see above).
STEADY_START = datetime(2026, 1, 1, tzinfo=UTC)
STEADY_TICK = timedelta(milliseconds=10)


class SteadyClocks:
    """The clocks' `now` on the bench's own time: STEADY_START, then STEADY_TICK later after
    each move (`tick`), whatever the wall clock says."""

    def __init__(self) -> None:
        self.at = STEADY_START
        self._checked_in = STEADY_START

    def now(self) -> datetime:
        return self.at

    def tick(self) -> None:
        self.at += STEADY_TICK

    def check_in_if_due(self, every: float) -> int:
        """CheckIns.check_in_if_due on this time: the same writes in every run."""
        from games.platform.checkins import open_sockets, sockets_checked_in

        if (self.at - self._checked_in).total_seconds() < every or not open_sockets._open:
            return 0
        self._checked_in = self.at
        return sockets_checked_in(sorted(open_sockets._open))


def run(tables: int, moves: int, seed: int, *, sqlite: bool = False,
        database: str = "chudopoly_movecost", game: str = "chudopoly",
        fresh: bool = True, pause: float = 0.0, steady_clocks: bool = False
        ) -> dict[str, Any]:
    """`pause`: seconds asleep before each move, outside its timing. `steady_clocks`: the
    games' clocks on the bench's time, not the wall's (SteadyClocks)."""
    import livestack

    stack = livestack.LiveStack(database=database, worker=False, sqlite=sqlite)
    stack.prepare(fresh=fresh)
    stack.setup_django()
    import liveplay
    import livesetup
    from django.db import connection

    from games.platform import broadcast, clocks
    from games.platform.consumers import TableConsumer

    steady = SteadyClocks() if steady_clocks else None
    if steady is not None:
        # Every deadline is made and read through clocks.now (the games' own and the
        # platform's clocks alike), from the first game's start on.
        clocks.now = steady.now  # type: ignore[assignment]
        from games.platform.checkins import open_sockets

        open_sockets.check_in_if_due = steady.check_in_if_due  # type: ignore[method-assign]

    try:  # the web process's collector settings, as Daphne runs it (asgi.py)
        from chudopoly_site.web_process import settle_interpreter
    except ImportError:  # older code, run with this script to compare: what its asgi.py did
        settle_interpreter = _older_settle_interpreter
    settle_interpreter()

    if _COUNTED:
        _count_handlers(TableConsumer)
    parts = _timed_parts(TableConsumer) if _PARTS else {}
    others_cpu = 0.0
    # Older code (run with this script to compare) had no local pushes: its other seats'
    # pushes all come from the group message below.
    show_to_others = getattr(TableConsumer, "show_to_others", None)

    def timed_show(consumer: TableConsumer, event: dict[str, Any]) -> None:
        nonlocal others_cpu
        started = time.process_time()
        try:
            show_to_others(consumer, event)
        finally:
            others_cpu += time.process_time() - started

    if show_to_others is not None:
        TableConsumer.show_to_others = timed_show  # type: ignore[method-assign]
    delivered: list[tuple[str, dict[str, Any]]] = []
    broadcast._deliver = lambda code, message: delivered.append((code, message))  # type: ignore[assignment]
    rng = random.Random(seed)
    rooms: list[list[Socket]] = []
    for _ in range(tables):
        seated = livesetup.guest_table(4, preset=PRESETS[game], game_kind=game)
        rooms.append([Socket(seated.code, c) for c in seated.cookies.values()])
    delivered.clear()
    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    made = 0
    kinds: dict[str, int] = {}
    cpu = mover_cpu = 0.0
    wal_from = None if sqlite else _wal_position(connection)
    server_from = None if sqlite else _server_cpu(connection)
    for sockets in rooms:
        for each in sockets:  # the first pages are not pushes
            each.pushes = each.pushed_bytes = 0
    for name in parts:  # nor are their renders parts of a move
        parts[name] = 0.0
    with connection.execute_wrapper(count):
        for _ in range(moves):
            sockets = rng.choice(rooms)
            idle = rng.random() < IDLE_SHARE
            movers = [(s, m) for s in sockets
                      if (m := s.choose(rng, idle=idle)) is not None]
            if not movers:
                continue
            socket, move = rng.choice(movers)
            refused_before = sum(socket.refused.values())
            version_before = socket.version
            others_before = others_cpu
            if pause:
                time.sleep(pause)
            started = time.process_time()
            socket.consumer._handle({"type": "websocket.receive",
                                     "text": liveplay.act_frame(move, socket.version,
                                                                socket.decision)})
            moved = time.process_time()
            for _, message in delivered:
                if message.get("type") == "table.update":
                    for other in sockets:
                        # What the event loop does with it (TableConsumer.dispatch).
                        left = getattr(other.consumer, "_left_to_others",
                                       other.consumer._already_shown)
                        if not left(message):
                            other.consumer._handle(message)
            ended = time.process_time()
            cpu += ended - started
            mover_cpu += moved - started - (others_cpu - others_before)
            delivered.clear()
            for each in sockets:
                each.read()
            made += 1
            if steady is not None:
                steady.tick()
            if socket.version > version_before:
                kind = move_kind(move)
                kinds[kind] = kinds.get(kind, 0) + 1
            elif sum(socket.refused.values()) == refused_before:
                # Neither shown nor refused: the socket was closed (a script sending faster
                # than the server's frame limit allows is cut off).
                socket.errors.append(("unanswered", f"no answer to {move['action']}"))
    refused: dict[str, int] = {}
    for sockets in rooms:
        for each in sockets:
            for code, n in each.refused.items():
                refused[code] = refused.get(code, 0) + n
    errors = [e for sockets in rooms for s in sockets for e in s.errors]
    if errors:
        print("refused, not a race:", errors[:5])
    pushes = sum(s.pushes for sockets in rooms for s in sockets)
    figures: dict[str, Any] = {
        "game": game, "moves": made - sum(refused.values()),
        "refused": dict(sorted(refused.items())),
        "kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
        "cpu_ms_per_move": 1000 * cpu / max(1, made),
        "mover_cpu_ms_per_move": 1000 * mover_cpu / max(1, made),
        "queries_per_move": queries / max(1, made),
        "bytes_per_push": sum(s.pushed_bytes for sockets in rooms for s in sockets)
        / max(1, pushes)}
    if parts:
        figures["parts_ms_per_move"] = {name: 1000 * seconds / max(1, made)
                                        for name, seconds in parts.items()}
    if server_from is not None:
        figures["server_cpu_ms_per_move"] = (
            1000 * (_server_cpu(connection) - server_from) / max(1, made))
    if wal_from is not None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), %s)", [wal_from])
            figures["wal_bytes_per_move"] = float(cursor.fetchone()[0]) / max(1, made)
    return figures


_COUNTED = False  # --count-handlers
_PARTS = False  # --parts

# The parts of a move --parts times, by the function that does each (module, attribute): the
# move's transaction (the lock, the engine and its log row, the save) and each push's screen,
# render and diff. Timed with the thread's CPU clock, where they run.
PARTS = (
    ("the move's transaction (table_move)", "games.platform.consumers", "table_move"),
    ("  its lock and seats (round trip 1)", "games.platform.moverows", "lock_game_and_table"),
    ("  the engine and the log row", "games.platform.services", "apply_locked"),
    ("  deadlines, bots, the save (round trip 2)", "games.platform.services", "settle_locked"),
    ("  or on the rows the last move left: the checked save (one round trip)",
     "games.platform.moverows", "save_move_if_unchanged"),
    ("the pushes' screens (screen_from)", "games.platform.presenters", "screen_from"),
    ("the pushes' renders (render_all)", "games.platform.presenters", "render_all"),
    ("the pushes' diffs (_changes)", "games.platform.consumers", "TableConsumer._changes"),
)


def _timed_parts(consumer: Any) -> dict[str, float]:
    """Wrap each of PARTS in a timer of the thread's CPU; the totals, in seconds, by name."""
    import importlib

    totals = dict.fromkeys((name for name, _, _ in PARTS), 0.0)
    for name, module_name, attribute in PARTS:
        owner: Any = importlib.import_module(module_name)
        *path, last = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        setattr(owner, last, _timer(getattr(owner, last), name, totals))
    return totals


def _timer(function: Any, name: str, totals: dict[str, float]) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            totals[name] += time.thread_time() - started

    return timed


def _count_handlers(consumer: Any) -> None:
    """Callgrind collects only inside the handlers of the moves' frames and of the updates a
    socket handles (older code, run with this script to compare, pushed the other seats from
    the group message): not the set-up, nor this script's own reading and choosing."""
    import instrument

    toggle = instrument.callgrind_toggle()
    handle = consumer._handle

    def counted(self: Any, message: dict[str, Any]) -> None:
        if message.get("type") not in ("websocket.receive", "table.update"):
            return handle(self, message)
        toggle()
        try:
            return handle(self, message)
        finally:
            toggle()

    consumer._handle = counted


def _older_settle_interpreter() -> None:
    """What chudopoly_site/asgi.py did with the collector before it had a function for it."""
    import gc

    from django.conf import settings

    full_every = getattr(settings, "GC_FULL_EVERY", None)
    if full_every is not None:
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, full_every)


def _server_cpu(connection: Any) -> float:
    """The CPU seconds the PostgreSQL backend serving this connection has used (its /proc
    entry: the server runs on this machine)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wal_position(connection: Any) -> str:
    """Where PostgreSQL's WAL ends now: what a commit must flush to disk is the WAL written
    since, so the bytes per move are what every move waits on when the disk is slow."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
        return cursor.fetchone()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite", action="store_true", help="the embedded default database")
    parser.add_argument("--database", default="chudopoly_movecost",
                        help="the database it drops and creates (one per concurrent run)")
    parser.add_argument("--reuse-database", action="store_true",
                        help="keep the database if it is there (migrated, not made again)")
    parser.add_argument("--game", choices=sorted(PRESETS), default="chudopoly",
                        help="the game every table plays")
    parser.add_argument("--deals", type=int, default=None,
                        help="seed `secrets` with this: the same games from run to run")
    parser.add_argument("--count-handlers", action="store_true",
                        help="under callgrind with --collect-atstart=no: collect only in the "
                             "moves' handlers (bench/instrument.py)")
    parser.add_argument("--parts", action="store_true",
                        help="also print the CPU per move of each part of it (PARTS)")
    parser.add_argument("--pause", type=float, default=0.0, metavar="MS",
                        help="sleep this long before each move (not timed): the caches cool "
                             "between moves as they do in a live web process")
    parser.add_argument("--steady-clocks", action=argparse.BooleanOptionalAction, default=None,
                        help="the games' clocks on the bench's time, a fixed instant moved on "
                             f"{STEADY_TICK.total_seconds() * 1000:g} ms a move, not the wall's: "
                             "the same deadlines from run to run, none lapsing (default: on "
                             "with --count-handlers)")
    args = parser.parse_args(argv)
    steady_clocks = (args.count_handlers if args.steady_clocks is None
                     else args.steady_clocks)
    if args.deals is not None:
        import instrument

        instrument.seed_secrets(args.deals)
    if args.count_handlers:
        global _COUNTED
        _COUNTED = True
    if args.parts:
        global _PARTS
        _PARTS = True
    figures = run(args.tables, args.moves, args.seed, sqlite=args.sqlite, database=args.database,
                  game=args.game, fresh=not args.reuse_database, pause=args.pause / 1000,
                  steady_clocks=steady_clocks)
    import live_latency

    from games.platform import speedups

    print("moves by kind: " + ", ".join(f"{k} {n}" for k, n in figures["kinds"].items()))
    print(f"refused frames: {live_latency.refused_words(figures['refused'])}; "
          f"{figures['bytes_per_push']:.0f} B per push")
    apart = f", {args.pause:g} ms apart" if args.pause else ""
    apart += ", steady clocks" if steady_clocks else ""
    print(f"{figures['moves']} {args.game} moves over {args.tables} tables{apart}: "
          f"{figures['cpu_ms_per_move']:.2f} ms CPU and "
          f"{figures['queries_per_move']:.1f} queries per move (mover's frame + 4 pushes); "
          f"the mover's frame, move and push {figures['mover_cpu_ms_per_move']:.2f} ms, "
          f"the other seats' pushes "
          f"{figures['cpu_ms_per_move'] - figures['mover_cpu_ms_per_move']:.2f} ms; "
          f"load average {os.getloadavg()[0]:.1f}; modules {speedups.label()}")
    if "server_cpu_ms_per_move" in figures:
        print(f"PostgreSQL backend CPU: {figures['server_cpu_ms_per_move']:.2f} ms per move")
    if "wal_bytes_per_move" in figures:
        print(f"PostgreSQL WAL written: {figures['wal_bytes_per_move'] / 1024:.1f} KB per move")
    for name, ms in figures.get("parts_ms_per_move", {}).items():
        if ms == 0.0:  # no move went this way (SQLite has no checked save): not a 0 ms part
            continue
        print(f"part: {name}: {ms:.2f} ms per move")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
