"""Small builders shared by the table tests."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from games.chudopoly.bots import choose_action
from games.platform import services, swaps
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table

ENGINE = get_game("chudopoly")


def open_table(host: Viewer, *, name: str = "Alice", **kwargs: Any) -> Table:
    kwargs.setdefault("ruleset_spec", {"preset": "chudopoly"})
    return services.table_create(viewer=host, name=name, **kwargs)


def started_game(host: Viewer, *others: tuple[Viewer, str], bots: int = 0,
                 **kwargs: Any) -> Game:
    table = open_table(host, **kwargs)
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=host)
    return services.game_start(table_id=table.pk, viewer=host)


def client_of(viewer: Viewer) -> Client:
    """A test client that is this guest (its session holds the guest's key)."""
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def seat_of(game: Game, viewer: Viewer) -> int:
    seat = next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))
    assert seat.game_seat is not None
    return seat.game_seat


def play_one(game: Game) -> Game:
    """Let the basic bot make the next owed decision for whichever seat owes it."""
    game.refresh_from_db()
    seat = ENGINE.to_decide(game.state)[0]
    action = choose_action(ENGINE.view(game.state, seat))
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def play_to_the_end(game: Game, limit: int = 5000) -> Game:
    for _ in range(limit):
        if game.status == Game.Status.FINISHED:
            return game
        game = play_one(game)
    raise AssertionError(f"the game did not end within {limit} decisions")


CARD_ID_PATTERNS = (
    re.compile(r'data-card-id="(\d+)"'),
    re.compile(r'&quot;(?:card|take|give)&quot;:(\d+)'),
    re.compile(r'name="cards" value="(\d+)"'),
)
CARD_LIST_PATTERN = re.compile(r'&quot;cards&quot;:\[([\d,]*)\]')


def card_ids_in(html: str) -> set[int]:
    """Every card id an HTML frame shows or refers to."""
    ids: set[int] = set()
    for pattern in CARD_ID_PATTERNS:
        ids.update(int(m) for m in pattern.findall(html))
    for group in CARD_LIST_PATTERN.findall(html):
        ids.update(int(x) for x in group.split(",") if x)
    return ids


def read_after(old_html: str, new_html: str) -> tuple[swaps.Tree, swaps.Tree]:
    """The old HTML's tree and the new HTML's read after it, as a push reads them, checked to
    find every element where a reading afresh finds it."""
    old = swaps.Tree(old_html)
    new = swaps.Tree(new_html, after=old.base)
    fresh = swaps.Tree(new_html)
    assert new.ok and new.ids == fresh.ids

    def shape(e: swaps.Element) -> tuple[Any, ...]:
        return (e.id, e.start, e.end, tuple(map(shape, e.children)))

    assert shape(new.root) == shape(fresh.root)
    return old, new
