"""A seat whose own partials (Chudopoly's hand and decision, Boardroom's decision, portfolio
and centre card, Commonwealth's decision, deal forms, centre card and holdings; its private
lines, its lobby) read as its last push showed them is pushed without a screen of its own: its
version line and the partials every seat reads alike, as another seat's screen of the same move
rendered them. What it is sent is what its own screen would have sent, over whole games of
medium bots on turn clocks (every move sets a new deadline, which the seat-free panels show),
and nothing of it is another seat's. And the game's `seat_screen_key` is sound: whenever a
seat's key is the one its previous screen had, every one of its own partials is the same
bytes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from board_game_screens import guests, started
from django.utils import timezone

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table

pytestmark = pytest.mark.django_db

NAMES = ("Bea", "Cy", "Dee")
EXTRA = {"csrf_value": "", "invite_origin": "http://testserver"}
# Every game that says what a seat's own partials read (interface.py, `seat_screen_key`).
KEYED = ("chudopoly", "boardroom", "commonwealth")
# The games whose seats that only watch a move are pushed without their screens, and at least
# what share of the other seats' pushes go so over games of medium bots: in Chudopoly most;
# in Boardroom about three fifths, the turn's change and an auction's bids among them (whom
# the game waits for and the auction's box are seat-free partials of their own: only the
# bidder's panel changes with a bid); in Commonwealth more than half, the turn's change
# among them (its auctions' bids and a project bought change a waiting seat's panels).
QUICK = {"chudopoly": 1 / 3, "boardroom": 1 / 2, "commonwealth": 1 / 2}
# The first deal of these tests (services.game_start draws it with secrets.randbits).
SEED = 20261207


def _own(kind: str) -> tuple[str, ...]:
    """A seat's own partials: the seat marker, its private lines, the lobby and the game's
    board partials that are not seat-free."""
    engine = get_game(kind)
    return ("me", "log_mine", "lobby", *(name for name in engine.board_templates
                                         if name not in engine.seat_free_templates))


def _viewer_at(game: Game, players: list[Viewer], seat: int) -> Viewer:
    snapshot = presenters.load_snapshot(game.table_id)
    for viewer in players:
        if any(viewer.owns(s) and s.game_seat == seat for s in snapshot.seats):
            return viewer
    raise AssertionError(f"no player at seat {seat}")


def _full(snapshot: presenters.TableSnapshot, viewer: Viewer, memo: dict[str, Any]
          ) -> tuple[dict[str, str], presenters.SeatMark | None]:
    screen = presenters.screen_from(snapshot, viewer, {})
    parts = presenters.render_all(screen, oob=True, extra=EXTRA, memo=memo)
    return parts, presenters.seat_mark(screen, memo["lobby"][0])


def _started_on_clocks(kind: str, players: list[Viewer]) -> Game:
    """Four people on turn clocks: every move sets a new deadline, which the panels show."""
    return started(kind, players, NAMES, turn_seconds=120, response_seconds=60)


def medium_moves(game: Game, players: list[Viewer], snapshot: presenters.TableSnapshot
                 ) -> Iterator[tuple[presenters.TableSnapshot, Viewer]]:
    """The game's next moves, each its medium bot's, until it ends or 160 were made: the
    snapshot after each (made from the one before, as a socket's is) and who moved."""
    engine = get_game(game.game_kind)
    for _ in range(160):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            return
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), "medium")
        move = services.table_move(game_id=game.pk, seat=seat, action=action,
                                   expected_version=game.version)
        snapshot = presenters.snapshot_after_move(move, snapshot)
        yield snapshot, _viewer_at(move.game, players, seat)


