"""`manage.py serve`: the one command that runs the whole site.

It migrates the database, then runs Daphne (HTTP and websockets) on 127.0.0.1:8000. Background
work runs in-process in the embedded default; with TASK_BACKEND=celery it also starts one
Celery worker and one Celery beat unless --no-worker is given (production runs them apart), and
starts either again if it exits: a worker that died used to leave bots and clocks stopped while
the site kept answering. Both end with serve, even when it is killed with kill -9
(chudopoly_site/parent_death.py), and a beat only schedules while it holds the beat lock
(chudopoly_site/beat_lock.py), so a second serve never doubles the sweeps.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from chudopoly_site import parent_death

CHILDREN = {
    "worker": ["worker", "--loglevel", "INFO", "--concurrency", "2"],
    "beat": ["beat", "--loglevel", "INFO"],
}


class Supervisor:
    """Keeps the Celery children running: one that exits is started again after `delay`
    seconds (doubled, up to a minute, while it keeps dying within a minute of its start)."""

    def __init__(self, write: Any, delay: float) -> None:
        self.write = write
        self.base_delay = delay
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.started_at: dict[str, float] = {}
        self.delays: dict[str, float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="serve-supervisor", daemon=True)

    def start(self) -> None:
        for name in CHILDREN:
            self._spawn(name)
        self.thread.start()

    def _spawn(self, name: str) -> None:
        # The child ends with this process, even if it is killed with kill -9
        # (chudopoly_site/parent_death.py): a new serve must not find the old worker and beat.
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "chudopoly_site", *CHILDREN[name]],
            env={**os.environ, parent_death.ENV: str(os.getpid())})
        self.processes[name] = process
        self.started_at[name] = time.monotonic()
        self.write(f"started the Celery {name} (pid {process.pid})")

    def _watch(self) -> None:
        while not self.stopping.wait(0.5):
            for name, process in list(self.processes.items()):
                code = process.poll()
                if code is None:
                    continue
                lived = time.monotonic() - self.started_at[name]
                previous = self.delays.get(name)
                delay = (self.base_delay if previous is None or lived >= 60
                         else min(previous * 2, 60.0))
                self.delays[name] = delay
                self.write(f"the Celery {name} exited with code {code}; "
                           f"starting it again in {delay:.0f} s")
                if self.stopping.wait(delay):
                    return
                self._spawn(name)

    def stop(self) -> None:
        self.stopping.set()
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class Command(BaseCommand):
    help = "Migrate, then serve HTTP + websockets with Daphne (and background work)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-migrate", action="store_true")
        parser.add_argument("--no-worker", action="store_true",
                            help="with TASK_BACKEND=celery, do not start a worker and beat here")
        parser.add_argument("--restart-delay", type=float, default=1.0,
                            help="seconds before a Celery child that exited is started again")

    def handle(self, *args: Any, host: str, port: int, no_migrate: bool, no_worker: bool,
               restart_delay: float, **options: Any) -> None:
        if not no_migrate:
            call_command("migrate", interactive=False, verbosity=0)
        if not settings.DEBUG:
            call_command("collectstatic", interactive=False, verbosity=0)
        supervisor = None
        if settings.TASK_BACKEND == "celery" and not no_worker:
            supervisor = Supervisor(self._say, restart_delay)
            supervisor.start()
        self.stdout.write(f"Chudopoly is at http://{host}:{port}/ (tasks: "
                          f"{settings.TASK_BACKEND}). Press Ctrl+C to stop.")
        from daphne.cli import CommandLineInterface

        try:
            # No --proxy-headers: Daphne would take X-Forwarded-For from anyone. The app reads
            # it only from TRUSTED_PROXIES (chudopoly_site/client_address.py).
            CommandLineInterface().run(["--bind", host, "--port", str(port),
                                        "chudopoly_site.asgi:application"])
        finally:
            if supervisor is not None:
                supervisor.stop()

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
