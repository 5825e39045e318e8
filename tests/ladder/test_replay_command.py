"""`manage.py replay FILE` re-runs an exported game and says whether it ends the same way;
a file it cannot replay ends it with one sentence and a non-zero exit code."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from ladder_helpers import private_game, scoop_out

from games.chudopoly.engine.random_player import choose
from games.platform.interface import get_game
from ladder.replay import export_game

ROOT = Path(__file__).resolve().parents[2]


def _replay(path: Path) -> str:
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


def _refusal(path: Path) -> str:
    with pytest.raises(CommandError) as caught:
        _replay(path)
    message = str(caught.value)
    # One sentence: it ends with a full stop and holds no line break.
    assert message.endswith(".") and "\n" not in message, message
    return message


def _write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def _played_to_the_end(seed: int = 7) -> dict[str, Any]:
    """A whole game between random players, written as the ladder exports it."""
    engine = get_game("chudopoly")
    ruleset = engine.resolve_ruleset({"preset": "blitz"})
    state = engine.create(ruleset=ruleset, seats=3, seed=seed)
    rng = random.Random(seed)
    actions: list[list[Any]] = []
    while engine.result(state) is None:
        assert len(actions) < 5000, "the random game did not end"
        seat = engine.to_decide(state)[0]
        action = choose(state, seat, rng)
        if action is None:
            action = {"type": "scoop"}
        state = engine.apply(state, seat, action).state
        actions.append([seat, action])
    return {"format": "chudopoly-game", "format_version": 1, "game_kind": "chudopoly",
            "game_id": 1, "ruleset": ruleset, "seats": 3, "seed": seed,
            "players": [{"seat": i, "name": n, "bot": True}
                        for i, n in enumerate(("Ann", "Ben", "Cy"))],
            "actions": actions, "result": engine.result(state)}


@pytest.mark.django_db
def test_a_ladder_export_of_a_finished_game_replays_to_the_same_result(
    alice: Any, bob: Any, tmp_path: Path
) -> None:
    finished = scoop_out(private_game(alice, bob), bob)
    path = _write(tmp_path, export_game(finished))
    out = _replay(path)
    assert f"The replay of game {finished.pk} (chudopoly) reaches the same result" in out
    assert "alice wins" in out


def test_a_whole_game_replays_to_the_same_winner(tmp_path: Path) -> None:
    data = _played_to_the_end()
    out = _replay(_write(tmp_path, data))
    winner = data["players"][data["result"]["winner"]]["name"]
    assert f"after {len(data['actions'])} actions: {winner} wins" in out


def test_a_file_whose_result_differs_from_the_replay_is_reported(tmp_path: Path) -> None:
    data = _played_to_the_end()
    data["result"] = {**data["result"], "winner": (data["result"]["winner"] + 1) % 3}
    assert "reaches a different result" in _refusal(_write(tmp_path, data))


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    assert "There is no file" in _refusal(tmp_path / "nowhere.json")


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    message = _refusal(_write(tmp_path, '{"format": "chudopoly-game",'))
    assert "is not valid JSON" in message and "line 1" in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: ["a", "list"], "holds no JSON object"),
        (lambda d: {**d, "format": "chess-pgn"}, "its format is 'chess-pgn'"),
        (lambda d: {**d, "format_version": 2}, "its format_version is 2"),
        (lambda d: {k: v for k, v in d.items() if k != "seed"}, "'seed' is missing"),
        (lambda d: {**d, "actions": [[0, {"type": "bank"}], "end_turn"]},
         "action 2 is not a [seat, action] pair"),
        (lambda d: {**d, "game_kind": "backgammon"}, "which this site does not have"),
    ],
    ids=["not-an-object", "other-format", "other-version", "no-seed", "bad-action-entry",
         "unknown-game"],
)
def test_a_file_in_the_wrong_format_is_refused(tmp_path: Path, change: Any, words: str) -> None:
    assert words in _refusal(_write(tmp_path, change(_played_to_the_end())))


def test_an_illegal_action_is_refused_naming_it(tmp_path: Path) -> None:
    data = _played_to_the_end()
    data["actions"][2] = [data["actions"][2][0], {"type": "bank", "card": 9999}]
    message = _refusal(_write(tmp_path, data))
    assert message.startswith(f"Action 3 of {len(data['actions'])} (seat ")
    assert "is illegal" in message


def test_the_command_exits_non_zero_with_one_line_on_a_bad_file(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "manage.py", "replay", str(tmp_path / "x.json")],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"CommandError: There is no file {tmp_path / 'x.json'}."]
