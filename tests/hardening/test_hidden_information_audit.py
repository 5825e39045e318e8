"""Hidden-information audit over a live site: a full game between three scripted guests and a
spectator on a real Daphne, recording every frame each socket receives and the table page each
of them loads along the way. None may name a card in another seat's hand or in the draw pile,
nor the game's seed or generator state (which would give away the draw order).

The game is replayed from its log afterwards to know, for every version, which cards were
hidden from whom. The board in a frame is judged against the version it shows; the game log in
it tells history, so it may name only cards that viewer had seen by then (a card discarded in
plain sight and later reshuffled into the deck is no secret).

Boardroom and Commonwealth have audits of their own below, and so do replays and charts: none
is served while a game runs, and a finished game's replay shows each step as its viewer saw it.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from typing import Any

import livesetup
import pytest
from livepage import error_in
from liveplay import HttpSession, ScriptedSeat, version_in

from games.platform.interface import get_game
from games.platform.models import Game, GameAction

ENGINE = get_game("chudopoly")
GAME_SECONDS = 150

_CARD_PATTERNS = (
    re.compile(r'data-card-id="(\d+)"'),
    re.compile(r'\bid="[a-z-]*card-(\d+)"'),
    re.compile(r'name="cards" value="(\d+)"'),
    re.compile(r'(?:&quot;|&#x27;|")(?:card|take|give)(?:&quot;|&#x27;|"):\s*(\d+)'),
)
_CARD_LISTS = re.compile(r'(?:&quot;|")cards(?:&quot;|"):\s*\[([\d,\s]*)\]')


def card_ids_in(html: str) -> set[int]:
    ids: set[int] = set()
    for pattern in _CARD_PATTERNS:
        ids.update(int(m) for m in pattern.findall(html))
    for group in _CARD_LISTS.findall(html):
        ids.update(int(x) for x in re.split(r"[,\s]+", group) if x)
    return ids


_LOG_START = re.compile(r'<section\b[^>]*\bid="log"')
_LOG_PIECE = re.compile(r'<([a-z]+) hx-swap-oob="(?:[a-zA-Z]+:#(?:log|line-)\b|true" data-k=)')


def split_log(html: str) -> tuple[str, str]:
    """(the game log, everything else) of a frame or a page: the log section, or the log's
    lines a push sends alone (its new lines on top, aged ones, dropped ones: each swapped by
    the list's or the line's id, games/platform/swaps.py)."""
    log, rest = "", html
    match = _LOG_START.search(rest)
    if match is not None:
        end = rest.find("</section>", match.end())
        end = len(rest) if end < 0 else end + len("</section>")
        log, rest = rest[match.start():end], rest[:match.start()] + rest[end:]
    while (piece := _LOG_PIECE.search(rest)) is not None:
        close = f"</{piece.group(1)}>"
        end = rest.find(close, piece.end())
        end = len(rest) if end < 0 else end + len(close)
        log, rest = log + rest[piece.start():end], rest[:piece.start()] + rest[end:]
    return log, rest


def _contexts(html: str, ids: set[int]) -> list[str]:
    out = []
    for cid in sorted(ids):
        for m in re.finditer(rf"\D{cid}\D", html):
            out.append(html[max(0, m.start() - 150):m.end() + 60])
    return out[:6]


def states_by_version(game: Game) -> list[dict[str, Any]]:
    """The state after each version, rebuilt from the seed and the log."""
    state = ENGINE.create(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed)
    states = [state]
    for row in GameAction.objects.filter(game=game).order_by("version"):
        state = ENGINE.apply(state, row.seat, row.action).state
        states.append(state)
    return states


def hidden_from(state: dict[str, Any], seat: int | None) -> set[int]:
    hidden = set(state["deck"])
    for s, player in enumerate(state["players"]):
        if s != seat:
            hidden.update(player["hand"])
    return hidden


def _fetch_pages(base: str, cookies: dict[str, str], pages: dict[str, list[str]],
                 stop: threading.Event) -> None:
    sessions = {}
    for who, cookie in cookies.items():
        session = HttpSession(base)
        key, _, value = cookie.partition("=")
        session.cookies[key] = value
        sessions[who] = session
    while not stop.is_set():
        for who, session in sessions.items():
            for path in pages["_path"]:  # the table, and its whole log
                status, _, body = session.get(path)
                assert status == 200, (path, status)
                pages[who].append(body)
        stop.wait(0.5)


def test_no_frame_or_page_shows_another_seats_hand_or_the_draw_order(
        live_server_url: str) -> None:
    table = livesetup.guest_table(3, preset="blitz")
    watcher_cookie = livesetup.spectator_cookie()
    ws_base = live_server_url.replace("http://", "ws://")
    cookies = {**table.cookies, "spectator": watcher_cookie}
    pages: dict[str, list[str]] = {who: [] for who in cookies}
    from games.platform.models import Table

    invite = Table.objects.get(pk=table.table_id).invite_token  # the watcher has the link
    pages["_path"] = [f"/t/{table.code}/?invite={invite}", f"/t/{table.code}/log/?invite={invite}"]
    stop = threading.Event()
    fetcher = threading.Thread(target=_fetch_pages,
                               args=(live_server_url, cookies, pages, stop), daemon=True)

    async def play() -> dict[str, ScriptedSeat]:
        clients = {name: ScriptedSeat(ws_base, table.code, cookie, rng=random.Random(i),
                                      record=True, name=name, invite=invite)
                   for i, (name, cookie) in enumerate(cookies.items())}
        clients["spectator"].watching = True
        await asyncio.gather(*(c.connect() for c in clients.values()))
        until = time.monotonic() + GAME_SECONDS
        await asyncio.gather(*(c.play(until=until) for c in clients.values()))
        await asyncio.gather(*(c.close() for c in clients.values()))
        return clients

    fetcher.start()
    try:
        clients = asyncio.run(play())
    finally:
        stop.set()
        fetcher.join(timeout=20)
    for client in clients.values():
        assert client.finished, f"{client.name}: the game did not end ({client.stats.errors})"
        assert not client.stats.errors, client.stats.errors

    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.FINISHED
    states = states_by_version(game)
    assert json.dumps(states[-1], sort_keys=True) == json.dumps(game.state, sort_keys=True)
    secrets = {str(game.seed)} | {str(s["rng"]) for s in states}
    seat_of = {**table.seats, "spectator": None}
    every_card = set(range(len(states[0]["deck"]) + sum(len(p["hand"])
                                                        for p in states[0]["players"])))
    # What each viewer has been able to see by each version (the log tells history).
    # A card an action names (played, paid, discarded) is shown to everyone by that action,
    # even when the same action shuffles it back into the deck (a draw from an empty deck
    # reshuffles the discard pile, the card just played included).
    named: list[set[int]] = [set()] + [
        {c for c in [row.action.get("card"), *(row.action.get("cards") or [])]
         if isinstance(c, int)}
        for row in GameAction.objects.filter(game=game).order_by("version")]
    seen: dict[str | None, list[set[int]]] = {}
    for who, seat in seat_of.items():
        so_far: set[int] = set()
        seen[who] = []
        for state, shown in zip(states, named, strict=True):
            so_far = so_far | (every_card - hidden_from(state, seat)) | shown
            seen[who].append(so_far)

    def audit(who: str, texts: list[str], kind: str) -> int:
        seat = seat_of[who]
        last = 0
        seen_own = False
        for n, text in enumerate(texts):
            for secret in secrets:
                assert secret not in text, f"{who} {kind} {n} shows the seed or rng state"
            assert "&quot;deck&quot;" not in text and '"deck":' not in text
            version = version_in(text)
            log_html, board_html = split_log(text)
            if version is not None:
                hidden = hidden_from(states[version], seat)
                last = version
            else:  # rendered at the last version seen or later: hidden throughout
                hidden = set.intersection(*(hidden_from(s, seat) for s in
                                            states[last:min(len(states), last + 3)]))
            # The board shows the state at its version: nothing hidden at that version.
            leaked = card_ids_in(board_html) & hidden
            assert not leaked, (f"{who} {kind} {n} (version {version}) names hidden cards "
                                f"{sorted(leaked)}: {_contexts(board_html, leaked)}")
            # The log tells what happened: only cards this viewer saw at the time. (It may run
            # one move ahead of the board: the page reads the log after the game row.)
            known = seen[who][min(len(states) - 1, last + 1)]
            leaked = card_ids_in(log_html) - known
            assert not leaked, (f"{who} {kind} {n} (version {version}) logs cards it never "
                                f"saw {sorted(leaked)}: {_contexts(log_html, leaked)}")
            if seat is not None and version is not None and version < len(states) - 1:
                own = set(states[version]["players"][seat]["hand"])
                seen_own = seen_own or bool(own and own <= card_ids_in(board_html))
        return int(seen_own)

    own_hands_found = 0
    for who, client in clients.items():
        assert len(client.frames) > 10
        own_hands_found += audit(who, client.frames, "frame")
        assert pages[who], f"no page was loaded for {who}"
        own_hands_found += audit(who, pages[who], "page")
    # The audit reads card ids from the markup; it must see each player's own hand somewhere,
    # or a change of markup has blinded it.
    assert own_hands_found >= 2 * len(table.seats)


@pytest.mark.django_db
def test_the_audit_would_catch_a_leak() -> None:
    html = ('<span class="card" data-card-id="17"></span><option value="{&quot;type&quot;: '
            '&quot;pay&quot;, &quot;cards&quot;: [3, 4]}">x</option>'
            '<input type="checkbox" name="cards" value="9">')
    assert card_ids_in(html) == {17, 3, 4, 9}


# --- Boardroom ---------------------------------------------------------------------------------
# Its hidden information: the seed and the generator, the order of both card decks (and any
# injected dice), and the terms of a trade offer between two other seats. The audit plays a
# game against three bots over the table socket (in process: the same consumer and partials
# as the live site), a spectator watching, and checks every frame and page either receives.

# An open offer's terms, in the one form of every trade (games/platform/wording.py):
# "Trade offer: Bea gives Cal River Port; Cal gives 300 in cash." (a Commonwealth deal:
# "Deal offered: …"); the two groups are the proposer and the other party.
_PRIVATE_TERMS = re.compile(r"(?:Trade offer|Deal offered): ([^<>;]+?) gives? [^<>;]*; "
                            r"([^<>;]+?) gives? ")


def _boardroom_secrets(state: dict[str, Any]) -> list[str]:
    """Strings whose presence in a frame would give a secret away."""
    from games.boardroom.engine.cards import CARDS

    out = [str(state["seed"]), str(state["rng"])]
    for deck in state["decks"].values():
        order = deck["order"]
        out.append(json.dumps(order))
        out.append(",".join(map(str, order)))
        # The titles of the next three cards of a deck, in order, would be the draw order.
        out.append(" ".join(CARDS[c]["title"] for c in (order * 2)[deck["at"]:deck["at"] + 3]))
    return out


def _boardroom_leaks(html: str, state: dict[str, Any], seat: int | None) -> list[str]:
    found = [s for s in _boardroom_secrets(state) if s in html]
    for offerer, to in _PRIVATE_TERMS.findall(html):
        if seat is None or "you" not in (offerer.lower(), to.lower()):
            found.append(f"the terms of {offerer}’s offer to {to}")
    return found


async def _watch_a_game_against_bots(game_kind: str, *, guest_key: str, levels: list[str],
                                     moves: int, quiet: float, page_every: int,
                                     min_version: int) -> tuple[Game, int, dict[str, list[str]]]:
    """What `_watch_against_bots_here` returns, with the bots' turns run by the test's own
    hand (its `run_due`) whatever backend the environment names: with REDIS_URL set they would
    go to a Celery worker, which runs only if an earlier test of the session started one, and
    run alone the audit saw a game stop at its third version."""
    from django.test import override_settings

    with override_settings(TASK_BACKEND="inprocess"):
        return await _watch_against_bots_here(
            game_kind, guest_key=guest_key, levels=levels, moves=moves, quiet=quiet,
            page_every=page_every, min_version=min_version)


async def _watch_against_bots_here(game_kind: str, *, guest_key: str, levels: list[str],
                                   moves: int, quiet: float, page_every: int,
                                   min_version: int) -> tuple[Game, int, dict[str, list[str]]]:
    """Alice plays a game against bots over the table socket (her moves the medium bot's) while
    a spectator watches; every frame both sockets received, and their table page now and then.
    Returns the final game, Alice's seat and what each of "alice" and "spectator" saw."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import Client

    from chudopoly_site.asgi import application
    from games.platform import services
    from games.platform.identity import GUEST_SESSION_KEY, Viewer
    from games.platform.scheduler import in_process_scheduler

    engine = get_game(game_kind)
    alice = Viewer(user_id=None, guest_key=guest_key)

    def setup() -> tuple[Game, dict[str, str]]:
        table = services.table_play_vs_bots(viewer=alice, name="Alice",
                                            levels=levels,
                                            game_kind=game_kind, turn_seconds=0)
        cookies = {}
        for who, viewer in (("alice", alice), ("spectator", None)):
            session = SessionStore()
            if viewer is not None:
                session[GUEST_SESSION_KEY] = viewer.guest_key
            session.create()
            cookies[who] = session.session_key
        return services.current_game(table), cookies

    game, cookies = await database_sync_to_async(setup)()
    me = next(i for i, p in enumerate(game.players) if p["name"] == "Alice")
    socks = {}
    path = game.table.invite_path.replace("/t/", "/ws/table/")  # as the page opens it
    for who, key in cookies.items():
        comm = WebsocketCommunicator(application, path, headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost"),
            (b"cookie", f"sessionid={key}".encode())])
        assert (await comm.connect())[0]
        socks[who] = comm
    seen: dict[str, list[str]] = {who: [] for who in socks}

    shown = dict.fromkeys(socks, -1)  # the newest version each socket's frames have shown

    async def take(who: str) -> str:
        text = await socks[who].receive_from(timeout=60)
        seen[who].append(text)
        version = version_in(text)
        if version is not None:
            shown[who] = max(shown[who], version)
        return text

    async def drain(timeout: float) -> None:
        for who, comm in socks.items():
            while not await comm.receive_nothing(timeout=timeout):
                await take(who)

    async def drain_to(version: int) -> None:
        """Every socket's frames until one shows `version` or a later one (the push of the
        move that made it), then whatever else has come by then."""
        for who in socks:
            while shown[who] < version:
                await take(who)
        await drain(0.02)

    def page(who: str) -> str:
        client = Client()
        client.cookies["sessionid"] = cookies[who]
        return client.get(game.table.invite_path).content.decode()

    def step() -> Game:
        game.refresh_from_db()
        return game

    await drain_to(game.version)  # the screen each socket is sent as it opens
    await drain(quiet)
    for n in range(moves):
        g = await database_sync_to_async(step)()
        if g.status != Game.Status.RUNNING:
            break
        before = g.version
        if me in engine.to_decide(g.state):
            action = engine.bot_action(engine.view(g.state, me), "medium")
            await socks["alice"].send_to(text_data=json.dumps({
                "kind": "act", "action": json.dumps(action),
                "expected_version": before}))
            # Her socket shows her move's version next, or says why it was refused.
            while shown["alice"] <= before and not error_in(await take("alice")):
                pass
            after = shown["alice"]
        else:
            await database_sync_to_async(in_process_scheduler().run_due)()
            after = (await database_sync_to_async(step)()).version
        if after > before:
            await drain_to(after)
        else:
            await drain(quiet)
        if n % page_every == 0:
            for who in socks:
                seen[who].append(await database_sync_to_async(page)(who))
    g = await database_sync_to_async(step)()
    await drain(quiet)  # anything the last move's push left to come
    for comm in socks.values():
        await comm.disconnect()
    assert g.version >= min_version, "the audit saw too little of a game"
    return g, me, seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_boardroom_frame_or_page_shows_the_seed_the_deck_order_or_others_offers(
        ) -> None:
    g, me, seen = await _watch_a_game_against_bots(
        "boardroom", guest_key="guest-alice-audit-00000000000000",
        levels=["medium", "medium", "easy"], moves=120, quiet=0.3, page_every=25, min_version=40)
    # Secrets of the final state cover every earlier one: the seed never changes, the decks
    # keep their order (they go round in a loop), the generator state is checked as it ends.
    for who, got in seen.items():
        seat = me if who == "alice" else None
        for html in got:
            assert not _boardroom_leaks(html, g.state, seat), _boardroom_leaks(
                html, g.state, seat)


