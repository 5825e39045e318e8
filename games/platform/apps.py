from django.apps import AppConfig

# Periodic jobs (task name -> seconds) for Celery beat and the in-process scheduler alike.
# The bot watchdog re-arms bot moves lost to a restart or a dropped task (REFERENCE §7: 5 s);
# the due-clock sweep runs out every clock whose deadline passed (a move schedules nothing for
# its clocks: games/platform/clocks.py), so a clock runs over by at most about a second; the
# clocks sweep gives back downtime and acts on long disconnects, stale sockets and hosts.
PERIODIC = {"tables.bots_watchdog": 5.0, "tables.clocks_due": 1.0, "tables.clocks_sweep": 2.0}


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    # The platform app keeps the label "games" it had before it moved to games/platform, so the
    # migrations, the table names (games_table, games_game, …) and existing databases stay valid.
    name = "games.platform"
    label = "games"

    def ready(self) -> None:
        from django.conf import settings

        # Register the Celery tasks in every process, so the in-process scheduler finds them.
        from games.platform import tasks  # noqa: F401

        for name, seconds in PERIODIC.items():
            settings.PERIODIC_TASKS.setdefault(name, seconds)
