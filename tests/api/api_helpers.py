"""Helpers for the bot API's tests: accounts, tokens and authorised requests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.test import Client

from accounts import services
from accounts.api_tokens import token_create

PASSWORD = "correct horse battery"


def make_account(username: str) -> Any:
    return services.account_create(username=username, password=PASSWORD)


def make_token(user: Any, *, scopes: Iterable[str] = ("bot:play",),
               description: str = "test bot") -> str:
    return token_create(user_id=user.pk, description=description, scopes=scopes).secret


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api_get(client: Client, path: str, secret: str | None) -> Any:
    return client.get(path, **(bearer(secret) if secret else {}))


def api_post(client: Client, path: str, secret: str | None, body: Any = None, *,
             raw: bytes | None = None) -> Any:
    data = raw if raw is not None else json.dumps(body if body is not None else {})
    return client.post(path, data=data, content_type="application/json",
                       **(bearer(secret) if secret else {}))


def account_viewer(user: Any) -> Any:
    from games.platform.identity import Viewer

    return Viewer(user_id=user.pk, guest_key=None, username=user.get_username())


def seated_game(user: Any, *, kind: str = "chudopoly", bots: int = 2,
                others: Iterable[Any] = (), **table: Any) -> Any:
    """A started game of `kind` at a table where `user` (an account) sits with `others`
    (accounts) and `bots` easy bots."""
    from games.platform import services
    from games.platform.interface import get_game

    engine = get_game(kind)
    host = account_viewer(user)
    created = services.table_create(viewer=host, name=user.get_username(), game_kind=kind,
                                    ruleset_spec={"preset": next(iter(engine.presets()))},
                                    **table)
    for other in others:
        services.seat_join(table_id=created.pk, viewer=account_viewer(other),
                           name=other.get_username())
    for _ in range(bots):
        services.seat_add_bot(table_id=created.pk, viewer=host,
                              level=next(iter(engine.bot_levels())))
    return services.game_start(table_id=created.pk, viewer=host)


def engine_seat_of(game: Any, user: Any) -> int:
    from games.platform.models import Seat

    return Seat.objects.get(table_id=game.table_id, user_id=user.pk).game_seat


def move_for_whoever_decides(game: Any, *, avoid: int | None = None) -> Any:
    """Apply the first legal concrete action of the first seat owed a decision (a seat other
    than `avoid` when one is owed); returns the game after it."""
    from games.platform import services
    from games.platform.interface import get_game

    game.refresh_from_db()
    engine = get_game(game.game_kind)
    deciding = engine.to_decide(game.state)
    seat = next((s for s in deciding if s != avoid), deciding[0])
    families = tuple(getattr(engine, "action_families", ()))
    action = next(a for a in engine.legal_actions(game.state, seat)
                  if a["type"] not in families and a["type"] != "scoop")
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def until_seat_decides(game: Any, seat: int, limit: int = 200) -> Any:
    """Play the other seats' decisions until `seat` owes one; returns the game then."""
    from games.platform.interface import get_game

    engine = get_game(game.game_kind)
    for _ in range(limit):
        game.refresh_from_db()
        if seat in engine.to_decide(game.state):
            return game
        game = move_for_whoever_decides(game, avoid=seat)
    raise AssertionError(f"seat {seat} was owed no decision within {limit} moves")


def seated_at_a_decision(user: Any, *, kind: str = "chudopoly") -> tuple[Any, int]:
    """`user`'s new game of `kind` against bots, played on until their seat owes a decision;
    returns the game then and that seat."""
    game = seated_game(user, kind=kind)
    seat = engine_seat_of(game, user)
    return until_seat_decides(game, seat), seat


def first_move_body(state: dict[str, Any]) -> dict[str, Any]:
    """A move POST's body that takes the first legal action of a seat's gameState."""
    return {"action": state["legal_actions"][0], "version": state["version"],
            "decision_token": state["decision_token"]}


def stream_state(game: Any, seat: int) -> dict[str, Any]:
    """The gameState the seat's stream would send now."""
    from games.api.game_state import game_state, read_game

    read = read_game(game.pk)
    assert read is not None
    return game_state(read, seat)


def game_path(game: Any, what: str) -> str:
    return f"/api/bot/game/{game.pk}/{what}"
