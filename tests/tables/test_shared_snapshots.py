"""Sockets of one table share one read per update, and a shared read shows each seat only its own
view: exactly what each socket would have rendered from its own read."""

from __future__ import annotations

from typing import Any

import pytest
from tables_helpers import ENGINE, play_one, started_game

from games.chudopoly.bots import choose_action
from games.platform import presenters
from games.platform.identity import Viewer
from games.platform.models import Game, Table
from games.platform.snapshot_cache import LatestSnapshots

ALICE = Viewer(user_id=None, guest_key="alice-key")
BOB = Viewer(user_id=None, guest_key="bob-key")
CAROL = Viewer(user_id=None, guest_key="carol-key")


def test_the_newest_read_of_each_table_is_kept_and_older_ones_are_let_go() -> None:
    latest = LatestSnapshots()
    assert latest.latest(7) is None
    latest.put(7, "read 1")
    latest.put(8, "other table")
    latest.put(7, "read 2")
    assert (latest.latest(7), latest.latest(8)) == ("read 2", "other table")


def test_beyond_the_cap_the_tables_read_longest_ago_are_forgotten() -> None:
    latest = LatestSnapshots(max_tables=3)
    for table in range(5):
        latest.put(table, f"table {table}")
    latest.put(2, "table 2 again")
    latest.put(5, "table 5")
    assert [t for t in range(6) if latest.latest(t) is not None] == [2, 4, 5]


@pytest.mark.django_db
def test_one_shared_read_gives_every_seat_the_screen_its_own_read_would() -> None:
    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    table = Table.objects.get(pk=game.table_id)
    snapshot = presenters.load_snapshot(table.pk)
    for viewer in (ALICE, BOB, CAROL, Viewer(user_id=None, guest_key="spectator")):
        shared = presenters.render_all(presenters.screen_from(snapshot, viewer))
        own = presenters.render_all(presenters.load_screen(table, viewer))
        assert shared == own


@pytest.mark.django_db
def test_a_socket_describes_each_logged_move_once_and_its_log_reads_the_same() -> None:
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    cache: presenters.LogCache = {}
    for _ in range(60):
        if game.status == Game.Status.FINISHED:
            break  # a short game (CI: a two-seat deal won inside 60 decisions)
        game = play_one(game)
        snapshot = presenters.load_snapshot(game.table_id)
        cached = presenters.screen_from(snapshot, BOB, cache).ctx["log"]
        fresh = presenters.screen_from(snapshot, BOB).ctx["log"]
        assert [(line.text, line.key) for line in cached] == [(line.text, line.key)
                                                               for line in fresh]
        # Only the moves still on screen are remembered.
        assert {key[1] for key in cache} <= {line.version for line in fresh} | {
            version for version, _ in snapshot.log_rows}


@pytest.mark.django_db
def test_the_log_never_runs_ahead_of_the_board_it_is_shown_with() -> None:
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(5):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    assert snapshot.game is not None
    assert max(version for version, _ in snapshot.log_rows) == snapshot.game.version - 1


@pytest.mark.django_db
def test_an_opponents_panel_is_the_same_for_every_viewer_and_changes_with_its_content() -> None:
    from games.chudopoly.templatetags.chudopoly import opponent_panel

    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    carol_seen_by = []
    for viewer in (ALICE, BOB, Viewer(user_id=None, guest_key="spectator")):
        players = presenters.screen_from(snapshot, viewer).ctx["players"]
        carol = next(p for p in players if p["name"] == "Carol")
        carol_seen_by.append(carol)
        html = opponent_panel(carol, None)
        assert f'id="seat-{carol["seat"]}"' in html
        assert html in presenters.render_all(presenters.screen_from(snapshot, viewer))["players"]
    assert len({opponent_panel(p, None) for p in carol_seen_by}) == 1
    fewer = {**carol_seen_by[0], "hand_count": carol_seen_by[0]["hand_count"] + 1}
    assert opponent_panel(fewer, None) != opponent_panel(carol_seen_by[0], None)
    assert "is-turn" not in opponent_panel({**carol_seen_by[0], "is_turn": True}, {"winner": 0})
    with pytest.raises(ValueError):
        opponent_panel({**carol_seen_by[0], "is_me": True}, None)


