"""Commonwealth behind the site's game interface (games/platform/interface.py).

Not registered yet: the platform is being restructured, and the site integration (tables,
pages, browser tests) is separate work. When it is, `register_game("commonwealth",
CommonwealthGame)` is all the seam needs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.commonwealth import engine
from games.commonwealth.engine import data
from games.platform.interface import Applied, IllegalAction, LadderPlaces, RulesetInvalid


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

    # Template names the site integration provides with the game's pages.
    home_template = "commonwealth/_home.html"
    rules_template = "commonwealth/rules.html"
    replay_template = "commonwealth/_replay_board.html"

    def rules_context(self) -> dict[str, Any]:
        return {"table": data.describe()}

    def replay_board(self, view: Mapping[str, Any], *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]) -> dict[str, Any]:
        return self.board_context(view, me=seat, names=names,
                                  seats=[{"is_bot": bot} for bot in bots])

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
        try:
            applied = engine.apply(state, seat, action)
        except engine.IllegalAction as exc:
            raise IllegalAction(exc.reason) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise IllegalAction(f"That move is not possible ({type(exc).__name__}).") from None
        return Applied(state=applied.state, events=list(applied.events))

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

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
    board_templates = {
        "status": "games/commonwealth/_status.html",
        "players": "games/commonwealth/_players.html",
        "board": "games/commonwealth/_board.html",
        "decision": "games/commonwealth/_decision.html",
        "log": "games/commonwealth/_log.html",
    }

    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Plain data for the (future) templates, from the view only."""
        return {
            "fund": view["fund"], "turn": view["turn"], "me": me, "names": list(names),
            "players": [{**p, "name": names[p["seat"]] if p["seat"] < len(names) else "?",
                         **dict(seats[p["seat"]] if p["seat"] < len(seats) else {})}
                        for p in view["players"]],
            "spaces": [{**s, **({"state": view["projects"][s["project"]]}
                                if s["kind"] == "project" else {})} for s in data.SPACES],
            "step": view["step"], "deal": view["deal"], "legal": view["legal"],
            "result": view["result"],
        }

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        return describe_event(event, viewer=viewer, names=names)


FUND_REASONS = {
    "shuttle": "for a Community Shuttle ride", "jail": "as the Jail penalty",
    "jail_fee": "toward the Jail fee", "card": "on a Chance card", "buy": "toward a purchase",
    "auction": "toward a winning bid", "develop": "toward a self-development fee",
    "chip": "toward a chip", "donation": "as a GO donation", "payout": "as a payout",
}


def _project(pid: Any) -> str:
    return data.PROJECTS[pid]["name"] if isinstance(pid, int) and 0 <= pid < 16 else "a project"


def _space(index: Any) -> str:
    return data.SPACES[index]["name"] if isinstance(index, int) and 0 <= index < 40 else "?"


