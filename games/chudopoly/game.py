"""Chudopoly behind the platform's game interface (games/platform/interface.py).

Only Chudopoly's own modules import `games.chudopoly.engine`: this adapter (rules, moves,
exceptions translated to the interface's, log lines from redacted events, the Custom rules
form's fields, bot levels, the replay board), `board.py` (the board's template data, from a
view), `rules.py` (the rules page) and `templatetags/chudopoly.py` (colours). The platform never
imports this package: `apps.py` registers `ChudopolyGame` when Django starts.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.chudopoly import engine
from games.chudopoly.board import colour_name, join_words
from games.chudopoly.engine.apply import PAYMENT_KINDS
from games.chudopoly.engine.cards import ACTIONS, build_deck
from games.chudopoly.engine.rulesets import (
    EDITABLE_DECK_COUNTS,
    PRESET_NAMES,
    PRESETS,
    TOGGLES,
    RulesetError,
)
from games.platform.event_seats import seats_named
from games.platform.interface import (
    Applied,
    ChartReading,
    IllegalAction,
    RuleField,
    RulesetInvalid,
)

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
# The page's "accept and pay with these cards" (two engine actions, one transaction).
ACCEPT_PAY = "accept_pay"
# The legal actions of a seat that waits whose forms read only the action, the seat's own
# cards and the charge it answers (ChudopolyGame.seat_screen_key).
_KEYED_ANSWERS = frozenset(("scoop", "respond", "pay", "discard"))
DECK_LABELS = {**{k: a.name for k, a in ACTIONS.items()}, "wildAny": "Rainbow wilds",
               "wildPairs": "Two-colour wilds"}
BOOL_TOGGLES = ("pureSetRequired", "counterCostsPlay", "passGoRestartsTurn")
DECK_FIELD = "deck_"  # the start-a-table form's name for a card count: deck_<key>


class ChudopolyGame:
    key = "chudopoly"
    name = "Chudopoly"
    min_seats = 2
    max_seats = 5
    # Quick match seats 2-4: a five-seat table of strangers is a long game to queue for.
    quick_match_seats = (2, 3, 4)
    ladder_placing = ("Chudopoly: the winner first, then the others in the order the game "
                      "ends them; a player who scoops, or leaves a ranked game and has a bot "
                      "finish it, takes last place.")

    # --- rules and setup --------------------------------------------------------------------
    def presets(self) -> dict[str, str]:
        return dict(PRESET_NAMES)

    def rule_fields(self) -> list[RuleField]:
        fields = []
        for key, values in TOGGLES.items():
            label = TOGGLE_LABELS.get(key, key)
            if key in BOOL_TOGGLES:
                fields.append(RuleField(key, label, "bool"))
            else:
                fields.append(RuleField(key, label, "choice", choices=tuple(
                    (str(v), CHOICE_LABELS.get(str(v), str(v))) for v in values)))
        for key, (lo, hi) in EDITABLE_DECK_COUNTS.items():
            fields.append(RuleField(DECK_FIELD + key, DECK_LABELS.get(key, key), "number",
                                    group="counts", low=lo, high=hi))
        return fields

    def preset_fields(self) -> dict[str, dict[str, Any]]:
        out = {}
        for key, rules in PRESETS.items():
            values: dict[str, Any] = {k: rules[k] for k in TOGGLES}
            values.update({DECK_FIELD + k: v for k, v in rules["deck"].items()})
            out[key] = values
        return out

    def custom_spec(self, values: Mapping[str, Any]) -> dict[str, Any]:
        spec: dict[str, Any] = {"preset": next(iter(PRESET_NAMES))}
        for key, allowed in TOGGLES.items():
            if key in BOOL_TOGGLES:
                spec[key] = bool(values.get(key))
                continue
            raw = values.get(key)
            if raw in (None, ""):
                continue
            # Hand the engine the same type its allowed values have (setsToWin is an int).
            spec[key] = next((v for v in allowed if str(v) == raw), raw)
        deck = {key: values[DECK_FIELD + key] for key in EDITABLE_DECK_COUNTS
                if values.get(DECK_FIELD + key) is not None}
        if deck:
            spec["deck"] = deck
        return spec

    def rule_field_for(self, error_field: str) -> str | None:
        if error_field.startswith("deck."):
            error_field = DECK_FIELD + error_field.split(".", 1)[1]
        names = {f.name for f in self.rule_fields()}
        return error_field if error_field in names else None  # a whole-deck problem: None

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

    def expand_action(self, state: dict[str, Any], seat: int, action: Mapping[str, Any]
                      ) -> list[dict[str, Any]]:
        """The engine actions one page action stands for (see interface.expand_action).

        "accept_pay" is the page's one-screen answer to a charge: accept it and pay with the
        ticked cards. The engine keeps those as two decisions (respond, then pay), so the site
        applies both in one transaction; if the payment is refused, the accept is undone too.
        """
        if action.get("type") != ACCEPT_PAY:
            return [dict(action)]
        if set(action) - {"type", "target", "cards"} or not isinstance(action.get("cards"),
                                                                         list):
            raise IllegalAction("Select cards to pay with")
        respond: dict[str, Any] = {"type": "respond", "answer": "accept"}
        if "target" in action:
            respond["target"] = action["target"]
        return [respond, {"type": "pay", "cards": list(action["cards"])}]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return self._with_accept_pay(state, seat, engine.view(state, seat))

    def screen_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """`view`'s content with each board, the hand's cards, the discard pile and the ruleset
        as the objects earlier shared views showed (engine.view's `shared`): the table's
        screens only read their view, and every seat's shows the same boards."""
        last = self._last_screen_view
        if last is not None and last[0] is state and last[1] == seat:
            return last[2]
        return self._with_accept_pay(state, seat, engine.view(state, seat, shared=True))

    # The screen view `seat_screen_key` built last, with its state (held, so its identity
    # names it) and seat: a seat whose key changed has its screen built next, from the same
    # state, and reads this view again rather than a new one (presenters.quick_parts, then
    # screen_from). Read only, as every screen view.
    _last_screen_view: tuple[dict[str, Any], int, dict[str, Any]] | None = None

    def _with_accept_pay(self, state: dict[str, Any], seat: int | None,
                         view: dict[str, Any]) -> dict[str, Any]:
        quick = self._accept_pay_options(state, seat, view)
        if quick:
            view["accept_pay"] = quick
        return view

    def _accept_pay_options(self, state: dict[str, Any], seat: int | None,
                            view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The legal "accept and pay with these cards" answers of a seat charged and not yet
        answering: the engine's own payments once it had accepted, so a one-tap payment on
        the answer screen is as legal as one after it. Only the seat's own cards are named."""
        if seat is None or (view.get("pending") or {}).get("kind") not in PAYMENT_KINDS:
            return []
        accept = {"type": "respond", "answer": "accept", "target": seat}
        if accept not in (view.get("legal") or []):
            return []
        try:
            accepted = engine.apply(state, seat, accept).state
        except engine.IllegalAction:
            return []
        return [{"type": ACCEPT_PAY, "target": seat, "cards": list(a["cards"])}
                for a in engine.legal_actions(accepted, seat) if a.get("type") == "pay"]

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

    def state_clock_context(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """`clock_context` of any view of `state`, read off the state: the clocks ask after
        every move, and a spectator's view to read three facts from cost more than the
        move's engine work. The view shows these three as the state holds them."""
        return {"turn_seat": state["turn"], "turn_number": state["turn_number"],
                "pending": state["pending"] is not None}

    # --- bots -------------------------------------------------------------------------------
    def bot_levels(self) -> dict[str, str]:
        from games.chudopoly.bots import LEVEL_NAMES

        # "basic" is the first bot's name, kept as an alias of "easy" for seats that have it.
        return {k: v for k, v in LEVEL_NAMES.items() if k != "basic"}

    def bot_action(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        from games.chudopoly import bots

        return bots.choose_action(view, level=level)

    def bot_standin_level(self) -> str:
        return "medium"

    def quick_play_levels(self) -> list[str]:
        # Our levels for the reference's aggressive, aggressive, conservative bench.
        return ["medium", "medium", "easy"]

    # --- presentation -----------------------------------------------------------------------
    board_templates = {
        "status": "chudopoly/_status.html",
        "players": "chudopoly/_players.html",
        "hand": "chudopoly/_hand.html",
        "decision": "chudopoly/_decision.html",
        "log": "chudopoly/_log.html",
    }
    def board_public(self, view: Mapping[str, Any], *, names: Sequence[str],
                     seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        from games.chudopoly.board import board_public

        return board_public(view, names=names, seats=seats)

    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]],
                      public: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from games.chudopoly.board import board_context

        return board_context(view, me=me, names=names, seats=seats, public=public)

    # The board partials every seat and a spectator read alike while the game runs (one
    # render a move: status, every player's board, the log); a seat's own are its hand and
    # its decision, which `seat_screen_key` stands for (games/platform/interface.py).
    seat_free_templates = frozenset({"status", "players", "log"})

    def seat_screen_key(self, state: dict[str, Any], seat: int | None,
                        view: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        """What seat `seat`'s hand and decision partials read (board.board_context), when it is
        not its turn: while the turn's holder plays or discards, its hand and whether it still
        plays (it may only scoop, and nothing is pending); while a charge is answered, what
        its view (`view`, or one built here) shows it: its hand, its legal actions and
        one-tap payments, the charge (whose words name it), its own board (what it could pay
        with) and the hand limit. None on its own turn (the plays left, the rearranges) and
        with a legal action whose label names a card beyond its own (a play or a move reads
        every board)."""
        if seat is None or state["turn"] == seat or state["result"] is not None:
            return None
        player = state["players"][seat]
        if state["phase"] in ("play", "discard") and state["pending"] is None:
            return ("waiting", tuple(player["hand"]), player["active"])
        if view is None:
            view = self.screen_view(state, seat)
            self._last_screen_view = (state, seat, view)
        legal = view.get("legal") or []
        for action in legal:
            if action.get("type") not in _KEYED_ANSWERS:
                return None
        mine = next((p for p in view.get("players") or [] if p.get("seat") == seat), None)
        return ("answering", view.get("hand"), legal, view.get("accept_pay"),
                view.get("pending"), mine, view.get("hand_limit"))

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        return describe_event(event, viewer=viewer, names=names, deck=self._deck_of(ruleset))

    def event_seats(self, event: Mapping[str, Any]) -> set[int]:
        """The seats an event concerns: those its words name ("you" for them) and the drawer
        of a draw or a deal (engine.events_for shows the cards to it alone)."""
        return seats_named(event, _EVENT_SEAT_KEYS)

    # The deck of the ruleset last described, with its counts: a push describes its new
    # lines for one game, and building the deck's key from the counts cost more than
    # describing a line. Held with the ruleset, whose identity is checked; each move's game
    # row brings a ruleset of its own, most often with the same counts, which are compared.
    _last_deck: tuple[Mapping[str, Any], Any, tuple[Any, ...]] | None = None

    def _deck_of(self, ruleset: Mapping[str, Any]) -> tuple[Any, ...]:
        last = self._last_deck
        if last is not None and last[0] is ruleset:
            return last[2]
        counts = ruleset.get("deck") or {}
        deck = last[2] if last is not None and last[1] == counts else build_deck(counts)
        self._last_deck = (ruleset, counts, deck)
        return deck

    # --- replay (the ladder's replay pages) ------------------------------------------------
    replay_template = "chudopoly/_replay_board.html"

    def chart_readings(self, view: Mapping[str, Any]) -> list[ChartReading]:
        """Each seat's complete sets (the goal) and its bank's value, both on the table."""
        players = view.get("players") or []
        return [ChartReading("sets", "Complete sets", tuple(p["sets"] for p in players)),
                ChartReading("bank", "Bank (M)", tuple(p["bank_total"] for p in players))]

    def replay_board(self, view: Mapping[str, Any], *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]
                     ) -> dict[str, Any]:
        turn = view.get("turn")
        players = []
        for p in view.get("players") or []:
            s = p.get("seat")
            players.append({
                **p, "name": names[s] if isinstance(s, int) and s < len(names) else "?",
                "is_me": s == seat, "is_turn": s == turn, "zones": _replay_zones(p),
                "is_bot": bool(bots[s]) if isinstance(s, int) and s < len(bots) else False,
                "hand": hands.get(s), "hand_open": s in hands,
            })
        piles = {"deck_count": view.get("deck_count"), "discard_count": view.get("discard_count"),
                 "discard_top": view.get("discard_top"),
                 "sets_to_win": (view.get("ruleset") or {}).get("setsToWin")}
        return {"players": players, "piles": piles}

    # --- the rules page ---------------------------------------------------------------------
    # The home page's card and the game's page (/games/chudopoly/).
    pitch = ("A fast card game of rent, steals and property sets, in the spirit of Monopoly "
             "Deal: be the first to hold three complete sets of different colours.")
    tagline = "A card game in the spirit of Monopoly Deal"
    picture_template = "chudopoly/_picture.html"  # a fan of three cards
    quick_play_words = ("You and three bots (two medium, one easy), no turn clock, 45 seconds "
                        "to answer a charge.")
    rules_template = "chudopoly/rules.html"

    def rules_context(self) -> dict[str, Any]:
        from games.chudopoly.rules import differences_context, rules_context

        return {**rules_context(), **differences_context()}

    # Further rules pages (/rules/<slug>), beside the game's own: slug -> template.
    rules_pages = {"monopoly-deal": "chudopoly/rules_monopoly_deal.html"}

    def rules_page_context(self, slug: str) -> dict[str, Any]:
        from games.chudopoly.rules import monopoly_deal_context

        return monopoly_deal_context()


def _replay_zones(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for zone in player.get("zones") or []:
        colour = engine.COLOURS.get(zone.get("colour"))
        out.append({**zone, "name": colour.name if colour else str(zone.get("colour")),
                    "bg": colour.bg if colour else "#888",
                    "set_size": colour.set_size if colour else None})
    return out


KIND_NAMES = {
    "rent": "rent", "finance_office": "Finance Office", "roll_call": "Roll Call",
    "inspector_general": "Inspector General", "midnight_requisition": "Midnight Requisition",
    "chud": "THE CHUD CARD", "tdy_orders": "TDY Orders",
}


# The keys under which an event names seats (describe_event's `who`, `whose` and `verb`,
# a charge's targets, the clocks' lines).
_EVENT_SEAT_KEYS = ("seat", "target", "targets", "against", "source", "to", "from", "by",
                    "winner")


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
        # The chain ended on the target's OPSEC: say who blocked whose action.
        source = who("source", False)
        whose = "your" if source == "you" else f"{source}’s"
        return f"{who('seat')} blocked {whose} {kind} with OPSEC."
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
    """The clock decided (games/platform/clocks.py): "Bea ran out of time (45 s) and accepted …"."""
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
