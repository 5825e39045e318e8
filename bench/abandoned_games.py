"""What games nobody plays cost the worker: N Quick Play games whose player left.

    uv run python bench/abandoned_games.py --games 40 --seconds 10
    uv run python bench/abandoned_games.py --games 40 --seconds 10 --watching

On a throwaway SQLite file (never the developer's db.sqlite3), one guest per game starts a
Quick Play game (three bots) and presses Leave. The in-process scheduler then runs the bot
tasks on this thread for `--seconds`, with no pause before a bot's move, and the bots watchdog
once a second; the script prints the bot moves made per second. `--watching` counts a socket
on each left seat (the player's page still open), so the games are not abandoned and the bots
play every seat: the load that every left game put on the worker before games/platform/abandoned.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--watching", action="store_true",
                        help="keep each left player's page open: the games are not abandoned")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="chudopoly-abandoned-")
    os.environ.update({"SQLITE_PATH": str(Path(workdir) / "bench.sqlite3"),
                       "BOT_PAUSE_SECONDS": "0", "DJANGO_SETTINGS_MODULE":
                       "chudopoly_site.settings"})
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    settings.TASK_INPROCESS_THREAD = False
    call_command("migrate", verbosity=0)

    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.models import Game, GameAction, Seat
    from games.platform.scheduler import in_process_scheduler
    from games.platform.tasks import bots_watchdog

    runner = in_process_scheduler()
    for n in range(args.games):
        viewer = Viewer(user_id=None, guest_key=f"bench-abandoned-{n:04d}-{'x' * 12}")
        table = services.table_play_vs_bots(viewer=viewer, name=f"P{n}",
                                            levels=services.QUICK_PLAY_LEVELS)
        services.seat_leave(table_id=table.pk, viewer=viewer)
    if args.watching:
        Seat.objects.filter(is_bot=False).update(connections=1)
    runner.clear()
    for game_id in Game.objects.values_list("pk", flat=True):
        services.schedule_bot_moves(game_id=game_id)

    before = GameAction.objects.filter(source="bot").count()
    start = time.monotonic()
    next_watchdog = start + 1.0
    while (now := time.monotonic()) - start < args.seconds:
        if now >= next_watchdog:
            bots_watchdog(idle_seconds=1.0)
            next_watchdog = now + 1.0
        # Only the jobs due now: the moves they schedule wait for the next pass.
        if not runner.run_due(timezone.now()):
            time.sleep(0.01)
    elapsed = time.monotonic() - start
    moves = GameAction.objects.filter(source="bot").count() - before
    running = Game.objects.filter(status=Game.Status.RUNNING).count()
    mode = "pages left open (not abandoned)" if args.watching else "abandoned"
    print(f"{args.games} Quick Play games, every player left, {mode}: {moves} bot moves in "
          f"{elapsed:.1f} s = {moves / elapsed:.1f} moves/s; {running} games still running")


if __name__ == "__main__":
    main()
