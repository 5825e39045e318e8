"""The bench's table set-up (bench/livesetup.py), which the fault tests start from."""

from __future__ import annotations

import livesetup
import pytest
from django.contrib.auth import get_user_model

from games.platform.identity import Viewer
from games.platform.models import Game
from ladder import services as ladder
from ladder.models import QueueTicket


@pytest.mark.django_db
def test_a_ranked_table_seats_its_own_players_though_an_older_ticket_waits_in_the_queue(
        ) -> None:
    # What an earlier test can leave behind: someone still waiting in the same queue.
    user = get_user_model().objects.create_user(username="left-waiting", password=None)
    viewer = Viewer(user_id=user.pk, guest_key=None, username=user.username)
    old = ladder.queue_join(viewer=viewer, preset="blitz", seats=2, ranked=True)
    seated = livesetup.ranked_table(2, preset="blitz")
    assert Game.objects.get(pk=seated.game_id).status == Game.Status.RUNNING
    assert len(seated.seats) == 2 and "left-waiting" not in seated.seats
    assert QueueTicket.objects.get(pk=old.pk).status == QueueTicket.Status.CANCELLED
