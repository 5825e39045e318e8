"""The account event stream's events (docs/api.md, "Account events"), sent after the commit.

Each account has a channel-layer group, `account.<id>`; every open `GET /api/stream/event` of
that account listens to it (challenges/event_stream.py). A message carries the event itself,
a small JSON object made from public facts only (names, the game's kind and rules, a table's
code, an engine seat): nothing of a hand, a deck or a seed. The in-memory layer and
channels-redis carry it alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from challenges.models import Challenge

MESSAGE_TYPE = "account.event"


def account_group(user_id: int) -> str:
    return f"account.{user_id}"


def _send(user_ids: Iterable[int], event: dict[str, Any]) -> None:
    """From any thread: on the embedded default the layer hands a send from a thread with no
    event loop (the task runner: bot moves, clocks) to the stream's loop, which wakes at once
    (chudopoly_site/channel_layer.py)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": MESSAGE_TYPE, "event": event}
    for user_id in user_ids:
        async_to_sync(layer.group_send)(account_group(user_id), message)


def send_on_commit(user_ids: Iterable[int], event: dict[str, Any]) -> None:
    ids = sorted(set(user_ids))
    if ids:
        transaction.on_commit(lambda: _send(ids, event))


# --- what events say --------------------------------------------------------------------------


def _account(user: Any) -> dict[str, Any]:
    profile = getattr(user, "profile", None)
    return {"id": user.pk, "name": user.get_username(),
            "bot": bool(getattr(profile, "is_bot", False))}


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "status": challenge.status,
        "challenger": _account(challenge.challenger),
        "destUser": _account(challenge.challenged),
        "game": challenge.game_kind,
        "rules": challenge.ruleset_spec,
        "rulesLabel": challenge.ruleset_label,
        "seats": challenge.seats,
        "rated": challenge.rated,
        "table": challenge.table.code if challenge.table_id and challenge.table else None,
        "toTable": challenge.to_table,
        "declineReason": challenge.decline_reason or None,
        "createdAt": challenge.created_at.isoformat() if challenge.created_at else None,
        "expiresAt": challenge.expires_at.isoformat(),
    }


def game_json(game: Any, user_id: int, table_code: str | None = None) -> dict[str, Any]:
    """A game as one account's events name it: where it is and which engine seat is theirs."""
    seat = next((i for i, p in enumerate(game.players)
                 if p.get("user_id") == user_id and not p.get("bot")), None)
    return {
        "id": game.pk, "table": table_code or game.table.code, "game": game.game_kind,
        "number": game.number, "seat": seat, "status": game.status,
        "players": [{"name": p.get("name", ""), "bot": bool(p.get("bot"))}
                    for p in game.players],
    }


# --- the events ----------------------------------------------------------------------------------


def challenge_created_on_commit(challenge: Challenge) -> None:
    send_on_commit([challenge.challenged_id],
                   {"type": "challenge", "challenge": challenge_json(challenge)})


def challenge_cancelled_on_commit(challenge: Challenge) -> None:
    send_on_commit([challenge.challenged_id],
                   {"type": "challengeCanceled", "challenge": challenge_json(challenge)})


def challenge_declined_on_commit(challenge: Challenge) -> None:
    send_on_commit([challenge.challenger_id],
                   {"type": "challengeDeclined", "challenge": challenge_json(challenge)})


def _accounts_of(game: Any) -> list[int]:
    return [p["user_id"] for p in game.players if p.get("user_id") and not p.get("bot")]


def game_started_on_commit(game: Any, table_code: str) -> None:
    """Called by the tables' deal, in its transaction: every account seated hears it."""
    for user_id in _accounts_of(game):
        send_on_commit([user_id], {"type": "gameStart",
                                   "game": game_json(game, user_id, table_code)})


def game_finished_on_commit(game: Any, table_code: str) -> None:
    """Called where a game gets its result, in that transaction."""
    for user_id in _accounts_of(game):
        send_on_commit([user_id], {"type": "gameFinish",
                                   "game": game_json(game, user_id, table_code)})
