"""The hard bot's leaf evaluation: a conditional-logit model of who goes on to win.

At a turn start, each active seat gets a feature vector (`features`); the chance that seat i
wins is exp(w·f_i) / Σ_j exp(w·f_j). The weights `WEIGHTS` were fitted by this module from
games of four medium bots (the positions the hard bot's playouts end in look like those):

    uv run python -m games.chudopoly.bots.evalfit --games 600 --seats 2,3,4,5

prints the fitted weights and the fit's log-likelihood on held-out games. Fitting reads full
states (it is offline, from finished games); the hard bot applies the same features to worlds it
sampled from its own view, where the "hands" are its guesses.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

from games.chudopoly.engine.board import SET_SIZE, complete_colours
from games.chudopoly.engine.state import catalogue_for

FEATURES = ("sets", "armed", "converts", "shot_down", "near", "progress", "bank", "hand",
            "breakers", "opsec", "to_move", "board", "distance", "one_away")

# Fitted by `python -m games.chudopoly.bots.evalfit` (see the module docstring); order as FEATURES.
WEIGHTS: tuple[float, ...] = (0.793, 0.278, 1.416, -0.461, -0.123, 1.059, 0.154, 0.031, 0.454,
                              0.481, -0.166, 0.06, 0.0, 0.0)


def features(state: dict[str, Any], seat: int, order_pos: int,
             forecast: tuple[int | None, dict[int, int]]) -> list[float]:
    cat = catalogue_for(state)
    p = state["players"][seat]
    sets = complete_colours(cat, p, state["ruleset"]["pureSetRequired"])
    near = 0
    progress = 0.0
    for colour, zone in p["zones"].items():
        if colour in sets:
            continue
        size = SET_SIZE[colour]
        progress += (len(zone) / size) ** 2
        if len(zone) == size - 1:
            near += 1
    value = cat.value
    key = cat.key
    bank = sum(value[c] for c in p["bank"])
    board = sum(value[c] for z in p["zones"].values() for c in z)
    board += sum(value[c] for u in p["upgrades"].values() for c in u)
    breakers = sum(1 for c in p["hand"] if key[c] in ("inspector_general", "chud"))
    opsec = sum(1 for c in p["hand"] if key[c] == "opsec")
    first, broken = forecast
    distance = arming_distance(state, seat, sets)
    return [
        float(len(sets)),
        1.0 if p["armed_at"] is not None else 0.0,
        1.0 if first == seat else 0.0,
        1.0 if seat in broken else 0.0,
        float(near),
        progress,
        min(bank, 25) / 5.0,
        float(len(p["hand"])),
        float(breakers),
        float(opsec),
        float(order_pos),
        board / 5.0,
        float(min(distance, 8)),
        1.0 if distance <= 1 else 0.0,
    ]


def arming_distance(state: dict[str, Any], seat: int, sets: list[str]) -> int:
    """How many more cards `seat` must get onto its board to hold the winning number of sets,
    after placing what its hand can place (0 when it already holds them)."""
    cat = catalogue_for(state)
    p = state["players"][seat]
    missing = state["ruleset"]["setsToWin"] - len(sets)
    if missing <= 0:
        return 0
    needs = {c: SET_SIZE[c] - len(z) for c, z in p["zones"].items() if c not in sets}
    wilds = 0
    for c in p["hand"]:
        if cat.kind[c] == "property":
            colour = cat.colours[c][0]
            if needs.get(colour, SET_SIZE[colour]) > 0:
                needs[colour] = needs.get(colour, SET_SIZE[colour]) - 1
        elif cat.kind[c] == "wild":
            wilds += 1
    for colour in SET_SIZE:
        needs.setdefault(colour, SET_SIZE[colour])
    best = sorted(n for c, n in needs.items() if c not in sets)[:missing]
    return max(0, sum(best) - wilds)


def table_features(state: dict[str, Any]) -> dict[int, list[float]]:
    """Features of every active seat, `to_move` counted from the seat whose turn it is."""
    from .hard import approach_forecast

    forecast = approach_forecast(state)
    players = state["players"]
    order = [s for s in state["order"] if players[s]["active"]]
    cur = order.index(state["turn"]) if state["turn"] in order else 0
    n = len(order)
    return {s: features(state, s, (i - cur) % n, forecast) for i, s in enumerate(order)}


def win_chances(state: dict[str, Any], weights: tuple[float, ...] = WEIGHTS) -> dict[int, float]:
    table = table_features(state)
    scores = {s: sum(w * x for w, x in zip(weights, f, strict=True)) for s, f in table.items()}
    top = max(scores.values())
    exps = {s: math.exp(v - top) for s, v in scores.items()}
    total = sum(exps.values())
    return {s: e / total for s, e in exps.items()}


# ---- fitting ----------------------------------------------------------------------------------

def collect(games: int, seats: list[int], seed: int, lineup: list[str] | None = None,
            budget: float = 0.25) -> list[tuple[list[list[float]], int]]:
    """(features of each active seat, index of the eventual winner) at every turn start of
    medium-bot games; games without a winner are skipped. With `lineup` (e.g. hard, medium,
    medium, medium) those levels play instead, rotated one seat per game as in the tournament,
    the hard bot at `budget` seconds: the positions are then the ones the hard bot reaches."""
    from games.chudopoly import engine

    from . import hard
    from .medium import choose_action

    def choose(view: dict[str, Any], level: str) -> dict[str, Any]:
        if level == "hard":
            return hard.choose_action(view, budget=budget)
        return choose_action(view)

    rows: list[tuple[list[list[float]], int]] = []
    for g in range(games):
        k = len(lineup) if lineup else seats[g % len(seats)]
        levels = (lineup[k - g % k:] + lineup[:k - g % k]) if lineup else ["medium"] * k
        state = engine.new_game(ruleset={}, seats=k, seed=seed + g)
        snapshots: list[dict[int, list[float]]] = []
        last_turn = None
        while state["result"] is None:
            if state["turn_number"] != last_turn and state["phase"] == "play":
                last_turn = state["turn_number"]
                snapshots.append(table_features(state))
            seat = engine.to_decide(state)[0]
            state = engine.apply(state, seat, choose(engine.view(state, seat), levels[seat])).state
        winner = state["result"]["winner"]
        if winner is None:
            continue
        for snap in snapshots:
            if winner in snap:
                seats_in = sorted(snap)
                rows.append(([snap[s] for s in seats_in], seats_in.index(winner)))
    return rows


def log_likelihood(rows: list[tuple[list[list[float]], int]], w: list[float]) -> float:
    total = 0.0
    for feats, win in rows:
        scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
        top = max(scores)
        z = sum(math.exp(s - top) for s in scores)
        total += scores[win] - top - math.log(z)
    return total / max(1, len(rows))


def fit(rows: list[tuple[list[list[float]], int]], *, steps: int = 12,
        l2: float = 1e-3) -> list[float]:
    """Newton's method on the mean conditional log-likelihood (concave, so a few steps do),
    with a small ridge term."""
    dim = len(FEATURES)
    w = [0.0] * dim
    n = max(1, len(rows))
    for _ in range(steps):
        grad = [-l2 * x * n for x in w]
        hess = [[(l2 * n if i == j else 0.0) for j in range(dim)] for i in range(dim)]
        for feats, win in rows:
            scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            z = sum(exps)
            probs = [e / z for e in exps]
            mean = [sum(p * f[d] for p, f in zip(probs, feats, strict=True)) for d in range(dim)]
            fw = feats[win]
            for d in range(dim):
                grad[d] += fw[d] - mean[d]
            for p, f in zip(probs, feats, strict=True):
                dev = [f[d] - mean[d] for d in range(dim)]
                for i in range(dim):
                    pi = p * dev[i]
                    if pi:
                        row = hess[i]
                        for j in range(dim):
                            row[j] += pi * dev[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-4:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a·x = b (a symmetric positive definite) by Gaussian elimination."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seats", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=90_000)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--lineup", default="",
                        help="levels by seat, e.g. hard,medium,medium,medium (default: mediums)")
    parser.add_argument("--hard-budget", type=float, default=0.25)
    args = parser.parse_args(argv)
    seats = [int(s) for s in args.seats.split(",")]
    lineup = [x for x in args.lineup.split(",") if x] or None
    started = time.perf_counter()
    rows = collect(args.games, seats, args.seed, lineup, args.hard_budget)
    random.Random(0).shuffle(rows)
    cut = len(rows) * 4 // 5
    train, test = rows[:cut], rows[cut:]
    w = fit(train, steps=args.steps)
    print(f"{len(rows)} positions from {args.games} games in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(f"held-out log-likelihood: fitted {log_likelihood(test, w):.4f}, "
          f"current {log_likelihood(test, list(WEIGHTS)):.4f}, "
          f"uniform {log_likelihood(test, [0.0] * len(FEATURES)):.4f}", file=sys.stderr)
    print("WEIGHTS = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
    for name, x in zip(FEATURES, w, strict=True):
        print(f"  {name:<10} {x:+.3f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
