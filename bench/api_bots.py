"""Load on the bot API: many API bots playing at once through real Daphne, each with its own
token, game stream and move POSTs, as examples/random_bot.py plays.

    uv run python bench/api_bots.py                            # 25 tables x 4 bots, 60 s
    uv run python bench/api_bots.py --tables 50 --seats 2 --think 0.5
    uv run python bench/api_bots.py --tables 2 --duration 4 --sqlite   # the test's run

Tables are dealt to the games in turn (--games, all three by default), every seat an API bot
account: a task per seat reads the seat's NDJSON stream and, when a `gameState` says the
decision is the seat's, waits a think time (uniform 0.5-1.5 x --think seconds) and POSTs one
of its legal actions (never Chudopoly's scoop) with the state's version and decision token.

It prints: moves (POSTs answered 200) and moves/s; the latency from a move's POST to the
moment its effect (a `gameState` of the version the POST answered, or later) was read off
EVERY seat's stream, p50/p99 over all (move, seat) pairs and for the table's last seat; the
POST's own answer time; races (409: the game moved on meanwhile) and errors (anything else:
a refused move, a dropped stream, a missing event); web, worker, PostgreSQL and the client's
own CPU; the load average before and after. It uses its own database (chudopoly_api_bench)
and Redis db 10, drops them first, and talks to 127.0.0.1 only (--sqlite: one Daphne on an
embedded database of its own, no worker; what the tests run, not a measure).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import logging
import os
import random
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import liveplay
import livestack

logging.getLogger("httpx").setLevel(logging.WARNING)  # no line per request

GAMES = ("chudopoly", "boardroom", "commonwealth")
NEVER = {"scoop"}  # giving up (Chudopoly): a bench bot plays on


@dataclass
class BenchSeat:
    secret: str
    seat: int


@dataclass
class BenchTable:
    game_id: int
    table_id: int
    kind: str
    seats: list[BenchSeat]
    # Per engine seat, the versions its stream showed and when (monotonic, in order).
    shown: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    # Moves whose effect some seat has not shown yet: (version made, POST sent at, seats owed).
    owed: list[tuple[int, float, set[int]]] = field(default_factory=list)
    finished: bool = False


@dataclass
class Figures:
    every_seat: list[float] = field(default_factory=list)  # per (move, seat), seconds
    last_seat: list[float] = field(default_factory=list)  # per move: its table's last seat
    posts: list[float] = field(default_factory=list)  # the POST's answer time
    moves: Counter[str] = field(default_factory=Counter)  # by game
    races: Counter[str] = field(default_factory=Counter)  # 409 codes
    errors: list[str] = field(default_factory=list)
    measuring: bool = False


def make_tables(count: int, seats: int, games: list[str]) -> list[BenchTable]:
    """Bot accounts with tokens, seated `seats` to a table, each game started (set-up)."""
    from django.contrib.auth import get_user_model

    from accounts.api_tokens import token_create
    from accounts.bots import account_upgrade_to_bot
    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.interface import get_game

    run = secrets.token_hex(3)
    users = get_user_model()
    tables = []
    for number in range(count):
        kind = games[number % len(games)]
        accounts = []
        for place in range(seats):
            name = f"apib{run}t{number}s{place}"
            user = users.objects.create_user(username=name, password=None)
            account_upgrade_to_bot(user_id=user.pk)
            secret = token_create(user_id=user.pk, description="bench",
                                  scopes=("bot:play",)).secret
            accounts.append((Viewer(user_id=user.pk, guest_key=None, username=name), secret))
        host = accounts[0][0]
        table = services.table_create(viewer=host, name=host.username, game_kind=kind,
                                      ruleset_spec={"preset": next(iter(
                                          get_game(kind).presets()))})
        for viewer, _ in accounts[1:]:
            services.seat_join(table_id=table.pk, viewer=viewer, name=viewer.username)
        game = services.game_start(table_id=table.pk, viewer=host)
        engine_seat = {p.get("user_id"): i for i, p in enumerate(game.players)}
        tables.append(BenchTable(game.pk, table.pk, kind,
                                 [BenchSeat(secret, engine_seat[viewer.user_id])
                                  for viewer, secret in accounts]))
    return tables


def end_tables(tables: list[BenchTable]) -> None:
    import livesetup

    livesetup.end_tables([t.table_id for t in tables])


def _shown_at(table: BenchTable, seat: int, version: int) -> float | None:
    """When the seat's stream first showed `version` or a later one, if it did."""
    shown = table.shown.get(seat, [])
    at = bisect.bisect_left(shown, (version, -1.0))
    return shown[at][1] if at < len(shown) else None


