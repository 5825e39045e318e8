from __future__ import annotations

from django.apps import AppConfig


class ChudopolyConfig(AppConfig):
    """Chudopoly plugs itself into the platform: the platform imports no game package."""

    name = "games.chudopoly"
    label = "chudopoly"
    verbose_name = "Chudopoly"

    def ready(self) -> None:
        from games.platform.interface import register_game

        def factory():
            from games.chudopoly.game import ChudopolyGame

            return ChudopolyGame()

        register_game("chudopoly", factory)
