"""Every write of challenges: make, accept, decline, cancel, and let the unanswered expire.

Services take keyword-only arguments and run under `transaction.atomic`; they reach tables
only through the tables' services and announce changes after the commit (challenges/events.py).
They raise `ChallengeError` with a sentence a person can read and a stable code for programs
(the API answers it as JSON: docs/api.md).

Accepting a challenge that is not an invitation to a table makes a private table of its game
and rules, the challenger as host and the challenged seated, fills any other seats with our
medium bots and starts the game at once; so a challenge for more than two seats plays the two
accounts and our bots (never rated, as every game with our bots).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.bots import bot_account_ids
from challenges import events, limits
from challenges.models import Challenge
from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.interface import RulesetInvalid, get_game, registered_games, stock_preset
from games.platform.models import Table

CHALLENGE_MINUTES = 10  # an unanswered challenge expires after this long
PENDING_PER_CHALLENGER = 10  # challenges one account may have waiting at once
FILL_BOT_LEVEL = "medium"  # who takes the seats beyond the two accounts
DECLINE_REASON_MAX = 80


class ChallengeError(Exception):
    """A refused request: `message` for people, `code` for programs, `status` for the API."""

    def __init__(self, message: str, *, code: str = "refused", status: int = 400,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.retry_after = retry_after


def viewer_of(user: Any) -> Viewer:
    return Viewer(user_id=user.pk, guest_key=None, username=user.get_username())


def _expire(qs: QuerySet[Challenge]) -> None:
    qs.filter(status=Challenge.Status.CREATED, expires_at__lte=timezone.now()).update(
        status=Challenge.Status.EXPIRED)


def pending_received(user_id: int) -> QuerySet[Challenge]:
    """Challenges waiting for this account's answer, oldest first."""
    _expire(Challenge.objects.filter(challenged_id=user_id))
    return (Challenge.objects.filter(challenged_id=user_id, status=Challenge.Status.CREATED)
            .select_related("challenger__profile", "challenged__profile", "table")
            .order_by("created_at", "pk"))


def pending_made(user_id: int) -> QuerySet[Challenge]:
    _expire(Challenge.objects.filter(challenger_id=user_id))
    return (Challenge.objects.filter(challenger_id=user_id, status=Challenge.Status.CREATED)
            .select_related("challenger__profile", "challenged__profile", "table")
            .order_by("created_at", "pk"))


def recent_answered(user_id: int, count: int = 10) -> list[Challenge]:
    return list(Challenge.objects.filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
                .exclude(status=Challenge.Status.CREATED)
                .select_related("challenger", "challenged", "table")
                .order_by("-created_at", "-pk")[:count])


def _resolve(game_kind: str, ruleset_spec: dict[str, Any], seats: int) -> tuple[str, str]:
    """Check the game, rules and seats; returns the rules' label and their stock preset."""
    if game_kind not in registered_games():
        raise ChallengeError(f"There is no game {game_kind!r}; the games are "
                             f"{', '.join(registered_games())}.", code="bad_game")
    engine = get_game(game_kind)
    if not engine.min_seats <= seats <= engine.max_seats:
        raise ChallengeError(f"A table of {engine.name} seats {engine.min_seats} to "
                             f"{engine.max_seats} players.", code="bad_seats")
    try:
        ruleset = engine.resolve_ruleset(dict(ruleset_spec))
    except RulesetInvalid as exc:
        raise ChallengeError(exc.message, code="bad_ruleset") from None
    return engine.ruleset_label(ruleset), stock_preset(engine, ruleset) or ""


