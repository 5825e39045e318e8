"""Who may open a table by its code, and the throttle on guessing codes and tokens.

Table codes are 4 characters (2^20 of them): short enough to read aloud, and short enough to
scan (50 requests a second walked them without a limit). So a public table opens by its code,
but a private one only for the people seated there or with the host's invite link, which
carries `invite_token` (128 random bits). A visitor who is refused gets the same 404 as for a
code that does not exist, so a scan cannot tell private tables from free codes; after
TABLE_MISSES_PER_CLIENT such misses in TABLE_MISS_WINDOW_SECONDS one client address is refused
every table it is not admitted to (429), whether or not the code exists.

One visitor refused is told more: the browser a seat moved away from ("Move seat", "Continue
on another device"), recognised by the seat's `moved_from` digest, hears that its seat moved
and when (SeatMovedAway), not a 404. It learns nothing it did not know, and no guess of a
code or a token can make a browser that digest.
"""

from __future__ import annotations

import secrets

from django.conf import settings

from chudopoly_site import throttle
from games.platform.identity import Viewer, identity_digest
from games.platform.models import Seat, Table

INVITE_PARAM = "invite"
_MISSES = "table-miss"


class TableHidden(Exception):
    """No such table, or a private one this visitor was not invited to: answered as a 404."""


class SeatMovedAway(TableHidden):
    """A private table this browser had a seat at, until the seat moved to another device."""

    def __init__(self, table: Table, seat: Seat) -> None:
        super().__init__(table.code)
        self.table = table
        self.seat = seat


class TooManyMisses(throttle.Throttled):
    """This client address missed too often: answered as a 429."""


def invite_token_new() -> str:
    return secrets.token_urlsafe(16)


def table_admits(table: Table, viewer: Viewer, token: str | None) -> bool:
    if not table.invite_token:
        return True
    if token and secrets.compare_digest(token.encode(), table.invite_token.encode()):
        return True
    return viewer.known and table.seats.filter(viewer.seat_filter()).exists()


def table_for_visitor(code: str, viewer: Viewer, token: str | None,
                      client: str | None) -> Table:
    """The table at `code` if this visitor may open it; raises TableHidden or TooManyMisses.

    The code must already be normalised (upper case)."""
    table = Table.objects.filter(code=code).first()
    if table is not None and table_admits(table, viewer, token):
        return table
    moved = seat_moved_away(table, viewer) if table is not None else None
    if moved is not None:
        raise SeatMovedAway(table, moved)
    who = client or "unknown"
    if throttle.over(_MISSES, who, limit=settings.TABLE_MISSES_PER_CLIENT):
        raise TooManyMisses
    throttle.hit(_MISSES, who, window=settings.TABLE_MISS_WINDOW_SECONDS)
    raise TableHidden


def seat_moved_away(table: Table, viewer: Viewer) -> Seat | None:
    """The seat of `table` that moved from this browser to another device and is not back,
    while this browser has no seat there."""
    if not viewer.known:
        return None
    seats = list(table.seats.filter(is_bot=False, moved_from__isnull=False))
    if not seats or table.seats.filter(viewer.seat_filter()).exists():
        return None
    mine = identity_digest(viewer)
    return next((s for s in seats if secrets.compare_digest(s.moved_from or "", mine)), None)
