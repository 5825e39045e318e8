"""The challenge endpoints of the bot API (docs/api.md, "Challenges"): JSON in, JSON out,
refusals as the API's JSON errors. Each calls one service of challenges/services.py."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse

from challenges import services
from challenges.events import challenge_json
from challenges.services import ChallengeError
from games.api.auth import ApiError, api_view, json_body, json_response


def api_error(exc: ChallengeError) -> ApiError:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return ApiError(exc.status, exc.message, code=exc.code, headers=headers)


def optional_body(request: HttpRequest) -> dict[str, Any]:
    """A JSON object body, or {} when there is none (accept, decline and cancel need none)."""
    if not request.body.strip():
        return {}
    return json_body(request)


def _int_field(data: dict[str, Any], name: str, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"`{name}` must be a whole number.", code="bad_request")
    return value


@api_view(methods=("POST",), scopes=("bot:play",))
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    """Body: {"game": "boardroom", "preset": "standard" or "rules": {...}, "seats": 2,
    "rated": false}."""
    data = json_body(request)
    game = data.get("game")
    if not isinstance(game, str):
        raise ApiError(400, "`game` names the game: chudopoly, boardroom or commonwealth.",
                       code="bad_request")
    rules = data.get("rules")
    preset = data.get("preset")
    if rules is not None and not isinstance(rules, dict):
        raise ApiError(400, "`rules` must be an object.", code="bad_request")
    if preset is not None and not isinstance(preset, str):
        raise ApiError(400, "`preset` must be a preset's key.", code="bad_request")
    spec = dict(rules or {})
    if preset:
        spec["preset"] = preset
    if len(json.dumps(spec)) > 2000:
        raise ApiError(400, "`rules` is too long.", code="bad_request")
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError(400, "`rated` must be true or false.", code="bad_request")
    try:
        challenge = services.challenge_create(
            challenger_id=request.user.pk, username=username, game_kind=game,
            ruleset_spec=spec, seats=_int_field(data, "seats", 2), rated=rated)
    except ChallengeError as exc:
        raise api_error(exc) from None
    return json_response({"challenge": challenge_json(challenge)}, status=201)


@api_view(methods=("GET",), scopes=("bot:play",))
def challenge_list(request: HttpRequest) -> HttpResponse:
    uid = request.user.pk
    return json_response({"in": [challenge_json(c) for c in services.pending_received(uid)],
                          "out": [challenge_json(c) for c in services.pending_made(uid)]})


@api_view(methods=("POST",), scopes=("bot:play",))
def challenge_answer(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    data = optional_body(request)
    uid = request.user.pk
    try:
        if answer == "accept":
            challenge = services.challenge_accept(challenge_id=challenge_id, user_id=uid)
        elif answer == "decline":
            reason = data.get("reason", "")
            if not isinstance(reason, str):
                raise ApiError(400, "`reason` must be text.", code="bad_request")
            challenge = services.challenge_decline(challenge_id=challenge_id, user_id=uid,
                                                   reason=reason)
        elif answer == "cancel":
            challenge = services.challenge_cancel(challenge_id=challenge_id, user_id=uid)
        else:
            raise ApiError(404, "Challenges are answered with accept, decline or cancel.")
    except ChallengeError as exc:
        raise api_error(exc) from None
    return json_response({"ok": True, "challenge": challenge_json(challenge)})


@api_view(methods=("POST", "DELETE"), scopes=("bot:play",))
def bot_queue(request: HttpRequest, game_kind: str) -> HttpResponse:
    """POST joins the bots' queue of a game (body: {"preset", "seats", "fill"}, all optional);
    DELETE leaves it."""
    from challenges import bot_queue as queue

    if request.method == "DELETE":
        return json_response({"ok": True, "left": queue.queue_leave(
            user_id=request.user.pk, game_kind=game_kind)})
    data = optional_body(request)
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise ApiError(400, "`preset` must be a preset's key.", code="bad_request")
    fill = data.get("fill", True)
    if not isinstance(fill, bool):
        raise ApiError(400, "`fill` must be true or false.", code="bad_request")
    try:
        ticket = queue.queue_join(user_id=request.user.pk, game_kind=game_kind, preset=preset,
                                  seats=_int_field(data, "seats", 2), fill=fill)
    except ChallengeError as exc:
        raise api_error(exc) from None
    return json_response({"ticket": queue.ticket_json(ticket)})


@api_view(methods=("POST",), scopes=("bot:play",))
def bot_queue_leave(request: HttpRequest, game_kind: str) -> HttpResponse:
    from challenges import bot_queue as queue

    return json_response({"ok": True, "left": queue.queue_leave(user_id=request.user.pk,
                                                                game_kind=game_kind)})
