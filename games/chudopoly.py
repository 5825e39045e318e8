"""Chudopoly behind the site's game interface (games/interface.py).

Only the Chudopoly modules of the site import `games.engine`: this adapter (rules, moves,
exceptions translated to the interface's, log lines from redacted events), `chudopoly_board.py`
(the board's template data, from a view) and `templatetags/chudopoly.py` (colours).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from games.chudopoly_board import colour_name, join_words
from games.engine.cards import ACTIONS, build_deck
from games.engine.rulesets import (
    EDITABLE_DECK_COUNTS,
    PRESET_NAMES,
    PRESETS,
    TOGGLES,
    RulesetError,
)
from games.interface import Applied, IllegalAction, RulesetInvalid

TOGGLE_LABELS = {
    "winRule": "How a game is won",
    "setsToWin": "Sets to win",
    "pureSetRequired": "A set needs a real property (not only rainbow wilds)",
    "counterCostsPlay": "OPSEC on your own turn costs a play",
    "passGoRestartsTurn": "PCS Orders restarts your plays",
    "suddenDeath": "Contested approach (sudden death)",
}
CHOICE_LABELS = {
    "finalApproach": "Final approach (win after a full lap)",
    "mdFaithful": "MD Faithful (win at once on your turn)",
    "instant": "Instant (win the moment you have them)",
    "off": "Off (turn order decides)",
    "oneLap": "One lap",
    "escalate": "Escalate (need one more set)",
    "points": "Points after two laps",
}
DECK_LABELS = {**{k: a.name for k, a in ACTIONS.items()}, "wildAny": "Rainbow wilds",
               "wildPairs": "Two-colour wilds"}


class ChudopolyGame:
    key = "chudopoly"
    name = "Chudopoly"
    min_seats = 2
    max_seats = 5

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        return dict(PRESET_NAMES)

    def preset_rules(self) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in PRESETS.items()}

    def toggles(self) -> dict[str, tuple[Any, ...]]:
        return dict(TOGGLES)

    def deck_counts(self) -> dict[str, tuple[int, int]]:
        return dict(EDITABLE_DECK_COUNTS)

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            return engine.resolve_ruleset(dict(spec or {}))
        except RulesetError as exc:
            raise RulesetInvalid(exc.field, exc.message) from None

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        return PRESET_NAMES.get(ruleset.get("label", ""), "Custom")

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> dict[str, Any]:
        return engine.new_game(ruleset=dict(ruleset), seats=seats, seed=seed,
                               shuffle_seats=False)

    # --- playing ----------------------------------------------------------------------------
    def to_decide(self, state: dict[str, Any]) -> list[int]:
        return list(engine.to_decide(state))

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return list(engine.legal_actions(state, seat))

    def decision_key(self, state: dict[str, Any], seat: int) -> list[Any] | None:
        return engine.decision_key(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Applied:
        try:
            applied = engine.apply(state, seat, action)
        except engine.IllegalAction as exc:
            raise IllegalAction(getattr(exc, "reason", None) or str(exc)) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            # A malformed action the engine did not catch is still just a refused move.
            raise IllegalAction(f"That move is not possible ({type(exc).__name__}).") from None
        return Applied(state=applied.state, events=list(applied.events))

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def events_for(self, events: Sequence[dict[str, Any]], seat: int | None
                   ) -> list[dict[str, Any]]:
        return list(engine.events_for(list(events), seat))

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        return engine.result(state)

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        return engine.replay(ruleset=dict(ruleset), seats=seats, seed=seed,
                             actions=[[s, a] for s, a in actions])

    def timeout_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return list(engine.timeout_actions(state, seat))

    def clock_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {"turn_seat": view.get("turn"), "turn_number": view.get("turn_number"),
                "pending": view.get("pending") is not None}

    # --- presentation -----------------------------------------------------------------------
    board_templates = {
        "status": "games/chudopoly/_status.html",
        "players": "games/chudopoly/_players.html",
        "hand": "games/chudopoly/_hand.html",
        "decision": "games/chudopoly/_decision.html",
        "log": "games/chudopoly/_log.html",
    }

    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        from games.chudopoly_board import board_context

        return board_context(view, me=me, names=names, seats=seats)

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        deck = build_deck(ruleset.get("deck") or {})
        return describe_event(event, viewer=viewer, names=names, deck=deck)


KIND_NAMES = {
    "rent": "rent", "finance_office": "Finance Office", "roll_call": "Roll Call",
    "inspector_general": "Inspector General", "midnight_requisition": "Midnight Requisition",
    "chud": "THE CHUD CARD", "tdy_orders": "TDY Orders",
}


def describe_event(event: Mapping[str, Any], *, viewer: int | None, names: Sequence[str],
                   deck: Sequence[Any]) -> str | None:
    """One plain-words log line for an event already redacted for `viewer` (None: leave out).

    "Bea charged you 6M rent on Fighters." Subjects are names, or "You" for the viewer.
    """
    t = event.get("type")
    me = viewer

    def who(key: str = "seat", subject: bool = True) -> str:
        seat = event.get(key)
        if seat is not None and seat == me:
            return "You" if subject else "you"
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "Someone" if subject else "someone"

    def whose(key: str) -> str:
        seat = event.get(key)
        return "your" if seat is not None and seat == me else f"{who(key, False)}’s"

    def card(cid: Any) -> str:
        if isinstance(cid, Mapping):  # events carry card dicts
            return str(cid.get("name", "a card"))
        if isinstance(cid, int) and 0 <= cid < len(deck):
            return deck[cid].name
        return "a card"

    def cards(ids: Any) -> str:
        return ", ".join(card(c) for c in ids or [])

    def verb(you_form: str, other_form: str, key: str = "seat") -> str:
        return you_form if event.get(key) == me and me is not None else other_form

    subject = who()
    if t == "turn_start":
        return f"Turn {event.get('turn_number')}: {whose('seat')} turn."
    if t in ("draw", "deal"):
        n = event.get("count", 0)
        what = cards(event["cards"]) if event.get("cards") else f"{n} card{'s' if n != 1 else ''}"
        if t == "deal":
            return f"{subject} {verb('were', 'was')} dealt {what}."
        why = " (PCS Orders)" if event.get("reason") == "pcs_orders" else ""
        return f"{subject} drew {what}{why}."
    if t == "shuffle":
        return "The discard pile was shuffled into a new deck."
    if t == "bank":
        return f"{subject} banked {card(event.get('card'))} ({event.get('value')}M)."
    if t == "place":
        return f"{subject} placed {card(event.get('card'))} in {colour_name(event.get('colour'))}."
    if t == "play_action":
        key = event.get("key")
        if key in ("rent_pair", "rent_any", "finance_office", "roll_call", "surge_ops"):
            return None  # the charge or surge event says it better
        if key == "pcs_orders":
            return f"{subject} played PCS Orders."
        if key in ("upgrade", "foc"):
            return None
        target = who("target", False)
        if key in ("midnight_requisition", "chud"):
            return (f"{subject} played {card(event.get('card'))} to take "
                    f"{card(event.get('take'))} from {target}.")
        if key == "tdy_orders":
            return (f"{subject} played TDY Orders: {card(event.get('give'))} for {whose('target')} "
                    f"{card(event.get('take'))}.")
        if key == "inspector_general":
            return (f"{subject} played Inspector General on {whose('target')} "
                    f"{colour_name(event.get('colour'))} set.")
        return f"{subject} played {card(event.get('card'))}."
    if t == "turn_restart":
        return f"{subject} {verb('get', 'gets')} 3 fresh plays (PCS Orders)."
    if t == "surge":
        return (f"{subject} played Surge Operations: the next rent is ×"
                f"{event.get('multiplier')}.")
    if t == "charge":
        targets = event.get("targets") or []
        whom = join_words(["you" if s == me else (names[s] if 0 <= s < len(names) else
                                                  "someone") for s in targets])
        amount = event.get("amount")
        if event.get("kind") == "rent":
            surge = f" (×{event.get('multiplier')})" if (event.get("multiplier") or 1) > 1 else ""
            return (f"{subject} charged {whom} {amount}M rent on "
                    f"{colour_name(event.get('colour'))}{surge}.")
        kind = KIND_NAMES.get(event.get("kind"), "a charge")
        owe = "owe" if len(targets) != 1 or whom == "you" else "owes"
        return f"{subject} called {kind}: {whom} {owe} {amount}M."
    if t == "upgrade":
        what = "an Upgrade" if event.get("upgrade") == "house" else "an FOC"
        return f"{subject} added {what} to {colour_name(event.get('colour'))}."
    if t == "opsec":
        return f"{subject} played OPSEC against {who('against', False)}."
    if t == "blocked":
        kind = KIND_NAMES.get(event.get("kind"), "the action")
        return f"OPSEC stands: {kind} against {who('seat', False)} is blocked."
    if t == "accept":
        return None
    if t == "insolvent":
        return f"{subject} had nothing to pay with; the debt is dropped."
    if t == "fizzled":
        kind = KIND_NAMES.get(event.get("kind"), "The action")
        return f"{kind} against {who('target', False)} fizzled: the card was gone."
    if t == "set_stolen":
        return (f"{subject} seized {whose('from')} {colour_name(event.get('colour'))} set.")
    if t == "steal":
        return f"{subject} took {card(event.get('card'))} from {who('from', False)}."
    if t == "tdy_swap":
        return (f"{subject} swapped {card(event.get('gave'))} for {whose('target')} "
                f"{card(event.get('took'))}.")
    if t == "payment":
        amount, total = event.get("amount"), event.get("total")
        extra = f" (owed {amount}M)" if total != amount else ""
        paid = cards(event.get("cards"))
        return f"{subject} paid {who('to', False)} {total}M{extra}: {paid}."
    if t == "banked_property":
        return f"{subject} had no room for {card(event.get('card'))}, so it was banked."
    if t == "move":
        forced = " (forced: the set was full)" if event.get("forced") else ""
        return (f"{subject} moved {card(event.get('card'))} from "
                f"{colour_name(event.get('from'))} to {colour_name(event.get('to'))}{forced}.")
    if t == "move_upgrade":
        return (f"{subject} moved {card(event.get('card'))} from "
                f"{colour_name(event.get('from'))} to {colour_name(event.get('to'))}.")
    if t == "swap":
        return f"{subject} swapped {cards(event.get('cards'))} between sets."
    if t == "upgrade_banked":
        colour = colour_name(event.get("colour"))
        return f"The upgrade on {whose('seat')} {colour} set went to the bank."
    if t == "discard_required":
        return f"{subject} must discard {event.get('count')} down to 7."
    if t == "discard":
        return f"{subject} discarded {cards(event.get('cards'))}."
    if t == "scoop":
        return f"{subject} scooped (resigned)."
    if t == "set_completed":
        return (f"{subject} completed {colour_name(event.get('colour'))} "
                f"({event.get('sets')} set{'s' if event.get('sets') != 1 else ''}).")
    if t == "set_broken":
        by = f" (by {who('by', False)})" if event.get("by") is not None else ""
        return f"{whose('seat').capitalize()} {colour_name(event.get('colour'))} set broke{by}."
    if t == "final_approach":
        return (f"FINAL APPROACH: {subject} {verb('are', 'is')} armed with {event.get('sets')} "
                f"sets; the win locks in on turn {event.get('checkpoint_turn')}.")
    if t == "final_approach_pending":
        return (f"{subject} {verb('are', 'is')} still on final approach — the win locks in on "
                f"turn {event.get('checkpoint_turn')}.")
    if t == "final_approach_broken":
        by = f" by {who('by', False)}" if event.get("by") is not None else ""
        return f"{whose('seat').capitalize()} final approach was broken{by}."
    if t == "contest_open":
        return "Contested approach: two or more players are armed at once."
    if t == "contest_closed":
        return "The approach is no longer contested."
    if t == "contest_held":
        return f"{subject} cannot convert while the approach is contested."
    if t in ("response_timeout", "turn_timeout"):
        return _timeout_line(event, subject, names=names, me=me)
    if t == "game_over":
        if event.get("winner") is None:
            return "The game ended in a draw."
        reason = {"last_standing": " (last one standing)", "stalemate": " on points"}.get(
            event.get("end_reason"), "")
        return f"{who('winner')} won the game{reason}!"
    return None


def _timeout_line(event: Mapping[str, Any], subject: str, *, names: Sequence[str],
                  me: int | None) -> str:
    """The clock decided (games/clocks.py): "Bea ran out of time (45 s) and accepted …"."""
    def name(seat: Any, owner: bool = False) -> str:
        if seat is not None and seat == me:
            return "your" if owner else "you"
        text = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"
        return f"{text}’s" if owner else text

    ran_out = f"{subject} ran out of time ({event.get('seconds')} s)"
    decision = event.get("decision")
    if event.get("type") == "turn_timeout":
        if decision == "discard":
            return f"{ran_out}; the cards to discard were chosen automatically."
        return f"{ran_out}; the turn was ended automatically."
    if decision == "accept":
        against = event.get("against") or []
        if event.get("source") == event.get("seat") and against:
            stand = join_words([name(s, owner=True) for s in against])
            return f"{ran_out} and let {stand} OPSEC stand."
        kind = KIND_NAMES.get(event.get("kind"), "action")
        amount = f" ({event.get('amount')}M)" if event.get("amount") else ""
        return f"{ran_out} and accepted {name(event.get('source'), owner=True)} {kind}{amount}."
    if decision == "pay":
        return f"{ran_out}; the payment was chosen automatically."
    return f"{ran_out}."