def test_the_boardroom_audit_would_catch_a_seed_a_deck_order_or_someone_elses_offer() -> None:
    state = get_game("boardroom").create(ruleset={}, seats=3, seed=123456789)
    order = state["decks"]["market"]["order"]
    assert _boardroom_leaks("<p>seed 123456789</p>", state, 0)
    assert _boardroom_leaks(f"<i>{json.dumps(order)}</i>", state, 0)
    offer = ('<li><span class="log-text">Trade offer: Bea gives Cal 300 in cash; Cal gives '
             'River Port.</span></li>')
    assert _boardroom_leaks(offer, state, 0)
    mine = ('<li><span class="log-text">Trade offer: Bea gives you 300 in cash; you give '
            'River Port.</span></li>')
    assert not _boardroom_leaks(mine, state, 0)
    made = '<p id="offer">Trade offer: you give Bea 300 in cash; Bea gives River Port.</p>'
    assert not _boardroom_leaks(made, state, 0)
    assert _boardroom_leaks(mine, state, None)  # a spectator is party to no offer


def _commonwealth_secrets(state: dict[str, Any]) -> list[str]:
    """Strings whose presence in a frame would give Commonwealth's secrets away: the seed, the
    generator state and the Chance deck's order (as ids or as the next three titles)."""
    from games.commonwealth.engine.data import CARDS

    deck = state["deck"]
    return [str(state["seed"]), json.dumps(state["rng"]), json.dumps(deck),
            ",".join(map(str, deck)),
            " ".join(CARDS[c]["title"] for c in deck[:3])]