def challenge_create(*, challenger_id: int, username: str, game_kind: str,
                     ruleset_spec: dict[str, Any] | None = None, seats: int = 2,
                     rated: bool = False, table_id: int | None = None) -> Challenge:
    """Challenge an account by name to a game of this kind, rules and size; or, with
    `table_id`, invite it to the challenger's own open table (its rules and size)."""
    users = get_user_model()
    challenged = users.objects.filter(username__iexact=(username or "").strip()).first()
    if challenged is None:
        raise ChallengeError("There is no account of that name.", code="no_such_account",
                             status=404)
    if challenged.pk == challenger_id:
        raise ChallengeError("You cannot challenge yourself.", code="self")
    table = None
    if table_id is not None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None or table.status != Table.Status.OPEN:
            raise ChallengeError("That table is not waiting for players.", code="table_closed")
        host = table.host
        if host is None or host.user_id != challenger_id:
            raise ChallengeError("Only the table's host can invite.", code="not_host")
        if table.seats.filter(user_id=challenged.pk).exists():
            raise ChallengeError("That account is already at this table.", code="seated")
        if table.seats.count() >= table.max_seats:
            raise ChallengeError("The table is full.", code="full")
        game_kind, ruleset_spec, seats = table.game_kind, table.ruleset_spec, table.max_seats
        rated = False
    spec = dict(ruleset_spec or {})
    if not spec:
        spec = {"preset": next(iter(get_game(game_kind).presets()), "")} \
            if game_kind in registered_games() else {}
    label, preset = _resolve(game_kind, spec, int(seats))
    if rated:
        both = bot_account_ids({challenger_id, challenged.pk})
        if len(both) != 2:
            raise ChallengeError("Only challenges between two bot accounts are rated; people "
                                 "and bot accounts play casual games.", code="rated_needs_bots")
        if int(seats) != 2 or not preset:
            raise ChallengeError("A rated challenge is for two seats and a stock preset.",
                                 code="rated_rules")
    with transaction.atomic():
        waiting = (Challenge.objects.select_for_update()
                   .filter(challenger_id=challenger_id, status=Challenge.Status.CREATED,
                           expires_at__gt=timezone.now()))
        if waiting.count() >= PENDING_PER_CHALLENGER:
            raise ChallengeError(f"You have {PENDING_PER_CHALLENGER} challenges waiting for "
                                 "an answer; cancel one or wait.", code="too_many_challenges",
                                 status=429, retry_after=60)
        challenge = Challenge.objects.create(
            challenger_id=challenger_id, challenged=challenged, game_kind=game_kind,
            ruleset_spec=spec, ruleset_label=label, seats=int(seats), rated=bool(rated),
            table=table, to_table=table is not None,
            expires_at=timezone.now() + timedelta(minutes=CHALLENGE_MINUTES))
        challenge = _reloaded(challenge.pk)
        events.challenge_created_on_commit(challenge)
        return challenge


def _reloaded(challenge_id: int) -> Challenge:
    return Challenge.objects.select_related("challenger__profile", "challenged__profile",
                                            "table").get(pk=challenge_id)


def _locked_pending(challenge_id: int, *, user_id: int, side: str) -> Challenge:
    challenge = (Challenge.objects.select_for_update(of=("self",))
                 .select_related("challenger", "challenged", "table")
                 .filter(pk=challenge_id).first())
    mine = challenge is not None and (
        challenge.challenged_id == user_id if side == "challenged"
        else challenge.challenger_id == user_id)
    if challenge is None or not mine:
        raise ChallengeError("No such challenge of yours.", code="not_found", status=404)
    if challenge.status == Challenge.Status.CREATED and challenge.expires_at <= timezone.now():
        challenge.status = Challenge.Status.EXPIRED
        challenge.save(update_fields=["status"])
    if challenge.status != Challenge.Status.CREATED:
        raise ChallengeError(f"That challenge is {challenge.get_status_display().lower()}.",
                             code=f"challenge_{challenge.status}", status=409)
    return challenge


def challenge_accept(*, challenge_id: int, user_id: int) -> Challenge:
    """The challenged account accepts: it sits down at the invitation's table, or a table is
    made and the game starts (docstring above)."""
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, user_id=user_id, side="challenged")
        limits.check_game_cap(challenge.challenged_id, challenge.challenger_id)
        challenged = viewer_of(challenge.challenged)
        try:
            if challenge.to_table:
                assert challenge.table_id is not None
                tables.seat_join(table_id=challenge.table_id, viewer=challenged, name=None)
                table = challenge.table
            else:
                challenger = viewer_of(challenge.challenger)
                table = tables.table_create(viewer=challenger, name=None,
                                            ruleset_spec=challenge.ruleset_spec,
                                            max_seats=challenge.seats, is_public=False,
                                            game_kind=challenge.game_kind)
                tables.seat_join(table_id=table.pk, viewer=challenged, name=None)
                for _ in range(challenge.seats - 2):
                    tables.seat_add_bot(table_id=table.pk, viewer=challenger,
                                        level=FILL_BOT_LEVEL)
                tables.game_start(table_id=table.pk, viewer=challenger)
        except tables.TableError as exc:
            raise ChallengeError(exc.message, code=exc.code, status=409) from None
        challenge.status = Challenge.Status.ACCEPTED
        challenge.table = table
        challenge.answered_at = timezone.now()
        challenge.save(update_fields=["status", "table", "answered_at"])
        return _reloaded(challenge.pk)


def challenge_decline(*, challenge_id: int, user_id: int, reason: str = "") -> Challenge:
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, user_id=user_id, side="challenged")
        challenge.status = Challenge.Status.DECLINED
        challenge.decline_reason = " ".join((reason or "").split())[:DECLINE_REASON_MAX]
        challenge.answered_at = timezone.now()
        challenge.save(update_fields=["status", "decline_reason", "answered_at"])
        challenge = _reloaded(challenge.pk)
        events.challenge_declined_on_commit(challenge)
        return challenge


def challenge_cancel(*, challenge_id: int, user_id: int) -> Challenge:
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, user_id=user_id, side="challenger")
        challenge.status = Challenge.Status.CANCELLED
        challenge.answered_at = timezone.now()
        challenge.save(update_fields=["status", "answered_at"])
        challenge = _reloaded(challenge.pk)
        events.challenge_cancelled_on_commit(challenge)
        return challenge
