"""Quick Play (one click: you and three bots) and the play-vs-bots form."""

from __future__ import annotations

import pytest
from clocks_helpers import ENGINE, act, run_due_jobs
from django.test import Client
from django.utils import timezone

from games.platform import services
from games.platform.models import Game, Seat, Table
from games.platform.scheduler import in_process_scheduler

pytestmark = pytest.mark.django_db


def test_the_home_page_offers_quick_play_and_the_game_page_play_vs_bots(client: Client) -> None:
    page = client.get("/").content.decode()
    assert 'action="/play/quick/"' in page and 'id="quick-play-chudopoly"' in page
    assert 'href="/play/bots/?game=chudopoly"' in client.get("/games/chudopoly/").content.decode()


def test_quick_play_starts_a_game_with_three_bots_and_the_right_clocks(
        client: Client, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/play/quick/")
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    assert table.status == Table.Status.PLAYING and not table.is_public
    assert (table.turn_seconds, table.response_seconds) == (0, 45)
    seats = list(Seat.objects.filter(table=table))
    assert len(seats) == 4
    assert sorted(s.bot_level for s in seats if s.is_bot) == ["easy", "medium", "medium"]
    (human,) = [s for s in seats if not s.is_bot]
    assert human.name == "Player" and table.host_id == human.pk
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.RUNNING

    # Bots play until the human owes a decision: no turn clock, a 45 s response clock.
    me = human.game_seat
    for _ in range(300):
        game.refresh_from_db()
        assert all(e["kind"] == "response" and e["seconds"] == 45
                   for k, e in game.deadlines.items() if k.isdigit())
        owed = ENGINE.to_decide(game.state)
        if me in owed or game.status != Game.Status.RUNNING:
            break
        with django_capture_on_commit_callbacks(execute=True):
            assert run_due_jobs(timezone.now()) > 0
    assert me in owed
    if game.version:
        assert game.actions.filter(source="bot").exists()
    # The table page shows the game to its player.
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "Bot " in page and "no turn clock" in page


def test_quick_play_uses_the_name_a_guest_chose_before(client: Client) -> None:
    from games.platform.identity import GUEST_NAME_SESSION_KEY

    session = client.session
    session[GUEST_NAME_SESSION_KEY] = "Zed"
    session.save()
    client.post("/play/quick/")
    assert Seat.objects.get(is_bot=False).name == "Zed"


def test_the_play_vs_bots_form_seats_the_bots_chosen(client: Client) -> None:
    assert "Bot 4" in client.get("/play/bots/").content.decode()
    response = client.post("/play/bots/", {
        "name": "Ann", "preset": "blitz", "turn_seconds": 90, "response_seconds": 30,
        "bot_1": "hard", "bot_2": "", "bot_3": "easy", "bot_4": ""})
    table = Table.objects.get()
    assert response["Location"] == f"/t/{table.code}/"
    assert sorted(table.seats.filter(is_bot=True).values_list("bot_level", flat=True)) == \
        ["easy", "hard"]
    assert (table.turn_seconds, table.response_seconds, table.max_seats) == (90, 30, 3)
    assert table.ruleset_label == "Blitz"
    game = Game.objects.get(table=table)
    turn_holder = game.state["turn"]
    if not game.players[turn_holder]["bot"]:
        assert game.deadlines[str(turn_holder)]["seconds"] == 90


@pytest.mark.parametrize("data, error", [
    ({"bot_1": "", "bot_2": "", "bot_3": "", "bot_4": ""}, "Choose at least one bot."),
    ({"bot_1": "godlike"}, "Select a valid choice."),
    ({"bot_1": "easy", "turn_seconds": 301}, "less than or equal to 300"),
    ({"bot_1": "easy", "response_seconds": -1}, "greater than or equal to 0"),
    ({"bot_1": "easy", "name": "<b>"}, "letter"),
])
def test_the_play_vs_bots_form_refuses_bad_input_and_creates_nothing(
        client: Client, data: dict[str, str], error: str) -> None:
    form = {"name": "Ann", "preset": "chudopoly", "turn_seconds": 0,
            "response_seconds": 45, **data}
    response = client.post("/play/bots/", form)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Table.objects.exists()


def test_bots_never_count_for_the_ladder(django_user_model) -> None:
    from games.platform.identity import Viewer
    from ladder.models import GameRecord

    user = django_user_model.objects.create_user(username="ann", password="pw-ann-123")
    ann = Viewer(user_id=user.pk, guest_key=None, username="ann")
    table = services.table_play_vs_bots(viewer=ann, name=None,
                                        levels=ENGINE.quick_play_levels())
    game = Game.objects.get(table=table)
    me = Seat.objects.get(table=table, is_bot=False).game_seat
    for _ in range(500):
        game.refresh_from_db()
        if me in ENGINE.to_decide(game.state):
            break
        seat = ENGINE.to_decide(game.state)[0]
        services.game_bot_move(game_id=game.pk, seat=seat, version=game.version)
    act(game, me, {"type": "scoop"})
    in_process_scheduler().clear()
    game.refresh_from_db()
    # The bots play on to the end; the game is recorded but never rated.
    for _ in range(5000):
        if game.status == Game.Status.FINISHED:
            break
        seat = ENGINE.to_decide(game.state)[0]
        game = services.game_bot_move(game_id=game.pk, seat=seat, version=game.version) or game
        game.refresh_from_db()
    record = GameRecord.objects.get(game=game)
    assert not record.rated and record.unrated_reason == "Games with bots are not rated."


def test_a_bot_move_task_delivered_twice_moves_once(client: Client) -> None:
    from games.platform.tasks import bot_move

    client.post("/play/quick/")
    game = Game.objects.get()
    human = Seat.objects.get(is_bot=False).game_seat
    if ENGINE.to_decide(game.state) == [human]:
        game = act(game, human, {"type": "end_turn"})
    (seat,) = ENGINE.to_decide(game.state)
    version = game.version
    assert bot_move(game_id=game.pk, seat=seat, version=version) is True
    assert bot_move(game_id=game.pk, seat=seat, version=version) is False
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.actions.get(version=version).source == "bot"
