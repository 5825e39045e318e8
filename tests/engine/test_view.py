"""The per-seat view and event redaction: hidden information goes through one door."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from games.chudopoly.engine import (
    apply,
    card,
    events_for,
    legal_actions,
    new_game,
    scenario,
    start_game,
    to_decide,
    view,
)
from games.chudopoly.engine.random_player import choose

CONTRACT_KEYS = {"version", "viewer", "turn", "turn_number", "phase", "plays_left",
                 "rearranges_left", "surge", "deck_count", "discard_count", "discard_top",
                 "shuffle_count", "players", "hand", "pending", "to_decide", "legal",
                 "contested", "contest_laps", "contest_bar", "ruleset", "result"}
PLAYER_KEYS = {"seat", "active", "hand_count", "bank", "bank_total", "zones", "sets",
               "net_worth", "armed", "checkpoint_turn", "opponent_turns_remaining"}
ROOT = Path(__file__).resolve().parents[2]


def test_view_has_every_contract_key() -> None:
    v = view(new_game(ruleset=None, seats=3, seed=1), 0)
    assert set(v) >= CONTRACT_KEYS
    assert all(set(p) >= PLAYER_KEYS for p in v["players"])
    assert set(v["hand"][0]) == {"id", "kind", "key", "name", "value", "colours", "colour"}


def test_a_view_shows_only_the_viewers_hand_and_no_deck_order() -> None:
    state = new_game(ruleset=None, seats=3, seed=5)
    for seat in (0, 1, 2, None):
        v = view(state, seat)
        text = json.dumps(v)
        assert "rng" not in v and "seed" not in v and "deck" not in v
        for other in range(3):
            if other == seat:
                assert [c["id"] for c in v["hand"]] == state["players"][other]["hand"]
            assert v["players"][other]["hand_count"] == len(state["players"][other]["hand"])
        if seat is None:
            assert v["hand"] == [] and v["legal"] == []
        assert '"hand":' in text


def test_a_seat_view_never_contains_another_hand_card_id() -> None:
    state = new_game(ruleset=None, seats=2, seed=11)
    hidden = set(state["players"][1]["hand"]) | set(state["deck"])
    v = view(state, 0)
    shown = {c["id"] for c in v["hand"]}
    for p in v["players"]:
        shown |= {c["id"] for c in p["bank"]}
        for z in p["zones"]:
            shown |= {c["id"] for c in z["cards"] + z["upgrades"]}
    assert not shown & hidden


def test_draw_and_deal_events_carry_card_ids_only_for_the_drawer() -> None:
    events = start_game(ruleset=None, seats=2, seed=3).events
    mine = events_for(events, 0)
    theirs = events_for(events, 1)
    spectator = events_for(events, None)
    draw0 = next(e for e in mine if e["type"] == "draw")
    assert len(draw0["cards"]) == 2
    assert "cards" not in next(e for e in theirs if e["type"] == "draw")
    assert all("cards" not in e for e in spectator if e["type"] in ("draw", "deal"))
    deal1 = next(e for e in theirs if e["type"] == "deal" and e["seat"] == 1)
    assert len(deal1["cards"]) == 5 and deal1["count"] == 5
    assert "cards" in events[-1]  # the raw events are untouched


def test_pending_view_names_source_targets_depth_and_the_card() -> None:
    state = scenario(hands={0: ["midnight_requisition"]}, boards={1: {"red": ["F-22 Raptor"]}})
    state = apply(state, 0, {"type": "action", "card": card(state, "midnight_requisition"),
                             "target": 1, "take": card(state, "F-22 Raptor")}).state
    pending = view(state, 1)["pending"]
    assert pending["kind"] == "midnight_requisition" and pending["source"] == 0
    assert pending["take"]["name"] == "F-22 Raptor"
    assert pending["targets"] == [{"seat": 1, "depth": 0, "responder": 1, "state": "respond"}]
    assert view(state, 1)["legal"] == legal_actions(state, 1)


def test_board_view_reports_zones_sets_rent_and_net_worth() -> None:
    state = scenario(boards={0: {"darkblue": ["The Pentagon", "Air Force One"],
                                 "red": ["wild:red/yellow"]}},
                     upgrades={0: {"darkblue": ["upgrade"]}}, banks={0: ["money:10"]})
    me = view(state, 1)["players"][0]
    assert [(z["colour"], z["complete"], z["rent"]) for z in me["zones"]] == [
        ("red", False, 2), ("darkblue", True, 11)]
    assert me["zones"][0]["cards"][0]["colour"] == "red"
    assert (me["sets"], me["bank_total"], me["net_worth"]) == (1, 10, 4 + 4 + 3 + 3 + 10)


def test_a_five_seat_mid_game_state_serialises_under_16_kb() -> None:
    rng = random.Random(2)
    state = new_game(ruleset=None, seats=5, seed=2)
    biggest = 0
    while state["phase"] != "finished" and state["turn_number"] < 40:
        seat = rng.choice(to_decide(state))
        state = apply(state, seat, choose(state, seat, rng)).state
        biggest = max(biggest, len(json.dumps(state, separators=(",", ":"))))
    assert biggest < 16 * 1024


def test_importing_the_engine_imports_no_django() -> None:
    code = ("import sys, games.chudopoly.engine, games.chudopoly.engine.simulate; "
            "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_shared_view_reads_as_the_unshared_one_at_every_state_of_a_game() -> None:
    # Shared views reuse unchanged boards, player entries and the ruleset between views; an
    # armed player's forecast and every count must still be the current state's.
    rng = random.Random(7)
    state = new_game(ruleset=None, seats=4, seed=8)
    armed_seen = False
    while state["result"] is None:
        seat = to_decide(state)[0]
        for viewer in (seat, None):
            assert json.dumps(view(state, viewer, shared=True)) == json.dumps(view(state, viewer))
        armed_seen |= any(p["armed_at"] is not None for p in state["players"])
        action = choose(state, seat, rng)
        state = apply(state, seat, action).state
    assert armed_seen


def test_shared_views_of_boards_that_differ_only_in_the_bank_show_the_same_zone_ids() -> None:
    # A bot keeps its answers about a board's zones by these dicts' identity: banking a card
    # must not make it work them all out again.
    from games.chudopoly.engine.view import shared_ids

    state = new_game(ruleset=None, seats=3, seed=4)
    rng = random.Random(4)
    while not any(p["zones"] for p in state["players"]):
        seat = to_decide(state)[0]
        state = apply(state, seat, choose(state, seat, rng)).state
    s = next(i for i, p in enumerate(state["players"]) if p["zones"])
    p = state["players"][s]
    richer = {**state, "players": [dict(q) for q in state["players"]]}
    richer["players"][s] = {**p, "bank": [*p["bank"], p["hand"][0]], "hand": p["hand"][1:]}
    before = view(state, s, shared=True)["players"][s]
    after = view(richer, s, shared=True)["players"][s]
    assert shared_ids(before["bank"]) != shared_ids(after["bank"])
    assert shared_ids(after["zones"]) is shared_ids(before["zones"])
