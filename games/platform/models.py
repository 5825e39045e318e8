"""Tables, seats, games and the append-only action log.

A `Table` is the room people gather at (code, rules, clocks, seats, host). Each deal played
there is a `Game`: its current engine state (JSONB on PostgreSQL) and version, plus the seed.
`GameAction` rows are the append-only log; seed + log replays the state exactly.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CLOSED = "closed", "Closed"

    code = models.CharField(max_length=4, unique=True)
    game_kind = models.CharField(max_length=32, default="chudopoly")
    # What the host asked for (kept for the rematch and the form) and what the engine resolved.
    ruleset_spec = models.JSONField(default=dict)
    ruleset = models.JSONField(default=dict)
    ruleset_label = models.CharField(max_length=40, default="")
    max_seats = models.PositiveSmallIntegerField(default=4)
    turn_seconds = models.PositiveSmallIntegerField(default=60)
    response_seconds = models.PositiveSmallIntegerField(default=45)
    is_public = models.BooleanField(default=False)
    # A private table opens only with this token in its invite link (or for the people seated
    # there): its 4-character code alone can be guessed. Empty for public tables
    # (games/platform/invites.py).
    invite_token = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    host = models.ForeignKey("Seat", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    # An open rematch offer (services.game_rematch): {"deadline": iso, "answers": {seat id:
    # "yes" | "no"}}; empty when none is open.
    rematch = models.JSONField(default=dict, blank=True)
    # A game against bots waiting to be continued on another device ("Continue on another
    # device", services.continue_link_create): nothing moves and no clock runs until the
    # link is opened or the player resumes here. None while it runs.
    paused_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["is_public", "status"])]

    def __str__(self) -> str:
        return f"Table {self.code}"

    def get_absolute_url(self) -> str:
        return f"/t/{self.code}/"

    @property
    def invite_path(self) -> str:
        """The link the host shares: the code alone for a public table."""
        if not self.invite_token:
            return self.get_absolute_url()
        return f"{self.get_absolute_url()}?invite={self.invite_token}"

    @property
    def group_name(self) -> str:
        return f"table.{self.code}"


class Seat(models.Model):
    """One chair at a table. Before the start, leaving deletes the row (the seat is free)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # lobby order; the game order is `game_seat`
    name = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    # A guest's browser identity (kept in their session); None for bots and signed-in users.
    guest_key = models.CharField(max_length=64, null=True, blank=True,  # noqa: DJ001
                                 db_index=True)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=20, default="basic", blank=True)
    # A human who left a running game: a bot plays for them until they come back.
    away = models.BooleanField(default=False)
    # Why (games/platform/clocks.py): "left", "timeouts" (three expiries in a row) or
    # "disconnected".
    away_reason = models.CharField(max_length=12, blank=True, default="")
    # Open table sockets of this seat's owner (its SeatSocket rows, counted), and when the last
    # one closed (bot takeover after a grace period).
    connections = models.PositiveSmallIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    game_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # "Move seat to another device": single use, short-lived.
    # NULL, not "", so that many seats can have no token under the unique constraint.
    move_token = models.CharField(max_length=64, null=True, blank=True,
                                  unique=True)
    move_token_expires = models.DateTimeField(null=True, blank=True)
    # When the seat last moved to another device, and a keyed digest of the browser it moved
    # from (identity.identity_digest: never the identity itself, a guest key is a credential),
    # so that browser is told its seat moved instead of getting a private table's 404.
    moved_at = models.DateTimeField(null=True, blank=True)
    moved_from = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # The owner's auto move toggle (games with an engine `auto_move`): the site rolls and ends
    # their eligible turns on the workers. Kept here so a reload or a restart keeps it.
    auto_move = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.table.code}"

    @property
    def bot_controlled(self) -> bool:
        return self.is_bot or self.away

    @property
    def bot_level_name(self) -> str:
        """The bot's level as players know it; a level the game no longer lists (an old alias
        such as "basic") plays as its weakest, and is named so."""
        from games.platform.interface import get_game

        levels = get_game(self.table.game_kind).bot_levels()
        name = levels.get(self.bot_level) or next(iter(levels.values()), self.bot_level)
        return name.lower()


