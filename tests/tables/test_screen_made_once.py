"""What every screen of one move reads alike is made once for them all, and what a render's
key writes of it stays small: the log's lines are described once a move (the move's own rows
only), a board's shared lists are named in a key by a digest of their content, and a board
partial that reads no lobby value but the viewer's seat is rendered without the lobby's
context, exactly as it was with it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from board_game_screens import guests, started

from games.platform import partial_reads, presenters, rendering, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game
from games.platform.rendering import SharedList, jinja_template, render_unlocalized

KINDS = ["chudopoly", "boardroom", "commonwealth"]
NAMES = ("Bea", "Cy", "Dee")


def _move(game: Game) -> services.Move:
    engine = get_game(game.game_kind)
    seat = engine.to_decide(game.state)[0]
    action = engine.bot_action(engine.view(game.state, seat), "medium")
    return services.table_move(game_id=game.pk, seat=seat, action=action,
                               expected_version=game.version)


def _keyed(template: str) -> partial_reads.Reads:
    compiled = jinja_template(template)
    assert compiled is not None
    return partial_reads.reads_of(compiled.environment, template)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_a_snapshot_after_a_move_describes_only_the_moves_rows_once_for_every_seat(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    players = guests(f"{kind}-once")
    watcher = Viewer(user_id=None, guest_key=None)
    game = started(kind, players, NAMES)
    for _ in range(6):
        game = _move(game).game
    previous = presenters.load_snapshot(game.table_id)
    for viewer in players:
        presenters.screen_from(previous, viewer, {})
    described: list[int] = []
    real = presenters._actions

    def counted(game: Game, engine: Any, names: Any, rows: Any, cache: Any) -> Any:
        described.append(len(rows))
        return real(game, engine, names, rows, cache)

    monkeypatch.setattr(presenters, "_actions", counted)
    move = _move(game)
    after = presenters.snapshot_after_move(move, previous)
    screens = [presenters.screen_from(after, viewer, {}) for viewer in [*players, watcher]]
    assert described == [len(move.logged)]
    assert all(s.ctx["log"] is screens[0].ctx["log"] for s in screens)
    monkeypatch.setattr(presenters, "_actions", real)
    read = presenters.load_snapshot(move.game.table_id)
    for viewer, screen in zip([*players, watcher], screens, strict=True):
        fresh = presenters.screen_from(read, viewer, {})
        assert [(line.text, line.key, dict(line.own)) for line in screen.ctx["log"]] == [
            (line.text, line.key, dict(line.own)) for line in fresh.ctx["log"]]
        assert ([line.text for line in screen.ctx["log_mine"]]
                == [line.text for line in fresh.ctx["log_mine"]])
        # Each seat's own lines, found for every seat in one walk: what its own walk finds.
        assert screen.ctx["log_mine"] == presenters.private_lines(after.shared["actions"],
                                                                  screen.seat)


@pytest.mark.django_db
def test_a_shared_list_stands_in_a_key_as_its_contents_digest() -> None:
    reads = _keyed("boardroom/_status.html")
    players = guests("digest")
    game = started("boardroom", players, NAMES)
    snapshot = presenters.load_snapshot(game.table_id)
    screen = presenters.screen_from(snapshot, players[0])
    context = presenters._base_context(screen, True)
    tiles = screen.ctx["tiles"]
    assert isinstance(tiles, SharedList) and len(str(list(tiles))) > 10_000
    key = reads.key(context)
    assert key is not None and len(key) < 2_000  # not the forty tiles' content
    same = SharedList(copy.deepcopy(list(tiles)))
    assert reads.key({**context, "c": {**screen.ctx, "tiles": same}}) == key
    moved = copy.deepcopy(list(tiles))
    moved[5]["owner_name"] = "Someone else"
    other = reads.key({**context, "c": {**screen.ctx, "tiles": SharedList(moved)}})
    assert other is not None and other != key


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "board"), [("boardroom", "tiles"), ("commonwealth", "spaces")])
def test_a_snapshot_after_a_move_writes_the_keys_of_only_the_items_its_lists_changed(
        kind: str, board: str, monkeypatch: pytest.MonkeyPatch) -> None:
    players = guests(f"{kind}-item-keys")
    game = started(kind, players, NAMES)
    for _ in range(4):
        game = _move(game).game
    previous = presenters.load_snapshot(game.table_id)
    shown = presenters.screen_from(previous, players[0], {})
    assert shown.ctx[board].digest() is not None and shown.ctx["log"].digest() is not None
    written: list[Any] = []
    real = rendering._item_key

    def counted(item: Any) -> bytes:
        written.append(item)
        return real(item)

    monkeypatch.setattr(rendering, "_item_key", counted)
    move = _move(game)
    screen = presenters.screen_from(presenters.snapshot_after_move(move, previous),
                                    players[0], {})
    items, log = screen.ctx[board], screen.ctx["log"]
    digests = (items.digest(), log.digest())
    # Only what the move changed is written again: a few of the forty places and the log's
    # new lines, not every item of both lists.
    assert 0 < len(written) < len(items) // 2
    assert all(not any(item is old for old in shown.ctx[board]) for item in written
               if item in items)
    monkeypatch.setattr(rendering, "_item_key", real)
    # The same keys and digests as the same items listed afresh, and as the board read anew.
    assert digests == (SharedList(list(items)).digest(), SharedList(list(log)).digest())
    fresh = presenters.screen_from(presenters.load_snapshot(move.game.table_id), players[0], {})
    assert items.item_keys() == fresh.ctx[board].item_keys()
    assert digests[0] == fresh.ctx[board].digest()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["boardroom", "commonwealth"])
def test_a_partial_reading_only_the_viewers_seat_of_the_lobby_renders_as_with_the_lobby(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    players = guests(f"{kind}-lobby")
    game = started(kind, players, NAMES)
    for _ in range(4):
        game = _move(game).game
    engine = get_game(kind)
    watcher = Viewer(user_id=None, guest_key=None)
    memos: dict[int, presenters.PartialMemo] = {}
    for number, viewer in enumerate([*players, watcher]):
        memos[number] = {}
        presenters.render_all(presenters.load_screen(game.table, viewer), memo=memos[number])
    game = _move(game).game
    made: list[int] = []
    real = presenters.lobby_context
    monkeypatch.setattr(presenters, "lobby_context",
                        lambda screen: made.append(1) or real(screen))
    snapshot = presenters.load_snapshot(game.table_id)
    for number, viewer in enumerate([*players, watcher]):
        screen = presenters.screen_from(snapshot, viewer)
        parts = presenters.render_all(screen, memo=memos[number])
        with_lobby = {**presenters._base_context(screen, True), **real(screen)}
        for name, template in engine.board_templates.items():
            assert parts[name] == render_unlocalized(template, with_lobby), (name, number)
    assert made == []  # during play no partial of the game needs the lobby's context
