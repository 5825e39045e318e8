"""Streams survive a web restart: the example bot plays Boardroom through a Daphne of the
test's own; the Daphne is killed (SIGKILL) or stopped (SIGTERM, as a deploy stops it)
mid-game and started again on the same port; the bot's streams drop, it reconnects, reads
the game as it is now (the stream's `gameFull`) and plays on from that version until the
game ends.

The other seat is played by the test itself over the API, one move at a time, so the game is
still running when the web process dies however fast the bot is."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_helpers import account_viewer, stream_state
from example_bots import bot_account, finished_output, start_example, stop

from games.platform import services
from games.platform.models import Game, GameAction

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import liveplay  # noqa: E402  (bench/, put on the path above)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
LOGS = Path(__file__).resolve().parents[2] / ".bench-logs"
HANG = 120.0  # seconds before a wait counts as a hang (not a measure of speed)


class Web:
    """One Daphne of the test's own on a fixed port, so the bot finds it again."""

    def __init__(self, env: dict[str, str]) -> None:
        LOGS.mkdir(exist_ok=True)
        self.env = env
        self.port = liveplay.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: Any = None

    def start(self) -> None:
        self.process = liveplay.start_daphne(self.port, self.env, LOGS / "api-restart.log")
        liveplay.wait_http(f"{self.url}/healthz", self.process, seconds=60)

    def kill(self) -> None:
        liveplay.kill9(self.process)

    def terminate(self) -> None:
        """Stopped as a deploy stops it (SIGTERM, then SIGKILL after 10 s)."""
        liveplay.stop(self.process)

    def stop(self) -> None:
        if self.process is not None:
            liveplay.stop(self.process)


def _boardroom_between(maia: Any, zed: Any) -> Game:
    host = account_viewer(maia)
    table = services.table_create(viewer=host, name="maia", game_kind="boardroom",
                                  ruleset_spec={"preset": "standard"})
    services.seat_join(table_id=table.pk, viewer=account_viewer(zed), name="zed")
    return services.game_start(table_id=table.pk, viewer=host)


def _seat_of(game: Game, user: Any) -> int:
    return next(i for i, p in enumerate(game.players) if p.get("user_id") == user.pk)


def _bot_moves(game: Game, seat: int) -> int:
    return GameAction.objects.filter(game=game, seat=seat, source="player").count()


def _play_zed_until(web: Web, game: Game, zed_seat: int, secret: str, *, bot_seat: int,
                    bot_moves: int) -> None:
    """Make zed's moves over the API (the first listed each time) until the bot has made
    `bot_moves` moves of its own."""
    deadline = time.monotonic() + HANG
    while _bot_moves(game, bot_seat) < bot_moves:
        assert time.monotonic() < deadline, "the bot stopped playing"
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        state = stream_state(game, zed_seat)
        if not state["your_decision"]:
            time.sleep(0.05)  # the bot's turn
            continue
        answer = httpx.post(f"{web.url}/api/bot/game/{game.pk}/move",
                            headers={"Authorization": f"Bearer {secret}"}, timeout=30,
                            json={"action": state["legal_actions"][0],
                                  "version": state["version"],
                                  "decision_token": state["decision_token"]})
        assert answer.status_code in (200, 409), answer.text  # 409: the bot moved meanwhile


@pytest.mark.parametrize("end", ["kill", "terminate"])
def test_the_example_bot_reconnects_after_the_web_process_ends_and_plays_on(
        live_site_env: dict[str, str], end: str) -> None:
    maia, maia_secret = bot_account("maia")
    zed, zed_secret = bot_account("zed")
    game = _boardroom_between(maia, zed)
    bot_seat, zed_seat = _seat_of(game, maia), _seat_of(game, zed)
    web = Web(live_site_env)
    web.start()
    bot = start_example("random_bot.py", web.url, maia_secret, "--games", "1")
    try:
        _play_zed_until(web, game, zed_seat, zed_secret, bot_seat=bot_seat, bot_moves=2)
        getattr(web, end)()
        game.refresh_from_db()
        killed_at = game.version
        time.sleep(1.5)  # the bot's reconnections meet a closed port
        web.start()
        before = _bot_moves(game, bot_seat)
        _play_zed_until(web, game, zed_seat, zed_secret, bot_seat=bot_seat,
                        bot_moves=before + 2)
        # Zed resigns (bankruptcy, against one player the end): the bot's game is over.
        answer = httpx.post(f"{web.url}/api/bot/game/{game.pk}/resign",
                            headers={"Authorization": f"Bearer {zed_secret}"}, timeout=30)
        assert answer.status_code == 200, answer.text
        out = finished_output(bot, seconds=HANG)
    finally:
        stop(bot)
        web.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winner"] == bot_seat
    assert f"/api/bot/game/stream/{game.pk}: " in out and "reconnecting" in out, out
    assert f"game {game.pk} (boardroom, seat {bot_seat}): finished, winner {bot_seat}" in out
    assert "refused" not in out, out
    # The bot's moves after the restart carry on from the version it found.
    after = GameAction.objects.filter(game=game, seat=bot_seat, source="player",
                                      version__gte=killed_at)
    assert after.count() >= 2
