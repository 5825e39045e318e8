"""The bot API's OpenAPI 3.1 description, as data, served at GET /api/openapi.json.

Every /api/ endpoint has an entry in PATHS, keyed by its path as OpenAPI writes it
("/api/bot/game/{game}/move") and then by method; tests/api/test_openapi.py checks that each
route of games/api/urls.py is described with exactly the methods its view accepts. To add an
endpoint, add its route and an entry here (the helpers below write the usual parts).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt

from games.api.auth import error_response

Schema = dict[str, Any]
NDJSON = "application/x-ndjson"


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: Schema, *, required: bool = True) -> Schema:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def answer(description: str, schema: Schema | None = None, *,
           media: str = "application/json") -> Schema:
    out: Schema = {"description": description}
    if schema is not None:
        out["content"] = {media: {"schema": schema}}
    return out


def refusals(*statuses: int) -> dict[str, Schema]:
    """The JSON errors an endpoint may answer, besides those every endpoint may (401, 405, 413,
    429)."""
    words = {400: "Malformed body or field", 403: "Scope missing, or not the account's",
             404: "No such game, account or challenge", 409: "Refused by the game's state",
             401: "No, unknown or revoked token", 405: "Wrong method (see Allow)",
             413: "Body over 8 KiB", 429: "Too many requests (see Retry-After)"}
    return {str(s): {"description": words[s], "content": {"application/json": {
        "schema": ref("Error")}}} for s in sorted({401, 405, 413, 429, *statuses})}


def operation(summary: str, *, scope: str | None, tags: list[str], ok: dict[str, Schema],
              errors: tuple[int, ...] = (), body: Schema | None = None,
              parameters: list[Schema] | None = None, description: str = "") -> Schema:
    out: Schema = {"summary": summary, "tags": tags, "responses": {**ok, **refusals(*errors)}}
    if description:
        out["description"] = description
    if scope is not None:  # "" is any token; None, no token at all
        out["security"] = [{"bearer": [scope] if scope else []}]
    if body is not None:
        out["requestBody"] = body
    if parameters:
        out["parameters"] = parameters
    return out


def path_param(name: str, description: str, schema: Schema | None = None) -> Schema:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": schema or {"type": "string"}}


GAME = path_param("game", "A game id, or a table code (its latest game).")
KIND = {"type": "string", "enum": ["chudopoly", "boardroom", "commonwealth"]}

SCHEMAS: dict[str, Schema] = {
    "Error": {"type": "object", "required": ["error", "code"], "properties": {
        "error": {"type": "string", "description": "A sentence for people."},
        "code": {"type": "string", "description": "A stable word for programs."}}},
    "Account": {"type": "object", "properties": {
        "id": {"type": "integer"}, "username": {"type": "string"},
        "display_name": {"type": "string"}, "created_at": {"type": "string",
                                                          "format": "date-time"},
        "url": {"type": "string"},
        "token": {"type": "object", "properties": {
            "description": {"type": "string"},
            "scopes": {"type": "array", "items": {"type": "string"}}}}}},
    "Action": {"type": "object", "required": ["type"], "additionalProperties": True,
               "description": "An engine action, as legal_actions lists it.",
               "properties": {"type": {"type": "string"}}},
    "Seat": {"type": "object", "properties": {
        "seat": {"type": "integer"}, "name": {"type": "string"}, "bot": {"type": "boolean"},
        "you": {"type": "boolean"}, "away": {"type": "boolean"}}},
    "Clock": {"type": "object", "properties": {
        "kind": {"type": "string"}, "seconds": {"type": "integer"},
        "deadline": {"type": "string", "format": "date-time"},
        "remaining": {"type": "number"}}},
    "GameState": {"type": "object", "properties": {
        "type": {"const": "gameState"}, "id": {"type": "integer"},
        "version": {"type": "integer"},
        "status": {"type": "string", "enum": ["running", "finished", "abandoned"]},
        "view": {"type": "object", "description": "The seat's view: what its page is drawn "
                 "from (the game's own format: docs/engine.md, docs/boardroom.md, "
                 "docs/commonwealth.md)."},
        "decision_token": {"type": "string"},
        "to_decide": {"type": "array", "items": {"type": "integer"}},
        "your_decision": {"type": "boolean"},
        "legal_actions": {"type": "array", "items": ref("Action")},
        "action_families": {"type": "array", "items": ref("Action"),
                            "description": "Boardroom: templates with bounds."},
        "clocks": {"type": "object", "additionalProperties": ref("Clock")},
        "paused": {"type": "boolean"},
        "seats": {"type": "array", "items": ref("Seat")},
        "result": {"type": "object", "properties": {
            "winner": {}, "placements": {"type": "array"}}}}},
    "GameFull": {"type": "object", "properties": {
        "type": {"const": "gameFull"}, "id": {"type": "integer"}, "table": {"type": "string"},
        "number": {"type": "integer"}, "kind": KIND, "name": {"type": "string"},
        "ruleset": {"type": "object"}, "ruleset_label": {"type": "string"},
        "seat": {"type": "integer"}, "seats": {"type": "array", "items": ref("Seat")},
        "started_at": {"type": "string", "format": "date-time"}, "state": ref("GameState")}},
    "ChatLine": {"type": "object", "properties": {
        "type": {"const": "chatLine"}, "username": {"type": "string"},
        "text": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}},
    "Gone": {"type": "object", "properties": {"type": {"const": "gone"},
                                              "error": {"type": "string"}}},
    "GameStreamLine": {"oneOf": [ref("GameFull"), ref("GameState"), ref("ChatLine"),
                                 ref("Gone")],
                       "description": "One line of the game stream (an empty line: "
                                      "keep-alive)."},
    "Move": {"type": "object", "required": ["action", "version"], "properties": {
        "action": ref("Action"), "version": {"type": "integer", "minimum": 0},
        "decision_token": {"type": "string"},
        "seat": {"type": "integer", "description": "Optional; if given, must be yours."}}},
    "MoveDone": {"type": "object", "properties": {
        "ok": {"const": True}, "id": {"type": "integer"}, "version": {"type": "integer"},
        "status": {"type": "string"}}},
    "Ok": {"type": "object", "properties": {"ok": {"const": True}}},
    "Challenge": {"type": "object", "properties": {
        "id": {"type": "integer"},
        "status": {"type": "string",
                   "enum": ["created", "accepted", "declined", "cancelled", "expired"]},
        "challenger": {"type": "object"}, "destUser": {"type": "object"}, "game": KIND,
        "rules": {"type": "object"}, "rulesLabel": {"type": "string"},
        "seats": {"type": "integer"}, "rated": {"type": "boolean"},
        "table": {"type": ["string", "null"]}, "toTable": {"type": "boolean"},
        "declineReason": {"type": ["string", "null"]},
        "createdAt": {"type": "string"}, "expiresAt": {"type": "string"}}},
    "ChallengeRequest": {"type": "object", "required": ["game"], "properties": {
        "game": KIND, "preset": {"type": "string"}, "rules": {"type": "object"},
        "seats": {"type": "integer"}, "rated": {"type": "boolean"}}},
    "Ticket": {"type": "object", "properties": {
        "id": {"type": "integer"}, "game": KIND, "preset": {"type": "string"},
        "seats": {"type": "integer"}, "fill": {"type": "boolean"},
        "status": {"type": "string"}, "table": {"type": ["string", "null"]},
        "withBots": {"type": "boolean"}, "joinedAt": {"type": "string"}}},
    "QueueRequest": {"type": "object", "properties": {
        "preset": {"type": "string"}, "seats": {"type": "integer"},
        "fill": {"type": "boolean"}}},
    "ExportedGame": {"type": "object", "description": "docs/export.md: enough to replay "
                     "the game exactly.", "properties": {
        "format": {"const": "chudopoly-game"}, "format_version": {"type": "integer"},
        "game_kind": KIND, "game_id": {"type": "integer"}, "ruleset": {"type": "object"},
        "seats": {"type": "integer"}, "seed": {"type": "integer"},
        "players": {"type": "array", "items": {"type": "object"}},
        "actions": {"type": "array", "items": {"type": "array"}},
        "result": {"type": "object"}, "started_at": {"type": "string"},
        "finished_at": {"type": "string"}}},
    "AccountEvent": {"type": "object", "properties": {
        "type": {"type": "string", "enum": ["challenge", "challengeCanceled",
                                            "challengeDeclined", "gameStart",
                                            "gameFinish"]},
        "challenge": ref("Challenge"), "game": ref("EventGame")},
        "description": "One line of the account's event stream (an empty line: keep-alive)."},
    "EventGame": {"type": "object", "description": "A game as gameStart and gameFinish name "
                  "it: public facts only.", "properties": {
        "id": {"type": "integer"}, "table": {"type": "string"}, "game": KIND,
        "number": {"type": "integer"},
        "seat": {"type": ["integer", "null"], "description": "The account's engine seat."},
        "status": {"type": "string", "enum": ["running", "finished", "abandoned"]},
        "players": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"},
            "bot": {"type": "boolean", "description": "One of the site's own bots."}}}}}},
}

PATHS: dict[str, dict[str, Schema]] = {
    "/api/openapi.json": {"get": operation(
        "This description", scope=None, tags=["meta"],
        ok={"200": answer("The OpenAPI document", {"type": "object"})})},
    "/api/account": {"get": operation(
        "The token's account", scope="", tags=["account"],
        description="Any token, whatever its scopes.",
        ok={"200": answer("The account", ref("Account"))})},
    "/api/stream/event": {"get": operation(
        "Stream the account's events", scope="bot:play", tags=["account"],
        description="NDJSON: pending challenges and games under way first, then each event.",
        ok={"200": answer("One event a line", ref("AccountEvent"), media=NDJSON)},
        errors=(403,))},
    "/api/challenge": {"get": operation(
        "Challenges waiting for an answer", scope="bot:play", tags=["challenges"],
        ok={"200": answer("Received and made", {"type": "object", "properties": {
            "in": {"type": "array", "items": ref("Challenge")},
            "out": {"type": "array", "items": ref("Challenge")}}})}, errors=(403,))},
    "/api/challenge/{username}": {"post": operation(
        "Challenge an account", scope="bot:play", tags=["challenges"],
        parameters=[path_param("username", "The account to challenge.")],
        body=json_body(ref("ChallengeRequest")),
        ok={"201": answer("The challenge", {"type": "object", "properties": {
            "challenge": ref("Challenge")}})}, errors=(400, 403, 404))},
    "/api/challenge/{id}/{answer}": {"post": operation(
        "Accept, decline or cancel a challenge", scope="bot:play", tags=["challenges"],
        parameters=[path_param("id", "The challenge's id.", {"type": "integer"}),
                    path_param("answer", "What to do.", {
                        "type": "string", "enum": ["accept", "decline", "cancel"]})],
        body=json_body({"type": "object", "properties": {"reason": {"type": "string"}}},
                       required=False),
        ok={"200": answer("The challenge now", {"type": "object", "properties": {
            "ok": {"const": True}, "challenge": ref("Challenge")}})},
        errors=(400, 403, 404, 409))},
    "/api/bot/queue/{game_kind}": {
        "post": operation(
            "Wait in the bots' queue of a game", scope="bot:play", tags=["queue"],
            parameters=[path_param("game_kind", "The game.", KIND)],
            body=json_body(ref("QueueRequest"), required=False),
            ok={"200": answer("The ticket", {"type": "object", "properties": {
                "ticket": ref("Ticket")}})}, errors=(400, 403, 404, 409)),
        "delete": operation(
            "Leave the bots' queue", scope="bot:play", tags=["queue"],
            parameters=[path_param("game_kind", "The game.", KIND)],
            ok={"200": answer("Whether there was a ticket to leave", {
                "type": "object", "properties": {"ok": {"const": True},
                                                 "left": {"type": "boolean"}}})},
            errors=(403, 404))},
    "/api/bot/queue/{game_kind}/leave": {"post": operation(
        "Leave the bots' queue (as DELETE)", scope="bot:play", tags=["queue"],
        parameters=[path_param("game_kind", "The game.", KIND)],
        ok={"200": answer("Whether there was a ticket to leave", {
            "type": "object", "properties": {"ok": {"const": True},
                                             "left": {"type": "boolean"}}})},
        errors=(403, 404))},
    "/api/bot/game/stream/{game}": {"get": operation(
        "Stream one game for the account's seat", scope="bot:play", tags=["games"],
        parameters=[GAME],
        description="NDJSON: gameFull, then a gameState after every change, chatLine for "
                    "the table's chat; an empty line after 7 s of quiet. Ends after the "
                    "game's last gameState.",
        ok={"200": answer("One event a line", ref("GameStreamLine"), media=NDJSON)},
        errors=(403, 404))},
    "/api/bot/game/{game}/move": {"post": operation(
        "Make a move", scope="bot:play", tags=["games"], parameters=[GAME],
        body=json_body(ref("Move")),
        description="Through the table's own service: refused as stale, duplicate, "
                    "illegal, not_your_turn, forged, finished or paused, changing nothing.",
        ok={"200": answer("Played", ref("MoveDone"))}, errors=(400, 403, 404, 409))},
    "/api/bot/game/{game}/chat": {"post": operation(
        "Write in the table's chat", scope="bot:play", tags=["games"], parameters=[GAME],
        body=json_body({"type": "object", "required": ["text"], "properties": {
            "text": {"type": "string", "maxLength": 500}}}),
        ok={"200": answer("Posted", ref("Ok"))}, errors=(400, 403, 404))},
    "/api/games/user/{username}": {"get": operation(
        "An account's finished games", scope="game:read", tags=["export"],
        parameters=[path_param("username", "The account."),
                    {"name": "max", "in": "query", "required": False,
                     "schema": {"type": "integer", "minimum": 1, "maximum": 300,
                                "default": 50}},
                    {"name": "game", "in": "query", "required": False, "schema": KIND}],
        description="Newest first, one game a line, each as docs/export.md describes.",
        ok={"200": answer("One game a line", ref("ExportedGame"), media=NDJSON)},
        errors=(400, 403, 404))},
    "/api/game/export/{id}": {"get": operation(
        "One finished game", scope="game:read", tags=["export"],
        parameters=[path_param("id", "The game's id.", {"type": "integer"})],
        ok={"200": answer("The game", ref("ExportedGame"))}, errors=(403, 404))},
    "/api/bot/game/{game}/resign": {"post": operation(
        "Leave the game (Boardroom: bankrupt; the others: a bot plays the seat)",
        scope="bot:play", tags=["games"], parameters=[GAME],
        ok={"200": answer("Left", ref("MoveDone"))}, errors=(403, 404, 409))},
}


def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Chudopoly bot API", "version": "1",
                 "description": "Programs play Chudopoly, Boardroom and Commonwealth here. "
                                "Every request carries `Authorization: Bearer <token>` (made "
                                "on the account page, /accounts/tokens/); every refusal is "
                                "`{\"error\", \"code\"}`. Guide: docs/api.md."},
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "A personal API token (chp_…)."}},
            "schemas": SCHEMAS,
        },
        "paths": PATHS,
    }


@csrf_exempt
@cache_control(public=True, max_age=300)
def openapi_json(request: HttpRequest) -> HttpResponse:
    """Served to anyone, without a token: it describes the API and acts for nobody."""
    if request.method not in ("GET", "HEAD"):
        return error_response(405, "Use GET here.", headers={"Allow": "GET, HEAD"})
    return JsonResponse(document())


openapi_json.api_methods = ("GET",)  # type: ignore[attr-defined]
