"""The bots' quick-match queue: bot accounts waiting to play other bot accounts.

One queue per game × stock preset × table size, for bot accounts only (people have theirs,
ladder/services.py). Tickets are seated in the order they joined, a table's worth at a time:
the first ticket's account hosts, the game starts at once and every account hears `gameStart`
(challenges/events.py). A table of bot accounts alone is rated on the game's Bots ladder. A
ticket that finds nobody within FILL_SECONDS is seated with our medium bots in the other seats
(unrated), unless it asked not to be (`fill: false`); such a ticket expires after WAIT_MINUTES.

Pairing runs when a ticket joins and every PAIR_SECONDS (task `challenges.bot_queue_pair`),
and takes its tickets with `select_for_update(skip_locked=True)`: two runs at once never seat
one ticket twice.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.bots import is_bot_account
from challenges import limits
from challenges.models import BotQueueTicket
from challenges.services import ChallengeError, viewer_of
from games.platform import services as tables
from games.platform.interface import get_game, quick_match_seats, registered_games
from games.platform.models import Table

log = logging.getLogger(__name__)

FILL_SECONDS = 30
WAIT_MINUTES = 10
PAIR_SECONDS = 2.0
FILL_BOT_LEVEL = "medium"


def ticket_json(ticket: BotQueueTicket) -> dict[str, Any]:
    return {"id": ticket.pk, "game": ticket.game_kind, "preset": ticket.preset,
            "seats": ticket.seats, "fill": ticket.fill, "status": ticket.status,
            "table": ticket.table.code if ticket.table_id and ticket.table else None,
            "withBots": ticket.with_bots, "joinedAt": ticket.joined_at.isoformat()}


def _queue_key(game_kind: str, preset: str | None, seats: int) -> tuple[str, str, int]:
    if game_kind not in registered_games():
        raise ChallengeError(f"There is no game {game_kind!r}.", code="bad_game", status=404)
    presets = get_game(game_kind).presets()
    preset = preset or next(iter(presets))
    if preset not in presets:
        raise ChallengeError(f"The presets of {get_game(game_kind).name} are "
                             f"{', '.join(presets)}.", code="bad_preset")
    sizes = quick_match_seats(get_game(game_kind))
    if seats not in sizes:
        raise ChallengeError(f"The bots' queue of {get_game(game_kind).name} seats "
                             f"{', '.join(map(str, sizes))} players.", code="bad_seats")
    return game_kind, preset, seats


def queue_join(*, user_id: int, game_kind: str, preset: str | None = None, seats: int = 2,
               fill: bool = True) -> BotQueueTicket:
    """Wait in a bots' queue (joining the same queue again keeps the ticket); the account is
    seated at once if a table's worth is waiting."""
    if not is_bot_account(user_id):
        raise ChallengeError("Only bot accounts join the bots' queue; people play quick match "
                             "at /ladder/play/.", code="not_a_bot", status=403)
    kind, preset, seats = _queue_key(game_kind, preset, seats)
    with transaction.atomic():
        existing = (BotQueueTicket.objects.select_for_update()
                    .filter(user_id=user_id, status=BotQueueTicket.Status.WAITING).first())
        # After the ticket's lock, as in queue_pair (ticket, then account): no deadlock.
        limits.check_game_cap(user_id)
        if existing is not None:
            if (existing.game_kind, existing.preset, existing.seats) == (kind, preset, seats):
                return existing
            raise ChallengeError("This account already waits in another bots' queue; leave "
                                 "it first.", code="other_queue", status=409)
        try:
            with transaction.atomic():
                ticket = BotQueueTicket.objects.create(
                    user_id=user_id, game_kind=kind, preset=preset, seats=seats,
                    fill=bool(fill), joined_at=timezone.now())
        except IntegrityError:
            raise ChallengeError("This account already waits in a bots' queue.",
                                 code="other_queue", status=409) from None
    queue_pair(only=(kind, preset, seats))
    ticket.refresh_from_db()
    return ticket


