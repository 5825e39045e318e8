"""`manage.py serve`: the one command that runs the whole site.

It migrates the database, then runs Daphne (HTTP and websockets) on 127.0.0.1:8000. Background
work runs in-process in the embedded default; with TASK_BACKEND=celery it also starts one
Celery worker with an embedded beat unless --no-worker is given (production runs them apart).
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Migrate, then serve HTTP + websockets with Daphne (and background work)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-migrate", action="store_true")
        parser.add_argument("--no-worker", action="store_true",
                            help="with TASK_BACKEND=celery, do not start a worker here")

    def handle(self, *args: Any, host: str, port: int, no_migrate: bool, no_worker: bool,
               **options: Any) -> None:
        if not no_migrate:
            call_command("migrate", interactive=False, verbosity=0)
        if not settings.DEBUG:
            call_command("collectstatic", interactive=False, verbosity=0)
        worker = None
        if settings.TASK_BACKEND == "celery" and not no_worker:
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "chudopoly_site", "worker", "--beat",
                 "--loglevel", "INFO", "--concurrency", "2"]
            )
        self.stdout.write(f"Chudopoly is at http://{host}:{port}/ (tasks: "
                          f"{settings.TASK_BACKEND}). Press Ctrl+C to stop.")
        from daphne.cli import CommandLineInterface

        try:
            CommandLineInterface().run(["--bind", host, "--port", str(port),
                                        "--proxy-headers", "chudopoly_site.asgi:application"])
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=10)
