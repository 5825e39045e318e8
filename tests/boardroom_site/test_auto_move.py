"""Auto move (the guide's "Auto move and saving"): the toggle by the dice rolls and ends the
player's eligible turns on the workers, uses a release card under audit before rolling, never
buys, bids, pays debts or answers trades; any move in the meantime cancels the one scheduled;
the toggle is kept on the seat, so a restart (the watchdog) arms it again."""

from __future__ import annotations

from typing import Any

import pytest
from board_clock_helpers import act, online, position, run_due, seat_of, sources, vs_bots

from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import Game, Seat
from games.platform.scheduler import in_process_scheduler
from games.platform.services import TableError

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _auto_moves_at_once(settings: Any) -> None:
    settings.AUTO_MOVE_SECONDS = 0


def auto_tasks() -> list[dict[str, Any]]:
    return [kw for _, task, kw in in_process_scheduler().pending() if task == "tables.auto_move"]


def toggle(game: Game, viewer: Viewer, on: bool) -> None:
    services.seat_auto_move_set(table_id=game.table_id, viewer=viewer, on=on)


def test_turning_it_on_rolls_for_the_player_on_the_workers(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(1, 2)], phase="roll", pos={me: 6})
    in_process_scheduler().clear()
    toggle(game, alice, True)
    assert [t["seat"] for t in auto_tasks()] == [me]
    run_due()
    game.refresh_from_db()
    assert sources(game)[0] == ("auto", "roll")
    assert Seat.objects.get(table_id=game.table_id, guest_key=alice.guest_key).auto_move


def test_it_ends_an_eligible_turn(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="act")
    in_process_scheduler().clear()
    toggle(game, alice, True)
    run_due()
    game.refresh_from_db()
    assert ("auto", "end_turn") in sources(game)


def test_under_audit_it_uses_a_release_card_before_rolling(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll", audit={me: 0}, releases={me: [4]})
    in_process_scheduler().clear()
    toggle(game, alice, True)
    run_due()
    game.refresh_from_db()
    assert sources(game)[0] == ("auto", "use_release")


def test_it_never_decides_a_purchase(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(1, 2)], phase="roll", pos={me: 0})
    in_process_scheduler().clear()
    toggle(game, alice, True)
    run_due()
    game.refresh_from_db()
    assert game.state["phase"] == "buy" and game.state["turn"] == me
    assert auto_tasks() == []  # buying or declining is the player's call
    assert sources(game) == [("auto", "roll")]


def test_a_button_pressed_meanwhile_cancels_the_scheduled_move(alice: Viewer,
                                                              settings: Any) -> None:
    settings.AUTO_MOVE_SECONDS = 60  # scheduled, not yet due
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(1, 2)], phase="roll", pos={me: 0})
    in_process_scheduler().clear()
    toggle(game, alice, True)
    scheduled = auto_tasks()
    game = act(game, me, {"type": "roll"})  # the player pressed Roll themselves
    assert services.game_auto_move(**scheduled[0]) is None
    game.refresh_from_db()
    assert sources(game) == [("player", "roll")]


def test_turned_off_nothing_more_is_played(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll")
    in_process_scheduler().clear()
    toggle(game, alice, True)
    toggle(game, alice, False)
    run_due()
    game.refresh_from_db()
    assert sources(game) == []


def test_the_watchdog_arms_it_again_after_a_restart(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll")
    Seat.objects.filter(table_id=game.table_id, is_bot=False).update(auto_move=True)
    in_process_scheduler().clear()  # the scheduled work was lost
    assert services.schedule_bot_moves(game_id=game.pk) == 1
    assert [t["seat"] for t in auto_tasks()] == [me]


def test_it_never_plays_for_another_seat(alice: Viewer, bob: Viewer) -> None:
    game = online(alice, (bob, "Bob"))
    mine = seat_of(game, alice)
    game = position(game, turn=1 - mine, phase="roll")
    in_process_scheduler().clear()
    toggle(game, alice, True)
    assert auto_tasks() == []


def test_a_game_without_auto_move_refuses_the_toggle(alice: Viewer) -> None:
    table = services.table_play_vs_bots(viewer=alice, name="Alice", levels=["easy"],
                                        game_kind="chudopoly")
    with pytest.raises(TableError) as refused:
        services.seat_auto_move_set(table_id=table.pk, viewer=alice, on=True)
    assert refused.value.code == "no_auto_move"


def test_a_watcher_has_no_toggle_to_turn(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    with pytest.raises(TableError) as refused:
        toggle(game, bob, True)
    assert refused.value.code == "no_seat"


def test_a_new_game_at_the_table_starts_with_it_off(alice: Viewer) -> None:
    game = vs_bots(alice)
    toggle(game, alice, True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.table.status = "finished"
    game.table.save(update_fields=["status"])
    services.game_rematch(table_id=game.table_id, viewer=alice)
    assert not Seat.objects.get(table_id=game.table_id, is_bot=False).auto_move
