"""Ladders, results and quick-match queues.

Everything here is per game kind (`game_kind`, a key of games.platform.interface's registry;
rows from before there were several games have "chudopoly"). `Rating` is one player's standing
on one ladder (one ladder per game kind and stock preset). Every finished
game gets one `GameRecord` and one `PlayerResult` per seat, written in the same transaction as
any rating change, so the unique (record, seat) and (record, user) constraints are what make a
rating change happen exactly once per game. `QueueTicket` is a player waiting in a `Queue`
(game kind × preset × seats × ranked); pairing turns a group of tickets into a `Match` and a table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from ladder.elo import START_RATING, is_provisional

GAME_KIND_DEFAULT = "chudopoly"  # the only game before game kinds; existing rows get it


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game_kind = models.CharField(max_length=32, default=GAME_KIND_DEFAULT)
    ladder = models.CharField(max_length=20)  # a stock preset of that game: "chudopoly", "blitz"
    rating = models.FloatField(default=START_RATING)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    peak = models.FloatField(default=START_RATING)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_kind", "ladder"],
                                    name="rating_unique_user_game_ladder"),
        ]
        indexes = [models.Index(fields=["game_kind", "ladder", "-rating"],
                                name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.ladder}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)

    @property
    def shown(self) -> str:
        """The rating as people see it: rounded, with "?" while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


class GameRecord(models.Model):
    """The ladder's note of one finished game: rated or not, and why not."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE,
                                related_name="ladder_record")
    game_kind = models.CharField(max_length=32, default=GAME_KIND_DEFAULT)
    ladder = models.CharField(max_length=20)  # preset key, or "custom"
    seat_count = models.PositiveSmallIntegerField()
    ranked = models.BooleanField(default=False)  # played from a ranked queue
    rated = models.BooleanField(default=False)  # ratings changed
    unrated_reason = models.CharField(max_length=80, blank=True, default="")
    finished_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Record of game {self.game_id}"


class PlayerResult(models.Model):
    """One seat of one finished game: the row a player's history and rating chart are read from.
    """

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()  # engine seat
    name = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="game_results")
    guest_key = models.CharField(max_length=64, null=True, blank=True,  # noqa: DJ001
                                 db_index=True)
    is_bot = models.BooleanField(default=False)
    placement = models.PositiveSmallIntegerField()  # 1 = first; ties share a number
    left = models.BooleanField(default=False)  # left a ranked game: placed last
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    provisional = models.BooleanField(default=False)
    # Copied from the record so history filters and charts need no join.
    game_kind = models.CharField(max_length=32, default=GAME_KIND_DEFAULT)
    ladder = models.CharField(max_length=20)
    rated = models.BooleanField(default=False)
    ranked = models.BooleanField(default=False)
    seat_count = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["record", "seat"], name="result_unique_seat"),
            models.UniqueConstraint(fields=["record", "user"], condition=Q(user__isnull=False),
                                    name="result_unique_user"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at"]),
            models.Index(fields=["user", "game_kind", "ladder", "rated", "finished_at"],
                         name="result_rating_series"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: #{self.placement} in game {self.record_id}"

    @property
    def rating_change(self) -> int | None:
        """The change as the pages show it: the difference of the rounded ratings, so the
        whole numbers on a page add up (1500.4 → 1512.6 shows 1500, +13, 1513)."""
        if self.rating_before is None or self.rating_after is None:
            return None
        return round(self.rating_after) - round(self.rating_before)


class Queue(models.Model):
    """One quick-match queue. Pairing locks this row (skipping it if locked), so two pairing
    runs at once never fill tables from the same queue."""

    game_kind = models.CharField(max_length=32, default=GAME_KIND_DEFAULT)
    preset = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    ranked = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game_kind", "preset", "seats", "ranked"],
                                    name="queue_unique_game"),
        ]

    def __str__(self) -> str:
        return f"{self.preset} {self.seats}p {'ranked' if self.ranked else 'casual'}"

    @property
    def group_name(self) -> str:
        return f"queue.q{self.pk}"


class Match(models.Model):
    """A table made by pairing. The game starts when everyone has arrived, or at the deadline
    with a bot playing for anyone who never came."""

    queue = models.ForeignKey(Queue, on_delete=models.PROTECT, related_name="matches")
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE,
                                 related_name="ladder_match")
    ranked = models.BooleanField()
    with_bots = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    start_deadline = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Match {self.pk} at {self.table_id}"


class QueueTicket(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"
        CANCELLED = "cancelled", "Cancelled"

    queue = models.ForeignKey(Queue, on_delete=models.PROTECT, related_name="tickets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="queue_tickets")
    guest_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    name = models.CharField(max_length=32)
    rating = models.FloatField()  # the rating pairing uses (ladder rating, or the start)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    # Open queue pages of this player; with none for a little while the ticket is dropped.
    sockets = models.IntegerField(default=0)
    last_seen = models.DateTimeField()
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="tickets")
    arrived_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One queue at a time per player.
            models.UniqueConstraint(fields=["user"], condition=Q(status="waiting"),
                                    name="ticket_one_queue_per_user"),
            models.UniqueConstraint(fields=["guest_key"], condition=Q(status="waiting"),
                                    name="ticket_one_queue_per_guest"),
            models.CheckConstraint(condition=Q(user__isnull=False) | Q(guest_key__isnull=False),
                                   name="ticket_has_owner"),
        ]
        indexes = [models.Index(fields=["queue", "status", "joined_at"])]

    def __str__(self) -> str:
        return f"{self.name} in {self.queue_id} ({self.status})"

    @property
    def group_name(self) -> str:
        return f"queue.t{self.pk}"
