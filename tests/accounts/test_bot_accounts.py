"""Bot accounts: upgrading (once, only before playing), the BOT marker wherever the name shows,
no people's quick match, and the Bots ladders."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import bots
from accounts.models import Profile
from games.platform import services as tables
from games.platform.identity import Viewer, call_sign_problem
from games.platform.models import Seat
from ladder import services as ladder
from ladder.models import GameRecord, Rating
from ladder.services import LadderError

pytestmark = pytest.mark.django_db


def _account(username: str, *, bot: bool = False) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    Profile.objects.create(user=user)
    if bot:
        bots.account_upgrade_to_bot(user_id=user.pk)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


def _signed_in(viewer: Viewer) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=viewer.user_id))
    return client


def test_an_account_that_never_played_becomes_a_bot_from_its_profile_page() -> None:
    maia = _account("maia")
    client = _signed_in(maia)
    page = client.get(reverse("accounts:profile"), follow=True).content.decode()
    assert 'id="bot-upgrade"' in page and "cannot be undone" in page

    client.post(reverse("accounts:bot_upgrade"), {"confirm": "yes"})

    assert Profile.objects.get(user_id=maia.user_id).is_bot
    page = client.get(reverse("accounts:profile"), follow=True).content.decode()
    assert 'id="profile-name">BOT maia<' in page
    assert 'id="bot-account-note"' in page and 'id="bot-upgrade"' not in page


def test_the_upgrade_needs_the_box_ticked() -> None:
    maia = _account("maia")
    response = _signed_in(maia).post(reverse("accounts:bot_upgrade"), {}, follow=True)
    assert not Profile.objects.get(user_id=maia.user_id).is_bot
    assert "Tick the box to confirm" in response.content.decode()


def test_an_account_that_has_sat_at_a_table_cannot_become_a_bot() -> None:
    alice = _account("alice")
    tables.table_create(viewer=alice, name=None, ruleset_spec={"preset": "chudopoly"})
    client = _signed_in(alice)
    page = client.get(reverse("accounts:profile"), follow=True).content.decode()
    assert 'id="bot-upgrade-problem"' in page and "never played" in page

    client.post(reverse("accounts:bot_upgrade"), {"confirm": "yes"})

    assert not Profile.objects.get(user_id=alice.user_id).is_bot
    with pytest.raises(bots.BotUpgradeError):
        bots.account_upgrade_to_bot(user_id=alice.user_id)


def test_a_bot_account_is_seated_under_its_marked_name_and_the_lobby_shows_it() -> None:
    alice, maia = _account("alice"), _account("maia", bot=True)
    table = tables.table_create(viewer=alice, name=None, ruleset_spec={"preset": "chudopoly"})
    tables.seat_join(table_id=table.pk, viewer=maia, name=None)
    assert Seat.objects.get(table=table, user_id=maia.user_id).name == "BOT maia"
    game = tables.game_start(table_id=table.pk, viewer=alice)
    assert "BOT maia" in [p["name"] for p in game.players]
    page = _signed_in(alice).get(table.get_absolute_url()).content.decode()
    assert "BOT maia" in page


def test_nobody_else_may_play_under_a_bot_name() -> None:
    assert call_sign_problem("BOT maia") is not None
    assert call_sign_problem("bot maia") is not None
    assert call_sign_problem("Botany") is None


def test_bot_accounts_never_join_peoples_quick_match() -> None:
    maia = _account("maia", bot=True)
    with pytest.raises(LadderError) as refused:
        ladder.queue_join(viewer=maia, preset="chudopoly", seats=2, ranked=False)
    assert refused.value.code == "bot_account"
    page = _signed_in(maia).post(reverse("ladder:queue"), {
        "game": "chudopoly", "preset": "chudopoly", "seats": 2, "mode": "casual"})
    assert "bots&#x27; queue" in page.content.decode() or "bots' queue" in page.content.decode()


def test_a_game_of_a_person_and_a_bot_account_rates_nobody() -> None:
    from tests.ladder.ladder_helpers import play_moves

    alice, maia = _account("alice"), _account("maia", bot=True)
    table = tables.table_create(viewer=alice, name=None, ruleset_spec={"preset": "chudopoly"},
                                max_seats=2)
    tables.seat_join(table_id=table.pk, viewer=maia, name=None)
    game = tables.game_start(table_id=table.pk, viewer=alice)
    game = play_moves(game, 3000)
    record = GameRecord.objects.get(game=game)
    assert not record.rated
    assert not Rating.objects.exists()


def test_each_game_has_a_bots_ladder_listing_bot_accounts_marked() -> None:
    maia = _account("maia", bot=True)
    Rating.objects.create(user_id=maia.user_id, game_kind="boardroom", ladder="bots",
                          rating=1520, games=6, peak=1520)
    client = Client()
    board = client.get(reverse("ladder:game_leaderboard", args=["boardroom", "bots"]))
    assert board.status_code == 200
    text = board.content.decode()
    assert "Boardroom Bots ladder" in text and ">BOT maia</a>" in text
    index = client.get(reverse("ladder:index")).content.decode()
    assert "Boardroom Bots" in index and "Chudopoly Bots" in index and "BOT maia" in index
    profile = client.get(reverse("accounts:profile_detail", args=["maia"])).content.decode()
    assert 'id="standing-boardroom-bots"' in profile and 'id="standing-blitz"' not in profile


def test_a_person_may_not_take_a_display_name_that_reads_as_a_bot() -> None:
    alice = _account("alice")
    _signed_in(alice).post(reverse("accounts:profile_edit"), {"display_name": "BOT alice"})
    assert Profile.objects.get(user_id=alice.user_id).display_name == ""
