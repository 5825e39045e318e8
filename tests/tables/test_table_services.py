"""Services for tables and seats: create, join, leave, host passing, bots, start, rematch."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from tables_helpers import ENGINE, open_table, seat_of, started_game

from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import ChatMessage, Game, Seat, Table
from games.platform.services import TableError

pytestmark = pytest.mark.django_db


def test_creating_a_table_seats_the_creator_as_host(alice: Viewer) -> None:
    table = open_table(alice, ruleset_spec={"preset": "blitz"}, max_seats=3, is_public=True)
    seat = table.seats.get()
    assert table.host_id == seat.pk
    assert seat.name == "Alice" and seat.guest_key == alice.guest_key
    assert table.status == Table.Status.OPEN
    assert table.ruleset["label"] == "blitz" and table.ruleset_label == "Blitz"
    assert (table.turn_seconds, table.response_seconds) == (60, 45)


def test_a_table_code_is_four_characters_without_i_o_0_or_1(alice: Viewer) -> None:
    codes = {open_table(alice).code for _ in range(25)}
    for code in codes:
        assert re.fullmatch(r"[A-HJ-NP-Z2-9]{4}", code)


def test_custom_rules_are_resolved_by_the_engine_and_labelled_custom(alice: Viewer) -> None:
    table = open_table(alice, ruleset_spec={"preset": "mdFaithful",
                                            "deck": {"inspector_general": 3}})
    assert table.ruleset["deck"]["inspector_general"] == 3
    assert table.ruleset_label == "Custom"


@pytest.mark.parametrize(("spec", "field"), [
    ({"deck": {"chud": 13}}, "deck.chud"),
    ({"setsToWin": 6}, "setsToWin"),
    ({"deck": {k: 0 for k in ("inspector_general", "opsec", "midnight_requisition",
                              "tdy_orders", "finance_office", "roll_call", "pcs_orders",
                              "upgrade", "foc", "surge_ops", "chud", "wildAny",
                              "wildPairs")}}, "deck"),
])
def test_a_refused_ruleset_names_the_field_and_opens_no_table(
        alice: Viewer, spec: dict[str, Any], field: str) -> None:
    with pytest.raises(TableError) as refused:
        open_table(alice, ruleset_spec=spec)
    assert refused.value.field == field
    assert refused.value.message
    assert not Table.objects.exists()


@pytest.mark.parametrize(("turn", "response"), [(301, 45), (60, 121), (-1, 45)])
def test_clocks_outside_the_bounds_are_refused(alice: Viewer, turn: int, response: int) -> None:
    with pytest.raises(TableError):
        open_table(alice, turn_seconds=turn, response_seconds=response)


@pytest.mark.parametrize("seats", [1, 6])
def test_a_table_seats_two_to_five(alice: Viewer, seats: int) -> None:
    with pytest.raises(TableError):
        open_table(alice, max_seats=seats)


@pytest.mark.parametrize("name", ["", "-dash", "a" * 17, "semi;colon", "<b>"])
def test_a_call_sign_that_breaks_the_rules_is_refused(alice: Viewer, name: str) -> None:
    with pytest.raises(TableError) as refused:
        open_table(alice, name=name)
    assert refused.value.field == "name"


def test_joining_takes_the_next_free_seat(alice: Viewer, bob: Viewer) -> None:
    table = open_table(alice)
    seat = services.seat_join(table_id=table.pk, viewer=bob, name="Bob's-2.x")
    assert seat.position == 1 and seat.name == "Bob's-2.x"
    # Joining twice from the same browser is the same seat.
    assert services.seat_join(table_id=table.pk, viewer=bob, name="Other").pk == seat.pk


def test_names_are_unique_at_a_table_ignoring_case(alice: Viewer, bob: Viewer) -> None:
    table = open_table(alice)
    with pytest.raises(TableError) as refused:
        services.seat_join(table_id=table.pk, viewer=bob, name="ALICE")
    assert refused.value.code == "name_taken"


def test_a_full_table_refuses_another_player(alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    table = open_table(alice, max_seats=2)
    services.seat_join(table_id=table.pk, viewer=bob, name="Bob")
    with pytest.raises(TableError) as refused:
        services.seat_join(table_id=table.pk, viewer=carol, name="Carol")
    assert refused.value.code == "full"


def test_leaving_before_the_start_frees_the_seat(alice: Viewer, bob: Viewer,
                                                 carol: Viewer) -> None:
    table = open_table(alice, max_seats=2)
    services.seat_join(table_id=table.pk, viewer=bob, name="Bob")
    services.seat_leave(table_id=table.pk, viewer=bob)
    assert table.seats.count() == 1
    assert services.seat_join(table_id=table.pk, viewer=carol, name="Carol").position == 1


def test_hosting_passes_on_when_the_host_leaves_before_the_start(alice: Viewer, bob: Viewer
                                                                 ) -> None:
    table = open_table(alice)
    services.seat_add_bot(table_id=table.pk, viewer=alice)
    bob_seat = services.seat_join(table_id=table.pk, viewer=bob, name="Bob")
    services.seat_leave(table_id=table.pk, viewer=alice)
    table.refresh_from_db()
    assert table.host_id == bob_seat.pk  # a human, never the bot
    services.seat_add_bot(table_id=table.pk, viewer=bob)  # and Bob may now act as host


def test_a_table_everyone_left_closes(alice: Viewer) -> None:
    table = open_table(alice)
    services.seat_add_bot(table_id=table.pk, viewer=alice)
    services.seat_leave(table_id=table.pk, viewer=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.host_id is None


def test_only_the_host_adds_bots_and_starts(alice: Viewer, bob: Viewer) -> None:
    table = open_table(alice)
    services.seat_join(table_id=table.pk, viewer=bob, name="Bob")
    with pytest.raises(TableError) as refused:
        services.seat_add_bot(table_id=table.pk, viewer=bob)
    assert refused.value.code == "not_host"
    with pytest.raises(TableError):
        services.game_start(table_id=table.pk, viewer=bob)
    bot = services.seat_add_bot(table_id=table.pk, viewer=alice)
    assert bot.is_bot and bot.name == "Bot Alpha"
    services.seat_remove_bot(table_id=table.pk, viewer=alice, seat_id=bot.pk)
    assert not table.seats.filter(is_bot=True).exists()


def test_starting_needs_two_filled_seats(alice: Viewer) -> None:
    table = open_table(alice)
    with pytest.raises(TableError) as refused:
        services.game_start(table_id=table.pk, viewer=alice)
    assert refused.value.message == "Need at least 2 players."


def test_the_start_shuffles_the_seat_order_with_the_game_seed(alice: Viewer, bob: Viewer,
                                                              carol: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"), bots=2, max_seats=5)
    lobby_order = list(Seat.objects.filter(table_id=game.table_id).order_by("position"))
    expected = list(lobby_order)
    random.Random(game.seed).shuffle(expected)
    assert [p["seat_id"] for p in game.players] == [s.pk for s in expected]
    for seat in lobby_order:
        assert game.players[seat.game_seat]["name"] == seat.name
    assert game.table.status == Table.Status.PLAYING


def test_the_game_starts_from_the_tables_rules_and_a_fresh_seed(alice: Viewer) -> None:
    game = started_game(alice, bots=1, ruleset_spec={"preset": "longGame"})
    assert game.state["ruleset"]["setsToWin"] == 5
    assert game.state == ENGINE.create(ruleset=game.ruleset, seats=2, seed=game.seed)
    assert game.version == 0


def test_clocks_are_raised_to_the_minimum_once_two_humans_play(alice: Viewer, bob: Viewer
                                                               ) -> None:
    game = started_game(alice, (bob, "Bob"), turn_seconds=0, response_seconds=5)
    game.table.refresh_from_db()
    assert (game.table.turn_seconds, game.table.response_seconds) == (30, 15)


def test_clocks_may_be_off_against_bots(alice: Viewer) -> None:
    game = started_game(alice, bots=1, turn_seconds=0, response_seconds=0)
    game.table.refresh_from_db()
    assert (game.table.turn_seconds, game.table.response_seconds) == (0, 0)
    assert game.deadlines == {}


def test_the_turn_holder_gets_a_deadline_at_the_start(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    turn = game.state["turn"]
    entry = game.deadlines[str(turn)]
    left = (timezone.datetime.fromisoformat(entry["deadline"]) - timezone.now())
    assert timedelta(seconds=55) < left <= timedelta(seconds=60)
    assert entry["kind"] == "turn"


def test_nobody_joins_a_running_game_but_anyone_may_watch(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, bots=1)
    with pytest.raises(TableError) as refused:
        services.seat_join(table_id=game.table_id, viewer=bob, name="Bob")
    assert refused.value.code == "in_progress"


def test_leaving_a_running_game_hands_the_seat_to_a_bot_until_the_player_returns(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    services.seat_leave(table_id=game.table_id, viewer=alice)
    seat = Seat.objects.get(table_id=game.table_id, guest_key=alice.guest_key)
    assert seat.away
    table = Table.objects.get(pk=game.table_id)
    assert table.host.name == "Bob"
    services.seat_return(table_id=game.table_id, viewer=alice)
    seat.refresh_from_db()
    assert not seat.away


def test_a_rematch_keeps_the_rules_with_a_new_seed_and_reshuffled_seats(alice: Viewer) -> None:
    from tables_helpers import play_to_the_end

    game = play_to_the_end(started_game(alice, bots=2, ruleset_spec={"preset": "blitz"},
                                        turn_seconds=0))
    table = Table.objects.get(pk=game.table_id)
    assert table.status == Table.Status.FINISHED
    with pytest.raises(TableError):
        services.game_rematch(table_id=table.pk, viewer=Viewer(None, "not-the-host"))
    again = services.game_rematch(table_id=table.pk, viewer=alice)
    assert again.number == 2 and again.ruleset == game.ruleset
    assert again.seed != game.seed and again.version == 0
    expected = list(Seat.objects.filter(table=table).order_by("position"))
    random.Random(again.seed).shuffle(expected)
    assert [p["seat_id"] for p in again.players] == [s.pk for s in expected]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_rematch_before_the_end_is_refused(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    with pytest.raises(TableError) as refused:
        services.game_rematch(table_id=game.table_id, viewer=alice)
    assert refused.value.code == "not_finished"


def test_a_move_link_hands_the_seat_to_another_browser_once(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, bots=1)
    token = services.seat_move_link_create(table_id=game.table_id, viewer=alice)
    assert len(token) >= 32
    phone = Viewer(user_id=None, guest_key="alice-phone-000000000000000000")
    seat = services.seat_move_claim(code=game.table.code, token=token, viewer=phone)
    assert seat.guest_key == phone.guest_key
    assert seat_of(game, phone) == seat.game_seat
    assert not Seat.objects.filter(guest_key=alice.guest_key).exists()  # the old device left
    with pytest.raises(TableError) as refused:
        services.seat_move_claim(code=game.table.code, token=token, viewer=bob)
    assert refused.value.code == "bad_token"


def test_a_move_link_expires_after_ten_minutes(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, bots=1)
    token = services.seat_move_link_create(table_id=game.table_id, viewer=alice)
    Seat.objects.filter(move_token=token).update(
        move_token_expires=timezone.now() - timedelta(seconds=1))
    with pytest.raises(TableError) as refused:
        services.seat_move_claim(code=game.table.code, token=token, viewer=bob)
    assert refused.value.code == "expired"


def test_chat_keeps_plain_text_and_is_rate_limited(alice: Viewer) -> None:
    table = open_table(alice)
    message = services.chat_post(table_id=table.pk, viewer=alice, text="  <b>hi</b>   there ")
    assert message.text == "<b>hi</b> there"
    with pytest.raises(TableError) as refused:
        services.chat_post(table_id=table.pk, viewer=alice, text="again")
    assert refused.value.code == "rate_limited"
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    services.chat_post(table_id=table.pk, viewer=alice, text="later")
    with pytest.raises(TableError):
        services.chat_post(table_id=table.pk, viewer=alice, text="x" * 501)


def test_a_spectator_cannot_chat(alice: Viewer, bob: Viewer) -> None:
    table = open_table(alice)
    with pytest.raises(TableError) as refused:
        services.chat_post(table_id=table.pk, viewer=bob, text="hello")
    assert refused.value.code == "no_seat"


def test_games_keep_the_players_names_by_engine_seat(alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    assert sorted(p["name"] for p in game.players) == ["Alice", "Bob"]
    assert Game.objects.count() == 1
