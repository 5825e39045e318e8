"""Commonwealth at a table against bots, over the table socket: the same consumer, services and
scheduler as the other games, the board drawn by Commonwealth's own partials. Bad input on its
actions (a bid off the step, a deal paid from the Fund, an answer from the wrong seat, a forged
seat, a stale or repeated move, a malformed deal) changes nothing and says why."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from commonwealth_site_helpers import (
    ENGINE,
    answered,
    connect,
    error_code,
    error_text,
    first_frames,
    frames,
    newest_version,
    seat_named,
    send,
    showing,
    vs_bots,
)
from django.utils import timezone

from games.commonwealth.engine import scenario
from games.platform.identity import Viewer
from games.platform.models import Game
from games.platform.scheduler import in_process_scheduler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def start(viewer: Viewer, levels: list[str] | None = None) -> Game:
    return vs_bots(viewer, levels)


@database_sync_to_async
def reload(game: Game) -> Game:
    game.refresh_from_db()
    return game


@database_sync_to_async
def set_state(game: Game, state: dict) -> Game:
    """Put the game in a hand-built position (same seats and version as the table's)."""
    state["version"] = game.state["version"]
    # Stamped ahead: a real worker an earlier test left running (CI) re-arms the bots of a game
    # idle for 5 s (tables.bots_watchdog), which would move this hand-built one mid-test.
    game.state, game.updated_at = state, timezone.now() + timedelta(minutes=10)
    Game.objects.filter(pk=game.pk).update(state=game.state, updated_at=game.updated_at)
    return game


@database_sync_to_async
def run_bots() -> int:
    return in_process_scheduler().run_due()


async def _refused(comm, game: Game, action, **fields) -> str:
    before = (game.version, game.state)
    await send(comm, action, game.version, **fields)
    got = "\n".join(await frames(comm))
    after = await reload(game)
    assert (after.version, after.state) == before
    return got


async def test_the_board_shows_every_space_seat_the_fund_and_the_dice_on_connect(
        alice: Viewer) -> None:
    game = await start(alice)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    for element in ('id="status"', 'id="players"', 'id="decision"', 'id="hand"', 'id="log"',
                    'id="cw-board"', 'id="dice"', 'id="fund"', 'id="inspect"'):
        assert element in first
    assert len(re.findall(r'class="cw-space ', first)) == 40
    assert len(re.findall(r'class="cw-seat[ "]', first)) == 4
    assert 'data-fund="1848"' in first
    await comm.disconnect()


async def test_legal_moves_over_the_socket_update_every_seats_board(
        alice: Viewer, bob: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    a = await connect(game.table.code, alice)
    watcher = await connect(game.table.code, bob)  # a spectator sees the same moves
    await first_frames(a)
    await first_frames(watcher)
    moves = 0
    for _ in range(80):
        game = await reload(game)
        if game.status != Game.Status.RUNNING or moves >= 5:
            break
        if me not in ENGINE.to_decide(game.state):
            await run_bots()
            # What the bots did is waited for, up to its newest version: read in a fixed 0.1 s
            # window, a late push ran into the next move's frames on a loaded machine.
            moved = (await reload(game)).version
            until = showing(moved) if moved != game.version else None
            await frames(a, 0.1, until=until)
            await frames(watcher, 0.1, until=until)
            continue
        action = ENGINE.bot_action(ENGINE.view(game.state, me), "medium")
        await send(a, action, game.version)
        got = "\n".join(await frames(a, until=answered))
        seen = "\n".join(await frames(watcher, until=showing(game.version + 1)))
        assert error_code(got) == "ok", error_text(got)
        assert newest_version(got) == game.version + 1
        assert newest_version(seen) == game.version + 1
        moves += 1
    assert moves >= 3
    await a.disconnect()
    await watcher.disconnect()


def _auction(me: int, game: Game) -> dict:
    """The next seat sent Union Hall to auction; Alice bids first."""
    n = game.seat_count
    sender = (me - 1) % n
    st = scenario(seats=n, turn=sender, pos={sender: 23})
    st["step"] = {"kind": "auction", "project": 9, "sender": sender, "high": 0,
                  "leader": None, "to_act": me,
                  "bidders": [(sender + i) % n for i in range(1, n)]}
    return st


async def test_a_bid_off_the_step_below_the_opening_or_out_of_turn_changes_nothing(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _auction(me, game))
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'id="amount-form"' in first and 'id="auction"' in first
    got = await _refused(comm, game, {"type": "bid", "amount": 7})
    assert error_code(got) == "illegal" and "steps of 5" in error_text(got)
    got = await _refused(comm, game, {"type": "bid", "amount": 0})
    assert "at least 5" in error_text(got)
    got = await _refused(comm, game, {"type": "bid", "amount": 99995})
    assert "could not pay that much" in error_text(got)
    await send(comm, {"type": "bid", "amount": 15}, game.version)
    assert error_code("\n".join(await frames(comm))) == "ok"
    game = await reload(game)
    got = await _refused(comm, game, {"type": "bid", "amount": 50})
    assert error_code(got) == "not_your_turn"
    await comm.disconnect()


async def test_a_stale_a_repeated_and_a_forged_move_change_nothing(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _auction(me, game))
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    await send(comm, {"type": "bid", "amount": 15}, game.version)
    assert error_code("\n".join(await frames(comm))) == "ok"
    old_version = game.version
    game = await reload(game)
    await send(comm, {"type": "bid", "amount": 15}, old_version)  # the same frame again
    assert error_code("\n".join(await frames(comm))) in ("duplicate", "stale")
    rival = next(s for s in range(game.seat_count) if s != me)
    got = await _refused(comm, game, {"type": "pass"}, seat=str(rival))
    assert error_code(got) == "forged"
    await comm.disconnect()


async def test_a_deal_paid_from_the_fund_or_malformed_is_refused_and_a_fair_one_reaches_the_bot(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    rival = (me + 1) % game.seat_count
    # Alice waits for another seat's decision: deals are offered at any time.
    st = scenario(seats=game.seat_count, turn=rival, cash={me: 40}, managers={0: me, 1: rival},
                  pos={rival: 3})
    st["step"] = {"kind": "chip", "project": 1}
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'class="cw-deal-form cw-compose"' in first and me not in ENGINE.to_decide(st)
    offer = {"type": "offer", "to": rival, "give": {"cash": 500}, "get": {"projects": [1]}}
    got = await _refused(comm, game, offer)
    assert error_code(got) == "illegal" and "never the Fund" in error_text(got)
    got = await _refused(comm, game, {**offer, "give": {"cash": 10, "rent": 5}})
    assert error_code(got) == "malformed"
    got = await _refused(comm, game, {**offer, "get": "Union Hall"})
    assert error_code(got) == "malformed"
    await send(comm, {**offer, "give": {"cash": 40}}, game.version)
    assert error_code("\n".join(await frames(comm))) == "ok"
    game = await reload(game)
    assert game.state["deal"]["to"] == rival
    # Only the recipient answers; the proposer may withdraw.
    got = await _refused(comm, game, {"type": "accept"})
    assert error_code(got) in ("illegal", "not_your_turn")
    await run_bots()
    game = await reload(game)
    assert game.state["deal"] is None
    await comm.disconnect()


async def test_a_donation_below_five_or_above_your_cash_is_refused(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    st = scenario(seats=game.seat_count, turn=me, cash={s: 50 for s in range(game.seat_count)})
    st["step"] = {"kind": "donate", "owed": list(range(game.seat_count))}
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'id="amount-form"' in first
    got = await _refused(comm, game, {"type": "donate", "amount": 4})
    assert "at least 5" in error_text(got)
    got = await _refused(comm, game, {"type": "donate", "amount": 51})
    assert "more than you have" in error_text(got)
    got = await _refused(comm, game, {"type": "donate", "amount": "five"})
    assert error_code(got) == "malformed"
    await send(comm, {"type": "donate", "amount": 12}, game.version)
    assert error_code("\n".join(await frames(comm))) == "ok"
    await comm.disconnect()
