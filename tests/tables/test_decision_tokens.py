"""A decision token is the digest of its decision key's sorted compact JSON, whether the
process works it out or finds it among the tokens it made before (services._token_of)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.platform.services import decision_token


class KeyedEngine:
    """An engine whose every seat decides what `keys` says."""

    def __init__(self, keys: dict[int, Any]) -> None:
        self.keys = keys

    def decision_key(self, state: dict[str, Any], seat: int) -> Any:
        return self.keys.get(seat)


def digest_of(key: Any) -> str:
    raw = json.dumps(key, separators=(",", ":"), sort_keys=True)
    return hashlib.blake2s(raw.encode(), digest_size=8).hexdigest()


def test_a_token_is_its_keys_digest_made_anew_or_found_again() -> None:
    engine = KeyedEngine({0: ["wait"], 1: ["respond", 3, 0, 2, 17, [[1, 0, "respond"]]],
                          2: {"b": 1, "a": [2, 3]}})
    for seat in (0, 1, 2):
        first = decision_token(engine, {}, seat)  # type: ignore[arg-type]
        again = decision_token(engine, {}, seat)  # type: ignore[arg-type]
        assert first == again == digest_of(engine.keys[seat])


def test_seats_deciding_different_things_have_different_tokens() -> None:
    engine = KeyedEngine({0: ["wait"], 1: ["play", 12], 2: ["play", 13]})
    tokens = {decision_token(engine, {}, seat) for seat in (0, 1, 2)}  # type: ignore[arg-type]
    assert len(tokens) == 3


def test_nothing_to_decide_and_a_watcher_have_no_token() -> None:
    engine = KeyedEngine({})
    assert decision_token(engine, {}, 0) == ""  # type: ignore[arg-type]
    assert decision_token(engine, {}, None) == ""  # type: ignore[arg-type]
