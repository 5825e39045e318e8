"""Accounts for the challenge, event and bot API tests: people and bot accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from accounts import bots
from accounts.models import Profile
from games.platform.identity import Viewer


def account(username: str, *, bot: bool = False) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    Profile.objects.create(user=user)
    if bot:
        bots.account_upgrade_to_bot(user_id=user.pk)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def token_for(viewer: Viewer, *, scopes: tuple[str, ...] = ("bot:play",)) -> str:
    from accounts.api_tokens import token_create

    return token_create(user_id=viewer.user_id, description="test bot", scopes=scopes).secret


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api_post(path: str, secret: str, body: object = None) -> object:
    import json

    data = "" if body is None else json.dumps(body)
    return Client().post(path, data=data, content_type="application/json", **bearer(secret))
