"""Turn a seat's view into what the table templates show, and render the table's partials.

Only `engine.view(state, seat)` and `engine.events_for(events, seat)` output enter here, plus
public table facts (names, bots, host, clocks). The raw state never reaches a template.

The same partials serve the first page load (HTTP) and every websocket push: each partial's root
element has a stable id and, when pushed, `hx-swap-oob="true"`. A consumer remembers what it sent
last and pushes only the partials whose HTML changed, so a half-ticked payment form survives
someone else's move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games.chudopoly import ACTIONS, COLOURS, colour_name
from games.identity import Viewer
from games.interface import GameEngine, get_game
from games.models import ChatMessage, Game, GameAction, Seat, Table

LOG_LINES = 40
CHAT_LINES = 50

PARTIALS = ("lobby", "status", "players", "hand", "decision", "log")
PARTIAL_TEMPLATES = {
    "lobby": "games/_lobby.html",
    "status": "games/chudopoly/_status.html",
    "players": "games/chudopoly/_players.html",
    "hand": "games/chudopoly/_hand.html",
    "decision": "games/chudopoly/_decision.html",
    "log": "games/chudopoly/_log.html",
}


@dataclass
class TableScreen:
    """Everything one browser (a seat, or a spectator) may see of one table right now."""

    table: Table
    seats: list[Seat]
    me: Seat | None
    viewer: Viewer
    game: Game | None = None
    seat: int | None = None  # my engine seat in the current game
    view: dict[str, Any] | None = None
    names: list[str] = field(default_factory=list)
    ctx: dict[str, Any] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.game.version if self.game else 0


def load_screen(table: Table, viewer: Viewer) -> TableScreen:
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    me = next((s for s in seats if viewer.owns(s)), None)
    game = table.games.order_by("-number").first()
    screen = TableScreen(table=table, seats=seats, me=me, viewer=viewer, game=game)
    if game is not None:
        engine = get_game(game.game_kind)
        screen.names = [p["name"] for p in game.players]
        if me is not None and me.game_seat is not None and _in_game(game, me):
            screen.seat = me.game_seat
        screen.view = engine.view(game.state, screen.seat)
        screen.ctx = build_context(screen, engine)
    return screen


def _in_game(game: Game, seat: Seat) -> bool:
    players = game.players
    return (seat.game_seat is not None and seat.game_seat < len(players)
            and players[seat.game_seat].get("seat_id") == seat.pk)


# --- from a view to template data -------------------------------------------------------------


def _cards_by_id(view: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    cards: dict[int, dict[str, Any]] = {}
    for c in view.get("hand") or []:
        cards[c["id"]] = c
    for player in view.get("players") or []:
        for c in player.get("bank") or []:
            cards[c["id"]] = c
        for zone in player.get("zones") or []:
            for c in (zone.get("cards") or []) + (zone.get("upgrades") or []):
                cards[c["id"]] = {**c, "colour": c.get("colour") or zone.get("colour")}
    top = view.get("discard_top")
    if top:
        cards.setdefault(top["id"], top)
    return cards


def _name(names: Sequence[str], seat: Any, me: int | None, *, subject: bool = False) -> str:
    if seat is not None and seat == me:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "someone"


def _possessive(names: Sequence[str], seat: Any, me: int | None) -> str:
    if seat is not None and seat == me:
        return "your"
    return f"{_name(names, seat, me)}’s"


def action_label(action: Mapping[str, Any], *, cards: Mapping[int, Mapping[str, Any]],
                 view: Mapping[str, Any], names: Sequence[str], me: int | None) -> str:
    """A legal action in plain words, e.g. "Charge Bea rent on Fighters (6M)"."""
    t = action.get("type")
    card = cards.get(action.get("card", -1), {})
    cname = card.get("name", "card")
    if t == "bank":
        return f"Bank it as {card.get('value', 0)}M"
    if t == "place":
        return f"Place in {colour_name(action.get('colour'))}"
    if t == "move":
        return f"Move {cname} to {colour_name(action.get('colour'))}"
    if t == "swap":
        a, b = (cards.get(c, {}) for c in action.get("cards", [None, None])[:2])
        return (f"Swap {a.get('name', '?')} ({colour_name(a.get('colour'))}) with "
                f"{b.get('name', '?')} ({colour_name(b.get('colour'))})")
    if t == "respond":
        target = action.get("target")
        if target is not None and target != me:
            # I am the source answering a target's OPSEC in that target's chain.
            who = _name(names, target, me)
            if action.get("answer") == "opsec":
                return f"Counter {who}’s OPSEC with your own"
            return f"Let {who}’s OPSEC stand"
        if action.get("answer") == "opsec":
            return "Play OPSEC to block it"
        kind = (view.get("pending") or {}).get("kind")
        return "Accept and pay" if kind in ("rent", "finance_office", "roll_call") else "Accept"
    if t == "end_turn":
        return "End turn"
    if t == "scoop":
        return "Scoop (resign)"
    if t == "pay":
        total = sum(cards.get(c, {}).get("value", 0) for c in action.get("cards", []))
        listed = ", ".join(cards.get(c, {}).get("name", "?") for c in action.get("cards", []))
        return f"Pay {total}M: {listed}" if listed else "Pay nothing"
    if t == "discard":
        listed = ", ".join(cards.get(c, {}).get("name", "?") for c in action.get("cards", []))
        return f"Discard {listed}"
    if t != "action":
        return str(t)
    key = card.get("key")
    target = _name(names, action.get("target"), me)
    colour = colour_name(action.get("colour"))
    if key == "pcs_orders":
        return "Play it: draw 2 cards"
    if key == "roll_call":
        return "Play it: everyone else pays you 2M"
    if key == "surge_ops":
        return "Play it: double your next rent"
    if key == "finance_office":
        return f"Collect 5M from {target}"
    if key in ("midnight_requisition", "chud"):
        take = cards.get(action.get("take", -1), {})
        return (f"Take {take.get('name', '?')} ({colour_name(take.get('colour'))}) "
                f"from {target}")
    if key == "tdy_orders":
        take = cards.get(action.get("take", -1), {})
        give = cards.get(action.get("give", -1), {})
        return (f"Swap your {give.get('name', '?')} for {target}’s {take.get('name', '?')} "
                f"({colour_name(take.get('colour'))})")
    if key == "inspector_general":
        return f"Seize {_possessive(names, action.get('target'), me)} {colour} set"
    if key in ("upgrade", "foc"):
        return f"Add to your {colour} set"
    if key in ("rent_pair", "rent_any"):
        amount = _rent_amount(view, me, action.get("colour"))
        whom = "everyone else" if key == "rent_pair" else target
        money = f" ({amount}M)" if amount is not None else ""
        return f"Charge {whom} rent on {colour}{money}"
    return f"Play {cname}"


def _rent_amount(view: Mapping[str, Any], me: int | None, colour: Any) -> int | None:
    if me is None:
        return None
    for player in view.get("players") or []:
        if player.get("seat") == me:
            for zone in player.get("zones") or []:
                if zone.get("colour") == colour and zone.get("rent") is not None:
                    surge = int(view.get("surge") or 0)
                    return int(zone["rent"]) * (2 ** surge)
    return None


def _option(action: Mapping[str, Any], label: str) -> dict[str, str]:
    return {"label": label, "json": json.dumps(dict(action), separators=(",", ":"))}


def _deadline_for(game: Game, seat: int) -> str | None:
    entry = (game.deadlines or {}).get(str(seat))
    return entry.get("deadline") if isinstance(entry, Mapping) else None


def build_context(screen: TableScreen, engine: GameEngine) -> dict[str, Any]:
    view = screen.view or {}
    game = screen.game
    assert game is not None
    me = screen.seat
    names = screen.names
    cards = _cards_by_id(view)
    legal = list(view.get("legal") or []) if me is not None else []
    by_seat = {s.game_seat: s for s in screen.seats if s.game_seat is not None
               and _in_game(game, s)}

    # Legal actions grouped by where the page offers them.
    hand_options: dict[int, list[dict[str, str]]] = {}
    board_options: dict[int, list[dict[str, str]]] = {}
    swaps, responds, pays, discards, others = [], [], [], [], []
    for action in legal:
        t = action.get("type")
        label = action_label(action, cards=cards, view=view, names=names, me=me)
        if t in ("bank", "place", "action"):
            hand_options.setdefault(action.get("card"), []).append(_option(action, label))
        elif t == "move":
            board_options.setdefault(action.get("card"), []).append(_option(action, label))
        elif t == "swap":
            swaps.append(_option(action, label))
        elif t == "respond":
            responds.append(_option(action, label))
        elif t == "pay":
            pays.append(action)
        elif t == "discard":
            discards.append(action)
        else:
            others.append((t, _option(action, label)))

    turn = view.get("turn")
    players = []
    for p in view.get("players") or []:
        seat_no = p.get("seat")
        seat_row = by_seat.get(seat_no)
        zones = []
        for z in p.get("zones") or []:
            colour = COLOURS.get(z.get("colour"))
            zone_cards = [{**c, "options": board_options.get(c["id"], [])}
                          for c in z.get("cards") or []]
            upgrades = [{**c, "options": board_options.get(c["id"], [])}
                        for c in z.get("upgrades") or []]
            zones.append({**z, "name": colour_name(z.get("colour")),
                          "bg": colour.bg if colour else "#888",
                          "set_size": colour.set_size if colour else None,
                          "cards": zone_cards, "upgrades": upgrades})
        players.append({
            **p, "zones": zones, "name": _name(names, seat_no, None),
            "is_me": seat_no == me, "is_turn": seat_no == turn,
            "is_bot": bool(seat_row and seat_row.is_bot),
            "is_away": bool(seat_row and seat_row.away),
            "deciding": seat_no in (view.get("to_decide") or []),
            "deadline": _deadline_for(game, seat_no) if game.status == "running" else None,
        })

    # What I owe, if anything.
    pending = view.get("pending")
    owed_amount = None
    pending_text = None
    if pending:
        pending_text = describe_pending(pending, names=names, me=me, view=view)
        for target in pending.get("targets") or []:
            if target.get("seat") == me:
                owed_amount = target.get("amount", pending.get("amount"))
    payable: list[dict[str, Any]] = []
    if pays:
        mine = next((p for p in view.get("players") or [] if p.get("seat") == me), {})
        payable = list(mine.get("bank") or [])
        for z in mine.get("zones") or []:
            payable += [{**c, "colour": z.get("colour")} for c in z.get("cards") or []]
            payable += [{**c, "colour": z.get("colour"), "upgrade": True}
                        for c in z.get("upgrades") or []]
        if owed_amount is None:
            owed_amount = _owed_from_legal(pays, cards)
    payable_ids = [c["id"] for c in payable]
    pay_suggestions = [
        _option(a, action_label(a, cards=cards, view=view, names=names, me=me))
        for a in sorted(pays, key=lambda a: sum(cards.get(c, {}).get("value", 0)
                                                 for c in a.get("cards", [])))[:3]
    ]
    discard_count = 0
    if discards:
        discard_count = max(len(view.get("hand") or []) - 7, len(discards[0].get("cards", [])))

    hand = [{**c, "options": hand_options.get(c["id"], [])} for c in view.get("hand") or []]
    result = view.get("result") or game.result
    placements = []
    if result:
        for place, seat_no in enumerate(result.get("placements") or [], start=1):
            placements.append({"place": place, "name": _name(names, seat_no, None),
                               "is_me": seat_no == me})

    log = build_log(game, engine, me, names)
    armed = [p for p in players if p.get("armed")]
    return {
        "view": view, "me": me, "players": players, "hand": hand, "turn": turn,
        "turn_name": _name(names, turn, me, subject=True) if turn is not None else None,
        "my_turn": turn is not None and turn == me,
        "deciding": me in (view.get("to_decide") or []),
        "waiting_on": [_name(names, s, me, subject=True) for s in view.get("to_decide") or []],
        "responds": responds, "swaps": swaps,
        "pays": bool(pays), "payable": payable, "payable_ids": payable_ids,
        "owed_amount": owed_amount, "pay_suggestions": pay_suggestions,
        "discards": bool(discards), "discard_count": discard_count,
        "end_turn": next((o for t, o in others if t == "end_turn"), None),
        "scoop": next((o for t, o in others if t == "scoop"), None),
        "other_options": [o for t, o in others if t not in ("end_turn", "scoop")],
        "pending": pending, "pending_text": pending_text,
        "armed": armed, "contested": view.get("contested"),
        "contest_laps": view.get("contest_laps"), "contest_bar": view.get("contest_bar"),
        "result": result, "placements": placements,
        "winner_name": (_name(names, result.get("winner"), me, subject=True)
                        if result and result.get("winner") is not None else None),
        "log": log, "my_deadline": _deadline_for(game, me) if me is not None else None,
        "ruleset": view.get("ruleset") or game.ruleset,
        "finished": game.status == Game.Status.FINISHED,
    }


def _owed_from_legal(pays: list[Mapping[str, Any]], cards: Mapping[int, Mapping[str, Any]]
                     ) -> int | None:
    totals = [sum(cards.get(c, {}).get("value", 0) for c in a.get("cards", [])) for a in pays]
    return min(totals) if totals else None


def describe_pending(pending: Mapping[str, Any], *, names: Sequence[str], me: int | None,
                     view: Mapping[str, Any]) -> str:
    kind = pending.get("kind") or ""
    source = pending.get("source")
    who = _name(names, source, me, subject=True)
    amount = pending.get("amount")
    what = {
        "rent": f"charged rent{f' of {amount}M' if amount else ''}"
                f"{' on ' + colour_name(pending.get('colour')) if pending.get('colour') else ''}",
        "finance_office": "called in 5M with Finance Office",
        "roll_call": "called Roll Call: 2M each",
        "midnight_requisition": "played Midnight Requisition",
        "tdy_orders": "played TDY Orders",
        "inspector_general": "played Inspector General",
        "chud": "played THE CHUD CARD",
    }.get(kind)
    if what is None:
        action = ACTIONS.get(kind)
        what = f"played {action.name}" if action else (f"charged {amount}M" if amount else
                                                       "played an action")
    targets = pending.get("targets") or []
    waiting = []
    for t in targets:
        responder = t.get("responder")
        if responder is not None and t.get("state") not in ("done", "resolved", "blocked"):
            waiting.append(_name(names, responder, me, subject=True))
    whom = ", ".join(_name(names, t.get("seat"), me) for t in targets)
    line = f"{who} {what}" + (f" against {whom}" if whom else "") + "."
    if waiting:
        line += f" Waiting on {', '.join(dict.fromkeys(waiting))}."
    return line


def build_log(game: Game, engine: GameEngine, me: int | None, names: Sequence[str]
              ) -> list[str]:
    rows = list(GameAction.objects.filter(game=game).order_by("-version")
                .values_list("events", flat=True)[:LOG_LINES])
    lines: list[str] = []
    for events in reversed(rows):
        for event in engine.events_for(events or [], me):
            line = engine.describe_event(event, viewer=me, names=names, ruleset=game.ruleset)
            if line:
                lines.append(line)
    return lines[-LOG_LINES:]


# --- rendering --------------------------------------------------------------------------------


def lobby_context(screen: TableScreen) -> dict[str, Any]:
    table = screen.table
    host_seat = next((s for s in screen.seats if s.pk == table.host_id), None)
    is_host = screen.me is not None and host_seat is not None and screen.me.pk == host_seat.pk
    free = table.max_seats - len(screen.seats)
    joinable = table.status in (Table.Status.OPEN, Table.Status.FINISHED) and free > 0
    return {
        "table": table, "seats": screen.seats, "me": screen.me, "is_host": is_host,
        "host_seat": host_seat, "free_seats": max(0, free), "joinable": joinable,
        "can_start": is_host and table.status == Table.Status.OPEN and len(screen.seats) >= 2,
        "can_rematch": is_host and table.status == Table.Status.FINISHED
        and len(screen.seats) >= 2,
        "lobby_open": table.status in (Table.Status.OPEN, Table.Status.FINISHED),
        "free_range": range(max(0, free)),
        "invite_path": reverse("games:table", args=[table.code]),
        "viewer_is_guest": screen.viewer.user_id is None,
        "bot_levels": _bot_levels(),
    }


def _bot_levels() -> list[tuple[str, str]]:
    from games.bots import LEVEL_NAMES

    # "basic" is the first bot's name, kept as an alias when stronger levels exist.
    levels = [(k, v) for k, v in LEVEL_NAMES.items() if k != "basic"]
    return levels or list(LEVEL_NAMES.items())


def render_partial(name: str, screen: TableScreen, *, oob: bool,
                   extra: Mapping[str, Any] | None = None) -> str:
    context = {"screen": screen, "table": screen.table, "oob": oob, "c": screen.ctx,
               "version": screen.version, "game": screen.game,
               **lobby_context(screen), **(extra or {})}
    return render_to_string(PARTIAL_TEMPLATES[name], context)


def render_all(screen: TableScreen, *, oob: bool = True,
               extra: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every partial of the table page, by element id. `extra` carries per-browser values the
    lobby forms need (`csrf_value`, `remembered_name`)."""
    out = {"version": render_to_string("games/_version.html",
                                       {"version": screen.version, "oob": oob,
                                        "seat": screen.seat})}
    for name in PARTIALS:
        out[name] = render_partial(name, screen, oob=oob, extra=extra)
    return out


def render_chat(table: Table, *, oob: bool) -> str:
    messages = list(ChatMessage.objects.filter(table=table).order_by("-id")[:CHAT_LINES])
    return render_to_string("games/_chat_log.html",
                            {"messages": list(reversed(messages)), "oob": oob})


def render_chat_line(message: ChatMessage) -> str:
    return render_to_string("games/_chat_line_oob.html", {"m": message})


def render_error(message: str, code: str) -> str:
    return render_to_string("games/_frame_error.html", {"message": message, "code": code})
