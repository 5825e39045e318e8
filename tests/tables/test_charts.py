"""The platform's charts (games/platform/charts.py): any game with `chart_readings` gets them,
one point per turn read off a spectator's view, laid out the same way for every game."""

from __future__ import annotations

from typing import Any

from games.platform.charts import Chart, Series, drawing, game_charts
from games.platform.interface import Applied, ChartReading, IllegalAction


class CountingGame:
    """A made-up game: each move adds its `n` to the mover's score and to the pot; every
    second move ends a turn. It shows its scores and the pot to spectators only as charts."""

    def create(self, *, ruleset: Any, seats: int, seed: int) -> dict[str, Any]:
        return {"scores": [0] * seats, "pot": 100, "moves": 0}

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Applied:
        if action["n"] < 0:
            raise IllegalAction("No taking back.")
        scores = list(state["scores"])
        scores[seat] += action["n"]
        return Applied({"scores": scores, "pot": state["pot"] - action["n"],
                        "moves": state["moves"] + 1})

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        assert seat is None  # a chart reads what a spectator sees
        return dict(state)

    def clock_context(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"turn_number": 1 + view["moves"] // 2}

    def chart_readings(self, view: dict[str, Any]) -> list[ChartReading]:
        return [ChartReading("score", "Score", tuple(view["scores"])),
                ChartReading("pot", "Pot", (view["pot"],), per_seat=False, label="The pot")]


def _charts(actions: list[tuple[int, dict[str, Any]]]) -> dict[str, Chart]:
    charts = game_charts(CountingGame(), ruleset={}, seats=2, seed=1, actions=actions,  # type: ignore[arg-type]
                         names=["Ann", "Ben"])
    return {c.key: c for c in charts}


def test_a_game_with_chart_readings_gets_a_line_per_seat_and_one_for_a_total() -> None:
    charts = _charts([(0, {"n": 3}), (1, {"n": 4}), (0, {"n": 5}), (1, {"n": 1})])
    assert [s.name for s in charts["score"].series] == ["Ann", "Ben"]
    assert charts["score"].ends == [8, 5]
    assert [s.name for s in charts["pot"].series] == ["The pot"]
    assert charts["pot"].ends == [87]


def test_a_chart_keeps_the_deal_and_then_where_each_turn_left_things() -> None:
    # Two moves a turn: the first move ends in turn 1, the second and third in turn 2.
    charts = _charts([(0, {"n": 3}), (1, {"n": 4}), (0, {"n": 5})])
    assert charts["score"].turns == [1, 1, 2]  # the deal, turn 1's end, turn 2's end
    assert charts["score"].series[0].values == [0, 3, 8]
    assert charts["score"].series[1].values == [0, 0, 4]


def test_a_move_the_engine_refuses_ends_the_chart_there() -> None:
    charts = _charts([(0, {"n": 3}), (1, {"n": -1}), (0, {"n": 5})])
    assert charts["score"].ends == [3, 0]


def test_a_game_without_chart_readings_has_no_charts() -> None:
    class Plain(CountingGame):
        chart_readings = None  # type: ignore[assignment]

    assert game_charts(Plain(), ruleset={}, seats=2, seed=1, actions=[],  # type: ignore[arg-type]
                       names=["Ann", "Ben"]) == []


def test_the_drawing_puts_the_highest_value_on_a_round_top_line_and_says_the_end() -> None:
    chart = Chart("worth", "Net worth", [1, 2, 3],
                  [Series("Ann", "#d1495b", "", [1500, 1700, 1820]),
                   Series("Ben", "#2e86ab", "7 4", [1500, 1300, 0])])
    d = drawing(chart)
    assert [g["label"] for g in d["grid"]] == [0, 1000, 2000]
    top, bottom = float(d["grid"][-1]["y"]), float(d["grid"][0]["y"])
    ben = [tuple(map(float, p.split(","))) for p in d["lines"][1]["points"].split()]
    assert ben[-1][1] == bottom and ben[0][0] == d["left"] and ben[-1][0] == d["right"]
    assert all(top <= y <= bottom for _, y in ben)
    assert [x["label"] for x in d["x_labels"]] == [1, 3]
    assert d["description"] == "Net worth by turn, turns 1 to 3. At the end: Ann 1820; Ben 0."


def test_a_replay_step_marks_the_turn_it_belongs_to() -> None:
    chart = _charts([(0, {"n": 3}), (1, {"n": 4}), (0, {"n": 5})])["score"]
    assert chart.steps == [0, 1, 3]
    # Step 2 (the second move) is in turn 2, whose point is the last: the mark is there.
    assert drawing(chart, at_step=2)["now_x"] == drawing(chart)["lines"][0]["end_x"]
    assert drawing(chart, at_step=0)["now_x"] == str(float(drawing(chart)["left"]))
    assert drawing(chart)["now_x"] is None
    assert drawing(chart, at_step=1)["description"].endswith(" Marked: turn 1, this step's.")
