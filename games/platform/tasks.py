"""Celery tasks: thin, they take ids and call services (and run in-process in the default).

The platform's tasks are named "tables.*". Until this release they were "chudopoly.*"; those
names stay registered as aliases of the same functions, so tasks already queued (or scheduled
by a web process of the previous release during an upgrade) still run.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import shared_task


@shared_task(name="chudopoly.ping", ignore_result=False)
def ping(token: str) -> str:
    """Round trip for health checks and for the tests that prove a real worker runs tasks."""
    return f"pong:{token}"


def _task(name: str, *, also: str) -> Callable[[Callable[..., Any]], Any]:
    """A shared task under `name`, and the same function again under the name older releases
    queued. Only the plain function is touched: reading anything off the task proxy while
    Django loads the apps would finalize the Celery app before the apps have filled
    PERIODIC_TASKS, and beat would start with no schedule at all."""

    def register(function: Callable[..., Any]) -> Any:
        shared_task(name=also)(function)
        return shared_task(name=name)(function)

    return register


@_task("tables.bot_move", also="chudopoly.bot_move")
def bot_move(game_id: int, seat: int, version: int, decision: str | None = None) -> bool:
    """One bot decision; a late or duplicate delivery finds the seat's decision (`decision`,
    its token at `version`) moved on and stops. Tasks of older releases carry no token."""
    from games.platform.services import game_bot_move

    return game_bot_move(game_id=game_id, seat=seat, version=version,
                         decision=decision) is not None


@_task("tables.bots_watchdog", also="chudopoly.bots_watchdog")
def bots_watchdog(idle_seconds: float = 5.0) -> int:
    """Re-arm bot moves of running games that have sat still (a lost task, a restart)."""
    from django.utils import timezone

    from games.platform.abandoned import played
    from games.platform.models import Game
    from games.platform.services import schedule_bot_moves

    # Games nobody plays are left alone (games/platform/abandoned.py).
    stale = Game.objects.filter(played(), status=Game.Status.RUNNING, table__paused_at=None,
                                updated_at__lt=timezone.now() - timedelta(seconds=idle_seconds))
    return sum(schedule_bot_moves(game_id=pk) for pk in stale.values_list("pk", flat=True)[:200])


@shared_task(name="tables.auto_move")
def auto_move(game_id: int, seat: int, version: int, decision: str | None = None) -> bool:
    """One seat's scheduled auto move; nothing if anything moved since it was scheduled."""
    from games.platform.services import game_auto_move

    return game_auto_move(game_id=game_id, seat=seat, version=version,
                          decision=decision) is not None


@_task("tables.clock_expire", also="chudopoly.clock_expire")
def clock_expire(game_id: int, due: str | None = None, version: int | None = None) -> int:
    """The deadline `due` came: the automatic decisions (nothing if the deadline moved).

    Nothing schedules it any more (the due-clock sweep below runs clocks out); it stays for the
    tasks earlier releases queued, one per deadline (`due`, or the oldest: `version`)."""
    from games.platform.clocks import game_clock_expire

    return game_clock_expire(game_id=game_id, due=due, version=version)


@shared_task(name="tables.clocks_due")
def clocks_due() -> int:
    """Every clock whose deadline has passed runs out (one read when none has)."""
    from games.platform.clocks import expire_due

    return expire_due()


@_task("tables.clocks_sweep", also="chudopoly.clocks_sweep")
def clocks_sweep() -> int:
    """Given-back downtime, expired clocks, seats gone past the grace, stale sockets, hosts
    and abandoned games."""
    from games.platform.clocks import clocks_sweep as sweep

    return sweep()


@_task("tables.seat_grace_check", also="chudopoly.seat_grace_check")
def seat_grace_check(seat_id: int, since: str) -> bool:
    """A seat's owner closed their last socket `since`: a bot plays it if they stayed away."""
    from games.platform.clocks import seat_takeover_if_gone

    return seat_takeover_if_gone(seat_id=seat_id, since=since)


@shared_task(name="tables.host_grace_check")
def host_grace_check(seat_id: int, since: str) -> bool:
    """A host closed their last socket `since` before the start: the right to start passes on
    if they stayed away."""
    from games.platform.clocks import host_pass_if_gone

    return host_pass_if_gone(seat_id=seat_id, since=since)


@shared_task(name="tables.rematch_due")
def rematch_due(table_id: int) -> bool:
    """A rematch offer's deadline: start with those who accepted."""
    from games.platform.services import rematch_due as due

    return due(table_id=table_id) is not None