def _commonwealth_states(game: Game) -> list[dict[str, Any]]:
    engine = get_game("commonwealth")
    state = engine.create(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed)
    states = [state]
    for row in GameAction.objects.filter(game=game).order_by("version"):
        state = engine.apply(state, row.seat, row.action).state
        states.append(state)
    return states


def _commonwealth_leaks(html: str, state: dict[str, Any], seat: int | None) -> list[str]:
    found = [s for s in _commonwealth_secrets(state) if s in html]
    for offerer, to in _PRIVATE_TERMS.findall(html):
        if seat is None or "you" not in (offerer.lower(), to.lower()):
            found.append(f"the terms of {offerer}’s offer to {to}")
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_commonwealth_frame_or_page_shows_the_seed_the_deck_or_others_offers() -> None:
    from channels.db import database_sync_to_async

    # Hard bots offer deals to each other: the audit sees offers Alice is no party to.
    g, me, seen = await _watch_a_game_against_bots(
        "commonwealth", guest_key="guest-alice-cw-audit-000000000",
        levels=["hard", "hard", "medium"], moves=160, quiet=0.2, page_every=30, min_version=60)
    offers = await database_sync_to_async(lambda: GameAction.objects.filter(
        game=g, action__type="offer").exclude(seat=me).count())()
    # The deck's order changes as cards go under it: every version's order is checked.
    states = await database_sync_to_async(_commonwealth_states)(g)
    secrets = {s for st in states for s in _commonwealth_secrets(st)}
    for who, got in seen.items():
        seat = me if who == "alice" else None
        for html in got:
            assert not [s for s in secrets if s in html]
            assert not _commonwealth_leaks(html, g.state, seat), _commonwealth_leaks(
                html, g.state, seat)
    print("commonwealth audit:", g.version, "versions,", offers, "offers by bots")


