"""Finished games are recorded once; ranked games on stock presets change ratings once."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from ladder_helpers import (
    engine_seat,
    matched_game,
    private_game,
    rating_of,
    scoop_out,
    set_rating,
)

from games.platform import services as tables
from games.platform.interface import LadderPlaces
from games.platform.models import Seat
from ladder.models import GameRecord, PlayerResult, Rating
from ladder.services import final_placements, ladder_record_game

pytestmark = pytest.mark.django_db


def test_a_ranked_two_player_game_rates_both_players_when_it_finishes(alice, bob) -> None:
    game = matched_game(alice, bob)
    game = scoop_out(game, bob)
    record = GameRecord.objects.get(game=game)  # written by the tables' finish hook
    assert record.rated and record.ranked and record.ladder == "chudopoly"
    # Both new (provisional, K = 40) at 1500: the winner gains 40 × ½ = 20.
    assert rating_of(alice).rating == pytest.approx(1520)
    assert rating_of(bob).rating == pytest.approx(1480)
    assert (rating_of(alice).games, rating_of(alice).wins) == (1, 1)
    assert (rating_of(bob).games, rating_of(bob).wins) == (1, 0)
    winner = PlayerResult.objects.get(record=record, user_id=alice.user_id)
    assert winner.placement == 1 and winner.rating_before == 1500
    assert winner.rating_change == pytest.approx(20) and winner.provisional


def test_established_ratings_move_by_the_textbook_amount(alice, bob) -> None:
    set_rating(alice, "chudopoly", 1400)
    set_rating(bob, "chudopoly", 1600)
    game = matched_game(alice, bob)
    scoop_out(game, bob)
    # The underdog wins: 20 × (1 − 0.240253) = 15.195.
    assert rating_of(alice).rating == pytest.approx(1415.195, abs=1e-3)
    assert rating_of(bob).rating == pytest.approx(1584.805, abs=1e-3)


def test_ratings_change_exactly_once_per_game(alice, bob) -> None:
    game = scoop_out(matched_game(alice, bob), bob)
    before = (rating_of(alice).rating, rating_of(bob).rating)
    assert ladder_record_game(game=game) is None  # a second call (the sweep) does nothing
    assert (rating_of(alice).rating, rating_of(bob).rating) == before
    assert rating_of(alice).games == 1
    assert PlayerResult.objects.filter(record__game=game).count() == 2


def test_the_database_refuses_a_second_result_row_for_a_player_in_a_game(alice, bob) -> None:
    game = scoop_out(matched_game(alice, bob), bob)
    row = PlayerResult.objects.get(record__game=game, user_id=alice.user_id)
    row.pk = None
    row.seat = 7
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        GameRecord.objects.create(game=game, ladder="chudopoly", seat_count=2,
                                  finished_at=game.finished_at)


def test_a_casual_queue_game_is_recorded_but_unrated(alice, bob) -> None:
    game = scoop_out(matched_game(alice, bob, ranked=False), bob)
    record = GameRecord.objects.get(game=game)
    assert not record.rated and not record.ranked
    assert record.unrated_reason == "Casual games are not rated."
    assert not Rating.objects.exists()
    assert PlayerResult.objects.filter(record=record, rating_after__isnull=True).count() == 2


def test_a_private_table_is_not_rated(alice, bob) -> None:
    game = scoop_out(private_game(alice, bob), bob)
    record = GameRecord.objects.get(game=game)
    assert not record.rated and record.ladder == "chudopoly"
    assert not Rating.objects.exists()


def test_custom_rules_are_not_rated_even_at_a_ranked_table(alice, bob) -> None:
    game = matched_game(alice, bob)
    game.ruleset = {**game.ruleset, "setsToWin": 4}  # what a modified preset resolves to
    game.save(update_fields=["ruleset"])
    game = scoop_out(game, bob)
    record = GameRecord.objects.get(game=game)
    assert record.ranked and not record.rated and record.ladder == "custom"
    assert record.unrated_reason == "Custom rules are not rated."
    assert not Rating.objects.exists()


def test_a_game_with_a_bot_seat_is_not_rated(alice) -> None:
    game = scoop_out(private_game(alice, bots=1), alice)
    record = GameRecord.objects.get(game=game)
    assert not record.rated
    assert record.unrated_reason == "Games with bots are not rated."
    bot = PlayerResult.objects.get(record=record, is_bot=True)
    assert bot.placement == 1 and bot.user_id is None


def test_a_player_who_leaves_a_ranked_game_takes_last_place(alice, bob, carol) -> None:
    game = matched_game(alice, bob, carol)
    tables.seat_leave(table_id=game.table_id, viewer=carol)  # a bot plays on for carol
    assert Seat.objects.get(table_id=game.table_id, user_id=carol.user_id).away
    # alice scoops first, then bob: the engine places carol's seat first.
    game = scoop_out(game, alice, bob)
    assert game.result["placements"][0] == engine_seat(game, carol)
    by_user = {r.user_id: r for r in PlayerResult.objects.filter(record__game=game)}
    assert by_user[carol.user_id].left and by_user[carol.user_id].placement == 3
    assert by_user[bob.user_id].placement == 1
    assert by_user[alice.user_id].placement == 2
    assert rating_of(carol).rating < 1500 < rating_of(bob).rating
    assert rating_of(carol).wins == 0 and rating_of(bob).wins == 1


def test_a_scoop_is_last_place_in_the_engine_result(alice, bob, carol) -> None:
    game = scoop_out(matched_game(alice, bob, carol), carol, bob)
    places = {r.user_id: r.placement for r in PlayerResult.objects.filter(record__game=game)}
    assert places == {alice.user_id: 1, bob.user_id: 2, carol.user_id: 3}
    # Three provisional players at 1500: +20, 0, −20.
    assert rating_of(alice).rating == pytest.approx(1520)
    assert rating_of(bob).rating == pytest.approx(1500)
    assert rating_of(carol).rating == pytest.approx(1480)


def _one_a_place(*seats: int) -> LadderPlaces:
    return LadderPlaces(groups=tuple((s,) for s in seats))


def test_leavers_share_the_last_place_below_everyone() -> None:
    assert final_placements(_one_a_place(2, 0, 1, 3), 4, set()) == {2: 1, 0: 2, 1: 3, 3: 4}
    assert final_placements(_one_a_place(2, 0, 1, 3), 4, {2, 1}) == {0: 1, 3: 2, 2: 3, 1: 3}


def test_seats_sharing_a_place_push_the_next_place_down() -> None:
    places = LadderPlaces(groups=((1,), (0, 3), (2,)))
    assert final_placements(places, 4, set()) == {1: 1, 0: 2, 3: 2, 2: 4}


def test_when_everyone_lost_every_seat_shares_the_last_place() -> None:
    places = LadderPlaces(groups=((1, 0, 2),), everyone_lost=True)
    assert final_placements(places, 3, set()) == {0: 3, 1: 3, 2: 3}
