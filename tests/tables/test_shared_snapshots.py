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
def test_a_players_panel_is_the_same_for_every_viewer_and_changes_with_its_content() -> None:
    from games.chudopoly.templatetags.chudopoly import seat_panel, seat_panels

    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    carol_seen_by = []
    for viewer in (ALICE, BOB, CAROL, Viewer(user_id=None, guest_key="spectator")):
        players = presenters.screen_from(snapshot, viewer).ctx["public_players"]
        carol = next(p for p in players if p["name"] == "Carol")
        carol_seen_by.append(carol)
        html = seat_panel(carol, None)
        assert f'id="seat-{carol["seat"]}"' in html
        assert html in presenters.render_all(presenters.screen_from(snapshot, viewer))["players"]
    assert len({seat_panel(p, None) for p in carol_seen_by}) == 1  # Carol's own screen too
    # The partial lists the panels kept by the keys its shared list wrote: the same HTML.
    players = presenters.screen_from(snapshot, ALICE).ctx["public_players"]
    assert seat_panels(players, None) == "".join(
        f"\n    {seat_panel(p, None)}\n  " for p in players)
    fewer = {**carol_seen_by[0], "hand_count": carol_seen_by[0]["hand_count"] + 1}
    assert seat_panel(fewer, None) != seat_panel(carol_seen_by[0], None)
    assert "is-turn" not in seat_panel({**carol_seen_by[0], "is_turn": True}, {"winner": 0})
    with pytest.raises(ValueError):  # a panel shared by every viewer names none of them
        seat_panel({**carol_seen_by[0], "is_me": True}, None)


@pytest.mark.django_db
def test_a_move_renders_again_only_the_players_panels_whose_entries_it_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly.templatetags import chudopoly

    rendered: list[int] = []
    render = chudopoly.render_plain

    def counted(template: str, context: dict[str, Any]) -> str:
        if template == "chudopoly/_seat.html":
            rendered.append(context["p"]["seat"])
        return render(template, context)

    monkeypatch.setattr(chudopoly, "render_plain", counted)
    game = started_game(ALICE, (BOB, "Bob"), (CAROL, "Carol"), turn_seconds=0)
    before: list[dict[str, Any]] | None = None
    made = 0
    for _ in range(15):
        game = play_one(game)
        snapshot = presenters.load_snapshot(game.table_id)
        rendered.clear()
        screens = [presenters.screen_from(snapshot, v) for v in (ALICE, BOB, CAROL)]
        players = [presenters.render_all(screen)["players"] for screen in screens]
        assert len(set(players)) == 1  # one players partial for every seat
        entries = [dict(p) for p in screens[0].ctx["public_players"]]
        if before is not None:
            changed = {now["seat"] for now, then in zip(entries, before, strict=True)
                       if now != then}
            assert sorted(rendered) == sorted(set(rendered)) and set(rendered) <= changed
            made += len(rendered)
        before = entries
    assert made  # each panel is rendered apart, as its entry changes


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
    assert carol[2] == {**carol[0], "is_me": True}  # her own copy, marked as hers
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
    shared = json.dumps(public["players"])
    assert snapshot.game is not None
    for seat in range(3):
        for card in ENGINE.view(snapshot.game.state, seat)["hand"]:
            assert f'data-card-id="{card["id"]}"' not in shared
            assert f'"id": {card["id"]},' not in shared
    assert not any(p["is_me"] for p in public["players"])
    assert not any("options" in c for p in public["players"] for z in p["zones"]
                   for c in z["cards"] + z["upgrades"])


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
def test_a_players_panel_is_rendered_once_per_content_and_shows_what_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.chudopoly.templatetags import chudopoly
    from games.chudopoly.templatetags.chudopoly import seat_panel

    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(25):
        game = play_one(game)
    snapshot = presenters.load_snapshot(game.table_id)
    ctx = presenters.screen_from(snapshot, BOB).ctx
    bob = next(p for p in ctx["public_players"] if p["name"] == "Bob")
    html = seat_panel(bob, None)
    # His own panel names him for the others and says "You" to him (the page's CSS picks).
    assert f'id="seat-{bob["seat"]}"' in html and ">Bob<" in html and ">You<" in html
    assert html in presenters.render_all(presenters.screen_from(snapshot, BOB))["players"]
    renders: list[str] = []
    render = chudopoly.render_plain
    monkeypatch.setattr(chudopoly, "render_plain",
                        lambda name, context: renders.append(name) or render(name, context))
    assert seat_panel(bob, None) == html  # the same content: the kept rendering
    assert renders == []
    richer = {**bob, "bank_total": bob["bank_total"] + 5}
    assert f"Bank <strong>{bob['bank_total'] + 5}M</strong>" in seat_panel(richer, None)


@pytest.mark.django_db
def test_a_seats_rearranges_are_offered_in_its_own_hand_panel_and_nowhere_else() -> None:
    from games.chudopoly.board import board_context

    game = started_game(ALICE, (BOB, "Bob"), turn_seconds=0)
    for _ in range(200):
        state = Game.objects.get(pk=game.pk).state
        seat = state["turn"]
        if state["pending"] is None and any(a["type"] == "move"
                                            for a in ENGINE.view(state, seat)["legal"]):
            break
        game = play_one(game)
    else:
        pytest.skip("no free rearrange came up in this game")
    table = Table.objects.get(pk=game.table_id)
    screens = {viewer: presenters.load_screen(table, viewer) for viewer in (ALICE, BOB)}
    mover = next(v for v, screen in screens.items() if screen.seat == seat)
    other = next(v for v in screens if v is not mover)
    mine = presenters.render_all(screens[mover])
    theirs = presenters.render_all(screens[other])
    assert 'class="move-form"' in mine["hand"] and 'id="rearrange"' in mine["hand"]
    assert 'class="move-form"' not in theirs["hand"] and "<form" not in mine["players"]
    names = [p["name"] for p in game.players]
    moves = board_context(ENGINE.view(state, seat), me=seat, names=names,
                          seats=[{} for _ in names])["movable"]
    assert {card["id"] for card in moves} == {a["card"] for a in ENGINE.view(state, seat)["legal"]
                                               if a["type"] == "move"}


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
