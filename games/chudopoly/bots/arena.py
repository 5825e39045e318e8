"""Bot-only games for tests and benches: every seat decides from its own view, as at a table."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.chudopoly import engine

ACTION_CAP = 20_000  # a game that needs more has a looping bot: fail loudly


@dataclass
class GameRecord:
    seats: int
    seed: int
    levels: list[str]
    result: dict[str, Any]
    actions: int
    turns: int
    decision_seconds: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)


Chooser = Callable[[dict[str, Any], str], dict[str, Any]]


def _default_chooser(view: dict[str, Any], level: str) -> dict[str, Any]:
    from games.chudopoly.bots import choose_action

    return choose_action(view, level=level)


def play_game(levels: Sequence[str], *, seed: int, ruleset: Mapping[str, Any] | None = None,
              chooser: Chooser | None = None, check: bool = False) -> GameRecord:
    """One game, seat i played by `levels[i]`; each decision gets only `engine.view(state, i)`
    (shared: its unchanged parts are the objects of earlier views, read only).
    When several seats owe answers at once they answer in seat order (any order is legal)."""
    choose = chooser or _default_chooser
    state = engine.new_game(ruleset=dict(ruleset or {}), seats=len(levels), seed=seed)
    spent: dict[str, float] = {}
    count: dict[str, int] = {}
    slowest: dict[str, float] = {}
    actions = 0
    while state["result"] is None:
        if actions >= ACTION_CAP:
            raise RuntimeError(f"game {seed} {list(levels)} did not end in {ACTION_CAP} actions")
        seat = engine.to_decide(state)[0]
        level = levels[seat]
        # Shared: a bot only reads its view, so boards unchanged since the last view are not
        # rebuilt (the same content as an unshared view; tests/bots/test_same_moves.py).
        view = engine.view(state, seat, shared=True)
        t0 = time.perf_counter()
        action = choose(view, level)
        dt = time.perf_counter() - t0
        spent[level] = spent.get(level, 0.0) + dt
        count[level] = count.get(level, 0) + 1
        slowest[level] = max(slowest.get(level, 0.0), dt)
        state = engine.apply(state, seat, action).state
        actions += 1
        if check:
            problems = engine.check_invariants(state)
            if problems:
                raise AssertionError(problems)
    return GameRecord(seats=len(levels), seed=seed, levels=list(levels), result=state["result"],
                      actions=actions, turns=state["turn_number"], decision_seconds=spent,
                      decisions=count, slowest=slowest)
