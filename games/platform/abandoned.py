"""Games nobody plays any more: the bots stop, and after a while the game is closed.

A running game is *abandoned* when none of its human seats is present: each one left, timed
out three times, or stayed disconnected past the grace (all of which mark the seat away,
games/clocks.py) and has no socket open either. Then nothing is worth computing: no bot move
and no automatic clock decision is made (170 such games kept a worker at 24 moves a second).
A human who comes back (their socket opens: `clocks.seat_connected`) gets the game back where
it stopped. After ABANDONED_GAME_CLOSE_MINUTES without a move the sweep closes it: the game
ends as ABANDONED (no result, no rating: the ladder records FINISHED games only) and its table
as CLOSED.

Bot games (one human, the rest bots) are also capped per player: starting one more than
BOT_GAMES_PER_PLAYER closes that player's oldest as abandoned, and the page says so (a player
who clicks Quick Play expects a game; the oldest is almost always a tab they walked away from).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from games.platform.identity import Viewer
from games.platform.models import Game, Seat, Table

log = logging.getLogger(__name__)

# A human seat of the game that still counts as someone playing (or watching their seat).
_PRESENT = Q(is_bot=False, game_seat__isnull=False) & (Q(away=False) | Q(connections__gt=0))


def close_after_seconds() -> float:
    return 60.0 * settings.ABANDONED_GAME_CLOSE_MINUTES


def someone_plays(table_id: int) -> bool:
    return Seat.objects.filter(_PRESENT, table_id=table_id).exists()


def played() -> Exists:
    """For a Game queryset: at least one of its humans is present."""
    return Exists(Seat.objects.filter(_PRESENT, table_id=OuterRef("table_id")))


def game_abandon(*, game_id: int, reason: str) -> bool:
    """Close a running game as abandoned (unrated) and its table; False if it is not running."""
    from games.platform.services import _announce

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return False
        table = Table.objects.select_for_update().get(pk=game.table_id)
        game.status = Game.Status.ABANDONED
        game.finished_at = timezone.now()
        game.deadlines = {}
        game.clock_due = None
        game.save(update_fields=["status", "finished_at", "deadlines", "clock_due",
                                 "updated_at"])
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status", "updated_at"])
        _announce(table)
        log.info("game %s at table %s closed as abandoned (%s)", game.pk, table.code, reason)
        return True


def close_abandoned(at: datetime, *, limit: int = 200) -> int:
    """Close every game nobody has played for ABANDONED_GAME_CLOSE_MINUTES; returns how many."""
    cutoff = at - timedelta(seconds=close_after_seconds())
    stale = (Game.objects.filter(status=Game.Status.RUNNING, updated_at__lt=cutoff)
             .exclude(played()).order_by("updated_at").values_list("pk", flat=True)[:limit])
    return sum(game_abandon(game_id=pk, reason="nobody played") for pk in list(stale))


def bot_games_make_room(*, viewer: Viewer) -> list[str]:
    """Before a new bot game: close this player's oldest running bot games so that, with the
    new one, they have at most BOT_GAMES_PER_PLAYER. Returns the codes of the tables closed."""
    if not viewer.known:
        return []
    mine = Seat.objects.filter(viewer.seat_filter()).values("table_id")
    solo = (Game.objects.filter(status=Game.Status.RUNNING, table_id__in=mine)
            .annotate(humans=Count("table__seats", filter=Q(table__seats__is_bot=False)))
            .filter(humans=1).order_by("started_at", "pk")
            .values_list("pk", "table__code"))
    running = list(solo)
    extra = len(running) - (settings.BOT_GAMES_PER_PLAYER - 1)
    closed = []
    for game_id, code in running[:max(0, extra)]:
        if game_abandon(game_id=game_id, reason="the player started another bot game"):
            closed.append(code)
    return closed
