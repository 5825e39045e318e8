"""Chromium against a real Daphne: sign up and land on the profile; two guests meet through a
casual queue and their pages go to the same table at once."""

from __future__ import annotations

import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connections

from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Table
from ladder import services
from ladder.models import QueueTicket

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


def _off_loop(fn: Any) -> Any:
    """Database and service calls (their broadcasts use async_to_sync) on a worker thread:
    Playwright's sync API keeps an event loop on this one."""
    def call() -> Any:
        try:
            return fn()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def test_a_guest_paired_before_the_queue_page_loads_goes_to_the_table_by_itself(
        live_server_url: str, browser: Any) -> None:
    """The pairing sweep runs every 2 s: it can match the second player between the join's POST
    and the queue page it redirects to. That page then shows the ready match (it has no
    socket) and must go to the table on its own, as a waiting page's socket takes it there
    (a CI run saw one page of the test above stay on the queue page for its 20 s)."""
    quinn, rory = (Viewer(user_id=None, guest_key=f"ladder-{who}-{secrets.token_hex(8)}")
                   for who in ("quinn", "rory"))

    def join_both() -> str:
        for viewer, name in ((quinn, "Quinn"), (rory, "Rory")):
            services.queue_join(viewer=viewer, preset="blitz", seats=2, ranked=False,
                                name=name)
        session = SessionStore()
        session[GUEST_SESSION_KEY] = rory.guest_key
        session.create()
        return session.session_key

    session_key = _off_loop(join_both)
    deadline = time.monotonic() + 30
    while QueueTicket.objects.filter(guest_key__in=[quinn.guest_key, rory.guest_key],
                                     status=QueueTicket.Status.MATCHED).count() < 2:
        assert time.monotonic() < deadline, "the live site's sweep did not pair the tickets"
        time.sleep(0.2)
    match = QueueTicket.objects.get(guest_key=rory.guest_key).match
    context = browser.new_context()
    context.add_cookies([{"name": "sessionid", "value": session_key, "url": live_server_url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server_url + "/ladder/play/")
    page.wait_for_url(re.compile(rf"/t/{match.table.code}/$"), timeout=20_000)
    assert QueueTicket.objects.get(guest_key=rory.guest_key).arrived_at is not None
    assert not errors
