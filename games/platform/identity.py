"""Who is this browser? A signed-in user, or a guest identified by a key in their session.

The same answer is computed for an HTTP request and for a websocket scope, so a seat taken on
the table page is the seat the socket acts for. A guest's key lives in the Django session (a
cookie), which is why closing the tab and coming back in the same browser finds the seat again.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.crypto import salted_hmac

GUEST_SESSION_KEY = "chudopoly_guest"
GUEST_NAME_SESSION_KEY = "chudopoly_name"

# REFERENCE §7: 1–16 characters from letters, digits, space, . _ ' -; starts with a letter/digit.
CALL_SIGN_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._'\-]{0,15}$")
# A bot account's name at a table starts with this (accounts/bots.py); nobody else's may.
BOT_ACCOUNT_PREFIX = "BOT "


@dataclass(frozen=True)
class Viewer:
    user_id: int | None
    guest_key: str | None
    username: str | None = None

    @property
    def author_key(self) -> str:
        return f"u{self.user_id}" if self.user_id else f"g{self.guest_key or '-'}"

    @property
    def known(self) -> bool:
        return bool(self.user_id or self.guest_key)

    def owns(self, seat: Any) -> bool:
        if seat.is_bot:
            return False
        if self.user_id and seat.user_id == self.user_id:
            return True
        return bool(self.guest_key) and seat.guest_key == self.guest_key

    def seat_filter(self) -> Q:
        q = Q(pk__in=[])
        if self.user_id:
            q |= Q(user_id=self.user_id)
        if self.guest_key:
            q |= Q(guest_key=self.guest_key)
        return q & Q(is_bot=False)


def identity_digest(viewer: Viewer) -> str:
    """A keyed digest of who this browser is (its account or its guest key), to recognise it
    later without storing the key: a guest key read from the database would be a seat."""
    return salted_hmac("games.identity", viewer.author_key, algorithm="sha256").hexdigest()


def new_guest_key() -> str:
    return secrets.token_urlsafe(24)


def viewer_from_request(request: HttpRequest, *, create: bool = False) -> Viewer:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Viewer(user_id=user.pk, guest_key=None, username=user.get_username())
    key = request.session.get(GUEST_SESSION_KEY)
    if key is None and create:
        key = new_guest_key()
        request.session[GUEST_SESSION_KEY] = key
    return Viewer(user_id=None, guest_key=key)


def viewer_from_scope(scope: dict[str, Any]) -> Viewer:
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return Viewer(user_id=user.pk, guest_key=None, username=user.get_username())
    session = scope.get("session")
    key = session.get(GUEST_SESSION_KEY) if session is not None else None
    return Viewer(user_id=None, guest_key=key)


def seat_of(seats: QuerySet | list, viewer: Viewer) -> Any | None:
    for seat in seats:
        if viewer.owns(seat):
            return seat
    return None


def call_sign_problem(name: str) -> str | None:
    if not name:
        return "Pick a name to play under."
    if len(name) > 16:
        return "Names are at most 16 characters."
    if not CALL_SIGN_RE.match(name):
        return ("Use letters, digits, spaces and . _ ' - only, starting with a letter or digit.")
    if name.upper().startswith(BOT_ACCOUNT_PREFIX):
        return "Names starting with “BOT ” mark bot accounts; pick another."
    return None
