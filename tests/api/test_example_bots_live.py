"""The example bots of examples/ play whole games through the bot API of a real Daphne: each
example against our medium bot in every game, and two API bots against each other, met
by a challenge accepted over the API and in the bots' queue. Each example runs as its own
process, as a user would run it, and must end on its own once its game is over."""

from __future__ import annotations

import httpx
import pytest
from example_bots import (
    bot_account,
    finished_output,
    start_example,
    stop,
    table_against_our_bots,
)

from challenges.models import BotQueueTicket, Challenge
from games.platform.models import Game, GameAction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
GAMES = ("chudopoly", "boardroom", "commonwealth")


def _moves_by(game: Game, seat: int) -> int:
    """Moves the seat's player made itself (not a clock, not a bot standing in)."""
    return GameAction.objects.filter(game=game, seat=seat, source="player").count()


@pytest.mark.parametrize("kind", GAMES)
@pytest.mark.parametrize("example", ["random_bot.py", "medium_bot.py"])
def test_each_example_plays_a_whole_game_against_our_medium_bot(live_server_url: str,
                                                                example: str, kind: str
                                                                ) -> None:
    maia, secret = bot_account("maia")
    game = table_against_our_bots(maia, kind)
    seat = next(i for i, p in enumerate(game.players) if p.get("user_id") == maia.pk)
    bot = start_example(example, live_server_url, secret, "--games", "1")
    try:
        out = finished_output(bot)
    finally:
        stop(bot)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result is not None
    assert f"game {game.pk} ({kind}, seat {seat}): finished" in out, out
    assert _moves_by(game, seat) >= 1
    assert "refused" not in out, out


def test_two_api_bots_play_chudopoly_after_a_challenge_accepted_over_the_api(
        live_server_url: str) -> None:
    maia, maia_secret = bot_account("maia")
    zed, zed_secret = bot_account("zed")
    random_bot = start_example("random_bot.py", live_server_url, maia_secret, "--games", "1")
    medium_bot = start_example("medium_bot.py", live_server_url, zed_secret, "--games", "1")
    try:
        answer = httpx.post(f"{live_server_url}/api/challenge/maia",
                            headers={"Authorization": f"Bearer {zed_secret}"},
                            json={"game": "chudopoly"}, timeout=30)
        assert answer.status_code == 201, answer.text
        outs = [finished_output(random_bot), finished_output(medium_bot)]
    finally:
        stop(random_bot)
        stop(medium_bot)
    challenge = Challenge.objects.get(pk=answer.json()["challenge"]["id"])
    assert challenge.status == Challenge.Status.ACCEPTED
    game = Game.objects.get(table=challenge.table)
    assert game.status == Game.Status.FINISHED
    # Both seats are the two accounts, none of our bots, and each played its own moves.
    assert sorted(p.get("user_id") for p in game.players) == sorted([maia.pk, zed.pk])
    assert all(not p.get("bot") for p in game.players)
    for seat in range(2):
        assert _moves_by(game, seat) >= 1
    for out in outs:
        assert f"game {game.pk} (chudopoly" in out and "finished" in out, out


def test_two_api_bots_meet_in_the_bots_queue_and_play_commonwealth(live_server_url: str
                                                                    ) -> None:
    _, maia_secret = bot_account("maia")
    _, zed_secret = bot_account("zed")
    queue = ("--queue", "commonwealth", "--no-fill", "--games", "1")
    random_bot = start_example("random_bot.py", live_server_url, maia_secret, *queue)
    medium_bot = start_example("medium_bot.py", live_server_url, zed_secret, *queue)
    try:
        outs = [finished_output(random_bot), finished_output(medium_bot)]
    finally:
        stop(random_bot)
        stop(medium_bot)
    tickets = list(BotQueueTicket.objects.all())
    assert len(tickets) == 2 and tickets[0].table_id == tickets[1].table_id
    assert not tickets[0].with_bots
    game = Game.objects.get(table_id=tickets[0].table_id)
    assert game.game_kind == "commonwealth" and game.status == Game.Status.FINISHED
    assert all(not p.get("bot") for p in game.players)
    for out in outs:
        assert f"game {game.pk} (commonwealth" in out and "finished" in out, out
