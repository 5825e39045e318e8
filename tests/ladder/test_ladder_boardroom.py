"""Boardroom on the ladder: its own Elo ladder for the stock rules, placed by order of
bankruptcy, its own quick-match queues of 2 to 6 seats, its leaderboard, profile, replay and
export, all through the ladder code Chudopoly uses."""

from __future__ import annotations

import json
from datetime import timedelta
from html import unescape
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladder_helpers import engine_seat, matched_game, play_moves, rating_of, set_rating, ticket

from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.models import Game, Table
from ladder import services
from ladder.models import GameRecord, PlayerResult, QueueTicket, Rating
from ladder.services import LadderError

pytestmark = pytest.mark.django_db

BOARDROOM = "boardroom"


def _account(username: str) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


def _bankrupt_in_turn(game: Game, *viewers: Viewer) -> Game:
    """Each of these players leaves the running game in turn: the seed's rule makes a leaver
    bankrupt to the bank, so this is the order in which they go bankrupt."""
    for viewer in viewers:
        tables.seat_leave(table_id=game.table_id, viewer=viewer)
    game.refresh_from_db()
    return game


@pytest.fixture
def three_bankrupt_in_turn(alice, bob, carol) -> Game:
    """A ranked three-seat Boardroom game played for a while, then carol goes bankrupt first
    and bob second: alice is the last one standing."""
    game = play_moves(matched_game(alice, bob, carol, preset="standard", game_kind=BOARDROOM),
                      40)
    assert game.status == Game.Status.RUNNING
    return _bankrupt_in_turn(game, carol, bob)


def _client(viewer: Viewer) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=viewer.user_id))
    return client


# --- rating -----------------------------------------------------------------------------------


def test_a_finished_ranked_game_rates_players_by_the_order_of_bankruptcy(
        three_bankrupt_in_turn, alice, bob, carol) -> None:
    game = three_bankrupt_in_turn
    assert game.status == Game.Status.FINISHED
    record = GameRecord.objects.get(game=game)
    assert (record.game_kind, record.ladder, record.rated) == (BOARDROOM, "standard", True)
    places = {r.user_id: r.placement for r in record.results.all()}
    # Bankrupt players left the table, yet they keep the place their bankruptcy gave them
    # (Chudopoly's "a leaver shares the last place" is not Boardroom's rule).
    assert places == {alice.user_id: 1, bob.user_id: 2, carol.user_id: 3}
    assert not record.results.filter(left=True).exists()
    # Three provisional players at 1500: +20, 0, −20 on Boardroom's own ladder.
    assert rating_of(alice, "standard", BOARDROOM).rating == pytest.approx(1520)
    assert rating_of(bob, "standard", BOARDROOM).rating == pytest.approx(1500)
    assert rating_of(carol, "standard", BOARDROOM).rating == pytest.approx(1480)
    assert not Rating.objects.filter(game_kind="chudopoly").exists()


def test_a_dealt_ruleset_naming_the_seats_is_still_the_stock_ladder(alice, bob) -> None:
    game = matched_game(alice, bob, preset="standard", game_kind=BOARDROOM)
    assert game.ruleset["bots"] == [False, False]  # how it was dealt, stored for replays
    assert game.ruleset["programs"] == [False, False]
    assert services.stock_preset(game) == "standard"


def test_a_longer_turn_limit_is_custom_rules_and_unrated(alice, bob) -> None:
    table = tables.table_create(viewer=alice, name="alice", game_kind=BOARDROOM,
                                ruleset_spec={"preset": "standard", "turnCap": 50},
                                max_seats=2)
    tables.seat_join(table_id=table.pk, viewer=bob, name="bob")
    game = _bankrupt_in_turn(tables.game_start(table_id=table.pk, viewer=alice), bob)
    record = GameRecord.objects.get(game=game)
    assert record.ladder == "custom" and not record.rated
    assert record.unrated_reason == "Custom rules are not rated."


def test_seats_still_in_at_the_turn_limit_with_equal_fortunes_share_a_place() -> None:
    from games.platform.interface import get_game, ladder_places

    result = {"winner": 2, "placements": [2, 0, 3, 1], "end_reason": "turn_cap",
              "net_worth": {"2": 1900, "0": 1500, "3": 1500}}
    assert ladder_places(get_game(BOARDROOM), result).groups == ((2,), (0, 3), (1,))


# --- quick match ------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [5, 6])
def test_a_boardroom_queue_of_any_size_seats_a_boardroom_table_of_that_size(seats) -> None:
    players = [_account(f"player{n}") for n in range(seats)]
    now = timezone.now()
    for viewer in players:
        ticket(viewer, preset="standard", seats=seats, ranked=True, joined=now,
               game_kind=BOARDROOM)
    (match,) = services.queue_pair(now=now)
    table = Table.objects.get(pk=match.table_id)
    assert (table.game_kind, table.max_seats, table.seats.count()) == (BOARDROOM, seats, seats)
    assert match.queue.game_kind == BOARDROOM


