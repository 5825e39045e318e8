"""Three expiries in a row, leaving, or a long disconnect: a medium bot plays the seat until its
owner comes back from their browser."""

from __future__ import annotations

from typing import Any

import pytest
from clocks_helpers import (
    ENGINE,
    act,
    clock_actions,
    end_turn,
    run_due_jobs,
    seat_of,
    seat_row,
    started_game,
)
from django.test import Client

from games.platform import clocks
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game, GameAction
from games.platform.scheduler import in_process_scheduler

pytestmark = pytest.mark.django_db


def _expire_turn(game: Game, clock) -> Game:
    clock.advance(61)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()
    return game


def _to_turn_of(game: Game, seat: int, other: int) -> Game:
    """The other human ends their turn(s) until it is `seat`'s turn."""
    game.refresh_from_db()
    while game.state["turn"] != seat:
        game = end_turn(game, other)
    return game


def test_three_expiries_in_a_row_hand_the_seat_to_a_medium_bot_until_the_owner_returns(
        alice: Viewer, bob: Viewer, clock, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    for expiry in (1, 2, 3):
        game = _to_turn_of(game, a, b)
        assert not seat_row(game, alice).away
        game = _expire_turn(game, clock)
        assert game.timeouts.get(str(a), 0) == (expiry % 3)  # the run restarts at takeover
    seat = seat_row(game, alice)
    assert seat.away and seat.away_reason == "timeouts"

    # Bob ends his turn: the bot plays Alice's, at the medium level.
    levels: list[str] = []
    import games.chudopoly.bots

    real = games.chudopoly.bots.choose_action

    def spy(view: dict[str, Any], *, level: str = "basic", **kw: Any) -> dict[str, Any]:
        levels.append(level)
        return real(view, level=level, **kw)

    monkeypatch.setattr(games.chudopoly.bots, "choose_action", spy)
    in_process_scheduler().clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = end_turn(game, b)
    with django_capture_on_commit_callbacks(execute=True):
        run_due_jobs(clock.now())
    assert levels and set(levels) == {"medium"}
    assert GameAction.objects.filter(game=game, seat=a, source="bot").exists()

    # Alice's browser opens the table again: the seat is hers.
    clocks.seat_connected(table_id=game.table_id, viewer=alice)
    seat.refresh_from_db()
    assert not seat.away and seat.away_reason == ""


def test_a_decision_of_your_own_ends_the_run_of_expiries(alice: Viewer, bob: Viewer,
                                                        clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    for _ in range(2):
        game = _expire_turn(_to_turn_of(game, a, b), clock)
    assert game.timeouts[str(a)] == 2
    game = end_turn(_to_turn_of(game, a, b), a)  # Alice plays for herself
    assert str(a) not in game.timeouts
    game = _expire_turn(_to_turn_of(game, a, b), clock)
    assert game.timeouts[str(a)] == 1 and not seat_row(game, alice).away


def test_the_clock_never_counts_against_a_bot_seat(alice: Viewer, clock) -> None:
    game = started_game(alice, bots=1, turn_seconds=30)
    bot = next(i for i, p in enumerate(game.players) if p["bot"])
    for _ in range(4):
        game.refresh_from_db()
        if bot not in ENGINE.to_decide(game.state):
            game = end_turn(game, game.state["turn"])
        game = _expire_turn(game, clock)
    assert str(bot) not in game.timeouts
    assert {x.seat for x in clock_actions(game)} == {bot}


def _browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def test_the_take_my_seat_back_button_returns_the_seat(alice: Viewer, bob: Viewer,
                                                      clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    a, b = seat_of(game, alice), seat_of(game, bob)
    for _ in range(3):
        game = _expire_turn(_to_turn_of(game, a, b), clock)
    client = _browser(alice)
    page = client.get(f"/t/{game.table.code}/").content.decode()
    assert "Take my seat back" in page and "timed out" in page
    response = client.post(f"/t/{game.table.code}/return/")
    assert response.status_code == 302
    assert not seat_row(game, alice).away
    assert "Take my seat back" not in client.get(f"/t/{game.table.code}/").content.decode()


def test_leaving_a_running_game_goes_home_and_the_invite_link_brings_you_back(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    client = _browser(alice)
    response = client.post(f"/t/{game.table.code}/leave/")
    assert response.status_code == 302 and response["Location"] == "/"
    seat = seat_row(game, alice)
    assert seat.away and seat.away_reason == "left"
    clocks.seat_connected(table_id=game.table_id, viewer=alice)  # the table page's socket
    seat.refresh_from_db()
    assert not seat.away


def test_a_player_disconnected_past_the_grace_is_replaced_until_they_reconnect(
        alice: Viewer, bob: Viewer, clock, django_capture_on_commit_callbacks) -> None:
    game = started_game(alice, (bob, "Bob"))
    clocks.seat_connected(table_id=game.table_id, viewer=alice)
    in_process_scheduler().clear()
    with django_capture_on_commit_callbacks(execute=True):
        clocks.seat_disconnected(table_id=game.table_id, viewer=alice)
    ((when, task, _),) = in_process_scheduler().pending()
    assert task == "tables.seat_grace_check"
    assert (when - clock.now()).total_seconds() == pytest.approx(30, abs=1)

    clock.advance(20)
    assert clocks.clocks_sweep() == 0  # still within the grace
    clock.advance(11)
    with django_capture_on_commit_callbacks(execute=True):
        assert run_due_jobs(clock.now()) == 1
    seat = seat_row(game, alice)
    assert seat.away and seat.away_reason == "disconnected"

    clocks.seat_connected(table_id=game.table_id, viewer=alice)
    seat.refresh_from_db()
    assert not seat.away and seat.connections == 1


def test_a_quick_reload_or_a_second_tab_is_no_disconnect(alice: Viewer, bob: Viewer,
                                                        clock) -> None:
    game = started_game(alice, (bob, "Bob"), turn_seconds=300)
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="tab-1")
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="tab-2")  # a second tab
    clocks.seat_disconnected(table_id=game.table_id, viewer=alice, channel="tab-1")
    for _ in range(3):  # the open tab checks in while it stays open
        clock.advance(20)
        clocks.sockets_checked_in(["tab-2"])
    assert clocks.clocks_sweep() == 0
    stamp = seat_row(game, alice).disconnected_at
    assert stamp is None

    clocks.seat_disconnected(table_id=game.table_id, viewer=alice, channel="tab-2")
    since = seat_row(game, alice).disconnected_at.isoformat()
    clock.advance(5)
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="tab-3")  # the reload
    clock.advance(30)
    clocks.sockets_checked_in(["tab-3"])
    clock.advance(30)
    assert clocks.seat_takeover_if_gone(seat_id=seat_row(game, alice).pk, since=since) is False
    assert clocks.clocks_sweep() == 0
    assert not seat_row(game, alice).away


def test_the_sweep_takes_over_a_disconnected_seat_whose_grace_task_was_lost(
        alice: Viewer, bob: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"))
    clocks.seat_connected(table_id=game.table_id, viewer=alice)
    clocks.seat_disconnected(table_id=game.table_id, viewer=alice)
    in_process_scheduler().clear()
    clock.advance(31)
    assert clocks.clocks_sweep() == 1
    assert seat_row(game, alice).away_reason == "disconnected"
    assert clocks.clocks_sweep() == 0


def test_a_seat_taken_over_in_a_ranked_game_takes_last_place(
        django_user_model, clock) -> None:
    from ladder import services as ladder
    from ladder.models import PlayerResult, QueueTicket

    viewers = []
    for name in ("ann", "ben", "cat"):
        user = django_user_model.objects.create_user(username=name, password="pw-" + name)
        viewers.append(Viewer(user_id=user.pk, guest_key=None, username=name))
    ann, ben, cat = viewers
    for v in viewers:
        ticket = ladder.queue_join(viewer=v, preset="chudopoly", seats=3, ranked=True,
                                   name=v.username)
        QueueTicket.objects.filter(pk=ticket.pk).update(sockets=1)
    (match,) = ladder.queue_pair()
    for t in match.tickets.all():
        ladder.match_arrive(ticket_id=t.pk, viewer=next(v for v in viewers
                                                        if v.user_id == t.user_id))
    game = match.table.games.get()
    c = seat_of(game, cat)
    # Cat lets three turns run out; the bot plays on for her.
    for _ in range(3):
        game.refresh_from_db()
        while game.state["turn"] != c:
            game = end_turn(game, game.state["turn"])
        game = _expire_turn(game, clock)
    assert seat_row(game, cat).away
    # Ann and Ben scoop: cat's seat (played by the bot) is the engine's winner...
    from games.chudopoly.bots import choose_action
    from games.platform import services

    for v in (ann, ben):
        mine = seat_of(game, v)
        game.refresh_from_db()
        while mine not in ENGINE.to_decide(game.state):
            seat = ENGINE.to_decide(game.state)[0]
            if seat == c:
                services.game_bot_move(game_id=game.pk, seat=c, version=game.version)
            else:
                options = [choose_action(ENGINE.view(game.state, seat)),
                           *ENGINE.legal_actions(game.state, seat)]
                action = next(a for a in options if a["type"] != "scoop")
                act(game, seat, action)
            game.refresh_from_db()
        game = act(game, mine, {"type": "scoop"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["placements"][0] == c
    # ...but in a ranked game a seat its owner left takes last place.
    result = PlayerResult.objects.get(record__game=game, user_id=cat.user_id)
    assert result.left and result.placement == 3


def test_a_socket_whose_web_process_died_stops_counting_and_the_bot_takes_over(
        alice: Viewer, bob: Viewer, clock, django_capture_on_commit_callbacks) -> None:
    """kill -9 of a web process closes no socket: nothing calls seat_disconnected. The socket
    stops checking in, and the sweep drops it and starts the grace from when it was last seen."""
    game = started_game(alice, (bob, "Bob"), turn_seconds=300)
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="killed-process")
    clock.advance(clocks.SOCKET_STALE_SECONDS - 1)
    assert clocks.clocks_sweep() == 0
    assert seat_row(game, alice).connections == 1  # not stale yet
    clock.advance(2)
    with django_capture_on_commit_callbacks(execute=True):
        clocks.clocks_sweep()
    seat = seat_row(game, alice)
    # Last seen over a grace period ago: the seat goes to the bot at once.
    assert seat.connections == 0 and seat.away and seat.away_reason == "disconnected"


def test_a_socket_that_keeps_checking_in_is_never_dropped(alice: Viewer, bob: Viewer,
                                                           clock) -> None:
    game = started_game(alice, (bob, "Bob"), turn_seconds=300)
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="alive")
    for _ in range(10):
        clock.advance(clocks.SOCKET_CHECK_IN_SECONDS)
        clocks.sockets_checked_in(["alive"])
        assert clocks.clocks_sweep() == 0
    seat = seat_row(game, alice)
    assert seat.connections == 1 and not seat.away
