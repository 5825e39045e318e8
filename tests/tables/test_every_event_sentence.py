"""Every event of every game reads right for the seat that acted, the other party, a seat
that looks on and a spectator: person and number agree ("you sell", "Ann sells", "1 tile"),
nobody reads their own name, a spectator is never "you".

The event types are taken from the engines themselves (every event dict their code emits,
and every type bot games produce), so a new event type without a sentence fails here."""

from __future__ import annotations

import ast
import pathlib
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games.platform.interface import get_game

NAMES = ["Quill", "Xavi", "Zeno", "Wren"]
GAMES_DIR = pathlib.Path(__file__).resolve().parents[2] / "games"

# What the platform's clocks note before the move they make (games/platform/clocks.py).
CLOCK_NOTES = {
    "boardroom": {"clock_timeout", "lot_timeout"},
    "commonwealth": {"clock_timeout"},
    "chudopoly": {"response_timeout", "turn_timeout"},
}

# Event types that say nothing in the log, and why (describe_event returns None for them).
SILENT = {
    "boardroom": {"turn_end": "the next turn_start says it"},
    "commonwealth": {"turn_end": "the next turn_start says it", "land": "the move says it",
                     "develop": "the chip and the Fund lines say it",
                     "order": "the draw and the move that follow say it"},
    "chudopoly": {"turn_end": "the next turn_start says it",
                  "game_start": "the table's own lines say it",
                  "accept": "the payment that follows says it"},
}
# Types silent in some of their variants only (the variant is said elsewhere).
SOMETIMES_SILENT = {
    "boardroom": {"owner": "a tile won at auction: auction_won says it"},
    "commonwealth": {"payment": "a purchase, a bid or a fee: the buy or Fund line says it"},
    "chudopoly": {"play_action": "a rent or charge card: the charge says it"},
}

_CARD = {"id": 33, "kind": "wild", "key": "wild_pair", "name": "Wild: Elite/Command",
         "value": 4, "colours": ["green", "darkblue"], "colour": "darkblue"}

