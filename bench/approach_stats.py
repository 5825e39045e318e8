"""How final approaches end in bot games: who arms, with what in hand, and what breaks them.

    uv run python bench/approach_stats.py --games 600
    uv run python bench/approach_stats.py --lineup hard,medium,medium,medium --games 100 \\
        --hard-budget 0.25

Seats rotate over the deals as in bench/bot_tournament.py (game g deals seed `--seed + g // k`,
the lineup rotated by g % k). Every arming (the engine's `final_approach` event) is followed to
its end: the armed seat won, its approach was broken (`final_approach_broken`: by which card
or payment), or the game went to someone else first ("lost race"). Each arming is counted
under the level that armed and under what it held at that moment (OPSEC in hand, sets, other
armed players, bank). The cause of a break is the action that produced the event: an answer
to an Inspector General or CHUD ("resp:chud"), or a payment ("pay:rent").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.chudopoly import engine  # noqa: E402
from games.chudopoly.bots import choose_action, hard  # noqa: E402
from games.chudopoly.engine.state import catalogue_for  # noqa: E402

OUTCOMES = ("win", "broken", "lost race")


def _situation(state: dict[str, Any], seat: int, sets: int) -> dict[str, Any]:
    cat = catalogue_for(state)
    p = state["players"][seat]
    opsec = sum(1 for c in p["hand"] if cat.key[c] == "opsec")
    bank = sum(cat.value[c] for c in p["bank"])
    others = sum(1 for s, q in enumerate(state["players"])
                 if s != seat and q["active"] and q["armed_at"] is not None)
    return {"opsec in hand": min(opsec, 2), "sets": sets, "others armed": min(others, 2),
            "bank (M)": "0-4" if bank < 5 else "5-9" if bank < 10 else "10+"}


def _cause(cat: Any, action: dict[str, Any], pending: dict[str, Any] | None) -> str:
    if action["type"] == "action":
        return cat.key[action["card"]]
    kind = pending["kind"] if pending else "?"
    if action["type"] == "respond":
        return f"resp:{kind}"
    if action["type"] == "pay":
        return f"pay:{kind}"
    return action["type"]


def play(levels: list[str], seed: int, budget: float, tally: dict[str, Any]) -> None:
    state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=len(levels), seed=seed)
    cat = catalogue_for(state)
    open_arms: dict[int, dict[str, Any]] = {}
    while state["result"] is None:
        seat = engine.to_decide(state)[0]
        view = engine.view(state, seat)
        if levels[seat] == "hard":
            action = hard.choose_action(view, budget=budget)
        else:
            action = choose_action(view, level=levels[seat])
        applied = engine.apply(state, seat, action)
        for ev in applied.events:
            if ev["type"] == "final_approach":
                open_arms[ev["seat"]] = _situation(applied.state, ev["seat"], ev["sets"])
                tally["arms"][levels[ev["seat"]]] += 1
            elif ev["type"] == "final_approach_broken" and ev["seat"] in open_arms:
                level = levels[ev["seat"]]
                _close(tally, level, open_arms.pop(ev["seat"]), "broken")
                tally["causes"][level][_cause(cat, action, state["pending"])] += 1
        state = applied.state
    winner = state["result"]["winner"]
    for s, situation in open_arms.items():
        _close(tally, levels[s], situation, "win" if s == winner else "lost race")
    if winner is not None:
        tally["wins"][levels[winner]] += 1


def _close(tally: dict[str, Any], level: str, situation: dict[str, Any], outcome: str) -> None:
    tally["outcomes"][level][outcome] += 1
    for name, value in situation.items():
        tally["by"][(level, name, value)][outcome] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lineup", default="medium,medium,medium,medium")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=700_000)
    parser.add_argument("--hard-budget", type=float, default=0.25)
    args = parser.parse_args(argv)
    lineup = args.lineup.split(",")
    k = len(lineup)
    tally: dict[str, Any] = {"arms": Counter(), "wins": Counter(),
                             "outcomes": defaultdict(Counter), "causes": defaultdict(Counter),
                             "by": defaultdict(Counter)}
    for g in range(args.games):
        rot = g % k
        levels = lineup[k - rot:] + lineup[:k - rot] if rot else list(lineup)
        play(levels, args.seed + g // k, args.hard_budget, tally)
    print(f"{args.games} games, lineup {'/'.join(lineup)}, seed {args.seed}")
    for level in dict.fromkeys(lineup):
        seats = lineup.count(level)
        arms = tally["arms"][level]
        out = tally["outcomes"][level]
        print(f"\n{level} (x{seats}): wins {tally['wins'][level]}/{args.games}, armings "
              f"{arms} ({arms / args.games / seats:.2f} per seat per game), "
              + ", ".join(f"{o} {out[o]}" for o in OUTCOMES))
        print("  broken by: " + ", ".join(f"{c} {n}" for c, n in
                                          tally["causes"][level].most_common()))
        for (lv, name, value), c in sorted(tally["by"].items(), key=lambda kv: str(kv[0])):
            if lv != level:
                continue
            n = sum(c.values())
            print(f"  {name:<14} {value!s:<5} n={n:<5} "
                  + "  ".join(f"{o} {c[o] / n:4.0%}" for o in OUTCOMES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
