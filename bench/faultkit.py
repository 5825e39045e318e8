"""Fault injection on this machine: kill -9 our own Daphne and Celery worker, restart the local
Redis, stop and start the local PostgreSQL, and check afterwards that nothing was lost.

Used by tests/hardening/test_faults.py (Daphne, worker, Redis) and bench/fault_injection.py
(the same plus PostgreSQL). Only processes this kit started are ever killed; Redis and
PostgreSQL are the shared local servers, so every stop is paired with a start that runs even
when the caller fails (`redis_down`, `postgres_down` are context managers).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import liveplay

REDIS_START = ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379",
               "--save", "", "--appendonly", "no"]


# --- our own processes --------------------------------------------------------------------------


class Processes:
    """One Daphne (on a fixed port, so clients find it again) and one worker with beat."""

    def __init__(self, env: dict[str, str], log_dir: Path, *, worker: bool = True) -> None:
        self.env = env
        self.log_dir = log_dir
        self.port = liveplay.free_port()
        self.web: subprocess.Popen[Any] | None = None
        self.worker: subprocess.Popen[Any] | None = None
        self.with_worker = worker
        self.events: list[tuple[float, str]] = []
        self.worker_down_on_purpose = False

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def note(self, what: str) -> None:
        self.events.append((time.monotonic(), what))

    def start_web(self) -> None:
        self.web = liveplay.start_daphne(self.port, self.env, self.log_dir / "faults-daphne.log")
        liveplay.wait_http(f"{self.http}/healthz", self.web, seconds=60)
        self.note("daphne up")

    def start_worker(self) -> None:
        self.worker = liveplay.start_worker(self.env, self.log_dir / "faults-worker.log",
                                            schedule=self.log_dir / "faults-celerybeat")
        self.worker_down_on_purpose = False
        self.note("worker started")

    def start(self) -> None:
        if self.with_worker:
            self.start_worker()
        self.start_web()

    def kill_web(self) -> None:
        assert self.web is not None
        liveplay.kill9(self.web)
        self.note("daphne killed (SIGKILL)")

    def kill_worker(self) -> None:
        assert self.worker is not None
        self.worker_down_on_purpose = True
        liveplay.kill9(self.worker)
        self.note("worker killed (SIGKILL)")

    def supervise(self) -> bool:
        """Restart the worker if it exited by itself, as a process supervisor would (docker
        compose `restart: unless-stopped`, systemd `Restart=always`). True if it did."""
        if self.worker is None or self.worker_down_on_purpose or self.worker.poll() is None:
            return False
        self.note(f"worker exited by itself (code {self.worker.returncode}); restarted")
        self.start_worker()
        return True

    def stop(self) -> None:
        for proc in (self.web, self.worker):
            if proc is not None:
                liveplay.stop(proc)


# --- the shared servers -------------------------------------------------------------------------


def redis_up() -> bool:
    result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"],
                            capture_output=True, text=True, timeout=10)
    return result.stdout.strip() == "PONG"


def start_redis() -> None:
    if not redis_up():
        subprocess.run(REDIS_START, check=True, timeout=30)
    deadline = time.monotonic() + 30
    while not redis_up():
        if time.monotonic() > deadline:
            raise RuntimeError("Redis did not come back")
        time.sleep(0.1)


def stop_redis() -> None:
    """Shut the local Redis down without saving (callers must `start_redis()` in a finally)."""
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"],
                   capture_output=True, timeout=30)
    deadline = time.monotonic() + 10
    while redis_up() and time.monotonic() < deadline:
        time.sleep(0.05)


@contextlib.contextmanager
def redis_down(seconds: float = 1.0) -> Iterator[None]:
    """Stop the local Redis (no save), keep it down `seconds`, and always start it again."""
    try:
        stop_redis()
        time.sleep(seconds)
        yield
    finally:
        start_redis()


def _cluster() -> str:
    return sorted(os.listdir("/etc/postgresql"))[0]


def postgres_up() -> bool:
    result = subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-q"],
                            capture_output=True, timeout=10)
    return result.returncode == 0


def start_postgres() -> None:
    if not postgres_up():
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _cluster(), "main",
                        "start"], capture_output=True, timeout=120)
    deadline = time.monotonic() + 60
    while not postgres_up():
        if time.monotonic() > deadline:
            raise RuntimeError("PostgreSQL did not come back")
        time.sleep(0.2)


def stop_postgres() -> None:
    """Stop the local cluster (fast: open sessions are cut); callers `start_postgres()` in a
    finally."""
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _cluster(), "main", "stop",
                    "--", "-m", "fast"], capture_output=True, timeout=120)


@contextlib.contextmanager
def postgres_down(seconds: float = 2.0) -> Iterator[None]:
    """Stop the local PostgreSQL cluster, keep it down `seconds`, and always start it again."""
    try:
        stop_postgres()
        time.sleep(seconds)
        yield
    finally:
        start_postgres()


# --- a move from outside, through the processes' own database and channel layer -------------------

_ONE_MOVE = """
import django, sys
django.setup()
from games.platform import services
from games.platform.interface import get_game
from games.platform.models import Game
game = Game.objects.get(pk=int(sys.argv[1]))
engine = get_game(game.game_kind)
seat = engine.to_decide(game.state)[0]
action = next(a for a in engine.legal_actions(game.state, seat) if a["type"] != "scoop")
print(services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                  expected_version=game.version).version)
"""


def one_move(env: dict[str, str], game_id: int) -> int:
    """Make one legal move in a game as the live processes would (their database and Redis),
    so the broadcast reaches their sockets. Returns the new version."""
    result = subprocess.run([sys.executable, "-c", _ONE_MOVE, str(game_id)], cwd=liveplay.ROOT,
                            env={**env, "DJANGO_SETTINGS_MODULE": "chudopoly_site.settings"},
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return int(result.stdout.strip().splitlines()[-1])


# --- after the faults: was anything lost or doubled? --------------------------------------------


def expected_action(move: dict[str, Any], version: int) -> dict[str, Any]:
    """The action the server stores for a move a scripted seat sent (its frame, parsed)."""
    from games.platform.frames import parse_frame

    return parse_frame(liveplay.act_frame(move, version)).action


def audit_game(game_id: int, seats: dict[int, liveplay.ScriptedSeat]) -> dict[str, Any]:
    """Compare what the clients were told with the log, and replay the log.

    `seats` maps engine seat -> the scripted client that played it.
    """
    from games.platform.interface import expand_action, get_game
    from games.platform.models import Game, GameAction

    game = Game.objects.get(pk=game_id)
    engine = get_game(game.game_kind)
    rows = list(GameAction.objects.filter(game=game).order_by("version"))
    problems: list[str] = []
    if [row.version for row in rows] != list(range(len(rows))) or len(rows) != game.version:
        problems.append("the log's versions are not 0..n-1")
    acked = lost = 0
    matched: set[int] = set()
    for seat, client in seats.items():
        for version, move in client.acked_moves:
            acked += 1
            # A move sent from a page `version` shows lands there, or later when only other
            # seats' independent moves came between (the decision token let it through).
            # A page action may stand for several engine actions, logged one after the other
            # ("Pay with these cards": accept, then pay).
            wants = expand_action(engine, {}, seat, expected_action(move, version))
            start = next((i for i in range(version, len(rows) - len(wants) + 1)
                          if all(rows[i + k].version not in matched and rows[i + k].seat == seat
                                 and rows[i + k].action == want
                                 for k, want in enumerate(wants))), None)
            if start is None:
                lost += 1
                problems.append(f"seat {seat}: the acknowledged move at version {version} "
                                f"is not in the log")
            else:
                matched.update(range(start, start + len(wants)))
    replayed = engine.replay(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed,
                             actions=[(row.seat, row.action) for row in rows])
    same = json.dumps(replayed, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    if not same:
        problems.append("replaying the log does not give the stored state")
    sources: dict[str, int] = {}
    for row in rows:
        sources[row.source] = sources.get(row.source, 0) + 1
    return {"game": game_id, "status": game.status, "actions": len(rows), "acked": acked,
            "lost": lost, "replay_matches": same, "sources": sources, "problems": problems}


def audit_ratings(game_id: int) -> dict[str, Any]:
    """A rated game's record, results and rating changes exist exactly once."""
    from ladder.models import GameRecord, PlayerResult, Rating

    records = list(GameRecord.objects.filter(game_id=game_id))
    results = list(PlayerResult.objects.filter(record__game_id=game_id))
    users = [r.user_id for r in results if r.user_id]
    ratings = list(Rating.objects.filter(user_id__in=users))
    return {"records": len(records), "rated": bool(records and records[0].rated),
            "unrated_reason": records[0].unrated_reason if records else None,
            "results": len(results), "rating_rows": len(ratings),
            "games_counted": sorted(r.games for r in ratings)}
