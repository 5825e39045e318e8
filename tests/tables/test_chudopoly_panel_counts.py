"""A Chudopoly player's panel holds its counts (hand, bank, sets) and clock as children of its
own, with no element of their own around them: a play that changes a count is swapped as that
count alone, and the push's reading of the new panels after the old ones (games/platform/
swaps.py) finds every element where a reading afresh finds it (docs/performance.md, "How a push
is made now")."""

from __future__ import annotations

from typing import Any

from tables_helpers import read_after

from games.chudopoly import engine
from games.chudopoly.board import board_context
from games.platform import swaps
from games.platform.rendering import render_unlocalized

NAMES = ["Ann", "Bo", "Cy"]


def _players(view: dict[str, Any], seat: int) -> str:
    ctx = board_context(view, me=seat, names=NAMES, seats=[{}, {}, {}])
    ctx.update(result=None)
    return render_unlocalized("chudopoly/_players.html",
                              {"c": ctx, "game": object(), "oob": True})


def test_a_banked_card_is_swapped_as_the_counts_it_changes_alone() -> None:
    state = engine.new_game(ruleset=None, seats=3, seed=7)
    mover = state["turn"]
    seat = (mover + 1) % 3
    play = next(a for a in engine.legal_actions(state, mover) if a["type"] == "bank")
    old_html = _players(engine.view(state, seat), seat)
    new_html = _players(engine.view(engine.apply(state, mover, play).state, seat), seat)
    assert f'id="seat-{mover}-stats"' not in new_html  # the counts' line has no id

    old, new = read_after(old_html, new_html)
    panel = next(e for e in new.root.children[0].children if e.id == f"seat-{mover}")
    assert {f"seat-{mover}-in-hand", f"seat-{mover}-banked", f"seat-{mover}-sets",
            f"seat-{mover}-clock"} <= {e.id for e in panel.children}
    found = swaps.swaps(old, new)
    assert found is not None
    swapped = {s[s.index(' id="') + 5:s.index('"', s.index(' id="') + 5)] for s in found}
    assert f"seat-{mover}-in-hand" in swapped and f"seat-{mover}-banked" in swapped
    assert f"seat-{mover}" not in swapped  # the panel stays; its counts change
    assert all(s.startswith(f"seat-{mover}-") for s in swapped)
