"""table_apply_action: one locked, versioned, logged move; anything wrong changes nothing."""

from __future__ import annotations

import pytest
from tables_helpers import ENGINE, play_one, seat_of, started_game

from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import AppendOnlyError, Game, GameAction
from games.platform.services import ActionRefused

pytestmark = pytest.mark.django_db


def _snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.state, game.actions.count()


def test_an_applied_action_is_logged_and_moves_the_version_on(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    seat = game.state["turn"]
    action = next(a for a in ENGINE.legal_actions(game.state, seat) if a["type"] == "bank"
                  or a["type"] == "place")
    after = services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                        expected_version=0)
    assert after.version == 1
    row = GameAction.objects.get(game=game)
    assert (row.version, row.seat, row.action, row.source) == (0, seat, action, "player")
    assert row.events and row.events[0]["type"] == action["type"]
    assert after.state == ENGINE.apply(game.state, seat, action).state


def test_a_stale_version_is_refused_and_changes_nothing(alice: Viewer) -> None:
    game = play_one(started_game(alice, bots=1))
    before = _snapshot(game)
    seat = ENGINE.to_decide(game.state)[0]
    action = ENGINE.legal_actions(game.state, seat)[0]
    with pytest.raises(ActionRefused) as refused:
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=0)
    assert refused.value.code == "stale"
    assert _snapshot(game) == before


def test_the_same_move_sent_twice_is_recognised_as_a_duplicate(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    seat = game.state["turn"]
    action = {"type": "end_turn"}
    services.table_apply_action(game_id=game.pk, seat=seat, action=action, expected_version=0)
    before = _snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=0)
    assert refused.value.code == "duplicate"
    assert _snapshot(game) == before


def test_a_seat_that_owes_no_decision_is_refused(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    other = 1 - game.state["turn"]
    before = _snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        services.table_apply_action(game_id=game.pk, seat=other, action={"type": "end_turn"},
                                    expected_version=0)
    assert refused.value.code == "not_your_turn"
    assert _snapshot(game) == before


@pytest.mark.parametrize("action", [
    {"type": "bank", "card": 9999},
    {"type": "draw"},
    {"type": "place", "card": 0, "colour": "nowhere"},
    {"type": "fly"},
    {"type": "pay", "cards": []},
])
def test_an_illegal_action_is_refused_with_the_engines_reason(alice: Viewer,
                                                              action: dict) -> None:
    game = started_game(alice, bots=1)
    seat = game.state["turn"]
    before = _snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=0)
    assert refused.value.code == "illegal"
    assert refused.value.message
    assert _snapshot(game) == before


def test_a_finished_game_refuses_every_move(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    seat = game.state["turn"]
    game = services.table_apply_action(game_id=game.pk, seat=seat, action={"type": "scoop"},
                                       expected_version=0)
    assert game.status == Game.Status.FINISHED
    assert game.result["end_reason"] == "last_standing"
    with pytest.raises(ActionRefused) as refused:
        services.table_apply_action(game_id=game.pk, seat=1 - seat,
                                    action={"type": "end_turn"}, expected_version=1)
    assert refused.value.code == "finished"


def test_the_action_log_is_append_only(alice: Viewer) -> None:
    game = play_one(started_game(alice, bots=1))
    row = GameAction.objects.get(game=game)
    row.seat = 3
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()


def test_a_responder_gets_their_own_deadline_and_the_turn_clock_pauses(alice: Viewer,
                                                                       bob: Viewer) -> None:
    from games.chudopoly.engine import scenario

    game = started_game(alice, (bob, "Bob"))
    # Put the game in a known position: the turn holder holds Roll Call.
    turn = game.state["turn"]
    state = scenario(seats=2, turn=turn, hands={turn: ["roll_call"]},
                     banks={1 - turn: ["money:2"]})
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    game = services.table_apply_action(
        game_id=game.pk, seat=turn, expected_version=game.version,
        action=next(a for a in ENGINE.legal_actions(state, turn) if a["type"] == "action"))
    other = str(1 - turn)
    assert game.deadlines[other]["kind"] == "response"
    assert str(turn) not in game.deadlines
    assert game.deadlines["paused"]["key"].startswith("turn:")


def test_a_move_for_a_seat_the_viewer_does_not_own_is_refused_and_changes_nothing(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    seat = game.state["turn"]
    stranger = bob if seat_of(game, alice) == seat else alice
    before = _snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        services.table_move(game_id=game.pk, seat=seat, action={"type": "end_turn"},
                            expected_version=0, viewer=stranger)
    assert refused.value.code == "forged"
    assert _snapshot(game) == before


def test_a_move_hands_back_the_seats_it_read_under_the_lock_and_the_log_row_it_wrote(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    seat = game.state["turn"]
    owner = alice if seat_of(game, alice) == seat else bob
    move = services.table_move(game_id=game.pk, seat=seat, action={"type": "end_turn"},
                               expected_version=0, viewer=owner)
    assert move.game.version == 1 and move.table.pk == game.table_id
    assert move.seats is not None
    assert [s.name for s in move.seats] == ["Alice", "Bob"]
    row = GameAction.objects.get(game=game)
    assert move.logged == ((0, row.events),)
