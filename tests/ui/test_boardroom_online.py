"""Two guests at an online Boardroom table in real Chromium, one on a phone (390×844, touch)
and one on a desktop (1440×900): a live auction between them — the bids reach the other page
as they are made — with a reload in the middle, then a trade offer that the other declines.
Both pages pass the table's UI checks at each step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import (
    check_axe,
    check_layout,
    guest,
    off_loop,
    settle,
    shot,
    sign_in,
    two_guest_game,
    wait_still,
    wait_version_change,
)

from games.boardroom.engine import scenario
from games.platform.clocks import next_deadlines
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGINE = get_game("boardroom")


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    wait_still(page)
    shot(page, artifacts, name)
    check_layout(page, name)
    check_axe(page, axe, name)


def _online_table(ann: Any, bea: Any) -> tuple[Game, int, int]:
    """Ann's table, Bea joined, started; Ann stands on a free Pancake Kiosk, Bea holds River Port
    (and Ann, Juice Stand: each has something to trade)."""
    game, a, b = two_guest_game("boardroom", ann, bea, "Bea")
    state = scenario(seats=2, order=[a, b], bots=[False, False], turn=a, phase="buy",
                     pos={a: 3, b: 5}, owners={15: b, 4: a})
    state["dice"] = [1, 2]  # the roll that brought Ann here
    state["version"] = game.version
    game.state = state
    game.deadlines = next_deadlines(ENGINE, state, game.table, {})
    game.save()
    return game, a, b


def _version(page: Any) -> str:
    return page.locator("#table-version").input_value()


def test_two_guests_bid_live_reload_mid_auction_and_one_declines_a_trade(
        live_server_url: str, phone: Any, desktop: Any, axe_script: Path,
        artifacts: Path) -> None:
    ann, bea = guest("ann"), guest("bea")
    game, _ann_seat, b = off_loop(_online_table, ann, bea)
    code = off_loop(lambda: game.table.code)
    url = f"{live_server_url}/t/{code}/"
    sign_in(phone, live_server_url, ann)
    sign_in(desktop, live_server_url, bea)
    phone.goto(url)
    desktop.goto(url)
    settle(phone)
    settle(desktop)

    # Ann sends the tile to auction: both pages show the lot; Ann bids first.
    before = _version(desktop)
    phone.locator("#decision #decline").click()
    wait_version_change(desktop, before)
    assert "Auction of Pancake Kiosk" in desktop.locator("#auction").inner_text()
    assert phone.locator("#decision #bid").inner_text() == "Bid 45"
    _look(phone, axe_script, artifacts, "phone-boardroom-online-auction")
    before = _version(desktop)
    phone.locator("#decision #bid").click()
    wait_version_change(desktop, before)
    # Bea sees Ann's bid as it happens, and her own next bid is 10 more.
    assert desktop.locator("#auction-high").inner_text() == "45"
    assert desktop.locator("#decision #bid").inner_text() == "Bid 55"
    _look(desktop, axe_script, artifacts, "desktop-boardroom-online-auction")

    # Bea reloads in the middle of the auction and carries on from the same lot.
    desktop.reload()
    settle(desktop)
    assert desktop.locator("#auction-high").inner_text() == "45"
    before = _version(phone)
    desktop.locator("#decision #bid").click()
    wait_version_change(phone, before)
    assert phone.locator("#auction-high").inner_text() == "55"
    assert "Bea" in phone.locator("#auction-leader").inner_text()
    before = _version(desktop)
    phone.locator("#decision #pass").click()
    wait_version_change(desktop, before)
    assert desktop.locator("#auction").count() == 0
    assert "You won Pancake Kiosk for 55" in desktop.locator("#log").inner_text()
    assert "Bea won Pancake Kiosk for 55" in phone.locator("#log").inner_text()

    # Ann's turn goes on: she offers Bea cash for River Port; Bea declines.
    phone.locator("#trade summary").click()
    form = phone.locator(f'#trade .swap-form[data-to="{b}"]')
    form.locator('select[name="take"]').select_option("15")
    form.locator('input[name="cash"]').fill("230")
    _look(phone, axe_script, artifacts, "phone-boardroom-online-trade")
    before = _version(desktop)
    form.locator('button[type="submit"]').click()
    wait_version_change(desktop, before)
    offer = desktop.locator("#offer").inner_text()
    assert "Trade offer: Ann gives you 230 in cash; you give River Port." in offer
    _look(desktop, axe_script, artifacts, "desktop-boardroom-online-offer")
    before = _version(phone)
    desktop.locator("#decision #refuse").click()
    wait_version_change(phone, before)
    assert "Bea refused your offer" in phone.locator("#log").inner_text()
    # Online, the trade for the turn is used up by the declined offer.
    assert phone.locator("#trade").count() == 0
    assert phone.locator("#decision #end-turn").is_visible()
    final = off_loop(lambda: Game.objects.get(pk=game.pk))
    assert final.state["owner"][15] == b and final.state["owner"][3] == b
