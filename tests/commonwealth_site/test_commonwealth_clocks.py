"""Commonwealth's own clocks at an online table: 5 minutes for a seat's own decisions, 60
seconds for a bid, a deal answer and a GO gift; each expiry takes the engine's default and
says so in the log; no clocks against bots; and, since nobody is ever retired here, three
expiries in a row hand the seat to the stand-in bot until its owner comes back."""

from __future__ import annotations

from typing import Any

import pytest
from commonwealth_clock_helpers import (
    ENGINE,
    Clock,
    act,
    deadline_in,
    expire,
    online,
    position,
    sources,
    vs_bots,
)

from games.platform import clocks
from games.platform.identity import Viewer
from games.platform.models import Game, Seat

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Bob", "Carol"]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CLOCKS_DOWNTIME_SECONDS = 0
    c = Clock()
    monkeypatch.setattr(clocks, "now", c.now)
    return c


def log_line(game: Game) -> str | None:
    """The log line of the last action's first event (the clock's note, when it decided)."""
    return ENGINE.describe_event(game.actions.last().events[0], viewer=None, names=NAMES,
                                 ruleset={})


def test_the_seat_to_act_has_five_minutes_and_nobody_else_a_clock(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0)
    assert set(game.deadlines) == {"0"} and game.deadlines["0"]["seconds"] == 300
    assert 299 <= deadline_in(game, 0, clock) <= 300


def test_a_missed_roll_is_rolled_by_the_clock_and_the_log_says_so(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, dice=[(4, "2")])
    clock.advance(301)
    assert expire(game) == 1
    assert sources(game) == [("clock", "roll")]
    assert game.state["players"][0]["pos"] == 6 and game.status == Game.Status.RUNNING
    assert log_line(game) == "Alice ran out of time (5:00) and rolled."


def test_silence_on_a_bid_is_a_pass_within_sixty_seconds(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, dice=[(4, "2")])
    game = act(act(game, 0, {"type": "roll"}), 0, {"type": "auction"})
    bidder = game.state["step"]["to_act"]
    assert game.deadlines[str(bidder)]["seconds"] == 60
    cash = [p["cash"] for p in game.state["players"]]
    clock.advance(61)
    assert expire(game) == 1
    assert sources(game)[-1] == ("clock", "pass")
    assert [p["cash"] for p in game.state["players"]] == cash
    assert log_line(game) == f"{NAMES[bidder]} ran out of time (60 s) to bid: a pass."


def test_silence_on_a_deal_is_a_refusal(alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, managers={1: 0},
                    cash={0: 50, 1: 50})
    game = act(game, 0, {"type": "offer", "to": 1, "give": {"projects": [1]},
                         "get": {"cash": 20}})
    assert game.deadlines["1"]["seconds"] == 60
    clock.advance(61)
    assert expire(game) == 1
    assert game.state["deal"] is None and game.state["projects"][1]["manager"] == 0
    assert sources(game)[-1] == ("clock", "decline")
    assert log_line(game) == "Bob ran out of time (60 s) to answer: the deal is declined."


def test_a_missed_go_gift_is_the_minimum_of_five(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, pos={0: 36}, dice=[(5, "2")])
    game = act(game, 0, {"type": "roll"})
    assert game.state["step"]["kind"] == "donate"
    assert {game.deadlines[s]["seconds"] for s in ("0", "1")} == {60}
    fund = game.state["fund"]
    clock.advance(61)
    expire(game)
    assert sources(game)[-2:] == [("clock", "donate"), ("clock", "donate")]
    assert game.state["fund"] == fund + 10
    assert log_line(game).endswith("ran out of time (60 s) and gave the GO minimum of 5.")


def test_against_bots_no_clock_runs(alice: Viewer, clock: Clock) -> None:
    game = vs_bots(alice)
    assert game.deadlines == {} and game.clock_due is None
    clock.advance(3600)
    assert expire(game) == 0


def test_three_expiries_in_a_row_hand_the_seat_to_the_stand_in_bot(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = online(alice, (bob, "Bob"))
    for _ in range(3):
        game = position(game, turn=0)
        clock.advance(301)
        expire(game)
    owner = next(s for s in Seat.objects.filter(table_id=game.table_id) if s.game_seat == 0)
    assert owner.away  # never retired: the bot plays the seat until its owner is back


def test_the_start_a_table_form_states_the_games_clocks(client: Any) -> None:
    page = client.get("/tables/new/?game=commonwealth").content.decode()
    assert 'id="own-clocks"' in page and "60 s per bid, deal answer, GO gift" in page
    assert 'name="turn_seconds"' not in page
