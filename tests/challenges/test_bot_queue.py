"""The bots' queue: bot accounts meet each other (rated on the Bots ladder), or our bots after
a wait; people are refused; POST joins, DELETE or POST …/leave leaves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from challenges import bot_queue
from challenges.models import BotQueueTicket
from challenges.services import ChallengeError
from games.platform.models import Game, Seat
from tests.challenges.challenge_helpers import account, api_post, bearer, token_for

pytestmark = pytest.mark.django_db


def test_two_bot_accounts_in_one_queue_are_seated_together_and_their_game_starts() -> None:
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    first = bot_queue.queue_join(user_id=maia.user_id, game_kind="boardroom")
    assert first.status == "waiting"

    second = bot_queue.queue_join(user_id=zed.user_id, game_kind="boardroom")

    assert second.status == "matched"
    first.refresh_from_db()
    assert first.table_id == second.table_id and not second.with_bots
    game = Game.objects.get(table_id=second.table_id)
    assert game.status == Game.Status.RUNNING
    assert sorted(p["name"] for p in game.players) == ["BOT maia", "BOT zed"]


def test_their_game_is_rated_on_the_bots_ladder() -> None:
    from ladder.models import GameRecord, Rating
    from tests.ladder.ladder_helpers import play_moves

    maia, zed = account("maia", bot=True), account("zed", bot=True)
    bot_queue.queue_join(user_id=maia.user_id, game_kind="chudopoly", preset="blitz")
    ticket = bot_queue.queue_join(user_id=zed.user_id, game_kind="chudopoly", preset="blitz")
    game = play_moves(Game.objects.get(table_id=ticket.table_id), 3000)
    assert GameRecord.objects.get(game=game).rated
    assert set(Rating.objects.values_list("ladder", flat=True)) == {"bots"}


def test_a_lone_ticket_is_seated_with_our_bots_after_the_wait_unless_it_asked_not_to_be(
) -> None:
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    filled = bot_queue.queue_join(user_id=maia.user_id, game_kind="commonwealth", seats=3)
    unfilled = bot_queue.queue_join(user_id=zed.user_id, game_kind="boardroom", fill=False)
    assert bot_queue.queue_pair() == []  # nobody waited long enough

    later = timezone.now() + timedelta(seconds=bot_queue.FILL_SECONDS)
    (table,) = bot_queue.queue_pair(now=later)

    filled.refresh_from_db()
    assert filled.status == "matched" and filled.with_bots and filled.table_id == table.pk
    assert Seat.objects.filter(table=table, is_bot=True, bot_level="medium").count() == 2
    unfilled.refresh_from_db()
    assert unfilled.status == "waiting"
    bot_queue.queue_pair(now=timezone.now() + timedelta(minutes=bot_queue.WAIT_MINUTES))
    unfilled.refresh_from_db()
    assert unfilled.status == "expired"


def test_people_may_not_join_the_bots_queue() -> None:
    alice = account("alice")
    with pytest.raises(ChallengeError) as refused:
        bot_queue.queue_join(user_id=alice.user_id, game_kind="chudopoly")
    assert refused.value.status == 403 and not BotQueueTicket.objects.exists()


def test_one_queue_at_a_time() -> None:
    maia = account("maia", bot=True)
    ticket = bot_queue.queue_join(user_id=maia.user_id, game_kind="chudopoly")
    assert bot_queue.queue_join(user_id=maia.user_id, game_kind="chudopoly").pk == ticket.pk
    with pytest.raises(ChallengeError) as refused:
        bot_queue.queue_join(user_id=maia.user_id, game_kind="boardroom")
    assert refused.value.code == "other_queue"


def test_the_api_joins_and_leaves() -> None:
    maia = account("maia", bot=True)
    key = token_for(maia)
    joined = api_post("/api/bot/queue/boardroom", key, {"seats": 2})
    assert joined.status_code == 200
    assert joined.json()["ticket"]["status"] == "waiting"
    left = Client().delete("/api/bot/queue/boardroom", **bearer(key))
    assert left.json() == {"ok": True, "left": True}
    api_post("/api/bot/queue/boardroom", key)
    assert api_post("/api/bot/queue/boardroom/leave", key).json()["left"] is True
    assert not BotQueueTicket.objects.filter(status="waiting").exists()


@pytest.mark.parametrize(("path", "body", "status", "code"), [
    ("/api/bot/queue/chess", {}, 404, "bad_game"),
    ("/api/bot/queue/boardroom", {"seats": 9}, 400, "bad_seats"),
    ("/api/bot/queue/chudopoly", {"preset": "nope"}, 400, "bad_preset"),
    ("/api/bot/queue/chudopoly", {"fill": "no"}, 400, "bad_request"),
])
def test_the_api_refuses_a_queue_that_does_not_exist(path: str, body: dict, status: int,
                                                     code: str) -> None:
    response = api_post(path, token_for(account("maia", bot=True)), body)
    assert response.status_code == status and response.json()["code"] == code
    assert not BotQueueTicket.objects.exists()


def test_the_bots_queue_is_paired_every_two_seconds_by_a_task_of_its_own() -> None:
    from django.conf import settings

    from chudopoly_site.celery import app

    app.loader.import_default_modules()
    assert settings.PERIODIC_TASKS["challenges.bot_queue_pair"] == bot_queue.PAIR_SECONDS
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    for viewer in (maia, zed):  # as if two web processes took them at once
        BotQueueTicket.objects.create(user_id=viewer.user_id, game_kind="chudopoly",
                                      preset="chudopoly", seats=2, joined_at=timezone.now())
    assert app.tasks["challenges.bot_queue_pair"].run() == 1
    assert not BotQueueTicket.objects.filter(status="waiting").exists()


def test_an_account_that_reached_its_cap_while_waiting_is_not_seated_until_a_game_ends(
        settings) -> None:
    """The cap is checked when a ticket is seated, not only when it joins: an account that
    accepted a challenge while it waited stays in the queue, unpaired."""
    from challenges import services

    settings.BOT_CONCURRENT_GAMES = 1
    maia, zed, ola = (account("maia", bot=True), account("zed", bot=True),
                      account("ola", bot=True))
    waiting = bot_queue.queue_join(user_id=maia.user_id, game_kind="boardroom")
    challenge = services.challenge_create(challenger_id=ola.user_id, username="maia",
                                          game_kind="chudopoly")
    services.challenge_accept(challenge_id=challenge.pk, user_id=maia.user_id)

    other = bot_queue.queue_join(user_id=zed.user_id, game_kind="boardroom")

    assert other.status == "waiting"
    waiting.refresh_from_db()
    assert waiting.status == "waiting" and waiting.table_id is None
    later = timezone.now() + timedelta(seconds=bot_queue.FILL_SECONDS)
    (table,) = bot_queue.queue_pair(now=later)  # zed alone, filled with our bots
    assert set(Seat.objects.filter(table=table, is_bot=False)
               .values_list("user_id", flat=True)) == {zed.user_id}
    waiting.refresh_from_db()
    assert waiting.status == "waiting"
