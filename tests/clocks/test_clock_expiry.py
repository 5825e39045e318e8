"""When a clock runs out the decision is made as RULINGS says, through the same path as a move."""

from __future__ import annotations

import re
from datetime import datetime
from html import unescape

import pytest
from clocks_helpers import (
    ENGINE,
    act,
    clock_actions,
    deadline_of,
    end_turn,
    first_legal,
    log_lines,
    seat_of,
    set_position,
    started_game,
)

from games.chudopoly.engine import card
from games.platform import clocks
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction, Seat
from games.platform.scheduler import in_process_scheduler
from games.platform.tasks import clock_expire

pytestmark = pytest.mark.django_db

NINE_CARDS = ["money:10", "money:5", "money:5", "money:4", "money:4", "money:3", "money:3",
              "money:2", "money:1"]


def test_a_turn_that_runs_out_ends_with_the_automatic_discard(alice: Viewer, bob: Viewer,
                                                              clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = game.state["turn"]
    name = game.players[turn]["name"]
    game = set_position(game, turn=turn, hands={turn: NINE_CARDS})
    assert game.deadlines[str(turn)]["kind"] == "turn"

    clock.advance(59)
    assert clocks.game_clock_expire(game_id=game.pk) == 0  # not yet
    clock.advance(2)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()

    assert [a.action["type"] for a in clock_actions(game)] == ["end_turn", "discard"]
    discarded = clock_actions(game)[1].action["cards"]
    # RULINGS: the excess goes, lowest bank value first.
    pile = {c["id"]: c["value"] for c in ENGINE.view(game.state, None)["discard"]}
    assert sorted(pile[cid] for cid in discarded) == [1, 2]
    assert len(game.state["players"][turn]["hand"]) == 7
    assert game.state["turn"] == 1 - turn
    assert game.deadlines[str(1 - turn)]["kind"] == "turn"
    lines = log_lines(game)
    assert f"{name} ran out of time (60 s); the turn was ended automatically." in lines
    assert any(line.startswith(f"{name} discarded ") for line in lines)


def test_a_response_that_runs_out_is_accepted_never_opsec_and_paid_automatically(
        alice: Viewer, bob: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    game = set_position(game, turn=a, hands={a: ["roll_call"], b: ["opsec"]},
                        banks={b: ["money:1", "money:2", "money:5"]})
    game = act(game, a, first_legal(game, a, "action"))  # Roll Call: Bob owes 2M
    assert ENGINE.to_decide(game.state) == [b]
    assert game.deadlines[str(b)]["kind"] == "response"
    assert game.deadlines[str(b)]["seconds"] == 45

    clock.advance(46)
    assert clocks.game_clock_expire(game_id=game.pk, version=game.version) == 1
    game.refresh_from_db()
    answer, pay = (x.action for x in clock_actions(game))
    assert answer == {"type": "respond", "answer": "accept", "target": b}
    # The smallest covering total, from the bank: the 2M note.
    assert pay == {"type": "pay", "cards": [card(game.state, "money:2")]}
    assert card(game.state, "opsec") in game.state["players"][b]["hand"]  # never an OPSEC
    assert game.state["phase"] == "play" and ENGINE.to_decide(game.state) == [a]
    lines = log_lines(game)
    assert "Bob ran out of time (45 s) and accepted Alice’s Roll Call (2M)." in lines
    assert any(line.startswith("Bob paid Alice 2M") for line in lines)
    # Bob sees himself as "You".
    assert "You ran out of time (45 s) and accepted Alice’s Roll Call (2M)." in log_lines(game, b)


def test_each_responder_has_their_own_deadline(alice: Viewer, bob: Viewer, carol: Viewer,
                                               clock) -> None:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"))
    a, b, c = (seat_of(game, v) for v in (alice, bob, carol))
    game = set_position(game, turn=a, hands={a: ["roll_call"]},
                        banks={b: ["money:2"], c: ["money:2"]})
    game = act(game, a, first_legal(game, a, "action"))
    assert sorted(ENGINE.to_decide(game.state)) == sorted([b, c])
    carols = deadline_of(game, c)

    clock.advance(20)
    game = act(game, b, {"type": "respond", "answer": "accept", "target": b})
    game = act(game, b, first_legal(game, b, "pay"))
    assert deadline_of(game, c) == carols  # Bob answering did not reset Carol's clock
    assert str(b) not in game.deadlines

    clock.advance(20)
    assert clocks.game_clock_expire(game_id=game.pk) == 0
    clock.advance(6)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()
    assert {x.seat for x in clock_actions(game)} == {c}
    assert GameAction.objects.filter(game=game, seat=b, source="player").count() == 2


def test_the_turn_clock_pauses_while_a_response_is_owed(alice: Viewer, bob: Viewer,
                                                       clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    game = set_position(game, turn=a, hands={a: ["roll_call", "money:1"]},
                        banks={b: ["money:2"]})
    clock.advance(20)
    game = act(game, a, first_legal(game, a, "action"))
    assert str(a) not in game.deadlines
    assert game.deadlines["paused"]["remaining"] == pytest.approx(40, abs=1)

    # Far past Alice's original 60 s: only Bob's response clock may run out.
    clock.advance(100)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()
    assert {x.seat for x in clock_actions(game)} == {b}
    assert ENGINE.to_decide(game.state) == [a]
    left = (datetime.fromisoformat(game.deadlines[str(a)]["deadline"]) - clock.now())
    assert left.total_seconds() == pytest.approx(40, abs=1)  # resumed, not restarted


def _scheduled() -> list[str]:
    return [task for _when, task, _kwargs in in_process_scheduler().pending()]


def test_a_move_schedules_no_clock_task_and_the_due_sweep_runs_the_clock_out_at_its_deadline(
        alice: Viewer, bob: Viewer, clock, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(alice, (bob, "Bob"))
        game = end_turn(game, game.state["turn"])  # the earliest deadline moves
    assert _scheduled() == []  # two humans: no bot, no auto move, and nothing for the clocks
    turn = game.state["turn"]
    deadline = datetime.fromisoformat(game.deadlines[str(turn)]["deadline"])
    assert game.clock_due == deadline
    clock.advance((deadline - clock.now()).total_seconds() - 0.5)
    assert clocks.expire_due() == 0  # half a second early: nothing yet
    clock.advance(1)
    assert clocks.expire_due() == 1
    game.refresh_from_db()
    assert [(x.seat, x.action["type"]) for x in clock_actions(game)] == [(turn, "end_turn")]
    assert clocks.expire_due() == 0  # once only


def test_a_play_that_leaves_the_deadline_where_it_was_schedules_nothing_either(
        alice: Viewer, bob: Viewer, django_capture_on_commit_callbacks) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = game.state["turn"]
    game = set_position(game, turn=turn, hands={turn: ["money:1", "money:2"]})
    due = game.clock_due
    in_process_scheduler().clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = act(game, turn, first_legal(game, turn, "bank"))
    assert game.clock_due == due  # the same turn clock
    assert _scheduled() == []


def test_a_late_or_duplicate_clock_task_does_nothing(alice: Viewer, bob: Viewer,
                                                     clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = game.state["turn"]
    first_due = game.clock_due.isoformat()
    game = end_turn(game, turn)  # the table moved on before the first deadline came
    clock.advance(61)
    assert clock_expire(game_id=game.pk, due=first_due) == 0
    assert clock_actions(game) == []

    due = game.clock_due.isoformat()
    assert clock_expire(game_id=game.pk, due=due) == 1
    assert clock_expire(game_id=game.pk, due=due) == 0  # delivered twice: once only
    assert len(clock_actions(game)) == 1


def test_a_task_queued_by_an_older_release_still_checks_the_version(
        alice: Viewer, bob: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    clock.advance(61)
    assert clock_expire(game_id=game.pk, version=game.version + 1) == 0
    assert clock_expire(game_id=game.pk, version=game.version) == 1


def test_an_early_clock_task_of_an_older_release_does_nothing_and_the_sweep_acts_at_the_deadline(
        alice: Viewer, bob: Viewer, clock, django_capture_on_commit_callbacks) -> None:
    game = started_game(alice, (bob, "Bob"))
    in_process_scheduler().clear()
    clock.advance(30)
    due = game.clock_due.isoformat()
    with django_capture_on_commit_callbacks(execute=True):
        assert clock_expire(game_id=game.pk, due=due) == 0
    assert _scheduled() == []  # not scheduled again: the due sweep will see the deadline
    assert clock_actions(game) == []
    clock.advance(31)
    assert clocks.expire_due() == 1
    assert [x.action["type"] for x in clock_actions(game)] == ["end_turn"]


def test_games_decided_by_the_clock_replay_to_the_same_state(alice: Viewer, bob: Viewer,
                                                             carol: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"))
    # Their pages stay open (a socket each): a game whose every human timed out and has gone
    # is abandoned and its clocks stop (games/platform/abandoned.py).
    Seat.objects.filter(table_id=game.table_id).update(connections=1)
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        clock.advance(121)
        clocks.game_clock_expire(game_id=game.pk)
    game.refresh_from_db()
    log = [(x.seat, x.action) for x in GameAction.objects.filter(game=game).order_by("version")]
    assert len(log) >= 40 and all(x.source == "clock" for x in GameAction.objects.filter(game=game))
    assert ENGINE.replay(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed,
                         actions=log) == game.state


def test_no_clock_runs_when_the_table_turned_them_off(alice: Viewer, clock) -> None:
    game = started_game(alice, bots=1, turn_seconds=0, response_seconds=0)
    assert game.deadlines == {} and game.clock_due is None
    clock.advance(1000)
    assert clocks.clocks_sweep() == 0


def test_a_source_who_runs_out_of_time_lets_the_opsec_stand_and_keeps_their_paused_turn(
        alice: Viewer, bob: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    game = set_position(game, turn=a, hands={a: ["roll_call", "money:1"], b: ["opsec"]},
                        banks={b: ["money:2"]})
    clock.advance(10)
    game = act(game, a, first_legal(game, a, "action"))  # Roll Call, 50 s left on the turn
    game = act(game, b, {"type": "respond", "answer": "opsec", "target": b})
    assert ENGINE.to_decide(game.state) == [a]  # Alice answers Bob's OPSEC...
    assert game.deadlines[str(a)]["kind"] == "response"
    assert game.deadlines["paused"]["remaining"] == pytest.approx(50, abs=1)  # ...turn paused

    clock.advance(46)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()
    (answer,) = (x.action for x in clock_actions(game))
    assert answer == {"type": "respond", "answer": "accept", "target": b}
    assert "Alice ran out of time (45 s) and let Bob’s OPSEC stand." in log_lines(game)
    assert "You ran out of time (45 s) and let Bob’s OPSEC stand." in log_lines(game, a)
    assert ENGINE.to_decide(game.state) == [a] and game.deadlines[str(a)]["kind"] == "turn"
    left = datetime.fromisoformat(game.deadlines[str(a)]["deadline"]) - clock.now()
    assert left.total_seconds() == pytest.approx(50, abs=1)


def test_the_page_shows_the_paused_turn_clock_to_players_and_spectators(
        alice: Viewer, bob: Viewer, clock, client) -> None:
    from games.platform.identity import GUEST_SESSION_KEY

    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    game = set_position(game, turn=a, hands={a: ["roll_call", "money:1"]},
                        banks={b: ["money:2"]})
    clock.advance(20)
    game = act(game, a, first_legal(game, a, "action"))
    url = f"/t/{game.table.code}/"
    spectator = client.get(game.table.invite_path).content.decode()  # watching by the link
    # ⏸ as the page shows it: the HTML writes it as a character reference.
    assert f'id="seat-{a}"' in spectator and re.search("⏸ 0:(39|40)", unescape(spectator))
    bobs_clock = game.deadlines[str(b)]["deadline"]
    assert f'data-deadline="{bobs_clock}"' in spectator  # the responder's own clock runs

    session = client.session
    session[GUEST_SESSION_KEY] = alice.guest_key
    session.save()
    mine = client.get(url).content.decode()
    assert re.search("your turn clock waits at 0:(39|40)", mine)
