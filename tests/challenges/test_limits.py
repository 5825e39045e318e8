"""Limits: requests per token and games at once per bot account, each a 429 with Retry-After
and a JSON error, changing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from challenges import bot_queue, services
from challenges.models import BotQueueTicket, Challenge
from tests.challenges.challenge_helpers import account, api_post, bearer, token_for

pytestmark = pytest.mark.django_db


def test_a_token_past_its_requests_a_minute_is_answered_429_with_retry_after(
        settings: Any) -> None:
    settings.API_REQUESTS_PER_MINUTE = 3
    maia = account("maia", bot=True)
    account("zed", bot=True)
    key, other_key = token_for(maia), token_for(maia)
    for _ in range(3):
        assert Client().get("/api/challenge", **bearer(key)).status_code == 200

    refused = api_post("/api/challenge/zed", key, {"game": "chudopoly"})

    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused["Retry-After"]) > 0
    assert not Challenge.objects.exists()
    # Per token: the account's other token still has its own allowance.
    assert Client().get("/api/challenge", **bearer(other_key)).status_code == 200


def test_a_bot_account_at_its_game_cap_may_not_start_another(settings: Any) -> None:
    settings.BOT_CONCURRENT_GAMES = 1
    maia, zed, ola = (account("maia", bot=True), account("zed", bot=True),
                      account("ola", bot=True))
    first = services.challenge_create(challenger_id=zed.user_id, username="maia",
                                      game_kind="chudopoly")
    services.challenge_accept(challenge_id=first.pk, user_id=maia.user_id)
    second = services.challenge_create(challenger_id=ola.user_id, username="maia",
                                       game_kind="chudopoly")
    key = token_for(maia)

    refused = api_post(f"/api/challenge/{second.pk}/accept", key)

    assert refused.status_code == 429 and refused.json()["code"] == "too_many_games"
    assert refused["Retry-After"] == "30"
    assert Challenge.objects.get(pk=second.pk).status == "created"
    queued = api_post("/api/bot/queue/boardroom", key)
    assert queued.status_code == 429 and not BotQueueTicket.objects.exists()
    # The account it would play is capped too: it cannot be made to start a game by others.
    third = services.challenge_create(challenger_id=maia.user_id, username="ola",
                                      game_kind="chudopoly")
    with pytest.raises(services.ChallengeError):
        services.challenge_accept(challenge_id=third.pk, user_id=ola.user_id)
    assert bot_queue.queue_pair() == []


def test_too_many_waiting_challenges_is_a_429() -> None:
    maia = account("maia", bot=True)
    account("zed", bot=True)
    key = token_for(maia)
    for _ in range(services.PENDING_PER_CHALLENGER):
        assert api_post("/api/challenge/zed", key, {"game": "chudopoly"}).status_code == 201
    refused = api_post("/api/challenge/zed", key, {"game": "chudopoly"})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_challenges"
    assert refused["Retry-After"]
    assert Challenge.objects.count() == services.PENDING_PER_CHALLENGER
