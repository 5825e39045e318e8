"""A person and an API bot at one table, in real Chromium: Cora, signed in, challenges the
bot account maia to Commonwealth from maia's profile; the example bot (its own process, on
the API) accepts, and the two play at the private table that makes: Cora clicks her
decisions on the table's page, the bot answers each of its turns over the API, and Cora's
page shows the bot's moves as they come."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from api_helpers import make_account
from example_bots import bot_account, start_example, stop
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from challenges.models import Challenge
from games.platform.models import Game, GameAction

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.django_db(transaction=True)]
HANG = 120.0  # seconds before a wait counts as a hang (not a measure of speed)
# Cora's choices on Commonwealth's decision panel, the first one showing is clicked.
CHOICES = ("#buy", "#roll", "#jail-roll", "#accept", "#skip", "#chip", ".develop",
           "#play-card", "#move-first", ".ride", ".amount-choice", "form.cw-actions button")
MOVES_EACH = 3


def _sign_in(page: Any, base_url: str, user: Any) -> None:
    """Make the browser the account: a session signed in as it, as the site's cookie."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    page.context.add_cookies([{"name": "sessionid", "value": session.session_key,
                               "url": base_url}])


def _moves_by(game: Game, seat: int) -> int:
    return GameAction.objects.filter(game=game, seat=seat, source="player").count()


def _click_a_decision(page: Any) -> None:
    """Click the first of Cora's choices showing, if any (none: the bot is moving)."""
    for selector in CHOICES:
        choice = page.locator(f"#decision {selector}")
        if choice.count() and choice.first.is_visible():
            # A push may take the choice away under the pointer: look again next time.
            with contextlib.suppress(PlaywrightTimeoutError):
                choice.first.click(timeout=3_000)
            page.wait_for_timeout(300)
            return
    page.wait_for_timeout(200)


def test_a_person_challenges_an_api_bot_and_they_play_at_one_table(
        live_server_url: str, page: Any) -> None:
    maia, secret = bot_account("maia")
    cora = make_account("cora")
    bot = start_example("random_bot.py", live_server_url, secret, "--games", "1")
    try:
        _sign_in(page, live_server_url, cora)
        page.goto(f"{live_server_url}/accounts/u/maia/")
        rules = page.locator("#challenge-rules option[value^='commonwealth:']").first
        page.locator("#challenge-rules").select_option(rules.get_attribute("value"))
        page.locator("#challenge-form button[type=submit]").click()
        page.wait_for_url("**/challenges/")

        # The bot accepts over the API; the challenges page then links the table.
        deadline = time.monotonic() + HANG
        table_link = page.get_by_role("link", name=re.compile(r"^table [A-Z0-9]+$"))
        while not table_link.count():
            assert time.monotonic() < deadline, "the bot never accepted the challenge"
            page.wait_for_timeout(500)
            page.reload()
        table_link.first.click()
        page.wait_for_url("**/t/*/")
        page.wait_for_selector("#connection[data-state=open]")

        challenge = Challenge.objects.get(challenger=cora, challenged=maia)
        assert challenge.status == Challenge.Status.ACCEPTED
        game = Game.objects.get(table=challenge.table)
        seats = {p.get("user_id"): i for i, p in enumerate(game.players)}
        cora_seat, maia_seat = seats[cora.pk], seats[maia.pk]
        while _moves_by(game, cora_seat) < MOVES_EACH or _moves_by(game, maia_seat) < MOVES_EACH:
            assert time.monotonic() < deadline + HANG, (
                f"Cora {_moves_by(game, cora_seat)} moves, the bot {_moves_by(game, maia_seat)}")
            game.refresh_from_db()
            assert game.status == Game.Status.RUNNING
            _click_a_decision(page)
        # The bot's moves reached Cora's page: her log names it.
        page.wait_for_function("() => document.querySelector('#log').innerText"
                               ".includes('maia')", timeout=15_000)
    finally:
        stop(bot)
