"""A seat whose own partials read as they did on a screen its socket rendered before the last
one (a Chudopoly seat charged, that paid and waits again) is pushed without a screen of its
own: its version line, the partials every seat reads alike and its own partials as that
earlier screen rendered them (presenters.quick_push, keep_own). Over whole games of medium
bots on turn clocks, every such push is what its own screen would have rendered, partial by
partial, and names no other seat's hand."""

from __future__ import annotations

from typing import Any

import pytest
from board_game_screens import guests

from games.platform import presenters, services
from games.platform.identity import Viewer
from tests.tables.test_seat_pushed_without_its_screen import (
    EXTRA,
    SEED,
    _full,
    _started_on_clocks,
    medium_moves,
)

pytestmark = pytest.mark.django_db


def _play(kind: str, prefix: str) -> tuple[int, int]:
    """One game of medium bots (at most 160 moves), each other seat's push checked against
    its own screen: how many pushes were quick, and how many of them went with kept own
    partials."""
    players = guests(prefix)
    game = _started_on_clocks(kind, players)
    memos: dict[Viewer, dict[str, Any]] = {v: {} for v in players}
    marks: dict[Viewer, presenters.SeatMark | None] = {}
    kept: dict[Viewer, presenters.KeptOwn] = {v: [] for v in players}
    snapshot = first = presenters.load_snapshot(game.table_id)

    def full(viewer: Viewer) -> dict[str, str]:
        screen = presenters.screen_from(snapshot, viewer, {})
        parts = presenters.render_all(screen, oob=True, extra=EXTRA, memo=memos[viewer])
        marks[viewer] = presenters.seat_mark(screen, memos[viewer]["lobby"][0])
        presenters.keep_own(kept[viewer], marks[viewer], screen, parts)
        return parts

    for viewer in players:
        full(viewer)
    quick = returning = 0
    for snapshot, mover in medium_moves(game, players, first):
        full(mover)
        for viewer in players:
            if viewer is mover:
                continue
            before = marks[viewer]
            found = presenters.quick_push(snapshot, viewer, before, kept[viewer], EXTRA)
            # The screen the seat would have had, from a snapshot of its own.
            alone = presenters.TableSnapshot(table=snapshot.table, seats=snapshot.seats,
                                             game=snapshot.game, log_rows=snapshot.log_rows)
            own_screen, own_mark = _full(alone, viewer, {})
            if found is None:
                full(viewer)
                continue
            parts, mark = found
            quick += 1
            assert mark == own_mark
            if mark is before:
                continue
            returning += 1
            # Its own partials and the shared ones, each what its own screen renders, in
            # the order render_all gives them.
            assert list(parts) == list(own_screen)
            for name, html in parts.items():
                assert html == own_screen[name], (name, snapshot.game.version)
            marks[viewer] = mark
    return quick, returning


# How many pushes with kept own partials a few games give at least: in Chudopoly a seat that
# paid a charge, in Boardroom a seat after an auction or a debt it only watched, in
# Commonwealth seldom (a payment or a chip placed changes few of its seats' keys and back).
RETURNING = {"chudopoly": 5, "boardroom": 5, "commonwealth": 1}


@pytest.mark.parametrize("kind", RETURNING)
def test_a_seat_whose_own_partials_read_as_on_an_earlier_screen_is_sent_that_screens(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    returning = 0
    for game in range(4):
        monkeypatch.setattr(services.secrets, "randbits", lambda bits, game=game: SEED + game)
        returning += _play(kind, f"kept-{kind[:2]}{game}")[1]
        if returning >= RETURNING[kind]:
            break
    assert returning >= RETURNING[kind]


def test_a_whole_screen_push_keeps_no_chat_log_among_its_own_partials() -> None:
    players = guests("kept-chat")
    game = _started_on_clocks("chudopoly", players)
    snapshot = presenters.load_snapshot(game.table_id)
    # A seat that waits: the turn's holder has no mark, so nothing of its screen is kept
    # (who holds the first turn is the game's random deal).
    screen = next(s for s in (presenters.screen_from(snapshot, v, {}) for v in players)
                  if s.seat != game.state["turn"])
    memo: dict[str, Any] = {}
    parts = presenters.render_all(screen, oob=True, extra=EXTRA, memo=memo)
    parts["chat-log"] = "<div id='chat-log'></div>"
    kept: presenters.KeptOwn = []
    presenters.keep_own(kept, presenters.seat_mark(screen, memo["lobby"][0]), screen, parts)
    assert kept and "chat-log" not in kept[0][1] and "chat-log" not in kept[0][2]
    # Nor the partials every seat reads alike, nor the version line: those go fresh.
    assert set(kept[0][2]).isdisjoint({"version", "status", "players", "log"})

