"""A real Chromium plays at a table served by a real Daphne: create, add a bot, start, click."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _click(page: Any, selector: str) -> bool:
    """Click the first match, or False if it is gone by then: a push from the server (the bot's
    move, a clock) may replace the panel between reading the page and clicking."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator(selector).first.click(timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


def _my_move(page: Any) -> bool:
    """Make one move if the page offers one; True if a move was sent."""
    if page.locator(".respond-form button").count():
        return _click(page, ".respond-form button")
    if page.locator(".pay-form").count():
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        boxes = page.locator(".pay-form input[name=cards]")
        for i in range(boxes.count()):  # tick cards until the Pay button enables
            try:
                # A push may replace the form between counting its boxes and ticking one
                # (CI once waited 30 s here for a box of the form it had counted): read the
                # page again rather than wait for a box that is gone.
                boxes.nth(i).check(timeout=3_000)
            except PlaywrightTimeout:
                return False
            if page.locator(".pay-confirm").is_enabled():
                break
        return _click(page, ".pay-confirm")
    if page.locator(".discard-form").count():
        need = int(page.locator(".discard-form").get_attribute("data-need"))
        boxes = page.locator(".discard-form input[name=cards]")
        for i in range(need):
            boxes.nth(i).check()
        return _click(page, ".discard-confirm")
    if "Your turn" in page.locator("#turn-name").inner_text():  # the words shown to this seat
        plays = page.locator("#hand .play-form button")
        if plays.count() and " 0 plays left" not in page.locator(".turn-line").text_content():
            return _click(page, "#hand .play-form button")
        if page.locator(".end-turn-form button").count():
            return _click(page, ".end-turn-form button")
    return False


def test_a_guest_starts_a_table_adds_a_bot_and_plays_by_clicking(live_server_url: str,
                                                                 page: Any) -> None:
    sent: list[str] = []  # the frames this browser sends over the table socket
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    _start_against_a_bot(live_server_url, page)

    moves = _play_my_moves(page, up_to=6)
    log = page.locator("#log").inner_text()  # the words shown to this seat
    assert moves >= 3 or page.locator("#result").count(), log
    assert "You " in log and "Bot Alpha" in log
    assert not (page.locator("#frame-error").text_content() or "").strip()
    assert page.console_errors == []
    # Every move carries the page's version and its decision token (services.decision_token).
    acts = [json.loads(f) for f in sent if isinstance(f, str) and '"act"' in f]
    assert acts and all(a.get("expected_version") and a.get("decision") for a in acts), acts


BOARD_JS = """() => ({version: document.getElementById('table-version').value,
  players: document.getElementById('players').innerHTML,
  log: document.getElementById('log').innerHTML,
  open: Array.from(document.querySelectorAll('details.seat:not(.me)')).map(d => d.open),
  celebrating: document.querySelectorAll('.just-completed').length})"""


def _unticked(html: str) -> str:
    """`html` without what table.js's clock tick writes into each clock every second: its
    figures, and the class ("low") it turns on for the last 10 s. Two pages tick apart, so near
    that mark one may show it a second before the other."""
    def bare(clock: re.Match[str]) -> str:
        return "<time" + re.sub(r'\sclass="[^"]*"', "", clock.group(1)) + "></time>"

    return re.sub(r"<time\b([^>]*)>[^<]*</time>", bare, html)


def _without_ticks(board: dict[str, Any]) -> dict[str, Any]:
    return {**board, "players": _unticked(board["players"])}


def _settled_board(page: Any) -> dict[str, Any]:
    """The players and the log once the table has been still for a moment (no push coming) and
    calm: a set a push completed hops for .9 s under a class (just-completed) a fresh load has
    not, so a board read during the hop is not yet the page it leaves.

    Still means no push, not no tick: while the table waits on Alice her clock counts down in
    her panel every second, and two reads whose gap (400 ms, plus the reads themselves) spanned
    a tick differed. Once that gap reached a second (a loaded box), every pair did, and the
    table "never stood still" while it waited on her."""
    board = page.evaluate(BOARD_JS)
    for _ in range(50):
        page.wait_for_timeout(400)
        again = page.evaluate(BOARD_JS)
        if _without_ticks(again) == _without_ticks(board) and not board["celebrating"]:
            return board
        board = again
    raise AssertionError("the table never stood still")


def test_after_pushes_of_single_panels_and_log_lines_the_page_reads_as_a_fresh_load(
        live_server_url: str, page: Any) -> None:
    """Pushes after the first carry only the changed panels and the new log lines; the page
    they leave is the page a fresh load shows, and an opponent the player opened or folded
    stays so when its panel is swapped."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else "")))
    _start_against_a_bot(live_server_url, page)
    # The player toggles the bot's panel.
    page.locator("details.seat:not(.me) summary").first.click()
    toggled = page.evaluate(BOARD_JS)["open"]
    _play_my_moves(page, up_to=8)
    live = _settled_board(page)
    assert any('hx-swap-oob="afterbegin:#log' in f for f in frames)
    assert any(f.startswith("<details hx-swap-oob") or "\n<details hx-swap-oob" in f
               or "<article hx-swap-oob" in f for f in frames)
    assert live["open"] == toggled
    again = page.context.new_page()
    again.goto(page.url)
    again.wait_for_selector("#connection[data-state=open]")
    fresh = _settled_board(again)
    for _ in range(5):
        # On a loaded box the bot may pause longer than a settling spell between two of its
        # moves: compare the two pages once both show the same move.
        if fresh["version"] == live["version"]:
            break
        live, fresh = _settled_board(page), _settled_board(again)
    assert fresh["version"] == live["version"]
    assert fresh["log"] == live["log"]
    # The fresh page opens its opponents by the screen's default; the live one as toggled. A
    # clock's figures are the page's own, ticking (the seat deciding shows its clock in its
    # panel, read a moment apart on the two pages).
    assert _unticked(fresh["players"]).replace(" open=\"\"", "") == _unticked(
        live["players"]).replace(" open=\"\"", "")
    assert page.console_errors == []
    again.close()


def _start_against_a_bot(live_server_url: str, page: Any) -> None:
    """Alice opens a blitz table, seats a bot and starts; returns once her hand is dealt."""
    page.goto(live_server_url + "/tables/new/")
    page.fill("input[name=name]", "Alice")
    page.select_option("select[name=preset]", "blitz")
    page.click("text=Open the table")
    page.wait_for_url("**/t/*/")
    page.wait_for_selector("#connection[data-state=open]")
    page.click("text=Add a bot")
    page.wait_for_selector(".seat-list >> text=Bot Alpha")
    page.click("text=Start the game")
    page.wait_for_selector("#hand .hand-card")
    page.wait_for_selector("#connection[data-state=open]")


def _play_my_moves(page: Any, *, up_to: int) -> int:
    """Make up to `up_to` moves when they are Alice's (or until the game ends); returns how
    many she made."""
    moves = 0
    for _ in range(300):
        if page.locator("#result").count() or moves >= up_to:
            break
        before = page.locator("#table-version").get_attribute("value")
        if _my_move(page):
            moves += 1
            # The server answers every move with a new version pushed over the socket.
            page.wait_for_function(
                "v => document.getElementById('table-version').value !== v", arg=before,
                timeout=10_000)
        else:
            page.wait_for_timeout(100)
    return moves
