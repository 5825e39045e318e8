"""Limits of the bot API: requests per token, and games at once per bot account.

Both are answered 429 with a Retry-After (docs/api.md, "Limits"). Requests are counted with the
site's throttle (chudopoly_site/throttle.py: Django's cache, so Redis shares the counts between
web processes when REDIS_URL is set), per token in fixed windows.
"""

from __future__ import annotations

from django.conf import settings

from accounts.bots import is_bot_account
from chudopoly_site import throttle

# Defaults; settings may set API_REQUESTS_PER_MINUTE and BOT_CONCURRENT_GAMES.
REQUESTS_PER_MINUTE = 300  # a fast bot's moves and its answers, with room to spare
WINDOW_SECONDS = 60
CONCURRENT_GAMES = 8


class LimitReached(Exception):
    def __init__(self, message: str, *, code: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.retry_after = retry_after


def requests_per_minute() -> int:
    return int(getattr(settings, "API_REQUESTS_PER_MINUTE", REQUESTS_PER_MINUTE))


def concurrent_games() -> int:
    return int(getattr(settings, "BOT_CONCURRENT_GAMES", CONCURRENT_GAMES))


def count_request(token_id: int) -> None:
    """Count one request of this token; raise LimitReached past the minute's allowance."""
    used = throttle.hit("api-token", str(token_id), window=WINDOW_SECONDS)
    if used > requests_per_minute():
        # The window began at its first hit, so it ends at most a window from now.
        raise LimitReached(f"At most {requests_per_minute()} requests a minute per token.",
                           code="rate_limited", retry_after=WINDOW_SECONDS)


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
