"""The seam between the site and a game engine.

The lobby, tables, seats, clocks, bots and history only ever talk to a `GameEngine`. Chudopoly
is the first one (`games/chudopoly.py` adapts `games/engine`); a second game plugs in by
implementing this protocol and calling `register_game`, without the site code changing.

Everything crossing this border is plain JSON-able data. `view(...)` is the only thing that may
reach a template or a websocket frame: states hold hidden information (hands, the deck order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class IllegalAction(Exception):
    """The engine refused an action; `reason` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RulesetInvalid(ValueError):
    """A ruleset spec was refused; `field` names the form field the message belongs to."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Applied:
    state: State
    events: list[Event] = field(default_factory=list)


@runtime_checkable
class GameEngine(Protocol):
    """What the site needs from a game. Seats are engine seat numbers 0..n-1."""

    key: str
    name: str
    min_seats: int
    max_seats: int

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        """Preset key -> display name, in menu order."""
        ...

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        """A full ruleset from a preset plus overrides; raises RulesetInvalid."""
        ...

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        """The display name of a resolved ruleset ("Blitz", or "Custom")."""
        ...

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> State: ...

    # --- playing ----------------------------------------------------------------------------
    def to_decide(self, state: State) -> list[int]:
        """Seats owed a decision now (several at once is possible)."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def decision_key(self, state: State, seat: int) -> Any:
        """A JSON-able token of what `seat` is deciding now (None: nothing). Equal tokens at
        two versions mean the same decision, so a move the seat chose at the older one is
        still meant: moves by others that leave this seat's decision alone (another chain
        answered, say) do not make it stale. Any move of the seat's own must change it."""
        ...

    def apply(self, state: State, seat: int, action: Action) -> Applied:
        """Apply one action (input untouched); raises IllegalAction with a reason."""
        ...

    def view(self, state: State, seat: int | None) -> View:
        """What seat `seat` (None: a spectator) may see. The only state a browser gets."""
        ...

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[Event]:
        """The events redacted for one seat, the same way as `view`."""
        ...

    def result(self, state: State) -> dict[str, Any] | None:
        """None while running; then at least {"winner", "placements"}."""
        ...

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, Action]]) -> State: ...

    def timeout_actions(self, state: State, seat: int) -> list[Action]:
        """What happens for `seat` when its clock runs out."""
        ...

    # --- presentation (plain words, no HTML) ------------------------------------------------
    # Partial name -> template for the board; each renders an element with that id (empty
    # before the start) and honours `oob`. The lobby, chat and clocks are the site's own.
    board_templates: dict[str, str]

    def board_context(self, view: View, *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Template data for the board, built from `view` only (never the state). `seats[i]`
        holds the public facts about engine seat i: "is_bot", "is_away", "deadline"."""
        ...

    def describe_event(self, event: Event, *, viewer: int | None, names: Sequence[str],
                       ruleset: Mapping[str, Any]) -> str | None:
        """One log line for an already-redacted event, or None to leave it out."""
        ...

    def clock_context(self, view: View) -> dict[str, Any]:
        """What the clocks need from a view: {"turn_seat", "turn_number", "pending"} where
        `pending` is true while responses (not the turn holder's play) are owed."""
        ...


_REGISTRY: dict[str, Callable[[], GameEngine]] = {}
_INSTANCES: dict[str, GameEngine] = {}


def register_game(key: str, factory: Callable[[], GameEngine]) -> None:
    """Make a game available to the site under `key` (factories run lazily, once)."""
    _REGISTRY[key] = factory
    _INSTANCES.pop(key, None)


def get_game(key: str) -> GameEngine:
    if key not in _INSTANCES:
        try:
            factory = _REGISTRY[key]
        except KeyError:
            raise LookupError(f"No game registered as {key!r}") from None
        _INSTANCES[key] = factory()
    return _INSTANCES[key]


def registered_games() -> list[str]:
    return list(_REGISTRY)


def _chudopoly() -> GameEngine:
    from games.chudopoly import ChudopolyGame

    return ChudopolyGame()


register_game("chudopoly", _chudopoly)
