from __future__ import annotations

from django.apps import AppConfig


class BoardroomConfig(AppConfig):
    """Boardroom plugs itself into the platform (the platform imports no game package)."""

    name = "games.boardroom"
    label = "boardroom"
    verbose_name = "Boardroom"

    def ready(self) -> None:
        from games.platform.interface import register_game

        def factory():
            from games.boardroom.game import BoardroomGame

            return BoardroomGame()

        register_game("boardroom", factory)
