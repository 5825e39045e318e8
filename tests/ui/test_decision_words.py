"""The board games' decision panels tell the truth as you edit them, in real Chromium at
1440×900 and 390×844 (games/boardroom/static/boardroom/board.js, static/js/table.js):

- Boardroom: the Sell form's minimum follows the tile chosen; a refused move's reason
  appears beside the form that sent it, visibly, announced (role="alert"); a bot's refusal
  says why and what the next offer must beat, and the swap form asks that much; a tile you
  cannot afford shows Buy disabled with why.
- Commonwealth: a chip with no cash says the Fund pays it; in Jail each missing option says
  why; the last roll says what its faces do.

Screenshots of each panel are kept as test artifacts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import (
    check_axe,
    check_layout,
    guest,
    my_seat,
    off_loop,
    settle,
    shot,
    sign_in,
    wait_still,
)

from games.boardroom.engine import scenario as br_scenario
from games.boardroom.engine.board import BUYBACK, TILES
from games.commonwealth.engine import data as cw_data
from games.commonwealth.engine import scenario as cw_scenario
from games.platform import services
from games.platform.clocks import next_deadlines
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KIOSK, EXCHANGE, SCREENS = 1, 39, 29  # Boardroom: the cheapest tile, the dearest, the bot's


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    wait_still(page)
    shot(page, artifacts, name)
    check_layout(page, name)
    check_axe(page, axe, name)


def _against_a_bot(viewer: Any, kind: str, build: Any) -> tuple[Game, int]:
    """`viewer`'s two-seat table of `kind` against a medium bot, its state `build(me, bot)`."""
    def make() -> tuple[Game, int]:
        table = services.table_create(viewer=viewer, name="Ann", ruleset_spec={},
                                      max_seats=2, game_kind=kind)
        services.seat_add_bot(table_id=table.pk, viewer=viewer, level="medium")
        game = services.game_start(table_id=table.pk, viewer=viewer)
        me = my_seat(game, viewer)
        _replace(game, build(me, 1 - me))
        return game, me

    return off_loop(make)


def _replace(game: Game, state: dict) -> None:
    game.refresh_from_db()
    state["version"] = game.version
    game.state = state
    game.deadlines = next_deadlines(get_game(game.game_kind), state, game.table, {})
    game.save()


def _trader(me: int, bot: int) -> dict:
    """After Ann's roll: she holds the Kiosk and the Stock Exchange, the bot Screen Assembly."""
    state = br_scenario(seats=2, order=[me, bot], bots=[s == bot for s in range(2)], turn=me,
                        phase="act", pos={me: 3, bot: 5},
                        owners={KIOSK: me, EXCHANGE: me, SCREENS: bot},
                        cash={me: 500, bot: 400})
    state["dice"] = [1, 2]
    return state


