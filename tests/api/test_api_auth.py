"""/api/ authenticates by bearer token alone and answers every refusal as JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import api_get, api_post, make_token
from django.test import Client

from accounts.api_tokens import token_for_secret, token_revoke

pytestmark = pytest.mark.django_db


def test_the_account_answers_who_the_token_acts_for(alice: Any, alice_secret: str) -> None:
    response = api_get(Client(), "/api/account", alice_secret)
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "alice" and body["id"] == alice.pk
    assert body["token"] == {"description": "test bot", "scopes": ["bot:play", "game:read"]}


def test_no_token_is_a_401_with_a_json_error(db: None) -> None:
    response = Client().get("/api/account")
    assert response.status_code == 401
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "no_token" and response.json()["error"]
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("header", ["Bearer chp_nonsense", "Bearer ", "Basic abc", "chp_x"])
def test_a_bad_token_is_a_401(alice_secret: str, header: str) -> None:
    response = Client().get("/api/account", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401 and "error" in response.json()


def test_a_revoked_token_is_a_401(alice: Any, alice_secret: str) -> None:
    token_revoke(user_id=alice.pk, token_id=token_for_secret(alice_secret).pk)
    response = api_get(Client(), "/api/account", alice_secret)
    assert response.status_code == 401 and response.json()["code"] == "revoked_token"


def test_a_signed_in_browser_is_nobody_on_the_api(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    assert client.get("/accounts/tokens/").status_code == 200  # the cookie works elsewhere
    response = client.get("/api/account")
    assert response.status_code == 401 and response.json()["code"] == "no_token"


def test_the_api_sets_no_cookie(alice_secret: str) -> None:
    response = api_get(Client(), "/api/account", alice_secret)
    assert not response.cookies


def test_a_wrong_method_is_a_405_saying_which(alice_secret: str) -> None:
    response = api_post(Client(), "/api/account", alice_secret, {})
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert response.json()["code"] == "method_not_allowed"


def test_an_unknown_path_is_a_json_404(alice_secret: str) -> None:
    response = api_get(Client(), "/api/no/such/thing", alice_secret)
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_wrong_method_is_refused_before_the_token_is_asked_for(alice: Any) -> None:
    response = Client().post("/api/account", data="x" * 10, content_type="text/plain")
    assert response.status_code == 405


def test_an_unknown_scope_in_a_view_is_a_programming_error() -> None:
    from games.api.auth import api_view

    with pytest.raises(ValueError, match="unknown API scopes"):
        api_view(scopes=("root",))


def test_a_token_without_the_scope_is_a_403(alice: Any) -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory

    from games.api.auth import api_view

    @api_view(scopes=("bot:play",))
    def needs_play(request: Any) -> HttpResponse:
        return HttpResponse("played")

    reader = make_token(alice, scopes=("game:read",))
    player = make_token(alice, scopes=("bot:play",))
    factory = RequestFactory()
    refused = needs_play(factory.get("/api/x", HTTP_AUTHORIZATION=f"Bearer {reader}"))
    assert refused.status_code == 403
    assert b"missing_scope" in refused.content and b"bot:play" in refused.content
    assert needs_play(factory.get("/api/x", HTTP_AUTHORIZATION=f"Bearer {player}")).content \
        == b"played"


def _echo_view() -> Any:
    from django.http import JsonResponse

    from games.api.auth import api_view, json_body

    @api_view(methods=("POST",))
    def echo(request: Any) -> Any:
        return JsonResponse(json_body(request))

    return echo


@pytest.mark.parametrize(("raw", "status"), [
    (b"{not json", 400), (b"[1, 2]", 400), (b"\xff\xfe", 400),
    (b'{"text": "a\\u0000b"}', 400), (b'{"a": "' + b"x" * 9000 + b'"}', 413),
])
def test_a_malformed_or_oversized_body_is_a_json_error(alice_secret: str, raw: bytes,
                                                       status: int) -> None:
    from django.test import RequestFactory

    request = RequestFactory().post("/api/x", data=raw, content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Bearer {alice_secret}")
    response = _echo_view()(request)
    assert response.status_code == status and "error" in json.loads(response.content)


def test_a_json_object_body_reaches_the_view(alice_secret: str) -> None:
    from django.test import RequestFactory

    request = RequestFactory().post("/api/x", data=b'{"a": 1}', content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Bearer {alice_secret}")
    assert json.loads(_echo_view()(request).content) == {"a": 1}
