"""What each live table costs the web process in memory, and where it goes.

    uv run python bench/table_memory.py --game boardroom --tables 20
    uv run python bench/table_memory.py --game chudopoly --tables 20 --no-trace   # RSS only

It drives the real `TableConsumer` in one process, as bench/move_cost.py does (four guest
sockets per table, the scripted seats of bench/liveplay.py choosing the moves, the mover's
handler pushing the table's other sockets). After a few tables have warmed the process (the
templates compiled, the engines imported), it opens N tables and plays `--moves` moves on
each, then N more the same way: what the second N added, divided by N, is what one more
live table costs. Printed: the process's RSS growth per table, the bytes tracemalloc saw
allocated and still held per table, and those bytes by where they were allocated (the
innermost line of this project's code, then the innermost line of all). The process-wide
caches (bounded: games/platform/swaps.py, presenters.py, templatetags/shared_includes.py,
snapshot_cache.py) are printed with their size, since a live run's growth over an idle process
counts their filling too (bench/live_latency.py's "web RSS per table").
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))

import move_cost  # noqa: E402  (bench/ on the path first)

REPO = str(ROOT.parent)
VENV = str(ROOT.parent / ".venv")
WARM_TABLES = 3


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Room:
    def __init__(self, sockets: list[move_cost.Socket]) -> None:
        self.sockets = sockets
        self.moves = 0


def open_tables(n: int, game: str) -> list[Room]:
    import livesetup

    rooms = []
    for _ in range(n):
        seated = livesetup.guest_table(4, preset=move_cost.PRESETS[game], game_kind=game)
        rooms.append(Room([move_cost.Socket(seated.code, c) for c in seated.cookies.values()]))
    return rooms


def play(rooms: list[Room], moves: int, rng: random.Random,
         delivered: list[tuple[str, dict[str, Any]]]) -> int:
    """`moves` moves on each room, the rooms in turn; returns the refused frames that were
    not races."""
    import liveplay

    errors = 0
    for _ in range(moves):
        for room in rooms:
            movers = [(s, m) for s in room.sockets
                      if (m := s.choose(rng, idle=rng.random() < move_cost.IDLE_SHARE))
                      is not None]
            if not movers:
                continue
            socket, move = rng.choice(movers)
            socket.consumer._handle({"type": "websocket.receive",
                                     "text": liveplay.act_frame(move, socket.version,
                                                                socket.decision)})
            for _, message in delivered:
                if message.get("type") == "table.update":
                    for other in room.sockets:
                        if not other.consumer._left_to_others(message):
                            other.consumer._handle(message)
            delivered.clear()
            for each in room.sockets:
                each.read()
                errors += len(each.errors)
                each.errors.clear()
            room.moves += 1
    return errors


def where(trace: tracemalloc.Traceback) -> tuple[str, str]:
    """The innermost line of this project's code that led to an allocation, and the
    innermost line of all."""
    inner = f"{_short(trace[-1].filename)}:{trace[-1].lineno}"
    for frame in reversed(trace):  # most recent last
        name = frame.filename
        if name.startswith(REPO) and not name.startswith(VENV) and "/bench/" not in name:
            return f"{_short(name)}:{frame.lineno}", inner
    return "(outside the project)", inner


def _short(name: str) -> str:
    for prefix in (VENV + "/lib/", REPO + "/"):
        if name.startswith(prefix):
            return name[len(prefix):].split("site-packages/", 1)[-1]
    return name.rsplit("/lib/", 1)[-1]


def _mine(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    """Not the snapshots themselves (made in tracemalloc.py), nor the scripted browsers'
    pages (bench/liveplay.py, bench/pageforms.py)."""
    return snapshot.filter_traces([
        tracemalloc.Filter(False, tracemalloc.__file__, all_frames=True),
        tracemalloc.Filter(False, str(ROOT / "liveplay.py"), all_frames=True),
        tracemalloc.Filter(False, str(ROOT / "pageforms.py"), all_frames=True)])


def caches() -> dict[str, tuple[int, int]]:
    """The process-wide caches: (entries, bytes they count)."""
    from games.platform import presenters, snapshot_cache, swaps
    from games.platform.templatetags import shared_includes

    out = {"snapshot_cache.snapshots": (len(snapshot_cache.snapshots._latest), 0),
           "swaps._made": (len(swaps._made._entries), 0)}
    for name, cache in (("shared_includes.shared_renders", shared_includes.shared_renders),
                        ("presenters.shared_partials", presenters.shared_partials),
                        ("swaps.trees", swaps.trees)):
        entries = cache._entries
        out[name] = (len(entries), getattr(entries, "bytes", 0))
    return out


def run(game: str, tables: int, moves: int, seed: int, *, trace: bool, frames: int,
        top: int) -> dict[str, Any]:
    import livestack

    stack = livestack.LiveStack(database=f"tablememory_{game}", worker=False, sqlite=True)
    stack.prepare(fresh=True)
    stack.setup_django()
    from chudopoly_site.web_process import settle_interpreter
    from games.platform import broadcast

    settle_interpreter()
    delivered: list[tuple[str, dict[str, Any]]] = []
    broadcast._deliver = lambda code, message: delivered.append((code, message))  # type: ignore[assignment]
    rng = random.Random(seed)
    gc.collect()
    rss0 = rss_bytes()
    if trace:
        tracemalloc.start(frames)
    snap0 = tracemalloc.take_snapshot() if trace else None
    warm = open_tables(WARM_TABLES, game)
    errors = play(warm, moves, rng, delivered)
    gc.collect()
    warm_rss = rss_bytes() - rss0
    started = time.monotonic()
    first = open_tables(tables, game)
    errors += play(first, moves, rng, delivered)
    gc.collect()
    rss1 = rss_bytes()
    snap1 = tracemalloc.take_snapshot() if trace else None
    if snap0 is not None and snap1 is not None:
        # What the first tables made that stays (an idle process has not made it yet), by
        # module: not per table.
        warmed: dict[str, int] = {}
        for stat in _mine(snap1).compare_to(_mine(snap0), "filename"):
            name = _short(stat.traceback[0].filename)
            warmed[name] = warmed.get(name, 0) + stat.size_diff
        warm_by_file = sorted(((v, k) for k, v in warmed.items()), reverse=True)[:top]
    else:
        warm_by_file = []
    caches1 = caches()
    second = open_tables(tables, game)
    errors += play(second, moves, rng, delivered)
    gc.collect()
    rss2 = rss_bytes()
    snap2 = tracemalloc.take_snapshot() if trace else None
    caches2 = caches()
    figures: dict[str, Any] = {
        "game": game, "tables": tables, "moves": moves,
        "played": sum(r.moves for r in first + second) / (2 * tables),
        "errors": errors, "seconds": time.monotonic() - started,
        "rss_per_table": (rss2 - rss1) / tables, "rss": rss2, "warm_rss": warm_rss,
        "caches": {k: (caches1[k], caches2[k]) for k in caches2},
        "warm_by_file": warm_by_file}
    if snap1 is not None and snap2 is not None:
        tracemalloc.stop()
        by_site: dict[str, int] = {}
        by_inner: dict[str, int] = {}
        total = 0
        snap1, snap2 = _mine(snap1), _mine(snap2)
        for stat in snap2.compare_to(snap1, "traceback"):
            ours, inner = where(stat.traceback)
            by_site[ours] = by_site.get(ours, 0) + stat.size_diff
            by_inner[inner] = by_inner.get(inner, 0) + stat.size_diff
            total += stat.size_diff
        figures["traced_per_table"] = total / tables
        figures["by_site"] = sorted(((v / tables, k) for k, v in by_site.items()),
                                    reverse=True)[:top]
        figures["by_inner"] = sorted(((v / tables, k) for k, v in by_inner.items()),
                                     reverse=True)[:top]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(move_cost.PRESETS), default="chudopoly")
    parser.add_argument("--tables", type=int, default=20, help="N: the step of tables")
    parser.add_argument("--moves", type=int, default=40, help="moves played on each table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-trace", dest="trace", action="store_false",
                        help="RSS only, without tracemalloc's slowdown")
    parser.add_argument("--frames", type=int, default=20, help="tracemalloc's stack depth")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    f = run(args.game, args.tables, args.moves, args.seed, trace=args.trace,
            frames=args.frames, top=args.top)
    print(f"{f['game']}: {f['tables']} tables then {f['tables']} more, "
          f"{f['played']:.0f} moves each, 4 sockets each; {f['errors']} refused frames not "
          f"races; {f['seconds']:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for name, ((n1, b1), (n2, b2)) in f["caches"].items():
        print(f"  cache {name}: {n1} -> {n2} entries, {b1 / 1e6:.2f} -> {b2 / 1e6:.2f} MB")
    if f["warm_by_file"]:
        print(f"  held after the first {WARM_TABLES} tables (the process warming up), by file:")
        for size, name in f["warm_by_file"]:
            print(f"    {size / 1024:9.1f} KB  {name}")
    if "traced_per_table" in f:
        print("  held per table, by the project's line that allocated it:")
        for size, site in f["by_site"]:
            print(f"    {size / 1024:9.1f} KB  {site}")
        print("  held per table, by the innermost line:")
        for size, site in f["by_inner"]:
            print(f"    {size / 1024:9.1f} KB  {site}")
        print(f"traced bytes per table: {f['traced_per_table'] / 1024:.1f} KB")
    print(f"RSS of the first {WARM_TABLES} tables (the process warming up): "
          f"{f['warm_rss'] / 1e6:.1f} MB")
    print(f"RSS per table: {f['rss_per_table'] / 1e6:.3f} MB (process RSS "
          f"{f['rss'] / 1e6:.0f} MB{', tracemalloc included' if 'traced_per_table' in f else ''})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
