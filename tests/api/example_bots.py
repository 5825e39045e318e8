"""Running the example bots (examples/) against a live site: bot accounts with tokens, tables
with our bots, and the example scripts as processes of their own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from api_helpers import account_viewer, make_account, make_token

from accounts import bots as bot_accounts
from games.platform.interface import get_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# A game of either example against our bots takes seconds here; this bounds a hang, no more.
GAME_SECONDS = 300


def short_rules(kind: str) -> dict[str, Any]:
    """Boardroom to a turn limit: a random player's game against our medium bot would take
    hundreds of moves. The limit ends it: a bot account's program and our bots are programs
    alone, which the cap ends (docs/boardroom.md, decision 12)."""
    return {"turnCap": 30} if kind == "boardroom" else {}


def bot_account(username: str) -> tuple[Any, str]:
    """An account upgraded to a bot, and a token of it that plays."""
    user = make_account(username)
    bot_accounts.account_upgrade_to_bot(user_id=user.pk)
    return user, make_token(user, scopes=("bot:play",))


def table_against_our_bots(user: Any, kind: str, *, bots: int = 1, level: str = "medium"
                           ) -> Any:
    """A started game of `kind` where `user` (an account) sits with `bots` of our bots."""
    from games.platform import services

    engine = get_game(kind)
    host = account_viewer(user)
    spec = {"preset": next(iter(engine.presets())), **short_rules(kind)}
    table = services.table_create(viewer=host, name=user.get_username(), game_kind=kind,
                                  ruleset_spec=spec)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=host, level=level)
    return services.game_start(table_id=table.pk, viewer=host)


def start_example(script: str, url: str, secret: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(EXAMPLES / script), "--url", url,
                             "--token", secret, *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished_output(process: subprocess.Popen[str], seconds: float = GAME_SECONDS) -> str:
    """The example's printout once it ended on its own (it must end well)."""
    try:
        out, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"the example bot did not finish:\n{out[-3000:]}\n{err[-3000:]}"
                             ) from None
    assert process.returncode == 0, out[-3000:] + err[-3000:]
    return out


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        process.communicate()
