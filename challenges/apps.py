from __future__ import annotations

from django.apps import AppConfig

# Periodic jobs (task name -> seconds), added to settings.PERIODIC_TASKS for Celery beat and
# the in-process scheduler alike.
PERIODIC = {"challenges.bot_queue_pair": 2.0}  # bot_queue.PAIR_SECONDS


class ChallengesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "challenges"
    verbose_name = "Challenges, the bots' queue and account events"

    def ready(self) -> None:
        from django.conf import settings

        from challenges import tasks  # noqa: F401  (register the tasks in every process)

        for name, seconds in PERIODIC.items():
            settings.PERIODIC_TASKS.setdefault(name, seconds)
