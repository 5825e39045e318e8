"""Bad-frame fuzz, fast variant: a few hundred malformed, oversized, out-of-turn, stale,
duplicated and forged frames (and websocket protocol violations and bad form posts) against the
live site. The game never changes, every frame gets its answer, the server stays up.
The 10,000-frame run is `bench/frame_fuzz.py` (figures in docs/reliability.md)."""

from __future__ import annotations

import json
from pathlib import Path

import frame_fuzz
import pytest

from games.platform.frames import FrameError, parse_frame

ROOT = Path(__file__).resolve().parents[2]


def test_a_few_hundred_bad_frames_change_nothing_and_each_gets_an_answer(
        live_server_url: str) -> None:
    ws_base = live_server_url.replace("http://", "ws://")
    log = ROOT / ".daphne-test.log"  # the live server's log (tests/conftest.py)
    offset = log.stat().st_size if log.exists() else 0
    out = frame_fuzz.run_fuzz(ws_base, live_server_url, frames=160, posts=40, seed=8)
    assert out["frames_sent"] == 160
    assert out["failure_count"] == 0, out["failures"]
    assert out["frames_answered"] == 160
    assert out["unchanged"], "a refused frame changed the game"
    assert out["posts_5xx"] == 0, out["posts"]
    assert out["healthz"] == 200 and out["socket_after"]
    for category in ("malformed", "out_of_turn", "stale", "duplicate", "forged", "illegal"):
        assert out["by_category"].get(category, 0) > 0, category
    assert out["answers"].get("duplicate:duplicate", 0) > 0
    assert out["answers"].get("stale:stale", 0) > 0
    assert out["answers"].get("forged:forged", 0) > 0
    if log.exists():  # and nothing our code raised reached the server's log meanwhile
        with log.open(errors="replace") as f:
            f.seek(offset)
            assert frame_fuzz.application_errors(f.read()) == []


@pytest.mark.parametrize("text", [
    "[" * 8000,  # nests past Python's recursion limit: once a crash of the consumer
    json.dumps({"kind": "act", "expected_version": 0, "action": "[" * 7000}),
    json.dumps({"kind": "chat", "text": "a\u0000b"}),  # PostgreSQL text cannot hold NUL
    json.dumps({"kind": "chat", "text": "\ud800"}),  # a lone surrogate cannot be stored
    json.dumps({"kind": "act", "expected_version": 0, "action": {"type": "place",
                                                                 "colour": "\ud800"}}),
])
def test_frames_that_once_crashed_or_could_not_be_stored_are_refused(text: str) -> None:
    with pytest.raises(FrameError):
        parse_frame(text)
