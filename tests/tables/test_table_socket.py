"""The table websocket end to end: Channels consumer, group broadcast, per-seat partials."""

from __future__ import annotations

import asyncio
import gc
import json
import re
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from tables_helpers import ENGINE, card_ids_in, play_one, started_game

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import ChatMessage, Game, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _application() -> Any:
    # Imported late: the ASGI module arms the in-process scheduler when it loads.
    from chudopoly_site.asgi import application

    return application


def _session_cookie(viewer: Viewer | None) -> bytes:
    session = SessionStore()
    if viewer is not None:
        session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}".encode()


async def connect(code: str, viewer: Viewer | None) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_session_cookie)(viewer)
    # As the page opens it: with the invite token, which a watcher of a private table needs.
    token = await database_sync_to_async(
        lambda: Table.objects.get(code=code).invite_token)()
    comm = WebsocketCommunicator(_application(), f"/ws/table/{code}/?invite={token}", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)])
    # The accept goes out with the board after the connect handler has rendered it (the first
    # render of a process loads the templates): more than connect's 1 s on a loaded machine.
    connected, _ = await comm.connect(timeout=30)
    assert connected
    return comm


def anything(frame: str) -> bool:
    return True


async def frames(comm: WebsocketCommunicator, timeout: float = 0.4,
                 until: Callable[[str], bool] | None = anything) -> list[str]:
    """Everything the server sends: first up to the frame `until` holds for (the first frame,
    unless told), however long a loaded machine takes to send it, then until it goes quiet for
    `timeout` seconds. A quiet spell alone decided nothing came when a render was slow; with
    `until=None` nothing is waited for (for a test that nothing comes, after what did)."""
    out: list[str] = []
    while until is not None and not any(until(frame) for frame in out):
        out.append(await comm.receive_from(timeout=30))
    # receive_nothing does not cancel the application on a timeout (receive_from would).
    while not await comm.receive_nothing(timeout=timeout):
        out.append(await comm.receive_from())
    return out


def showing(version: int) -> Callable[[str], bool]:
    """A frame that shows the table at `version`."""
    return lambda frame: version_in(frame) == version


def error_code(html: str) -> str | None:
    match = re.search(r'id="frame-error"[^>]*data-code="([a-z_]+)"', html)
    return match.group(1) if match else None


def version_in(html: str) -> int | None:
    match = re.search(r'id="table-version" name="expected_version" value="(\d+)"', html)
    return int(match.group(1)) if match else None


@database_sync_to_async
def start(host: Viewer, *others: tuple[Viewer, str], bots: int = 0) -> Game:
    return started_game(host, *others, bots=bots, turn_seconds=0)


@database_sync_to_async
def reload(game: Game) -> Game:
    game.refresh_from_db()
    return game


def owner(game: Game, engine_seat: int) -> str:
    return game.players[engine_seat]["name"]


async def test_a_seated_player_gets_the_whole_board_with_their_hand_on_connect(
        alice: Viewer) -> None:
    game = await start(alice, bots=1)
    comm = await connect(game.table.code, alice)
    (first,) = await frames(comm)
    for element in ('id="status"', 'id="players"', 'id="hand"', 'id="decision"', 'id="log"',
                    'id="lobby"', 'id="chat-log"', 'id="table-version"'):
        assert element in first
    seat = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    hand = game.state["players"][seat]["hand"]
    assert {f'data-card-id="{c}"' in first for c in hand} == {True}
    assert version_in(first) == 0
    await comm.disconnect()


async def mover_other_and_watcher(alice: Viewer, bob: Viewer, carol: Viewer
                                  ) -> tuple[Game, list[WebsocketCommunicator], dict[str, Any]]:
    """A two-seat table with the seat to move, the other seat and a watcher connected (their
    first frames read), and a card the mover may bank or place."""
    game = await start(alice, (bob, "Bob"))
    turn = game.state["turn"]
    mover, other = (alice, bob) if owner(game, turn) == "Alice" else (bob, alice)
    sockets = [await connect(game.table.code, viewer) for viewer in (mover, other, carol)]
    for comm in sockets:
        await frames(comm)
    action = next(x for x in ENGINE.legal_actions(game.state, turn) if x["type"] == "bank"
                  or x["type"] == "place")
    return game, sockets, action


