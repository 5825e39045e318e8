"""A cap on the games a bot account plays at once: the next challenge it accepts or makes
accepted, or queue it joins, is answered 429 with a Retry-After (docs/api.md, "Limits").
settings.BOT_CONCURRENT_GAMES overrides the default."""

from __future__ import annotations

from django.conf import settings

from accounts.bots import is_bot_account

CONCURRENT_GAMES = 8


def concurrent_games() -> int:
    return int(getattr(settings, "BOT_CONCURRENT_GAMES", CONCURRENT_GAMES))


def games_in_play(user_id: int) -> int:
    """Tables this account sits at that are playing or waiting to (an accepted invitation)."""
    from games.platform.models import Seat, Table

    return (Seat.objects.filter(user_id=user_id, is_bot=False,
                                table__status__in=[Table.Status.PLAYING, Table.Status.OPEN])
            .values("table_id").distinct().count())


def check_game_cap(user_id: int) -> None:
    """A bot account plays at most `concurrent_games()` games at once; people are not capped
    here (they have one pair of eyes)."""
    if not is_bot_account(user_id):
        return
    if games_in_play(user_id) >= concurrent_games():
        from challenges.services import ChallengeError

        raise ChallengeError(f"A bot account plays at most {concurrent_games()} games at once; "
                             "finish one first.", code="too_many_games", status=429,
                             retry_after=30)
