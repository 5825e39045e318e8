"""Boardroom at a table against bots, over the table socket: the same consumer, services and
scheduler as Chudopoly's, the board drawn by Boardroom's own partials."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from boardroom_site_helpers import (
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
from channels.db import database_sync_to_async
from django.utils import timezone

from games.boardroom.engine import scenario
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
    """Put the game in a hand-built position (same seats, version and bots as the table's)."""
    # Stamped ahead: a real worker an earlier test left running (CI) re-arms the bots of a game
    # idle for 5 s (tables.bots_watchdog), which would move this hand-built one mid-test.
    game.state, game.updated_at = state, timezone.now() + timedelta(minutes=10)
    Game.objects.filter(pk=game.pk).update(state=game.state, updated_at=game.updated_at)
    return game


@database_sync_to_async
def run_bots() -> int:
    return in_process_scheduler().run_due()


async def test_against_bots_the_human_moves_first_and_the_bots_are_known_to_the_engine(
        alice: Viewer) -> None:
    game = await start(alice, ["easy", "medium", "medium", "easy", "medium"])
    me = seat_named(game, "Alice")
    assert game.state["order"][0] == me and game.state["turn"] == me
    assert game.state["bots"] == [i != me for i in range(6)]
    assert game.ruleset["bots"] == game.state["bots"]  # a replay deals the same game


async def test_the_board_shows_every_tile_seat_and_the_dice_on_connect(alice: Viewer) -> None:
    game = await start(alice)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    for element in ('id="status"', 'id="players"', 'id="decision"', 'id="hand"', 'id="log"',
                    'id="br-board"', 'id="dice"', 'id="inspect"'):
        assert element in first
    assert len(re.findall(r'class="br-tile ', first)) == 40
    assert len(re.findall(r'class="br-seat[ "]', first)) == 4
    assert first.count("1500") >= 4  # every seat's cash
    assert 'id="roll"' in first  # the human moves first
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
    for _ in range(60):
        game = await reload(game)
        if game.status != Game.Status.RUNNING or moves >= 6:
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
        legal = ENGINE.legal_actions(game.state, me)
        pick = next((x for x in legal if x["type"] in ("roll", "buy", "end_turn", "pass",
                                                       "bid")), legal[-1])
        await send(a, pick, game.version)
        got = "\n".join(await frames(a, until=answered))
        seen = "\n".join(await frames(watcher, until=showing(game.version + 1)))
        assert error_code(got) == "ok", error_text(got)
        assert newest_version(got) == game.version + 1
        assert newest_version(seen) == game.version + 1
        moves += 1
    assert moves >= 3
    await a.disconnect()
    await watcher.disconnect()


def _auction_position(me: int, game: Game) -> dict:
    """Alice declined Noodle Cart: a bank auction runs, Alice bids first."""
    st = scenario(seats=4, order=game.state["order"], bots=game.state["bots"], turn=me,
                  phase="buy", pos={me: 1})
    return ENGINE.apply(st, me, {"type": "decline", "tile": 1}).state


async def _refused(comm, game: Game, action, **fields) -> str:
    before = (game.version, game.state)
    await send(comm, action, game.version, **fields)
    got = "\n".join(await frames(comm))
    after = await reload(game)
    assert (after.version, after.state) == before
    return got


async def test_a_bid_below_the_step_or_after_passing_or_out_of_turn_changes_nothing(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _auction_position(me, game))
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    assert game.state["auction"]["at"] == me
    got = await _refused(comm, game, {"type": "bid", "amount": 44})
    assert error_code(got) == "illegal"
    assert "The next bid is exactly 45" in error_text(got)
    # A legal bid, then the bots (out of turn for Alice while they decide).
    await send(comm, {"type": "bid", "amount": 45}, game.version)
    assert error_code("\n".join(await frames(comm))) == "ok"
    game = await reload(game)
    got = await _refused(comm, game, {"type": "bid", "amount": 55})
    assert error_code(got) == "not_your_turn"
    await comm.disconnect()


async def test_a_bid_after_passing_is_refused(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    st = _auction_position(me, game)
    st = ENGINE.apply(st, me, {"type": "pass"}).state
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    got = await _refused(comm, game, {"type": "bid", "amount": 45})
    assert error_code(got) == "not_your_turn"
    assert error_text(got)
    await comm.disconnect()


async def test_building_off_your_tile_is_refused_with_a_reason(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    st = scenario(seats=4, order=game.state["order"], bots=game.state["bots"], turn=me,
                  phase="act", pos={me: 3}, owners={1: me, 3: me, 4: me})
    st["dice"] = [1, 2]
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'id="build"' in first  # on its own tile the branch is offered
    got = await _refused(comm, game, {"type": "build", "tile": 1})
    assert error_code(got) == "illegal"
    assert "only expand the business your token stands on" in error_text(got)
    await comm.disconnect()


async def test_a_player_cannot_send_the_clocks_own_actions(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _auction_position(me, game))
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    got = await _refused(comm, game, {"type": "lot_expired"})
    assert error_code(got) == "illegal"
    got = await _refused(comm, game, {"type": "lot_expired", "clock": True})
    assert error_code(got) == "malformed"
    await comm.disconnect()


def _trade_position(me: int, game: Game) -> dict:
    """Alice has rolled; the next bot holds River Port, Alice holds Noodle Cart."""
    rival = next(s for s in game.state["order"] if s != me)
    st = scenario(seats=4, order=game.state["order"], bots=game.state["bots"], turn=me,
                  phase="act", pos={me: 7}, owners={15: rival, 1: me})
    st["dice"] = [3, 4]
    return st


async def test_a_trade_over_the_money_limit_is_refused_and_a_fair_one_reaches_the_bot(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _trade_position(me, game))
    rival = game.state["owner"][15]
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'class="br-trade-form swap-form"' in first
    swap = {"type": "propose", "kind": "swap", "to": rival}
    # The form sends the choices as fields: their tile, none of mine (""), the cash.
    got = await _refused(comm, game, swap, take="15", give="", cash="99999")
    assert error_code(got) == "illegal"
    assert "You do not have that much cash" in error_text(got)
    got = await _refused(comm, game, {"type": "propose", "kind": "sell", "to": rival},
                         give="1", cash="10")
    assert "no less than the bank would pay (30)" in error_text(got)
    await send(comm, swap, game.version, take="15", give="", cash="250")
    assert error_code("\n".join(await frames(comm))) == "ok"
    game = await reload(game)
    assert game.state["offer"]["to"] == rival and game.state["offer"]["give"] is None
    await run_bots()  # the bot answers at once
    game = await reload(game)
    assert game.state["offer"] is None
    await comm.disconnect()


async def test_building_unevenly_or_closing_unevenly_is_refused_with_a_reason(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    # Alice stands on Noodle Cart, which has a branch while its industry's others have none.
    st = scenario(seats=4, order=game.state["order"], bots=game.state["bots"], turn=me,
                  phase="act", pos={me: 1}, owners={1: me, 3: me, 4: me}, levels={1: 1})
    st["dice"] = [1, 2]
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    got = await _refused(comm, game, {"type": "build", "tile": 1})
    assert error_code(got) == "illegal"
    assert "Build evenly" in error_text(got)
    st["level"] = [0] * 40
    st["level"][3], st["level"][4] = 1, 2
    st["stock"][0] -= 2
    game = await set_state(game, st)
    got = await _refused(comm, game, {"type": "close", "tile": 3})
    assert "Close evenly" in error_text(got)
    await comm.disconnect()


async def test_a_sale_for_more_than_the_buyer_has_or_a_lot_off_the_step_is_refused(
        alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    game = await set_state(game, _trade_position(me, game))
    rival = game.state["owner"][15]
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    got = await _refused(comm, game, {"type": "propose", "kind": "sell", "to": rival},
                         give="1", cash="1501")
    assert error_code(got) == "illegal"
    assert "They do not have that much cash" in error_text(got)
    got = await _refused(comm, game, {"type": "auction_own", "tile": 1}, start="35")
    assert "steps of 10" in error_text(got)
    got = await _refused(comm, game, {"type": "auction_own", "tile": 1}, start="20")
    assert "cannot be lower than the bank's buyback (30)" in error_text(got).replace("&#x27;", "'")
    await comm.disconnect()


async def test_answering_an_offer_made_to_someone_else_is_refused(alice: Viewer) -> None:
    game = await start(alice)
    me = seat_named(game, "Alice")
    st = _trade_position(me, game)
    rival = st["owner"][15]
    st = ENGINE.apply(st, me, {"type": "propose", "kind": "swap", "to": rival, "take": 15,
                               "give": None, "cash": 250}).state
    game = await set_state(game, st)
    comm = await connect(game.table.code, alice)
    await first_frames(comm)
    got = await _refused(comm, game, {"type": "answer", "accept": True})
    assert error_code(got) == "not_your_turn"
    await comm.disconnect()
