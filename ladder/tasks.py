"""Celery tasks of the ladder: thin, they take ids and call services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="ladder.pair_queues")
def pair_queues() -> int:
    """The periodic pairing sweep; also starts matches whose arrival deadline passed."""
    from ladder.services import matches_start_overdue, queue_pair

    made = len(queue_pair())
    matches_start_overdue()
    return made


@shared_task(name="ladder.match_start")
def match_start(match_id: int) -> bool:
    from ladder.services import match_start as start

    return start(match_id=match_id) is not None


@shared_task(name="ladder.record_finished")
def record_finished() -> int:
    """Safety net: record finished games the finish hook missed."""
    from ladder.services import ladder_record_finished_games

    return ladder_record_finished_games()