# Variants bot games rarely or never produce, in the engines' own shapes: seat 0 acts, seat 1
# is the other party.
HANDMADE: dict[str, list[dict[str, Any]]] = {
    "boardroom": [
        {"type": "offer", "from": 0, "to": 1, "kind": "swap", "take": 6, "give": 1, "cash": 30,
         "debt": False},
        {"type": "offer", "from": 0, "to": 1, "kind": "swap", "take": 6, "give": None,
         "cash": 120, "debt": False},
        {"type": "offer", "from": 0, "to": 1, "kind": "sell", "take": None, "give": 6,
         "cash": 100, "debt": True},
        {"type": "answer", "seat": 1, "accept": False, "from": 0},
        {"type": "answer", "seat": 1, "accept": True, "from": 0},
        {"type": "auction", "tile": 6, "seller": 0, "start": 50},
        {"type": "auction", "tile": 6, "seller": None, "start": 10},
        {"type": "auction_unsold", "tile": 6, "cancelled": True},
        {"type": "auction_unsold", "tile": 6},
        {"type": "offer_dropped"},
        {"type": "card_skipped"},
        {"type": "debt", "seat": 0, "amount": 120, "reason": "rent"},
        {"type": "roll_again", "seat": 0},
        {"type": "payment", "from": 0, "to": 1, "amount": 26, "reason": "rent", "tile": 1},
        {"type": "payment", "from": None, "to": 0, "amount": 200, "reason": "salary"},
        {"type": "payment", "from": 0, "to": None, "amount": 100, "reason": "excise"},
        {"type": "owner", "seat": 1, "tile": 6, "how": "trade"},
        {"type": "owner", "seat": None, "tile": 6, "how": "bank_sale"},
        {"type": "clock_timeout", "seat": 0, "seconds": 60, "decision": "answer"},
        {"type": "clock_timeout", "seat": 0, "seconds": 300, "decision": "forfeit"},
        {"type": "lot_timeout", "seat": 0, "seconds": 60},
        {"type": "game_over", "winner": 0, "end_reason": "turn_cap"},
    ],
    "commonwealth": [
        {"type": "offer", "seat": 0, "from": 0, "to": 1,
         "give": {"projects": [0], "cash": 40, "jail_card": False},
         "get": {"projects": [], "cash": 0, "jail_card": True}},
        {"type": "deal", "seat": 1, "from": 0, "to": 1,
         "give": {"projects": [0], "cash": 0, "jail_card": False},
         "get": {"projects": [3], "cash": 25, "jail_card": False}},
        {"type": "decline", "seat": 1, "from": 0, "to": 1},
        {"type": "withdraw", "seat": 0, "from": 0, "to": 1},
        {"type": "play_card", "seat": 0, "card": 0, "kind": "swap", "mine": 0, "theirs": 3,
         "rival": 1},
        {"type": "pledge", "seat": 1, "jailed": 0, "amount": 20},
        {"type": "jail_fee", "seat": 0, "amount": 50, "paid": [[0, 50]], "from_fund": 0},
        {"type": "jail_fee", "seat": 0, "amount": 50, "paid": [[0, 10], [3, 30]],
         "from_fund": 10},
        {"type": "jail_fee", "seat": 3, "amount": 50, "paid": [[0, 25], [1, 25]],
         "from_fund": 0},
        {"type": "jail_fee", "seat": 0, "amount": 50, "paid": [], "from_fund": 50},
        {"type": "out_of_jail", "seat": 0, "how": "fee"},
        {"type": "return", "seat": 0, "count": 1, "cards": [1]},
        {"type": "return", "seat": 0, "count": 2, "cards": [1, 2]},
        {"type": "payment", "seat": 0, "to": 1, "amount": 10, "own": 10, "from_fund": 0,
         "reason": "chip"},
        {"type": "payout", "project": 0, "manager": 0, "amount": 60},
        {"type": "ride", "seat": 0, "to": 6},
        {"type": "clock_timeout", "seat": 0, "seconds": 300, "decision": "roll"},
        {"type": "game_over", "winner": None, "end_reason": "fund_dry"},
        {"type": "game_over", "winner": None, "end_reason": "cap"},
        {"type": "game_over", "winner": 0, "end_reason": "chips"},
    ],
    "chudopoly": [
        {"type": "game_start", "order": [0, 1, 2], "ruleset": "standard"},
        {"type": "deal", "seat": 0, "count": 5, "cards": []},
        {"type": "shuffle", "deck_count": 40, "shuffle_count": 1},
        {"type": "turn_restart", "seat": 0, "plays_left": 3},
        {"type": "surge", "seat": 0, "stack": 1, "multiplier": 2},
        {"type": "discard_required", "seat": 0, "count": 1},
        {"type": "scoop", "seat": 0, "cards": []},
        {"type": "final_approach_pending", "seat": 0, "sets": 3, "checkpoint_turn": 12},
        {"type": "final_approach_broken", "seat": 0, "by": 1},
        {"type": "contest_open", "seats": [0, 1], "mode": "off"},
        {"type": "contest_closed", "seats": [0, 1]},
        {"type": "contest_held", "seat": 0, "sets": 3, "reason": "contested"},
        {"type": "fizzled", "seat": 0, "target": 1, "kind": "midnight_requisition"},
        {"type": "set_broken", "seat": 0, "colour": "brown", "sets": 0, "by": 1},
        {"type": "charge", "seat": 0, "kind": "roll_call", "targets": [1], "amount": 2},
        {"type": "charge", "seat": 0, "kind": "roll_call", "targets": [1, 2], "amount": 2},
        {"type": "charge", "seat": 0, "kind": "rent", "targets": [1], "amount": 4,
         "colour": "brown", "multiplier": 2},
        {"type": "response_timeout", "seat": 0, "seconds": 45, "decision": "accept",
         "source": 1, "kind": "roll_call", "amount": 2},
        {"type": "response_timeout", "seat": 0, "seconds": 45, "decision": "pay"},
        {"type": "turn_timeout", "seat": 0, "seconds": 90, "decision": "end_turn"},
        {"type": "turn_timeout", "seat": 0, "seconds": 90, "decision": "discard"},
        {"type": "game_over", "winner": None, "end_reason": "draw"},
        {"type": "move_upgrade", "seat": 0, "card": _CARD, "from": "brown", "to": "green"},
        {"type": "swap", "seat": 0, "cards": [_CARD, _CARD], "moves": []},
        {"type": "banked_property", "seat": 0, "card": _CARD, "value": 4, "to": "bank"},
        {"type": "upgrade_banked", "seat": 0, "card": _CARD, "colour": "green", "to": "bank"},
    ],
}

