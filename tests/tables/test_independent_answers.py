"""A move is stale only if what that seat was deciding changed: answers to independent chains,
made on a page one version behind, are applied; a scoop is taken from any seat at any time."""

from __future__ import annotations

from typing import Any

import pytest
from tables_helpers import ENGINE, seat_of, started_game

from games.chudopoly.engine import card, scenario
from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import Game, Table
from games.platform.scheduler import in_process_scheduler
from games.platform.services import ActionRefused, decision_token

pytestmark = pytest.mark.django_db


def set_position(game: Game, **description: Any) -> Game:
    from games.platform import clocks

    state = scenario(seats=game.seat_count, **description)
    table = Table.objects.get(pk=game.table_id)
    deadlines = clocks.next_deadlines(ENGINE, state, table, {})
    Game.objects.filter(pk=game.pk).update(state=state, deadlines=deadlines,
                                           clock_due=clocks.earliest(deadlines))
    game.refresh_from_db()
    return game


def move(game: Game, seat: int, action: dict[str, Any], *, version: int | None = None,
         decision: str | None = None) -> Game:
    game.refresh_from_db()
    return services.table_apply_action(
        game_id=game.pk, seat=seat, action=action,
        expected_version=game.version if version is None else version,
        expected_decision=decision)


def accept(target: int) -> dict[str, Any]:
    return {"type": "respond", "answer": "accept", "target": target}


def rent_on_two(game: Game, a: int, b: int, c: int) -> Game:
    """Seat a charges rent on red to both others (each holds 5M in the bank)."""
    game = set_position(game, turn=a, hands={a: ["rent:red/yellow"], c: ["opsec"]},
                        boards={a: {"red": ["F-22 Raptor"]}},
                        banks={b: ["money:5"], c: ["money:5"]})
    rent = {"type": "action", "card": card(game.state, "rent:red/yellow"), "colour": "red"}
    game = move(game, a, rent)
    assert sorted(ENGINE.to_decide(game.state)) == sorted([b, c])
    return game


@pytest.fixture
def table_of_three(alice: Viewer, bob: Viewer, carol: Viewer) -> tuple[Game, int, int, int]:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"))
    return game, seat_of(game, alice), seat_of(game, bob), seat_of(game, carol)


def test_an_answer_a_version_behind_is_applied_when_another_seat_answered_its_own_chain(
        table_of_three) -> None:
    game, a, b, c = table_of_three
    game = rent_on_two(game, a, b, c)
    page_version, page_decision = game.version, decision_token(ENGINE, game.state, b)
    game = move(game, c, accept(c))  # Carol answers first: her own chain
    after = move(game, b, accept(b), version=page_version, decision=page_decision)
    assert after.version == page_version + 2
    assert after.actions.get(version=page_version + 1).action == accept(b)
    assert b in ENGINE.to_decide(after.state)  # Bob now pays


def test_a_payment_two_versions_behind_is_applied_while_the_other_chain_resolves(
        table_of_three) -> None:
    game, a, b, c = table_of_three
    game = move(rent_on_two(game, a, b, c), b, accept(b))
    page_version, page_decision = game.version, decision_token(ENGINE, game.state, b)
    game = move(game, c, accept(c))
    game = move(game, c, {"type": "pay", "cards": game.state["players"][c]["bank"]})
    pay = {"type": "pay", "cards": game.state["players"][b]["bank"]}
    after = move(game, b, pay, version=page_version, decision=page_decision)
    assert after.state["pending"] is None and after.state["phase"] == "play"


def test_a_move_whose_own_decision_changed_is_still_refused_as_stale(table_of_three) -> None:
    game, a, b, c = table_of_three
    game = rent_on_two(game, a, b, c)
    page_version, page_decision = game.version, decision_token(ENGINE, game.state, c)
    # Carol's other tab played OPSEC: her chain now waits on the source, not on her.
    game = move(game, c, {"type": "respond", "answer": "opsec", "target": c})
    before = (game.version, game.state)
    with pytest.raises(ActionRefused) as refused:
        move(game, c, accept(c), version=page_version, decision=page_decision)
    assert refused.value.code in ("stale", "not_your_turn")
    game.refresh_from_db()
    assert (game.version, game.state) == before


def test_a_move_a_version_behind_without_the_pages_decision_is_refused_as_stale(
        table_of_three) -> None:
    game, a, b, c = table_of_three
    game = rent_on_two(game, a, b, c)
    page_version = game.version
    game = move(game, c, accept(c))
    with pytest.raises(ActionRefused) as refused:
        move(game, b, accept(b), version=page_version)
    assert refused.value.code == "stale"
    with pytest.raises(ActionRefused) as refused:
        move(game, b, accept(b), version=page_version, decision="0123456789abcdef")
    assert refused.value.code == "stale"


def test_the_same_answer_sent_twice_is_a_duplicate_even_after_another_seats_move(
        table_of_three) -> None:
    game, a, b, c = table_of_three
    game = rent_on_two(game, a, b, c)
    page_version, page_decision = game.version, decision_token(ENGINE, game.state, b)
    game = move(game, b, accept(b), version=page_version, decision=page_decision)
    game = move(game, c, accept(c))
    before = (game.version, game.actions.count())
    with pytest.raises(ActionRefused) as refused:
        move(game, b, accept(b), version=page_version, decision=page_decision)
    assert refused.value.code == "duplicate"
    game.refresh_from_db()
    assert (game.version, game.actions.count()) == before


def test_a_bot_task_goes_ahead_when_another_bot_answered_its_own_chain_first(
        alice: Viewer, django_capture_on_commit_callbacks) -> None:
    from games.platform.tasks import bot_move

    game = started_game(alice, bots=2)
    a = seat_of(game, alice)
    b, c = (s for s in range(3) if s != a)
    runner = in_process_scheduler()
    with django_capture_on_commit_callbacks(execute=True):
        game = rent_on_two(game, a, b, c)
    tasks = [kwargs for _when, task, kwargs in runner.pending() if task == "tables.bot_move"]
    runner.clear()
    assert sorted(t["seat"] for t in tasks) == sorted([b, c])
    assert all(t["version"] == game.version for t in tasks)
    # Both tasks were made at the same version; the second still answers after the first.
    assert [bot_move(**t) for t in tasks] == [True, True]
    game.refresh_from_db()
    assert {row.seat for row in game.actions.filter(source="bot")} == {b, c}
    # Delivered again, they find their seat's decision moved on and do nothing.
    assert [bot_move(**t) for t in tasks] == [False, False]


@pytest.mark.parametrize("position", ["off turn", "another seat owes", "this seat owes",
                                      "this seat pays", "this seat discards"])
def test_a_seat_may_scoop_from_every_state_of_the_game(table_of_three, position: str) -> None:
    game, a, b, c = table_of_three
    if position == "off turn":
        game = set_position(game, turn=a)
    elif position == "this seat discards":
        game = set_position(game, turn=b, hands={b: ["money:1"] * 5 + ["money:2"] * 4})
        game = move(game, b, {"type": "end_turn"})
        assert game.state["phase"] == "discard"
    else:
        game = rent_on_two(game, a, b, c)
        if position == "this seat pays":
            game = move(game, b, accept(b))
    scooper = a if position == "another seat owes" else b
    after = move(game, scooper, {"type": "scoop"})
    assert not after.state["players"][scooper]["active"]
    assert after.actions.order_by("-version").first().action == {"type": "scoop"}
    assert after.status == Game.Status.RUNNING or after.result is not None
