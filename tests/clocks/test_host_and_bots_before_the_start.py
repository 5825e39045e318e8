"""Before the start (the guide's "Playing online"): the creator starts once two have joined; if
the creator disappears from the table, the right to start passes on; a casual host may seat
bots, a ranked table has none."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.models import Seat, Table
from games.platform.services import TableError
from ladder.models import Match
from ladder.services import queue_for

pytestmark = pytest.mark.django_db


def open_table(host: Viewer, *others: tuple[Viewer, str]) -> Table:
    table = services.table_create(viewer=host, name="Alice", ruleset_spec={}, max_seats=4,
                                  game_kind="boardroom")
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return table


def here(table: Table, viewer: Viewer, channel: str) -> None:
    clocks.seat_connected(table_id=table.pk, viewer=viewer, channel=channel)


def test_the_creator_cannot_start_alone(alice: Viewer) -> None:
    table = open_table(alice)
    with pytest.raises(TableError) as refused:
        services.game_start(table_id=table.pk, viewer=alice)
    assert refused.value.code == "too_few"


def test_a_creator_gone_past_the_grace_hands_the_start_to_who_is_here(
        alice: Viewer, bob: Viewer, clock) -> None:
    table = open_table(alice, (bob, "Bob"))
    here(table, alice, "a1")
    here(table, bob, "b1")
    clocks.seat_disconnected(table_id=table.pk, viewer=alice, channel="a1")
    clock.advance(clocks.disconnect_grace_seconds() + 1)
    clocks.clocks_sweep()
    table.refresh_from_db()
    assert bob.owns(Seat.objects.get(pk=table.host_id))
    services.game_start(table_id=table.pk, viewer=bob)


def test_a_creator_back_within_the_grace_keeps_the_start(
        alice: Viewer, bob: Viewer, clock) -> None:
    table = open_table(alice, (bob, "Bob"))
    here(table, alice, "a1")
    here(table, bob, "b1")
    clocks.seat_disconnected(table_id=table.pk, viewer=alice, channel="a1")
    clock.advance(5)
    here(table, alice, "a2")
    clock.advance(clocks.disconnect_grace_seconds())
    clocks.clocks_sweep()
    seat = Seat.objects.get(pk=Table.objects.get(pk=table.pk).host_id)
    assert alice.owns(seat)


def test_with_nobody_else_here_the_creator_keeps_the_start(
        alice: Viewer, bob: Viewer, clock) -> None:
    table = open_table(alice, (bob, "Bob"))  # Bob joined but has no page open
    here(table, alice, "a1")
    clocks.seat_disconnected(table_id=table.pk, viewer=alice, channel="a1")
    clock.advance(clocks.disconnect_grace_seconds() + 1)
    seat = Seat.objects.get(pk=Table.objects.get(pk=table.pk).host_id)
    assert clocks.host_pass_if_gone(seat_id=seat.pk) is False


def test_a_casual_host_may_seat_a_bot(alice: Viewer) -> None:
    table = open_table(alice)
    assert services.seat_add_bot(table_id=table.pk, viewer=alice, level="easy").is_bot


def test_a_ranked_table_has_no_bots(alice: Viewer, bob: Viewer) -> None:
    table = open_table(alice, (bob, "Bob"))
    Match.objects.create(queue=queue_for(preset="standard", seats=2, ranked=True,
                                         game_kind="boardroom"),
                         table=table, ranked=True,
                         start_deadline=clocks.now() + timedelta(seconds=30))
    with pytest.raises(TableError) as refused:
        services.seat_add_bot(table_id=table.pk, viewer=alice, level="easy")
    assert refused.value.code == "ranked"
    assert not table.seats.filter(is_bot=True).exists()
