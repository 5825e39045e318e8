"""Chromium against a real Daphne: sign up and land on the profile; two guests meet through a
casual queue and their pages go to the same table at once."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.platform.models import Table

pytestmark = pytest.mark.browser


def test_signing_up_in_the_browser_lands_on_the_profile(live_server_url: str,
                                                        page: Any) -> None:
    page.goto(live_server_url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("browser_bea")
    page.get_by_label("Email").fill("bea@example.com")
    page.get_by_label("Password", exact=True).fill("a long browser secret")
    page.get_by_label("Password again").fill("a long browser secret")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/accounts/u/browser_bea/$"))
    assert page.locator("#profile-name").inner_text() == "browser_bea"
    assert "Welcome, browser_bea!" in page.content()
    assert page.locator("#standing-blitz").is_visible()
    # Logged in everywhere: the header offers the profile and a log-out.
    assert page.get_by_role("button", name="Log out").is_visible()


def test_two_guests_in_a_casual_queue_are_sent_to_the_same_table(live_server_url: str,
                                                                  browser: Any) -> None:
    pages = []
    errors: list[str] = []
    for name in ("Quinn", "Rory"):
        context = browser.new_context()
        p = context.new_page()
        p.on("pageerror", lambda exc: errors.append(str(exc)))
        p.goto(live_server_url + "/ladder/play/")
        p.select_option("#id_preset", "blitz")
        p.get_by_label("2 players").check()
        p.get_by_label("Casual (anyone, unrated)").check()
        p.get_by_label("Your name at the table").fill(name)
        p.get_by_role("button", name="Find a table").click()
        if not pages:
            # Alone in the queue, Quinn must be shown waiting. Rory may be paired before his
            # waiting page settles (a sweep can run at any moment), so his page is not awaited.
            p.wait_for_selector("#queue-status h2")
        pages.append(p)
    # The pairing sweep runs every 2 s in the live site; both pages navigate on their own.
    for p in pages:
        p.wait_for_url(re.compile(r"/t/[A-Z0-9]{4}/$"), timeout=20_000)
    assert pages[0].url == pages[1].url
    # Both arrived, so the game started at once (no bot stands in for anyone).
    code = pages[0].url.rstrip("/").rsplit("/", 1)[1]
    table = Table.objects.get(code=code)
    assert table.status == Table.Status.PLAYING
    assert sorted(table.seats.values_list("name", flat=True)) == ["Quinn", "Rory"]
    assert not table.seats.filter(away=True).exists()
    for p in pages:
        p.wait_for_selector("#hand h2", timeout=10_000)
    assert not errors


def test_two_guests_from_the_home_page_meet_at_one_boardroom_table(live_server_url: str,
                                                                  browser: Any) -> None:
    pages = []
    errors: list[str] = []
    for name in ("Quinn", "Rory"):
        context = browser.new_context()
        p = context.new_page()
        p.on("pageerror", lambda exc: errors.append(str(exc)))
        p.goto(live_server_url + "/games/boardroom/")
        p.locator("#quick-match-boardroom").click()
        p.wait_for_url(re.compile(r"/ladder/play/\?game=boardroom$"))
        assert p.locator("h1").inner_text() == "Boardroom quick match"
        p.get_by_label("2 players").check()
        p.get_by_label("Casual (anyone, unrated)").check()
        p.get_by_label("Your name at the table").fill(name)
        p.get_by_role("button", name="Find a table").click()
        pages.append(p)
    for p in pages:
        p.wait_for_url(re.compile(r"/t/[A-Z0-9]{4}/$"), timeout=20_000)
    assert pages[0].url == pages[1].url
    table = Table.objects.get(code=pages[0].url.rstrip("/").rsplit("/", 1)[1])
    assert table.game_kind == "boardroom" and table.status == Table.Status.PLAYING
    assert sorted(table.seats.values_list("name", flat=True)) == ["Quinn", "Rory"]
    assert not errors
