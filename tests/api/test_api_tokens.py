"""Personal API tokens on the account page: made (secret shown once), listed, revoked."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from api_helpers import make_account
from django.test import Client
from django.urls import reverse

from accounts.api_tokens import TokenRefused, token_create, token_for_secret
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db


def _create(client: Client, description: str = "my bot",
            scopes: tuple[str, ...] = ("bot:play",)) -> Any:
    return client.post(reverse("accounts:api_token_create"),
                       {"description": description, "scopes": list(scopes)})


def test_a_new_token_is_shown_once_and_only_its_digest_is_stored(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    response = _create(client)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    secret = re.search(rb'id="new-token-secret">([^<]+)<', response.content).group(1).decode()
    token = ApiToken.objects.get(user=alice)
    assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(pk=token.pk).values().first())
    assert token.scopes == ["bot:play"] and token.description == "my bot"
    listing = client.get(reverse("accounts:api_tokens"))
    assert secret.encode() not in listing.content
    assert token.prefix.encode() in listing.content and b"never" in listing.content


def test_the_list_shows_when_a_token_was_last_used(alice: Any, alice_secret: str) -> None:
    client = Client()
    client.force_login(alice)
    Client().get("/api/account", HTTP_AUTHORIZATION=f"Bearer {alice_secret}")
    token = token_for_secret(alice_secret)
    assert token is not None and token.last_used_at is not None
    page = client.get(reverse("accounts:api_tokens")).content.decode()
    row = re.search(rf'id="token-{token.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "never" not in row


def test_revoking_is_a_post_with_its_csrf_token(alice: Any, alice_secret: str) -> None:
    token = token_for_secret(alice_secret)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("accounts:api_token_revoke", args=[token.pk])
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 403  # no CSRF token
    page = client.get(reverse("accounts:api_tokens"))
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1)
    assert client.post(url, {"csrfmiddlewaretoken": csrf.decode()}).status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_making_a_token_needs_the_csrf_token_too(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert _create(client).status_code == 403
    assert not ApiToken.objects.exists()


def test_nobody_revokes_another_accounts_token(alice: Any, alice_secret: str) -> None:
    token = token_for_secret(alice_secret)
    client = Client()
    client.force_login(make_account("mallory"))
    response = client.post(reverse("accounts:api_token_revoke", args=[token.pk]))
    assert response.status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_token_pages_need_a_signed_in_account(db: None) -> None:
    assert Client().get(reverse("accounts:api_tokens")).status_code == 302
    assert _create(Client()).status_code == 302
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(("description", "scopes", "words"), [
    ("", ("bot:play",), "Describe"),
    ("x" * 61, ("bot:play",), "at most 60"),
    ("bot", (), "at least one scope"),
    ("bot", ("admin",), "Unknown scope"),
])
def test_a_token_needs_a_description_and_known_scopes(alice: Any, description: str,
                                                      scopes: tuple[str, ...],
                                                      words: str) -> None:
    with pytest.raises(TokenRefused, match=words):
        token_create(user_id=alice.pk, description=description, scopes=scopes)
    client = Client()
    client.force_login(alice)
    response = _create(client, description, scopes)
    assert response.status_code == 400 and words.encode() in response.content
    assert not ApiToken.objects.exists()
