"""Boardroom behind the site's game interface (games/interface.py's GameEngine protocol).

Not registered here: the platform is being restructured; registering is one line
(`register_game("boardroom", BoardroomGame)`) once the new home of the interface settles.

The ruleset carries the setup the engine needs beyond seats and seed:
`{"preset": "standard", "turnCap": 1000, "bots": [bool, ...] | None, "humanFirst": seat | None}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import engine
from .describe import describe_event as _describe
from .engine.legal import CLOCK_ONLY
from .engine.state import MAX_SEATS, MIN_SEATS, TURN_CAP

PRESETS = {"standard": "Standard"}


class RulesetError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def resolve_ruleset(spec: Mapping[str, Any] | None) -> dict[str, Any]:
    spec = dict(spec or {})
    out: dict[str, Any] = {"preset": "standard", "turnCap": TURN_CAP, "bots": None,
                           "humanFirst": None}
    for key, value in spec.items():
        if key not in out:
            raise RulesetError(key, f"Unknown setting {key!r}")
        out[key] = value
    if out["preset"] not in PRESETS:
        raise RulesetError("preset", f"Unknown preset {out['preset']!r}")
    cap = out["turnCap"]
    if type(cap) is not int or not 10 <= cap <= 100_000:
        raise RulesetError("turnCap", "The turn limit is a whole number from 10 to 100000")
    bots = out["bots"]
    if bots is not None and (not isinstance(bots, list) or not all(
            type(b) is bool for b in bots)):
        raise RulesetError("bots", "bots is a list of true/false, one per seat")
    hf = out["humanFirst"]
    if hf is not None and type(hf) is not int:
        raise RulesetError("humanFirst", "humanFirst is a seat number")
    return out


class BoardroomGame:
    key = "boardroom"
    name = "Boardroom"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    board_templates: dict[str, str] = {}  # the board's templates come with the next issue

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        return dict(PRESETS)

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        from games.interface import RulesetInvalid

        try:
            return resolve_ruleset(spec)
        except RulesetError as exc:
            raise RulesetInvalid(exc.field, exc.message) from None

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        return PRESETS.get(str(ruleset.get("preset")), "Custom")

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> dict[str, Any]:
        r = resolve_ruleset(ruleset)
        return engine.new_game(seats=seats, seed=seed, bots=r["bots"],
                               human_first=r["humanFirst"], turn_cap=r["turnCap"])

    # --- playing ----------------------------------------------------------------------------
    def to_decide(self, state: dict[str, Any]) -> list[int]:
        return engine.to_decide(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Any:
        """Clock actions (`forfeit`: a move clock ran out or the seat left; `lot_expired`:
        60 s without a first bid) come from the site's clocks through here too."""
        from games.interface import Applied, IllegalAction

        clock = isinstance(action, dict) and action.get("type") in CLOCK_ONLY
        try:
            applied = engine.apply(state, seat, action, clock=clock)
        except engine.IllegalAction as exc:
            raise IllegalAction(exc.reason) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise IllegalAction(f"That move is not possible ({type(exc).__name__}).") from None
        return Applied(state=applied.state, events=list(applied.events))

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def events_for(self, events: Sequence[dict[str, Any]], seat: int | None
                   ) -> list[dict[str, Any]]:
        return engine.events_for(list(events), seat)

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        return engine.result(state)

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        st = self.create(ruleset=ruleset, seats=seats, seed=seed)
        for seat, action in actions:
            st = self.apply(st, seat, action).state
        return st

    def timeout_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return engine.timeout_actions(state, seat)

    def lot_timeout(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """For the 60-second clock of an auction with no first bid."""
        return engine.lot_timeout(state)

    def auto_move(self, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
        return engine.auto_move(state, seat)

    def clock_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        pending = view.get("auction") is not None or view.get("offer") is not None
        return {"turn_seat": view.get("turn"), "turn_number": view.get("turn_number"),
                "pending": pending}

    # --- presentation -----------------------------------------------------------------------
    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {"view": view, "me": me, "names": list(names), "seats": list(seats),
                "board": engine.board_table()}

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        return _describe(event, viewer=viewer, names=names)
