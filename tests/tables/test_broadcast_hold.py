"""A mover's socket holds the table's update until it has pushed its own board."""

from __future__ import annotations

from typing import Any

import pytest

from games.platform import broadcast


@pytest.fixture
def delivered(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    # What reaches the channel layer (the socket tests cover the layer itself).
    out: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "_deliver", lambda code, message: out.append((code, message)))
    return out


def test_updates_sent_inside_the_block_reach_the_table_only_when_it_ends(
        delivered: list[tuple[str, dict[str, Any]]]) -> None:
    with broadcast.held_updates() as held:
        broadcast._send("HOLD1", broadcast._update(3))
        assert delivered == []
        assert [(code, m["version"]) for code, m in held] == [("HOLD1", 3)]
    assert delivered == held


def test_held_updates_are_sent_even_when_the_block_fails(
        delivered: list[tuple[str, dict[str, Any]]]) -> None:
    with pytest.raises(RuntimeError), broadcast.held_updates():
        broadcast._send("HOLD2", broadcast._update(None))
        raise RuntimeError("the push failed")
    assert len(delivered) == 1
    broadcast._send("HOLD2", broadcast._update(4))  # outside a block: straight through
    assert [m["version"] for _, m in delivered] == [None, 4]


def test_each_update_has_its_own_token() -> None:
    assert broadcast._update(1)["token"] != broadcast._update(1)["token"]


def test_a_moves_scheduled_work_runs_after_the_held_updates_are_sent(
        delivered: list[tuple[str, dict[str, Any]]]) -> None:
    ran: list[str] = []
    with broadcast.held_updates():
        broadcast._send("HOLD3", broadcast._update(5))
        broadcast.after_push(lambda: ran.append(f"scheduled after {len(delivered)} sent"))
        assert ran == []  # the mover's push comes first
    assert ran == ["scheduled after 1 sent"]
    broadcast.after_push(lambda: ran.append("at once"))  # outside a block: straight through
    assert ran[-1] == "at once"


@pytest.mark.django_db(transaction=True)
def test_the_bot_task_of_a_move_is_published_only_once_the_block_ends_and_no_clock_task_is(
        monkeypatch: pytest.MonkeyPatch, delivered: list[tuple[str, dict[str, Any]]]) -> None:
    from tables_helpers import ENGINE, started_game

    from games.platform import scheduler, services
    from games.platform.identity import Viewer

    published: list[str] = []
    monkeypatch.setattr(scheduler, "run_at",
                        lambda when, task, **kw: published.append(task))
    game = started_game(Viewer(user_id=None, guest_key="hold-alice-000000000000000"), bots=1)
    (bot,) = [seat for seat, player in enumerate(game.players) if player["bot"]]
    if ENGINE.to_decide(game.state) == [bot]:  # who starts is dealt at random: the human, then
        game = services.table_move(game_id=game.pk, seat=bot, action={"type": "end_turn"},
                                   expected_version=game.version).game
    published.clear()
    (seat,) = ENGINE.to_decide(game.state)
    assert seat != bot
    with broadcast.held_updates():
        services.table_move(game_id=game.pk, seat=seat, action={"type": "end_turn"},
                            expected_version=game.version)
        assert published == []
    # The bot owes the next move; the clocks need no task (the due-clock sweep finds them).
    assert published == ["tables.bot_move"]


def test_a_socket_can_take_the_held_messages_itself(
        delivered: list[tuple[str, dict[str, Any]]]) -> None:
    # The mover's socket hands them to its event loop without waiting (consumers.py).
    mine: list[str] = []
    with broadcast.held_updates(deliver=lambda code, message: mine.append(code)):
        broadcast._send("HOLD4", broadcast._update(6))
    assert mine == ["HOLD4"] and delivered == []
