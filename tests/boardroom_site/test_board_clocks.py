"""Boardroom's own clocks at an online table (the guide's "Playing online"): 5 minutes for a
seat's own decisions, starting over after each action; 60 seconds for a bid or a trade answer;
60 seconds for a lot nobody bid on; no clocks against bots; no bot ever plays a seat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from board_clock_helpers import (
    ENGINE,
    Clock,
    act,
    deadline_in,
    expire,
    online,
    position,
    seat_of,
    sources,
    vs_bots,
)

from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.models import ClockSweep, Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CLOCKS_DOWNTIME_SECONDS = 0
    c = Clock()
    monkeypatch.setattr(clocks, "now", c.now)
    return c


def three(alice: Viewer, bob: Viewer, carol: Viewer) -> Game:
    return online(alice, (bob, "Bob"), (carol, "Carol"))


def test_the_seat_to_act_has_five_minutes_and_nobody_else_a_clock(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = online(alice, (bob, "Bob"))
    turn = game.state["turn"]
    assert set(game.deadlines) == {str(turn)}
    assert game.deadlines[str(turn)]["seconds"] == 300
    assert 299 <= deadline_in(game, turn, clock) <= 300


def test_the_move_clock_starts_over_after_each_action_of_the_seat(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, dice=[(1, 2)], phase="roll")
    clock.advance(200)
    game = act(game, 0, {"type": "roll"})
    assert game.state["phase"] == "buy"  # still seat 0's decision: buy or send to auction
    assert 299 <= deadline_in(game, 0, clock) <= 300


def test_a_bid_has_sixty_seconds_and_the_lot_sixty_that_passing_does_not_restart(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = position(three(alice, bob, carol), turn=0, dice=[(1, 2)], phase="roll")
    game = act(game, 0, {"type": "roll"})
    game = act(game, 0, {"type": "decline", "tile": 3})
    assert game.state["auction"]["at"] == 0
    assert game.deadlines["0"]["seconds"] == 60 and game.deadlines["lot"]["seconds"] == 60
    lot = game.deadlines["lot"]["deadline"]
    clock.advance(30)
    game = act(game, 0, {"type": "pass"})
    assert game.deadlines["lot"]["deadline"] == lot
    assert 59 <= deadline_in(game, 1, clock) <= 60  # the next bidder's own minute


def test_a_lot_with_no_first_bid_is_cancelled_after_its_minute_and_nobody_pays(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = position(three(alice, bob, carol), turn=0, dice=[(1, 2)], phase="roll")
    game = act(act(game, 0, {"type": "roll"}), 0, {"type": "decline", "tile": 3})
    game = act(game, 0, {"type": "pass"})
    cash = list(game.state["cash"])
    clock.advance(61)
    assert expire(game) == 1
    assert game.state["auction"] is None and game.state["owner"][3] is None
    assert game.state["cash"] == cash and all(game.state["active"])
    assert sources(game)[-1] == ("clock", "lot_expired")
    assert "lot" not in game.deadlines


def test_the_first_bid_lifts_the_lot_deadline(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = position(three(alice, bob, carol), turn=0, dice=[(1, 2)], phase="roll")
    game = act(act(game, 0, {"type": "roll"}), 0, {"type": "decline", "tile": 3})
    bid = next(a for a in ENGINE.legal_actions(game.state, 0) if a["type"] == "bid")
    game = act(game, 0, bid)
    assert "lot" not in game.deadlines


def test_silence_on_a_bid_is_a_pass_no_money_spent_and_the_seat_stays_in(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = position(three(alice, bob, carol), turn=0, dice=[(1, 2)], phase="roll")
    game = act(act(game, 0, {"type": "roll"}), 0, {"type": "decline", "tile": 3})
    bid = next(a for a in ENGINE.legal_actions(game.state, 0) if a["type"] == "bid")
    game = act(game, 0, bid)  # a first bid: the bidders' own clocks only from here
    cash = list(game.state["cash"])
    clock.advance(61)
    assert expire(game) == 1
    assert game.state["active"] == [True, True, True] and game.state["cash"] == cash
    assert sources(game)[-1] == ("clock", "pass")


def test_silence_on_a_trade_offer_is_a_refusal(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = position(online(alice, (bob, "Bob")), turn=0, phase="act", owners={1: 1})
    # Alice offers 100 for Bob's tile (the page's swap form: their tile, none of hers).
    game = act(game, 0, {"type": "propose", "kind": "swap", "to": 1, "take": 1, "give": None,
                         "cash": 100})
    assert game.deadlines["1"]["seconds"] == 60
    clock.advance(61)
    assert expire(game) == 1
    assert game.state["offer"] is None and game.state["owner"][1] == 1
    assert sources(game)[-1] == ("clock", "answer")
    assert all(game.state["active"])


def test_missing_the_move_clock_is_bankrupt_to_the_bank_and_the_others_play_on(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = position(three(alice, bob, carol), turn=0, phase="roll", owners={1: 0})
    clock.advance(301)
    assert expire(game) == 1
    assert game.state["active"] == [False, True, True]
    assert game.state["owner"][1] is None  # the tiles go back to the bank
    assert game.status == Game.Status.RUNNING
    assert sources(game)[-1] == ("clock", "forfeit")
    line = ENGINE.describe_event(game.actions.last().events[0], viewer=None,
                                 names=["Alice", "Bob", "Carol"], ruleset={})
    assert line == "Alice ran out of time (5:00) and is out of the game (bankrupt to the bank)."


def test_with_fewer_than_two_left_the_game_is_over(
        alice: Viewer, bob: Viewer, clock: Clock) -> None:
    game = online(alice, (bob, "Bob"))
    clock.advance(301)
    expire(game)
    assert game.status == Game.Status.FINISHED


def test_the_clocks_never_hand_a_seat_to_a_bot(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = three(alice, bob, carol)
    for _ in range(3):  # three bids in a row left to the clock
        game = position(game, turn=0, dice=[(1, 2)], phase="roll")
        game = act(act(game, 0, {"type": "roll"}), 0, {"type": "decline", "tile": 3})
        game = act(game, 0, {"type": "bid", "amount": game.state["auction"]["start"]})
        clock.advance(61)
        expire(game)
    assert not Seat.objects.filter(table_id=game.table_id, away=True).exists()


def test_a_lost_connection_keeps_the_seat_and_its_clock(
        alice: Viewer, bob: Viewer, clock: Clock, settings: Any) -> None:
    game = online(alice, (bob, "Bob"))
    seat = Seat.objects.get(table_id=game.table_id, guest_key=bob.guest_key)
    Seat.objects.filter(pk=seat.pk).update(disconnected_at=clock.now() - timedelta(minutes=5))
    assert clocks.seat_takeover_if_gone(seat_id=seat.pk) is False
    clock.advance(60)
    clocks.clocks_sweep()
    assert not Seat.objects.get(pk=seat.pk).away


def test_against_bots_no_clock_runs(alice: Viewer, clock: Clock) -> None:
    game = vs_bots(alice)
    assert game.deadlines == {} and game.clock_due is None
    clock.advance(3600)
    assert expire(game) == 0 and all(game.state["active"])


def test_time_the_site_was_down_is_given_back_to_moves_and_lots(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock, settings: Any) -> None:
    settings.CLOCKS_DOWNTIME_SECONDS = 15
    game = position(three(alice, bob, carol), turn=0, dice=[(1, 2)], phase="roll")
    game = act(act(game, 0, {"type": "roll"}), 0, {"type": "decline", "tile": 3})
    before = dict(game.deadlines)
    ClockSweep.objects.update_or_create(pk=1, defaults={"ran_at": clock.now()})
    clock.advance(600)  # ten minutes without a sweep: the site was down
    clocks.clocks_sweep()
    game.refresh_from_db()
    assert game.state["auction"] is not None  # nothing ran out
    for key in ("0", "lot"):
        moved = (clocks._when(game.deadlines[key]["deadline"])
                 - clocks._when(before[key]["deadline"])).total_seconds()
        assert moved == pytest.approx(600 - clocks.SWEEP_SECONDS, abs=1)


def test_leaving_a_running_game_is_bankrupt_to_the_bank(
        alice: Viewer, bob: Viewer, carol: Viewer, clock: Clock) -> None:
    game = three(alice, bob, carol)
    services.seat_leave(table_id=game.table_id, viewer=carol)
    game.refresh_from_db()
    assert not game.state["active"][seat_of(game, carol)]
    assert game.status == Game.Status.RUNNING
    services.seat_leave(table_id=game.table_id, viewer=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # fewer than two left


def test_the_start_a_table_form_states_the_games_clocks_instead_of_asking(
        alice: Viewer, client: Any) -> None:
    page = client.get("/tables/new/?game=boardroom").content.decode()
    assert 'id="own-clocks"' in page and "5 min per own decision" in page
    assert 'name="turn_seconds"' not in page
    made = client.post("/tables/new/", {"game": "boardroom", "name": "Alice",
                                        "preset": "standard", "max_seats": "3"})
    assert made.status_code == 302
    assert 'name="turn_seconds"' in client.get("/tables/new/?game=chudopoly").content.decode()