def _play(kind: str, prefix: str) -> tuple[int, int]:
    """One game of medium bots (at most 160 moves), every other seat's push checked: how many
    pushes, and how many of them quick."""
    players = guests(prefix)
    game = _started_on_clocks(kind, players)
    engine = get_game(kind)
    own = _own(kind)
    free = [name for name in engine.board_templates if name in engine.seat_free_templates]
    memos: dict[Viewer, dict[str, Any]] = {v: {} for v in players}
    shown: dict[Viewer, tuple[dict[str, str], presenters.SeatMark | None]] = {}
    snapshot = first = presenters.load_snapshot(game.table_id)
    for viewer in players:
        shown[viewer] = _full(snapshot, viewer, memos[viewer])
    quick = pushes = 0
    for snapshot, mover in medium_moves(game, players, first):
        # The mover's push builds its screen first, as the socket that moved does.
        shown[mover] = _full(snapshot, mover, memos[mover])
        for viewer in players:
            if viewer is mover:
                continue
            before_parts, mark = shown[viewer]
            parts = presenters.quick_parts(snapshot, viewer, mark, EXTRA)
            full, new_mark = _full(snapshot, viewer, memos[viewer])
            pushes += 1
            if mark is not None and new_mark == mark:  # equal marks, equal own partials
                for name in own:
                    assert full[name] == before_parts[name], (name, snapshot.game.version)
            if parts is not None:
                quick += 1
                assert list(parts) == ["version", *free]
                for name, html in parts.items():
                    assert html == full[name], name
                for name in own:
                    assert full[name] == before_parts[name], name
                assert new_mark == mark
            shown[viewer] = (full, new_mark)
    return pushes, quick