def test_the_commonwealth_audit_would_catch_a_seed_a_deck_order_or_someone_elses_offer(
        ) -> None:
    state = get_game("commonwealth").create(ruleset={}, seats=3, seed=987654321)
    assert _commonwealth_leaks("<p>seed 987654321</p>", state, 0)
    assert _commonwealth_leaks(f"<i>{json.dumps(state['deck'])}</i>", state, 0)
    offer = ('<p class="banner pending" id="deal">Deal offered: Bea gives Cal Union Hall; '
             'Cal gives 40 in cash.</p>')
    assert _commonwealth_leaks(offer, state, 0)
    mine = ('<p class="banner pending" id="deal">Deal offered: Bea gives you Union Hall; you '
            'give nothing.</p>')
    assert not _commonwealth_leaks(mine, state, 0)
    assert _commonwealth_leaks(mine, state, None)  # a spectator is party to no offer


# --- Replays and charts -------------------------------------------------------------------------
# A running game has no replay, no charts and no export (404): its log holds every hand, the
# deck's order and the seed. A finished game's replay shows each step as its viewer saw it
# then: a spectator no hand, a player their own only (every hand only when they ask to open
# them, which a finished game allows), never the deck's order or the seed, nor another pair's
# offer; its charts read only a spectator's view.