def _without_moves(entry: dict[str, Any]) -> dict[str, Any]:
    """A player entry with its board cards' move options left out."""
    def cards(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**card, "options": []} for card in listed]

    return {**entry, "zones": [{**zone, "cards": cards(zone["cards"]),
                                "upgrades": cards(zone.get("upgrades") or [])}
                               for zone in entry["zones"]]}


@pytest.mark.django_db
def test_every_viewer_of_a_snapshot_reads_one_public_board_built_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly import board

    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    built: list[int] = []
    real = board.board_public
    monkeypatch.setattr(board, "board_public",
                        lambda *a, **k: built.append(1) or real(*a, **k))
    snapshot = presenters.load_snapshot(game.table_id)
    seen = {viewer: presenters.screen_from(snapshot, viewer).ctx["players"]
            for viewer in (ALICE, BOB, CAROL, Viewer(user_id=None, guest_key="spectator"))}
    assert built == [1]
    carol = [next(p for p in players if p["name"] == "Carol") for players in seen.values()]
    assert carol[0] is carol[1] is carol[3]  # Alice, Bob and a spectator: the one entry
    assert carol[2] is not carol[0] and carol[2]["is_me"] and not carol[0]["is_me"]
    # Her own copy, marked as hers; on her turn its cards also list the free moves she has.
    assert _without_moves({**carol[2], "is_me": False}) == _without_moves(carol[0])
    assert presenters.screen_from(presenters.load_snapshot(game.table_id), BOB).ctx
    assert built == [1, 1]  # a new read, a new public board


@pytest.mark.django_db
def test_the_shared_public_board_holds_nothing_private_to_any_seat() -> None:
    import json

    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    for viewer in (ALICE, BOB, CAROL):  # every panel of the table rendered and kept
        presenters.render_all(presenters.screen_from(snapshot, viewer))
    public = snapshot.shared["board"][2]
    shared = json.dumps(public["players"]) + "".join(h for _, h in public["panels"].values())
    assert snapshot.game is not None
    for seat in range(3):
        for card in ENGINE.view(snapshot.game.state, seat)["hand"]:
            assert f'data-card-id="{card["id"]}"' not in shared
            assert f'"id": {card["id"]},' not in shared
    assert not any(p["is_me"] for p in public["players"])
    assert all(not c["options"] for p in public["players"] for z in p["zones"]
               for c in z["cards"] + z["upgrades"])
    assert len(public["panels"]) == 3  # each opponent's panel, once


def test_an_opponents_kept_panel_is_served_only_for_the_player_it_was_rendered_from() -> None:
    from games.chudopoly.templatetags.chudopoly import opponent_panel

    player = {"seat": 1, "name": "Bob", "is_me": False, "active": True, "hand_count": 3,
              "bank": [], "bank_total": 0, "zones": [], "sets": 0, "net_worth": 0}
    panels: dict[Any, Any] = {}
    html = opponent_panel(player, None, panels)
    assert "Bob" in html and opponent_panel(player, None, panels) is html
    other = {**player, "name": "Eve"}
    panels[(id(other), False)] = (player, html)  # as if `other` had the id `player` had
    assert "Eve" in opponent_panel(other, None, panels)
    assert "is-turn" in opponent_panel({**player, "is_turn": True}, None, panels)


