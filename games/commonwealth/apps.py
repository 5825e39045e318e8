from __future__ import annotations

from django.apps import AppConfig


class CommonwealthConfig(AppConfig):
    """Commonwealth plugs itself into the platform (the platform imports no game package)."""

    name = "games.commonwealth"
    label = "commonwealth"
    verbose_name = "Commonwealth"

    def ready(self) -> None:
        from games.platform.interface import register_game

        def factory():
            from games.commonwealth.game import CommonwealthGame

            return CommonwealthGame()

        register_game("commonwealth", factory)
