"""Bot accounts and challenges in Chromium, at 390×844 (touch) and 1440×900: a person sends a
challenge from a bot account's profile (marked BOT), finds it on the challenge list and, once
the bot accepted, the table; the own profile's bot upgrade and challenge note, the host's
invite form and a Bots ladder pass the UI checks (no sideways scroll, 44 px targets, no
overlaps, axe-core clean, no console errors)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from ui_helpers import check_axe, check_layout, off_loop, shot

from accounts import bots
from accounts.models import Profile
from challenges import services
from challenges.models import Challenge
from games.platform import services as tables
from games.platform.identity import Viewer
from ladder.models import Rating

pytestmark = pytest.mark.browser


def _account(username: str, *, bot: bool = False) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    Profile.objects.create(user=user)
    if bot:
        bots.account_upgrade_to_bot(user_id=user.pk)
        Rating.objects.create(user=user, game_kind="boardroom", ladder="bots", rating=1530,
                              games=6, peak=1530)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


def _signed_in(page: Any, base_url: str, username: str) -> None:
    def session() -> str:
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        return client.cookies["sessionid"].value

    page.context.add_cookies([{"name": "sessionid", "value": off_loop(session),
                               "url": base_url}])


def _check(page: Any, artifacts: Path, axe: Path, where: str) -> None:
    shot(page, artifacts, where)
    check_layout(page, where)
    check_axe(page, axe, where)


def test_a_person_challenges_a_bot_account_and_reaches_the_table(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    maia = off_loop(_account, f"maia{size[:1]}", bot=True)
    off_loop(_account, f"bob{size[:1]}")
    bob = f"bob{size[:1]}"
    _signed_in(page, live_server_url, bob)

    page.goto(f"{live_server_url}/accounts/u/{maia.username}/")
    assert page.locator("#profile-name").inner_text() == f"BOT {maia.username}"
    _check(page, artifacts, axe_script, f"{size}-bot-profile")
    page.select_option("#challenge-rules", "boardroom:standard")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url("**/challenges/")
    _check(page, artifacts, axe_script, f"{size}-challenges-sent")
    challenge = off_loop(lambda: Challenge.objects.get(challenged_id=maia.user_id))
    assert page.locator(f"#challenge-{challenge.pk}").count() == 1

    table = off_loop(lambda: services.challenge_accept(challenge_id=challenge.pk,
                                                      user_id=maia.user_id).table)
    page.goto(f"{live_server_url}/challenges/")
    page.click(f"#challenges-answered a[href='/t/{table.code}/']")
    page.wait_for_url(f"**/t/{table.code}/**")
    assert page.get_by_text(f"BOT {maia.username}").count() >= 1


def test_the_own_profile_the_invite_form_and_the_bots_ladder_pass_the_ui_checks(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann = off_loop(_account, f"ann{size[:1]}")
    zed = off_loop(_account, f"zed{size[:1]}", bot=True)
    off_loop(services.challenge_create, challenger_id=zed.user_id, username=ann.username,
             game_kind="chudopoly")
    _signed_in(page, live_server_url, ann.username)

    page.goto(f"{live_server_url}/accounts/profile/")
    assert "1 challenge waiting" in page.locator("#challenge-note").inner_text()
    # Both open: a closed <details> keeps boxes for what it hides, which the layout check
    # would measure against the next summary.
    page.click(".profile-edit summary")
    page.click("#bot-upgrade summary")
    _check(page, artifacts, axe_script, f"{size}-own-profile-bot-upgrade")
    page.click("#challenge-note a")
    page.wait_for_url("**/challenges/")
    _check(page, artifacts, axe_script, f"{size}-challenges-received")

    table = off_loop(tables.table_create, viewer=ann, name=None,
                     ruleset_spec={"preset": "chudopoly"})
    page.goto(live_server_url + table.invite_path)
    page.wait_for_selector("#connection[data-state=open]")
    page.fill("#invite-bot-name", zed.username)
    _check(page, artifacts, axe_script, f"{size}-table-invite-bot")
    page.click("#invite-bot-form button[type=submit]")
    # The form posts as a full page load back to this same address: what shows it arrived is
    # the message, not a new URL.
    page.get_by_text(f"{zed.username} is invited").wait_for()
    assert off_loop(lambda: Challenge.objects.filter(table_id=table.pk, to_table=True).count()) == 1

    page.goto(f"{live_server_url}/ladder/boardroom/bots/")
    assert page.get_by_role("link", name=f"BOT {zed.username}").count() == 1
    _check(page, artifacts, axe_script, f"{size}-ladder-boardroom-bots")


def test_a_name_half_typed_in_the_invite_form_outlives_a_push_of_the_lobby(
        live_server_url: str, desktop: Any) -> None:
    page = desktop
    ann = off_loop(_account, "annt")
    table = off_loop(tables.table_create, viewer=ann, name=None,
                     ruleset_spec={"preset": "chudopoly"})
    _signed_in(page, live_server_url, ann.username)
    page.goto(live_server_url + table.invite_path)
    page.wait_for_selector("#connection[data-state=open]")
    page.locator("#invite-bot-name").press_sequentially("zed")

    off_loop(tables.seat_add_bot, table_id=table.pk, viewer=ann)
    page.locator("#lobby .seat-list .avatar.bot").wait_for()
    assert page.input_value("#invite-bot-name") == "zed"
    assert page.evaluate("document.activeElement.id") == "invite-bot-name"
