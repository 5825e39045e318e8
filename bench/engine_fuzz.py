"""Engine fuzz: many random games across presets, toggles, custom decks and 2-5 seats, with
every invariant checked after every action.

    uv run python bench/engine_fuzz.py --games 10000 --jobs 2      # the figure in reliability.md
    uv run python bench/engine_fuzz.py --games 200 --seed 7         # a quick look

Hypothesis draws each game (ruleset spec, seat count, seed); the random player of the engine
(`games/chudopoly/engine/random_player.py`) plays it, with a few junk actions thrown in. After every
action it checks:
- `check_invariants` (games/chudopoly/engine/invariants.py): every card in exactly one place, the
deck
  size, zone caps, upgrades only on complete sets, phase consistency;
- conservation: the card count and the total bank value of all cards never change;
- no negative counts in the views (hand, deck, discard, plays, rearranges, bank);
- hidden information: the views of the mover, the next decider and a spectator (every seat's
  at the end) name no card in another hand or in the deck, and carry no seed, generator
  state or deck;
- a junk or out-of-turn action is refused and leaves the state untouched;
and at the end that the game finished within the action cap and that replaying the seed and the
log reproduces the final state exactly. A failure prints the example Hypothesis shrank it to.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.chudopoly.engine import (  # noqa: E402
    IllegalAction,
    apply,
    check_invariants,
    legal_actions,
    new_game,
    replay,
    to_decide,
    view,
)
from games.chudopoly.engine.cards import COLOUR_KEYS, deck_size  # noqa: E402
from games.chudopoly.engine.random_player import choose  # noqa: E402
from games.chudopoly.engine.rulesets import (  # noqa: E402
    EDITABLE_DECK_COUNTS,
    PRESETS,
    SUDDEN_DEATH_MODES,
    TOGGLES,
)
from games.chudopoly.engine.state import catalogue_for  # noqa: E402

ACTION_CAP = 20_000
JUNK_TYPES = ["bank", "place", "action", "respond", "pay", "move", "swap", "discard",
              "end_turn", "draw", "bogus"]


@st.composite
def rulesets(draw: Any) -> dict[str, Any]:
    """A ruleset spec: a preset, maybe some toggles, maybe a custom deck (80-130 cards)."""
    spec: dict[str, Any] = {"preset": draw(st.sampled_from(sorted(PRESETS)))}
    for toggle, values in sorted(TOGGLES.items()):
        if toggle == "suddenDeath":
            values = SUDDEN_DEATH_MODES
        if draw(st.integers(0, 3)) == 0:
            spec[toggle] = draw(st.sampled_from(list(values)))
    if draw(st.booleans()):
        deck = {k: draw(st.integers(lo, hi)) for k, (lo, hi) in sorted(EDITABLE_DECK_COUNTS.items())
                if draw(st.booleans())}
        base = PRESETS[spec["preset"]]["deck"]
        # Trim or pad the edited counts toward the allowed deck total, within their bounds.
        for key in sorted(deck):
            lo, hi = EDITABLE_DECK_COUNTS[key]
            while deck_size({**base, **deck}) > 130 and deck[key] > lo:
                deck[key] -= 1
            while deck_size({**base, **deck}) < 80 and deck[key] < hi:
                deck[key] += 1
        if 80 <= deck_size({**base, **deck}) <= 130:
            spec["deck"] = deck
    return spec


def junk_action(rng: random.Random, size: int) -> dict[str, Any]:
    junk: list[Any] = [None, "x", 1.0, True, [], {}, [1, 2], -5, 10**12]

    def ident() -> Any:
        return rng.randint(-1, size) if rng.random() < 0.9 else rng.choice(junk)

    action: dict[str, Any] = {"type": rng.choice(JUNK_TYPES)}
    for key, make in (("card", ident), ("target", lambda: rng.randint(-1, 5)),
                      ("colour", lambda: rng.choice([*COLOUR_KEYS, "purple", None, 3])),
                      ("take", ident), ("give", ident),
                      ("answer", lambda: rng.choice(["accept", "opsec", "no", None])),
                      ("cards", lambda: [ident() for _ in range(rng.randint(0, 3))])):
        if rng.random() < 0.35:
            action[key] = make()
    return action


def _dump(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


_ID_RE = re.compile(r'"(?:id|card|take|give)":(-?\d+)')
_IDS_RE = re.compile(r'"cards":\[([-\d,]*)\]')


def _all_ids(obj: Any) -> set[int]:
    """Every card id a view names (card dicts carry "id"; actions carry card/take/give/cards).
    """
    text = json.dumps(obj, separators=(",", ":"))
    ids = {int(m) for m in _ID_RE.findall(text)}
    for group in _IDS_RE.findall(text):
        ids.update(int(x) for x in group.split(",") if x)
    return ids


def _check_views(state: dict, viewers: list[int | None]) -> None:
    secret = {"seed", "rng", "deck"}
    for me in viewers:
        v = view(state, me)
        assert not secret & set(v), f"view of {me} carries {secret & set(v)}"
        hidden = {c for s, p in enumerate(state["players"]) if s != me for c in p["hand"]}
        hidden |= set(state["deck"])
        leaked = _all_ids(v) & hidden
        assert not leaked, f"view of seat {me} names hidden cards {sorted(leaked)[:5]}"
        for key in ("deck_count", "discard_count", "plays_left", "rearranges_left",
                    "shuffle_count"):
            assert v[key] >= 0, f"negative {key} in the view of {me}"
        for p in v["players"]:
            assert p["hand_count"] >= 0 and p["bank_total"] >= 0
        if me is not None:
            assert len(v["hand"]) == v["players"][me]["hand_count"]
    assert v["deck_count"] == len(state["deck"])


def _card_places(state: dict) -> list[int]:
    ids = list(state["deck"]) + list(state["discard"])
    for p in state["players"]:
        ids += p["hand"] + p["bank"]
        for zone in p["zones"].values():
            ids += zone
        for ups in p["upgrades"].values():
            ids += ups
    return ids


def play_and_check(spec: dict[str, Any], seats: int, seed: int, *, junk_rate: float = 0.1,
                   view_every: int = 1) -> dict[str, Any]:
    """Play one random game, checking everything after every action; returns its figures."""
    state = new_game(ruleset=spec, seats=seats, seed=seed)
    cat = catalogue_for(state)
    values = list(cat.value)
    total_cards = len(_card_places(state))
    total_value = sum(values[c] for c in _card_places(state))
    rng = random.Random(seed)
    log: list[list[Any]] = []
    junk = 0
    while state["phase"] != "finished":
        assert len(log) < ACTION_CAP, "the game did not end"
        deciders = to_decide(state)
        assert deciders, "nobody owes a decision in an unfinished game"
        seat = rng.choice(deciders)
        legal = legal_actions(state, seat)
        assert legal, f"seat {seat} owes a decision but has no legal action"
        if rng.random() < junk_rate:
            junk += 1
            before = _dump(state)
            bad_seat = rng.choice([s for s in range(-1, seats + 1) if s not in deciders])
            turn_only = [a for a in legal if a["type"] != "scoop"]  # scoop: any seat, any time
            if turn_only:
                try:
                    apply(state, bad_seat, rng.choice(turn_only))
                    raise AssertionError(f"seat {bad_seat} moved out of turn")
                except IllegalAction:
                    pass
            try:
                apply(state, seat, junk_action(rng, cat.size))
            except IllegalAction:
                pass
            except (TypeError, KeyError, ValueError, IndexError, AttributeError) as exc:
                raise AssertionError(f"a junk action crashed the engine: {exc!r}") from exc
            assert _dump(state) == before, "a refused action changed the state"
        action = choose(state, seat, rng, legal, scoop_weight=0.002)
        assert action is not None
        state = apply(state, seat, action).state
        log.append([seat, action])
        problems = check_invariants(state)
        assert not problems, problems
        places = _card_places(state)
        assert len(places) == total_cards and len(set(places)) == total_cards, "cards lost"
        assert sum(values[c] for c in places) == total_value, "value not conserved"
        assert state["version"] == len(log)
        if view_every and len(log) % view_every == 0:
            # The mover, the next decider and the spectator after every action.
            nxt = to_decide(state)[:1] if state["phase"] != "finished" else []
            _check_views(state, [None, seat, *nxt])
    _check_views(state, [None, *range(seats)])
    result = state["result"] or {}
    assert result, "finished without a result"
    again = replay(ruleset=spec, seats=seats, seed=seed, actions=log)
    assert _dump(again) == _dump(state), "replaying the log did not reproduce the state"
    return {"actions": len(log), "junk": junk, "turns": state["turn_number"],
            "ending": result.get("stalemate_reason") or result.get("end_reason") or "?",
            "preset": spec["preset"], "custom_deck": "deck" in spec, "seats": seats}


def fuzz(games: int, seed: int, *, junk_rate: float = 0.1, view_every: int = 1,
         progress: int = 0) -> dict[str, Any]:
    """Run `games` Hypothesis examples (seeded) and summarise them."""
    played: list[dict[str, Any]] = []

    @hypothesis_seed(seed)
    @settings(max_examples=games, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(spec=rulesets(), seats=st.sampled_from([2, 3, 4, 5]),
           game_seed=st.integers(0, 2**62))
    def one(spec: dict[str, Any], seats: int, game_seed: int) -> None:
        played.append(play_and_check(spec, seats, game_seed, junk_rate=junk_rate,
                                     view_every=view_every))
        if progress and len(played) % progress == 0:
            print(f"[seed {seed}] {len(played)}/{games} games", file=sys.stderr, flush=True)

    started = time.process_time()
    one()
    elapsed = time.process_time() - started
    return {"games": len(played), "seconds_cpu": round(elapsed, 1), "played": played}


def _job(args: tuple[int, int, float, int]) -> dict[str, Any]:
    games, seed, junk_rate, view_every = args
    return fuzz(games, seed, junk_rate=junk_rate, view_every=view_every, progress=250)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--junk-rate", type=float, default=0.1,
                        help="share of decisions preceded by a junk and an out-of-turn action")
    parser.add_argument("--view-every", type=int, default=1,
                        help="check every seat's view after every Nth action (0: at the end)")
    args = parser.parse_args(argv)
    jobs = max(1, args.jobs)
    shares = [args.games // jobs + (1 if i < args.games % jobs else 0) for i in range(jobs)]
    wall = time.monotonic()
    with Pool(jobs) as pool:
        parts = pool.map(_job, [(n, args.seed * 1000 + i, args.junk_rate, args.view_every)
                                for i, n in enumerate(shares) if n])
    played = [g for part in parts for g in part["played"]]
    actions = sum(g["actions"] for g in played)
    summary = {
        "games": len(played),
        "actions_checked": actions,
        "junk_and_out_of_turn_actions": 2 * sum(g["junk"] for g in played),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "cpu_seconds": round(sum(p["seconds_cpu"] for p in parts), 1),
        "by_preset": dict(sorted(Counter(g["preset"] for g in played).items())),
        "custom_decks": sum(g["custom_deck"] for g in played),
        "by_seats": dict(sorted(Counter(g["seats"] for g in played).items())),
        "endings": dict(sorted(Counter(g["ending"] for g in played).items())),
        "max_actions": max((g["actions"] for g in played), default=0),
        "max_turns": max((g["turns"] for g in played), default=0),
        "violations": 0,
        "seed": args.seed,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
