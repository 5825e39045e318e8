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


class ApiToken(models.Model):
    """A personal API token: a program acts for its owner on /api/ with it (games/api/).

    Only a SHA-256 digest of the secret is stored (the secret is 256 random bits, so a plain
    digest is enough: no dictionary reaches it); the owner sees the secret once, when it is
    made. `scopes` lists what it may do (API_SCOPES); a revoked token stays listed, refused."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    description = models.CharField(max_length=60)
    scopes = models.JSONField(default=list)
    secret_hash = models.CharField(max_length=64, unique=True)
    # The secret's first characters, so the owner can tell their tokens apart in the list.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.description} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