def test_boardroom_bounds_refusals_and_a_tile_you_cannot_afford(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann = guest(f"ann-words-br-{size}")
    game, me = _against_a_bot(ann, "boardroom", _trader)
    sign_in(page, live_server_url, ann)
    page.goto(live_server_url + f"/t/{game.table.code}/")
    settle(page)
    page.locator("#trade summary").click()
    form = page.locator(".sell-form:not([hidden])")
    cash = form.locator('input[name="cash"]')

    # The minimum printed and enforced follows the tile chosen.
    form.locator('select[name="give"]').select_option(str(EXCHANGE))
    assert form.locator(".sell-min").inner_text() == str(BUYBACK[EXCHANGE])
    assert cash.get_attribute("min") == str(BUYBACK[EXCHANGE])
    assert cash.input_value() == str(BUYBACK[EXCHANGE])
    form.locator('select[name="give"]').select_option(str(KIOSK))
    assert form.locator(".sell-min").inner_text() == str(BUYBACK[KIOSK])
    assert cash.get_attribute("min") == str(BUYBACK[KIOSK])
    cash.fill("45")  # the offer read back follows the field as it is typed
    assert form.locator(".trade-preview").inner_text() == \
        f"you give Bot Alpha {TILES[KIOSK]['name']}; Bot Alpha gives 45 in cash"

    # A move the server refuses (the page's own bound taken away, as a stale page would have
    # it): the reason shows beside the form, visibly, and is announced.
    form.locator('select[name="give"]').select_option(str(EXCHANGE))
    cash.evaluate("el => { el.min = '0'; el.value = '1'; }")
    form.locator('button[type="submit"]').click()
    refusal = form.locator('.form-refusal[role="alert"]')
    refusal.wait_for(state="visible", timeout=15_000)
    assert f"no less than the bank would pay ({BUYBACK[EXCHANGE]})" in refusal.inner_text()
    box = refusal.bounding_box()
    assert box is not None and box["height"] >= 16
    assert page.locator("#frame-error").inner_text().strip() == ""
    _look(page, axe_script, artifacts, f"{size}-boardroom-refusal-beside-the-form")

    # The bot refuses 1 for its Screen Assembly: the panel says why and what to beat.
    swap = page.locator(".swap-form:not([hidden])")
    swap.locator('select[name="take"]').select_option(str(SCREENS))
    swap.locator('select[name="give"]').select_option("")
    swap.locator('input[name="cash"]').fill("1")
    # The form reads its offer as the bot will: the one form of every trade.
    assert swap.locator(".trade-preview").inner_text() == \
        "you give Bot Alpha 1 in cash; Bot Alpha gives Screen Assembly"
    swap.locator('button[type="submit"]').click()
    refused = page.locator("#trade-refused")
    refused.wait_for(state="visible", timeout=15_000)
    words = refused.inner_text()
    assert "Bot" in words or "refused your offer" in words
    assert "refused your offer" in words and "at least 11 in cash" in words, words
    page.locator("#trade summary").click()
    again = page.locator(".swap-form:not([hidden])")
    assert again.locator(".swap-min").inner_text() == "11"
    assert again.locator('input[name="cash"]').get_attribute("min") == "11"
    _look(page, axe_script, artifacts, f"{size}-boardroom-bot-refused")

    # A tile dearer than your cash: Buy shows disabled, with why.
    def poor(me: int, bot: int) -> dict:
        state = br_scenario(seats=2, order=[me, bot], bots=[s == bot for s in range(2)],
                            turn=me, phase="buy", pos={me: EXCHANGE, bot: 5}, cash={me: 100})
        state["dice"] = [2, 2]
        return state

    off_loop(_replace, game, poor(me, 1 - me))
    page.reload()
    settle(page)
    buy = page.locator("#buy-unaffordable")
    assert buy.is_disabled() and buy.is_visible()
    price = TILES[EXCHANGE]["price"]
    assert page.locator("#buy-unaffordable-why").inner_text() == (
        f"You have 100; it costs {price}. Send it to auction, where you may bid.")
    _look(page, axe_script, artifacts, f"{size}-boardroom-cannot-afford")


def test_commonwealth_says_who_pays_and_why_an_option_is_missing(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann = guest(f"ann-words-cw-{size}")

    def chip(me: int, bot: int) -> dict:
        st = cw_scenario(seats=2, turn=me, cash={me: 0}, managers={1: bot},
                         step={"kind": "chip", "project": 1}, pos={me: 3})
        st["order"] = [me, bot]
        st["last_roll"] = [3, "x2"]
        return st

    game, me = _against_a_bot(ann, "commonwealth", chip)
    sign_in(page, live_server_url, ann)
    page.goto(live_server_url + f"/t/{game.table.code}/")
    settle(page)
    cost = cw_data.CHIP_COST
    assert page.locator("#chip").inner_text() == f"Place a chip for {cost} (the Fund pays {cost})"
    assert "counts as a double" in page.locator("#dice-meaning").inner_text()
    _look(page, axe_script, artifacts, f"{size}-commonwealth-chip-paid-by-the-fund")

    def jailed(me: int, bot: int) -> dict:
        st = cw_scenario(seats=2, turn=me, in_jail={me: 1}, cash={me: 30})
        st["order"] = [me, bot]
        return st

    off_loop(_replace, game, jailed(me, 1 - me))
    page.reload()
    settle(page)
    assert page.locator("#pay-jail-unavailable").is_disabled()
    assert page.locator("#pay-jail-unavailable-why").inner_text() == (
        "You have 30; the fee is paid from your own money, never the Fund.")
    assert page.locator("#use-jail-card-unavailable").is_disabled()
    _look(page, axe_script, artifacts, f"{size}-commonwealth-jail-options")
