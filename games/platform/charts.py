"""Charts of a game over its turns, drawn once here for every game as inline SVG.

A game says what to chart with its optional `chart_readings(view)` (interface.ChartReading):
`game_charts` replays the log through the engine, reads a spectator's view after every move
(so a chart can show nothing a spectator could not see) and keeps one point per turn, the
turn's last reading; `drawing` turns a chart into the shapes templates/games/_charts.html
prints. No script draws anything: the page arrives with its pictures.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .interface import Action, ChartReading, GameEngine, IllegalAction

log = logging.getLogger(__name__)

# Seat colours for a game that names none (its `seat_colours`); the Fund-like single lines.
DEFAULT_COLOURS = ("#d1495b", "#2e86ab", "#3f9142", "#8e5ec2", "#e08e0b", "#2b2d42")
TOTAL_COLOUR = "#b7791f"
# One dash pattern per line, so lines differ by more than their colour.
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 2")

# The drawing's own units (its viewBox): at a phone's width one unit is about one pixel.
WIDTH, HEIGHT = 360, 190
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 30


@dataclass
class Series:
    name: str
    colour: str
    dash: str
    values: list[int] = field(default_factory=list)

    @property
    def end(self) -> int:
        return self.values[-1] if self.values else 0


@dataclass
class Chart:
    key: str
    title: str
    turns: list[int]  # the turn of each point (the first point: the deal)
    series: list[Series]
    steps: list[int] = field(default_factory=list)  # the moves made by each point
    per_seat: bool = False  # one line per seat, in seat order (else one line for all)

    def point_at(self, step: int) -> int:
        """The point showing the turn that move `step` belongs to (its end)."""
        return next((i for i, done in enumerate(self.steps) if done >= step),
                    len(self.turns) - 1)

    @property
    def ends(self) -> list[int]:
        return [s.end for s in self.series]


def _view(engine: GameEngine, state: Mapping[str, Any]) -> Mapping[str, Any]:
    # The table's cheaper read-only view where the game has one: a chart only reads it.
    viewer = getattr(engine, "screen_view", None) or engine.view
    return viewer(state, None)


def _turn(engine: GameEngine, view: Mapping[str, Any], fallback: int) -> int:
    turn = engine.clock_context(view).get("turn_number")
    return turn if isinstance(turn, int) else fallback


def game_charts(engine: GameEngine, *, ruleset: Mapping[str, Any], seats: int, seed: int,
                actions: Sequence[tuple[int, Action]], names: Sequence[str]) -> list[Chart]:
    """Every chart the game draws, from its start to the end of `actions` (none for a game
    without `chart_readings`). A log the engine refuses ends the charts at that move."""
    read = getattr(engine, "chart_readings", None)
    if read is None:
        return []
    state = engine.create(ruleset=ruleset, seats=seats, seed=seed)
    view = _view(engine, state)
    points: list[tuple[int, list[ChartReading]]] = [(_turn(engine, view, 0), read(view))]
    steps = [0]
    for done, (seat, action) in enumerate(actions):
        try:
            state = engine.apply(state, seat, action).state
        except IllegalAction:
            log.warning("charts stop at action %s: the engine refused it", done)
            break
        view = _view(engine, state)
        turn = _turn(engine, view, points[-1][0])
        reading = read(view)
        if len(points) > 1 and points[-1][0] == turn:
            points[-1] = (turn, reading)  # one point per turn: where the turn left things
            steps[-1] = done + 1
        else:
            points.append((turn, reading))
            steps.append(done + 1)
    colours = tuple(getattr(engine, "seat_colours", None) or DEFAULT_COLOURS)
    charts = []
    for i, first in enumerate(points[0][1]):
        if first.per_seat:
            series = [Series(name=names[s] if s < len(names) else f"Seat {s + 1}",
                             colour=colours[s % len(colours)], dash=DASHES[s % len(DASHES)])
                      for s in range(len(first.values))]
        else:
            series = [Series(name=first.label or first.title, colour=TOTAL_COLOUR, dash="")]
        for _, readings in points:
            for line, value in zip(series, readings[i].values, strict=True):
                line.values.append(value)
        charts.append(Chart(key=first.key, title=first.title,
                            turns=[turn for turn, _ in points], series=series, steps=steps,
                            per_seat=first.per_seat))
    return charts


def _nice_top(value: int) -> int:
    """The y axis's top: the first round number (1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of
    ten) at or above `value`, so the line's top sits near the chart's."""
    scale = 1
    while True:
        for mult in (10, 15, 20, 30, 40, 50, 60, 80):
            top = mult * scale // 10
            if top >= max(1, value) and top * 10 == mult * scale:
                return top
        scale *= 10


def line_names(chart: Chart, viewer: int | None = None) -> list[str]:
    """Each line's name in the legend and the description: the viewer's own seat is "You",
    as in the log and on the board; the charts themselves are drawn once for everyone."""
    return ["You" if chart.per_seat and i == viewer else s.name
            for i, s in enumerate(chart.series)]


def drawing(chart: Chart, at_step: int | None = None, viewer: int | None = None
            ) -> dict[str, Any]:
    """Where everything of one chart goes, in the viewBox's units, with the words that say
    the same (its title, its description and the legend's end values, the `viewer` seat's
    line named "You"); with `at_step`, a mark at the turn that move belongs to (a replay's
    current step)."""
    low = min(0, *(min(s.values) for s in chart.series if s.values))
    top = _nice_top(max([1, *(max(s.values) for s in chart.series if s.values)]))
    first, last = (chart.turns[0], chart.turns[-1]) if chart.turns else (0, 0)
    span_x = max(1, len(chart.turns) - 1)
    span_y = max(1, top - low)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> str:
        return f"{LEFT + inner_w * i / span_x:.1f}"

    def y(value: int) -> str:
        return f"{TOP + inner_h * (top - value) / span_y:.1f}"

    # Grid lines at whole, even steps: halves, thirds or fifths of the range, or its ends.
    rise = top - low
    parts = next((n for n in (2, 3, 5) if rise % n == 0 and rise > n), 1)
    ticks = [low + rise * k // parts for k in range(parts + 1)]
    names = line_names(chart, viewer)
    lines = [{"name": name, "colour": s.colour, "dash": s.dash, "end": s.end,
              "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(s.values)),
              "end_x": x(len(s.values) - 1), "end_y": y(s.end)}
             for name, s in zip(names, chart.series, strict=True)]
    ends = "; ".join(f"{name} {s.end}" for name, s in zip(names, chart.series, strict=True))
    turns = f"turn {first}" if first == last else f"turns {first} to {last}"
    now = None if at_step is None or not chart.turns else chart.point_at(at_step)
    return {
        "key": chart.key, "title": chart.title, "width": WIDTH, "height": HEIGHT,
        "left": LEFT, "right": WIDTH - RIGHT, "label_x": LEFT - 6, "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "grid": [{"y": y(t), "label": t} for t in ticks],
        "x_labels": [{"x": x(0), "label": first, "anchor": "start"},
                     {"x": x(span_x), "label": last, "anchor": "end"}] if first != last
        else [{"x": x(0), "label": first, "anchor": "start"}],
        "axis_label_y": HEIGHT - 4, "lines": lines,
        "description": f"{chart.title} by turn, {turns}. At the end: {ends}."
        + (f" Marked: turn {chart.turns[now]}, this step's." if now is not None else ""),
        "now_x": x(now) if now is not None else None,
    }
