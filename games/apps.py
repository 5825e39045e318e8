from django.apps import AppConfig

# Periodic jobs (task name -> seconds) for Celery beat and the in-process scheduler alike.
# The bot watchdog re-arms bot moves lost to a restart or a dropped task (REFERENCE §7: 5 s);
# the clocks sweep acts on expired deadlines and long disconnects nobody scheduled a task for.
PERIODIC = {"chudopoly.bots_watchdog": 5.0, "chudopoly.clocks_sweep": 2.0}


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.conf import settings

        # Register the Celery tasks in every process, so the in-process scheduler finds them.
        from games import tasks  # noqa: F401

        for name, seconds in PERIODIC.items():
            settings.PERIODIC_TASKS.setdefault(name, seconds)
