"""A move's group message goes out only when something besides the table's sockets in this
process listens: a socket in another web process or an API stream, each of which says so as
it joins the group, whichever joins first (games/platform/table_sockets.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from tables_helpers import ENGINE
from test_table_socket import connect, frames, mover_other_and_watcher, owner, start, version_in

from games.platform import broadcast
from games.platform.broadcast import LISTENING, group_name
from games.platform.identity import Viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def updates_sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every table update sent to a group."""
    sent: list[dict[str, Any]] = []
    group_send = InMemoryChannelLayer.group_send

    async def recorded(layer: Any, group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "table.update":
            sent.append(message)
        await group_send(layer, group, message)

    monkeypatch.setattr(InMemoryChannelLayer, "group_send", recorded)
    return sent


def _move(action: dict[str, Any], version: int) -> str:
    return json.dumps({"kind": "act", "action": json.dumps(action),
                       "expected_version": str(version)})


class Elsewhere:
    """A listener in another web process, as the table's group sees it: a channel of its own
    in the group that says it joined as another process's socket would."""

    def __init__(self, code: str) -> None:
        self.layer = get_channel_layer()
        self.group = group_name(code)
        self.channel = ""

    async def join(self) -> None:
        self.channel = await self.layer.new_channel("elsewhere.")
        await self.layer.group_add(self.group, self.channel)
        await self.layer.group_send(self.group, dict(broadcast.listening(socket=True),
                                                     process="another-process"))

    async def heard(self, timeout: float = 0.5) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(await asyncio.wait_for(self.layer.receive(self.channel), timeout))
            except TimeoutError:
                return out


async def test_a_move_whose_table_is_heard_only_here_sends_no_group_message(
        alice: Viewer, bob: Viewer, carol: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    _, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    updates_sent.clear()
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        got = await frames(comm)
        assert [version_in(frame) for frame in got if version_in(frame)] == [1], got
    assert updates_sent == []
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_a_listener_in_another_process_hears_every_move_and_is_answered(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    elsewhere = Elsewhere(game.table.code)
    await elsewhere.join()
    first = await elsewhere.heard()
    # The table's sockets here answer once for the process, so the newcomer learns of them.
    answers = [m for m in first if m["type"] == LISTENING and m["reply"]]
    assert len(answers) == 1 and answers[0]["process"] == broadcast.PROCESS
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        await frames(comm)
    later = await elsewhere.heard()
    assert [m["version"] for m in later if m["type"] == "table.update"] == [1]
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_a_move_made_before_another_process_said_it_listens_reaches_it_all_the_same(
        alice: Viewer, bob: Viewer, carol: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    """The listener joined the group, but the move was made before its word arrived: when it
    does, the group hears the newest version shown here."""
    game, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    layer = get_channel_layer()
    channel = await layer.new_channel("elsewhere.")
    await layer.group_add(group_name(game.table.code), channel)
    updates_sent.clear()
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        await frames(comm)
    assert updates_sent == []
    await layer.group_send(group_name(game.table.code),
                           dict(broadcast.listening(socket=True), process="another-process"))
    heard = []
    with pytest.raises(TimeoutError):
        while True:
            heard.append(await asyncio.wait_for(layer.receive(channel), 0.5))
    assert [m["version"] for m in heard if m["type"] == "table.update"] == [1]
    # The sockets here had shown it: none is pushed again.
    for comm in (a, b, spectator):
        assert [version_in(f) for f in await frames(comm) if version_in(f)] == []
        await comm.disconnect()


async def test_a_socket_of_another_process_that_joined_first_is_told_of_by_its_answer(
        alice: Viewer, bob: Viewer, carol: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    """Another process's socket was there before any socket here: this process learns of it
    from its answer to the announcement its first socket made, and sends the moves."""
    game = await start(alice, (bob, "Bob"))
    layer = get_channel_layer()
    channel = await layer.new_channel("elsewhere.")
    await layer.group_add(group_name(game.table.code), channel)
    turn = game.state["turn"]
    mover = alice if owner(game, turn) == "Alice" else bob
    a = await connect(game.table.code, mover)
    await frames(a)
    announced = await asyncio.wait_for(layer.receive(channel), 1)
    assert announced["type"] == LISTENING and announced["socket"] and not announced["reply"]
    await layer.group_send(group_name(game.table.code),
                           dict(broadcast.listening(socket=True, reply=True),
                                process="another-process"))
    await frames(a)
    action = next(x for x in ENGINE.legal_actions(game.state, turn) if x["type"] == "bank"
                  or x["type"] == "place")
    await a.send_to(text_data=_move(action, 0))
    await frames(a)
    assert [m["version"] for m in updates_sent if m["version"]] == [1]
    await a.disconnect()
