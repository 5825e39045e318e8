"""Fault injection (marker `faults`; needs DATABASE_URL and REDIS_URL): while two games are
being played over real sockets, kill -9 Daphne and restart it, kill -9 the Celery worker and
restart it, and restart the local Redis. The worker runs under a supervisor that restarts it if
it exits, as production's does (docs/reliability.md). Every game resumes and ends, the
scripted clients reconnect by themselves, every move the server acknowledged is in the log
exactly where it was made, the log replays to the stored state, and the ranked game's ratings
change exactly once.

Stopping PostgreSQL is left to bench/fault_injection.py (docs/reliability.md): other suites
share that server.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import faultkit
import livesetup
import pytest
from liveplay import ScriptedSeat

from games.platform.models import Game

ROOT = Path(__file__).resolve().parents[2]
REDIS_DB = 14  # our processes' broker and channel layer, apart from the rest of the suite

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
                       reason="fault injection needs DATABASE_URL and REDIS_URL"),
]


def _env() -> dict[str, str]:
    from django.db import connection

    settings_dict = connection.settings_dict
    user = settings_dict.get("USER") or ""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update({
        "DATABASE_URL": f"postgres://{user + '@' if user else ''}"
                        f"{settings_dict.get('HOST') or '127.0.0.1'}:"
                        f"{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "CHANNEL_PREFIX": "faults",
        "DEBUG": "1",
        "BOT_PAUSE_SECONDS": "0.1",
        "PYTHONUNBUFFERED": "1",
    })
    return env


@pytest.fixture
def processes(transactional_db: None) -> Iterator[faultkit.Processes]:
    logs = ROOT / ".bench-logs"
    logs.mkdir(exist_ok=True)
    procs = faultkit.Processes(_env(), logs)
    procs.start()
    try:
        yield procs
    finally:
        procs.stop()
        faultkit.start_redis()  # whatever happened, the shared Redis is up again


def _version(game_id: int) -> int:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).get()


async def _progress(game_ids: list[int], moves: int, seconds: float) -> None:
    """Wait until every game made `moves` more moves (each must, to count as resumed)."""
    from asgiref.sync import sync_to_async

    start = {g: await sync_to_async(_version)(g) for g in game_ids}
    deadline = time.monotonic() + seconds
    while True:
        now = {g: await sync_to_async(_version)(g) for g in game_ids}
        finished = await sync_to_async(lambda: set(Game.objects.filter(
            pk__in=game_ids, status=Game.Status.FINISHED).values_list("pk", flat=True)))()
        if all(now[g] >= start[g] + moves or g in finished for g in game_ids):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"games did not resume: {start} -> {now}")
        await asyncio.sleep(0.2)


async def _blocking(fn: Callable[[], Any]) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn)


def test_games_survive_kill_9_of_daphne_and_the_worker_and_a_redis_restart(
        processes: faultkit.Processes) -> None:
    ranked = livesetup.ranked_table(2, preset="blitz")
    with_bot = livesetup.guest_table(1, bots=1, preset="blitz", prefix="B")
    games = [ranked.game_id, with_bot.game_id]

    async def scenario() -> dict[str, ScriptedSeat]:
        clients = {}
        for i, (name, cookie) in enumerate([*ranked.cookies.items(),
                                            *with_bot.cookies.items()]):
            clients[name] = ScriptedSeat(processes.ws, ranked.code if name in ranked.cookies
                                         else with_bot.code, cookie, rng=random.Random(i),
                                         think=0.1, name=name, reply_timeout=20,
                                         reconnect_for=90)
        await asyncio.gather(*(c.connect() for c in clients.values()))
        players = [asyncio.create_task(c.play(until=time.monotonic() + 240))
                   for c in clients.values()]

        async def supervisor() -> None:
            while True:
                await asyncio.sleep(0.5)
                await _blocking(processes.supervise)

        watching = asyncio.create_task(supervisor())

        def reconnects(phase: str) -> None:
            phases[phase] = sum(c.stats.reconnects for c in clients.values())
            processes.note(f"resumed after {phase}")

        try:
            await _progress(games, 3, 30)
            # A blitz game can be over before the first fault; its client has nothing to
            # reconnect for.
            playing.update(name for name, c in clients.items() if not c.finished)
            await _blocking(processes.kill_web)
            await asyncio.sleep(1.0)
            await _blocking(processes.start_web)
            await _progress(games, 3, 60)
            reconnects("daphne")

            await _blocking(processes.kill_worker)
            await asyncio.sleep(1.0)
            await _blocking(processes.start_worker)
            await _progress(games, 3, 60)
            reconnects("worker")

            try:
                await _blocking(faultkit.stop_redis)
                processes.note("redis stopped")
                await asyncio.sleep(1.0)
            finally:
                await _blocking(faultkit.start_redis)
                processes.note("redis started")
            await _progress(games, 3, 60)
            reconnects("redis")
            for c in clients.values():
                c.think = 0.0  # play the games out
            await asyncio.wait_for(asyncio.gather(*players), 180)
        finally:
            watching.cancel()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            await asyncio.gather(*(c.close() for c in clients.values()),
                                 return_exceptions=True)
        return clients

    phases: dict[str, int] = {}
    playing: set[str] = set()
    started = time.monotonic()
    clients = asyncio.run(scenario())
    print("timeline:", [(round(t - started, 1), what) for t, what in processes.events])
    print("reconnects so far after each fault:", phases)
    print("client errors:", {c.name: c.stats.errors[:3] for c in clients.values()})
    for client in clients.values():
        assert client.finished, f"{client.name} never saw the end: {client.stats.errors}"
    assert playing, "every game ended before the first fault: the test proved nothing"
    assert all(clients[name].stats.reconnects >= 1 for name in playing), (
        "every client still playing should have reconnected by itself after Daphne died: "
        f"{ {name: clients[name].stats.reconnects for name in playing} }")

    for table, game_id in ((ranked, ranked.game_id), (with_bot, with_bot.game_id)):
        seats = {table.seats[name]: clients[name] for name in table.cookies}
        audit = faultkit.audit_game(game_id, seats)
        assert audit["status"] == Game.Status.FINISHED, audit
        assert audit["problems"] == [], audit
        assert audit["acked"] > 0
    assert faultkit.audit_game(with_bot.game_id, {})["sources"].get("bot", 0) > 0

    ratings = faultkit.audit_ratings(ranked.game_id)
    assert ratings == {"records": 1, "rated": True, "unrated_reason": "", "results": 2,
                       "rating_rows": 2, "games_counted": [1, 1]}, ratings


def _off_loop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Database set-up on a worker thread: Playwright's sync API keeps an event loop on this
    one, where async_to_sync (the broadcasts) refuses to run."""
    from django.db import connections

    def call() -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


@pytest.mark.browser
def test_a_real_browser_reconnects_by_itself_after_daphne_is_killed(
        processes: faultkit.Processes, browser: Any) -> None:
    """The page's own socket (htmx ws + static/js/table.js) finds the restarted server."""
    table = _off_loop(livesetup.guest_table, 2, preset="blitz", prefix="W")
    watcher = next(iter(table.cookies.values())).partition("=")[2]
    context = browser.new_context()
    context.add_cookies([{"name": "sessionid", "value": watcher, "url": processes.http}])
    page = context.new_page()
    try:
        page.goto(f"{processes.http}/t/{table.code}/")
        page.wait_for_selector('#connection[data-state="open"]', timeout=30_000)

        def shows(version: int) -> None:
            page.wait_for_function(
                f"document.getElementById('table-version').value === '{version}'",
                timeout=30_000)

        shows(faultkit.one_move(processes.env, table.game_id))
        processes.kill_web()
        page.wait_for_selector('#connection:not([data-state="open"])', timeout=30_000)
        processes.start_web()
        page.wait_for_selector('#connection[data-state="open"]', timeout=60_000)
        shows(faultkit.one_move(processes.env, table.game_id))  # live again, no reload
    finally:
        context.close()
