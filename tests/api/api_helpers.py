"""Helpers for the bot API's tests: accounts, tokens and authorised requests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.test import Client

from accounts import services
from accounts.api_tokens import token_create

PASSWORD = "correct horse battery"


def make_account(username: str) -> Any:
    return services.account_create(username=username, password=PASSWORD)


def make_token(user: Any, *, scopes: Iterable[str] = ("bot:play",),
               description: str = "test bot") -> str:
    return token_create(user_id=user.pk, description=description, scopes=scopes).secret


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api_get(client: Client, path: str, secret: str | None) -> Any:
    return client.get(path, **(bearer(secret) if secret else {}))


def api_post(client: Client, path: str, secret: str | None, body: Any = None, *,
             raw: bytes | None = None) -> Any:
    data = raw if raw is not None else json.dumps(body if body is not None else {})
    return client.post(path, data=data, content_type="application/json",
                       **(bearer(secret) if secret else {}))
