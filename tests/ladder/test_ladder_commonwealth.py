"""Commonwealth on the ladder (issue 18): the winner first, the rest by chips placed, a ruined
community rates nobody; quick match of 2 to 4 seats; replay and export. Commonwealth's site
parts are registered by its own app; these tests register its adapter themselves."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladder_helpers import engine_seat, matched_game, play_moves, ticket

from games.commonwealth.game import CommonwealthGame
from games.platform import interface
from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.models import Game, Table
from ladder import services
from ladder.models import GameRecord, PlayerResult, Rating
from ladder.replay import replay_frame
from ladder.services import LadderError

pytestmark = pytest.mark.django_db

COMMONWEALTH = "commonwealth"
# Seeds whose medium-bot games end as these tests need (found by playing them out):
WON_BY_CHIPS = 3  # two seats: engine seat 0 places its tenth chip after 56 moves
RUINED = 10  # two seats: the Fund runs dry after 213 moves
TIED_RUNNERS_UP = 6  # three seats: seat 0 wins, seats 1 and 2 have placed 8 chips each


@pytest.fixture(autouse=True)
def commonwealth_on_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter in the site's registry for this test only."""
    monkeypatch.setitem(interface._REGISTRY, COMMONWEALTH, CommonwealthGame)
    monkeypatch.setitem(interface._INSTANCES, COMMONWEALTH, CommonwealthGame())


