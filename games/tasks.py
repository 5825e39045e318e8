"""Celery tasks: thin, they take ids and call services (and run in-process in the default)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="chudopoly.ping")
def ping(token: str) -> str:
    """Round trip for health checks and for the tests that prove a real worker runs tasks."""
    return f"pong:{token}"
