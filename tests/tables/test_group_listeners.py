"""A move's group message goes out only when something besides the table's sockets in this
process listens: a socket in another web process or an API stream, each of which says so as
it joins the group, whichever joins first (games/platform/table_sockets.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.layers import get_channel_layer
from tables_helpers import ENGINE
from test_table_socket import (
    connect,
    frames,
    mover_other_and_watcher,
    owner,
    showing,
    start,
    version_in,
)

from games.platform import broadcast
from games.platform.broadcast import LISTENING, group_name
from games.platform.identity import Viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def updates_sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every table update sent to a group."""
    sent: list[dict[str, Any]] = []
    layer = get_channel_layer()  # the one every consumer of the process uses
    group_send = layer.group_send

    async def recorded(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "table.update":
            sent.append(message)
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recorded, raising=False)
    return sent


def _move(action: dict[str, Any], version: int) -> str:
    return json.dumps({"kind": "act", "action": json.dumps(action),
                       "expected_version": str(version)})


class Elsewhere:
    """A listener in another web process, as the table's group sees it: a channel of its own
    in the group, read by a task of its own (a receive cancelled half-way would leave the
    group on channels-redis's pub/sub layer), that may say it joined as another process's
    socket would."""

    def __init__(self, code: str) -> None:
        self.layer = get_channel_layer()
        self.group = group_name(code)
        self.channel = ""
        self.got: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        self.channel = await self.layer.new_channel("elsewhere.")
        await self.layer.group_add(self.group, self.channel)
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            self.got.append(message)

    async def say(self, *, reply: bool = False) -> None:
        await self.layer.group_send(self.group, dict(
            broadcast.listening(socket=True, reply=reply), process="another-process"))

    async def heard(self, quiet: float = 0.5) -> list[dict[str, Any]]:
        """What it heard until the group went quiet (and forgets it)."""
        count = -1
        while count != len(self.got):
            count = len(self.got)
            await asyncio.sleep(quiet)
        out, self.got = self.got, []
        return out

    def updates(self, heard: list[dict[str, Any]]) -> list[int | None]:
        return [m["version"] for m in heard if m["type"] == "table.update"]

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.wait({self.reader}, timeout=1)


async def test_a_move_whose_table_is_heard_only_here_sends_no_group_message(
        alice: Viewer, bob: Viewer, carol: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    _, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    updates_sent.clear()
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        got = await frames(comm, until=showing(1))
        assert [version_in(frame) for frame in got if version_in(frame)] == [1], got
    assert updates_sent == []
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_a_listener_in_another_process_hears_every_move_and_is_answered(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    elsewhere = Elsewhere(game.table.code)
    await elsewhere.listen()
    await elsewhere.say()
    first = await elsewhere.heard()
    # The table's sockets here answer once for the process, so the newcomer learns of them.
    answers = [m for m in first if m["type"] == LISTENING and m["reply"]]
    assert len(answers) == 1 and answers[0]["process"] == broadcast.PROCESS
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        await frames(comm, until=showing(1))
    assert elsewhere.updates(await elsewhere.heard()) == [1]
    await elsewhere.close()
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_a_move_made_before_another_process_said_it_listens_reaches_it_all_the_same(
        alice: Viewer, bob: Viewer, carol: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    """The listener joined the group, but the move was made before its word arrived: when it
    does, the group hears the newest version shown here."""
    game, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    elsewhere = Elsewhere(game.table.code)
    await elsewhere.listen()
    updates_sent.clear()
    await a.send_to(text_data=_move(action, 0))
    for comm in (a, b, spectator):
        await frames(comm, until=showing(1))
    assert updates_sent == []
    await elsewhere.say()
    assert elsewhere.updates(await elsewhere.heard()) == [1]
    # The sockets here had shown it: none is pushed again.
    for comm in (a, b, spectator):
        assert [version_in(f) for f in await frames(comm, until=None) if version_in(f)] == []
        await comm.disconnect()
    await elsewhere.close()


async def test_a_socket_of_another_process_that_joined_first_is_told_of_by_its_answer(
        alice: Viewer, bob: Viewer, updates_sent: list[dict[str, Any]]) -> None:
    """Another process's socket was there before any socket here: this process learns of it
    from its answer to the announcement its first socket made, and sends the moves."""
    game = await start(alice, (bob, "Bob"))
    elsewhere = Elsewhere(game.table.code)
    await elsewhere.listen()
    turn = game.state["turn"]
    mover = alice if owner(game, turn) == "Alice" else bob
    a = await connect(game.table.code, mover)
    await frames(a)
    announced = [m for m in await elsewhere.heard() if m["type"] == LISTENING]
    assert [(m["socket"], m["reply"]) for m in announced] == [(True, False)]
    await elsewhere.say(reply=True)
    await frames(a, until=None)
    action = next(x for x in ENGINE.legal_actions(game.state, turn) if x["type"] == "bank"
                  or x["type"] == "place")
    await a.send_to(text_data=_move(action, 0))
    await frames(a, until=showing(1))
    assert 1 in elsewhere.updates(await elsewhere.heard())
    assert [m["version"] for m in updates_sent if m["version"]] == [1]
    await elsewhere.close()
    await a.disconnect()
