"""Bot accounts: an account a program plays over the API, marked BOT wherever its name shows.

As on lichess, an account becomes a bot by its own choice, once and for good, and only before it
has played: a person's games and ratings never turn into a bot's. The marker is part of the name
a bot account takes at a table ("BOT maia"), so every page and stream that shows a seat's name
(panels, logs, the lobby, results, replays, exports) shows it; the ladder's and the profile's
pages, which show account names, mark them with `marked_name`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from games.platform.identity import BOT_ACCOUNT_PREFIX as BOT_PREFIX


class BotUpgradeError(Exception):
    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def is_bot_account(user_id: int | None) -> bool:
    if not user_id:
        return False
    return Profile.objects.filter(user_id=user_id, is_bot=True).exists()


def bot_account_ids(user_ids: set[int]) -> set[int]:
    """The bot accounts among these accounts."""
    if not user_ids:
        return set()
    return set(Profile.objects.filter(user_id__in=user_ids, is_bot=True)
               .values_list("user_id", flat=True))


def marked_name(name: str, *, is_bot: bool) -> str:
    """A bot account's name as every page shows it: "BOT maia"."""
    return f"{BOT_PREFIX}{name}" if is_bot and not name.startswith(BOT_PREFIX) else name


def upgrade_problem(user_id: int) -> str | None:
    """Why this account cannot become a bot, or None. Only an account that has never sat at a
    table, played a game or waited in a queue may (lichess's rule: no games played)."""
    from games.platform.models import Seat
    from ladder.models import PlayerResult, QueueTicket

    if is_bot_account(user_id):
        return "This account is already a bot account."
    if (Seat.objects.filter(user_id=user_id).exists()
            or PlayerResult.objects.filter(user_id=user_id).exists()):
        return ("Only an account that has never played can become a bot account; this one "
                "has sat at a table. Sign up a new account for your bot.")
    if QueueTicket.objects.filter(user_id=user_id, status=QueueTicket.Status.WAITING).exists():
        return "Leave the quick-match queue first."
    return None


def account_upgrade_to_bot(*, user_id: int) -> Profile:
    """Make an account a bot account, irreversibly. Raises BotUpgradeError if it has played."""
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user_id=user_id)
        problem = upgrade_problem(user_id)
        if problem:
            raise BotUpgradeError(problem, code="has_played")
        profile.is_bot = True
        profile.bot_since = timezone.now()
        profile.save(update_fields=["is_bot", "bot_since"])
        return profile
