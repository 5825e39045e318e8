"""Speed work must not change a single move: fixed deals, played by the bots, against a log.

`same_moves.json` beside this file was recorded from the code before the playout speed-up
(issue 15, section 3). For every deal it holds one short hash per action, a hash of every view
a bot decided from (so view building stays byte for byte the same, key order included) and of
the final state; for a few hard-bot decisions with a fixed step budget, a hash of the move and
of the search's figures. Re-record only for a deliberate change of play:

    uv run python tests/bots/test_same_moves.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script to re-record
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pytest

from games.chudopoly import engine
from games.chudopoly.bots import choose_action, hard

GOLDEN = Path(__file__).with_name("same_moves.json")

# (name, preset, levels of the five seats, seeds)
DEALS: list[tuple[str, str, tuple[str, ...], tuple[int, ...]]] = [
    ("medium", "chudopoly", ("medium",) * 5, (20000, 20001, 20002, 20003, 20004, 20005)),
    ("easy", "chudopoly", ("easy",) * 5, (20000, 20001, 20002)),
    ("mixed", "chudopoly", ("medium", "easy", "medium", "easy", "medium"), (31, 32)),
    ("medium-blitz", "blitz", ("medium",) * 5, (41,)),
    ("medium-long", "longGame", ("medium",) * 5, (51,)),
]
HARD_SEED = 20003  # a five-medium game; the hard bot decides at some of its positions
HARD_EVERY = 11  # every 11th decision of that game with a play left
HARD_DECISIONS = 8
HARD_STEPS = 1500  # fixed, so the search is deterministic (its deadline is never reached)


def _digest(obj: Any, *, sort: bool = False) -> str:
    text = json.dumps(obj, sort_keys=sort, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


def play(preset: str, levels: tuple[str, ...], seed: int, shared: bool = False
         ) -> dict[str, Any]:
    """One game, each seat deciding from its own view: its log of hashes. `shared`: the bots
    decide from shared views, as in the arena, and each must read as the unshared one."""
    state = engine.new_game(ruleset={"preset": preset}, seats=len(levels), seed=seed)
    actions: list[str] = []
    views = hashlib.blake2b(digest_size=8)
    while state["result"] is None:
        seat = engine.to_decide(state)[0]
        view = engine.view(state, seat)
        text = json.dumps(view, separators=(",", ":"))
        views.update(text.encode())
        if shared:
            view = engine.view(state, seat, shared=True)
            assert json.dumps(view, separators=(",", ":")) == text
        action = choose_action(view, level=levels[seat])
        actions.append(_digest(action, sort=True))
        state = engine.apply(state, seat, action).state
    return {"actions": " ".join(actions), "views": views.hexdigest(),
            "final": _digest(state)}


def hard_decisions() -> list[str]:
    """The hard bot's move and search figures at fixed positions of a medium game."""
    state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=5, seed=HARD_SEED)
    out: list[str] = []
    n = 0
    while state["result"] is None and len(out) < HARD_DECISIONS:
        seat = engine.to_decide(state)[0]
        view = engine.view(state, seat)
        if view["phase"] == "play" and view["plays_left"] > 0:
            n += 1
        if n % HARD_EVERY == 0 and view["phase"] == "play" and view["plays_left"] > 0:
            action, info = hard.search(view, 3600.0, steps=HARD_STEPS)
            figures = {k: info.get(k) for k in ("candidates", "worlds", "steps", "preselected",
                                                "preselect_worlds")}
            figures["means"] = {str(k): v for k, v in (info.get("means") or {}).items()}
            out.append(_digest([action, figures], sort=True))
        action = choose_action(view, level="medium")
        state = engine.apply(state, seat, action).state
    return out


def record() -> dict[str, Any]:
    games = {f"{name}/{seed}": play(preset, levels, seed)
             for name, preset, levels, seeds in DEALS for seed in seeds}
    return {"games": games, "hard": hard_decisions()}


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


CASES = [(name, preset, levels, seed) for name, preset, levels, seeds in DEALS for seed in seeds]


@pytest.mark.parametrize(("name", "preset", "levels", "seed"), CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_every_bot_move_of_a_fixed_deal_is_the_recorded_one(
        name: str, preset: str, levels: tuple[str, ...], seed: int) -> None:
    want = _golden()["games"][f"{name}/{seed}"]
    got = play(preset, levels, seed)
    want_actions, got_actions = want["actions"].split(), got["actions"].split()
    for i, (w, g) in enumerate(zip(want_actions, got_actions, strict=False)):
        assert g == w, f"action {i} of the game differs from the recorded one"
    assert len(got_actions) == len(want_actions)
    assert got["views"] == want["views"], "a view differs from the recorded one"
    assert got["final"] == want["final"]


SHARED_CASES = [c for c in CASES if c[3] in (20001, 31, 41)]


@pytest.mark.parametrize(("name", "preset", "levels", "seed"), SHARED_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in SHARED_CASES])
def test_bots_deciding_from_shared_views_make_the_recorded_moves(
        name: str, preset: str, levels: tuple[str, ...], seed: int) -> None:
    assert play(preset, levels, seed, shared=True) == _golden()["games"][f"{name}/{seed}"]


def test_the_arena_plays_the_recorded_moves() -> None:
    from games.chudopoly.bots.arena import play_game

    logged: list[str] = []

    def chooser(view: dict[str, Any], level: str) -> dict[str, Any]:
        action = choose_action(view, level=level)
        logged.append(_digest(action, sort=True))
        return action

    play_game(("medium",) * 5, seed=20002, ruleset={"preset": "chudopoly"}, chooser=chooser)
    assert " ".join(logged) == _golden()["games"]["medium/20002"]["actions"]


def test_the_hard_bot_with_a_fixed_step_budget_searches_as_recorded() -> None:
    assert hard_decisions() == _golden()["hard"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: test_same_moves.py --record")
    GOLDEN.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"recorded {GOLDEN}")