# Slips a sentence must not have, whoever reads it.
_SLIPS = [
    (re.compile(r"\b[Yy]ou [a-z]+s\b"), "“you” with a third-person verb"),
    (re.compile(r"(?<!and )\b(?:" + "|".join(NAMES) + r") (?:give|owe|roll|sell|are|have|get|were|"
                r"pay|take|draw|place)\b"), "a name with a “you” verb"),
    (re.compile(r"\bof you\b|\b[Yy]ou’s\b|\byour’s\b"), "a wrong possessive"),
    (re.compile(r"\b1 (?!s\b)[a-z]+s\b"), "one of a plural"),
    (re.compile(r"(?<!\d)0 (?:tile|card|chip|project|branch)\b(?!s)"), "none of a singular"),
    (re.compile(r"\.\.|\s\.|\s,|  "), "stray punctuation or spacing"),
    # (after a heading in capitals, "FINAL APPROACH: You are armed", it opens a sentence)
    (re.compile(r"(?<![A-Z]): Your?\b|; Your?\b"), "a capital “You” inside a sentence"),
    (re.compile(r"\b[Ss]omeone\b"), "a seat read from the wrong key"),
]


# A card's own words are quoted as printed ("collect your salary"): the checks skip quotes.
_QUOTED = re.compile(r"“[^”]*”")


def engine_event_types(game: str) -> set[str]:
    """The event types a game's engine emits: each dict with a constant "type" given to an
    events list's append or a transaction's emit, directly or through a name it was bound to
    in the same function."""
    found: set[str] = set()
    for path in sorted((GAMES_DIR / game / "engine").glob("*.py")):
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            bound: dict[str, ast.Dict] = {}
            for node in ast.walk(func):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            bound[target.id] = node.value
            for node in ast.walk(func):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("append", "emit")
                        and ast.unparse(node.func.value) in ("ev", "events", "tx")):
                    continue
                for arg in node.args:
                    dicts = [arg] if isinstance(arg, ast.Dict) else []
                    if isinstance(arg, ast.Name) and arg.id in bound:
                        dicts.append(bound[arg.id])
                    if isinstance(arg, ast.Dict):  # {**line, ...}
                        dicts += [bound[v.id] for k, v in zip(arg.keys, arg.values, strict=True)
                                  if k is None and isinstance(v, ast.Name) and v.id in bound]
                    for d in dicts:
                        for k, v in zip(d.keys, d.values, strict=True):
                            if isinstance(k, ast.Constant) and k.value == "type" and \
                                    isinstance(v, ast.Constant):
                                found.add(v.value)
    return found


# The card game's hard bot thinks for seconds a move: its easier levels play the same events.
LEVELS = {"boardroom": ["easy", "medium", "hard"], "commonwealth": ["easy", "medium", "hard"],
          "chudopoly": ["easy", "medium"]}


def played_events(game: str, seeds: int = 6) -> list[dict[str, Any]]:
    """Raw events of a few whole bot games (4 seats; 3 for the card game)."""
    engine = get_game(game)
    seats = 3 if game == "chudopoly" else 4
    out: list[dict[str, Any]] = []
    for seed in range(1, seeds + 1):
        spec = {"bots": [True] * seats} if game == "boardroom" else {}
        rules = engine.resolve_ruleset(spec)
        st = engine.create(ruleset=rules, seats=seats, seed=seed)
        levels = LEVELS[game]
        for _ in range(4000):
            if engine.result(st) is not None:
                break
            seat = engine.to_decide(st)[0]
            action = engine.bot_action(engine.view(st, seat), levels[seed % len(levels)])
            applied = engine.apply(st, seat, action)
            out += applied.events
            st = applied.state
    return out


