"""Database-side set-up for live runs: tables of guests (or accounts) and their session cookies.

Needs Django configured on the same database as the live site (the tests' database, or the
bench database). Setting tables up through the services is quicker than through the pages and
is not what the hardening runs measure; everything after the set-up goes over real sockets.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any


@dataclass
class SeatedTable:
    code: str
    table_id: int
    game_id: int
    cookies: dict[str, str]  # player name -> Cookie header value
    seats: dict[str, int]  # player name -> engine seat
    seed: int


def end_tables(table_ids: list[int]) -> None:
    """Finish a run's tables where they stand, once their sockets are closed: otherwise the
    disconnect grace hands every seat to a bot (games/platform/clocks.py), and the worker and
    PostgreSQL play those games out while the next step is measured."""
    from games.platform.models import Game, Table

    Game.objects.filter(table_id__in=table_ids, status=Game.Status.RUNNING).update(
        status=Game.Status.FINISHED, clock_due=None)
    Table.objects.filter(pk__in=table_ids).update(status=Table.Status.FINISHED)


def guest_cookie(guest_key: str) -> str:
    from django.contrib.sessions.backends.db import SessionStore

    from games.platform.identity import GUEST_SESSION_KEY

    session = SessionStore()
    session[GUEST_SESSION_KEY] = guest_key
    session.create()
    return f"sessionid={session.session_key}"


def user_cookie(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def spectator_cookie() -> str:
    return guest_cookie("watcher-" + secrets.token_urlsafe(12))


def guest_table(humans: int, *, preset: str = "blitz", bots: int = 0,
                ruleset_spec: dict[str, Any] | None = None, prefix: str = "P",
                start: bool = True, game_kind: str | None = None) -> SeatedTable:
    """A table of `humans` guests (and `bots`), started, with a cookie per guest."""
    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.models import Game, Seat

    tag = secrets.token_hex(3)
    viewers = [Viewer(user_id=None, guest_key=f"{prefix}{i}-{tag}-{secrets.token_urlsafe(12)}")
               for i in range(humans)]
    names = [f"{prefix}{i}{tag}"[:16] for i in range(humans)]
    table = services.table_create(viewer=viewers[0], name=names[0],
                                  ruleset_spec=ruleset_spec or {"preset": preset},
                                  max_seats=max(2, humans + bots), turn_seconds=0,
                                  response_seconds=0, game_kind=game_kind)
    for viewer, name in zip(viewers[1:], names[1:], strict=True):
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=viewers[0])
    game_id, seed, seats = 0, 0, {}
    if start:
        game = services.game_start(table_id=table.pk, viewer=viewers[0])
        game_id, seed = game.pk, game.seed
        seats = {s.name: s.game_seat for s in Seat.objects.filter(table=table, is_bot=False)}
        assert Game.objects.filter(pk=game_id).exists()
    return SeatedTable(code=table.code, table_id=table.pk, game_id=game_id,
                       cookies={name: guest_cookie(v.guest_key or "")
                                for name, v in zip(names, viewers, strict=True)},
                       seats=seats, seed=seed)


def ranked_table(players: int = 2, *, preset: str = "blitz") -> SeatedTable:
    """A ranked quick-match game between new accounts (so its end changes ratings)."""
    from django.contrib.auth import get_user_model

    from games.platform.identity import Viewer
    from games.platform.models import Game, Seat
    from ladder import services as ladder

    tag = secrets.token_hex(3)
    users = [get_user_model().objects.create_user(username=f"r{i}{tag}", password=None)
             for i in range(players)]
    viewers = [Viewer(user_id=u.pk, guest_key=None, username=u.username) for u in users]
    tickets = [ladder.queue_join(viewer=v, preset=preset, seats=players, ranked=True)
               for v in viewers]
    # Only these players are paired: a ticket some earlier run left waiting in the same queue
    # (joined first) would be matched with the first of them and leave the others waiting.
    from django.utils import timezone

    from ladder.models import QueueTicket

    (QueueTicket.objects.filter(queue_id=tickets[0].queue_id,
                                status=QueueTicket.Status.WAITING)
     .exclude(pk__in=[t.pk for t in tickets])
     .update(status=QueueTicket.Status.CANCELLED, ended_at=timezone.now()))
    # A worker's beat may be pairing this queue at the same moment: queue_pair then skips the
    # locked queue and returns before that run commits. Pair until every ticket has its match.
    deadline = time.monotonic() + 15
    while True:
        ladder.queue_pair()
        matched = set(QueueTicket.objects.filter(pk__in=[t.pk for t in tickets])
                      .values_list("match_id", flat=True))
        if None not in matched or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(matched) == 1 and None not in matched, f"not matched together: {matched}"
    table = None
    for ticket, viewer in zip(tickets, viewers, strict=True):
        table = ladder.match_arrive(ticket_id=ticket.pk, viewer=viewer)
    assert table is not None
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None:
        from ladder.models import Match

        match = Match.objects.get(table=table)
        ladder.match_start(match_id=match.pk)
        game = Game.objects.filter(table=table).order_by("-number").first()
    assert game is not None, "the ranked match did not start"
    seats = {s.name: s.game_seat for s in Seat.objects.filter(table=table, is_bot=False)}
    return SeatedTable(code=table.code, table_id=table.pk, game_id=game.pk,
                       cookies={u.username: user_cookie(u) for u in users}, seats=seats,
                       seed=game.seed)
