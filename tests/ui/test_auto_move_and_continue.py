"""Auto move and Continue in real Chromium (the guide's "Auto move and saving"), on a fixed
position against two bots: the toggle by the dice makes the dice glow and rolls for the player
on the live site's workers; tapping the dice turns it off and the game waits for the player.
Then "Continue on another device" pauses the game, and a second browser context takes it over
by its link; the first one no longer has it. On a phone, Commonwealth's toggle sits by its
dice the same way and stops at a purchase too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import check_axe, check_layout, guest, off_loop, settle, shot, sign_in

from games.boardroom.engine import scenario
from games.commonwealth.engine import scenario as commonwealth_scenario
from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP = {"viewport": {"width": 1440, "height": 900}}


def _game_on_my_roll(viewer: Viewer) -> str:
    """A Boardroom table against two easy bots, the player to roll 1 and 2 from the start:
    they land on a free business (a purchase, which auto move leaves to them)."""
    table = services.table_play_vs_bots(viewer=viewer, name="Ava", levels=["easy", "easy"],
                                        game_kind="boardroom")
    game = services.current_game(table)
    me = next(s.game_seat for s in Seat.objects.filter(table=table, is_bot=False))
    state = scenario(seats=3, turn=me, order=[me] + [s for s in range(3) if s != me],
                     dice=[(1, 2)], phase="roll", bots=[p["bot"] for p in game.players])
    state["version"] = game.version
    deadlines = clocks.next_deadlines(get_game("boardroom"), state, table, {},
                                      players=game.players)
    Game.objects.filter(pk=game.pk).update(state=state, deadlines=deadlines)
    return table.code


# Whether the dice glow (site.css: while the seat's auto move toggle is on).
DICE_GLOW = "() => getComputedStyle(document.querySelector('#dice .die')).boxShadow !== 'none'"


def _version(page: Any) -> str:
    return page.locator("#table-version").input_value()


def test_auto_move_then_continue_on_another_device(live_server_url: str, desktop: Any,
                                                   browser: Any, axe_script: Path,
                                                   artifacts: Path) -> None:
    page = desktop
    ava = guest("ava")
    sign_in(page, live_server_url, ava)
    code = off_loop(_game_on_my_roll, ava)
    page.goto(f"{live_server_url}/t/{code}/")
    settle(page)
    assert page.locator("#auto-move[aria-pressed=false]").count() == 1

    page.locator("#auto-move").click()
    page.wait_for_function(DICE_GLOW)  # the dice glow while it is on
    page.wait_for_selector("#auto-move[aria-pressed=true]")
    # Auto move rolls (on the live site's workers) and stops at the purchase: the player's.
    page.wait_for_selector("#decision #buy", timeout=15_000)
    assert "You rolled 1 and 2" in page.locator("#log").inner_text()
    shot(page, artifacts, "desktop-boardroom-auto-move")
    check_layout(page, "auto move on")
    check_axe(page, axe_script, "auto move on")

    page.locator("#dice").click()  # tapping the glowing dice turns it off
    page.wait_for_selector("#auto-move[aria-pressed=false]")
    assert not page.evaluate(DICE_GLOW)
    before = _version(page)
    page.locator("#decision #buy").click()
    page.wait_for_function("v => document.getElementById('table-version').value !== v",
                           arg=before, timeout=15_000)
    page.wait_for_selector("#decision #end-turn")
    mine = _version(page)
    page.wait_for_timeout(3_000)  # longer than a scheduled auto move waits
    assert _version(page) == mine  # off: the game waits for the player's end of turn

    # Continue on another device: the game pauses and a one-time link moves it.
    page.locator("#continue-elsewhere").click()
    link = page.locator("#move-url").inner_text().strip()
    assert "24 hours" in page.locator("main").inner_text()
    check_layout(page, "continue link")
    check_axe(page, axe_script, "continue link")
    other_context = browser.new_context(**DESKTOP)
    try:
        other = other_context.new_page()
        other.goto(link)
        other.locator("#claim").click()
        other.wait_for_url(f"**/t/{code}/")
        settle(other)
        other.wait_for_selector("#decision #end-turn")  # the same game, where it was
        before = _version(other)
        other.locator("#decision #end-turn").click()
        other.wait_for_function("v => document.getElementById('table-version').value !== v",
                                arg=before, timeout=15_000)
        # The first browser no longer has the game (its home page offers nothing to
        # continue; the other one's does), and the link worked once.
        page.goto(f"{live_server_url}/")
        assert page.locator("#continue-games").count() == 0
        other.goto(f"{live_server_url}/")
        assert other.locator(f'#continue-games a[href="/t/{code}/"]').count() == 1
        check_layout(other, "home with a game to continue")
        check_axe(other, axe_script, "home with a game to continue")
        other.goto(link)
        assert other.locator("#link-used").count() == 1
    finally:
        other_context.close()


def _commonwealth_on_my_roll(viewer: Viewer) -> str:
    """A Commonwealth table against two easy bots, the player to roll 4 and 2: they land on
    an unmanaged project (a purchase, which auto move leaves to them)."""
    table = services.table_play_vs_bots(viewer=viewer, name="Ava", levels=["easy", "easy"],
                                        game_kind="commonwealth")
    game = services.current_game(table)
    me = next(s.game_seat for s in Seat.objects.filter(table=table, is_bot=False))
    state = commonwealth_scenario(seats=3, turn=me, dice=[(4, "2")])
    state["version"] = game.version
    Game.objects.filter(pk=game.pk).update(state=state, deadlines={})
    return table.code


def test_commonwealth_auto_move_on_a_phone(live_server_url: str, phone: Any,
                                           axe_script: Path, artifacts: Path) -> None:
    page = phone
    ava = guest("ava")
    sign_in(page, live_server_url, ava)
    code = off_loop(_commonwealth_on_my_roll, ava)
    page.goto(f"{live_server_url}/t/{code}/")
    settle(page)
    page.locator("#auto-move").click()
    page.wait_for_function(DICE_GLOW)
    page.wait_for_selector("#decision #buy", timeout=15_000)  # it rolled, and stops there
    assert "You rolled 4 and 2" in page.locator("#log").inner_text()
    shot(page, artifacts, "phone-commonwealth-auto-move")
    check_layout(page, "commonwealth auto move on")
    check_axe(page, axe_script, "commonwealth auto move on")
    page.locator("#dice").click()  # tapping the glowing dice turns it off
    page.wait_for_selector("#auto-move[aria-pressed=false]")
