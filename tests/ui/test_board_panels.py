"""The board's player panels are rendered once per distinct content, without Django's number
localization (games/platform/rendering.py): the HTML must be what the localizing path would give."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from games.chudopoly import engine
from games.chudopoly.board import board_context
from games.chudopoly.bots import choose_action
from games.chudopoly.templatetags.chudopoly import seat_panel


def _boards_along_a_game(seats: int = 4, steps: int = 240, every: int = 20):
    """(seat, board context as that seat sees it) at every `every` decisions of a bot game."""
    state = engine.new_game(ruleset=None, seats=seats, seed=4242)
    names = [f"P{i}" for i in range(seats)]
    public = [{"is_bot": True, "is_away": False} for _ in range(seats)]
    for step in range(steps):
        if state.get("result") is not None:
            break
        seat = engine.to_decide(state)[0]
        if step % every == 0:
            yield seat, board_context(engine.view(state, seat), me=seat, names=names,
                                      seats=public)
        state = engine.apply(state, seat, choose_action(engine.view(state, seat),
                                                        level="medium")).state


def test_the_memoized_panels_read_exactly_as_the_localizing_renderer_writes_them() -> None:
    compared = 0
    for _, c in _boards_along_a_game():
        for p in c["public_players"]:
            html = seat_panel(p, c.get("result"))
            expected = render_to_string("chudopoly/_seat.html",
                                        {"p": p, "c": {"result": bool(c.get("result"))}})
            assert str(html) == expected
            compared += 1
    assert compared >= 24


def test_a_panel_rendered_again_takes_its_unchanged_sets_as_they_were(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly.templatetags import chudopoly

    p = next(p for _, c in _boards_along_a_game() for p in c["public_players"]
             if len(p["zones"]) >= 2)
    seat_panel(p, None)
    renders: list[str] = []
    render = chudopoly.render_plain
    monkeypatch.setattr(chudopoly, "render_plain",
                        lambda name, context: renders.append(name) or render(name, context))
    changed = {**p["zones"][0], "rent": 99}
    html = seat_panel({**p, "zones": [changed, *p["zones"][1:]]}, None)
    assert renders == ["chudopoly/_seat.html", "chudopoly/_zone.html"]  # one set again
    assert "rent 99M" in html
    assert str(chudopoly.zone_panel(p["seat"], changed)) == render_to_string(
        "chudopoly/_zone.html", {"p": {"seat": p["seat"]}, "z": changed})
