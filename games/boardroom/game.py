"""Boardroom behind the platform's game interface (games/platform/interface.py).

`apps.py` registers `BoardroomGame` when Django starts; the platform never imports this
package. Only Boardroom's own modules import its engine: this adapter, `board.py` (the board's
template data, from a view), `rules.py` (the rules page) and `describe.py` (log lines).

The ruleset carries the setup the engine needs beyond seats and seed:
`{"preset": "standard", "turnCap": 1000, "capPeople": false, "bots": [bool, ...] | None,
"programs": [bool, ...] | None, "humanFirst": seat | None}`. The table's ruleset has none of
`bots`, `programs` and `humanFirst`; `deal_ruleset` fills them in when the platform deals a
game (which engine seats are our bots, which are bot accounts playing over the API; against
bots the human moves first).

The guide has no limit on laps or time for people: `turnCap` ends only a game of programs
alone (every seat still in is our bot or a bot account, engine/rules.cap_in_force), which
nothing else would stop playing. `capPeople` lets it end a game with people too:
it is for tests that play a person's seat themselves to the end. No form sends either key
(a table's rules from the site are a preset's: `custom_spec`, games/platform/views.py), so a
table a person creates never has a cap for people.

Clock actions (`forfeit`, `lot_expired`) only come from the site's clocks: `timeout_actions`
marks them with `"clock": true`, a key the table socket refuses in a player's frame, and
`apply` honours no clock action without it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.platform.event_seats import seats_named
from games.platform.interface import (
    Applied,
    ChartReading,
    IllegalAction,
    LadderPlaces,
    RulesetInvalid,
)

from . import engine
from .describe import describe_event as _describe
from .engine.legal import CLOCK_ONLY, FAMILIES
from .engine.state import MAX_SEATS, MIN_SEATS, TURN_CAP

PRESETS = {"standard": "Standard"}
# The keys under which an event names seats (describe.py's `who`, an offer's and a
# payment's parties).
_EVENT_SEAT_KEYS = ("seat", "from", "to", "seller", "winner")
LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
CLOCK_MARK = "clock"
OWN_SECONDS = 300  # the guide: roll, buy or decline, a debt, the audit choice, end turn
ANSWER_SECONDS = 60  # a bid or a trade answer (silence: a pass or a refusal)
LOT_SECONDS = 60  # an auction with no first bid, for the whole lot


class RulesetError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def resolve_ruleset(spec: Mapping[str, Any] | None) -> dict[str, Any]:
    spec = dict(spec or {})
    out: dict[str, Any] = {"preset": "standard", "turnCap": TURN_CAP, "capPeople": False,
                           "bots": None, "programs": None, "humanFirst": None}
    for key, value in spec.items():
        if key not in out:
            raise RulesetError(key, f"Unknown setting {key!r}")
        out[key] = value
    if out["preset"] not in PRESETS:
        raise RulesetError("preset", f"Unknown preset {out['preset']!r}")
    cap = out["turnCap"]
    if type(cap) is not int or not 10 <= cap <= 100_000:
        raise RulesetError("turnCap", "The turn limit is a whole number from 10 to 100000")
    if type(out["capPeople"]) is not bool:
        raise RulesetError("capPeople", "capPeople is true or false")
    bots = out["bots"]
    if bots is not None and (not isinstance(bots, list) or not all(
            type(b) is bool for b in bots)):
        raise RulesetError("bots", "bots is a list of true/false, one per seat")
    programs = out["programs"]
    if programs is not None and (not isinstance(programs, list) or not all(
            type(b) is bool for b in programs)):
        raise RulesetError("programs", "programs is a list of true/false, one per seat")
    hf = out["humanFirst"]
    if hf is not None and type(hf) is not int:
        raise RulesetError("humanFirst", "humanFirst is a seat number")
    return out


class BoardroomGame:
    key = "boardroom"
    name = "Boardroom"
    # Legal actions listed as templates with bounds (engine/legal.py): an auction of one's own
    # tile and a trade offer carry numbers the player picks. The bot API lists them apart.
    action_families = FAMILIES
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    ladder_placing = ("Boardroom: by order of bankruptcy, the last one standing first (leaving "
                      "and running out of clock are bankruptcies too); at the turn limit "
                      "(bots alone), those still in by net worth.")

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        return dict(PRESETS)

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            return resolve_ruleset(spec)
        except RulesetError as exc:
            raise RulesetInvalid(exc.field, exc.message) from None

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        return PRESETS.get(str(ruleset.get("preset")), "Custom")

    def deal_ruleset(self, ruleset: Mapping[str, Any], *, bots: Sequence[bool],
                     programs: Sequence[bool] = ()) -> dict[str, Any]:
        """Which engine seats are our bots and which bot accounts (programs: the turn cap
        counts them as it counts bots), and (the guide: against bots you move first) the one
        human seat first when everybody else is a bot."""
        humans = [i for i, bot in enumerate(bots) if not bot]
        flags = [bool(p) for p in programs] or [False] * len(bots)
        return {**resolve_ruleset(ruleset), "bots": [bool(b) for b in bots],
                "programs": flags, "humanFirst": humans[0] if len(humans) == 1 else None}

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> dict[str, Any]:
        r = resolve_ruleset(ruleset)
        bots = r["bots"] if r["bots"] is not None and len(r["bots"]) == seats else None
        programs = r["programs"] if r["programs"] is not None \
            and len(r["programs"]) == seats else None
        return engine.new_game(seats=seats, seed=seed, bots=bots, programs=programs,
                               human_first=r["humanFirst"], turn_cap=r["turnCap"],
                               cap_people=r["capPeople"])

    # The stock rules only: a host chooses the preset, there are no Custom fields.
    def rule_fields(self) -> list[Any]:
        return []

    def preset_fields(self) -> dict[str, dict[str, Any]]:
        return {key: {} for key in PRESETS}

    def custom_spec(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {"preset": next(iter(PRESETS))}

    def rule_field_for(self, error_field: str) -> str | None:
        return None

    def stock_preset(self, ruleset: Mapping[str, Any]) -> str | None:
        """The ladder's question: which bots and bot accounts sat where and who moved first are
        how a game was dealt, not its rules, so a dealt ruleset is stock when the rest is a
        preset's."""
        rules = {**dict(ruleset), "bots": None, "programs": None, "humanFirst": None}
        for key in PRESETS:
            if resolve_ruleset({"preset": key}) == rules:
                return key
        return None

    # --- bots -------------------------------------------------------------------------------
    def bot_levels(self) -> dict[str, str]:
        from .bots import LEVELS

        return {k: LEVEL_NAMES.get(k, k.title()) for k in LEVELS}

    def bot_action(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        from . import bots

        # Seeded by the position, so a repeated task for the same decision picks the same move.
        rng = random.Random(f"{view.get('version')}:{view.get('viewer')}:{level}")
        return bots.choose_action(view, level if level in bots.LEVELS else "medium", rng)

    def bot_standin_level(self) -> str:
        return "medium"

    def quick_play_levels(self) -> list[str]:
        return ["medium", "medium", "easy"]

    # --- playing ----------------------------------------------------------------------------
    def decision_key(self, state: dict[str, Any], seat: int) -> Any:
        # Every move changes every seat's decision here: a move from a page a version behind
        # is refused as stale. (Seats of this game rarely decide at the same moment; a finer
        # key would let independent answers through, as Chudopoly's does.)
        if seat not in self.to_decide(state):
            return None
        return ["version", state["version"]]

    def to_decide(self, state: dict[str, Any]) -> list[int]:
        return engine.to_decide(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Applied:
        """A clock action applies only with the clock's mark (see the module's docstring)."""
        if not isinstance(action, dict):
            raise IllegalAction("An action is an object with a type")
        action = dict(action)
        clock = action.pop(CLOCK_MARK, None) is True and action.get("type") in CLOCK_ONLY
        if action.get("type") == "propose" and action.get("kind") == "swap":
            # A form's "nothing of mine" choice sends no field at all: it means no tile.
            action.setdefault("give", None)
        try:
            applied = engine.apply(state, seat, action, clock=clock)
        except engine.IllegalAction as exc:
            raise IllegalAction(exc.reason) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise IllegalAction(f"That move is not possible ({type(exc).__name__}).") from None
        return Applied(state=applied.state, events=list(applied.events))

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def screen_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """`view`'s content with its public lists the state's own (engine.view's
        `copy=False`): the table's screens only read their view, and copying the whole
        public state for each seat was nearly half of a seat's screen."""
        return engine.view(state, seat, copy=False)

    def events_for(self, events: Sequence[dict[str, Any]], seat: int | None
                   ) -> list[dict[str, Any]]:
        return engine.events_for(list(events), seat)

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        return engine.result(state)

    def ladder_places(self, result: Mapping[str, Any]) -> LadderPlaces:
        """By order of bankruptcy, the last one standing first (leaving and running out of
        clock are bankruptcies too). At the turn limit the seats still in are placed by net
        worth, and equal fortunes share a place."""
        worth = result.get("net_worth") or {}
        groups: list[list[int]] = []
        for seat in result.get("placements") or []:
            mine = worth.get(str(seat))
            if groups and mine is not None and worth.get(str(groups[-1][0])) == mine:
                groups[-1].append(seat)
            else:
                groups.append([seat])
        return LadderPlaces(groups=tuple(tuple(g) for g in groups))

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        st = self.create(ruleset=ruleset, seats=seats, seed=seed)
        for seat, action in actions:
            st = self.apply(st, seat, action).state
        return st

    def timeout_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return [{**a, CLOCK_MARK: True} if a.get("type") in CLOCK_ONLY else a
                for a in engine.timeout_actions(state, seat)]

    def leave_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        """The guide: anyone who leaves a running game goes bankrupt to the bank."""
        if state["phase"] == "finished" or not state["active"][seat]:
            return []
        return [{"type": "forfeit", CLOCK_MARK: True}]

    def out_place(self, state: dict[str, Any], seat: int) -> int | None:
        """The place of a seat already bankrupt while the others play on (the first one out
        is last), or None."""
        if state["phase"] == "finished" or seat not in state["bankrupt"]:
            return None
        return state["seats"] - state["bankrupt"].index(seat)

    def lot_timeout(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """For the 60-second clock of an auction with no first bid."""
        lot = engine.lot_timeout(state)
        return None if lot is None else (lot[0], {**lot[1], CLOCK_MARK: True})

    def auto_move(self, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
        return engine.auto_move(state, seat)

    # The guide's clocks (games/platform/clocks.py, "Games with their own clocks"): they run
    # at online tables only, and nobody's seat is ever played by a bot.
    bot_standins = False
    lot_seconds = LOT_SECONDS
    clock_words = "5 min per own decision, 60 s per bid or trade answer (online tables)"

    def clock_seconds(self, state: dict[str, Any]) -> int:
        """5 minutes for one's own decisions, 60 seconds for a bid or a trade answer."""
        return ANSWER_SECONDS if state["auction"] is not None or state["offer"] is not None \
            else OWN_SECONDS

    def clock_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        pending = view.get("auction") is not None or view.get("offer") is not None
        return {"turn_seat": view.get("turn"), "turn_number": view.get("turn_number"),
                "pending": pending}

    # --- presentation -----------------------------------------------------------------------
    page_styles = ("boardroom/board.css",)
    page_scripts = ("boardroom/board.js",)
    board_templates = {
        "status": "boardroom/_status.html",
        "players": "boardroom/_players.html",
        "decision": "boardroom/_decision.html",
        "inspect": "boardroom/_inspect.html",
        "hand": "boardroom/_portfolio.html",
        "log": "boardroom/_log.html",
        # Every seat's cash, whose turn and its clock, docked above the decision by the table
        # page (the top line of a phone's decision bar): a partial of its own, since it
        # changes with nearly every move, so that the decision panel of a seat that waits
        # reads only what `seat_screen_key` stands for.
        "glance": "boardroom/_glance.html",
        # Whom the game waits for, docked under the decision: a partial of its own for the
        # same reason (it changes with every turn and every bid).
        "waiting": "boardroom/_waiting.html",
        # The auction's box (the lot, the bid, the bidders and the clocks), docked above the
        # decision: a partial of its own, since it changes with every bid, so that the
        # decision panel of a seat that does not bid now stays as it was through an auction.
        "lot": "boardroom/_lot.html",
    }

    # The board, the glance line, the waiting line, the auction's box, the players' panels
    # and the log read alike for every seat and a watcher while the game runs (the page's
    # seat marker says whose screen it is); a seat's own are its decision, its portfolio and
    # the card its centre shows.
    seat_free_templates = frozenset({"status", "glance", "waiting", "lot", "players", "log"})

    def seat_screen_key(self, state: dict[str, Any], seat: int | None,
                        view: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        """What seat `seat`'s decision, portfolio and centre card read (board.board_context)
        while it waits for another seat's decision (board.waiting_key): it holds when the
        turn passes between other seats, and through an auction's bids. The glance line,
        which shows every seat's cash and the clock, the waiting line, which names the
        deciders, and the auction's box, which shows the bid, the bidders and their clocks,
        are seat-free partials of their own. During an auction the seat's centre shows the
        lot (board.focus), so its key holds the lot's card too; the turn holder waits like
        any other seat then.
        None while it decides (the bidder: its bid and pass), while a trade offer or a debt
        is on (the panel shows them, with their clocks, which are not in the state; a debt's
        seller is the debtor) and once the game has ended."""
        auction = state["auction"]
        if (seat is None or state["phase"] == "finished" or state["offer"] is not None
                or state["debts"]
                or (seat == auction["at"] if auction is not None else seat == state["turn"])):
            return None
        from .board import lot_key, waiting_key

        if auction is not None:
            return lot_key(state, auction["tile"]) + waiting_key(state, seat)
        return waiting_key(state, seat)

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
        return _describe(event, viewer=viewer, names=names)

    def event_seats(self, event: Mapping[str, Any]) -> set[int]:
        """The seats an event concerns: those its words name ("you" for them) and an offer's
        two parties (engine.events_for shows its terms to them alone)."""
        return seats_named(event, _EVENT_SEAT_KEYS)

    # --- the home page, the rules page and replays ------------------------------------------
    # The home page's card and the game's page (/games/boardroom/).
    pitch = ("The board game of businesses: roll, buy or auction, collect whole industries, "
             "open branches and holdings, trade with rivals and keep out of the tax audit. "
             "The last one not bankrupt wins.")
    tagline = "A board game of businesses, auctions and trades"
    picture_template = "boardroom/_picture.html"  # the square board and two dice
    quick_play_words = "You and three bots (two medium, one easy), no move clock."
    rules_template = "boardroom/rules.html"
    replay_template = "boardroom/_replay_board.html"
    # Tapping a tile to read its card works on a replay page too (no socket needed).
    replay_scripts = ("boardroom/board.js",)

    def rules_context(self) -> dict[str, Any]:
        from .rules import rules_context

        return rules_context()

    def replay_board(self, view: Mapping[str, Any], *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]) -> dict[str, Any]:
        from .board import board_context

        return board_context(view, me=seat, names=names,
                             seats=[{"is_bot": bool(b)} for b in bots])

    def chart_readings(self, view: Mapping[str, Any]) -> list[ChartReading]:
        """Each seat's net worth (cash, tiles at their price and buildings at cost: what the
        turn limit ranks), read off a view."""
        from .engine.rules import net_worth

        return [ChartReading("net_worth", "Net worth",
                             tuple(net_worth(view, s) for s in range(view["seats"])))]

    @property
    def seat_colours(self) -> tuple[str, ...]:
        from .board import SEAT_COLOURS

        return SEAT_COLOURS
