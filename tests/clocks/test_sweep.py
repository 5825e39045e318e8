"""Clocks run out through periodic sweeps, never a task per deadline: the due-clock sweep every
second, and the slower sweep, which also recovers whatever a restart left, each act once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from clocks_helpers import ENGINE, clock_actions, started_game
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from games.platform import clocks
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction
from games.platform.scheduler import in_process_scheduler


def test_the_sweeps_run_periodically_on_both_backends() -> None:
    assert "tables.clocks_sweep" in django_settings.PERIODIC_TASKS
    assert django_settings.PERIODIC_TASKS["tables.clocks_sweep"] <= 5
    # A clock runs over its deadline by at most about this much.
    assert django_settings.PERIODIC_TASKS["tables.clocks_due"] == clocks.DUE_SWEEP_SECONDS <= 1


def test_the_in_process_scheduler_arms_the_due_sweep_to_run_every_second(settings: Any) -> None:
    settings.PERIODIC_TASKS = {"tables.clocks_due": 1.0}
    runner = in_process_scheduler()
    before = timezone.now()
    runner.start_periodic()
    ((when, task, kwargs),) = runner.pending()
    assert (task, kwargs) == ("tables.clocks_due", {})
    assert timedelta(seconds=1) <= when - before < timedelta(seconds=2)


@pytest.mark.django_db
def test_the_due_sweep_runs_out_a_passed_deadline_and_leaves_future_ones_alone(
        alice: Viewer, bob: Viewer, carol: Viewer, clock) -> None:
    late = started_game(alice, (bob, "Bob"))
    clock.advance(30)
    early = started_game(carol, (bob, "Bob"))  # its clock started 30 s later
    early_deadlines = early.deadlines
    in_process_scheduler().clear()
    clock.advance(31)  # past the first game's 60 s, 29 s short of the second's
    assert clocks.expire_due() == 1
    assert [x.action["type"] for x in clock_actions(late)] == ["end_turn"]
    assert clock_actions(early) == []
    early.refresh_from_db()
    assert early.version == 0 and early.deadlines == early_deadlines
    assert in_process_scheduler().pending() == []  # and it scheduled nothing


@pytest.mark.django_db
def test_the_due_sweep_reads_once_and_writes_nothing_when_no_clock_has_run_out(
        alice: Viewer, bob: Viewer, clock, django_assert_num_queries) -> None:
    started_game(alice, (bob, "Bob"))
    clock.advance(59)
    with django_assert_num_queries(1):
        assert clocks.expire_due() == 0


@pytest.mark.django_db
def test_the_sweep_recovers_a_game_whose_clock_task_was_lost(alice: Viewer, bob: Viewer,
                                                             clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = game.state["turn"]
    in_process_scheduler().clear()  # a restart: the scheduled expiry is gone
    clock.advance(61)
    assert clocks.clocks_sweep() == 1
    assert clocks.clocks_sweep() == 0  # once only
    game.refresh_from_db()
    assert [x.action["type"] for x in clock_actions(game)] == ["end_turn"]
    assert game.state["turn"] != turn
    assert game.clock_due is not None and game.clock_due > clock.now()


@pytest.mark.django_db
def test_a_game_with_an_expired_deadline_and_no_task_is_decided_exactly_once(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    in_process_scheduler().clear()
    # As the database holds it after a long restart: the deadline passed, nothing scheduled.
    turn = str(game.state["turn"])
    past = timezone.now() - timedelta(seconds=5)
    deadlines = {**game.deadlines, turn: {**game.deadlines[turn], "deadline": past.isoformat()}}
    Game.objects.filter(pk=game.pk).update(deadlines=deadlines, clock_due=past)
    assert clocks.clocks_sweep() == 1
    assert clocks.clocks_sweep() == 0
    assert GameAction.objects.filter(game=game, source="clock").count() == 1


@pytest.mark.parametrize("sweep_once", [clocks.clocks_sweep, clocks.expire_due],
                         ids=["clocks sweep", "due-clock sweep"])
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_decide_only_once(alice: Viewer, bob: Viewer, clock,
                                             sweep_once: Callable[[], int]) -> None:
    game = started_game(alice, (bob, "Bob"))
    in_process_scheduler().clear()
    clock.advance(61)
    barrier = threading.Barrier(2)
    results: list[int] = []
    errors: list[BaseException] = []

    def sweep() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(sweep_once())
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert sorted(results) == [0, 1]
    assert [x.action["type"] for x in clock_actions(game)] == ["end_turn"]
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_clock_out_within_about_a_second_of_its_deadline(
        celery_worker_process: None, alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = str(game.state["turn"])
    due = timezone.now() + timedelta(seconds=2)
    deadlines = {**game.deadlines, turn: {**game.deadlines[turn], "deadline": due.isoformat()}}
    # As a move stores it; no task is scheduled for it: beat's due-clock sweep finds it.
    Game.objects.filter(pk=game.pk).update(deadlines=deadlines, clock_due=due)
    limit = time.monotonic() + 30
    while not GameAction.objects.filter(game=game, source="clock").exists():
        assert time.monotonic() < limit, "the worker did not act on the clock"
        time.sleep(0.2)
    action = GameAction.objects.get(game=game, source="clock")
    assert action.action == {"type": "end_turn"}
    # The sweep runs every second; the rest of the margin is for a loaded test machine.
    assert due <= action.created_at < due + timedelta(seconds=3)
    game.refresh_from_db()
    assert ENGINE.to_decide(game.state) == [1 - int(turn)]


@pytest.mark.django_db
def test_time_the_site_was_down_is_given_back_to_every_clock(alice: Viewer, bob: Viewer,
                                                            clock, settings: Any) -> None:
    from games.platform.models import ClockSweep

    settings.CLOCKS_DOWNTIME_SECONDS = 15
    ClockSweep.objects.all().delete()
    game = started_game(alice, (bob, "Bob"))
    turn = str(game.state["turn"])
    in_process_scheduler().clear()
    clock.advance(20)
    assert clocks.clocks_sweep() == 0  # 40 s left on the turn clock
    clock.advance(2)
    assert clocks.clocks_sweep() == 0  # the sweep runs every 2 s: nothing to give back
    before = game.deadlines[turn]["deadline"]
    game.refresh_from_db()
    assert game.deadlines[turn]["deadline"] == before

    clock.advance(300)  # the site is down for five minutes
    assert clocks.clocks_sweep() == 0  # nobody timed out because of us...
    game.refresh_from_db()
    left = (timezone.datetime.fromisoformat(game.deadlines[turn]["deadline"]) - clock.now())
    assert left.total_seconds() == pytest.approx(38 - 2, abs=1)  # ...and the time is back
    assert game.clock_due == timezone.datetime.fromisoformat(game.deadlines[turn]["deadline"])
    clock.advance(37)
    assert clocks.game_clock_expire(game_id=game.pk) == 1


@pytest.mark.django_db
def test_after_downtime_the_due_sweep_gives_the_time_back_before_it_runs_any_clock_out(
        alice: Viewer, bob: Viewer, clock, settings: Any) -> None:
    from games.platform.models import ClockSweep

    settings.CLOCKS_DOWNTIME_SECONDS = 15
    ClockSweep.objects.all().delete()
    game = started_game(alice, (bob, "Bob"))
    turn = str(game.state["turn"])
    in_process_scheduler().clear()
    clock.advance(20)
    assert clocks.clocks_sweep() == 0  # 40 s left on the turn clock; the sweep's mark is set
    clock.advance(300)  # the site is down for five minutes; the due sweep is first back up
    assert clocks.expire_due() == 0  # nobody timed out because of us...
    game.refresh_from_db()
    left = (timezone.datetime.fromisoformat(game.deadlines[turn]["deadline"]) - clock.now())
    assert left.total_seconds() == pytest.approx(40 - 2, abs=1)  # ...and the time is back
    assert clock_actions(game) == []
    clock.advance(39)
    ClockSweep.objects.update(ran_at=clock.now())  # the slower sweep ran on, every 2 s
    assert clocks.expire_due() == 1
