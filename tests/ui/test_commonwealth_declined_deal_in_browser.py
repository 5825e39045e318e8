"""A deal the bot declines, in real Chromium at 390×844 and 1440×900: the proposer's decision
panel says why and the cash the next offer must reach, announced (role="alert") and in view
beside the roll without scrolling; the screen passes the UI checks and axe-core. The deal form
cannot be sent before a project or the Pardon card is ticked (cash alone is no deal), and each
project it lists says the chips it carries, as the board shows them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from ui_helpers import (
    check_axe,
    check_layout,
    guest,
    open_watched_commonwealth,
    put_commonwealth_state,
    shot,
    wait_still,
)

from games.commonwealth.engine import scenario

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_declined_deal_says_why_and_what_the_next_must_reach(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    cora = guest("cora")
    open_watched_commonwealth(page, live_server_url, cora)

    def brown_pair_for_the_bot(me: int) -> dict[str, Any]:
        # Cora's turn; the bot manages both brown projects, one chip on Tool Lending Shed:
        # the Shed is worth 20 + 1 open slot × 10 + the pair's 2 × 20 = 70 to it.
        bot = 1 - me
        return scenario(seats=2, turn=me, cash={me: 100, bot: 60},
                        managers={0: bot, 1: bot}, chips={1: [bot]})

    put_commonwealth_state(page, cora, brown_pair_for_the_bot)
    page.locator("#deal-panel summary").click()
    form = page.locator(".cw-deal-form").first
    offer, why = form.locator("button.offer-deal"), form.locator(".why-not")
    # Cash alone is no deal: the form cannot be sent until a project or the card is ticked.
    expect(offer).to_be_disabled()
    expect(why).to_have_text("Tick at least one project or the Pardon card: cash alone is not "
                             "a deal.")
    # Each project says how many chips it carries, read off the board (board.js), not from
    # the form's own partial, which a chip placed anywhere leaves as it was.
    expect(form.locator("label", has_text="Tool Lending Shed")).to_have_text(
        "Tool Lending Shed (1 chip)")
    form.get_by_label("Tool Lending Shed").check()
    expect(offer).to_be_enabled()
    expect(why).to_be_hidden()
    form.locator('input[data-path="give.cash"]').fill("40")
    offer.click()
    banner = page.locator('#deal-declined[role="alert"]')
    banner.wait_for(timeout=20_000)
    wait_still(page)
    text = banner.inner_text()
    assert "Bot Alpha declined your deal" in text
    assert "values what it gives up above what it gets, by 30" in text
    assert "at least 70 in cash" in text
    expect(banner).to_be_in_viewport()
    expect(page.locator("#decision #roll")).to_be_in_viewport()
    assert "Bot Alpha declined your deal." in page.locator("#log").inner_text()
    shot(page, artifacts, f"{size}-commonwealth-deal-declined")
    check_layout(page, f"{size}-commonwealth-deal-declined")
    check_axe(page, axe_script, f"{size}-commonwealth-deal-declined")
