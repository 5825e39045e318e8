"""Quick-match queues: joining and leaving, one queue at a time, windows, pairing, matches."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from ladder_helpers import ago, ticket, viewer_of

from games.platform.models import Game, Seat, Table
from games.platform.scheduler import in_process_scheduler
from ladder import services
from ladder.models import Match, QueueTicket
from ladder.services import LadderError, find_groups, queue_pair, rating_window
from ladder.tasks import match_start as match_start_task

pytestmark = pytest.mark.django_db


def test_a_guest_joins_a_casual_queue_under_a_name(guest_gus) -> None:
    t = services.queue_join(viewer=guest_gus, preset="blitz", seats=3, ranked=False, name="Gus")
    assert t.status == QueueTicket.Status.WAITING and t.name == "Gus" and t.rating == 1500
    assert (t.queue.preset, t.queue.seats, t.queue.ranked) == ("blitz", 3, False)


def test_ranked_queues_need_an_account(guest_gus) -> None:
    with pytest.raises(LadderError) as err:
        services.queue_join(viewer=guest_gus, preset="blitz", seats=2, ranked=True, name="Gus")
    assert err.value.code == "needs_account"
    assert not QueueTicket.objects.exists()


def test_a_guest_needs_a_valid_name(guest_gus) -> None:
    with pytest.raises(LadderError) as err:
        services.queue_join(viewer=guest_gus, preset="blitz", seats=2, ranked=False, name="")
    assert err.value.code == "bad_name"


def test_unknown_presets_and_seat_counts_are_refused(alice) -> None:
    with pytest.raises(LadderError):
        services.queue_join(viewer=alice, preset="custom", seats=2, ranked=False)
    with pytest.raises(LadderError):
        services.queue_join(viewer=alice, preset="blitz", seats=5, ranked=False)


def test_a_player_waits_in_one_queue_at_a_time(alice) -> None:
    first = services.queue_join(viewer=alice, preset="blitz", seats=2, ranked=True)
    again = services.queue_join(viewer=alice, preset="blitz", seats=2, ranked=True)
    assert again.pk == first.pk
    with pytest.raises(LadderError) as err:
        services.queue_join(viewer=alice, preset="longGame", seats=4, ranked=False)
    assert err.value.code == "other_queue"
    assert "Blitz 2-player ranked" in err.value.message
    assert QueueTicket.objects.filter(status="waiting").count() == 1


def test_leaving_frees_the_player_to_join_another_queue(alice) -> None:
    services.queue_join(viewer=alice, preset="blitz", seats=2, ranked=True)
    assert services.queue_leave(viewer=alice) is True
    assert services.queue_leave(viewer=alice) is False
    services.queue_join(viewer=alice, preset="longGame", seats=4, ranked=False)
    assert list(QueueTicket.objects.values_list("status", flat=True).order_by("pk")) == [
        "cancelled", "waiting"]


def test_a_ranked_ticket_carries_the_players_ladder_rating(alice) -> None:
    from ladder_helpers import set_rating

    set_rating(alice, "blitz", 1733)
    t = services.queue_join(viewer=alice, preset="blitz", seats=2, ranked=True)
    assert t.rating == 1733


def test_the_window_starts_at_100_and_widens_50_every_10_seconds_up_to_500() -> None:
    assert rating_window(waited_seconds=0) == 100
    assert rating_window(waited_seconds=9.9) == 100
    assert rating_window(waited_seconds=10) == 150
    assert rating_window(waited_seconds=35) == 250
    assert rating_window(waited_seconds=80) == 500
    assert rating_window(waited_seconds=3600) == 500


def test_players_with_overlapping_windows_are_seated_together(alice, bob) -> None:
    ticket(alice, rating=1500)
    ticket(bob, rating=1690)  # windows ±100 meet at 1590–1600
    (match,) = queue_pair()
    table = match.table
    assert match.ranked and table.max_seats == 2 and table.ruleset["label"] == "chudopoly"
    assert set(table.seats.values_list("user_id", flat=True)) == {alice.user_id, bob.user_id}
    assert set(QueueTicket.objects.values_list("status", flat=True)) == {"matched"}
    assert not table.is_public and table.status == Table.Status.OPEN


def test_players_whose_windows_do_not_overlap_keep_waiting(alice, bob) -> None:
    ticket(alice, rating=1500)
    ticket(bob, rating=1800)
    assert queue_pair() == []
    assert set(QueueTicket.objects.values_list("status", flat=True)) == {"waiting"}


def test_windows_widen_with_waiting_until_they_meet(alice, bob) -> None:
    joined = timezone.now()
    ticket(alice, rating=1500, joined=joined)
    ticket(bob, rating=1800, joined=joined)
    # Each window must reach 150: after 10 s they are ±150 and touch at 1650.
    assert queue_pair(now=joined + timedelta(seconds=9)) == []
    (match,) = queue_pair(now=joined + timedelta(seconds=10))
    assert match.tickets.count() == 2


def test_a_table_fills_only_when_every_window_overlaps(alice, bob, carol) -> None:
    ticket(alice, seats=3, rating=1500)
    ticket(bob, seats=3, rating=1580)
    ticket(carol, seats=3, rating=1790)  # overlaps bob (1580+100 ≥ 1790−100) but not alice
    assert queue_pair() == []
    later = timezone.now() + timedelta(seconds=20)  # windows ±200: 1700 ≥ 1590, all meet
    (match,) = queue_pair(now=later)
    assert match.tickets.count() == 3


def test_queues_never_mix_presets_seats_or_kinds(alice, bob, carol, dave) -> None:
    ticket(alice, preset="blitz", seats=2, ranked=True)
    ticket(bob, preset="blitz", seats=2, ranked=False)
    ticket(carol, preset="blitz", seats=3, ranked=True)
    ticket(dave, preset="longGame", seats=2, ranked=True)
    assert queue_pair() == []


def test_grouping_takes_the_longest_waiting_first_and_closest_ratings() -> None:
    now = timezone.now()
    made = [QueueTicket(pk=i, rating=r, joined_at=now - timedelta(seconds=w))
            for i, (r, w) in enumerate([(1500, 5), (1900, 50), (1560, 1), (1450, 0)], 1)]
    groups = find_groups(made, 2, now)
    # 1900 waited longest (±300 after 50 s) and reaches 1560 (±100); 1500 and 1450 pair up.
    assert [[t.pk for t in g] for g in groups] == [[2, 3], [1, 4]]


def test_a_ticket_whose_queue_page_closed_is_dropped(alice, bob) -> None:
    gone = ticket(alice, rating=1500)
    ticket(bob, rating=1500)
    QueueTicket.objects.filter(pk=gone.pk).update(sockets=0, last_seen=ago(60))
    assert queue_pair() == []
    gone.refresh_from_db()
    assert gone.status == QueueTicket.Status.CANCELLED


def test_a_reload_within_the_grace_period_keeps_the_ticket(alice) -> None:
    t = ticket(alice)
    services.queue_socket_closed(ticket_id=t.pk)
    queue_pair()
    t.refresh_from_db()
    assert t.status == QueueTicket.Status.WAITING and t.sockets == 0


def test_guests_with_the_same_name_get_distinct_seat_names(guest_gus, guest_gwen) -> None:
    ticket(guest_gus, ranked=False, name="Sam")
    ticket(guest_gwen, ranked=False, name="Sam")
    (match,) = queue_pair()
    assert sorted(match.table.seats.values_list("name", flat=True)) == ["Sam", "Sam 2"]


def test_the_game_starts_when_every_matched_player_arrives(alice, bob) -> None:
    ticket(alice)
    ticket(bob)
    (match,) = queue_pair()
    first, second = match.tickets.order_by("pk")
    services.match_arrive(ticket_id=first.pk, viewer=viewer_of(first))
    assert Table.objects.get(pk=match.table_id).status == Table.Status.OPEN
    table = services.match_arrive(ticket_id=second.pk, viewer=viewer_of(second))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    match.refresh_from_db()
    assert match.started_at is not None


def test_someone_elses_match_link_does_nothing(alice, bob, carol) -> None:
    ticket(alice)
    ticket(bob)
    (match,) = queue_pair()
    other = match.tickets.first()
    with pytest.raises(LadderError):
        services.match_arrive(ticket_id=other.pk, viewer=carol)


def test_a_player_who_never_arrives_is_replaced_by_a_bot_and_the_game_starts(
        alice, bob, django_capture_on_commit_callbacks) -> None:
    ticket(alice)
    ticket(bob)
    with django_capture_on_commit_callbacks(execute=True):
        (match,) = queue_pair()
    shown = match.tickets.get(user_id=alice.user_id)
    services.match_arrive(ticket_id=shown.pk, viewer=viewer_of(shown))
    # The start is scheduled for the arrival deadline.
    (job,) = [(when, kwargs) for when, task, kwargs in in_process_scheduler().pending()
              if task == "ladder.match_start"]
    assert job[0] >= timezone.now() + timedelta(seconds=services.ARRIVAL_SECONDS - 1)
    match_start_task(**job[1])  # the task body, run here instead of on the thread
    table = Table.objects.get(pk=match.table_id)
    assert table.status == Table.Status.PLAYING
    no_show = Seat.objects.get(table=table, user_id=bob.user_id)
    assert no_show.away and not no_show.is_bot  # a bot plays the seat until bob comes back
    assert not Seat.objects.get(table=table, user_id=alice.user_id).away
    assert Game.objects.get(table=table).status == Game.Status.RUNNING


def test_overdue_matches_are_started_by_the_pairing_sweep(alice, bob) -> None:
    ticket(alice)
    ticket(bob)
    (match,) = queue_pair()
    Match.objects.filter(pk=match.pk).update(start_deadline=ago(1))
    assert services.matches_start_overdue() == 1
    assert services.matches_start_overdue() == 0
    assert Table.objects.get(pk=match.table_id).status == Table.Status.PLAYING


def test_a_casual_player_may_fill_the_table_with_bots_after_30_seconds(guest_gus) -> None:
    t = ticket(guest_gus, ranked=False, seats=4, name="Gus")
    with pytest.raises(LadderError) as err:
        services.queue_fill_with_bots(viewer=guest_gus)
    assert err.value.code == "too_soon"
    QueueTicket.objects.filter(pk=t.pk).update(joined_at=ago(31))
    match = services.queue_fill_with_bots(viewer=guest_gus)
    match.table.refresh_from_db()
    seats = list(match.table.seats.all())
    assert len(seats) == 4 and sum(s.is_bot for s in seats) == 3
    assert match.table.status == Table.Status.PLAYING and match.with_bots
    t.refresh_from_db()
    assert t.status == QueueTicket.Status.MATCHED and t.arrived_at is not None


def test_ranked_queues_never_fill_with_bots(alice) -> None:
    t = ticket(alice)
    QueueTicket.objects.filter(pk=t.pk).update(joined_at=ago(120))
    with pytest.raises(LadderError) as err:
        services.queue_fill_with_bots(viewer=alice)
    assert err.value.code == "ranked"


def test_a_ticket_with_no_sign_of_life_for_a_minute_is_dropped(alice, bob) -> None:
    # Its socket count says a page is open, but that page's process died long ago.
    stale = ticket(alice)
    ticket(bob)
    QueueTicket.objects.filter(pk=stale.pk).update(sockets=1, last_seen=ago(61))
    assert queue_pair() == []
    stale.refresh_from_db()
    assert stale.status == QueueTicket.Status.CANCELLED


def test_the_bots_that_fill_a_casual_table_are_labelled_with_a_real_level(guest_gus) -> None:
    from games.platform import presenters

    t = ticket(guest_gus, ranked=False, seats=2, name="Gus")
    QueueTicket.objects.filter(pk=t.pk).update(joined_at=ago(31))
    match = services.queue_fill_with_bots(viewer=guest_gus)
    bot = match.table.seats.get(is_bot=True)
    assert bot.bot_level == "medium"
    lobby = presenters.render_all(presenters.load_screen(match.table, guest_gus),
                                  oob=False)["lobby"]
    assert "bot · medium" in lobby and "basic" not in lobby


def test_a_guest_in_a_casual_queue_has_no_rating_window(guest_gus, alice) -> None:
    from django.template.loader import render_to_string

    from ladder.queries import queue_status_context

    t = ticket(guest_gus, ranked=False, seats=2, name="Gus")
    s = queue_status_context(t)
    assert not s["has_window"]
    html = render_to_string("ladder/_queue_status.html", {"s": s})
    assert "rating window" not in html and 'id="queue-count"' in html
    # An account in the same kind of queue still has one.
    mine = ticket(alice, ranked=False, seats=3)
    assert queue_status_context(mine)["has_window"]


def test_a_guest_is_seated_with_whoever_waits_whatever_their_rating(guest_gus, alice) -> None:
    now = timezone.now()
    ticket(guest_gus, ranked=False, seats=2, name="Gus", joined=now)
    ticket(alice, ranked=False, seats=2, rating=2400.0, joined=now)
    (match,) = queue_pair(now=now)
    assert match.tickets.count() == 2