def test_boardroom_and_chudopoly_players_never_share_a_table(alice, bob, carol, dave) -> None:
    now = timezone.now()
    ticket(alice, preset="standard", seats=2, joined=now, game_kind=BOARDROOM)
    ticket(bob, preset="chudopoly", seats=2, joined=now)
    ticket(carol, preset="standard", seats=2, joined=now, game_kind=BOARDROOM)
    ticket(dave, preset="chudopoly", seats=2, joined=now)
    kinds = sorted(Table.objects.get(pk=m.table_id).game_kind
                   for m in services.queue_pair(now=now))
    assert kinds == [BOARDROOM, "chudopoly"]


def test_a_casual_boardroom_player_may_fill_a_six_seat_table_with_bots(guest_gus) -> None:
    t = ticket(guest_gus, preset="standard", seats=6, ranked=False, name="Gus",
               game_kind=BOARDROOM)
    QueueTicket.objects.filter(pk=t.pk).update(joined_at=timezone.now() - timedelta(seconds=31))
    match = services.queue_fill_with_bots(viewer=guest_gus)
    table = Table.objects.get(pk=match.table_id)
    assert (table.game_kind, table.status) == (BOARDROOM, Table.Status.PLAYING)
    assert sorted(table.seats.values_list("is_bot", flat=True)) == [False] + [True] * 5
    game = tables.current_game(table)
    assert game is not None and game.ruleset["bots"].count(True) == 5


def test_queue_sizes_are_each_games_own(alice) -> None:
    assert services.queue_seats(BOARDROOM) == (2, 3, 4, 5, 6)
    assert services.queue_seats("chudopoly") == (2, 3, 4)
    with pytest.raises(LadderError) as err:
        services.queue_join(viewer=alice, preset="standard", seats=7, ranked=True,
                            game_kind=BOARDROOM)
    assert err.value.code == "bad_seats"
    assert err.value.message == "Quick match tables of Boardroom seat 2, 3, 4, 5 or 6 players."


def test_the_queue_page_offers_boardrooms_sizes_and_joins_its_queue(alice) -> None:
    client = _client(alice)
    url = reverse("ladder:queue") + "?game=boardroom"
    page = client.get(url).content.decode()
    assert "Boardroom quick match" in page
    assert 'name="game" value="boardroom"' in page
    assert 'name="seats" value="6"' in page
    # One stock preset: it travels hidden instead of a menu of one.
    assert '<select name="preset"' not in page and 'name="preset" value="standard"' in page
    response = client.post(url, {"game": BOARDROOM, "preset": "standard", "seats": "6",
                                 "mode": "ranked"})
    assert response.status_code == 302
    waiting = services.waiting_ticket(alice)
    assert waiting is not None
    assert (waiting.queue.game_kind, waiting.queue.seats) == (BOARDROOM, 6)
    assert "Waiting in the Boardroom 6-player ranked queue" in client.get(
        reverse("ladder:queue")).content.decode()


def test_the_queue_page_of_a_game_the_site_does_not_have_is_not_found(alice) -> None:
    assert _client(alice).get(reverse("ladder:queue") + "?game=nope").status_code == 404


# --- leaderboard, profile, history ------------------------------------------------------------


def test_the_boardroom_leaderboard_lists_its_own_ladder_only(alice, bob) -> None:
    set_rating(alice, "standard", 1640, game_kind=BOARDROOM)
    set_rating(bob, "chudopoly", 1700)
    page = _client(alice).get(reverse("ladder:game_leaderboard",
                                      args=[BOARDROOM, "standard"])).content.decode()
    assert "<h1>Boardroom ladder</h1>" in page
    assert 'id="rank-1"' in page and ">alice</a>" in page and ">bob</a>" not in page
    assert 'href="/ladder/blitz/"' in page  # every game's ladders are one tab away
    index = Client().get(reverse("ladder:index")).content.decode()
    assert 'id="board-boardroom-standard"' in index and "1640" in index


def test_the_profile_shows_the_boardroom_rating_and_its_chart(
        three_bankrupt_in_turn, alice) -> None:
    page = Client().get(reverse("accounts:profile_detail", args=["alice"])).content.decode()
    assert 'id="standing-boardroom-standard"' in page
    start = page.index('id="standing-boardroom-standard"')
    standing = page[start:page.index("</article>", start)]
    assert ">Boardroom</a>" in standing and "1520?" in standing and "<svg" in standing


