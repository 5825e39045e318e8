"""Celery tasks of challenges: thin, they call services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="challenges.bot_queue_pair")
def bot_queue_pair() -> int:
    """The bots' queue's periodic pairing: tables for waiting bot accounts, our bots for the
    long-waiting ones."""
    from challenges.bot_queue import queue_pair

    return len(queue_pair())
