"""Challenges: made, accepted (a table seating both, extra seats filled by our bots, or a seat
at the inviting table), declined, cancelled, expired; the pages people answer them from."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from challenges import services
from challenges.models import Challenge
from challenges.services import ChallengeError
from games.platform import services as tables
from games.platform.models import Game, Seat, Table
from tests.challenges.challenge_helpers import account, signed_in

pytestmark = pytest.mark.django_db


def test_accepting_a_challenge_makes_a_private_table_seating_both_and_starts_the_game() -> None:
    alice, maia = account("alice"), account("maia", bot=True)
    challenge = services.challenge_create(challenger_id=alice.user_id, username="maia",
                                          game_kind="boardroom",
                                          ruleset_spec={"preset": "standard"}, seats=2)
    assert challenge.status == "created" and challenge.ruleset_label

    accepted = services.challenge_accept(challenge_id=challenge.pk, user_id=maia.user_id)

    assert accepted.status == "accepted" and accepted.table is not None
    table = accepted.table
    assert table.game_kind == "boardroom" and not table.is_public
    assert table.status == Table.Status.PLAYING
    assert sorted(s.name for s in table.seats.all()) == ["BOT maia", "alice"]
    assert Game.objects.filter(table=table, status=Game.Status.RUNNING).exists()


def test_seats_beyond_the_two_accounts_are_filled_by_our_medium_bots() -> None:
    alice, maia = account("alice"), account("maia", bot=True)
    challenge = services.challenge_create(challenger_id=alice.user_id, username="maia",
                                          game_kind="commonwealth", seats=4)
    table = services.challenge_accept(challenge_id=challenge.pk, user_id=maia.user_id).table
    bots = list(Seat.objects.filter(table=table, is_bot=True))
    assert len(bots) == 2 and {b.bot_level for b in bots} == {"medium"}


def test_an_invitation_seats_the_bot_account_at_the_hosts_open_table() -> None:
    alice, maia = account("alice"), account("maia", bot=True)
    table = tables.table_create(viewer=alice, name=None, ruleset_spec={"preset": "blitz"},
                                max_seats=3)
    invitation = services.challenge_create(challenger_id=alice.user_id, username="maia",
                                           game_kind="boardroom", table_id=table.pk)
    assert invitation.to_table and invitation.game_kind == "chudopoly"
    assert invitation.seats == 3

    services.challenge_accept(challenge_id=invitation.pk, user_id=maia.user_id)

    table.refresh_from_db()
    assert table.status == Table.Status.OPEN  # the host starts it
    assert table.seats.filter(user_id=maia.user_id, name="BOT maia").exists()


def test_declining_cancelling_and_expiry_end_a_challenge_and_it_cannot_be_answered_again(
) -> None:
    alice, maia = account("alice"), account("maia", bot=True)

    def made() -> Challenge:
        return services.challenge_create(challenger_id=alice.user_id, username="maia",
                                         game_kind="chudopoly")

    declined = services.challenge_decline(challenge_id=made().pk, user_id=maia.user_id,
                                          reason="  not   now ")
    assert declined.status == "declined" and declined.decline_reason == "not now"
    with pytest.raises(ChallengeError) as again:
        services.challenge_accept(challenge_id=declined.pk, user_id=maia.user_id)
    assert again.value.code == "challenge_declined" and again.value.status == 409

    cancelled = services.challenge_cancel(challenge_id=made().pk, user_id=alice.user_id)
    assert cancelled.status == "cancelled"

    stale = made()
    Challenge.objects.filter(pk=stale.pk).update(expires_at=timezone.now() - timedelta(1))
    assert not services.pending_received(maia.user_id).exists()
    assert Challenge.objects.get(pk=stale.pk).status == "expired"
    assert not Table.objects.exists()


def test_only_the_challenged_answers_and_only_the_challenger_cancels() -> None:
    alice, maia = account("alice"), account("maia", bot=True)
    challenge = services.challenge_create(challenger_id=alice.user_id, username="maia",
                                          game_kind="chudopoly")
    with pytest.raises(ChallengeError) as theirs:
        services.challenge_accept(challenge_id=challenge.pk, user_id=alice.user_id)
    assert theirs.value.status == 404
    with pytest.raises(ChallengeError):
        services.challenge_cancel(challenge_id=challenge.pk, user_id=maia.user_id)
    assert Challenge.objects.get(pk=challenge.pk).status == "created"


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"username": "nobody", "game_kind": "chudopoly"}, "no_such_account"),
    ({"username": "alice", "game_kind": "chudopoly"}, "self"),
    ({"username": "maia", "game_kind": "chess"}, "bad_game"),
    ({"username": "maia", "game_kind": "boardroom", "seats": 9}, "bad_seats"),
    ({"username": "maia", "game_kind": "chudopoly", "ruleset_spec": {"preset": "x"}},
     "bad_ruleset"),
    ({"username": "maia", "game_kind": "chudopoly", "rated": True}, "rated_needs_bots"),
])
def test_a_challenge_that_cannot_be_played_is_refused(kwargs: dict, code: str) -> None:
    alice = account("alice")
    account("maia", bot=True)
    with pytest.raises(ChallengeError) as refused:
        services.challenge_create(challenger_id=alice.user_id, **kwargs)
    assert refused.value.code == code
    assert not Challenge.objects.exists()


def test_a_rated_challenge_between_two_bot_accounts_rates_them_on_the_bots_ladder() -> None:
    from ladder.models import GameRecord, Rating
    from tests.ladder.ladder_helpers import play_moves

    maia, zed = account("maia", bot=True), account("zed", bot=True)
    challenge = services.challenge_create(challenger_id=maia.user_id, username="zed",
                                          game_kind="chudopoly",
                                          ruleset_spec={"preset": "blitz"}, rated=True)
    table = services.challenge_accept(challenge_id=challenge.pk, user_id=zed.user_id).table
    game = play_moves(Game.objects.get(table=table), 3000)
    assert game.status == Game.Status.FINISHED
    record = GameRecord.objects.get(game=game)
    assert record.rated, record.unrated_reason
    ladders = set(Rating.objects.values_list("game_kind", "ladder", "games"))
    assert ladders == {("chudopoly", "bots", 1)}


def test_people_challenge_from_a_profile_and_answer_from_their_challenge_list() -> None:
    account("alice")
    bob = account("bob")
    alice_client = signed_in("alice")
    profile = alice_client.get(reverse("accounts:profile_detail", args=["bob"])).content.decode()
    assert 'id="challenge-form"' in profile and "boardroom:standard" in profile
    alice_client.post(reverse("challenges:new", args=["bob"]),
                      {"rules": "boardroom:standard", "seats": "3"})
    challenge = Challenge.objects.get()
    assert (challenge.game_kind, challenge.seats) == ("boardroom", 3)

    bob_client = signed_in("bob")
    own = bob_client.get(reverse("accounts:profile"), follow=True).content.decode()
    assert 'id="challenge-note"' in own and "1 challenge waiting" in own
    listing = bob_client.get(reverse("challenges:list")).content.decode()
    assert f'id="challenge-{challenge.pk}"' in listing

    answer = bob_client.post(reverse("challenges:answer", args=[challenge.pk, "accept"]))

    challenge.refresh_from_db()
    assert challenge.status == "accepted"
    assert answer["Location"] == challenge.table.invite_path
    assert challenge.table.seats.filter(user_id=bob.user_id).exists()


def test_the_host_invites_a_bot_account_by_name_from_the_table_page() -> None:
    alice = account("alice")
    account("maia", bot=True)
    table = tables.table_create(viewer=alice, name=None, ruleset_spec={"preset": "chudopoly"})
    client = signed_in("alice")
    page = client.get(table.invite_path).content.decode()
    assert 'id="invite-bot-form"' in page

    client.post(reverse("challenges:invite", args=[table.code]), {"username": "maia"})

    invitation = Challenge.objects.get()
    assert invitation.to_table and invitation.table_id == table.pk
    other = Client()
    assert other.post(reverse("challenges:invite", args=[table.code]),
                      {"username": "maia"}).status_code == 302  # to the log-in page
    assert Challenge.objects.count() == 1