class SeatSocket(models.Model):
    """One open table socket of a seat's owner. A socket checks in now and then (`seen_at`);
    one whose web process died without closing it stops checking in and the clock sweep drops
    it, so a crashed process cannot keep a seat "connected" for ever (games/platform/clocks.py)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    channel = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"socket {self.channel} of seat {self.seat_id}"


class Game(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        # Closed with nobody playing it (games/platform/abandoned.py): no result, never rated.
        ABANDONED = "abandoned", "Abandoned"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)  # 1, then 2, 3... for rematches
    game_kind = models.CharField(max_length=32, default="chudopoly")
    ruleset = models.JSONField()
    seed = models.BigIntegerField()
    seat_count = models.PositiveSmallIntegerField()
    # By engine seat: {"name", "bot"} as they were at the start (the history needs no Seat).
    players = models.JSONField(default=list)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)  # number of actions applied
    # Engine seat (as a string) -> {"deadline": iso, "key": what decision it is for, "kind",
    # "seconds"}, plus "paused" (the turn clock's time left while responses are owed).
    deadlines = models.JSONField(default=dict)
    # The earliest of `deadlines` (None when no clock runs), for the clocks sweep to find.
    # Not indexed: it changes with nearly every move (see Meta.indexes).
    clock_due = models.DateTimeField(null=True, blank=True)
    # Engine seat (as a string) -> decisions in a row its clock made (three: a bot takes over).
    timeouts = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number"),
        ]
        # Every move rewrites the row. While no indexed column changes, PostgreSQL updates it
        # in place on its page (a HOT update) and writes no index entry: so the columns a move
        # changes (clock_due, updated_at) are not indexed, and the sweeps that read them look
        # only at running games, which this partial index finds among all the finished ones.
        # The table's fillfactor leaves room on each page for the new versions (migration 0005).
        indexes = [models.Index(fields=["id"], condition=models.Q(status="running"),
                                name="game_running")]

    def __str__(self) -> str:
        return f"Game {self.number} at {self.table_id}"


class AppendOnlyError(RuntimeError):
    pass


class GameAction(models.Model):
    """The append-only log: every applied action, in version order."""

    # No index of its own: action_unique_version, which starts with the game, serves its reads.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions",
                             db_index=False)
    version = models.PositiveIntegerField()  # the game version the action was applied to
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # The engine's raw events (hidden information inside); redacted per seat before display.
    events = models.JSONField(default=list)
    source = models.CharField(max_length=10, default="player")  # player, bot, clock
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="action_unique_version"),
        ]

    def __str__(self) -> str:
        return f"v{self.version} seat {self.seat}: {self.action.get('type')}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AppendOnlyError("Game actions are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("Game actions are append-only")


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    name = models.CharField(max_length=32)
    author_key = models.CharField(max_length=80, db_index=True)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:30]}"


class ClockSweep(models.Model):
    """When the clocks sweep last ran (a single row). A long gap means the site was down, and
    every running clock is given that time back (games/platform/clocks.py)."""

    ran_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"clocks swept at {self.ran_at:%Y-%m-%d %H:%M:%S}"


class PartHeartbeat(models.Model):
    """When a part of the site players need last said it was alive (one row per part: "web"
    for the web processes together). The clocks sweep expires nothing while a part's heartbeat
    is stale, and a part that beats again after a gap records an `Outage`
    (games/platform/outages.py)."""

    part = models.CharField(max_length=20, primary_key=True)
    beat_at = models.DateTimeField()
    every = models.FloatField()  # seconds between two beats of the part

    def __str__(self) -> str:
        return f"{self.part} alive at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class Outage(models.Model):
    """A time players could not play: from when a part was due to say it was alive and did not
    (`began_at`) until it did again (`ended_at`). The clocks sweep gives it back to every
    running clock once, and then notes how many seconds it gave (`given_back`: the part of
    the outage that no outage given back earlier already covered)."""

    part = models.CharField(max_length=20)
    began_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    given_at = models.DateTimeField(null=True, blank=True)
    given_back = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["began_at", "pk"]

    def __str__(self) -> str:
        return f"{self.part} down {self.began_at:%H:%M:%S}-{self.ended_at:%H:%M:%S}"
