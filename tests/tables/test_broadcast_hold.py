"""A mover's socket holds the table's update until it has pushed its own board."""

from __future__ import annotations

from typing import Any

import pytest

from games import broadcast


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
        token = broadcast.update_token(held)
    assert [(code, m["version"], m["token"]) for code, m in delivered] == [("HOLD1", 3, token)]


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
    assert broadcast.update_token([]) is None
