from __future__ import annotations

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "games.api"
    label = "api"
    verbose_name = "Bot API"