async def test_a_move_over_the_socket_reaches_every_seat_and_spectator(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    await a.send_to(text_data=json.dumps({"kind": "act", "action": json.dumps(action),
                                          "expected_version": "0",
                                          "HEADERS": {"HX-Request": "true"}}))
    for comm in (a, b, spectator):
        got = "\n".join(await frames(comm, until=showing(1)))
        assert version_in(got) == 1, got[:300]
    game = await reload(game)
    assert game.version == 1
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_the_mover_sees_their_move_with_the_ok_and_only_once(
        alice: Viewer, bob: Viewer) -> None:
    game = await start(alice, (bob, "Bob"))
    turn = game.state["turn"]
    mover = alice if owner(game, turn) == "Alice" else bob
    a = await connect(game.table.code, mover)
    await frames(a)
    action = next(x for x in ENGINE.legal_actions(game.state, turn) if x["type"] == "bank"
                  or x["type"] == "place")
    await a.send_to(text_data=json.dumps({"kind": "act", "action": json.dumps(action),
                                          "expected_version": "0"}))
    got = await frames(a, until=showing(1))
    replies = [error_code(frame) for frame in got]
    updates = [i for i, frame in enumerate(got) if version_in(frame) == 1]
    # One push showing the move, with the "ok" in the same frame; the group's echo adds nothing.
    assert len(updates) == 1, got
    assert updates[0] == replies.index("ok")
    assert got[updates[0]].index('id="table-version"') < got[updates[0]].index('id="frame-error"')
    await a.disconnect()


async def test_the_other_seats_see_a_move_without_waiting_for_the_group_message(
        alice: Viewer, bob: Viewer, carol: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sockets of a table in one process are pushed by the mover's own handler: here the
    group's copy of the update is lost on the way, and the other seat and the watcher see the
    move anyway."""
    from channels.layers import InMemoryChannelLayer

    _, (a, b, spectator), action = await mover_other_and_watcher(alice, bob, carol)
    group_send = InMemoryChannelLayer.group_send

    async def lose_updates(layer: Any, group: str, message: dict[str, Any]) -> None:
        if message.get("type") != "table.update":
            await group_send(layer, group, message)

    monkeypatch.setattr(InMemoryChannelLayer, "group_send", lose_updates)
    await a.send_to(text_data=json.dumps({"kind": "act", "action": json.dumps(action),
                                          "expected_version": "0"}))
    for comm in (a, b, spectator):
        got = await frames(comm, until=showing(1))
        assert [version_in(frame) for frame in got if version_in(frame)] == [1], got
    for comm in (a, b, spectator):
        await comm.disconnect()


async def test_an_update_from_elsewhere_reaches_each_socket_of_the_table_once(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    """A move made outside the sockets (a bot's, the clock's) comes as the group message: one
    socket shows it to the table's others here, and each gets exactly one push."""
    game = await start(alice, (bob, "Bob"))
    sockets = [await connect(game.table.code, viewer) for viewer in (alice, bob, carol)]
    for comm in sockets:
        await frames(comm)
    await database_sync_to_async(play_one)(game)
    for comm in sockets:
        got = await frames(comm, until=showing(1))
        assert [version_in(frame) for frame in got if version_in(frame)] == [1], got
    for comm in sockets:
        await comm.disconnect()


@pytest.mark.parametrize(("payload", "code"), [
    ("{not json", "malformed"),
    (json.dumps({"kind": "act", "action": "{\"type\":\"end_turn\"}"}), "malformed"),
    (json.dumps({"kind": "chat", "text": "x" * 9000}), "oversized"),
    (json.dumps({"kind": "act", "action": {"type": "end_turn"}, "expected_version": 99}),
     "stale"),
    (json.dumps({"kind": "act", "action": {"type": "end_turn"}, "expected_version": 0,
                 "seat": 4}), "forged"),
    (json.dumps({"kind": "act", "action": {"type": "bank", "card": 9999},
                 "expected_version": 0}), "illegal"),
])
async def test_a_bad_frame_gets_a_clear_error_and_changes_nothing(
        alice: Viewer, payload: str, code: str) -> None:
    game = await start(alice, bots=1)
    seat = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    while seat not in ENGINE.to_decide(game.state):
        game = await database_sync_to_async(play_one)(game)
    payload = payload.replace('"expected_version": 0', f'"expected_version": {game.version}')
    before = (game.version, game.state)
    comm = await connect(game.table.code, alice)
    await frames(comm)
    if code == "forged":
        payload = payload.replace('"seat": 4', f'"seat": {1 - seat}')
    await comm.send_to(text_data=payload)
    got = await frames(comm)
    assert got and error_code(got[0]) == code
    assert re.search(r'id="frame-error"[^>]*>[^<]+<', got[0])  # a sentence, not empty
    game = await reload(game)
    assert (game.version, game.state) == before
    await comm.disconnect()


async def test_a_spectator_cannot_move(alice: Viewer, carol: Viewer) -> None:
    game = await start(alice, bots=1)
    comm = await connect(game.table.code, carol)
    await frames(comm)
    await comm.send_to(text_data=json.dumps({"kind": "act", "action": {"type": "scoop"},
                                             "expected_version": 0}))
    (got, *_) = await frames(comm)
    assert error_code(got) == "spectator"
    assert (await reload(game)).version == 0
    await comm.disconnect()


async def test_a_seat_waiting_on_someone_else_is_told_so(alice: Viewer, bob: Viewer) -> None:
    game = await start(alice, (bob, "Bob"))
    idle = bob if owner(game, game.state["turn"]) == "Alice" else alice
    comm = await connect(game.table.code, idle)
    await frames(comm)
    await comm.send_to(text_data=json.dumps({"kind": "act", "action": {"type": "end_turn"},
                                             "expected_version": 0}))
    (got, *_) = await frames(comm)
    assert error_code(got) == "not_your_turn"
    await comm.disconnect()


async def test_frames_to_a_seat_never_show_another_seats_hand(alice: Viewer, bob: Viewer,
                                                             carol: Viewer) -> None:
    game = await start(alice, (bob, "Bob"), bots=1)
    seats = {p["name"]: i for i, p in enumerate(game.players)}
    alice_socket = await connect(game.table.code, alice)
    watcher = await connect(game.table.code, carol)
    seen_by_alice = await frames(alice_socket)
    seen_by_watcher = await frames(watcher)

    def others_hands(g: Game, me: int | None) -> set[int]:
        return {c for s, p in enumerate(g.state["players"]) if s != me for c in p["hand"]}

    for _ in range(40):
        game = await reload(game)
        hidden_from_alice = others_hands(game, seats["Alice"])
        hidden_from_watcher = others_hands(game, None)
        for html in seen_by_alice:
            assert not card_ids_in(html) & hidden_from_alice
        for html in seen_by_watcher:
            assert not card_ids_in(html) & hidden_from_watcher
        if game.status == Game.Status.FINISHED:
            break
        await database_sync_to_async(play_one)(game)
        # Every version change sends each socket exactly one frame.
        seen_by_alice = [await alice_socket.receive_from(timeout=5)]
        seen_by_watcher = [await watcher.receive_from(timeout=5)]
        assert seen_by_alice and seen_by_watcher
    await alice_socket.disconnect()
    await watcher.disconnect()


async def test_chat_is_sent_to_the_table_as_text_never_html(alice: Viewer, bob: Viewer) -> None:
    game = await start(alice, (bob, "Bob"))
    a = await connect(game.table.code, alice)
    b = await connect(game.table.code, bob)
    await frames(a)
    await frames(b)
    await a.send_to(text_data=json.dumps({"kind": "chat", "text": "<script>x()</script> gg"}))
    got = "\n".join(await frames(b))
    assert "&lt;script&gt;x()&lt;/script&gt; gg" in got and "<script>" not in got
    assert await database_sync_to_async(ChatMessage.objects.count)() == 1
    await frames(a)
    await a.send_to(text_data=json.dumps({"kind": "chat", "text": "again"}))
    assert error_code((await frames(a))[0]) == "rate_limited"
    await a.disconnect()
    await b.disconnect()


async def test_coming_back_in_the_same_browser_finds_the_seat_and_the_current_board(
        alice: Viewer) -> None:
    game = await start(alice, bots=1)
    comm = await connect(game.table.code, alice)
    await frames(comm)
    await comm.disconnect()
    for _ in range(5):
        game = await database_sync_to_async(play_one)(game)
    again = await connect(game.table.code, alice)
    (board,) = await frames(again)
    assert version_in(board) == game.version
    seat = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    for card in game.state["players"][seat]["hand"]:
        assert f'data-card-id="{card}"' in board
    await again.disconnect()


async def test_a_player_who_left_takes_the_seat_back_by_reconnecting(alice: Viewer,
                                                                     bob: Viewer) -> None:
    game = await start(alice, (bob, "Bob"))
    await database_sync_to_async(services.seat_leave)(table_id=game.table_id, viewer=alice)
    comm = await connect(game.table.code, alice)
    (board,) = await frames(comm)
    assert "away" not in re.search(r'id="lobby".*?</ul>', board, re.S).group(0).split(
        "Alice")[1].split("</li>")[0]
    await comm.disconnect()


async def test_an_unknown_table_code_is_closed(alice: Viewer) -> None:
    cookie = await database_sync_to_async(_session_cookie)(alice)
    comm = WebsocketCommunicator(_application(), "/ws/table/ZZZZ/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)])
    connected, code = await comm.connect()
    assert not connected and code == 4404


async def test_the_lobby_updates_when_a_player_sits_down(alice: Viewer, bob: Viewer) -> None:
    table = await database_sync_to_async(services.table_create)(
        viewer=alice, name="Alice", ruleset_spec={})
    comm = await connect(table.code, alice)
    await frames(comm)
    await database_sync_to_async(services.seat_join)(table_id=table.pk, viewer=bob, name="Bob")
    got: list[Any] = await frames(comm, until=lambda html: 'id="lobby"' in html and "Bob" in html)
    assert any('id="lobby"' in html and "Bob" in html for html in got)
    await comm.disconnect()


async def test_the_home_page_list_refreshes_when_a_public_table_opens(alice: Viewer) -> None:
    comm = WebsocketCommunicator(_application(), "/ws/lobby/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await comm.connect()
    assert connected
    table = await database_sync_to_async(services.table_create)(
        viewer=alice, name="Alice", ruleset_spec={"preset": "blitz"}, is_public=True)
    html = await comm.receive_from(timeout=5)
    assert 'id="public-tables"' in html and table.code in html and "Blitz" in html
    assert "1/4 seats" in html
    await comm.disconnect()


async def seat_about_to_move(alice: Viewer) -> tuple[Game, WebsocketCommunicator, Viewer, str]:
    """Alice at a game with a bot, her socket open and read, and a link that moves her seat to
    her phone (not yet claimed)."""
    game = await start(alice, bots=1)
    old = await connect(game.table.code, alice)
    await frames(old)
    phone = Viewer(user_id=None, guest_key="alice-phone-000000000000000000")
    token = await database_sync_to_async(services.seat_move_link_create)(
        table_id=game.table_id, viewer=alice)
    return game, old, phone, token


async def test_after_a_seat_moves_the_old_device_only_watches(alice: Viewer) -> None:
    game, old, phone, token = await seat_about_to_move(alice)
    await database_sync_to_async(services.seat_move_claim)(
        code=game.table.code, token=token, viewer=phone)
    pushed = "\n".join(await frames(old, until=lambda frame: 'id="hand"' in frame))
    assert 'id="hand"' in pushed and "Your hand" not in pushed
    await old.send_to(text_data=json.dumps({"kind": "act", "action": {"type": "scoop"},
                                            "expected_version": game.version}))
    assert error_code((await frames(old))[0]) == "spectator"
    new = await connect(game.table.code, phone)
    assert "Your hand" in (await frames(new))[0]
    await old.disconnect()
    await new.disconnect()


async def test_the_device_that_lost_its_seat_is_told_so_at_once(alice: Viewer,
                                                                  bob: Viewer) -> None:
    game, old, phone, token = await seat_about_to_move(alice)
    watcher = await connect(game.table.code, bob)  # not seated: hears of it, is told nothing
    await frames(watcher)
    await database_sync_to_async(services.seat_move_claim)(
        code=game.table.code, token=token, viewer=phone)
    pushed = await frames(old, until=lambda frame: error_code(frame) == "seat_moved")
    assert [error_code(f) for f in pushed if error_code(f)] == ["seat_moved"]
    assert "Your seat moved to another device" in pushed[-1]
    assert "seat_moved" not in "\n".join(await frames(watcher, until=None))
    await old.disconnect()
    await watcher.disconnect()


async def test_a_device_that_missed_its_seat_moving_away_still_cannot_move_for_it(
        alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    # A socket moves for the seat its last push showed without looking the seat up again;
    # the move itself checks, under the game's lock, that the seat is still this viewer's.
    game, old, phone, token = await seat_about_to_move(alice)
    from games.platform import broadcast

    with monkeypatch.context() as quiet:  # the old socket never hears of the move
        quiet.setattr(broadcast, "_deliver", lambda code, message: None)
        await database_sync_to_async(services.seat_move_claim)(
            code=game.table.code, token=token, viewer=phone)
    seat = game.state["turn"]
    action = next(a for a in ENGINE.legal_actions(game.state, seat) if a["type"] == "end_turn")
    await old.send_to(text_data=json.dumps({"kind": "act", "action": action,
                                            "expected_version": game.version}))
    pushed = await frames(old)
    assert error_code(pushed[0]) == "forged"
    assert "Your hand" not in "\n".join(pushed)  # and it is brought up to date: watching
    after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert after.version == game.version
    await old.disconnect()


async def test_spectators_are_counted_for_everyone_and_see_watching(alice: Viewer,
                                                                    carol: Viewer) -> None:
    from django.test import Client

    game = await start(alice, bots=1)
    seated = await connect(game.table.code, alice)
    await frames(seated)
    watcher = await connect(game.table.code, carol)
    await frames(watcher)
    told = "\n".join(await frames(seated, until=lambda frame: 'id="watchers"' in frame))
    assert 'id="watchers"' in told and "1 watching" in told
    page = await database_sync_to_async(lambda: Client().get(game.table.invite_path))()
    html = page.content.decode()
    assert 'id="watching"' in html and "1 watching" in html
    await watcher.disconnect()
    gone = "\n".join(await frames(seated, until=lambda frame: 'id="watchers"' in frame))
    assert 'id="watchers"' in gone and "watching" not in gone.split('id="watchers"')[1]
    await seated.disconnect()


def decision_in(html: str) -> str | None:
    match = re.search(r'id="table-decision" name="decision" value="([0-9a-f]*)"', html)
    return match.group(1) if match else None


@database_sync_to_async
def rent_on_bob_and_carol(game: Game, alice: Viewer, bob: Viewer, carol: Viewer
                          ) -> tuple[Game, int, int]:
    """Alice charges rent on red to Bob and Carol (a hand-built position)."""
    from tables_helpers import seat_of

    from games.chudopoly.engine import card, scenario

    a, b, c = (seat_of(game, v) for v in (alice, bob, carol))
    state = scenario(seats=3, turn=a, hands={a: ["rent:red/yellow"]},
                     boards={a: {"red": ["F-22 Raptor"]}},
                     banks={b: ["money:5"], c: ["money:5"]})
    Game.objects.filter(pk=game.pk).update(state=state)
    rent = {"type": "action", "card": card(state, "rent:red/yellow"), "colour": "red"}
    game = services.table_apply_action(game_id=game.pk, seat=a, action=rent,
                                       expected_version=0)
    return game, b, c


async def test_an_answer_sent_from_a_page_one_version_behind_is_applied_if_its_chain_is_unchanged(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = await start(alice, (bob, "Bob"), (carol, "Carol"))
    game, b, c = await rent_on_bob_and_carol(game, alice, bob, carol)
    bob_socket = await connect(game.table.code, bob)
    page = await bob_socket.receive_from(timeout=5)  # the whole board, on connect
    await frames(bob_socket, until=None)
    version, decision = version_in(page), decision_in(page)
    assert version == 1 and decision
    # Carol answers her own chain while Bob's "Accept" is on its way.
    await database_sync_to_async(services.table_apply_action)(
        game_id=game.pk, seat=c, action={"type": "respond", "answer": "accept", "target": c},
        expected_version=1)
    await bob_socket.send_to(text_data=json.dumps({
        "kind": "act", "action": json.dumps({"type": "respond", "answer": "accept", "target": b}),
        "expected_version": str(version), "decision": decision}))
    got = await frames(bob_socket, until=lambda frame: error_code(frame) is not None)
    assert "ok" in [error_code(frame) for frame in got], got
    game = await reload(game)
    assert game.version == 3 and b in ENGINE.to_decide(game.state)  # Bob now pays
    await bob_socket.disconnect()


async def test_a_player_who_owes_nothing_may_scoop_over_the_socket(alice: Viewer) -> None:
    game = await start(alice, bots=1)
    me = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    if game.state["turn"] == me:
        game = await database_sync_to_async(services.table_apply_action)(
            game_id=game.pk, seat=me, action={"type": "end_turn"}, expected_version=0)
    assert me not in ENGINE.to_decide(game.state)
    comm = await connect(game.table.code, alice)
    page = await comm.receive_from(timeout=5)  # the whole board, on connect
    await frames(comm, until=None)
    await comm.send_to(text_data=json.dumps({
        "kind": "act", "action": '{"type":"scoop"}', "expected_version": version_in(page),
        "decision": decision_in(page) or ""}))
    got = await frames(comm, until=lambda frame: error_code(frame) is not None)
    assert "ok" in [error_code(frame) for frame in got], got
    game = await reload(game)
    assert game.status == Game.Status.FINISHED and game.result["winner"] != me
    await comm.disconnect()


async def test_everyone_at_the_table_sees_who_accepted_a_rematch_as_it_happens(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = await start(alice, (bob, "Bob"), (carol, "Carol"))

    @database_sync_to_async
    def propose() -> None:
        from games.platform.models import Table

        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
        services.game_rematch(table_id=game.table_id, viewer=alice)

    await propose()
    carol_socket = await connect(game.table.code, carol)
    page = await carol_socket.receive_from(timeout=5)
    assert "Rematch proposed" in page and "Bob: deciding" in page
    await frames(carol_socket, until=None)
    await database_sync_to_async(services.rematch_answer)(
        table_id=game.table_id, viewer=bob, accept=True)
    pushed = "\n".join(await frames(carol_socket, until=lambda frame: "Bob: accepted" in frame))
    assert "Bob: accepted" in pushed and 'id="rematch-accept"' in pushed
    await carol_socket.disconnect()


@database_sync_to_async
def fresh_board(game: Game, viewer: Viewer) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """What a fresh render shows `viewer` now: the whole partials (as pushed), each panel by
    its id, and the log's line keys newest first."""
    from oob_page import Page

    from games.platform import presenters

    screen = presenters.load_screen(Table.objects.get(pk=game.table_id), viewer)
    parts = presenters.render_all(screen, oob=True)
    players = Page(parts["players"])
    panels = {node.attrs["id"]: node.html() for node in players.root.elements()
              if re.fullmatch(r"seat-\d+", node.attrs.get("id", ""))}
    return parts, panels, [line.key for line in reversed(screen.ctx["log"])]


def swapped_panels(pushed: str, panels: dict[str, str]) -> set[str]:
    """The panels a frame swaps something in: the panel itself, its attributes, or an element
    inside it, by id."""
    from oob_page import parse

    swapped = [swap.attrs for swap in parse(pushed).children if not isinstance(swap, str)]
    ids = {attrs.get("id") for attrs in swapped if attrs.get("hx-swap-oob") == "true"}
    ids |= {attrs["hx-swap-oob"][len("attrs:#"):] for attrs in swapped
            if attrs.get("hx-swap-oob", "").startswith("attrs:#")}
    return {seat for seat, html in panels.items()
            if any(f' id="{i}"' in html or f'<details id="{i}"' in html for i in ids if i)}


async def test_after_a_move_a_seat_is_sent_only_the_changed_panels_and_the_new_log_lines(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    """The first push holds the players and the log whole; every later one only what changed
    in the panels whose HTML changed, swapped by id, and the log lines not sent yet, on top.
    Applied in order to the first page, they leave the page a fresh render would show."""
    from oob_page import Page, fresh

    from games.platform import presenters

    game = await start(alice, (bob, "Bob"), (carol, "Carol"))
    comm = await connect(game.table.code, bob)
    (first,) = await frames(comm)
    page = Page(first)
    parts, panels, lines = await fresh_board(game, bob)
    for partial in ("players", "log", "status", "hand", "decision"):
        assert parts[partial] in first  # whole, byte for byte as rendered
    full_log_for = 0  # moves since the log reached its LOG_LINES: lines now drop off its end
    styles: set[str] = set()
    while full_log_for < 3:
        game = await database_sync_to_async(play_one)(game)
        # Every move's push is waited for: a fixed 0.2 s window missed it on a loaded machine.
        pushed = "\n".join(await frames(comm, timeout=0.2, until=showing(game.version)))
        parts, now_panels, now_lines = await fresh_board(game, bob)
        assert 'id="players"' not in pushed
        # A log with no line yet has nowhere to put the first ones: its list comes whole once.
        assert 'id="log"' not in pushed
        assert ('id="log-lines"' in pushed) == (not lines)
        changed = {seat for seat, html in now_panels.items() if panels[seat] != html}
        assert swapped_panels(pushed, now_panels) == changed
        if lines:  # the new lines alone go on top (an aged or dropped line is named by a swap)
            assert re.findall(r'<li data-k="([\d.]+)"', pushed) == (
                now_lines[:now_lines.index(lines[0])])
        styles.update(re.findall(r'hx-swap-oob="(\w+):#(?:log|line-)', pushed))
        if re.search(r'<li hx-swap-oob="true" data-k=', pushed):
            styles.add("aged")
        page.apply(pushed)
        for partial in ("players", "log", "hand", "status"):
            assert page.element(partial) == fresh(parts[partial], partial)
        panels, lines = now_panels, now_lines
        full_log_for += len(lines) == presenters.LOG_LINES
    assert styles == {"afterbegin", "aged", "delete"}  # lines added, aged, dropped
    await comm.disconnect()


async def test_a_closed_socket_is_freed_as_it_closes_not_left_to_the_garbage_collector(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    """Whatever a socket kept (what it sent, its memos, its snapshot) goes when it closes: left
    in a reference cycle, it waited for the collector's full pass, which then stopped every
    socket of the process to free hundreds of closed ones at once."""
    from games.platform.table_sockets import table_sockets

    game, sockets, action = await mover_other_and_watcher(alice, bob, carol)
    await sockets[0].send_to(text_data=json.dumps({
        "kind": "act", "action": json.dumps(action), "expected_version": "0",
        "HEADERS": {"HX-Request": "true"}}))
    for comm in sockets:
        await frames(comm)
    consumers = [weakref.ref(c) for c in table_sockets.others(game.table.pk, None)]
    assert len(consumers) == 3
    # Loading a template the first time leaves a cycle behind (Django's loader keeps the miss
    # of each other engine, traceback and all): gone before the sockets close.
    gc.collect()
    gc.disable()
    try:
        for comm in sockets:
            await comm.disconnect()
        # The handler's thread lets go of its last message a moment after answering it.
        for _ in range(50):
            if all(ref() is None for ref in consumers):
                break
            await asyncio.sleep(0.01)
        assert [ref() for ref in consumers] == [None, None, None]
    finally:
        gc.enable()
