"""Chudopoly's status names a place (an element with an id) for each piece that comes and goes
on its own: the surge, the seat's clock, the waiting line, the final-approach banners. A push
then swaps that piece alone, and the push's reading of the new status after the old one
(games/platform/swaps.py) finds every element where a reading afresh finds it: a piece added
with no place of its own right after a changed element was read as part of that element."""

from __future__ import annotations

from typing import Any

import pytest
from tables_helpers import read_after

from games.chudopoly import engine
from games.chudopoly.board import board_context
from games.platform import swaps
from games.platform.rendering import render_unlocalized

NAMES = ["Ann", "Bo", "Cy"]


def _status(view: dict[str, Any], seat: int) -> str:
    ctx = board_context(view, me=seat, names=NAMES, seats=[{}, {}, {}])
    ctx.update(view=view, me=seat, result=None, placements=[])  # as presenters.screen adds
    return render_unlocalized("chudopoly/_status.html",
                              {"c": ctx, "game": object(), "oob": True})


def _after_a_play(state: dict[str, Any]) -> dict[str, Any]:
    mover = state["turn"]
    play = next(a for a in engine.legal_actions(state, mover) if a["type"] == "bank")
    return engine.apply(state, mover, play).state


@pytest.mark.parametrize("change", ["surge", "armed"])
def test_a_piece_coming_into_the_status_with_a_play_is_swapped_in_its_own_place(
        change: str) -> None:
    state = engine.new_game(ruleset=None, seats=3, seed=7)
    seat = (state["turn"] + 1) % 3
    before = engine.view(state, seat)
    after = dict(engine.view(_after_a_play(state), seat))
    assert after["plays_left"] != before["plays_left"]  # the plays left change with it
    if change == "surge":
        after.update(surge=1, surge_multiplier=2)
    else:
        after["players"] = [dict(p) for p in after["players"]]
        after["players"][state["turn"]].update(armed=True, checkpoint_turn=3)
    old_html, new_html = _status(before, seat), _status(after, seat)
    old, new = read_after(old_html, new_html)
    found = swaps.swaps(old, new)
    assert found is not None
    place = "surge" if change == "surge" else "status-banners"
    assert any(f' id="{place}"' in s for s in found)
    assert not any(' id="turn-bar"' in s for s in found)  # the bar stays; its pieces change
