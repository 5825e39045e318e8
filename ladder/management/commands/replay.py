"""`manage.py replay FILE`: re-run an exported game and say whether it ends the same way.

The file is the ladder's JSON export (docs/export.md). The game is dealt again from its
ruleset, seats and seed, and every logged action is applied in order through the game
interface (`games.platform.interface.get_game(game_kind)`), so any registered game
replays the same way.
A file that cannot be replayed (missing, not JSON, not an export, an action the engine
refuses) ends the command with exit code 1 and one sentence saying why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.platform.interface import IllegalAction, get_game
from ladder.replay import EXPORT_FORMAT, EXPORT_VERSION


def _load(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"There is no file {path}.") from None
    except IsADirectoryError:
        raise CommandError(f"{path} is a directory, not an exported game.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path} cannot be read: {exc}.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}, "
                           f"column {exc.colno}).") from None


def _check_format(path: Path, data: Any) -> None:
    """The fields the replay needs are there and of the right type."""
    def wrong(why: str) -> CommandError:
        return CommandError(f"{path} is not a game export of format {EXPORT_FORMAT!r} "
                            f"version {EXPORT_VERSION}: {why}.")

    if not isinstance(data, dict):
        raise wrong("it holds no JSON object")
    if data.get("format") != EXPORT_FORMAT:
        raise wrong(f"its format is {data.get('format')!r}")
    if data.get("format_version") != EXPORT_VERSION:
        raise wrong(f"its format_version is {data.get('format_version')!r}")
    expected = {"game_kind": str, "ruleset": dict, "seats": int, "seed": int, "actions": list}
    for name, kind in expected.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise wrong(f"{name!r} is missing or not a {kind.__name__}")
    if "result" not in data or not isinstance(data["result"], dict | None):
        raise wrong("'result' is missing or not an object")
    for number, entry in enumerate(data["actions"], start=1):
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], int)
                or isinstance(entry[0], bool) or not isinstance(entry[1], dict)):
            raise wrong(f"action {number} is not a [seat, action] pair")


class Command(BaseCommand):
    help = "Re-run an exported game (JSON) through its engine and compare the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a game export (docs/export.md)")

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        data = _load(file)
        _check_format(file, data)
        try:
            engine = get_game(data["game_kind"])
        except LookupError:
            raise CommandError(f"{file} is a game of kind {data['game_kind']!r}, which this "
                               "site does not have.") from None
        try:
            state = engine.create(ruleset=data["ruleset"], seats=data["seats"],
                                  seed=data["seed"])
        except Exception as exc:  # whatever the engine refuses to deal, say it in one line
            raise CommandError(f"{file} cannot be dealt again: {exc}.") from None
        for number, (seat, action) in enumerate(data["actions"], start=1):
            try:
                state = engine.apply(state, seat, action).state
            except IllegalAction as exc:
                raise CommandError(f"Action {number} of {len(data['actions'])} (seat {seat}, "
                                   f"{json.dumps(action)}) is illegal: "
                                   f"{exc.reason.rstrip('.')}.") from None
        replayed = engine.result(state)
        name = f"game {data.get('game_id', '?')} ({data['game_kind']})"
        if replayed != data["result"]:
            raise CommandError(
                f"The replay of {name} reaches a different result: the file says "
                f"{json.dumps(data['result'], sort_keys=True)}, the engine "
                f"{json.dumps(replayed, sort_keys=True)}.")
        self.stdout.write(f"The replay of {name} reaches the same result after "
                          f"{len(data['actions'])} actions: {_summary(data, replayed)}.")


def _summary(data: dict[str, Any], result: dict[str, Any] | None) -> str:
    if result is None:
        return "the game is still running"
    names = {p.get("seat"): p.get("name") for p in data.get("players") or []
             if isinstance(p, dict)}
    winner = result.get("winner")
    who = names.get(winner) or (f"seat {winner}" if winner is not None else "nobody")
    reason = result.get("end_reason")
    return f"{who} wins" + (f" ({reason})" if reason else "")