def samples(game: str) -> dict[str, list[dict[str, Any]]]:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for event in HANDMADE[game] + played_events(game):
        kept = by_type.setdefault(event["type"], [])
        if len(kept) < 12:
            kept.append(event)
    return by_type


_SAMPLES: dict[str, dict[str, list[dict[str, Any]]]] = {}


def game_samples(game: str) -> dict[str, list[dict[str, Any]]]:
    if game not in _SAMPLES:
        _SAMPLES[game] = samples(game)
    return _SAMPLES[game]


def seats_in(event: Mapping[str, Any], seats: int) -> Iterator[int]:
    """The seats an event names (a move's "to" is a tile: numbers past the seats are not)."""
    for key in ("seat", "from", "to", "target", "rival", "jailed", "manager", "winner",
                "source", "by", "against", "seller"):
        value = event.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats:
            yield value


def slips(text: str, viewer: int | None) -> list[str]:
    own = _QUOTED.sub("“…”", text)
    found = [why for pattern, why in _SLIPS if pattern.search(own)]
    if viewer is not None and re.search(rf"\b{NAMES[viewer]}\b", own):
        found.append("the viewer’s own name")
    if viewer is None and re.search(r"\b[Yy]ou(?:r)?\b", own):
        found.append("“you” for a spectator")
    if not (text[:1].isupper() or text[:1].isdigit() or text[:1] in "“"):
        found.append("no capital at the start")
    if text[-1:] not in ".!”":
        found.append("no full stop at the end")
    return found


@pytest.mark.parametrize("game", ["boardroom", "commonwealth", "chudopoly"])
def test_every_event_type_the_engine_emits_has_a_sample_here(game: str) -> None:
    needed = engine_event_types(game) | CLOCK_NOTES[game]
    assert needed - set(game_samples(game)) == set()


@pytest.mark.parametrize("game", ["boardroom", "commonwealth", "chudopoly"])
def test_every_event_reads_right_for_the_actor_the_other_party_and_a_spectator(
        game: str) -> None:
    engine = get_game(game)
    seats = 3 if game == "chudopoly" else 4
    rules = engine.resolve_ruleset({"bots": [True] * seats} if game == "boardroom" else {})
    names = NAMES[:seats]
    wrong: list[str] = []
    for kind, events in sorted(game_samples(game).items()):
        said = False
        for event in events:
            involved = set(seats_in(event, seats))
            for viewer in [*sorted(involved | {seats - 1}), None]:
                shown = engine.events_for([event], viewer)
                if not shown:
                    continue
                text = engine.describe_event(shown[0], viewer=viewer, names=names,
                                             ruleset=rules)
                if text is None:
                    continue
                said = True
                wrong += [f"{game} {kind} for {viewer}: {why}: {text!r}"
                          for why in slips(text, viewer)]
        if kind in SILENT[game]:
            assert not said, f"{game} {kind} is listed as silent but has a sentence"
        elif not said:
            wrong.append(f"{game} {kind}: no sentence")
    assert not wrong, "\n".join(wrong)


def test_every_note_the_platforms_clocks_write_is_given_to_a_game_here() -> None:
    tree = ast.parse((GAMES_DIR / "platform" / "clocks.py").read_text())
    notes = {v.value for d in ast.walk(tree) if isinstance(d, ast.Dict)
             for k, v in zip(d.keys, d.values, strict=True)
             if isinstance(k, ast.Constant) and k.value == "type"
             and isinstance(v, ast.Constant) and v.value.endswith("timeout")}
    assert notes == set().union(*CLOCK_NOTES.values())


def test_the_silent_lists_name_only_types_the_engines_emit() -> None:
    for game, silent in SILENT.items():
        emitted = engine_event_types(game) | CLOCK_NOTES[game] | set(game_samples(game))
        assert set(silent) | set(SOMETIMES_SILENT[game]) <= emitted