_AFTER_THE_GAME = ("ladder:replay", "ladder:charts", "ladder:export")


def _guests_game(game_kind: str, seats: int, *, seed: int, moves: int, level: str,
                 monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[Any]]:
    """Guests' table of `game_kind` (no bots), dealt from `seed`, its moves chosen by the
    game's bot for whoever decides; after each tenth move nothing of it is served yet."""
    from django.test import Client
    from django.urls import reverse

    from games.platform import services
    from games.platform.identity import Viewer

    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    guests = [Viewer(user_id=None, guest_key=f"guest-replay-audit-{game_kind}-{n:02d}-0000")
              for n in range(seats)]
    table = services.table_create(viewer=guests[0], name="Guest0", ruleset_spec={},
                                  max_seats=seats, game_kind=game_kind)
    for n, viewer in enumerate(guests[1:], start=1):
        services.seat_join(table_id=table.pk, viewer=viewer, name=f"Guest{n}")
    game = services.game_start(table_id=table.pk, viewer=guests[0])
    engine = get_game(game_kind)
    for n in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        if n % 10 == 0:
            for name in _AFTER_THE_GAME:
                assert Client().get(reverse(name, args=[game.pk])).status_code == 404, name
        seat = engine.to_decide(game.state)[0]
        services.table_apply_action(game_id=game.pk, seat=seat, expected_version=game.version,
                                    action=engine.bot_action(engine.view(game.state, seat),
                                                             level))
    game.refresh_from_db()
    return game, guests


