"""A game's own clocks compare a seat's decision key with the one its deadline was saved with,
as the JSON column gives it back: the key made now must read exactly as that."""

from __future__ import annotations

import json

import pytest

from games.platform.clocks import _plain


@pytest.mark.parametrize("key", [
    ["version", 12],
    ("donate", 3, 1, 17),
    ["respond", 4, 0, 2, 31, [[1, 0, "respond"], (2, 1, "pay")]],
    [None, True, False, "", -5],
    {"seat": 2, "kind": "bid"},
    {1: "seat keys become words"},
    [1.5, 2.0],
])
def test_a_decision_key_reads_as_the_json_column_gives_it_back(key: object) -> None:
    plain = _plain(key)
    back = json.loads(json.dumps(key))
    assert plain == back
    assert json.dumps(plain) == json.dumps(back)  # the same types too (a list, not a tuple)
