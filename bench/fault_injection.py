"""Fault injection, the full run: while several games are played over real sockets, kill -9
Daphne, kill -9 the Celery worker, restart Redis and stop PostgreSQL, each `--rounds` times;
then check that every game resumed and ended, every client reconnected by itself, no
acknowledged move was lost or applied twice, and ranked games changed ratings exactly once.

    uv run python bench/fault_injection.py                  # 2 rounds of every fault
    uv run python bench/fault_injection.py --no-postgres    # leave the shared PostgreSQL alone

It uses its own database (chudopoly_faults) and Redis db 13, a production-shaped Daphne
(DEBUG=0) and one worker with beat under a supervisor that restarts it if it exits (as docker
compose's `restart: unless-stopped` does). Redis is restarted with exactly
`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no` and
PostgreSQL with `pg_ctlcluster --skip-systemctl-redirect <version> main stop/start`; both are
started again in a `finally`, so they are up at the end even if the run fails. Other programs
using them on this machine see the same outage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultkit
import livestack
from liveplay import ScriptedSeat


async def _blocking(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def _versions(game_ids: list[int]) -> dict[int, tuple[int, str]]:
    from django.db import close_old_connections

    from games.platform.models import Game

    close_old_connections()  # PostgreSQL may have restarted under this process too
    for attempt in range(60):
        try:
            return {g.pk: (g.version, g.status) for g in
                    Game.objects.filter(pk__in=game_ids).only("pk", "version", "status")}
        except Exception:  # the database is down: wait for it
            close_old_connections()
            time.sleep(0.5 + attempt * 0.1)
    raise RuntimeError("the database did not come back")


async def _resumed(game_ids: list[int], moves: int, seconds: float) -> float:
    """Seconds until every unfinished game made `moves` more moves."""
    started = time.monotonic()
    before = await _blocking(_versions, game_ids)
    while True:
        now = await _blocking(_versions, game_ids)
        if all(now[g][1] == "finished" or now[g][0] >= before[g][0] + moves for g in game_ids):
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            raise RuntimeError(f"games did not resume within {seconds}s: {before} -> {now}")
        await asyncio.sleep(0.2)


async def scenario(procs: faultkit.Processes, tables: list[Any], *, rounds: int,
                   postgres: bool, think: float) -> dict[str, Any]:
    clients: dict[str, ScriptedSeat] = {}
    n = 0
    for table in tables:
        for name, cookie in table.cookies.items():
            clients[name] = ScriptedSeat(procs.ws, table.code, cookie, rng=random.Random(n),
                                         think=think, name=name, reply_timeout=30,
                                         reconnect_for=120)
            n += 1
    game_ids = [t.game_id for t in tables]
    await asyncio.gather(*(c.connect() for c in clients.values()))
    players = [asyncio.create_task(c.play(until=time.monotonic() + 900))
               for c in clients.values()]

    async def supervisor() -> None:
        while True:
            await asyncio.sleep(0.5)
            await _blocking(procs.supervise)

    watching = asyncio.create_task(supervisor())
    faults: list[dict[str, Any]] = []

    async def fault(kind: str, down: Any, up: Any, outage: float) -> None:
        reconnects = sum(c.stats.reconnects for c in clients.values())
        started = time.monotonic()
        try:
            await _blocking(down)
            procs.note(f"{kind} down")
            await asyncio.sleep(outage)
        finally:
            await _blocking(up)
            procs.note(f"{kind} up")
        back = time.monotonic() - started
        resumed = await _resumed(game_ids, 2, 180)
        faults.append({"fault": kind, "outage_s": round(back, 1),
                       "resumed_after_s": round(back + resumed, 1),
                       "reconnects": sum(c.stats.reconnects for c in clients.values())
                       - reconnects})

    try:
        await _resumed(game_ids, 3, 60)
        for _ in range(rounds):
            await fault("daphne (kill -9)", procs.kill_web, procs.start_web, 1.0)
            await fault("worker (kill -9)", procs.kill_worker, procs.start_worker, 1.0)
            await fault("redis (restart, no persistence)", faultkit.stop_redis,
                        faultkit.start_redis, 1.0)
            if postgres:
                await fault("postgresql (stop/start)", faultkit.stop_postgres,
                            faultkit.start_postgres, 2.0)
        for c in clients.values():
            c.think = 0.0
        await asyncio.wait_for(asyncio.gather(*players), 600)
    finally:
        watching.cancel()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await asyncio.gather(*(c.close() for c in clients.values()), return_exceptions=True)
    return {"faults": faults, "clients": clients}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--ranked", type=int, default=3, help="ranked 2-player games")
    parser.add_argument("--with-bots", type=int, default=3, help="1 player + 1 bot games")
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)

    stack = livestack.LiveStack(web=1, database="chudopoly_faults", redis_db=13)
    stack.prepare()
    stack.setup_django()
    env = {**stack.env, "BOT_PAUSE_SECONDS": "0.3"}
    procs = faultkit.Processes(env, livestack.LOGS)
    import livesetup

    tables = [livesetup.ranked_table(2, preset="blitz") for _ in range(args.ranked)]
    tables += [livesetup.guest_table(1, bots=1, preset="blitz", prefix=f"B{i}")
               for i in range(args.with_bots)]
    procs.start()
    started = time.monotonic()
    try:
        out = asyncio.run(scenario(procs, tables, rounds=args.rounds,
                                   postgres=not args.no_postgres, think=args.think))
    finally:
        procs.stop()
        faultkit.start_redis()
        faultkit.start_postgres()
    from django.db import close_old_connections

    close_old_connections()
    clients = out["clients"]
    audits = []
    for table in tables:
        seats = {table.seats[name]: clients[name] for name in table.cookies}
        audits.append(faultkit.audit_game(table.game_id, seats))
    ratings = [faultkit.audit_ratings(t.game_id) for t in tables[:args.ranked]]
    summary = {
        "seconds": round(time.monotonic() - started, 1),
        "games": len(tables),
        "faults": out["faults"],
        "worker_exits_by_itself": sum("exited by itself" in what for _, what in procs.events),
        "games_finished": sum(a["status"] == "finished" for a in audits),
        "moves_logged": sum(a["actions"] for a in audits),
        "moves_acknowledged": sum(a["acked"] for a in audits),
        "acknowledged_moves_lost": sum(a["lost"] for a in audits),
        "replays_match": all(a["replay_matches"] for a in audits),
        "log_sources": [a["sources"] for a in audits],
        "problems": [p for a in audits for p in a["problems"]],
        "ranked_games_rated_once": sum(r == {"records": 1, "rated": True, "unrated_reason": "",
                                             "results": 2, "rating_rows": 2,
                                             "games_counted": [1, 1]} for r in ratings),
        "ratings": ratings,
        "client_reconnects": sum(c.stats.reconnects for c in clients.values()),
        "client_errors": [e for c in clients.values() for e in c.stats.errors][:10],
    }
    print(json.dumps(summary, indent=1))
    ok = (summary["games_finished"] == len(tables) and not summary["problems"]
          and summary["ranked_games_rated_once"] == args.ranked
          and not summary["client_errors"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