def _replay_pages(game: Game, viewer: Any) -> list[str]:
    """The replay page at every step, as `viewer` (None: a spectator) loads it."""
    from django.test import Client
    from django.urls import reverse

    from games.platform.identity import GUEST_SESSION_KEY

    client = Client()
    if viewer is not None:
        session = client.session
        session[GUEST_SESSION_KEY] = viewer.guest_key
        session.save()
    url = reverse("ladder:replay", args=[game.pk])
    pages = []
    for step in range(game.version + 1):
        response = client.get(f"{url}?step={step}")
        assert response.status_code == 200
        pages.append(response.content.decode())
    return pages


def _charts_page(game: Game) -> str:
    from django.test import Client
    from django.urls import reverse

    page = Client().get(reverse("ladder:charts", args=[game.pk])).content.decode()
    assert "<svg" in page
    return page


@pytest.mark.django_db
def test_no_chudopoly_replay_or_chart_shows_a_hidden_hand_the_deck_order_or_the_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.platform import services

    game, (ann, _) = _guests_game("chudopoly", 2, seed=10**15 + 7, moves=40, level="medium",
                                    monkeypatch=monkeypatch)
    ben_seat = next(i for i, p in enumerate(game.players) if p["name"] == "Guest1")
    services.table_apply_action(game_id=game.pk, seat=ben_seat, action={"type": "scoop"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    states = states_by_version(game)
    named: list[set[int]] = [set()] + [
        {c for c in [row.action.get("card"), *(row.action.get("cards") or [])]
         if isinstance(c, int)}
        for row in GameAction.objects.filter(game=game).order_by("version")]
    secrets = {str(game.seed)} | {str(s["rng"]) for s in states}
    ann_seat = 1 - ben_seat
    own_hand_seen = False
    for viewer, seat in ((None, None), (ann, ann_seat)):
        for step, page in enumerate(_replay_pages(game, viewer)):
            assert not [s for s in secrets if s in page], f"step {step} shows the seed"
            # What the step's move named is in plain sight; nothing else hidden then may be.
            leaked = card_ids_in(page) & (hidden_from(states[step], seat) - named[step])
            assert not leaked, f"{seat} step {step}: {_contexts(page, leaked)}"
            hand = set(states[step]["players"][seat]["hand"]) if seat is not None else set()
            own_hand_seen = own_hand_seen or bool(hand and hand <= card_ids_in(page))
    assert own_hand_seen, "the audit no longer finds a player's own hand in the replay"
    charts = _charts_page(game)
    assert not card_ids_in(charts) and not [s for s in secrets if s in charts]


@pytest.mark.django_db
@pytest.mark.parametrize(("game_kind", "seed", "moves", "leaks"), [
    # Seeds as long as the site's (a short one is found in any page by chance); this
    # Commonwealth seed's game ends with a tenth chip after 190 moves.
    ("boardroom", 10**15 + 5, 90, "_boardroom_leaks"),
    ("commonwealth", 10**15, 400, "_commonwealth_leaks")])
def test_no_board_game_replay_or_chart_shows_the_seed_the_deck_or_others_offers(
        game_kind: str, seed: int, moves: int, leaks: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.platform import services

    game, guests = _guests_game(game_kind, 3, seed=seed, moves=moves, level="medium",
                                monkeypatch=monkeypatch)
    for viewer in guests[1:]:  # Boardroom: the others leave, bankrupt (Commonwealth is over)
        if game.status == Game.Status.RUNNING:
            services.seat_leave(table_id=game.table_id, viewer=viewer)
            game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    engine = get_game(game_kind)
    states = [engine.create(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed)]
    for row in GameAction.objects.filter(game=game).order_by("version"):
        states.append(engine.apply(states[-1], row.seat, row.action).state)
    found = globals()[leaks]
    ann_seat = next(i for i, p in enumerate(game.players) if p["name"] == "Guest0")
    for viewer, seat in ((None, None), (guests[0], ann_seat)):
        for step, page in enumerate(_replay_pages(game, viewer)):
            assert not found(page, states[step], seat), (step, found(page, states[step], seat))
    assert not found(_charts_page(game), states[-1], None)


# --- The bot API's game streams -----------------------------------------------------------------
# Each seat of a table of three accounts streams its game over the API (games/api/) while the
# games' bots choose every seat's moves; every line each stream sends is judged against the
# state at the version it shows: no card in another hand or the deck (Chudopoly), no seed or
# generator state, no deck order, and no terms of an offer the seat is no party to.

API_AUDIT_LEVELS = {"chudopoly": "medium", "boardroom": "hard", "commonwealth": "hard"}


def _states_from_log(game: Game) -> list[dict[str, Any]]:
    engine = get_game(game.game_kind)
    state = engine.create(ruleset=game.ruleset, seats=game.seat_count, seed=game.seed)
    states = [state]
    for row in GameAction.objects.filter(game=game).order_by("version"):
        state = engine.apply(state, row.seat, row.action).state
        states.append(state)
    return states


def _json_card_ids(value: Any, key: str = "") -> set[int]:
    """Chudopoly card ids a stream line names: cards (objects with an id and a kind) and the
    ids under "card", "take", "give" and "cards"."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "id" in value and "kind" in value and type(value["id"]) is int:
            found.add(value["id"])
        for k, v in value.items():
            found |= _json_card_ids(v, k)
    elif isinstance(value, list):
        for v in value:
            found |= _json_card_ids(v, key)
    elif type(value) is int and key in ("card", "take", "give", "cards"):
        found.add(value)
    return found


def _private_offers(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The open trade offer (Boardroom) or deal (Commonwealth) of `state`, with its terms."""
    return [o for o in (state.get("offer"), state.get("deal"), state.get("declined"))
            if isinstance(o, dict) and "from" in o and "to" in o]


def _offer_terms_in(value: Any, offer: dict[str, Any]) -> bool:
    """Whether `value` holds an object naming the offer's two seats and any of its terms."""
    if isinstance(value, dict):
        if (value.get("from") == offer.get("from") and value.get("to") == offer.get("to")
                and set(value) - {"from", "to", "private"}):
            return True
        return any(_offer_terms_in(v, offer) for v in value.values())
    if isinstance(value, list):
        return any(_offer_terms_in(v, offer) for v in value)
    return False


def _api_line_leaks(text: str, line: dict[str, Any], state: dict[str, Any], seat: int,
                    kind: str) -> list[str]:
    found = [f"secret {s[:30]}" for s in (str(state["seed"]), json.dumps(state["rng"]),
                                         str(state["rng"])) if s in text]
    if kind == "chudopoly":
        # The game's own fields (its id, its kind) are not cards: what the seat is shown is.
        shown = line.get("state", line)
        leaked = _json_card_ids([shown.get("view"), shown.get("legal_actions"),
                                 shown.get("action_families")]) & hidden_from(state, seat)
        if leaked:
            found.append(f"hidden cards {sorted(leaked)}")
    elif kind == "boardroom":
        found += [f"secret {s[:30]}" for s in _boardroom_secrets(state) if s in text]
    else:
        found += [f"secret {s[:30]}" for s in _commonwealth_secrets(state) if s in text]
    for offer in _private_offers(state):
        if seat not in (offer.get("from"), offer.get("to")) and _offer_terms_in(line, offer):
            found.append(f"the terms of {offer['from']}'s offer to {offer['to']}")
    return found


def test_the_api_audit_would_catch_a_hand_a_seed_or_someone_elses_offer() -> None:
    engine = get_game("chudopoly")
    state = engine.create(ruleset=engine.resolve_ruleset({"preset": "chudopoly"}), seats=3,
                          seed=10**15 + 3)
    other = state["players"][1]["hand"][0]
    line = {"view": {"hand": [{"id": other, "kind": "property"}]}}
    assert _api_line_leaks(json.dumps(line), line, state, 0, "chudopoly")
    assert _api_line_leaks(f'{{"x": {state["seed"]}}}', {}, state, 0, "chudopoly")
    offer = {"from": 1, "to": 2, "cash": 300, "note": "mine for yours"}
    state = {**state, "offer": offer}
    seen = {"view": {"offer": dict(offer)}}
    assert _api_line_leaks(json.dumps(seen), seen, state, 0, "chudopoly")
    redacted = {"view": {"offer": {"from": 1, "to": 2, "private": True}}}
    assert not _api_line_leaks(json.dumps(redacted), redacted, state, 0, "chudopoly")
    assert not _api_line_leaks(json.dumps(seen), seen, state, 1, "chudopoly")


async def _read_until(chunks: Any, buffer: list[bytes], version: int,
                      lines: list[tuple[str, dict[str, Any]]]) -> None:
    """Read a stream's lines into `lines` until one shows `version` or a later one."""
    while True:
        while b"\n" not in buffer[0]:
            buffer[0] += await asyncio.wait_for(anext(chunks), 60)
        raw, _, buffer[0] = buffer[0].partition(b"\n")
        if not raw.strip():
            continue
        line = json.loads(raw)
        lines.append((raw.decode(), line))
        shown = line["state"]["version"] if line["type"] == "gameFull" else line.get("version")
        if shown is not None and (shown >= version or line.get("status") != "running"):
            return


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "moves"), [("chudopoly", 120), ("boardroom", 150),
                                             ("commonwealth", 160)])
async def test_no_api_stream_line_shows_another_hand_a_deck_order_a_seed_or_others_offers(
        kind: str, moves: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    from accounts import services as accounts
    from accounts.api_tokens import token_create
    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.interface import IllegalAction

    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 10**15 + 11)
    engine = get_game(kind)
    level = API_AUDIT_LEVELS[kind]

    def deal() -> tuple[Game, list[tuple[int, str]]]:
        users = [accounts.account_create(username=f"{kind[:5]}{n}", password="x" * 12)
                 for n in range(3)]
        viewers = [Viewer(user_id=u.pk, guest_key=None, username=u.username) for u in users]
        table = services.table_create(viewer=viewers[0], name=users[0].username,
                                      ruleset_spec={}, game_kind=kind, max_seats=3)
        for user, viewer in zip(users[1:], viewers[1:], strict=True):
            services.seat_join(table_id=table.pk, viewer=viewer, name=user.username)
        game = services.game_start(table_id=table.pk, viewer=viewers[0])
        secrets_ = [token_create(user_id=u.pk, description="audit", scopes=["bot:play"]).secret
                    for u in users]
        seats = [game.players.index(next(p for p in game.players if p["user_id"] == u.pk))
                 for u in users]
        return game, list(zip(seats, secrets_, strict=True))

    def deal_offer(state: dict[str, Any], seat: int, version: int) -> dict[str, Any] | None:
        """Commonwealth: a deal `seat` may offer now for a project another seat manages
        (offered at any time, so between two seats while the third watches)."""
        if kind != "commonwealth" or version % 6:
            return None
        for other in range(state["seats"]):
            for pid, project in enumerate(state["projects"]):
                if other == seat or project["manager"] != other:
                    continue
                offer = {"type": "offer", "to": other, "give": {"cash": 10},
                         "get": {"projects": [pid]}}
                try:
                    engine.apply(state, seat, offer)
                except IllegalAction:
                    continue
                return offer
        return None

    def play_one(game: Game) -> Game | None:
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return None
        seat = engine.to_decide(game.state)[0]
        action = (deal_offer(game.state, seat, game.version)
                  or engine.bot_action(engine.view(game.state, seat), level))
        return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                           expected_version=game.version)

    game, seats = await sync_to_async(deal)()
    streams = []
    for seat, secret in seats:
        response = await AsyncClient().get(f"/api/bot/game/stream/{game.pk}",
                                           headers={"Authorization": f"Bearer {secret}"})
        assert response.status_code == 200
        streams.append((seat, aiter(response.streaming_content), [b""], []))
    for _seat, chunks, buffer, lines in streams:
        await _read_until(chunks, buffer, 0, lines)
    for _ in range(moves):
        moved = await sync_to_async(play_one)(game)
        if moved is None:
            break
        game = moved
        for _seat, chunks, buffer, lines in streams:
            await _read_until(chunks, buffer, game.version, lines)
    for _seat, chunks, _buffer, _lines in streams:
        await chunks.aclose()
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    states = await sync_to_async(_states_from_log)(game)
    offers = sum(1 for st in states[:-1] if _private_offers(st))
    checked = 0
    for seat, _chunks, _buffer, lines in streams:
        for text, line in lines:
            version = line["state"]["version"] if line["type"] == "gameFull" else line["version"]
            leaks = _api_line_leaks(text, line, states[version], seat, kind)
            assert not leaks, (kind, seat, version, leaks)
            checked += 1
    assert checked >= 3 * min(moves, game.version)
    if kind != "chudopoly":  # trades and deals between two seats, the third watching
        assert offers
    print(f"api audit {kind}: {game.version} versions, {checked} lines, "
          f"{offers} versions with an open offer")
