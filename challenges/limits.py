"""A cap on the games a bot account plays at once: the next challenge it accepts or makes
accepted, or queue it joins, is answered 429 with a Retry-After (docs/api.md, "Limits").
settings.BOT_CONCURRENT_GAMES overrides the default."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.bots import bot_account_ids

CONCURRENT_GAMES = 8


def concurrent_games() -> int:
    return int(getattr(settings, "BOT_CONCURRENT_GAMES", CONCURRENT_GAMES))


def games_in_play(user_id: int) -> int:
    """Tables this account sits at that are playing or waiting to (an accepted invitation)."""
    from games.platform.models import Seat, Table

    return (Seat.objects.filter(user_id=user_id, is_bot=False,
                                table__status__in=[Table.Status.PLAYING, Table.Status.OPEN])
            .values("table_id").distinct().count())


def at_cap(user_ids: set[int]) -> set[int]:
    """The bot accounts among `user_ids` already playing as many games as they may (read
    without a lock: `check_game_cap` decides under one)."""
    return {user_id for user_id in bot_account_ids(user_ids)
            if games_in_play(user_id) >= concurrent_games()}


def check_game_cap(*user_ids: int) -> None:
    """Each bot account among `user_ids` plays at most `concurrent_games()` games at once;
    people are not capped here (they have one pair of eyes).

    Call it inside the transaction that seats the accounts: it locks each bot account's row
    before counting its games, so a second accept or queue join at the same moment waits for
    the first to commit and then counts the game the first made (without the lock both counted
    the same games and an account went one over). Rows are locked in key order, so two
    transactions naming the same two accounts cannot deadlock. On SQLite the lock is a no-op
    and needs not be: every transaction there takes the write lock when it begins
    (`transaction_mode` IMMEDIATE, settings.py)."""
    bots = sorted(bot_account_ids(set(user_ids)))
    if not bots:
        return
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("check_game_cap belongs in the transaction that seats the accounts")
    list(get_user_model().objects.select_for_update().filter(pk__in=bots).order_by("pk")
         .values_list("pk", flat=True))
    if any(games_in_play(user_id) >= concurrent_games() for user_id in bots):
        from challenges.services import ChallengeError

        raise ChallengeError(f"A bot account plays at most {concurrent_games()} games at once; "
                             "finish one first.", code="too_many_games", status=429,
                             retry_after=30)
