"""A game's page lists that game's open tables live: a table opened in another tab shows on
the page, on a phone (390×844) and a desktop (1440×900), without a reload."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import check_layout, shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _open_with_its_socket(page: Any, url: str) -> None:
    """Open `url` and wait until htmx has opened its lobby socket (after the page loads); mark
    the page, so that a reload would show."""
    page.add_init_script("document.addEventListener('htmx:wsOpen',"
                         " () => { window.lobbyOpen = true; })")
    page.goto(url)
    page.wait_for_function("() => window.lobbyOpen === true")
    page.evaluate("() => { window.notReloaded = true; }")


def test_a_table_opened_in_another_tab_shows_on_its_games_page_without_a_reload(
        live_server_url: str, phone: Any, desktop: Any, page: Any, artifacts: Path) -> None:
    games_page = f"{live_server_url}/games/boardroom/"
    _open_with_its_socket(desktop, games_page)
    _open_with_its_socket(phone, games_page)
    assert "No public tables are waiting" in desktop.locator("#public-tables").inner_text()

    # Another player opens a public Boardroom table in a tab of their own.
    page.goto(f"{live_server_url}/tables/new?game=boardroom")
    page.locator('#table-form input[name="name"]').fill("Dora")
    page.locator('#table-form input[name="is_public"]').check()
    page.locator("#table-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{4}/"))
    code = re.search(r"/t/([A-Z0-9]{4})/", page.url).group(1)

    for device, name in ((desktop, "desktop"), (phone, "phone")):
        row = device.locator("#open-tables li", has_text=code)
        row.wait_for(timeout=10_000)
        assert "Dora’s table" in row.inner_text() and "1/4 seats" in row.inner_text()
        assert device.evaluate("() => window.notReloaded === true")
        shot(device, artifacts, f"{name}-game-page-live-table")
        check_layout(device, f"{name}-game-page-live-table")