@pytest.mark.django_db
def test_a_socket_renders_the_lobby_again_only_when_what_it_shows_changed(monkeypatch) -> None:
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    memo: presenters.PartialMemo = {}
    rendered: list[str] = []
    real = presenters.render_partial

    def counting(template: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        rendered.append(template)
        return real(template, *args, **kwargs)

    monkeypatch.setattr(presenters, "render_partial", counting)

    def lobby_html() -> str:
        screen = presenters.load_screen(Table.objects.get(pk=game.table_id), BOB)
        return presenters.render_all(screen, extra={"csrf_value": "t"}, memo=memo)["lobby"]

    first = lobby_html()
    play_one(game)
    assert lobby_html() == first  # a move: the lobby is not rendered again
    assert rendered.count(presenters.LOBBY_TEMPLATE) == 1
    from games.platform.models import Seat

    Seat.objects.filter(table_id=game.table_id, name="Bob").update(away=True,
                                                                  away_reason="timeouts")
    away = lobby_html()
    assert away != first and "timed out" in away
    assert rendered.count(presenters.LOBBY_TEMPLATE) == 2
    # What a socket without a memo renders is the same.
    assert away == presenters.render_all(
        presenters.load_screen(Table.objects.get(pk=game.table_id), BOB),
        extra={"csrf_value": "t"})["lobby"]


@pytest.mark.django_db
def test_the_movers_committed_game_makes_the_same_snapshot_as_reading_it_back(
        django_assert_max_num_queries: Any) -> None:
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(12):
        game = play_one(game)  # the game object as its move committed it
    with django_assert_max_num_queries(3):  # table, seats, log: not the game row again
        handed = presenters.load_snapshot(game.table_id, game=game)
    read = presenters.load_snapshot(game.table_id)
    assert handed.log_rows == read.log_rows
    for viewer in (ALICE, BOB, Viewer(user_id=None, guest_key="spectator")):
        assert (presenters.render_all(presenters.screen_from(handed, viewer))
                == presenters.render_all(presenters.screen_from(read, viewer)))


@pytest.mark.django_db
def test_a_moves_own_rows_make_the_snapshot_reading_the_table_back_would(
        django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    from games.platform import services

    # A fixed deal that lasts: with a random one the easy bots sometimes finished the game
    # before the 48 moves this test plays (a CI failure).
    monkeypatch.setattr(secrets, "randbits", lambda bits: 13)
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(45):  # past the log window, so the window has to slide
        game = play_one(game)
    previous = presenters.load_snapshot(game.table_id)
    for _ in range(3):
        seat = ENGINE.to_decide(game.state)[0]
        move = services.table_move(game_id=game.pk, seat=seat, expected_version=game.version,
                                   action=choose_action(ENGINE.view(game.state, seat)))
        with django_assert_num_queries(0):  # the log is the previous one plus this move
            after = presenters.snapshot_after_move(move, previous)
        read = presenters.load_snapshot(game.table_id)
        assert after.log_rows == read.log_rows
        assert [s.pk for s in after.seats] == [s.pk for s in read.seats]
        for viewer in (ALICE, BOB, Viewer(user_id=None, guest_key="spectator")):
            assert (presenters.render_all(presenters.screen_from(after, viewer))
                    == presenters.render_all(presenters.screen_from(read, viewer)))
        previous, game = after, move.game


@pytest.mark.django_db
def test_without_the_snapshot_just_before_a_move_its_log_is_read_again() -> None:
    from games.platform import services

    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(5):
        game = play_one(game)
    older = presenters.load_snapshot(game.table_id)
    game = play_one(game)  # a move this socket's process never saw
    seat = ENGINE.to_decide(game.state)[0]
    move = services.table_move(game_id=game.pk, seat=seat, expected_version=game.version,
                               action=choose_action(ENGINE.view(game.state, seat)))
    for previous in (older, None):
        after = presenters.snapshot_after_move(move, previous)
        assert after.log_rows == presenters.load_snapshot(game.table_id).log_rows


@pytest.mark.django_db
def test_a_seats_own_board_is_rendered_once_per_content_and_shows_what_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly.templatetags import chudopoly
    from games.chudopoly.templatetags.chudopoly import my_panel

    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    ctx = presenters.screen_from(snapshot, BOB).ctx
    mine = next(p for p in ctx["players"] if p["is_me"])
    html = my_panel(mine, ctx)
    assert f'id="seat-{mine["seat"]}"' in html and "Your board" in html
    assert html in presenters.render_all(presenters.screen_from(snapshot, BOB))["players"]
    renders: list[str] = []
    render = chudopoly.render_unlocalized
    monkeypatch.setattr(chudopoly, "render_unlocalized",
                        lambda name, context: renders.append(name) or render(name, context))
    assert my_panel(mine, ctx) == html  # the same content: the kept rendering
    assert renders == []
    richer = {**mine, "bank_total": mine["bank_total"] + 5}
    assert f"Bank <strong>{mine['bank_total'] + 5}M</strong>" in my_panel(richer, ctx)
    five = {**ctx["view"], "ruleset": {**ctx["view"]["ruleset"], "setsToWin": 5}}
    assert "of 5" in my_panel(mine, {**ctx, "view": five})  # the rules it reads are its key
    with pytest.raises(ValueError):
        my_panel({**mine, "is_me": False}, ctx)


@pytest.mark.django_db
def test_a_seats_own_board_is_keyed_by_its_public_entrys_key_made_once_per_snapshot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly.templatetags import chudopoly
    from games.chudopoly.templatetags.chudopoly import my_panel

    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    keyed: list[Any] = []
    content_key = chudopoly.content_key
    monkeypatch.setattr(chudopoly, "content_key", lambda v: keyed.append(v) or content_key(v))
    for viewer in (ALICE, BOB):
        presenters.render_all(presenters.screen_from(snapshot, viewer))
    public_players = snapshot.shared["board"][2]["players"]
    # Each public entry keyed once, for its opponents' panel and its own seat's panel alike.
    assert sum(1 for v in keyed if any(v is p for p in public_players)) == len(public_players)
    ctx = presenters.screen_from(snapshot, BOB).ctx
    mine = next(p for p in ctx["players"] if p["is_me"])
    assert ctx["my_public"]["seat"] == mine["seat"] and not ctx["my_public"]["is_me"]
    html = my_panel(mine, ctx)
    # A copy that differs from its public entry by more than "is_me" is keyed by itself.
    moved = {**mine, "zones": [{**z, "name": "Moved"} for z in mine["zones"]]}
    assert "Moved" in my_panel(moved, ctx) or not mine["zones"]
    assert my_panel(mine, ctx) == html


def test_a_copy_marked_mine_is_the_public_entry_with_is_me_and_nothing_else_changed() -> None:
    from games.chudopoly.templatetags.chudopoly import _copy_marked_mine

    public = {"seat": 1, "is_me": False, "zones": [], "bank": []}
    assert _copy_marked_mine({**public, "is_me": True}, public)
    assert not _copy_marked_mine({**public, "is_me": True, "zones": []}, public)  # a new list
    assert not _copy_marked_mine({**public, "is_me": True, "extra": 1}, public)


def test_the_log_lists_the_newest_line_first_and_shows_cards_on_the_newest_twelve() -> None:
    from games.chudopoly.templatetags.chudopoly import LOG_PEEK_LINES, log_item, log_items

    card = {"id": 7, "kind": "money", "key": "money", "name": "1M", "value": 1}
    lines = [presenters.LogLine(f"line {n}", n, 0, ({"type": "bank", "card": card},))
             for n in range(20)]
    html = log_items(lines)
    assert html.index('data-k="19.0"') < html.index('data-k="0.0"')
    assert html == "".join(log_item(line, n < LOG_PEEK_LINES)
                           for n, line in enumerate(reversed(lines)))
    assert html.count('class="log-peek"') == LOG_PEEK_LINES


def test_a_socket_is_not_pushed_again_for_a_move_its_last_push_already_showed() -> None:
    from games.platform.consumers import TableConsumer
    from games.platform.models import Game

    socket = TableConsumer()
    socket.seen = (None, None, None, (), (1, 5, Game.Status.RUNNING))
    assert socket._already_shown({"type": "table.update", "version": 5})
    assert socket._already_shown({"type": "table.update", "version": 4})
    assert not socket._already_shown({"type": "table.update", "version": 6})
    assert not socket._already_shown({"type": "table.update", "version": None})  # seats moved
    socket.seen = (None, None, None, (), (1, 5, Game.Status.FINISHED))  # a rematch may follow
    assert not socket._already_shown({"type": "table.update", "version": 2})


@pytest.mark.django_db
def test_the_lobby_key_reads_the_table_once_per_snapshot_and_tells_viewers_apart() -> None:
    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    snapshot = presenters.load_snapshot(game.table_id)
    alice = presenters.lobby_key(presenters.screen_from(snapshot, ALICE), {})
    bob = presenters.lobby_key(presenters.screen_from(snapshot, BOB), {})
    assert alice != bob  # each sees their own seat's controls
    assert alice[0] is bob[0]  # the table's and seats' part, made once for the snapshot
    public = Table.objects.get(pk=game.table_id).is_public
    Table.objects.filter(pk=game.table_id).update(is_public=not public)
    fresh = presenters.load_snapshot(game.table_id)
    assert presenters.lobby_key(presenters.screen_from(fresh, ALICE), {}) != alice
