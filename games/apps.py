from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Register the Celery tasks in every process, so the in-process scheduler finds them.
        from games import tasks  # noqa: F401
