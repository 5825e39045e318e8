"""A production-shaped stack on this machine for the live benches: Daphne process(es) and a
Celery worker on a bench PostgreSQL database and a Redis database of their own.

    stack = LiveStack(web=2)        # DEBUG=0, its own database and Redis db, 127.0.0.1 only
    stack.prepare()                 # create + migrate the database, collect static files
    stack.setup_django()            # this process talks to the same database (set-up only)
    stack.start()                   # daphne x web + one worker with beat
    ...
    stack.stop()

Nothing here listens anywhere but 127.0.0.1, and only processes it started are stopped.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import liveplay

ROOT = liveplay.ROOT
LOGS = ROOT / ".bench-logs"


def postgres_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


class LiveStack:
    def __init__(self, *, web: int = 1, database: str = "chudopoly_bench", redis_db: int = 11,
                 sqlite: bool = False, worker: bool = True, extra_env: dict[str, str] | None
                 = None) -> None:
        self.web_count = web
        self.database = database
        self.sqlite = sqlite
        self.with_worker = worker
        LOGS.mkdir(exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if k not in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")}
        env.update({
            "DEBUG": "0",
            "SECRET_KEY": "bench-" + secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "STATIC_ROOT": str(ROOT / ".bench-static"),
            "BOT_PAUSE_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        })
        if sqlite:
            env.pop("DATABASE_URL", None)
            env.pop("REDIS_URL", None)
            env["SQLITE_PATH"] = str(ROOT / f".bench-{database}.sqlite3")
        else:
            env["DATABASE_URL"] = postgres_url(database)
            env["REDIS_URL"] = f"redis://127.0.0.1:6379/{redis_db}"
            env["CHANNEL_PREFIX"] = f"bench{redis_db}"
        env.update(extra_env or {})
        self.env = env
        self.ports: list[int] = []
        self.web: list[subprocess.Popen[Any]] = []
        self.worker: subprocess.Popen[Any] | None = None

    # --- set-up -------------------------------------------------------------------------------
    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                       check=True, capture_output=True, timeout=600)

    def prepare(self, *, fresh: bool = True) -> None:
        if not self.sqlite:
            import psycopg

            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                                 autocommit=True) as conn:
                if fresh:
                    conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
                exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                      (self.database,)).fetchone()
                if not exists:
                    conn.execute(f'CREATE DATABASE "{self.database}"')
            import redis

            redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()
        else:
            path = Path(self.env["SQLITE_PATH"])
            if fresh and path.exists():
                path.unlink()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")

    def setup_django(self) -> None:
        """Point this process's Django at the stack's database (for set-up and checks)."""
        for key in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "CHANNEL_PREFIX", "DEBUG",
                    "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "STATIC_ROOT",
                    "BOT_PAUSE_SECONDS"):
            if key in self.env:
                os.environ[key] = self.env[key]
            else:
                os.environ.pop(key, None)
        os.environ["DJANGO_SETTINGS_MODULE"] = "chudopoly_site.settings"
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        import django

        django.setup()

    # --- processes ----------------------------------------------------------------------------
    def start(self) -> None:
        for old in LOGS.glob("*.log"):
            old.unlink()
        if self.with_worker and not self.sqlite:
            self.start_worker()
        for _ in range(self.web_count):
            self.ports.append(liveplay.free_port())
        for i in range(self.web_count):
            self.start_web(i)

    def start_web(self, i: int) -> None:
        port = self.ports[i]
        proc = liveplay.start_daphne(port, self.env, LOGS / f"daphne-{i}.log")
        if i < len(self.web):
            self.web[i] = proc
        else:
            self.web.append(proc)
        # Without a worker, /healthz on a broker-backed stack reports the missing worker
        # heartbeat (chudopoly_site/heartbeats.py); the home page says the web process is up.
        path = "/healthz" if self.sqlite or self.worker is not None else "/"
        liveplay.wait_http(f"http://127.0.0.1:{port}{path}", proc)

    def start_worker(self) -> None:
        self.worker = liveplay.start_worker(self.env, LOGS / "worker.log",
                                            schedule=LOGS / "celerybeat-schedule")
        time.sleep(0.5)

    def ws_base(self, i: int) -> str:
        return f"ws://127.0.0.1:{self.ports[i % len(self.ports)]}"

    def http_base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i % len(self.ports)]}"

    def pids(self) -> dict[str, list[int]]:
        out = {"web": [p.pid for p in self.web if p.poll() is None]}
        if self.worker is not None and self.worker.poll() is None:
            out["worker"] = [self.worker.pid]
        out["postgres"] = _pids_named("postgres") if not self.sqlite else []
        out["redis"] = _pids_named("redis-server") if not self.sqlite else []
        return out

    def stop(self) -> None:
        for proc in self.web:
            liveplay.stop(proc)
        if self.worker is not None:
            liveplay.stop(self.worker)


def _pids_named(name: str) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if f.read().strip() == name:
                    pids.append(int(entry))
        except OSError:
            continue
    return pids


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += liveplay.proc_cpu_seconds(pid)
        except OSError:
            continue
    return total
