"""A set a push completes hops once (static/js/table.js, site.css .just-completed), and then the
page reads as a fresh load of the same table: the class that makes it hop comes off when the
hop ends, whether or not a later push happens to replace the zone."""

from __future__ import annotations

from typing import Any

import pytest
from ui_helpers import about_to_arm, guest, hand_card, prepared_game, settle, sign_in

pytestmark = [pytest.mark.browser]


def test_a_completed_set_hops_once_then_reads_as_a_fresh_load(live_server_url: str,
                                                              page: Any) -> None:
    ava = guest("ava")
    sign_in(page, live_server_url, ava)
    game, me = prepared_game(ava, bots=1, build=about_to_arm)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    zone = f"#set-{me}-red"
    # Her third Fighter completes the red set; no later push touches that zone.
    page.locator(f"#play-btn-{hand_card(game, me, 'F-15 Eagle')}").click()
    page.wait_for_selector(f"{zone}.complete", timeout=10_000)
    page.wait_for_selector(f"{zone}.just-completed", state="detached", timeout=5_000)
    live = page.locator(zone).evaluate("z => z.outerHTML")
    again = page.context.new_page()
    again.goto(page.url)
    settle(again)
    assert again.locator(zone).evaluate("z => z.outerHTML") == live
    assert page.console_errors == []
    again.close()
