"""The challenge endpoints: POST /api/challenge/<username>, /api/challenge/<id>/accept,
/decline, /cancel, and GET /api/challenge; refusals are JSON and change nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from challenges.models import Challenge
from games.platform.models import Game, Table
from tests.challenges.challenge_helpers import account, api_post, bearer, token_for

pytestmark = pytest.mark.django_db


def test_a_bot_challenges_another_which_accepts_and_both_are_seated_at_a_running_game(
) -> None:
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    maia_key, zed_key = token_for(maia), token_for(zed)

    made = api_post("/api/challenge/zed", maia_key,
                    {"game": "boardroom", "preset": "standard", "seats": 2, "rated": True})

    assert made.status_code == 201
    challenge = made.json()["challenge"]
    assert challenge["challenger"] == {"id": maia.user_id, "name": "maia", "bot": True}
    assert challenge["destUser"]["name"] == "zed" and challenge["status"] == "created"
    assert (challenge["game"], challenge["seats"], challenge["rated"]) == ("boardroom", 2, True)
    listed = Client().get("/api/challenge", **bearer(zed_key)).json()
    assert [c["id"] for c in listed["in"]] == [challenge["id"]] and listed["out"] == []

    accepted = api_post(f"/api/challenge/{challenge['id']}/accept", zed_key)

    assert accepted.status_code == 200
    table = Table.objects.get(code=accepted.json()["challenge"]["table"])
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.RUNNING
    assert sorted(p["name"] for p in game.players) == ["BOT maia", "BOT zed"]


def test_decline_with_a_reason_and_cancel() -> None:
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    maia_key, zed_key = token_for(maia), token_for(zed)
    first = api_post("/api/challenge/zed", maia_key, {"game": "chudopoly"}).json()["challenge"]
    declined = api_post(f"/api/challenge/{first['id']}/decline", zed_key, {"reason": "later"})
    assert declined.json()["challenge"]["declineReason"] == "later"
    second = api_post("/api/challenge/zed", maia_key, {"game": "chudopoly"}).json()["challenge"]
    cancelled = api_post(f"/api/challenge/{second['id']}/cancel", maia_key)
    assert cancelled.json()["challenge"]["status"] == "cancelled"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({}, 400, "bad_request"),
    ({"game": "chess"}, 400, "bad_game"),
    ({"game": "chudopoly", "seats": "two"}, 400, "bad_request"),
    ({"game": "chudopoly", "seats": 7}, 400, "bad_seats"),
    ({"game": "chudopoly", "preset": "nope"}, 400, "bad_ruleset"),
    ({"game": "chudopoly", "rules": []}, 400, "bad_request"),
    ({"game": "chudopoly", "rated": "yes"}, 400, "bad_request"),
])
def test_malformed_challenges_are_refused_as_json(body: dict, status: int, code: str) -> None:
    maia = account("maia", bot=True)
    account("zed", bot=True)
    response = api_post("/api/challenge/zed", token_for(maia), body)
    assert response.status_code == status and response.json()["code"] == code
    assert not Challenge.objects.exists()


def test_answers_to_someone_elses_challenge_or_twice_are_refused() -> None:
    maia, zed, ola = (account("maia", bot=True), account("zed", bot=True),
                      account("ola", bot=True))
    made = api_post("/api/challenge/zed", token_for(maia), {"game": "chudopoly"})
    cid = made.json()["challenge"]["id"]
    assert api_post(f"/api/challenge/{cid}/accept", token_for(ola)).status_code == 404
    assert api_post(f"/api/challenge/{cid}/accept", token_for(maia)).status_code == 404
    zed_key = token_for(zed)
    assert api_post(f"/api/challenge/{cid}/decline", zed_key).status_code == 200
    again = api_post(f"/api/challenge/{cid}/accept", zed_key)
    assert again.status_code == 409 and again.json()["code"] == "challenge_declined"
    assert not Table.objects.exists()


def test_a_token_without_bot_play_may_not_challenge() -> None:
    maia = account("maia", bot=True)
    account("zed", bot=True)
    response = api_post("/api/challenge/zed", token_for(maia, scopes=("game:read",)),
                        {"game": "chudopoly"})
    assert response.status_code == 403 and not Challenge.objects.exists()