def describe_event(event: Mapping[str, Any], *, viewer: int | None, names: Sequence[str]
                   ) -> str | None:
    """One log line in words for an already-redacted event (None: leave it out).
    Every change of the Fund gets its own line with the new balance."""
    t = event.get("type")

    def who(key: str = "seat", subject: bool = True) -> str:
        seat = event.get(key)
        if seat is not None and seat == viewer:
            return "You" if subject else "you"
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "Someone" if subject else "someone"

    you = event.get("seat") == viewer and viewer is not None
    s = who()
    if t == "turn_start":
        jail = " (in Jail)" if event.get("in_jail") else ""
        whose = "Your" if you else f"{s}’s"
        return f"Turn {event.get('turn_number')}: {whose} turn{jail}."
    if t == "roll":
        face = str(event.get("face")).replace("x", "×")
        double = " — a double!" if event.get("double") else "."
        return f"{s} rolled {event.get('die')} and {face}{double}"
    if t == "move":
        go = ", passing GO" if event.get("passed_go") else ""
        return f"{s} moved to {_space(event.get('to'))}{go}."
    if t == "wages":
        return f"GO: everyone collects {event.get('amount')}, then gives at least 5 to the Fund."
    if t == "fund":
        delta = event.get("delta", 0)
        why = FUND_REASONS.get(event.get("reason"), "")
        verb = f"received {delta}" if delta >= 0 else f"paid {-delta}"
        return f"The Community Fund {verb} {why} (now {event.get('fund'):,})."
    if t == "buy":
        return f"{s} bought {_project(event.get('project'))} for {event.get('price')}."
    if t == "auction":
        return f"{s} put {_project(event.get('project'))} up for auction."
    if t == "bid":
        return f"{s} bid {event.get('amount')}."
    if t == "pass":
        return f"{s} passed."
    if t == "sold":
        return f"{s} won {_project(event.get('project'))} for {event.get('amount')}."
    if t == "unsold":
        return f"Nobody bid: {_project(event.get('project'))} stays unmanaged."
    if t == "payment":
        if event.get("reason") in ("buy", "auction", "develop") or not event.get("own"):
            return None  # the purchase line and the Fund line say it
        to = "the Bank" if event.get("to") == "bank" else who("to", False)
        return f"{s} paid {event.get('own')} to {to}."
    if t == "chip":
        how = {"develop": "self-developed", "landing": "placed a chip on",
               "card": "placed a free chip on"}.get(event.get("how"), "placed a chip on")
        return f"{s} {how} {_project(event.get('project'))} ({event.get('placed')}/10 placed)."
    if t == "develop":
        return None
    if t == "payout":
        return (f"{_project(event.get('project'))} is fully developed: {who('manager', False)}"
                f" and the Fund each receive {event.get('amount')}.")
    if t == "draw":
        cards = event.get("cards")
        what = ", ".join(data.CARDS[c]["title"] for c in cards) if cards else \
            f"{event.get('count')} Chance card{'s' if event.get('count') != 1 else ''}"
        return f"{s} drew {what}."
    if t == "immediate":
        card = data.CARDS[event["card"]]
        return f"{card['title']}: {card['text']}"
    if t == "jail_card":
        return f"{s} drew the Get Out of Jail Free card (kept face up)."
    if t == "play_card":
        card = data.CARDS[event["card"]]["title"]
        kind = event.get("kind")
        if kind == "remove_chip":
            return (f"{s} played {card}: a chip of {who('rival', False)} comes off "
                    f"{_project(event.get('project'))}.")
        if kind == "swap":
            return (f"{s} played {card}: {_project(event.get('mine'))} swapped for "
                    f"{_project(event.get('theirs'))} of {who('rival', False)}.")
        return f"{s} played {card}."
    if t == "keep":
        card = event.get("card")
        return f"{s} kept {data.CARDS[card]['title'] if card is not None else 'a card'}."
    if t == "return":
        return f"{s} put {event.get('count')} card(s) under the deck."
    if t == "ride":
        return f"{s} took the Community Shuttle to {_space(event.get('to'))}."
    if t == "jail":
        why = {"three_doubles": "three doubles", "card": "a Chance card",
               "space": "the Go to Jail space"}.get(event.get("why"), "")
        return f"{s} went to Jail ({why})."
    if t == "jail_roll":
        return f"{s} rolled {event.get('die')} in Jail."
    if t == "out_of_jail":
        how = {"six": "with a 6", "paid": "by paying 50", "card": "with the card",
               "fee": "after three tries, paying the fee"}.get(event.get("how"), "")
        return f"{s} left Jail {how}."
    if t == "pledge":
        return f"{s} gave {event.get('amount')} toward {who('jailed', False)}’s Jail fee."
    if t == "offer":
        return f"{s} offered {who('to', False)} a deal."
    if t in ("decline", "withdraw"):
        return f"{s} {'declined' if t == 'decline' else 'withdrew'} the deal."
    if t == "deal":
        return f"{s} accepted the deal from {who('from', False)}."
    if t == "order":
        return None
    if t == "game_over":
        if event.get("winner") is None:
            if event.get("end_reason") == "fund_dry":
                return "The Community Fund ran dry: the community is ruined and nobody wins."
            return "The game reached its turn limit with no top contributor."
        return f"{who('winner')} placed all 10 chips: the top contributor wins!"
    return None