def _settle(table: BenchTable, figures: Figures) -> None:
    """Count every owed move all of whose seats have now shown it."""
    still = []
    for version, sent, seats in table.owed:
        times = [_shown_at(table, s, version) for s in seats]
        if any(t is None for t in times):
            still.append((version, sent, seats))
            continue
        if figures.measuring:
            figures.every_seat.extend(t - sent for t in times if t is not None)
            figures.last_seat.append(max(t for t in times if t is not None) - sent)
    table.owed = still


class SeatBot:
    def __init__(self, client: httpx.AsyncClient, table: BenchTable, me: BenchSeat,
                 figures: Figures, think: float, rng: random.Random) -> None:
        self.client, self.table, self.me, self.figures = client, table, me, figures
        self.think, self.rng = think, rng
        self.headers = {"Authorization": f"Bearer {me.secret}"}
        self.answered: tuple[int, str] = (-1, "")
        self.pending: asyncio.Task[None] | None = None
        self.posting = False
        self.latest: dict[str, Any] | None = None  # the last gameState the stream brought

    async def play(self) -> None:
        path = f"/api/bot/game/stream/{self.table.game_id}"
        try:
            async with self.client.stream("GET", path, headers=self.headers) as response:
                if response.status_code != 200:
                    self.figures.errors.append(f"stream {response.status_code}")
                    return
                async for line in response.aiter_lines():
                    if line.strip():
                        self.on_event(json.loads(line), time.monotonic())
        except (TimeoutError, httpx.HTTPError) as exc:
            self.figures.errors.append(f"stream: {type(exc).__name__} {exc}")

    def on_event(self, event: dict[str, Any], at: float) -> None:
        if event["type"] == "gameFull":
            event = event["state"]
        if event["type"] != "gameState":
            return
        shown = self.table.shown.setdefault(self.me.seat, [])
        if shown and event["version"] < shown[-1][0]:
            return
        shown.append((event["version"], at))
        _settle(self.table, self.figures)
        if event["status"] != "running":
            self.table.finished = True
            return
        self.latest = event
        if not self.posting:
            self.decide()

    def decide(self) -> None:
        """Think about the latest state's decision, if it is the seat's and not yet answered."""
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()  # still thinking about a decision that is gone
        state = self.latest
        if (state is not None and state["status"] == "running" and state["your_decision"]
                and (state["version"], state["decision_token"]) != self.answered):
            self.pending = asyncio.create_task(self.move(state))

    async def move(self, state: dict[str, Any]) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        actions = [a for a in state["legal_actions"] if a["type"] not in NEVER]
        body = {"action": self.rng.choice(actions or state["legal_actions"]),
                "version": state["version"], "decision_token": state["decision_token"]}
        self.answered = (state["version"], state["decision_token"])
        sent = time.monotonic()
        self.posting = True
        try:
            answer = await self.client.post(f"/api/bot/game/{self.table.game_id}/move",
                                            json=body, headers=self.headers)
        except httpx.HTTPError as exc:
            self.figures.errors.append(f"move: {type(exc).__name__} {exc}")
            return
        finally:
            self.posting = False
            # A state that came while the POST was out was left for now: its turn.
            asyncio.get_running_loop().call_soon(self.decide)
        took = time.monotonic() - sent
        if answer.status_code == 409:
            self.figures.races[answer.json().get("code", "?")] += 1
            return
        if answer.status_code != 200:
            self.figures.errors.append(f"move {answer.status_code}: {answer.text[:200]}")
            return
        if self.figures.measuring:
            self.figures.posts.append(took)
            self.figures.moves[self.table.kind] += 1
            self.table.owed.append((answer.json()["version"], sent,
                                    {s.seat for s in self.table.seats}))
            _settle(self.table, self.figures)


def _pg_pids(database: str) -> list[int]:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                            (database,)).fetchall()
    return [r[0] for r in rows]


def ms(values: list[float], q: float) -> float:
    return round(1000 * liveplay.percentile(values, q), 1)


