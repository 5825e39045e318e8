"""A mover's socket holds the table's update until it has pushed its own board."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import broadcast


def _listen(code: str) -> tuple[object, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.group_name(code), channel)
    return layer, channel


def _pending(layer: object, channel: str) -> list[dict]:
    got = []
    while True:
        try:
            got.append(async_to_sync(_receive_now)(layer, channel))
        except TimeoutError:
            return got


async def _receive_now(layer: object, channel: str) -> dict:
    import asyncio

    return await asyncio.wait_for(layer.receive(channel), 0.2)  # type: ignore[attr-defined]


def test_updates_sent_inside_the_block_reach_the_table_only_when_it_ends() -> None:
    layer, channel = _listen("HOLD1")
    with broadcast.held_updates() as held:
        broadcast._send("HOLD1", broadcast._update(3))
        assert _pending(layer, channel) == []
        token = broadcast.update_token(held)
    got = _pending(layer, channel)
    assert [(m["version"], m["token"]) for m in got] == [(3, token)]


def test_held_updates_are_sent_even_when_the_block_fails() -> None:
    layer, channel = _listen("HOLD2")
    with pytest.raises(RuntimeError), broadcast.held_updates():
        broadcast._send("HOLD2", broadcast._update(None))
        raise RuntimeError("the push failed")
    assert len(_pending(layer, channel)) == 1
    broadcast._send("HOLD2", broadcast._update(4))  # outside a block: straight through
    assert [m["version"] for m in _pending(layer, channel)] == [4]


def test_each_update_has_its_own_token() -> None:
    assert broadcast._update(1)["token"] != broadcast._update(1)["token"]
    assert broadcast.update_token([]) is None
