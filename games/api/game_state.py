"""What the game stream says of one game to one seat: built from the engine's per-seat view
(the very data that seat's page is rendered from), never from the state itself.

`gameFull` opens every stream: the game's kind, ruleset and seats, and its current
`gameState`. Each `gameState` holds the seat's view, the version, the decision token, the
clocks and the legal actions of the seat, each of which may be posted back as it is; a game
may also list action families (templates whose numbers the player chooses within bounds,
the engine's `action_families`), given apart under `action_families`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.platform.interface import GameEngine, get_game
from games.platform.models import Game, Seat
from games.platform.services import decision_token

# The clock fields a seat may read: when each clock runs out and what kind it is (never the
# decision keys the clocks keep, which are the engine's own).
CLOCK_FIELDS = ("kind", "seconds", "deadline", "remaining")


@dataclass(frozen=True)
class GameRead:
    """One read of a game for the stream: the row and the table's seats (for who is away)."""

    game: Game
    seats: tuple[Seat, ...]

    @property
    def fingerprint(self) -> tuple[Any, ...]:
        """What a new `gameState` is owed for: a move, the end, a clock or a seat's status."""
        return (self.game.version, self.game.status, repr(self.game.deadlines),
                self.game.table.paused_at,
                tuple((s.pk, s.away, s.name) for s in self.seats))


def read_game(game_id: int) -> GameRead | None:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    seats = tuple(Seat.objects.filter(table_id=game.table_id).order_by("position"))
    return GameRead(game=game, seats=seats)


def running(game: Game) -> bool:
    return game.status == Game.Status.RUNNING


def _clocks(deadlines: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, entry in (deadlines or {}).items():
        if isinstance(entry, dict):
            out[key] = {k: entry[k] for k in CLOCK_FIELDS if k in entry}
    return out


def _split_actions(engine: GameEngine, actions: list[dict[str, Any]]
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    families = tuple(getattr(engine, "action_families", ()))
    concrete = [dict(a) for a in actions if a.get("type") not in families]
    templates = [dict(a) for a in actions if a.get("type") in families]
    return concrete, templates


def seats_json(read: GameRead, me: int) -> list[dict[str, Any]]:
    by_id = {s.pk: s for s in read.seats}
    out = []
    for number, player in enumerate(read.game.players or []):
        row = by_id.get(player.get("seat_id"))
        out.append({"seat": number, "name": player.get("name", ""),
                    "bot": bool(player.get("bot")), "you": number == me,
                    "away": bool(row.away) if row is not None else False})
    return out


def game_state(read: GameRead, seat: int) -> dict[str, Any]:
    game = read.game
    engine = get_game(game.game_kind)
    state = game.state
    live = running(game)
    deciding = engine.to_decide(state) if live else []
    actions, families = (_split_actions(engine, list(engine.legal_actions(state, seat)))
                         if live else ([], []))
    out: dict[str, Any] = {
        "type": "gameState",
        "id": game.pk,
        "version": game.version,
        "status": game.status,
        "view": engine.view(state, seat),
        "decision_token": decision_token(engine, state, seat) if live else "",
        "to_decide": list(deciding),
        "your_decision": seat in deciding,
        "legal_actions": actions,
        "clocks": _clocks(game.deadlines),
        "paused": game.table.paused_at is not None,
        "seats": seats_json(read, seat),
    }
    if families:
        out["action_families"] = families
    if not live:
        result = game.result or {}
        out["result"] = {"winner": result.get("winner"),
                         "placements": result.get("placements")}
    return out


def game_full(read: GameRead, seat: int) -> dict[str, Any]:
    game = read.game
    engine = get_game(game.game_kind)
    return {
        "type": "gameFull",
        "id": game.pk,
        "table": game.table.code,
        "number": game.number,
        "kind": game.game_kind,
        "name": engine.name,
        "ruleset": game.ruleset,
        "ruleset_label": engine.ruleset_label(game.table.ruleset or game.ruleset),
        "seat": seat,
        "seats": seats_json(read, seat),
        "started_at": game.started_at.isoformat(),
        "state": game_state(read, seat),
    }
