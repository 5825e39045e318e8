"""Boardroom in real Chromium at 390×844 (touch) and 1440×900: a whole game against three bots
played by clicking, on a fixed seed where it has everything — buying, sending a tile to
auction and winning one, opening a branch from the portfolio (with its sound, then muted and
remembered across a reload), a trade a bot refuses and one it accepts, a debt paid off by
raising money, the audit and the way out — reloading the page in the middle of an auction, to
the result at the turn limit. The choices are the scripted player's
(tests/boardroom_site/boardroom_script.py, which proves the seed offline); here each one is
made with the page's own buttons and forms. Every kind of screen passes the table's UI checks
once: no sideways scroll, tap targets of at least 44 px, no overlapping controls, no console
errors, axe-core clean."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from ui_helpers import (
    check_axe,
    check_layout,
    guest,
    off_loop,
    settle,
    shot,
    sign_in,
    wait_still,
    wait_version_change,
)

from games.platform.interface import get_game
from games.platform.models import Game, GameAction
from tests.boardroom_site.boardroom_script import (
    EVERYTHING,
    Script,
    seats_of,
    start_acceptance_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGINE = get_game("boardroom")
GAME_SECONDS = 420
BRANCH_TONE = 1760  # the last note of table.js's "branch" sound, in no other sound
# Notes every oscillator of the page is set to, so the test can hear which sound played.
TONES_JS = """
window.__tones = [];
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    const osc = make.call(this);
    const set = osc.frequency.setValueAtTime.bind(osc.frequency);
    osc.frequency.setValueAtTime = (value, at) => {
      window.__tones.push(value);
      return set(value, at);
    };
    return osc;
  };
}
"""


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    # A button a push just swapped in may still be fading its colour (a 0.12 s transition), and
    # a token may still be walking: axe would read colours half-way.
    wait_still(page)
    shot(page, artifacts, name)
    check_layout(page, name)
    check_axe(page, axe, name)


def _load(game_id: int, since: int) -> tuple[Game, list[list[dict]]]:
    """The game, and the events of its actions from version `since` on (a row holds the
    action that took the game from its version to the next)."""
    game = Game.objects.get(pk=game_id)
    rows = GameAction.objects.filter(game_id=game_id, version__gte=since).order_by("version")
    return game, [row.events or [] for row in rows]


def _click(page: Any, selector: str) -> None:
    page.locator(selector).first.click()


def _perform(page: Any, action: dict[str, Any]) -> None:
    """Make one engine action with the page's controls."""
    t = action["type"]
    direct = {"roll": "#roll", "pay_bail": "#pay-bail", "use_release": "#use-release",
              "buy": "#buy", "decline": "#decline", "bid": "#bid", "pass": "#pass",
              "end_turn": "#end-turn", "give_up": "#give-up"}
    if t in direct:
        _click(page, f"#decision {direct[t]}")
    elif t == "answer":
        _click(page, "#decision #accept" if action["accept"] else "#decision #refuse")
    elif t in ("build", "close", "sell_bank"):
        kind = {"build": "pf-build", "close": "pf-close", "sell_bank": "pf-sell-bank"}[t]
        _click(page, f'#hand li[data-tile="{action["tile"]}"] .{kind}')
    elif t == "auction_own":
        _click(page, f'#hand li[data-tile="{action["tile"]}"] .pf-auction')
        form = page.locator(f'#trade .lot-form[data-tile="{action["tile"]}"]')
        assert form.locator('input[name="start"]').input_value() == str(action["start"])
        form.locator('button[type="submit"]').click()
    elif t == "propose" and action["kind"] == "swap":
        if not page.locator("#trade").evaluate("d => d.open"):
            page.locator("#trade summary").click()
        if page.locator("#pick-swap").count():
            page.locator("#pick-swap").select_option(str(action["to"]))
        form = page.locator(f'#trade .swap-form[data-to="{action["to"]}"]')
        form.locator('select[name="take"]').select_option(str(action["take"]))
        form.locator('select[name="give"]').select_option("")
        form.locator('input[name="cash"]').fill(str(action["cash"]))
        form.locator('button[type="submit"]').click()
    else:
        raise AssertionError(f"no control for {action}")


def _screen(view: dict[str, Any], me: int, action: dict[str, Any]) -> str | None:
    """The kind of screen this decision shows, for the once-per-kind UI checks."""
    if view.get("auction"):
        return "auction"
    if any(d["seat"] == me for d in view.get("debts") or []):
        return "debt"
    if view["audit"][me] is not None:
        return "audit"
    return {"build": "portfolio", "propose": "trade", "buy": "buy"}.get(action["type"])


