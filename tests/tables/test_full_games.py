"""Whole games through the service layer: bots play to the end, and seed + log replays them."""

from __future__ import annotations

import pytest
from tables_helpers import ENGINE, play_one, play_to_the_end, started_game

from games.chudopoly.engine import check_invariants
from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import Game, Table
from games.platform.scheduler import in_process_scheduler
from games.platform.tasks import bot_move

pytestmark = pytest.mark.django_db


def _replayed(game: Game) -> dict:
    actions = [(row.seat, row.action) for row in game.actions.order_by("version")]
    return ENGINE.replay(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed,
                         actions=actions)


@pytest.mark.parametrize(("preset", "bots"), [
    ("chudopoly", 1), ("mdFaithful", 2), ("blitz", 3), ("longGame", 1), ("chudopoly", 4),
])
def test_bots_play_a_whole_game_and_the_log_replays_it_exactly(
        alice: Viewer, preset: str, bots: int) -> None:
    game = started_game(alice, bots=bots, ruleset_spec={"preset": preset}, max_seats=5)
    game = play_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == ENGINE.result(game.state) is not None
    assert game.finished_at is not None and game.deadlines == {}
    assert Table.objects.get(pk=game.table_id).status == Table.Status.FINISHED
    assert game.version == game.actions.count()
    assert _replayed(game) == game.state
    check_invariants(game.state)


def test_a_restart_loses_nothing_the_state_comes_back_from_the_database(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    for _ in range(15):
        game = play_one(game)
    reloaded = Game.objects.get(pk=game.pk)
    assert reloaded.state == game.state and reloaded.version == game.version == 15
    assert _replayed(reloaded) == reloaded.state


def test_bot_seats_move_by_themselves_through_the_scheduler(alice: Viewer,
                                                           django_capture_on_commit_callbacks
                                                           ) -> None:
    runner = in_process_scheduler()
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(alice, bots=2, turn_seconds=0)
    human = next(s for s in game.players if not s["bot"])
    assert human["name"] == "Alice"
    # Run scheduled bot moves until the human owes the decision (or the game ends).
    for _ in range(500):
        game.refresh_from_db()
        owed = ENGINE.to_decide(game.state)
        if game.status == Game.Status.FINISHED or any(
                not game.players[s]["bot"] for s in owed):
            break
        # Response clocks also schedule their expiry; only the bot moves are run here.
        jobs = [(task, kwargs) for _when, task, kwargs in runner.pending()
                if task == "tables.bot_move"]
        runner.clear()
        assert jobs, "a bot owes a move but none was scheduled"
        with django_capture_on_commit_callbacks(execute=True):
            for _task, kwargs in jobs:
                bot_move(**kwargs)  # the task body, run here instead of on the thread
    game.refresh_from_db()
    owed = ENGINE.to_decide(game.state)
    assert game.status == Game.Status.FINISHED or any(not game.players[s]["bot"] for s in owed)
    if game.players[game.state["order"][0]]["bot"]:
        assert game.actions.filter(source="bot").exists()


def test_a_late_bot_task_for_an_old_version_does_nothing(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    turn = game.state["turn"]
    if not game.players[turn]["bot"]:
        game = services.table_apply_action(game_id=game.pk, seat=turn,
                                           action={"type": "end_turn"}, expected_version=0)
    bot_seat = ENGINE.to_decide(game.state)[0]
    assert services.game_bot_move(game_id=game.pk, seat=bot_seat, version=game.version + 7) \
        is None
    assert services.game_bot_move(game_id=game.pk, seat=bot_seat, version=game.version) \
        is not None
    assert services.game_bot_move(game_id=game.pk, seat=bot_seat, version=game.version) is None


def test_a_player_who_left_is_played_by_a_bot(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    services.seat_leave(table_id=game.table_id, viewer=alice)
    seat = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    game.refresh_from_db()
    if ENGINE.to_decide(game.state) == [seat]:
        moved = services.game_bot_move(game_id=game.pk, seat=seat, version=game.version)
        assert moved is not None
        assert moved.actions.get(version=0).source == "bot"


def test_the_watchdog_rearms_a_bot_move_that_was_lost(alice: Viewer) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.platform.tasks import bots_watchdog

    game = started_game(alice, bots=1)
    if not game.players[ENGINE.to_decide(game.state)[0]]["bot"]:
        game = services.table_apply_action(game_id=game.pk, seat=game.state["turn"],
                                           action={"type": "end_turn"}, expected_version=0)
    runner = in_process_scheduler()
    runner.clear()  # the scheduled move is "lost"
    assert bots_watchdog() == 0  # not idle long enough yet
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    assert bots_watchdog() == 1
    ((_, task, kwargs),) = runner.pending()
    assert task == "tables.bot_move" and kwargs["version"] == game.version
