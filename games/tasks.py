"""Celery tasks: thin, they take ids and call services (and run in-process in the default)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task


@shared_task(name="chudopoly.ping")
def ping(token: str) -> str:
    """Round trip for health checks and for the tests that prove a real worker runs tasks."""
    return f"pong:{token}"


@shared_task(name="chudopoly.bot_move")
def bot_move(game_id: int, seat: int, version: int, decision: str | None = None) -> bool:
    """One bot decision; a late or duplicate delivery finds the seat's decision (`decision`,
    its token at `version`) moved on and stops. Tasks of older releases carry no token."""
    from games.services import game_bot_move

    return game_bot_move(game_id=game_id, seat=seat, version=version,
                         decision=decision) is not None


@shared_task(name="chudopoly.bots_watchdog")
def bots_watchdog(idle_seconds: float = 5.0) -> int:
    """Re-arm bot moves of running games that have sat still (a lost task, a restart)."""
    from django.utils import timezone

    from games.models import Game
    from games.services import schedule_bot_moves

    stale = Game.objects.filter(status=Game.Status.RUNNING,
                                updated_at__lt=timezone.now() - timedelta(seconds=idle_seconds))
    return sum(schedule_bot_moves(game_id=pk) for pk in stale.values_list("pk", flat=True)[:200])


@shared_task(name="chudopoly.clock_expire")
def clock_expire(game_id: int, due: str | None = None, version: int | None = None) -> int:
    """The deadline `due` came: the automatic decisions (nothing if the deadline moved).
    `version` is what tasks queued by older releases carry instead."""
    from games.clocks import game_clock_expire

    return game_clock_expire(game_id=game_id, due=due, version=version)


@shared_task(name="chudopoly.clocks_sweep")
def clocks_sweep() -> int:
    """Expired clocks and seats gone past the grace, whether or not a task was scheduled."""
    from games.clocks import clocks_sweep as sweep

    return sweep()


@shared_task(name="chudopoly.seat_grace_check")
def seat_grace_check(seat_id: int, since: str) -> bool:
    """A seat's owner closed their last socket `since`: a bot plays it if they stayed away."""
    from games.clocks import seat_takeover_if_gone

    return seat_takeover_if_gone(seat_id=seat_id, since=since)


@shared_task(name="chudopoly.rematch_due")
def rematch_due(table_id: int) -> bool:
    """A rematch offer's deadline: start with those who accepted."""
    from games.services import rematch_due as due

    return due(table_id=table_id) is not None