def test_a_whole_boardroom_game_against_three_bots_by_clicking(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann = guest("ann")
    table = off_loop(start_acceptance_table, ann)
    game, _ = off_loop(_load, off_loop(lambda: Game.objects.get(table_id=table.pk).pk), 0)
    me, _levels = off_loop(seats_of, game)
    sign_in(page, live_server_url, ann)
    page.add_init_script(TONES_JS)
    page.goto(f"{live_server_url}/t/{table.code}/")
    settle(page)
    assert page.locator(".br-tile").count() == 40
    assert page.locator(".br-seat").count() == 4
    _look(page, axe_script, artifacts, f"{size}-boardroom-start")

    # Tap a tile: its card shows in the centre with the whole rent table (on a phone, on the
    # back of the card: it turns over and back).
    page.locator('.br-tile[data-tile="39"]').click()
    card = page.locator("#inspect .br-card")
    assert "Stock Exchange" in card.inner_text()
    if size == "phone":
        assert not card.locator(".br-rents").is_visible()
        card.locator(".br-flip").click()
        page.wait_for_function("() => document.getAnimations().length === 0")
        assert card.locator(".br-rents").is_visible()
        assert "With a holding" in card.locator(".br-rents").inner_text()
        _look(page, axe_script, artifacts, f"{size}-boardroom-rent-table")
        card.locator(".br-unflip").click()
    else:
        assert "With a holding" in card.locator(".br-rents").inner_text()
    _look(page, axe_script, artifacts, f"{size}-boardroom-tile-card")
    # By keyboard: a tile takes the focus and Enter shows its card.
    page.locator('.br-tile[data-tile="5"]').focus()
    page.keyboard.press("Enter")
    assert "North Freight Depot" in page.locator("#inspect .br-card").inner_text()
    # A bottom-row tile's card, in the centre, is brought into sight on a tall board.
    expect(page.locator("#inspect .br-card")).to_be_in_viewport()
    if size == "phone":
        # The phone asks for reduced motion: tokens jump instead of walking.
        page.emulate_media(reduced_motion="reduce")

    script = Script()
    seen_version = 0
    looked: set[str] = set()
    reloaded = False
    walked = False
    decided_at = -1
    stop = time.monotonic() + GAME_SECONDS
    while time.monotonic() < stop:
        game, events = off_loop(_load, game.pk, seen_version)
        for evs in events:
            script.saw(evs, me)
        seen_version = game.version
        if game.status != Game.Status.RUNNING or not game.state["active"][me]:
            break
        if me not in ENGINE.to_decide(game.state) or decided_at == game.version:
            page.wait_for_timeout(100)  # the bots are moving, or our move is on its way
            continue
        page.wait_for_function("v => document.getElementById('table-version').value === v",
                               arg=str(game.version), timeout=15_000)
        view = ENGINE.view(game.state, me)
        action = script.choose(view)
        decided_at = game.version
        kind = _screen(view, me, action)
        if kind == "auction" and not reloaded:
            # Reload in the middle of the auction: the page comes back to the same lot.
            page.reload()
            settle(page)
            assert page.locator("#auction").is_visible()
            reloaded = True
        if kind == "trade":
            page.locator("#trade summary").click()
        if kind is not None and kind not in looked:
            looked.add(kind)
            _look(page, axe_script, artifacts, f"{size}-boardroom-{kind}")
        _perform(page, action)
        if action["type"] == "roll" and not walked:
            walked = True
            if size == "desktop":  # the token walks tile by tile (a ghost crosses the board)
                page.wait_for_selector(".br-ghost", state="attached", timeout=5_000)
            else:
                wait_version_change(page, str(game.version))
                page.wait_for_timeout(100)
                assert page.locator(".br-ghost").count() == 0
        if action["type"] == "build":
            # The new branch's log line asks for its own sound, and table.js plays it.
            page.wait_for_selector('#log li[data-sound="branch"]')
            page.wait_for_function("t => window.__tones.includes(t)", arg=BRANCH_TONE)
            # Muting is remembered by the browser, across a reload.
            page.locator("#sound-toggle").click()
            page.reload()
            settle(page)
            assert page.locator("#sound-toggle").inner_text() == "Sound off"
    else:
        raise AssertionError(f"the game did not end in {GAME_SECONDS} s: {script.seen}")

    assert script.seen >= EVERYTHING, sorted(EVERYTHING - script.seen)
    assert script.trades == ["refused", "accepted"]
    assert reloaded
    assert looked >= {"auction", "debt", "audit", "portfolio", "trade", "buy"}, looked
    page.wait_for_selector("#result")
    settle(page)
    _look(page, axe_script, artifacts, f"{size}-boardroom-result")
    assert "won" in page.locator("#result h2").inner_text()
    # The log says every change of money as a signed amount per seat.
    assert re.search(r"\((?:you|Bot \w+) [+−]\d+, (?:you|Bot \w+) [+−]\d+\)",
                     page.locator("#log .game-log").inner_text())
