"""After handing cash away in a deal, in real Chromium at 390×844 and 1440×900: the purchase
the Fund would have helped with shows disabled with why, in view beside the auction button,
and the screen passes the UI checks and axe-core (docs/commonwealth.md, decision 23)."""

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
)

from games.commonwealth.engine import scenario

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_purchase_the_fund_may_not_help_with_says_why_beside_the_auction(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    cora = guest("cora")
    open_watched_commonwealth(page, live_server_url, cora)

    def on_bicycle_workshop_after_a_gift(me: int) -> dict[str, Any]:
        # Cora handed 30 to the bot in a deal this go and landed on an unmanaged project.
        state = scenario(seats=2, turn=me, cash={me: 5, 1 - me: 30}, pos={me: 6},
                         managers={0: 1 - me}, step={"kind": "buy", "project": 2})
        state["players"][me]["dealt_away"] = 30
        return state

    put_commonwealth_state(page, cora, on_bicycle_workshop_after_a_gift)
    missing = page.locator("#decision #buy-unavailable")
    expect(missing).to_be_disabled()
    expect(missing).to_be_in_viewport()
    expect(page.locator("#decision #auction")).to_be_in_viewport()
    why = page.locator("#buy-unavailable-why")
    expect(why).to_contain_text("You handed cash to another player in a deal")
    expect(why).to_be_in_viewport()
    shot(page, artifacts, f"{size}-commonwealth-fund-after-deal")
    check_layout(page, f"{size}-commonwealth-fund-after-deal")
    check_axe(page, axe_script, f"{size}-commonwealth-fund-after-deal")


def test_a_bidder_that_handed_cash_away_is_offered_bids_of_its_own_money_only(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    cora = guest("cora")
    open_watched_commonwealth(page, live_server_url, cora)

    def bidding_after_a_gift(me: int) -> dict[str, Any]:
        # Cora (12 of her own) handed 30 to the bot in a deal; the bot auctions a project.
        state = scenario(seats=2, turn=1 - me, cash={me: 12, 1 - me: 30}, pos={1 - me: 6},
                         managers={0: me},
                         step={"kind": "auction", "project": 2, "sender": 1 - me, "high": 0,
                               "leader": None, "bidders": [me], "to_act": me})
        state["players"][me]["dealt_away"] = 30
        return state

    put_commonwealth_state(page, cora, bidding_after_a_gift)
    field = page.locator("#amount-input")
    expect(field).to_have_attribute("max", "10")
    expect(page.locator("#amount-form")).to_contain_text("your own money only, your 12")
    expect(page.locator("#amount-form")).not_to_contain_text("the Fund the rest")
    shot(page, artifacts, f"{size}-commonwealth-bid-after-deal")
    check_layout(page, f"{size}-commonwealth-bid-after-deal")
    check_axe(page, axe_script, f"{size}-commonwealth-bid-after-deal")
