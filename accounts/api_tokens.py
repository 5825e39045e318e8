"""Personal API tokens: made, listed, revoked by their owner, and found from a secret.

A token's secret is shown once, when it is made; the database keeps its SHA-256 digest. The
/api/ views find the token a request's `Authorization: Bearer <secret>` names
(games/api/auth.py) and note when it was last used, at most once a minute (a bot's every move
need not write the token's row).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken

# Scope -> what it lets a program do, as the account page says it.
API_SCOPES: dict[str, str] = {
    "bot:play": "Play games: stream your seat's game, move, chat, resign",
    "game:read": "Read games: stream and export games",
}
SECRET_PREFIX = "chp_"
DESCRIPTION_MAX = 60
TOKENS_PER_ACCOUNT = 20  # active tokens; a program needs one, a few are plenty
LAST_USED_EVERY = timedelta(minutes=1)


class TokenRefused(ValueError):
    """A token could not be made or revoked; the message is for the owner."""


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once, never stored


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def token_create(*, user_id: int, description: str, scopes: Iterable[str]) -> NewToken:
    description = " ".join((description or "").split())
    wanted = sorted(set(scopes))
    if not description:
        raise TokenRefused("Describe the token (what program uses it).")
    if len(description) > DESCRIPTION_MAX:
        raise TokenRefused(f"Descriptions are at most {DESCRIPTION_MAX} characters.")
    unknown = [s for s in wanted if s not in API_SCOPES]
    if unknown:
        raise TokenRefused(f"Unknown scope: {', '.join(unknown)}.")
    if not wanted:
        raise TokenRefused("Pick at least one scope.")
    with transaction.atomic():
        active = ApiToken.objects.filter(user_id=user_id, revoked_at__isnull=True)
        if active.select_for_update().count() >= TOKENS_PER_ACCOUNT:
            raise TokenRefused(f"An account keeps at most {TOKENS_PER_ACCOUNT} tokens; "
                               "revoke one first.")
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(user_id=user_id, description=description,
                                        scopes=wanted, secret_hash=secret_digest(secret),
                                        prefix=secret[:len(SECRET_PREFIX) + 4])
    return NewToken(token=token, secret=secret)


def token_revoke(*, user_id: int, token_id: int) -> ApiToken:
    """Revoke one of the owner's tokens (again is a no-op); another account's is not found."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id, user_id=user_id).first()
        if token is None:
            raise TokenRefused("No such token.")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
        return token


def tokens_of(user_id: int) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user_id=user_id))


def token_for_secret(secret: str) -> ApiToken | None:
    """The token (revoked or not) whose secret this is, with its owner; None if none is."""
    if not secret.startswith(SECRET_PREFIX) or len(secret) > 100:
        return None
    return (ApiToken.objects.select_related("user")
            .filter(secret_hash=secret_digest(secret)).first())


def token_used(token: ApiToken) -> None:
    """Note that the token was used now (written at most once a minute)."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_EVERY:
        return
    token.last_used_at = now
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
