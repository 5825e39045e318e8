"""Accounts are Django's own users; this app adds a display name and the bot flag (django-axes
counts failed log-ins)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(max_length=32, blank=True, default="")
    # A bot account is played by a program over the API (accounts/bots.py). Set once, by the
    # account itself, and never cleared: its games and ratings are a bot's for good.
    is_bot = models.BooleanField(default=False)
    bot_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
