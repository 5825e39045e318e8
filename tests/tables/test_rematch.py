"""A rematch asks each player: the host proposes, every other human accepts or declines, and
only those who accept (and the bots) sit at the new game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from tables_helpers import started_game

from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.models import Game, Seat, Table
from games.platform.scheduler import in_process_scheduler
from games.platform.services import TableError

pytestmark = pytest.mark.django_db


def finished(game: Game) -> Table:
    """End a game where it stands (how it ended does not matter to a rematch)."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
    return Table.objects.get(pk=game.table_id)


def names_in(game: Game) -> list[str]:
    return sorted(p["name"] for p in game.players)


@pytest.fixture
def three_humans_and_a_bot(alice: Viewer, bob: Viewer, carol: Viewer) -> Table:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"), bots=1)
    return finished(game)


def test_the_host_proposes_and_every_other_human_is_asked(
        three_humans_and_a_bot: Table, alice: Viewer, django_capture_on_commit_callbacks) -> None:
    table = three_humans_and_a_bot
    with django_capture_on_commit_callbacks(execute=True):
        assert services.game_rematch(table_id=table.pk, viewer=alice) is None
    table.refresh_from_db()
    host = Seat.objects.get(table=table, name="Alice")
    assert table.rematch["answers"] == {str(host.pk): "yes"}
    assert table.status == Table.Status.FINISHED and table.games.count() == 1
    (job,) = [j for j in in_process_scheduler().pending() if j[1] == "tables.rematch_due"]
    assert job[2] == {"table_id": table.pk}


def test_the_rematch_starts_when_all_have_answered_with_those_who_accepted(
        three_humans_and_a_bot: Table, alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    table = three_humans_and_a_bot
    services.game_rematch(table_id=table.pk, viewer=alice)
    assert services.rematch_answer(table_id=table.pk, viewer=bob, accept=True) is None
    again = services.rematch_answer(table_id=table.pk, viewer=carol, accept=False)
    assert again is not None and again.number == 2
    assert names_in(again) == ["Alice", "Bob", "Bot Alpha"]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.rematch == {}
    assert not Seat.objects.filter(table=table, name="Carol").exists()  # she watches now


def test_at_the_deadline_it_starts_with_those_who_accepted(
        three_humans_and_a_bot: Table, alice: Viewer, bob: Viewer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = three_humans_and_a_bot
    services.game_rematch(table_id=table.pk, viewer=alice)
    services.rematch_answer(table_id=table.pk, viewer=bob, accept=True)
    assert services.rematch_due(table_id=table.pk) is None  # Carol still has time
    with pytest.raises(TableError) as waiting:
        services.game_rematch(table_id=table.pk, viewer=alice)
    assert waiting.value.code == "waiting" and "Carol" in waiting.value.message
    later = timezone.now() + timedelta(seconds=services.REMATCH_SECONDS + 1)
    monkeypatch.setattr(clocks, "now", lambda: later)
    again = services.rematch_due(table_id=table.pk)
    assert again is not None and names_in(again) == ["Alice", "Bob", "Bot Alpha"]


def test_when_nobody_else_accepts_and_no_bot_sits_the_offer_lapses(
        alice: Viewer, bob: Viewer) -> None:
    table = finished(started_game(alice, (bob, "Bob")))
    services.game_rematch(table_id=table.pk, viewer=alice)
    assert services.rematch_answer(table_id=table.pk, viewer=bob, accept=False) is None
    table.refresh_from_db()
    assert table.rematch == {} and table.status == Table.Status.FINISHED
    assert table.games.count() == 1
    assert [s.name for s in table.seats.all()] == ["Alice"]


def test_with_only_bots_beside_the_host_the_rematch_starts_at_once(alice: Viewer) -> None:
    table = finished(started_game(alice, bots=2))
    again = services.game_rematch(table_id=table.pk, viewer=alice)
    assert again is not None and again.number == 2 and len(again.players) == 3


def test_only_the_host_proposes_and_only_an_open_offer_is_answered(
        three_humans_and_a_bot: Table, alice: Viewer, bob: Viewer) -> None:
    table = three_humans_and_a_bot
    with pytest.raises(TableError) as refused:
        services.rematch_answer(table_id=table.pk, viewer=bob, accept=True)
    assert refused.value.code == "no_rematch"
    with pytest.raises(TableError) as refused:
        services.game_rematch(table_id=table.pk, viewer=bob)
    assert refused.value.code == "not_host"


def test_the_page_asks_each_player_and_shows_who_accepted(alice: Viewer) -> None:
    host, friend, third = Client(), Client(), Client()
    host.post("/tables/new/", {"name": "Alice", "preset": "chudopoly", "max_seats": "4",
                               "turn_seconds": "60", "response_seconds": "45"})
    table = Table.objects.get()
    friend.post(f"/t/{table.code}/join/", {"name": "Bob", "invite": table.invite_token})
    third.post(f"/t/{table.code}/join/", {"name": "Carol", "invite": table.invite_token})
    host.post(f"/t/{table.code}/start/")
    finished(Game.objects.get())
    host.post(f"/t/{table.code}/rematch/")
    page = friend.get(f"/t/{table.code}/").content.decode()
    assert "Rematch proposed" in page and 'id="rematch-accept"' in page
    assert "Bob (you): deciding" in page and "Alice: accepted" in page
    friend.post(f"/t/{table.code}/rematch/answer/", {"answer": "yes"})
    page = third.get(f"/t/{table.code}/").content.decode()
    assert "Bob: accepted" in page and 'id="rematch-decline"' in page
    assert 'id="rematch-accept"' not in friend.get(f"/t/{table.code}/").content.decode()
    third.post(f"/t/{table.code}/rematch/answer/", {"answer": "no"})
    again = Game.objects.get(number=2)
    assert names_in(again) == ["Alice", "Bob"]
