"""Games nobody plays: the bots stop when every human is gone, the game closes as abandoned
(unrated) after a while, and one player keeps only a few bot games running at once."""

from __future__ import annotations

from typing import Any

import pytest
from clocks_helpers import ENGINE, act, run_due_jobs, seat_of, seat_row, started_game
from django.test import Client

from games.platform import clocks, services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table
from games.platform.scheduler import in_process_scheduler
from games.platform.tasks import bots_watchdog

pytestmark = pytest.mark.django_db


def _browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def _to_a_bots_decision(game: Game, human: int) -> Game:
    game.refresh_from_db()
    if human in ENGINE.to_decide(game.state):
        game = act(game, human, {"type": "end_turn"})
    return game


def _left(game: Game, viewer: Viewer) -> None:
    """The human leaves the running game (the Leave button)."""
    assert _browser(viewer).post(f"/t/{game.table.code}/leave/").status_code == 302
    assert seat_row(game, viewer).away


def test_when_the_only_human_leaves_the_bots_stop_playing(alice: Viewer, clock,
                                                         django_capture_on_commit_callbacks
                                                         ) -> None:
    game = started_game(alice, bots=3, turn_seconds=30)
    game = _to_a_bots_decision(game, seat_of(game, alice))
    in_process_scheduler().clear()
    with django_capture_on_commit_callbacks(execute=True):
        _left(game, alice)
    version = game.version
    (bot, *_) = ENGINE.to_decide(game.state)
    # No bot move is scheduled, a task already queued does nothing, and neither the watchdog
    # nor the clocks move the game on.
    assert services.schedule_bot_moves(game_id=game.pk) == 0
    assert services.game_bot_move(game_id=game.pk, seat=bot, version=version) is None
    clock.advance(120)
    run_due_jobs(clock.now())
    assert bots_watchdog(idle_seconds=0) == 0
    assert clocks.clocks_sweep() == 0
    game.refresh_from_db()
    assert game.version == version and game.status == Game.Status.RUNNING


def test_a_human_who_comes_back_gets_the_bots_playing_again(alice: Viewer, clock,
                                                           django_capture_on_commit_callbacks
                                                           ) -> None:
    game = started_game(alice, bots=3)
    game = _to_a_bots_decision(game, seat_of(game, alice))
    _left(game, alice)
    in_process_scheduler().clear()
    with django_capture_on_commit_callbacks(execute=True):
        clocks.seat_connected(table_id=game.table_id, viewer=alice)  # the page's socket opens
    assert not seat_row(game, alice).away
    assert [task for _, task, _ in in_process_scheduler().pending()] == ["tables.bot_move"]
    run_due_jobs(clock.now())
    version = game.version
    game.refresh_from_db()
    assert game.version > version


def test_a_game_nobody_plays_is_closed_as_abandoned_and_never_rated(
        django_user_model, clock) -> None:
    from ladder.models import GameRecord
    from ladder.services import ladder_record_finished_games

    user = django_user_model.objects.create_user(username="ann", password="pw-ann-123")
    ann = Viewer(user_id=user.pk, guest_key=None, username="ann")
    table = services.table_play_vs_bots(viewer=ann, name=None,
                                        levels=get_game("chudopoly").quick_play_levels())
    game = Game.objects.get(table=table)
    services.seat_leave(table_id=table.pk, viewer=ann)
    clock.advance(9 * 60)
    clocks.clocks_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING  # still waiting for its player
    clock.advance(2 * 60)
    clocks.clocks_sweep()
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.result is None
    assert table.status == Table.Status.CLOSED
    ladder_record_finished_games()
    assert not GameRecord.objects.filter(game=game).exists()
    # Its page still opens for the player, who sees no board to play on.
    page = _browser_user(user).get(f"/t/{table.code}/")
    assert page.status_code == 200 and 'id="table-closed"' in page.content.decode()


def _browser_user(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_game_with_a_human_still_there_is_never_closed(alice: Viewer, bob: Viewer,
                                                        clock) -> None:
    game = started_game(alice, (bob, "Bob"), bots=1, turn_seconds=0, response_seconds=0)
    _left(game, alice)
    clock.advance(60 * 60)
    clocks.clocks_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_a_fourth_bot_game_closes_the_players_oldest_and_says_so(client: Client,
                                                                settings) -> None:
    assert settings.BOT_GAMES_PER_PLAYER == 3
    codes = []
    for _ in range(3):
        response = client.post("/play/quick/")
        codes.append(response["Location"].strip("/").split("/")[-1])
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 3
    response = client.post("/play/quick/", follow=True)
    text = response.content.decode()
    assert f"Your oldest game against bots (table {codes[0]}) was closed" in text
    running = Game.objects.filter(status=Game.Status.RUNNING)
    assert running.count() == 3 and codes[0] not in {g.table.code for g in running}
    assert Game.objects.get(table__code=codes[0]).status == Game.Status.ABANDONED
    # Another player's bot games are theirs: nothing of this player's is touched.
    Client().post("/play/quick/")
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 4


def test_a_game_with_two_humans_is_not_a_bot_game_for_the_cap(alice: Viewer, bob: Viewer
                                                             ) -> None:
    started_game(alice, (bob, "Bob"), bots=1)
    for _ in range(3):
        services.table_play_vs_bots(viewer=alice, name="Alice", levels=["easy"])
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 4
    assert Seat.objects.filter(is_bot=False, table__games__status="running").count() == 5
