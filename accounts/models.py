"""Accounts are Django's own users; this app adds a display name and failed-login throttling."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(max_length=32, blank=True, default="")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class LoginFailure(models.Model):
    """One failed log-in, kept for the throttle window. A database row (not a per-process
    cache) so every web process counts the same failures."""

    username = models.CharField(max_length=150)  # lower-cased as typed
    ip = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["username", "ip", "created_at"])]

    def __str__(self) -> str:
        return f"{self.username} from {self.ip} at {self.created_at:%H:%M:%S}"