async def run(stack: livestack.LiveStack, tables: list[BenchTable], *, think: float,
              duration: float, warmup: float, seed: int) -> dict[str, Any]:
    figures = Figures()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=400)
    async with httpx.AsyncClient(base_url=stack.http_base(0), limits=limits,
                                 timeout=httpx.Timeout(30.0)) as client:
        bots = [SeatBot(client, table, seat, figures, think,
                        random.Random(seed * 100_003 + n))
                for n, (table, seat) in enumerate((t, s) for t in tables for s in t.seats)]
        tasks = [asyncio.create_task(b.play()) for b in bots]
        await asyncio.sleep(warmup)
        figures.measuring = True
        pg = [] if stack.sqlite else _pg_pids(stack.database)
        pids = stack.pids()
        cpu0 = {k: livestack.cpu_of(v) for k, v in pids.items()} | {"pg": livestack.cpu_of(pg)}
        load0 = os.getloadavg()[0]
        started, client0 = time.monotonic(), time.process_time()
        await asyncio.sleep(duration)
        elapsed = time.monotonic() - started
        client_cpu = (time.process_time() - client0) / elapsed
        figures.measuring = False
        cpu1 = {k: livestack.cpu_of(v) for k, v in pids.items()} | {"pg": livestack.cpu_of(pg)}
        for task in [*tasks, *(b.pending for b in bots if b.pending is not None)]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # A move some seat of a running game never showed within the run (one that came in the
    # run's last moments is not counted: its streams had no time to tell).
    unseen = sum(1 for t in tables if not t.finished
                 for version, sent, _ in t.owed if sent < started + elapsed - 5.0)
    moves = sum(figures.moves.values())
    cpu = {k: round((cpu1[k] - cpu0.get(k, 0.0)) / elapsed, 2) for k in cpu1}
    return {
        "bots": sum(len(t.seats) for t in tables), "tables": len(tables),
        "seconds": round(elapsed, 1), "moves": moves,
        "moves_per_s": round(moves / elapsed, 1), "moves_by_game": dict(figures.moves),
        "every_seat_p50_ms": ms(figures.every_seat, 50),
        "every_seat_p99_ms": ms(figures.every_seat, 99),
        "last_seat_p50_ms": ms(figures.last_seat, 50),
        "last_seat_p99_ms": ms(figures.last_seat, 99),
        "post_p50_ms": ms(figures.posts, 50), "post_p99_ms": ms(figures.posts, 99),
        "races": dict(figures.races), "errors": len(figures.errors) + unseen,
        "unseen": unseen, "error_samples": figures.errors[:5],
        "games_finished": sum(t.finished for t in tables),
        "web_cpu": cpu.get("web", 0.0),
        "web_cpu_ms_per_move": round(1000 * cpu.get("web", 0.0) * elapsed / max(1, moves), 1),
        "worker_cpu": cpu.get("worker", 0.0),
        "postgres_cpu": cpu["pg"], "client_cpu": round(client_cpu, 2),
        "load_before": round(load0, 1),
        "load_after": round(os.getloadavg()[0], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--seats", type=int, default=4, help="API bots at each table")
    parser.add_argument("--games", default=",".join(GAMES), help="dealt to the tables in turn")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a bot waits before a move")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    parser.add_argument("--sqlite", action="store_true",
                        help="one Daphne on an embedded database, no worker (the tests' run)")
    parser.add_argument("--database", default="chudopoly_api_bench",
                        help="the database it drops and creates (one per concurrent run)")
    parser.add_argument("--redis-db", type=int, default=10,
                        help="the Redis database it flushes and uses (one per concurrent run)")
    parser.add_argument("--reuse-database", action="store_true",
                        help="keep the database if it is there (migrated, not made again)")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    stack = livestack.LiveStack(web=1, sqlite=args.sqlite, database=args.database,
                                redis_db=args.redis_db)
    stack.prepare(fresh=not args.reuse_database)
    stack.setup_django()
    stack.start()
    tables: list[BenchTable] = []
    try:
        tables = make_tables(args.tables, args.seats, games)
        out = asyncio.run(run(stack, tables, think=args.think, duration=args.duration,
                              warmup=args.warmup, seed=args.seed))
    finally:
        stack.stop()
        if tables:
            end_tables(tables)
    if args.json:
        print(json.dumps(out), flush=True)
        return 0 if out["errors"] == 0 else 1
    print(f"{out['bots']} API bots at {out['tables']} tables ({', '.join(games)}), "
          f"think {args.think} s, {out['seconds']} s measured", flush=True)
    print(f"moves: {out['moves']} ({out['moves_per_s']}/s; "
          + ", ".join(f"{g} {n}" for g, n in sorted(out["moves_by_game"].items())) + ")")
    print(f"POST -> every seat's stream: p50 {out['every_seat_p50_ms']} ms, "
          f"p99 {out['every_seat_p99_ms']} ms; the table's last seat: "
          f"p50 {out['last_seat_p50_ms']} ms, p99 {out['last_seat_p99_ms']} ms")
    print(f"POST answered: p50 {out['post_p50_ms']} ms, p99 {out['post_p99_ms']} ms")
    print("races: " + (", ".join(f"{c} {n}" for c, n in out["races"].items()) or "0")
          + f"; games finished: {out['games_finished']}")
    print(f"errors: {out['errors']} ({out['unseen']} moves some seat never showed)")
    for sample in out["error_samples"]:
        print(f"      error: {sample}")
    print(f"CPU cores: web {out['web_cpu']} ({out['web_cpu_ms_per_move']} ms a move), "
          f"worker {out['worker_cpu']}, "
          f"postgres {out['postgres_cpu']}, the bots' client {out['client_cpu']}; "
          f"load average {out['load_before']} before, "
          f"{out['load_after']} after", flush=True)
    return 0 if out["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
