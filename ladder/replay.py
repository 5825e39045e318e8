"""Replays and exports of finished games: the engine rebuilt from seed + action log.

Only `engine.view(state, seat)` output reaches the templates, as at the live table. A finished
game hides nothing any more, so the viewer may also open every hand ("open hands"). Any game
kind replays: the frame around the board (steps, turn, log lines, placings) is the ladder's, the
board itself is the game's (`replay_board` data drawn by its `replay_template`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.platform import charts as chart_drawing
from games.platform.interface import IllegalAction, get_game, ladder_places
from games.platform.models import Game, GameAction

log = logging.getLogger(__name__)

EXPORT_FORMAT = "chudopoly-game"  # the site's export format, for every game kind
EXPORT_VERSION = 1


def game_actions(game: Game) -> list[GameAction]:
    return list(GameAction.objects.filter(game=game).order_by("version"))


def state_at(game: Game, actions: Sequence[GameAction], step: int
             ) -> tuple[dict[str, Any], int]:
    """The engine state after the first `step` actions, rebuilt from the seed, and how many
    actions were applied: fewer than `step` only if the engine refused one (a log the engine
    no longer reproduces), in which case the state is the last one it reached."""
    engine = get_game(game.game_kind)
    state = engine.create(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed)
    for done, row in enumerate(actions[:step]):
        try:
            state = engine.apply(state, row.seat, row.action).state
        except IllegalAction:
            log.warning("replay of game %s stops at action %s: the engine refused it",
                        game.pk, done)
            return state, done
    return state, step


@dataclass
class ReplayFrame:
    step: int
    total: int
    seat: int | None  # whose perspective (None: a spectator's)
    open_hands: bool
    names: list[str]
    board_template: str  # the game's: draws `board`
    board: dict[str, Any]  # the game's replay_board(view, ...)
    status: dict[str, Any]  # whose turn, who is deciding
    lines: list[str] = field(default_factory=list)  # what the last action did
    broken_at: int | None = None  # the engine refused the log's action at this step
    result: dict[str, Any] | None = None
    placements: list[str] = field(default_factory=list)
    # The final placings as the ladder counts them: (place, names sharing it), best first.
    placings: list[tuple[int, list[str]]] = field(default_factory=list)
    everyone_lost: bool = False  # nobody won (a ruined community)
    can_open_hands: bool = False  # the game hides hands that "Open hands" would show

    @property
    def first(self) -> bool:
        return self.step == 0

    @property
    def last(self) -> bool:
        return self.step >= self.total or self.broken_at is not None


def replay_frame(game: Game, *, step: int, seat: int | None, open_hands: bool,
                 actions: Sequence[GameAction] | None = None) -> ReplayFrame:
    engine = get_game(game.game_kind)
    actions = game_actions(game) if actions is None else actions
    total = len(actions)
    step = max(0, min(step, total))
    state, reached = state_at(game, actions, step)
    broken_at = reached if reached < step else None
    step = reached
    names = [str(p.get("name", f"Seat {i + 1}")) for i, p in enumerate(game.players)]
    view = engine.view(state, seat)
    hands: dict[int, list[Any]] = {}
    if open_hands:
        for s in range(game.seat_count):
            hands[s] = list(engine.view(state, s).get("hand") or [])
    elif seat is not None:
        hands[seat] = list(view.get("hand") or [])
    board = engine.replay_board(view, seat=seat, names=names, hands=hands,
                                bots=[bool(p.get("bot")) for p in game.players])
    turn = engine.clock_context(view).get("turn_seat")
    lines: list[str] = []
    if step > 0:
        done = actions[step - 1]
        for event in engine.events_for(done.events or [], seat):
            line = engine.describe_event(event, viewer=seat, names=names, ruleset=game.ruleset)
            if line:
                lines.append(line)
    result = view.get("result")
    placements = [names[s] for s in (result or {}).get("placements") or []
                  if isinstance(s, int) and s < len(names)]
    placings: list[tuple[int, list[str]]] = []
    everyone_lost = False
    if result:
        places = ladder_places(engine, result)
        everyone_lost = places.everyone_lost
        place = 1
        for group in places.groups:
            shown = [names[s] for s in group if 0 <= s < len(names)]
            if shown:
                placings.append((place, shown))
                place += len(shown)
    status = {
        "turn_name": names[turn] if isinstance(turn, int) and turn < len(names) else None,
        "turn_number": engine.clock_context(view).get("turn_number"),
        "waiting_on": [names[s] for s in engine.to_decide(state) if s < len(names)],
    }
    return ReplayFrame(step=step, total=total, seat=seat, open_hands=open_hands, names=names,
                       board_template=engine.replay_template, board=board, status=status,
                       lines=lines, result=result, placements=placements, broken_at=broken_at,
                       placings=placings, everyone_lost=everyone_lost,
                       # Whether the game's views hold a hand at all (a seat's own
                       # empty hand is none to open).
                       can_open_hands="hand" in engine.view(state, 0))


# A finished game's charts never change: kept per process (the seed tells a reused id apart).
_CHARTS: dict[tuple[int, int], list[chart_drawing.Chart]] = {}
CHARTS_KEPT = 64


def game_charts(game: Game, actions: Sequence[GameAction] | None = None, *,
                at_step: int | None = None, seat: int | None = None) -> list[dict[str, Any]]:
    """The drawings of a finished game's charts over its turns (games/platform/charts.py),
    read off a spectator's view after each move of the log; with `at_step`, each marks the
    turn of that step; `seat` (the viewer's) names its own line "You"."""
    key = (game.pk, game.seed)
    charts = _CHARTS.get(key)
    if charts is None:
        rows = game_actions(game) if actions is None else actions
        names = [str(p.get("name", f"Seat {i + 1}")) for i, p in enumerate(game.players)]
        charts = chart_drawing.game_charts(
            get_game(game.game_kind), ruleset=game.ruleset, seats=game.seat_count,
            seed=game.seed, actions=[(row.seat, row.action) for row in rows], names=names)
        if len(_CHARTS) >= CHARTS_KEPT:
            _CHARTS.clear()
        _CHARTS[key] = charts
    return [chart_drawing.drawing(chart, at_step, seat) for chart in charts]


def export_game(game: Game) -> dict[str, Any]:
    """A finished game as plain JSON: enough to replay it exactly (docs/export.md)."""
    actions = game_actions(game)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "game_kind": game.game_kind,
        "game_id": game.pk,
        "ruleset": game.ruleset,
        "seats": game.seat_count,
        "seed": game.seed,
        "players": [{"seat": i, "name": p.get("name"), "bot": bool(p.get("bot"))}
                    for i, p in enumerate(game.players)],
        "actions": [[a.seat, a.action] for a in actions],
        "result": game.result,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