def test_history_filters_by_game_and_names_the_boardroom_ladder(
        three_bankrupt_in_turn, alice) -> None:
    client = _client(alice)
    mine = client.get(reverse("ladder:history") + "?game=boardroom").content.decode()
    assert mine.count('class="place-') == 1 and "Boardroom" in mine
    assert client.get(reverse("ladder:history") + "?game=chudopoly").content.decode().count(
        'class="place-') == 0


# --- replay and export ------------------------------------------------------------------------


def test_the_replay_page_steps_through_a_boardroom_game(three_bankrupt_in_turn, alice) -> None:
    game = three_bankrupt_in_turn
    url = reverse("ladder:replay", args=[game.pk])
    last = _client(alice).get(url).content.decode()
    assert "Replay: Boardroom, 3 players" in last
    assert f"Step {game.actions.count()} of {game.actions.count()}" in last
    first = Client().get(url + "?step=0").content.decode()
    assert f"Step 0 of {game.actions.count()}" in first
    assert "boardroom/board.css" in last  # the game's board template comes with its styles
    # Boardroom hides no hands, so there are none to open.
    assert 'id="open-hands"' not in first
    names = {r.user_id: r.name for r in PlayerResult.objects.filter(record__game=game)}
    assert "Final placings: 1. alice · 2. bob · 3. carol" in last.replace(
        names[alice.user_id], "alice")


def test_how_ratings_work_says_how_boardroom_places_players() -> None:
    page = Client().get(reverse("ladder:index")).content.decode()
    assert "Boardroom: by order of bankruptcy, the last one standing first" in page


def test_a_boardroom_export_replays_to_the_same_result(three_bankrupt_in_turn,
                                                       tmp_path: Path) -> None:
    game = three_bankrupt_in_turn
    response = Client().get(reverse("ladder:export", args=[game.pk]))
    assert response["Content-Disposition"].endswith(f'"boardroom-game-{game.pk}.json"')
    data = json.loads(response.content)
    assert data["game_kind"] == BOARDROOM and data["result"] == game.result
    path = tmp_path / "boardroom.json"
    path.write_text(response.content.decode())
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    winner = game.players[game.result["winner"]]["name"]
    assert out.getvalue().strip() == (
        f"The replay of game {game.pk} (boardroom) reaches the same result after "
        f"{len(data['actions'])} actions: {winner} wins (last_standing).")


def test_the_export_keeps_each_players_engine_seat(three_bankrupt_in_turn, alice) -> None:
    game = three_bankrupt_in_turn
    data = json.loads(Client().get(reverse("ladder:export", args=[game.pk])).content)
    assert data["players"][engine_seat(game, alice)]["name"] == "alice"
    assert PlayerResult.objects.get(record__game=game, user_id=alice.user_id).seat == \
        engine_seat(game, alice)


def test_a_running_ranked_table_shows_each_players_boardroom_rating(alice, bob) -> None:
    from ladder.table_ratings import table_ratings

    # The same ladder key on another game ("standard") is another rating.
    set_rating(alice, "standard", 1610, game_kind=BOARDROOM)
    set_rating(alice, "standard", 1700, game_kind="commonwealth")
    game = matched_game(alice, bob, preset="standard", game_kind=BOARDROOM)
    shown = table_ratings(game)
    assert shown["rated"] is True
    assert shown["seats"][engine_seat(game, alice)]["rating"] == 1610
    assert shown["seats"][engine_seat(game, bob)]["rating"] == 1500


def _screen(game: Game, viewer: Viewer) -> str:
    """Every partial of the viewer's table page: the result banner stands in the board's status
    (Chudopoly) or in the seat's decision panel (the board games, whose board is shared)."""
    from games.platform import presenters

    game.refresh_from_db()
    parts = presenters.render_all(presenters.load_screen(game.table, viewer), oob=False)
    return "".join(parts.values())


def test_a_ranked_boardroom_table_shows_rated_then_each_change_and_the_replay(alice,
                                                                             bob) -> None:
    game = matched_game(alice, bob, preset="standard", game_kind=BOARDROOM)
    assert 'id="rated-badge"' in _screen(game, alice)
    game = _bankrupt_in_turn(game, bob)
    screen = unescape(_screen(game, bob))  # the text, as → is a character reference
    assert "1500 → 1520 (<span class=\"delta\">+20</span>)" in screen
    assert "1500 → 1480 (<span class=\"delta\">−20</span>)" in screen
    assert f'href="/ladder/games/{game.pk}/replay/"' in screen
    casual = matched_game(alice, bob, preset="standard", game_kind=BOARDROOM, ranked=False)
    assert "rated-badge" not in _screen(casual, alice)
