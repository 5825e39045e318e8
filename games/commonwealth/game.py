"""Commonwealth behind the site's game interface (games/platform/interface.py).

`apps.py` registers `CommonwealthGame` when Django starts; the platform never imports this
package. Only Commonwealth's own modules import its engine: this adapter, `board.py` (the
board's template data, from a view), `rules.py` (the rules page) and `describe.py` (log lines).

The optional methods the platform's clocks and auto move look for are here too:
`timeout_actions` (the engine's defaults), `auto_move` (only the steps that are no choice),
`clock_seconds` (5 minutes for a seat's own decisions, 60 s for bids and answers),
`clock_words` and `bot_standins`. There is deliberately no `leave_actions`:
nothing ever retires a seat in this game, so a leaver's seat is played by the stand-in bot
until they return, and the ladder places a leaver last (its `_leavers`, which treats a game
with `leave_actions` as one whose result already places them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from games.commonwealth import engine
from games.commonwealth.engine import data
from games.platform.event_seats import seats_named
from games.platform.interface import (
    Applied,
    ChartReading,
    IllegalAction,
    LadderPlaces,
    RulesetInvalid,
)

from .describe import describe_event

# The keys under which an event names seats (describe.py's `who`, a deal's parties, a Jail
# fee's (seat, amount) shares).
_EVENT_SEAT_KEYS = ("seat", "from", "to", "manager", "rival", "jailed", "winner", "paid")


class CommonwealthGame:
    key = "commonwealth"
    name = "Commonwealth"
    min_seats = 2
    max_seats = 4
    ladder_placing = ("Commonwealth: the winner first, the rest by chips placed; when the Fund "
                      "runs dry the community is ruined, everyone lost and nobody is rated.")

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        return dict(engine.PRESET_NAMES)

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            return engine.resolve_ruleset(dict(spec or {}))
        except engine.RulesetError as exc:
            raise RulesetInvalid(exc.field, exc.message) from None

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        return engine.PRESET_NAMES.get(ruleset.get("label", ""), "Custom")

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> dict[str, Any]:
        return engine.new_game(ruleset=dict(ruleset), seats=seats, seed=seed)

    def describe_rules(self) -> dict[str, Any]:
        """The data table the rules page renders."""
        return data.describe()

    # The stock rules only: a host chooses a preset, there are no Custom fields.
    def rule_fields(self) -> list[Any]:
        return []

    def preset_fields(self) -> dict[str, dict[str, Any]]:
        return {key: {} for key in engine.PRESET_NAMES}

    def custom_spec(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def rule_field_for(self, error_field: str) -> str | None:
        return None

    # --- bots -------------------------------------------------------------------------------
    def bot_levels(self) -> dict[str, str]:
        return {"easy": "Easy", "medium": "Medium", "hard": "Hard"}

    def bot_action(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        from games.commonwealth import bots

        # Seeded by the position, so a repeated task for the same decision picks the same move.
        rng = random.Random(f"{view.get('version')}:{view.get('viewer')}:{level}")
        return bots.choose_action(view, level if level in bots.LEVELS else "medium", rng)

    def bot_standin_level(self) -> str:
        return "medium"

    def quick_play_levels(self) -> list[str]:
        return ["medium", "medium", "easy"]

    # --- the home page, the rules page and replays ------------------------------------------
    # The home page's card and the game's page (/games/commonwealth/).
    pitch = ("The cooperative race of a Community Fund: manage projects and be the first to "
             "place all 10 of your contribution chips — but if the Fund runs dry, everyone "
             "loses.")
    tagline = "A cooperative race to place your chips"
    picture_template = "commonwealth/_picture.html"  # the Fund and stacks of chips
    quick_play_words = "You and three bots (two medium, one easy), no move clock."
    rules_template = "commonwealth/rules.html"
    replay_template = "commonwealth/_replay_board.html"
    # Tapping a tile to read its card works on a replay page too (no socket needed).
    replay_scripts = ("commonwealth/board.js",)

    def rules_context(self) -> dict[str, Any]:
        from .rules import rules_context

        return rules_context()

    def replay_board(self, view: Mapping[str, Any], *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]) -> dict[str, Any]:
        return self.board_context(view, me=seat, names=names,
                                  seats=[{"is_bot": bool(bot)} for bot in bots])

    def chart_readings(self, view: Mapping[str, Any]) -> list[ChartReading]:
        """Chips placed by each seat (ten win), and the Community Fund (empty: all lose)."""
        return [ChartReading("chips", "Chips placed",
                             tuple(p["placed"] for p in view["players"])),
                ChartReading("fund", "Community Fund", (view["fund"],), per_seat=False,
                             label="Community Fund")]

    @property
    def seat_colours(self) -> tuple[str, ...]:
        from .board import SEAT_COLOURS

        return SEAT_COLOURS

    # --- playing ----------------------------------------------------------------------------
    def decision_key(self, state: dict[str, Any], seat: int) -> Any:
        """What `seat` is deciding. The GO gifts are owed by every seat at once and answered
        independently: a gift chosen while another seat gave first still counts (its key is
        that GO's, which no other seat's gift changes; the seat's own gift ends it). Every
        other decision is one seat's at a time, so any move makes a page a version behind
        stale."""
        if seat not in self.to_decide(state):
            return None
        step = state.get("step") or {}
        if state.get("deal") is None and step.get("kind") == "donate":
            turn = state["turn"]
            return ["donate", state["turn_number"], state["round"],
                    state["players"][turn]["pos"]]
        return ["version", state["version"]]

    def to_decide(self, state: dict[str, Any]) -> list[int]:
        return engine.to_decide(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def acts_any_time(self, state: dict[str, Any], seat: int, action: Mapping[str, Any]
                      ) -> bool:
        """Deals may be offered at any time, whoever is deciding (the seed)."""
        return action.get("type") == "offer" and engine.can_offer(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Applied:
        try:
            applied = engine.apply(state, seat, action)
        except engine.IllegalAction as exc:
            raise IllegalAction(exc.reason) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise IllegalAction(f"That move is not possible ({type(exc).__name__}).") from None
        return Applied(state=applied.state, events=list(applied.events))

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def screen_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """`view`'s content with the public part shared by every view of the state (the
        table's screens only read it): engine.screen_view."""
        return engine.screen_view(state, seat)

    def events_for(self, events: Sequence[dict[str, Any]], seat: int | None
                   ) -> list[dict[str, Any]]:
        return engine.events_for(list(events), seat)

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        # Who is rated, and how, is `ladder_places`'s answer: the result is the engine's.
        return engine.result(state)

    def ladder_places(self, result: Mapping[str, Any]) -> LadderPlaces:
        """Issue 18: the winner first, the rest by chips placed (equal counts share a place);
        a ruined community rates nobody, and nobody won it."""
        placements = [s for s in result.get("placements") or [] if type(s) is int]
        if result.get("end_reason") == "fund_dry":
            return LadderPlaces(groups=(tuple(placements),), everyone_lost=True,
                                unrated="The Fund ran dry: everyone lost, nobody is rated.")
        chips = result.get("chips") or []
        winner = result.get("winner")
        groups: list[list[int]] = [[winner]] if type(winner) is int else []
        for seat in placements:
            if seat == winner:
                continue
            if (groups and groups[-1][0] != winner and seat < len(chips)
                    and chips[groups[-1][0]] == chips[seat]):
                groups[-1].append(seat)
            else:
                groups.append([seat])
        unrated = "" if winner is not None else "The game hit the turn limit: nobody is rated."
        return LadderPlaces(groups=tuple(tuple(g) for g in groups), unrated=unrated)

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        return engine.replay(ruleset=dict(ruleset), seats=seats, seed=seed,
                             actions=[[s, a] for s, a in actions])

    def timeout_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return engine.timeout_actions(state, seat)

    def auto_move(self, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
        """The toggle by the dice: rolls, the GO minimum and a "no chip" that is the only
        answer; every choice stays the player's (engine.timeouts.auto_action)."""
        return engine.auto_action(state, seat)

    # The clocks (games/platform/clocks.py, "Games with their own clocks") run at tables with
    # two or more humans. Unlike Boardroom's, nobody is ever retired here, so a seat whose
    # owner left or timed out three times in a row is played by the stand-in bot until they
    # come back: the game never waits on an empty chair.
    bot_standins = True
    clock_words = ("5 min per own decision, 60 s per bid, deal answer, GO gift or Jail share "
                   "(online tables)")

    def clock_seconds(self, state: dict[str, Any]) -> int:
        """5 minutes for a seat's own decisions, 60 seconds for bids and answers."""
        return engine.CLOCKS[engine.clock_kind(state)]

    def clock_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        step = view.get("step") or {}
        pending = view.get("deal") is not None or step.get("kind") in (
            "auction", "donate", "jail_split")
        return {"turn_seat": view.get("turn"), "turn_number": view.get("turn_number"),
                "pending": pending}

    # --- presentation -----------------------------------------------------------------------
    page_styles = ("commonwealth/board.css",)
    page_scripts = ("commonwealth/board.js",)
    board_templates = {
        "status": "commonwealth/_status.html",
        "cards": "commonwealth/_cards.html",
        "players": "commonwealth/_players.html",
        "glance": "commonwealth/_glance.html",
        "decision": "commonwealth/_decision.html",
        "deals": "commonwealth/_deals.html",
        "inspect": "commonwealth/_inspect.html",
        "hand": "commonwealth/_holdings.html",
        "log": "commonwealth/_log.html",
        # Whom the game waits for, docked under the decision by the table page: a partial of
        # its own, so that a waiting seat's decision panel does not change with every turn.
        "waiting": "commonwealth/_waiting.html",
    }

    # The board, the space cards, the players' panels, the glance and waiting lines and the
    # log read alike for every seat and a watcher while the game runs (the page's seat marker
    # says whose screen it is): the snapshot's first screen renders them, and every other push
    # of that snapshot takes those renders as they are (presenters.render_all, "seat_free"). A
    # seat's own are its decision, its deal forms, its centre card and its holdings, which
    # `seat_screen_key` stands for.
    seat_free_templates = frozenset({"status", "cards", "players", "glance", "waiting", "log"})

    def seat_screen_key(self, state: dict[str, Any], seat: int | None,
                        view: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        """What seat `seat`'s own partials read (board.board_context), while it only waits (no
        legal action): whether it is among those who decide (its panel's `my-turn`; whom the
        game waits for is a seat-free line of its own, _waiting.html), an open auction or Jail
        split (told to the waiting seats alike), who offered whom a deal, who manages each
        project (its deal forms, which leave chip counts to the board), its own projects'
        chips (its holdings), the card its centre shows (the space its token stands on, or the
        lot: its project's chips), every seat's Pardon card, its own kept card and whether it
        may offer a deal. No cash, Fund or clock: those are in the glance line and the
        players' panels, which every seat reads alike. None while it decides (its buttons say
        who pays what, from today's cash) and while its own declined deal stands
        (board.declined weighs it on today's chips and cash). The players' names and the auto
        move toggle are the platform's (presenters.SeatMark)."""
        if seat is None or state["result"] is not None or engine.legal_actions(state, seat):
            return None
        declined = state.get("declined")
        if declined is not None and declined["from"] == seat:
            return None
        step = state["step"]
        told = None
        player = state["players"][seat]
        focus = data.SPACES[player["pos"]].get("project")
        if step is not None and step["kind"] in ("auction", "jail_split"):
            told = orjson.dumps(step, option=orjson.OPT_SORT_KEYS)
            if step["kind"] == "auction":
                focus = step["project"]
        deal = state["deal"]
        projects = state["projects"]
        return (seat in engine.to_decide(state), told,
                None if deal is None else (deal["from"], deal["to"]),
                tuple([pr["manager"] for pr in projects]),
                tuple([len(pr["chips"]) for pr in projects if pr["manager"] == seat]),
                player["pos"], None if focus is None else tuple(projects[focus]["chips"]),
                tuple([p["jail_card"] for p in state["players"]]), player["kept"],
                engine.can_offer(state, seat))

    def board_public(self, view: Mapping[str, Any], *, names: Sequence[str],
                     seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        from .board import board_public

        return board_public(view, names=names, seats=seats)

    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]],
                      public: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from .board import board_context

        return board_context(view, me=me, names=names, seats=seats, public=public)

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        return describe_event(event, viewer=viewer, names=names)

    def event_seats(self, event: Mapping[str, Any]) -> set[int]:
        """The seats an event concerns: those its words name ("you" for them), the drawer of
        cards and an offer's two parties (engine.events_for shows those to them alone)."""
        return seats_named(event, _EVENT_SEAT_KEYS)


