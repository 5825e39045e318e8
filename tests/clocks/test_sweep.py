"""A restart never leaves a table stuck: the periodic sweep acts on any expired clock, once."""

from __future__ import annotations

import threading
import time
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


def test_the_sweep_runs_periodically_on_both_backends() -> None:
    assert "tables.clocks_sweep" in django_settings.PERIODIC_TASKS
    assert django_settings.PERIODIC_TASKS["tables.clocks_sweep"] <= 5


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


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_decide_only_once(alice: Viewer, bob: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    in_process_scheduler().clear()
    clock.advance(61)
    barrier = threading.Barrier(2)
    results: list[int] = []
    errors: list[BaseException] = []

    def sweep() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(clocks.clocks_sweep())
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
def test_a_real_worker_acts_on_a_clock_expiry_scheduled_with_an_eta(
        celery_worker_process: None, alice: Viewer, bob: Viewer, settings: Any) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = str(game.state["turn"])
    due = timezone.now() + timedelta(seconds=2)
    deadlines = {**game.deadlines, turn: {**game.deadlines[turn], "deadline": due.isoformat()}}
    # No clock_due: the worker's periodic sweep cannot see this game, only the eta task can.
    Game.objects.filter(pk=game.pk).update(deadlines=deadlines, clock_due=None)
    settings.TASK_BACKEND = "celery"
    clocks.schedule_expiry(game_id=game.pk, due=due)
    limit = time.monotonic() + 30
    while not GameAction.objects.filter(game=game, source="clock").exists():
        assert time.monotonic() < limit, "the worker did not act on the clock"
        time.sleep(0.2)
    action = GameAction.objects.get(game=game, source="clock")
    assert action.action == {"type": "end_turn"}
    assert action.created_at >= due
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
