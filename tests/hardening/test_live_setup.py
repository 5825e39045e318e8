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


@pytest.mark.django_db(transaction=True)
def test_a_ranked_table_is_seated_though_another_pairing_run_holds_the_queue_at_that_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker's beat pairing the same queue holds its row; our pairing run then skips it.
    import threading

    from django.db import connection, transaction

    from ladder.models import Queue

    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks to skip")
    user = get_user_model().objects.create_user(username="opens-the-queue", password=None)
    ladder.queue_join(viewer=Viewer(user_id=user.pk, guest_key=None, username=user.username),
                      preset="blitz", seats=2, ranked=True)
    queue_id = QueueTicket.objects.get(user=user).queue_id
    locked, release = threading.Event(), threading.Event()

    def hold_the_queue() -> None:
        with transaction.atomic():
            Queue.objects.select_for_update().get(pk=queue_id)
            locked.set()
            release.wait(5)
        connection.close()

    real_pair = ladder.queue_pair
    skipped = []

    def pair_while_held() -> list:
        if skipped:
            return real_pair()
        # The first run meets the queue held by the other run, which then lets go.
        holder = threading.Thread(target=hold_the_queue)
        holder.start()
        locked.wait(5)
        skipped.append(real_pair())
        release.set()
        holder.join()
        return skipped[0]

    monkeypatch.setattr(ladder, "queue_pair", pair_while_held)
    seated = livesetup.ranked_table(2, preset="blitz")
    assert skipped == [[]]
    assert Game.objects.get(pk=seated.game_id).status == Game.Status.RUNNING
    assert len(seated.seats) == 2