def _played_out(seed: int, *viewers: Viewer, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A ranked Commonwealth match dealt from `seed`, played to its end by medium bots
    deciding for the players."""
    monkeypatch.setattr(tables.secrets, "randbits", lambda bits: seed)
    game = matched_game(*viewers, preset="standard", game_kind=COMMONWEALTH)
    assert game.seed == seed
    game = play_moves(game, 400)
    assert game.status == Game.Status.FINISHED
    return game


def _places(game: Game, *viewers: Viewer) -> list[int]:
    by_user = {r.user_id: r.placement for r in PlayerResult.objects.filter(record__game=game)}
    return [by_user[v.user_id] for v in viewers]


def _by_engine_seat(game: Game, *viewers: Viewer) -> list[Viewer]:
    return sorted(viewers, key=lambda v: engine_seat(game, v))


# --- rating -----------------------------------------------------------------------------------


def test_a_win_puts_the_winner_first_and_rates_both(alice, bob, monkeypatch) -> None:
    game = _played_out(WON_BY_CHIPS, alice, bob, monkeypatch=monkeypatch)
    assert game.result["end_reason"] == "chips" and game.result["winner"] == 0
    winner, loser = _by_engine_seat(game, alice, bob)
    record = GameRecord.objects.get(game=game)
    assert (record.game_kind, record.ladder, record.rated) == (COMMONWEALTH, "standard", True)
    assert _places(game, winner, loser) == [1, 2]
    ratings = {r.user_id: r for r in Rating.objects.filter(game_kind=COMMONWEALTH)}
    assert ratings[winner.user_id].rating == pytest.approx(1520)
    assert ratings[winner.user_id].wins == 1
    assert ratings[loser.user_id].rating == pytest.approx(1480)


def test_a_ruined_community_rates_nobody_and_nobody_won(alice, bob, monkeypatch) -> None:
    game = _played_out(RUINED, alice, bob, monkeypatch=monkeypatch)
    assert game.result["end_reason"] == "fund_dry" and game.result["winner"] is None
    record = GameRecord.objects.get(game=game)
    assert record.ranked and not record.rated
    assert record.unrated_reason == "The Fund ran dry: everyone lost, nobody is rated."
    assert _places(game, alice, bob) == [2, 2]  # everyone shares the last place
    final = replay_frame(game, step=game.actions.count(), seat=None, open_hands=False)
    assert final.everyone_lost  # the replay says so instead of listing placings
    assert not Rating.objects.exists()
    assert not PlayerResult.objects.filter(rating_after__isnull=False).exists()


def test_after_the_winner_equal_chip_counts_share_a_place(alice, bob, carol,
                                                          monkeypatch) -> None:
    game = _played_out(TIED_RUNNERS_UP, alice, bob, carol, monkeypatch=monkeypatch)
    assert game.result["chips"] == [10, 8, 8]
    first, second, third = _by_engine_seat(game, alice, bob, carol)
    assert _places(game, first, second, third) == [1, 2, 2]
    ratings = {r.user_id: r.rating for r in Rating.objects.filter(game_kind=COMMONWEALTH)}
    # Three provisional players at 1500: the winner +20, the two who share second −10 each.
    assert ratings[first.user_id] == pytest.approx(1520)
    assert ratings[second.user_id] == pytest.approx(1490)
    assert ratings[third.user_id] == pytest.approx(1490)


def test_a_ranked_player_who_leaves_takes_last_place_even_with_more_chips(
        alice, bob, monkeypatch) -> None:
    # Commonwealth has no rule for leaving: a bot plays the seat, and the ladder places the
    # leaver last (here the seat that goes on to place its tenth chip).
    monkeypatch.setattr(tables.secrets, "randbits", lambda bits: WON_BY_CHIPS)
    game = matched_game(alice, bob, preset="standard", game_kind=COMMONWEALTH)
    winner, other = _by_engine_seat(game, alice, bob)
    tables.seat_leave(table_id=game.table_id, viewer=winner)
    game = play_moves(game, 400)
    assert game.status == Game.Status.FINISHED and game.result["winner"] == 0
    assert _places(game, other, winner) == [1, 2]
    assert PlayerResult.objects.get(record__game=game, user_id=winner.user_id).left


def test_the_rest_are_placed_by_chips_placed_most_first() -> None:
    result = {"winner": 2, "end_reason": "chips", "placements": [2, 3, 0, 1],
              "chips": [4, 1, 10, 7]}
    places = interface.ladder_places(CommonwealthGame(), result)
    assert places.groups == ((2,), (3,), (0,), (1,)) and places.unrated == ""


def test_a_game_stopped_by_the_turn_limit_rates_nobody() -> None:
    result = {"winner": None, "end_reason": "cap", "placements": [1, 0], "chips": [3, 5]}
    places = interface.ladder_places(CommonwealthGame(), result)
    assert places.groups == ((1,), (0,)) and places.unrated


# --- quick match ------------------------------------------------------------------------------


def test_a_commonwealth_queue_of_four_seats_a_commonwealth_table(alice, bob, carol,
                                                                 dave) -> None:
    now = timezone.now()
    for viewer in (alice, bob, carol, dave):
        ticket(viewer, preset="standard", seats=4, ranked=False, joined=now,
               game_kind=COMMONWEALTH)
    (match,) = services.queue_pair(now=now)
    table = Table.objects.get(pk=match.table_id)
    assert (table.game_kind, table.seats.count()) == (COMMONWEALTH, 4)


def test_commonwealth_queues_seat_two_to_four(alice) -> None:
    assert services.queue_seats(COMMONWEALTH) == (2, 3, 4)
    with pytest.raises(LadderError) as err:
        services.queue_join(viewer=alice, preset="standard", seats=5, ranked=True,
                            game_kind=COMMONWEALTH)
    assert err.value.message == "Quick match tables of Commonwealth seat 2, 3 or 4 players."


def test_the_leaderboard_and_queue_page_name_the_game(alice) -> None:
    board = Client().get(reverse("ladder:game_leaderboard", args=[COMMONWEALTH, "standard"]))
    assert "<h1>Commonwealth ladder</h1>" in board.content.decode()
    queue = Client().get(reverse("ladder:queue") + "?game=commonwealth").content.decode()
    assert "Commonwealth quick match" in queue and 'name="seats" value="5"' not in queue


# --- replay and export ------------------------------------------------------------------------


def test_a_commonwealth_export_replays_to_the_same_result(alice, bob, monkeypatch,
                                                          tmp_path: Path) -> None:
    game = _played_out(WON_BY_CHIPS, alice, bob, monkeypatch=monkeypatch)
    response = Client().get(reverse("ladder:export", args=[game.pk]))
    data = json.loads(response.content)
    assert data["game_kind"] == COMMONWEALTH and data["result"] == game.result
    path = tmp_path / "commonwealth.json"
    path.write_text(response.content.decode())
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    winner = game.players[game.result["winner"]]["name"]
    assert out.getvalue().strip() == (
        f"The replay of game {game.pk} (commonwealth) reaches the same result after "
        f"{len(data['actions'])} actions: {winner} wins (chips).")


def test_replay_frames_step_through_a_commonwealth_game(alice, bob, monkeypatch) -> None:
    game = _played_out(WON_BY_CHIPS, alice, bob, monkeypatch=monkeypatch)
    total = game.actions.count()
    first = replay_frame(game, step=0, seat=None, open_hands=False)
    assert first.step == 0 and first.result is None and first.board["fund"] == 1848
    last = replay_frame(game, step=total, seat=None, open_hands=False)
    assert last.last and last.broken_at is None and last.result == game.result
    winner, loser = (p["name"] for p in game.players)  # WON_BY_CHIPS: engine seat 0 wins
    assert last.placings == [(1, [winner]), (2, [loser])] and not last.everyone_lost
    assert not last.can_open_hands
