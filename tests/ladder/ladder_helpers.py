"""Builders shared by the ladder tests: matched tables, finished games, ratings."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.chudopoly.bots import choose_action
from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table
from ladder import services
from ladder.models import Match, Queue, QueueTicket, Rating

ENGINE = get_game("chudopoly")


def ticket(viewer: Viewer, *, preset: str = "chudopoly", seats: int = 2, ranked: bool = True,
           rating: float = 1500.0, joined: datetime | None = None,
           name: str | None = None, game_kind: str | None = None) -> QueueTicket:
    """A waiting ticket with a chosen rating and join time (as if it had waited)."""
    t = services.queue_join(viewer=viewer, preset=preset, seats=seats, ranked=ranked,
                            name=name or (viewer.username or "Guest"), game_kind=game_kind)
    joined = joined or timezone.now()
    QueueTicket.objects.filter(pk=t.pk).update(rating=rating, joined_at=joined,
                                               last_seen=joined, sockets=1)
    t.refresh_from_db()
    return t


def matched_game(*viewers: Viewer, ranked: bool = True, preset: str = "chudopoly",
                 game_kind: str | None = None) -> Game:
    """Pair these players through the queue and start their game with everyone arrived."""
    now = timezone.now()
    for v in viewers:
        ticket(v, preset=preset, seats=len(viewers), ranked=ranked, joined=now,
               game_kind=game_kind)
    (match,) = services.queue_pair(now=now)
    for t in match.tickets.all():
        services.match_arrive(ticket_id=t.pk, viewer=viewer_of(t))
    match.refresh_from_db()
    game = tables.current_game(match.table)
    assert game is not None
    return game


def viewer_of(t: QueueTicket) -> Viewer:
    return Viewer(user_id=t.user_id, guest_key=t.guest_key,
                  username=t.user.get_username() if t.user_id else None)


def private_game(host: Viewer, *others: Viewer, spec: dict[str, Any] | None = None,
                 bots: int = 0) -> Game:
    table = tables.table_create(viewer=host, name=host.username or "Host",
                                ruleset_spec=spec or {"preset": "chudopoly"},
                                max_seats=len(others) + 1 + bots)
    for i, v in enumerate(others):
        tables.seat_join(table_id=table.pk, viewer=v, name=v.username or f"Guest{i}")
    for _ in range(bots):
        tables.seat_add_bot(table_id=table.pk, viewer=host)
    return tables.game_start(table_id=table.pk, viewer=host)


def engine_seat(game: Game, viewer: Viewer) -> int:
    seat = next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))
    assert seat.game_seat is not None
    return seat.game_seat


def scoop_out(game: Game, *losers: Viewer, warmup: int = 0) -> Game:
    """Finish the game: the losers scoop, first listed first (so they place last), letting
    the basic bot decide for anyone else who owes a decision meanwhile (and for everyone
    during the first `warmup` decisions)."""
    order = [engine_seat(game, v) for v in losers]
    for step in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        deciding = ENGINE.to_decide(game.state)
        if order and order[0] in deciding and step >= warmup:
            seat, action = order.pop(0), {"type": "scoop"}
            source = "player"
        else:
            seat = deciding[0]
            action = choose_action(ENGINE.view(game.state, seat))
            if action.get("type") == "scoop":
                action = next(a for a in ENGINE.legal_actions(game.state, seat)
                              if a.get("type") != "scoop")
            away = Seat.objects.filter(table_id=game.table_id, game_seat=seat,
                                       away=True).exists()
            source = "bot" if away else "player"
        tables.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                  expected_version=game.version, source=source)
    raise AssertionError("the game did not end")


def play_moves(game: Game, moves: int, *, level: str = "medium") -> Game:
    """Let the game's own bot decide `moves` decisions for whoever owes one, through the
    table's service as a player's moves (any game kind); stops early if the game ends."""
    engine = get_game(game.game_kind)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), level)
        tables.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                  expected_version=game.version, source="player")
    game.refresh_from_db()
    return game


def set_rating(viewer: Viewer, ladder: str, rating: float, games: int = 20,
               game_kind: str = "chudopoly") -> Rating:
    r, _ = Rating.objects.update_or_create(user_id=viewer.user_id, game_kind=game_kind,
                                           ladder=ladder,
                                           defaults={"rating": rating, "games": games,
                                                     "peak": rating})
    return r


def rating_of(viewer: Viewer, ladder: str = "chudopoly", game_kind: str = "chudopoly"
              ) -> Rating:
    return Rating.objects.get(user_id=viewer.user_id, game_kind=game_kind, ladder=ladder)


def ago(seconds: float) -> datetime:
    return timezone.now() - timedelta(seconds=seconds)


__all__ = ["Match", "Queue", "Table"]


def recorded_game(players: list[tuple[Viewer | None, str, int]], *, ladder: str = "chudopoly",
                  ranked: bool = False, rated: bool = False, when: datetime | None = None,
                  changes: dict[int, float] | None = None) -> Game:
    """A finished game as the history sees it, written directly (no play): players are
    (viewer or None for a bot, name, placement)."""
    from ladder.models import GameRecord, PlayerResult

    when = when or timezone.now()
    table = Table.objects.create(code=f"H{Table.objects.count():03d}"[:4],
                                 status=Table.Status.FINISHED)
    game = Game.objects.create(table=table, ruleset={"label": ladder}, seed=1,
                               seat_count=len(players), state={}, status=Game.Status.FINISHED,
                               result={"placements": []}, finished_at=when,
                               players=[{"name": n, "bot": v is None} for v, n, _ in players])
    record = GameRecord.objects.create(game=game, ladder=ladder, seat_count=len(players),
                                       ranked=ranked, rated=rated, finished_at=when)
    for seat, (viewer, name, place) in enumerate(players):
        uid = viewer.user_id if viewer else None
        change = (changes or {}).get(uid) if uid else None
        PlayerResult.objects.create(
            record=record, seat=seat, name=name, user_id=uid,
            guest_key=viewer.guest_key if viewer else None, is_bot=viewer is None,
            placement=place, ladder=ladder, rated=rated, ranked=ranked,
            seat_count=len(players), finished_at=when,
            rating_before=1500 if change is not None else None,
            rating_after=1500 + change if change is not None else None)
    return game