def queue_leave(*, user_id: int, game_kind: str | None = None) -> bool:
    """Stop waiting (in that game's queue, when named). False if there was nothing to leave."""
    waiting = BotQueueTicket.objects.filter(user_id=user_id,
                                            status=BotQueueTicket.Status.WAITING)
    if game_kind:
        waiting = waiting.filter(game_kind=game_kind)
    return bool(waiting.update(status=BotQueueTicket.Status.CANCELLED,
                               ended_at=timezone.now()))


def _seat(tickets: list[BotQueueTicket], seats: int, now: datetime) -> Table:
    """A table for these tickets (our bots in any seat left), started at once; refused
    (ChallengeError) if an account reached its cap on games since the pairing read it."""
    limits.check_game_cap(*(ticket.user_id for ticket in tickets))
    first = tickets[0]
    host = viewer_of(first.user)
    table = tables.table_create(viewer=host, name=None, ruleset_spec={"preset": first.preset},
                                max_seats=seats, is_public=False, game_kind=first.game_kind)
    for ticket in tickets[1:]:
        tables.seat_join(table_id=table.pk, viewer=viewer_of(ticket.user), name=None)
    with_bots = seats - len(tickets)
    for _ in range(with_bots):
        tables.seat_add_bot(table_id=table.pk, viewer=host, level=FILL_BOT_LEVEL)
    tables.game_start(table_id=table.pk, viewer=host)
    for ticket in tickets:
        ticket.status = BotQueueTicket.Status.MATCHED
        ticket.table = table
        ticket.ended_at = now
        ticket.with_bots = with_bots > 0
        ticket.save(update_fields=["status", "table", "ended_at", "with_bots"])
    return table


def queue_pair(*, now: datetime | None = None,
               only: tuple[str, str, int] | None = None) -> list[Table]:
    """Seat every table's worth of waiting tickets, fill the long-waiting ones with our bots,
    expire the unfilled ones that waited too long. Returns the tables made."""
    now = now or timezone.now()
    made: list[Table] = []
    with transaction.atomic():
        waiting = (BotQueueTicket.objects.select_for_update(skip_locked=True, of=("self",))
                   .filter(status=BotQueueTicket.Status.WAITING).select_related("user")
                   .order_by("joined_at", "pk"))
        if only is not None:
            kind, preset, seats = only
            waiting = waiting.filter(game_kind=kind, preset=preset, seats=seats)
        tickets_waiting = list(waiting)
        # An account that reached its cap on games since it joined (it accepted challenges
        # meanwhile) waits on, unpaired, until one of its games ends.
        capped = limits.at_cap({ticket.user_id for ticket in tickets_waiting})
        queues: dict[tuple[str, str, int], list[BotQueueTicket]] = defaultdict(list)
        for ticket in tickets_waiting:
            if ticket.user_id in capped:
                _expire_if_waited_out(ticket, now)
                continue
            queues[(ticket.game_kind, ticket.preset, ticket.seats)].append(ticket)
        for (_kind, _preset, seats), tickets in queues.items():
            while len(tickets) >= seats:
                group, tickets = tickets[:seats], tickets[seats:]
                made += _try_seat(group, seats, now)
            for ticket in tickets:
                waited = (now - ticket.joined_at).total_seconds()
                if ticket.fill and waited >= FILL_SECONDS:
                    made += _try_seat([ticket], seats, now)
                else:
                    _expire_if_waited_out(ticket, now)
    return made


def _expire_if_waited_out(ticket: BotQueueTicket, now: datetime) -> None:
    """A ticket that asked not to be filled with our bots waits WAIT_MINUTES at most."""
    if not ticket.fill and (now - ticket.joined_at).total_seconds() >= WAIT_MINUTES * 60:
        ticket.status = BotQueueTicket.Status.EXPIRED
        ticket.ended_at = now
        ticket.save(update_fields=["status", "ended_at"])


def _try_seat(group: list[BotQueueTicket], seats: int, now: datetime) -> list[Table]:
    try:
        with transaction.atomic():
            return [_seat(group, seats, now)]
    except (tables.TableError, ChallengeError) as exc:
        log.warning("could not seat bots' queue tickets %s: %s",
                    [t.pk for t in group], exc.message)
        return []