@pytest.mark.parametrize("kind", QUICK)
def test_a_seat_whose_own_partials_held_is_sent_what_its_screen_would_send(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A game may end early: games are played until 300 pushes were checked (a single short
    # game once gave only 261), each of its own deal, the same every run.
    quick = pushes = 0
    for game in range(6):
        monkeypatch.setattr(services.secrets, "randbits", lambda bits, game=game: SEED + game)
        played, fast = _play(kind, f"quick-{kind[:2]}{game}")
        pushes, quick = pushes + played, quick + fast
        if pushes > 300:
            break
    # Many of the other seats' pushes are of seats that only watch the move.
    assert pushes > 300 and quick > pushes * QUICK[kind]


@pytest.mark.parametrize(("kind", "level"), [(kind, level) for kind in KEYED
                                             for level in ("easy", "hard")])
def test_a_seat_whose_key_held_renders_its_own_partials_byte_for_byte_as_before(
        kind: str, level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's and a watcher's screen built afresh after every move of a whole game (each
    on a snapshot of its own, nothing shared between them), its key read off the state as a
    push reads it: wherever a seat's key is its previous screen's, its own board partials are
    the very bytes they were."""
    # One deal every run: how often a key holds depends on the deal (an easy Boardroom game
    # of a random deal held it fewer times than it had moves about one run in six).
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: SEED)
    players = guests(f"key-{kind[:2]}-{level}")
    game = started(kind, players, NAMES)
    engine = get_game(kind)
    own = [name for name in engine.board_templates if name not in engine.seat_free_templates]
    last: dict[int, tuple[Any, dict[str, str]]] = {}
    held = moves = 0
    for _ in range(220):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            break
        snapshot = presenters.load_snapshot(game.table_id)
        for viewer in players:
            mine = presenters.TableSnapshot(table=snapshot.table, seats=snapshot.seats,
                                            game=snapshot.game, log_rows=snapshot.log_rows)
            screen = presenters.screen_from(mine, viewer, {})
            assert screen.seat is not None
            parts = presenters.render_all(screen, oob=True, extra=EXTRA, memo={})
            key = engine.seat_screen_key(game.state, screen.seat)
            # The key a push's screen reads with its view is the key read without it.
            assert engine.seat_screen_key(game.state, screen.seat, screen.view) == key
            before = last.get(screen.seat)
            if key is not None and before is not None and before[0] == key:
                held += 1
                for name in own:
                    assert parts[name] == before[1][name], (name, game.version)
            last[screen.seat] = (key, {name: parts[name] for name in own})
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), level)
        services.table_move(game_id=game.pk, seat=seat, action=action,
                            expected_version=game.version)
        moves += 1
    assert moves > 40
    if kind in QUICK:  # most screens of a seat that only watched the move held their key
        assert held > moves, (held, moves)


def test_no_seat_is_pushed_without_its_screen_at_the_start_or_after_the_result() -> None:
    players = guests("quick-edges")
    game = started("chudopoly", players, NAMES)
    snapshot = presenters.load_snapshot(game.table_id)
    # No screen of the snapshot rendered yet: nothing to share.
    first = presenters.screen_from(snapshot, players[1], {})
    memo: dict[str, Any] = {}
    presenters.render_all(first, oob=True, extra=EXTRA, memo=memo)
    mark = presenters.seat_mark(first, memo["lobby"][0])
    fresh = presenters.load_snapshot(game.table_id)
    assert presenters.quick_parts(fresh, players[1], mark, EXTRA) is None
    # A watcher has no mark: its screen is always built.
    watcher = Viewer(user_id=None, guest_key=None)
    screen = presenters.screen_from(snapshot, watcher, {})
    presenters.render_all(screen, oob=True, extra=EXTRA, memo={})
    assert presenters.seat_mark(screen, ("lobby",)) is None
    # A game with a result: every screen is built (the host's rematch line is its own).
    game.status = Game.Status.FINISHED
    game.result = {"winner": 0, "placements": [0, 1, 2, 3]}
    ended = presenters.TableSnapshot(table=snapshot.table, seats=snapshot.seats, game=game,
                                     log_rows=snapshot.log_rows)
    screen = presenters.screen_from(ended, players[1], {})
    presenters.render_all(screen, oob=True, extra=EXTRA, memo=memo)
    assert presenters.seat_mark(screen, memo["lobby"][0]) is None
    assert "seat_free" not in ended.shared


def _waiting_viewer(game: Game, players: list[Viewer]) -> Viewer:
    engine = get_game(game.game_kind)
    owing = set(engine.to_decide(game.state))
    snapshot = presenters.load_snapshot(game.table_id)
    for viewer in players:
        me = next((s for s in snapshot.seats if viewer.owns(s)), None)
        if me is not None and me.game_seat not in owing:
            return viewer
    raise AssertionError("every seat owes a decision")


def _next_snapshot(game: Game, players: list[Viewer]) -> presenters.TableSnapshot:
    """The table read again, with a seat's screen rendered on it first (as the first socket's
    push renders it): what another socket's push is then handed."""
    snapshot = presenters.load_snapshot(game.table_id)
    presenters.render_all(presenters.screen_from(snapshot, players[0], {}), oob=True,
                          extra=EXTRA, memo={})
    return snapshot


def test_a_seat_is_pushed_its_screen_when_another_goes_away_or_the_table_pauses() -> None:
    """What the seats' connections and the table's pause change, a seat's own lobby shows:
    its push builds its screen, though its hand and decision are as they were."""
    players = guests("quick-away")
    game = started("chudopoly", players, NAMES)
    viewer = _waiting_viewer(game, players)
    _, mark = _full(presenters.load_snapshot(game.table_id), viewer, {})
    assert mark is not None
    assert presenters.quick_parts(_next_snapshot(game, players), viewer, mark, EXTRA)
    other = next(s for s in presenters.load_snapshot(game.table_id).seats
                 if s.game_seat is not None and not viewer.owns(s))
    Seat.objects.filter(pk=other.pk).update(away=True, away_reason="closed")
    assert presenters.quick_parts(_next_snapshot(game, players), viewer, mark, EXTRA) is None
    Seat.objects.filter(pk=other.pk).update(away=False, away_reason="")
    Table.objects.filter(pk=game.table_id).update(paused_at=timezone.now())
    assert presenters.quick_parts(_next_snapshot(game, players), viewer, mark, EXTRA) is None


def test_a_seat_is_pushed_its_screen_when_its_auto_move_is_turned_on() -> None:
    """Boardroom's auto move toggle is in the seat's decision panel and not in its lobby: the
    seat's mark keeps it, so the push that follows the toggle shows it."""
    players = guests("quick-auto")
    game = started("boardroom", players, NAMES)
    viewer = _waiting_viewer(game, players)
    _, mark = _full(presenters.load_snapshot(game.table_id), viewer, {})
    assert mark is not None and not mark.auto_move
    assert presenters.quick_parts(_next_snapshot(game, players), viewer, mark, EXTRA)
    mine = next(s for s in presenters.load_snapshot(game.table_id).seats if viewer.owns(s))
    Seat.objects.filter(pk=mine.pk).update(auto_move=True)
    assert presenters.quick_parts(_next_snapshot(game, players), viewer, mark, EXTRA) is None


def test_a_waiting_commonwealth_seat_has_a_key_and_the_deciding_seat_none() -> None:
    """The seat to decide reads its buttons, which say who pays what from today's cash: its
    screen is built. A seat that waits is keyed by what its own partials read, which is
    neither anyone's cash nor the Fund: a move that only spends leaves its key as it was."""
    engine = get_game("commonwealth")
    players = guests("cw-key")
    game = started("commonwealth", players, NAMES)
    state = game.state
    deciding = engine.to_decide(state)[0]
    waiting = next(s for s in range(4) if s not in engine.to_decide(state))
    assert engine.seat_screen_key(state, deciding) is None
    key = engine.seat_screen_key(state, waiting)
    assert key is not None
    for p in state["players"]:
        p["cash"] -= 7
    state["fund"] -= 11
    assert engine.seat_screen_key(state, waiting) == key


def test_a_waiting_commonwealth_seat_keeps_its_key_while_the_turn_passes_between_the_others(
        ) -> None:
    """Whom the game waits for is a seat-free line of its own (_waiting.html): another seat
    coming to decide changes nothing the waiting seat's own partials read."""
    engine = get_game("commonwealth")
    players = guests("cw-key-turn")
    game = started("commonwealth", players, NAMES)
    state = game.state
    others = [s for s in range(len(state["players"])) if s != state["turn"]]
    waiting = others[-1]
    key = engine.seat_screen_key(state, waiting)
    assert key is not None
    handed_on = {**state, "turn": others[0]}
    assert engine.to_decide(handed_on) == [others[0]]
    assert engine.seat_screen_key(handed_on, waiting) == key
    assert engine.seat_screen_key({**state, "turn": waiting}, waiting) is None


def test_a_waiting_boardroom_seat_keeps_its_key_while_the_turn_passes_between_the_others(
        ) -> None:
    """Whom the game waits for is a seat-free line of its own (_waiting.html): the turn passing
    from one other seat to the next changes nothing the waiting seat's own partials read."""
    engine = get_game("boardroom")
    players = guests("br-key")
    game = started("boardroom", players, NAMES)
    state = game.state
    others = [s for s in state["order"] if s != state["turn"]]
    waiting = others[-1]
    key = engine.seat_screen_key(state, waiting)
    assert key is not None
    assert engine.seat_screen_key({**state, "turn": others[0]}, waiting) == key
    assert engine.seat_screen_key({**state, "turn": waiting}, waiting) is None


def test_a_boardroom_seat_that_does_not_bid_keeps_its_key_through_an_auctions_bids() -> None:
    """The auction's box is a seat-free partial of its own (_lot.html): a bid changes nothing
    the own partials of a seat that does not bid now read, the turn holder's among them. The
    bidder, who decides, has no key."""
    from games.boardroom.engine import scenario

    engine = get_game("boardroom")
    st = scenario(seats=3, phase="buy", pos={0: 1})  # Ann may buy Noodle Cart, or not
    opened = engine.apply(st, 0, {"type": "decline", "tile": 1}).state
    assert opened["auction"]["at"] == 0
    assert engine.seat_screen_key(opened, 0) is None
    waiting = engine.seat_screen_key(opened, 2)
    assert waiting is not None
    bid = engine.apply(opened, 0, {"type": "bid", "amount": opened["auction"]["start"]}).state
    assert bid["auction"]["at"] == 1 and engine.seat_screen_key(bid, 1) is None
    assert engine.seat_screen_key(bid, 2) == waiting
    turn_holder = engine.seat_screen_key(bid, 0)
    assert turn_holder is not None
    passed = engine.apply(bid, 1, {"type": "pass"}).state
    assert passed["auction"]["at"] == 2 and engine.seat_screen_key(passed, 0) == turn_holder
    # Its centre shows the lot's card, not its own tile's: not the key it had before.
    assert engine.seat_screen_key(st, 2) not in (None, waiting)
