"""Live latency under load: N concurrent 4-seat tables over real websockets, real Daphne, on
PostgreSQL + Redis, with one Celery worker (and beat) beside them.

    uv run python bench/live_latency.py                       # 1,10,50,100,200 tables, 1 web
    uv run python bench/live_latency.py --web 2               # two Daphnes behind one Redis
    uv run python bench/live_latency.py --web 2 --route table # each table's sockets on one
    uv run python bench/live_latency.py --tables 1,10 --duration 20 --think 1.0 --json
    uv run python bench/live_latency.py --tables 100 --think 3 --game boardroom
    uv run python bench/live_latency.py --tables 2 --duration 5 --sqlite    # the test's run

Every table has four guests, each a scripted client (bench/liveplay.py ScriptedSeat) with its
own socket: it reads the legal moves from the forms its page received, waits a think time
(uniform 0.5-1.5 x --think seconds) and sends one, as htmx's ws-send would. With --web 2 the
sockets are dealt to the two Daphnes in turn (as a load balancer would), so one table's seats
sit on both and every update crosses Redis.

Per step it prints: moves; latency p50/p99 to EVERY seat (frame sent -> the moment the last
seat of the table read a frame showing the new version off its socket: what the whole table
sees); the mover's own latency apart (frame sent -> the first frame back showing the new
version; "handled by the client" adds the time until this one process, which plays every seat,
got round to it); errors (anything but a clean answer; "stale" answers when two seats answer at
once are counted apart as races); web CPU per table (CPU seconds per second per table, i.e. the
share of one core); worker and PostgreSQL CPU; web memory per table (RSS growth over the idle
process / tables); bytes per push to a seat. It uses its own database (chudopoly_bench) and
Redis db 11, drops them first, and talks to 127.0.0.1 only (--sqlite: one Daphne on an embedded
database of its own, no worker; what the tests run, not a measure). It ends with every refused
frame by its reason (races apart) and the moves played by kind.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import liveplay
import livestack


def _our_postgres_pids(database: str) -> list[int]:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                            (database,)).fetchall()
    return [r[0] for r in rows]


class _ClientPauses:
    """The measuring process's own garbage collections: while one runs, every seat it plays
    stops, and each move in flight looks slow whatever the server did."""

    def __init__(self) -> None:
        self.longest = self.total = 0.0
        # The longest pass's generation and CPU time: a pass much longer than its CPU time
        # was the process waiting for a core, not the collector's work.
        self.longest_generation = -1
        self.longest_cpu = 0.0
        self._started = self._started_cpu = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
        else:
            took = time.perf_counter() - self._started
            if took > self.longest:
                self.longest = took
                self.longest_generation = info["generation"]
                self.longest_cpu = time.thread_time() - self._started_cpu
            self.total += took

    def reset(self) -> None:
        self.longest = self.total = self.longest_cpu = 0.0
        self.longest_generation = -1

    def stop(self) -> None:
        gc.callbacks.remove(self._on_gc)


class _LoopLag:
    """How late this process's event loop wakes a task that sleeps 10 ms at a time: while it
    is late, every seat's frames wait unread, and their moves look slow whatever the server
    did."""

    TICK = 0.01

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(self.TICK)
            self.lags.append(time.perf_counter() - started - self.TICK)

    def stop(self) -> None:
        self._task.cancel()


class _ClientProfile:
    """cProfile over the measured seconds of this process, the scripted clients': where the
    CPU they take from the box (the server's cores) goes. Written to
    .bench-logs/clients-GAME-TABLES.txt."""

    def __init__(self) -> None:
        import cProfile

        self._profile = cProfile.Profile()
        self._profile.enable()

    def write(self, *, tables: int, game: str) -> None:
        import io
        import pstats

        self._profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(self._profile, stream=out).sort_stats("tottime")
        stats.print_stats(40)
        stats.sort_stats("cumulative").print_stats(40)
        path = livestack.LOGS / f"clients-{game}-{tables}.txt"
        path.write_text(out.getvalue())
        print(f"      the clients' profile: {path}", flush=True)


# Each game's stock preset for the tables (games/<game>/rules.py).
PRESETS = {"chudopoly": "chudopoly", "boardroom": "standard", "commonwealth": "standard"}
SLOW = 0.1  # seconds: a move answered later than this counts towards its second's stall


def _slow_seconds(stats: list[liveplay.Stats], *, route: str,
                  webs: int) -> list[dict[str, Any]]:
    """The three seconds of the run with the most slow moves, and which web process each of
    those moves went to: a stall of every process at once points at the box (or PostgreSQL),
    one process alone at that process (a collection, a queue of moves)."""
    per_second: dict[int, list[int]] = {}
    start = min((t for st in stats for t in st.sent_at), default=0.0)
    for index, st in enumerate(stats):
        web = (index // 4 if route == "table" else index) % max(1, webs)
        for sent, took in zip(st.sent_at, st.latencies, strict=True):
            if took > SLOW:
                per_second.setdefault(int(sent - start), [0] * max(1, webs))[web] += 1
    worst = sorted(per_second.items(), key=lambda kv: -sum(kv[1]))[:3]
    return [{"second": sec, "slow_moves_by_web": counts} for sec, counts in worst]


def _refused(stats: list[liveplay.Stats]) -> dict[str, int]:
    """Every refused frame of the run, by the server's reason (its code)."""
    out: dict[str, int] = {}
    for st in stats:
        for code, count in st.refused.items():
            out[code] = out.get(code, 0) + count
    return dict(sorted(out.items()))


def _kinds(seats: list[liveplay.ScriptedSeat]) -> dict[str, int]:
    """The moves the server accepted over the whole run (warm-up too), by kind."""
    import move_cost

    out: dict[str, int] = {}
    for seat in seats:
        for _, move in seat.acked_moves:
            kind = move_cost.move_kind(move)
            out[kind] = out.get(kind, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def refused_words(refused: dict[str, int]) -> str:
    """'0' or 'stale 3 (races), illegal 1': the races apart from the rest."""
    if not refused:
        return "0"
    return ", ".join(f"{code} {n}" + (" (races)" if code in liveplay.RACES else "")
                     for code, n in refused.items())


def every_seat_latencies(stats: list[liveplay.Stats], *, seats_per_table: int = 4,
                         finished: list[bool] | None = None) -> tuple[list[float], int]:
    """For every move, the time from its frame leaving the mover to the moment the LAST seat
    of its table had it on screen (the first frame showing that version or a later one), and
    how many moves some seat never showed within the run (a seat whose game ended is not
    waited for). Seats are listed table by table, `seats_per_table` each."""
    import bisect

    latencies: list[float] = []
    unseen = 0
    for first in range(0, len(stats), seats_per_table):
        table = stats[first:first + seats_per_table]
        done = (finished or [False] * len(stats))[first:first + seats_per_table]
        ordered = [sorted(st.seen) for st in table]
        for mover in table:
            for sent, version in zip(mover.sent_at, mover.made, strict=True):
                last = 0.0
                for st, versions, ended in zip(table, ordered, done, strict=True):
                    at = bisect.bisect_left(versions, version)
                    if at < len(versions):
                        last = max(last, st.seen[versions[at]])
                    elif not ended:
                        last = -1.0
                        break
                if last < 0:
                    unseen += 1
                else:
                    latencies.append(last - sent)
    return latencies, unseen


async def run_step(stack: livestack.LiveStack, tables: int, *, think: float, duration: float,
                   warmup: float, seed: int, idle: bool = False,
                   route: str = "socket", game: str = "chudopoly",
                   profile: bool = False, profile_clients: bool = False) -> dict[str, Any]:
    import livesetup
    from asgiref.sync import sync_to_async

    made = []
    for _ in range(tables):
        made.append(await sync_to_async(livesetup.guest_table)(4, preset=PRESETS[game],
                                                               game_kind=game))
    web_pids = [p.pid for p in stack.web]
    rss_before = sum(liveplay.proc_rss_mb(p) for p in web_pids)
    seats: list[liveplay.ScriptedSeat] = []
    n = 0
    for number, t in enumerate(made):
        for name, cookie in t.cookies.items():
            # "socket": sockets dealt to the web processes in turn; "table": every socket of a
            # table to one process, as the proxy's hash on the table's path does
            # (deploy/nginx.conf).
            web = number if route == "table" else n
            seats.append(liveplay.ScriptedSeat(stack.ws_base(web), t.code, cookie,
                                               rng=random.Random(seed * 100_003 + n),
                                               think=think, name=name, reply_timeout=30))
            seats[-1].watching = idle  # --idle: open the tables and listen, nobody moves
            n += 1
    # Connect in small batches, as a crowd arriving would.
    for i in range(0, len(seats), 20):
        await asyncio.gather(*(s.connect() for s in seats[i:i + 20]))
    until = time.monotonic() + warmup + duration
    # A pause of this process holds every seat's frames unread, and the moves in flight would
    # count it as the server's latency (a browser's pauses hold one seat, not a thousand).
    # The setup's objects (Django, the seats' first pages) never die: out of the collector's
    # reach. During the play the collector does not run at all (at 250 tables even its young
    # passes took 20-26 ms of CPU and held every seat 60-95 ms on a busy box): what little
    # cyclic garbage the play makes waits for the step's end.
    gc.collect()
    gc.freeze()
    gc.disable()
    client_rss0 = liveplay.proc_rss_mb(os.getpid())
    pauses = _ClientPauses()
    tasks = [asyncio.create_task(s.play(until=until)) for s in seats]
    await asyncio.sleep(warmup)
    for s in seats:  # measure from here on
        s.stats = liveplay.Stats()
    pauses.reset()
    lag = _LoopLag()
    pg_pids = [] if stack.sqlite else _our_postgres_pids(stack.database)
    pids = stack.pids()
    if profile:  # bench/profile_web.py: the measured seconds only
        for pid in pids["web"]:
            os.kill(pid, signal.SIGUSR1)
    cpu0 = {k: livestack.cpu_of(v) for k, v in pids.items()}
    cpu0["postgres"] = livestack.cpu_of(pg_pids)
    by_web0 = [livestack.cpu_of([pid]) for pid in pids["web"]]
    clients_profile = _ClientProfile() if profile_clients else None
    t0 = time.monotonic()
    client0 = time.process_time()
    await asyncio.sleep(duration)
    elapsed = time.monotonic() - t0
    client_cpu = (time.process_time() - client0) / elapsed
    if clients_profile is not None:
        clients_profile.write(tables=tables, game=game)
    cpu1 = {k: livestack.cpu_of(v) for k, v in pids.items()}
    by_web1 = [livestack.cpu_of([pid]) for pid in pids["web"]]
    lag.stop()
    if profile:
        for pid in pids["web"]:
            os.kill(pid, signal.SIGUSR2)
    cpu1["postgres"] = livestack.cpu_of(pg_pids)
    rss_after = sum(liveplay.proc_rss_mb(p) for p in web_pids)
    pauses.stop()
    client_rss = liveplay.proc_rss_mb(os.getpid()) - client_rss0
    gc.enable()
    stats = [s.stats for s in seats]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(s.close() for s in seats), return_exceptions=True)
    await sync_to_async(livesetup.end_tables)([t.table_id for t in made])
    lat = [x for st in stats for x in st.latencies]
    every, unseen = every_seat_latencies(stats, finished=[s.finished for s in seats])
    frames_in = sum(st.frames_in for st in stats)
    handled = [x for st in stats for x in st.handled]
    slow = _slow_seconds(stats, route=route, webs=len(stack.web))
    errors = [e for st in stats for e in st.errors if "time ran out" not in e]
    finished = sum(1 for t in range(0, len(seats), 4) if seats[t].finished)
    cpu = {k: (cpu1[k] - cpu0.get(k, 0.0)) / elapsed for k in cpu1}
    webs = max(1, len(stack.web))
    moves_by_web = [0] * webs
    for index, st in enumerate(stats):
        moves_by_web[(index // 4 if route == "table" else index) % webs] += len(st.latencies)
    return {
        "game": game,
        "tables": tables,
        "web_processes": len(stack.web),
        "route": route,
        "think_s": think,
        "seconds": round(elapsed, 1),
        "moves": len(lat),
        "moves_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(1000 * liveplay.percentile(lat, 50), 1),
        "p90_ms": round(1000 * liveplay.percentile(lat, 90), 1),
        "p99_ms": round(1000 * liveplay.percentile(lat, 99), 1),
        "max_ms": round(1000 * max(lat), 1) if lat else None,
        # Until the last seat of the table shows the move: what the table sees.
        "every_seat_p50_ms": round(1000 * liveplay.percentile(every, 50), 1),
        "every_seat_p99_ms": round(1000 * liveplay.percentile(every, 99), 1),
        "every_seat_max_ms": round(1000 * max(every), 1) if every else None,
        "moves_unseen": unseen,
        "handled_p99_ms": round(1000 * liveplay.percentile(handled, 99), 1),
        "errors": len(errors),
        "error_samples": errors[:5],
        "slow_seconds": slow,
        "moves_by_web": moves_by_web,
        "web_cpu_cores_by_web": [round((b - a) / elapsed, 3)
                                 for a, b in zip(by_web0, by_web1, strict=True)],
        # The most moves a second the tables can offer: one seat of a table moves at a time,
        # after a think of `think` seconds on average and the move's latency.
        "offered_max_per_s": round(tables / think, 1) if think else None,
        "offered_per_s": (round(tables / (think + statistics.fmean(every)), 1)
                          if think and every else None),
        "client_loop_lag_p99_ms": round(1000 * liveplay.percentile(lag.lags, 99), 1),
        "client_loop_lag_max_ms": round(1000 * max(lag.lags, default=0.0), 1),
        "client_gc_max_ms": round(1000 * pauses.longest, 1),
        "client_gc_total_ms": round(1000 * pauses.total, 1),
        "client_gc_longest": {"generation": pauses.longest_generation,
                              "cpu_ms": round(1000 * pauses.longest_cpu, 1)},
        "races": sum(st.races for st in stats),
        "refused": _refused(stats),
        "kinds": _kinds(seats),
        "reconnects": sum(st.reconnects for st in stats),
        "games_finished": finished,
        "load_average": round(os.getloadavg()[0], 1),
        "web_cpu_ms_per_move": round(1000 * cpu["web"] * elapsed / max(1, len(lat)), 1),
        "web_cpu_cores": round(cpu["web"], 3),
        "web_cpu_per_table": round(cpu["web"] / tables, 4),
        "worker_cpu_cores": round(cpu.get("worker", 0.0), 3),
        "postgres_cpu_cores": round(cpu["postgres"], 3),
        "redis_cpu_cores": round(cpu.get("redis", 0.0), 3),
        "client_cpu_cores": round(client_cpu, 3),
        "client_rss_growth_mb": round(client_rss, 1),
        "web_rss_mb": round(rss_after, 1),
        "web_mb_per_table": round(max(0.0, rss_after - rss_before) / tables, 3),
        "frames_per_s": round(frames_in / elapsed, 1),
        "bytes_per_push": round(sum(st.bytes_in for st in stats) / max(1, frames_in)),
        "kb_out_per_s": round(sum(st.bytes_in for st in stats) / elapsed / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1,10,50,100,200")
    parser.add_argument("--web", type=int, default=1, help="Daphne processes (1 or 2)")
    parser.add_argument("--route", choices=("socket", "table"), default="socket",
                        help="with --web 2: deal sockets in turn, or each table to one process")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a client waits before a move")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds a step")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line per step")
    parser.add_argument("--game", choices=sorted(PRESETS), default="chudopoly",
                        help="the game every table plays")
    parser.add_argument("--sqlite", action="store_true",
                        help="one Daphne on an embedded database, no worker (the tests' run)")
    parser.add_argument("--database", default="chudopoly_bench",
                        help="the database it drops and creates (one per concurrent run)")
    parser.add_argument("--redis-db", type=int, default=11,
                        help="the Redis database it flushes and uses (one per concurrent run)")
    parser.add_argument("--reuse-database", action="store_true",
                        help="keep the database if it is there (migrated, not made again)")
    parser.add_argument("--idle", action="store_true",
                        help="nobody moves: what idle sockets cost (reconnects, CPU)")
    parser.add_argument("--profile", choices=("sample", "cprofile", "threads"),
                        help="run the web processes under bench/profile_web.py, profiled over "
                        "the measured seconds (written to .bench-logs/profile-PID.txt)")
    parser.add_argument("--profile-clients", action="store_true",
                        help="profile this process, the scripted clients, over the measured "
                        "seconds (cProfile, written to .bench-logs/clients-GAME-TABLES.txt)")
    args = parser.parse_args(argv)
    if args.profile:
        os.environ["BENCH_DAPHNE_WRAPPER"] = str(Path(__file__).resolve().parent
                                                 / "profile_web.py")
        os.environ["BENCH_PROFILE"] = args.profile
    steps = [int(x) for x in args.tables.split(",") if x]
    if args.sqlite and args.web != 1:
        parser.error("--sqlite runs one web process")
    stack = livestack.LiveStack(web=args.web, sqlite=args.sqlite, database=args.database,
                                redis_db=args.redis_db)
    stack.prepare(fresh=not args.reuse_database)
    stack.setup_django()
    from games.platform import speedups

    # The web processes run this tree with this environment: they decide alike.
    modules = speedups.label()
    stack.start()
    results = []
    try:
        for tables in steps:
            out = asyncio.run(run_step(stack, tables, think=args.think, duration=args.duration,
                                       warmup=args.warmup, seed=args.seed, idle=args.idle,
                                       route=args.route, game=args.game,
                                       profile=bool(args.profile),
                                       profile_clients=args.profile_clients))
            out["modules"] = modules
            results.append(out)
            if args.json:
                print(json.dumps(out), flush=True)
            else:
                routed = " by table" if args.route == "table" and len(stack.web) > 1 else ""
                print(f"{tables:4d} {args.game} tables x4 seats, "
                      f"{out['web_processes']} web{routed}: "
                      f"{out['moves']} moves ({out['moves_per_s']}/s) "
                      f"every seat p50 {out['every_seat_p50_ms']} ms "
                      f"p99 {out['every_seat_p99_ms']} ms max {out['every_seat_max_ms']} ms "
                      f"({out['moves_unseen']} unseen), the mover's own p50 {out['p50_ms']} ms "
                      f"p99 {out['p99_ms']} ms, "
                      f"errors {out['errors']}, races {out['races']}, "
                      f"web CPU {out['web_cpu_cores']} cores, "
                      f"{out['web_cpu_ms_per_move']} ms/move "
                      f"({out['web_cpu_per_table']}/table), worker {out['worker_cpu_cores']}, "
                      f"postgres {out['postgres_cpu_cores']}, redis {out['redis_cpu_cores']}, "
                      f"clients {out['client_cpu_cores']}, "
                      f"web RSS {out['web_rss_mb']} MB (+{out['web_mb_per_table']} MB/table), "
                      f"{out['bytes_per_push']} B per push, "
                      f"load average {out['load_average']}, modules {modules}",
                      flush=True)
                for sample in out["error_samples"]:
                    print(f"      error: {sample}", flush=True)
                print(f"      refused frames: {refused_words(out['refused'])}", flush=True)
                print("      moves by kind: "
                      + ", ".join(f"{k} {n}" for k, n in out["kinds"].items()), flush=True)
                print(f"      handled by the client: p99 {out['handled_p99_ms']} ms; "
                      f"client GC: longest {out['client_gc_max_ms']} ms "
                      f"(generation {out['client_gc_longest']['generation']}, "
                      f"{out['client_gc_longest']['cpu_ms']} ms CPU), "
                      f"{out['client_gc_total_ms']} ms in all; client RSS "
                      f"+{out['client_rss_growth_mb']} MB; client loop lag p99 "
                      f"{out['client_loop_lag_p99_ms']} ms, max "
                      f"{out['client_loop_lag_max_ms']} ms", flush=True)
                print(f"      by web process: moves {out['moves_by_web']}, CPU "
                      f"{out['web_cpu_cores_by_web']} cores; offered "
                      f"{out['offered_per_s']} moves/s (tables / (mean think + mean latency)), "
                      f"at most {out['offered_max_per_s']}", flush=True)
                for worst in out["slow_seconds"]:
                    print(f"      second {worst['second']}: moves over {int(SLOW * 1000)} ms by "
                          f"web process {worst['slow_moves_by_web']}", flush=True)
    finally:
        stack.stop()
    return 0 if all(r["errors"] == 0 for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
