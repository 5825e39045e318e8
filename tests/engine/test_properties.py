"""Seeded random playouts over presets, custom decks and 2–5 seats, checking after every
action that every card is in exactly one place, the deck total holds, zones respect their cap,
upgrades are never duplicated, random illegal actions change nothing, games end, and the seed
plus the action log replays the exact final state."""

from __future__ import annotations

import json
import random

from engine_helpers import listed
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.chudopoly.engine import (
    IllegalAction,
    apply,
    check_invariants,
    legal_actions,
    new_game,
    replay,
    to_decide,
)
from games.chudopoly.engine.cards import COLOUR_KEYS, deck_size
from games.chudopoly.engine.random_player import choose
from games.chudopoly.engine.rulesets import EDITABLE_DECK_COUNTS, PRESETS, SUDDEN_DEATH_MODES

ACTION_CAP = 20_000
TYPES = ["bank", "place", "action", "respond", "pay", "move", "swap", "discard", "end_turn",
         "scoop", "draw", "bogus"]


def _dump(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


@st.composite
def rulesets(draw):
    spec = {"preset": draw(st.sampled_from(list(PRESETS)))}
    if draw(st.booleans()):
        spec["suddenDeath"] = draw(st.sampled_from(SUDDEN_DEATH_MODES))
    if draw(st.booleans()):
        spec["setsToWin"] = draw(st.sampled_from([3, 4]))
    if draw(st.booleans()):
        spec["pureSetRequired"] = draw(st.booleans())
        spec["counterCostsPlay"] = draw(st.booleans())
    if draw(st.booleans()):
        deck = {k: draw(st.integers(lo, hi)) for k, (lo, hi) in EDITABLE_DECK_COUNTS.items()
                if draw(st.booleans())}
        if 80 <= deck_size({**PRESETS[spec["preset"]]["deck"], **deck}) <= 130:
            spec["deck"] = deck
    return spec


def random_action(rng: random.Random, state: dict) -> dict:
    size = len(state["deck"]) + len(state["discard"]) + sum(
        len(p["hand"]) + len(p["bank"]) for p in state["players"]) + 60
    junk = [None, "x", 1.0, True, [], {}, [1, 2], -5]

    def ident():
        return rng.randint(-1, size) if rng.random() < 0.9 else rng.choice(junk)

    action: dict = {"type": rng.choice(TYPES) if rng.random() < 0.95 else rng.choice(junk)}
    for key, make in (("card", ident), ("target", lambda: rng.randint(-1, 5)),
                      ("colour", lambda: rng.choice([*COLOUR_KEYS, "purple", None, [], 3])),
                      ("take", ident), ("give", ident),
                      ("answer", lambda: rng.choice(["accept", "opsec", "no", None, []])),
                      ("cards", lambda: [ident() for _ in range(rng.randint(0, 3))]
                       if rng.random() < 0.9 else rng.choice(junk))):
        if rng.random() < 0.35:
            action[key] = make()
    return action


def _accepted_only_if_generated(state: dict, seat: int, action: dict, legal: list[dict]) -> None:
    before = _dump(state)
    try:
        apply(state, seat, action)
    except IllegalAction:
        assert _dump(state) == before
        return
    assert _dump(state) == before
    if action["type"] in ("pay", "discard"):
        return  # selections are judged by the same rule; the list is a bounded sample of it
    if action["type"] == "swap":
        action = {**action, "cards": sorted(action["cards"])}
    if action["type"] == "respond" and "target" not in action:
        return
    assert listed(action, legal), action


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=rulesets(), seats=st.integers(2, 5), seed=st.integers(0, 2**40))
def test_random_playouts_keep_every_invariant_and_replay_exactly(spec, seats, seed) -> None:
    state = new_game(ruleset=spec, seats=seats, seed=seed)
    total = len(state["deck"]) + sum(len(p["hand"]) for p in state["players"])
    rng = random.Random(seed)
    log: list[list] = []
    while state["phase"] != "finished":
        assert len(log) < ACTION_CAP, "game did not end"
        seat = rng.choice(to_decide(state))
        legal = legal_actions(state, seat)
        assert legal, "a seat owed a decision has no legal action"
        if rng.random() < 0.3:
            _accepted_only_if_generated(state, seat, random_action(rng, state), legal)
        if rng.random() < 0.05:
            other = rng.choice(legal)  # every listed action is accepted
            apply(state, seat, other)
        action = choose(state, seat, rng, legal, scoop_weight=0.003)
        before = _dump(state) if len(log) % 7 == 0 else None
        previous, state = state, apply(state, seat, action).state
        if before is not None:
            assert _dump(previous) == before, "apply modified its input"
        log.append([seat, action])
        assert not check_invariants(state), check_invariants(state)
        assert len(log) + 0 == state["version"]
        if len(log) % 97 == 0:
            state = json.loads(json.dumps(state))  # play on from a stored copy
    cards = len(state["deck"]) + len(state["discard"]) + sum(
        len(p["hand"]) + len(p["bank"]) + sum(map(len, p["zones"].values()))
        + sum(map(len, p["upgrades"].values())) for p in state["players"])
    assert cards == total
    event(state["result"]["stalemate_reason"] or state["result"]["end_reason"])
    assert state["result"]["winner"] is None or state["result"]["winner"] in range(seats)
    again = replay(ruleset=spec, seats=seats, seed=seed, actions=log)
    assert _dump(again) == _dump(state)
