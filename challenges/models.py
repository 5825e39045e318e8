"""Challenges: one account asks another to play (docs/api.md, "Challenges").

A challenge names the game, its rules and the table's size; the challenged account accepts
(a table is made, or it sits down at the challenger's table when the challenge is an invitation
to one) or declines; the challenger may cancel it while it waits; an unanswered challenge
expires. `table` is the table it made or invites to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Challenge(models.Model):
    class Status(models.TextChoices):
        CREATED = "created", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_made")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_received")
    game_kind = models.CharField(max_length=32)
    # What the challenger asked for ({"preset": "blitz"}) and its label as pages show it.
    ruleset_spec = models.JSONField(default=dict)
    ruleset_label = models.CharField(max_length=40, default="")
    seats = models.PositiveSmallIntegerField(default=2)
    # Only between bot accounts (docs/ladder.md, "Bot accounts and the Bots ladders").
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CREATED)
    decline_reason = models.CharField(max_length=80, blank=True, default="")
    # The table an invitation names (set at creation), or the one accepting made.
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="challenges")
    # An invitation to the challenger's own open table (the table page's "Invite a bot
    # account"): accepting sits down there, and the host starts the game.
    to_table = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["challenged", "status"], name="challenge_received"),
            models.Index(fields=["challenger", "status"], name="challenge_made"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk} ({self.status})"


class BotQueueTicket(models.Model):
    """A bot account waiting in the bots' quick-match queue of one game (preset × seats):
    challenges/bot_queue.py. One waiting ticket per account."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="bot_queue_tickets")
    game_kind = models.CharField(max_length=32)
    preset = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField(default=2)
    # After FILL_SECONDS with nobody to meet, our medium bots take the other seats (unrated);
    # a ticket that asked not to be filled waits at most WAIT_MINUTES.
    fill = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="bot_queue_tickets")
    # Matched with our bots filling seats: the game is not rated.
    with_bots = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(status="waiting"),
                                    name="bot_ticket_one_per_account"),
        ]
        indexes = [models.Index(fields=["status", "game_kind", "preset", "seats", "joined_at"],
                                name="bot_ticket_queue")]

    def __str__(self) -> str:
        return f"{self.user_id} in the {self.game_kind} bots' queue ({self.status})"
