"""Hidden-information audit over a live site: a full game between three scripted guests and a
spectator on a real Daphne, recording every frame each socket receives and the table page each
of them loads along the way. None may name a card in another seat's hand or in the draw pile,
nor the game's seed or generator state (which would give away the draw order).

The game is replayed from its log afterwards to know, for every version, which cards were
hidden from whom. The board in a frame is judged against the version it shows; the game log in
it tells history, so it may name only cards that viewer had seen by then (a card discarded in
plain sight and later reshuffled into the deck is no secret).
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


def split_log(html: str) -> tuple[str, str]:
    """(the game log section, everything else) of a frame or a page."""
    match = _LOG_START.search(html)
    if match is None:
        return "", html
    end = html.find("</section>", match.end())
    end = len(html) if end < 0 else end + len("</section>")
    return html[match.start():end], html[:match.start()] + html[end:]


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
            status, _, body = session.get(pages["_path"][0])
            assert status == 200, status
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
    pages["_path"] = [f"/t/{table.code}/?invite={invite}"]
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
