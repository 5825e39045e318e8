"""A seat's moves over the API: POST .../move, .../chat and .../resign.

Each goes through the service the table's websocket calls (games/platform/services.py), so
a move is refused for the same reasons and with the same words (stale, duplicate, illegal,
not your decision, not your seat, finished, paused) and a refused move changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from games.api.auth import ApiError, api_view, json_body, json_response
from games.api.seats import held_seat
from games.platform.models import Game, Table
from games.platform.services import (
    TableError,
    chat_post,
    seat_leave,
    seat_return,
    table_move,
)

# A refusal's code -> its HTTP status. The game's state decides 409 (try again after reading
# the stream), the move itself 400, whose seat it is 403.
MOVE_STATUS = {
    "not_found": 404,
    "forged": 403,
    "no_seat": 403,
    "stale": 409,
    "duplicate": 409,
    "finished": 409,
    "paused": 409,
    "illegal": 400,
    "not_your_turn": 400,
    "empty": 400,
    "too_long": 400,
    "rate_limited": 429,
}
CHAT_RETRY_SECONDS = 2


def refusal(exc: TableError) -> ApiError:
    status = MOVE_STATUS.get(exc.code, 400)
    headers = {"Retry-After": str(CHAT_RETRY_SECONDS)} if status == 429 else None
    return ApiError(status, exc.message, code=exc.code, headers=headers)


def _move_fields(data: dict[str, Any]) -> tuple[dict[str, Any], int, str | None]:
    action, version, token = data.get("action"), data.get("version"), data.get("decision_token")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ApiError(400, "`action` must be an object with a `type`, as the stream's "
                       "legal_actions list them.", code="bad_request")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ApiError(400, "`version` must be the game's version the move was chosen at "
                       "(a whole number).", code="bad_request")
    if token is not None and not isinstance(token, str):
        raise ApiError(400, "`decision_token` must be a string.", code="bad_request")
    return action, version, token or None


@api_view(methods=("POST",), scopes=("bot:play",))
def move(request: HttpRequest, ref: str) -> HttpResponse:
    """Body: {"action": {...}, "version": n, "decision_token": "..."}."""
    data = json_body(request)
    action, version, token = _move_fields(data)
    seat = held_seat(request.user, ref)
    if "seat" in data and data["seat"] != seat.seat:
        # The seat is the token's account's; a body naming another is refused, not ignored.
        raise ApiError(403, "That is not your seat.", code="forged")
    if seat.away:
        # The program is back: the seat a bot held for it (it left, or its clock ran out
        # three times) is its own again, as a browser coming back takes it.
        seat_return(table_id=seat.table_id, viewer=seat.viewer)
    try:
        made = table_move(game_id=seat.game_id, seat=seat.seat, action=action,
                          expected_version=version, viewer=seat.viewer,
                          expected_decision=token)
    except TableError as exc:
        raise refusal(exc) from None
    return json_response({"ok": True, "id": made.game.pk, "version": made.game.version,
                          "status": made.game.status})


@api_view(methods=("POST",), scopes=("bot:play",))
def chat(request: HttpRequest, ref: str) -> HttpResponse:
    """Body: {"text": "..."}: a line of the table's chat, under the seat's name."""
    text = json_body(request).get("text")
    if not isinstance(text, str):
        raise ApiError(400, "`text` must be a string.", code="bad_request")
    seat = held_seat(request.user, ref)
    try:
        chat_post(table_id=seat.table_id, viewer=seat.viewer, text=text)
    except TableError as exc:
        raise refusal(exc) from None
    return json_response({"ok": True})


@api_view(methods=("POST",), scopes=("bot:play",))
def resign(request: HttpRequest, ref: str) -> HttpResponse:
    """Leave the running game, as the table page's Leave does: in Boardroom that is going
    bankrupt to the bank; in Chudopoly and Commonwealth a bot plays the seat from then on
    (opening the game stream again takes it back)."""
    seat = held_seat(request.user, ref)
    game = Game.objects.select_related("table").get(pk=seat.game_id)
    if game.status != Game.Status.RUNNING or game.table.status != Table.Status.PLAYING:
        raise ApiError(409, "The game is already finished.", code="finished")
    try:
        seat_leave(table_id=seat.table_id, viewer=seat.viewer)
    except TableError as exc:
        raise refusal(exc) from None
    game.refresh_from_db()
    return json_response({"ok": True, "id": game.pk, "version": game.version,
                          "status": game.status})
