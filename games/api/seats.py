"""Which game and engine seat an /api/ request acts for: the token's account must hold it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.api.auth import ApiError
from games.platform.identity import Viewer
from games.platform.models import Game, Seat
from games.platform.services import CODE_LENGTH, normalize_code


@dataclass(frozen=True)
class ApiSeat:
    """A game and the engine seat in it that the token's account holds."""

    game_id: int
    table_id: int
    code: str
    seat: int
    viewer: Viewer
    away: bool = False  # a bot plays the seat for now (it left or timed out)


def viewer_of(user: Any) -> Viewer:
    return Viewer(user_id=user.pk, guest_key=None, username=user.get_username())


def games_named(ref: str) -> list[Game]:
    """The games `ref` may name: the game with that id, and the latest game at the table
    with that code (a code may be all digits, "7692", and so also a game id)."""
    ref = (ref or "").strip()
    games = Game.objects.select_related("table")
    found: list[Game] = []
    if ref.isdigit() and len(ref) <= 18:
        found.extend(games.filter(pk=int(ref)))
    if len(ref) == CODE_LENGTH and ref.isalnum():
        latest = games.filter(table__code=normalize_code(ref)).order_by("-number").first()
        if latest is not None and all(g.pk != latest.pk for g in found):
            found.append(latest)
    return found


def _seat_in(game: Game, user: Any, viewer: Viewer) -> Seat | None:
    row = (Seat.objects.filter(table_id=game.table_id, user_id=user.pk, is_bot=False,
                               game_seat__isnull=False).order_by("pk").first())
    players = game.players or []
    if (row is None or not viewer.owns(row) or row.game_seat >= len(players)
            or players[row.game_seat].get("seat_id") != row.pk):
        return None
    return row


def held_seat(user: Any, ref: str) -> ApiSeat:
    """The engine seat the account holds in the game `ref` names (a game id or a table
    code); ApiError 404 when there is no such game, 403 when the account holds no seat in it
    (a spectator, another account's game)."""
    games = games_named(ref)
    if not games:
        raise ApiError(404, "No game has that id or table code.", code="not_found")
    viewer = viewer_of(user)
    for game in games:
        row = _seat_in(game, user, viewer)
        if row is not None and row.game_seat is not None:
            return ApiSeat(game_id=game.pk, table_id=game.table_id, code=game.table.code,
                           seat=row.game_seat, viewer=viewer, away=row.away)
    raise ApiError(403, "Your account holds no seat in that game.", code="not_seated")
