from __future__ import annotations

from django.apps import AppConfig

# Periodic jobs (task name -> seconds), added to settings.PERIODIC_TASKS for Celery beat and
# the in-process scheduler alike. Pairing runs often: it also drives the queue pages' clocks.
PERIODIC = {
    "ladder.pair_queues": 2.0,
    "ladder.record_finished": 60.0,
}


class LadderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"

    def ready(self) -> None:
        from django.conf import settings

        from ladder import tasks  # noqa: F401  (register the tasks in every process)

        for name, seconds in PERIODIC.items():
            settings.PERIODIC_TASKS.setdefault(name, seconds)
