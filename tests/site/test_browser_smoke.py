"""A real Chromium loads the site served by a real Daphne process."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_home_page_loads_in_chromium_without_console_errors(
    live_server_url: str, page: Any
) -> None:
    page.goto(live_server_url + "/")
    # The home page is the Chudopoly site of three games: the brand heads every page, the h1
    # names what the site holds.
    assert page.locator(".site-header .brand").inner_text() == "Chudopoly"
    assert page.locator("h1").inner_text() == "Three property games, live in your browser"
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.title().startswith("Chudopoly")
    assert page.console_errors == []
