from __future__ import annotations

from django.apps import AppConfig


class ChudopolyConfig(AppConfig):
    name = "games.chudopoly"
    label = "chudopoly"
    verbose_name = "Chudopoly"
