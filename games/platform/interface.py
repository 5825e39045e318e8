"""The seam between the platform and a game.

The lobby, tables, seats, clocks, bots, ladder and history only ever talk to a `GameEngine`
found in this registry. The platform imports no game package: each game is a Django app of its
own (`games/chudopoly/` is the first) whose `AppConfig.ready()` calls `register_game`, so adding a
game is adding its app to INSTALLED_APPS (docs/architecture.md, "Adding a game").

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
class RuleField:
    """One field of the start-a-table form's Custom rules. `kind` is "bool", "choice" (the
    values in `choices`, as (value, label)) or "number" (`low`..`high`); `group` puts it with
    the rules ("rules") or with the card counts ("counts")."""

    name: str
    label: str
    kind: str
    group: str = "rules"
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None


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

    # Optional: `deal_ruleset(ruleset, *, bots: list[bool], programs: list[bool]) -> ruleset`,
    # the ruleset one game is dealt with once the platform knows which engine seats are our
    # bots and which are bot accounts playing over the API (stored on the Game, so replays
    # see it too). A game without it is dealt the table's ruleset.

    def rule_fields(self) -> list[RuleField]:
        """The Custom rules a host may set, as form fields, in the order shown."""
        ...

    def preset_fields(self) -> dict[str, dict[str, Any]]:
        """Preset key -> the value of every rule field under that preset (the page fills the
        Custom fields from it, and the form's initial values come from the first preset)."""
        ...

    def custom_spec(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A ruleset spec (for `resolve_ruleset`) from the Custom fields' cleaned values, by
        field name; a field left empty is None."""
        ...

    def rule_field_for(self, error_field: str) -> str | None:
        """The rule field a `RulesetInvalid.field` belongs to, or None (shown above them)."""
        ...

    # --- bots -------------------------------------------------------------------------------
    def bot_levels(self) -> dict[str, str]:
        """Level key -> display name, the levels a host may seat, weakest first."""
        ...

    def bot_action(self, view: View, level: str) -> Action:
        """One action for the seat `view` belongs to, chosen from that view only. A level the
        game does not list (an old alias) plays as the game sees fit."""
        ...

    def bot_standin_level(self) -> str:
        """The level that plays a human's seat while they are away."""
        ...

    def quick_play_levels(self) -> list[str]:
        """The bots Quick Play seats beside the player."""
        ...

    # --- playing ----------------------------------------------------------------------------
    def to_decide(self, state: State) -> list[int]:
        """Seats owed a decision now (several at once is possible)."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    # Optional: `action_families`, the action types `legal_actions` lists as templates rather
    # than as moves (their numbers are the player's to choose within bounds the template
    # gives: Boardroom's trade offers and auctions of one's own tile). The bot API lists every
    # other legal action as a move a program may post back as it is, and these apart.

    # Optional: `acts_any_time(state, seat, action) -> bool`, true for a move `seat` may make
    # although it is not deciding and the move is not listed (too many to list: Commonwealth's
    # deal offers). A game without it takes only listed moves out of turn.

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

    # Optional, for games whose rules fix their own clocks and leaving (the board games; see
    # games/platform/clocks.py, "Games with their own clocks"):
    # - `clock_seconds(state) -> int`: the clock of every seat owed a decision in `state`
    #   (5 minutes for one's own decisions, 60 s for a bid or an answer). It replaces the
    #   table's turn and response clocks, starts over after each move of the seat, and runs
    #   only at tables with two or more humans (a game against bots waits for its player).
    # - `lot_timeout(state) -> (seat, action) | None` and `lot_seconds` (default 60): a
    #   deadline for a whole lot (an auction with no first bid) that passing does not restart;
    #   when it passes, `action` is applied for `seat`.
    # - `leave_actions(state, seat) -> [action]`: what leaving a running game does (applied at
    #   once, source "leave").
    # - `bot_standins = False`: nobody's seat is ever played by a bot (no takeover after
    #   timeouts or a lost connection): the game never moves for a player but by its clocks.
    # - `auto_move(state, seat) -> action | None`: what a seat's auto move toggle plays now
    #   (None: the decision is the player's).

    # --- presentation (plain words, no HTML) ------------------------------------------------
    # Partial name -> template for the board; each renders an element with that id (empty
    # before the start) and honours `oob`. The lobby, chat and clocks are the site's own.
    # The table page places "status", "inspect" (a seat's own view of the board, such as the
    # card its centre shows), "players", "decision" and "hand" in its main column, in that
    # order, and "log" beside them (templates/games/table.html). An optional "deals" (forms a
    # seat may use at any time, whoever decides: Commonwealth's deal offers) is docked under
    # "decision", in its place on the screen: a partial of its own, so that the seats that
    # wait still share one decision panel. An optional "glance" (a line of every seat's cash,
    # whose turn and its clock, and Commonwealth's Fund: a phone's bar shows it, a wide screen
    # does not) is docked above "decision" the same way, so that a waiting seat's decision
    # panel does not change with every payment, and an optional "waiting" (Boardroom's line
    # of whom the game waits for, which the page shows to the seats that decide nothing) is
    # docked under it, so that it does not change with every turn; an optional "lot"
    # (Boardroom's auction box) is docked between the glance and the decision, so that it
    # does not change with every bid.
    board_templates: dict[str, str]
    # Optional: `page_styles` / `page_scripts`, the game's static files (paths for {% static %})
    # the table page loads once, outside the partials a push replaces.
    # A Jinja2 board template (the game's `jinja2/` folder) is rendered once per distinct
    # values it reads and process, and shared by every socket whose screen shows the same:
    # what it reads is found from its source (games/platform/partial_reads.py), nothing to
    # declare. So a partial every viewer sees alike should not read what differs by viewer
    # (`me`, "You", a seat's own fields), and a helper it calls must be a function of its
    # arguments. A Django template is rendered per socket.
    # A push sends each socket only the elements of its screen that changed, by their ids
    # (games/platform/swaps.py): a template gives an id (unique on the page, letters, digits,
    # "-" and "_") to whatever changes on its own, such as a tile, a panel or a log line
    # (a list of lines with ids grows on top: the new ones are added, old ones deleted).

    def board_context(self, view: View, *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Template data for the board, built from `view` only (never the state). `seats[i]`
        holds the public facts about engine seat i: "is_bot", "is_away", "deadline" (and,
        while a lot waits for its first bid, "lot_deadline": games/platform/clocks.py)."""
        ...

    # Optional: `screen_view(state, seat) -> View`, the same content as `view(state, seat)`
    # for a caller that only reads it (the table's screens, games/platform/presenters.py):
    # its parts may be the very objects other such views show, so it is cheaper to build and
    # must never be changed.

    # Optional: `board_public(view, *, names, seats) -> public`, the part of the board context
    # that reads the same for every viewer, built from a spectator's view (seat None) once per
    # snapshot and process and handed to every seat's `board_context(..., public=public)`,
    # which then builds only that seat's own parts. Here `seats[i]` also carries "rating"
    # (the ladder's, which the players' entries then hold). Every screen reads `public`: it
    # must hold nothing private and never be changed after.

    # Optional, together: `seat_free_templates`, the names of the board partials that read
    # alike for every seat and a spectator while the game runs (no result yet), and
    # `seat_screen_key(state, seat, view=None) -> key | None`, which stands for everything
    # the game's other board partials (a seat's own: its hand, its decision) read for that
    # seat (`view`: the seat's screen view of `state`, when the caller has it): two equal
    # keys of one running game, equal partials. None where the game cannot say (then the
    # seat's screen is built). A seat whose key, private log lines and lobby are as its
    # last push showed them is pushed without a screen of its own: its version and the
    # seat-free partials another screen of the same snapshot rendered
    # (presenters.quick_parts). The key is never sent: its socket alone compares it.

    def describe_event(self, event: Event, *, viewer: int | None, names: Sequence[str],
                       ruleset: Mapping[str, Any]) -> str | None:
        """One log line for an already-redacted event, or None to leave it out."""
        ...

    # Optional: `event_seats(event) -> seats`, the seats a raw event concerns: any other seat
    # must see it redacted as a spectator does (`events_for`) and read it in a spectator's
    # words (`describe_event`). The log then describes each event once for all of those
    # (games/platform/presenters.py); more seats than needed cost a description each, never
    # a wrong line. games/platform/event_seats.py reads them off the keys that name seats.

    def clock_context(self, view: View) -> dict[str, Any]:
        """What the clocks need from a view: {"turn_seat", "turn_number", "pending"} where
        `pending` is true while responses (not the turn holder's play) are owed. A game may
        also give `state_clock_context(state)`, the same read off the state without a view
        (the clocks ask after every move)."""
        ...

    # --- the rules page (/rules/<key>); the home page and the game's page (/games/<key>/) ----
    # Optional: `pitch` (a sentence or two: what the game is, how it is won), `tagline` (a few
    # words: what kind of game, for a phone's home page), `picture_template` (an inline SVG
    # of the game) and `quick_play_words` (who Quick Play seats): the platform draws the
    # game's card on the home page and its page from them (see `game_pitch` below).
    rules_template: str

    def rules_context(self) -> dict[str, Any]:
        """Template data for the game's rules page (the platform adds its clock limits)."""
        ...

    # --- replay and history (the ladder's pages) --------------------------------------------
    # Optional: `ladder_places(result)`, `stock_preset(ruleset)`, `quick_match_seats` and
    # `ladder_placing` (a sentence), each with a default most games want (see the functions
    # of those names below).
    replay_template: str  # draws one replay frame's board from `replay_board` output
    # Optional: `chart_readings(view) -> [ChartReading]`, what the game's charts show at one
    # moment, read off a spectator's view (so nothing hidden); the platform replays the log,
    # reads it after every move and draws each chart (games/platform/charts.py). And
    # `seat_colours`, the colour of each seat's token, which its line then takes.
    # Optional: `replay_scripts`, the game's static scripts that also serve its replay page
    # (the board's own behaviour: tap a tile to read its card). A live table's `page_scripts`
    # are not loaded there unless listed here.

    def replay_board(self, view: View, *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]) -> dict[str, Any]:
        """A replay frame's board from `view` (a finished or past state seen by `seat`, None:
        a spectator); `hands` are the hands shown (every seat's with open hands)."""
        ...


@dataclass(frozen=True)
class ChartReading:
    """One chart's values at one moment of a game (a game's `chart_readings`).

    `values` holds one number per engine seat, or with `per_seat` false a single number for
    the whole table (Commonwealth's Fund), whose line is called `label`."""

    key: str  # unique among the game's charts: "net_worth"
    title: str  # "Net worth"
    values: tuple[int, ...]
    per_seat: bool = True
    label: str = ""


# --- the ladder's questions (optional methods, with the answers most games want) -------------


@dataclass(frozen=True)
class LadderPlaces:
    """How a finished game places its seats on a ladder.

    `groups` lists engine seats best first; the seats of one group share a place. With
    `everyone_lost` nobody won (a ruined community): every seat shares the last place.
    `unrated` is a sentence saying why this ending rates nobody ("" when it may be rated).
    """

    groups: tuple[tuple[int, ...], ...]
    unrated: str = ""
    everyone_lost: bool = False


def ladder_places(engine: GameEngine, result: Mapping[str, Any]) -> LadderPlaces:
    """A game's own `ladder_places(result)`, or else the result's `placements` one seat a
    place (best first): Chudopoly's scoopers and Boardroom's order of bankruptcy are already
    in that list."""
    own = getattr(engine, "ladder_places", None)
    if own is not None:
        return own(result)
    seats = [s for s in result.get("placements") or [] if type(s) is int]
    return LadderPlaces(groups=tuple((s,) for s in seats))


def stock_preset(engine: GameEngine, ruleset: Mapping[str, Any] | None) -> str | None:
    """The stock preset a game's stored ruleset plays, or None for rules of a host's own.

    A game whose dealt ruleset carries more than rules (Boardroom's bot seats) answers with
    its own `stock_preset(ruleset)`; any other is a stock preset when the ruleset is exactly
    what that preset resolves to."""
    own = getattr(engine, "stock_preset", None)
    if own is not None:
        return own(ruleset or {})
    for key in engine.presets():
        try:
            if engine.resolve_ruleset({"preset": key}) == dict(ruleset or {}):
                return key
        except RulesetInvalid:
            continue
    return None


def ladder_placing(engine: GameEngine) -> str:
    """One sentence for the ladders' "How ratings work": how this game places its players
    (its own `ladder_placing`, or the engine's order)."""
    return getattr(engine, "ladder_placing", None) or (
        f"{engine.name}: players are placed in the order the game's result gives.")


def game_pitch(engine: GameEngine) -> str:
    """What the home page and the game's page say of a game: its own `pitch`, or its size."""
    return getattr(engine, "pitch", None) or (
        f"{engine.name}: a game for {engine.min_seats} to {engine.max_seats} players.")


def game_tagline(engine: GameEngine) -> str:
    """A few words saying what kind of game it is: its own `tagline`, or its size."""
    return getattr(engine, "tagline", None) or (
        f"For {engine.min_seats} to {engine.max_seats} players")


def game_picture(engine: GameEngine) -> str:
    """The template of a game's picture: its own `picture_template`, or the platform's."""
    return getattr(engine, "picture_template", None) or "games/_game_picture.html"


def quick_play_words(engine: GameEngine) -> str:
    """Who Quick Play seats with you: the game's own `quick_play_words`, or its bots' levels."""
    own = getattr(engine, "quick_play_words", None)
    if own:
        return own
    levels = engine.bot_levels()
    names = [levels.get(level, level).lower() for level in engine.quick_play_levels()]
    count = len(names)
    return f"You and {count} bot{'s' if count != 1 else ''} ({', '.join(names)})."


def quick_match_seats(engine: GameEngine) -> tuple[int, ...]:
    """The table sizes a game's quick-match queues seat: its own `quick_match_seats`, or
    every size it can be played at."""
    own = getattr(engine, "quick_match_seats", None)
    if own is not None:
        return tuple(own)
    return tuple(range(engine.min_seats, engine.max_seats + 1))


def expand_action(engine: GameEngine, state: State, seat: int, action: Action) -> list[Action]:
    """The engine actions a page action stands for, applied in order in one transaction.

    A game may offer a page action that its engine takes as several decisions (Chudopoly's
    "accept and pay with these cards"); it says so with an optional `expand_action` method.
    Every other action is itself. May raise IllegalAction for a malformed combined action.
    """
    expand = getattr(engine, "expand_action", None)
    return list(expand(state, seat, action)) if expand is not None else [dict(action)]


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


def default_game() -> str:
    """The game a page or table means when it names none: the first one registered (the first
    game app in INSTALLED_APPS)."""
    if not _REGISTRY:
        raise LookupError("No game is registered (is a game app in INSTALLED_APPS?)")
    return next(iter(_REGISTRY))
