"""Quick Play in a real Chromium at a real Daphne: one click, the bots move, a clock counts down."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.chudopoly.engine import apply, card, scenario
from games.platform import clocks
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGINE = get_game("chudopoly")
END_TURN = ".end-turn-form button, #end-turn"


def _wait(what: str, check: Callable[[], Any], seconds: float = 60) -> Any:
    limit = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < limit, f"timed out waiting for {what}"
        time.sleep(0.2)
    return result


def _owed(game: Game, seat: int) -> bool:
    game.refresh_from_db()
    return seat in ENGINE.to_decide(game.state)


def test_quick_play_shows_a_ticking_clock_and_the_bots_move(live_server_url: str,
                                                            page: Any) -> None:
    page.goto(live_server_url + "/")
    page.click("#quick-play-chudopoly")
    page.wait_for_url("**/t/*/")
    page.wait_for_selector("#connection[data-state=open]")
    table = Table.objects.get()
    assert "no turn clock" in page.locator("#lobby").text_content()
    game = Game.objects.get(table=table)
    me = Seat.objects.get(table=table, is_bot=False).game_seat
    bots = [s for s in range(4) if s != me]

    # The bots play until I owe something; on my turn I end it and they play on.
    _wait("my decision", lambda: _owed(game, me))
    if game.state["phase"] == "play" and game.state["turn"] == me:
        before = game.version
        page.wait_for_function(
            "v => document.getElementById('table-version').value === String(v)", arg=before)
        page.locator(END_TURN).first.click()
        _wait("the bots' turns", lambda: game.actions.filter(
            version__gt=before, source="bot").count() >= 3)
        page.wait_for_function(
            "v => Number(document.getElementById('table-version').value) > v + 1", arg=before,
            timeout=30_000)
    else:
        assert game.actions.filter(source="bot").exists()
    _wait("my decision again", lambda: _owed(game, me))

    # A bot calls Roll Call: everyone owes it 2M, each with their own 45 s response clock.
    # (The position is written straight into the game, so this game's log no longer replays.)
    caller = bots[0]
    state = scenario(seats=4, turn=caller, hands={caller: ["roll_call"]},
                     banks={s: ["money:2"] for s in range(4) if s != caller},
                     turn_number=game.state["turn_number"] + 1)
    state = apply(state, caller, {"type": "action", "card": card(state, "roll_call")}).state
    deadlines = clocks.next_deadlines(ENGINE, state, table, {})
    Game.objects.filter(pk=game.pk).update(state=state, deadlines=deadlines,
                                           clock_due=clocks.earliest(deadlines))
    set_at = Game.objects.get(pk=game.pk).version
    page.reload()
    page.wait_for_selector("#connection[data-state=open]")

    # Looked up afresh each time: a push may swap the element for a new one meanwhile.
    selector = f'time[data-deadline="{deadlines[str(me)]["deadline"]}"]'
    mine = page.locator(selector).first
    page.wait_for_function("s => /^0:4\\d$/.test(document.querySelector(s)?.textContent)",
                           arg=selector)
    first = mine.text_content()
    page.wait_for_function("([s, t]) => (document.querySelector(s)?.textContent ?? t) !== t",
                           arg=[selector, first], timeout=10_000)
    assert mine.text_content() < first  # it counts down in the browser, between pushes

    # The other bots answer and pay (the watchdog wakes them), and my page follows.
    _wait("the bots' answers", lambda: _owed(game, me) and ENGINE.to_decide(game.state) == [me])
    page.wait_for_function(
        "v => Number(document.getElementById('table-version').value) > v", arg=set_at,
        timeout=30_000)
    log = page.locator("#log").inner_text()  # the words shown to this seat
    assert "paid" in log
    assert not (page.locator("#frame-error").text_content() or "").strip()


def test_a_spectator_with_a_wrong_device_clock_still_sees_the_right_countdown(
        live_server_url: str, page: Any) -> None:
    from clocks_helpers import started_game

    from games.platform.identity import Viewer

    alice = Viewer(user_id=None, guest_key="guest-alice-0000000000000000")
    bob = Viewer(user_id=None, guest_key="guest-bob-00000000000000000000")
    games: list[Game] = []

    def start() -> None:
        # On another thread: Playwright's event loop on this one refuses the broadcasts.
        try:
            games.append(started_game(alice, (bob, "Bob"), turn_seconds=90))
        finally:
            connection.close()

    worker = threading.Thread(target=start)
    worker.start()
    worker.join(timeout=30)
    (game,) = games
    turn = game.state["turn"]
    # This device's clock runs ten minutes fast.
    page.add_init_script("(() => { const real = Date.now.bind(Date);"
                         " Date.now = () => real() + 600000; })()")
    page.goto(f"{live_server_url}{game.table.invite_path}")  # a watcher with the link
    page.wait_for_selector("#connection[data-state=open]")
    clock = page.locator(f"#seat-{turn} time[data-deadline]")
    page.wait_for_function("el => /^1:2\\d$/.test(el.textContent)", arg=clock.element_handle())
    first = clock.text_content()
    page.wait_for_function("([el, t]) => el.textContent !== t",
                           arg=[clock.element_handle(), first], timeout=10_000)
    assert "1:20" <= clock.text_content() < first
