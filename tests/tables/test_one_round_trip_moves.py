"""A move made on the rows a previous move left in this process (services._move_on_known) is
saved in one round trip, its log rows and game row written only if the game, its table and its
seats are still as that move left them; otherwise nothing is written and the move is made, or
refused, on the locked path, as every move was before."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tables_helpers import ENGINE, seat_of, started_game
from test_independent_answers import accept, set_position

from games.chudopoly.engine import card
from games.platform import broadcast, moverows, services
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction, Seat
from games.platform.services import ActionRefused, Move, decision_token

pytestmark = pytest.mark.django_db(transaction=True)  # the move's own transaction, as at a table

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="SQLite takes every move on the locked path")


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The table updates sent (no event loop here to hear them)."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "_deliver", lambda code, message: sent.append(message))
    return sent


@pytest.fixture
def rent_owed(alice: Viewer, bob: Viewer, carol: Viewer, told: list[dict[str, Any]]
              ) -> tuple[Move, int, int, int]:
    """Alice charged rent to Bob and Carol (each owes an answer): the move as this process
    holds it, made on the locked path."""
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"))
    a, b, c = seat_of(game, alice), seat_of(game, bob), seat_of(game, carol)
    game = set_position(game, turn=a, hands={a: ["rent:red/yellow"], c: ["opsec"]},
                        boards={a: {"red": ["F-22 Raptor"]}},
                        banks={b: ["money:5"], c: ["money:5"]})
    rent = {"type": "action", "card": card(game.state, "rent:red/yellow"), "colour": "red"}
    made = services.table_move(game_id=game.pk, seat=a, action=rent,
                               expected_version=game.version)
    assert sorted(ENGINE.to_decide(made.game.state)) == sorted([b, c])
    return made, a, b, c


def _move(known: Move, seat: int, action: dict[str, Any], *, version: int | None = None,
          decision: str | None = None) -> tuple[Move, list[str]]:
    """A move made on `known`'s rows, and the messages it sent."""
    with CaptureQueriesContext(connection) as queries:
        made = services.table_move(
            game_id=known.game.pk, seat=seat, action=action,
            expected_version=known.game.version if version is None else version,
            expected_decision=decision, known=known)
    return made, [q["sql"] for q in queries.captured_queries
                  if q["sql"] not in ("BEGIN", "COMMIT")]  # Django's notes of its own


def _log(game: Game) -> list[tuple[int, int, Any]]:
    return list(GameAction.objects.filter(game_id=game.pk).order_by("version")
                .values_list("version", "seat", "action"))


@on_postgresql
def test_a_move_on_the_rows_a_move_left_is_saved_in_one_round_trip_with_its_commit(
        rent_owed: tuple[Move, int, int, int], told: list[dict[str, Any]]) -> None:
    held, _, _, c = rent_owed
    version = held.game.version
    made, sent = _move(held, c, accept(c))
    assert len(sent) == 1, sent
    # One implicit transaction: the lock, then the checked save, and no BEGIN or COMMIT.
    relock = sent[0].index("EXECUTE chudopoly_relock(")
    assert relock < sent[0].index("EXECUTE chudopoly_checked_1(") and sent[0].endswith(")")
    assert "BEGIN" not in sent[0] and "COMMIT" not in sent[0]
    assert connection.connection.pgconn.transaction_status == 0  # idle: committed
    saved = Game.objects.get(pk=held.game.pk)
    assert saved.version == made.game.version == version + 1
    assert saved.state == made.game.state and saved.deadlines == made.game.deadlines
    assert _log(saved)[-1] == (version, c, accept(c))
    assert told[-1]["version"] == version + 1  # the table heard of it after the commit
    # The rows it left serve the next move alike.
    after, sent = _move(made, c, {"type": "pay", "cards": made.game.state["players"][c]["bank"]})
    assert len(sent) == 1 and after.game.version == version + 2


@on_postgresql
def test_two_seats_answering_at_once_from_the_same_rows_are_both_applied(
        rent_owed: tuple[Move, int, int, int]) -> None:
    held, _, b, c = rent_owed
    version = held.game.version
    bobs_decision = decision_token(ENGINE, held.game.state, b)
    _move(held, c, accept(c))  # Carol first (another process, holding the same rows)
    made, sent = _move(held, b, accept(b), version=version, decision=bobs_decision)
    # The checked save found the game moved on: the locked path made it.
    assert "chudopoly_checked_1" in sent[0] and "chudopoly_lock" in sent[1], sent
    assert made.game.version == version + 2
    assert [(v, s) for v, s, _ in _log(made.game)][-2:] == [(version, c), (version + 1, b)]
    assert b in ENGINE.to_decide(Game.objects.get(pk=held.game.pk).state)  # Bob now pays


@on_postgresql
def test_a_move_whose_decision_changed_since_its_rows_is_refused_and_changes_nothing(
        rent_owed: tuple[Move, int, int, int]) -> None:
    held, _, _, c = rent_owed
    version = held.game.version
    carols_decision = decision_token(ENGINE, held.game.state, c)
    # Carol's other tab played OPSEC: her chain now waits on the source, not on her.
    _move(held, c, {"type": "respond", "answer": "opsec", "target": c})
    before = Game.objects.get(pk=held.game.pk)
    log = _log(before)
    with pytest.raises(ActionRefused) as refused:
        _move(held, c, accept(c), version=version, decision=carols_decision)
    assert refused.value.code in ("stale", "not_your_turn")
    after = Game.objects.get(pk=held.game.pk)
    assert (after.version, after.state, after.updated_at) == (
        before.version, before.state, before.updated_at)
    assert _log(after) == log
    assert connection.connection.pgconn.transaction_status == 0


@on_postgresql
def test_a_seat_changed_since_the_rows_sends_the_move_down_the_locked_path(
        rent_owed: tuple[Move, int, int, int]) -> None:
    held, _, b, c = rent_owed
    version = held.game.version
    Seat.objects.filter(table_id=held.table.pk, game_seat=b).update(away=True)
    made, sent = _move(held, c, accept(c))
    assert len(sent) == 3, sent  # one round trip lost, then the lock and the save
    assert "chudopoly_checked_1" in sent[0] and "chudopoly_lock" in sent[1], sent
    assert made.game.version == version + 1
    assert next(s for s in made.seats if s.game_seat == b).away  # the seats as they are


@on_postgresql
def test_a_checked_save_that_lost_the_race_writes_nothing(
        rent_owed: tuple[Move, int, int, int]) -> None:
    held, _, b, c = rent_owed
    version = held.game.version
    copy = moverows.saved_alone(held.game)
    assert copy is not None and copy is not held.game
    services.table_move(game_id=held.game.pk, seat=b, action=accept(b),
                        expected_version=version)  # another process's move came first
    moverows.append_action(copy, seat=c, action=accept(c), events=[], source="player")
    copy.version += 1
    assert moverows.save_move_if_unchanged(copy) is False
    saved = Game.objects.get(pk=held.game.pk)
    assert saved.version == version + 1
    assert [(v, s) for v, s, _ in _log(saved)][-1] == (version, b)
    assert held.game.version == version  # the rows held are untouched
    assert connection.connection.pgconn.transaction_status == 0


@on_postgresql
def test_a_database_error_in_the_one_round_trip_rolls_it_back_and_the_next_move_goes_through(
        rent_owed: tuple[Move, int, int, int]) -> None:
    from django.db import DatabaseError

    held, _, _, c = rent_owed
    version = held.game.version
    copy = moverows.saved_alone(held.game)
    assert copy is not None
    # A log row's source longer than its column allows: the insert fails after the lock.
    moverows.append_action(copy, seat=c, action=accept(c), events=[], source="x" * 50)
    copy.version += 1
    with pytest.raises(DatabaseError):
        moverows.save_move_if_unchanged(copy)
    assert connection.connection.pgconn.transaction_status == 0  # rolled back, not left open
    assert Game.objects.get(pk=held.game.pk).version == version
    made, _ = _move(held, c, accept(c))
    assert Game.objects.get(pk=held.game.pk).version == made.game.version == version + 1


@on_postgresql
def test_a_game_ended_elsewhere_since_the_rows_is_not_reopened_by_a_move_on_them(
        rent_owed: tuple[Move, int, int, int]) -> None:
    # The one-round-trip save writes no status, result or end (such a move never ends its
    # game); the fingerprint it checks covers them, so a game ended meanwhile is not written.
    _, stmts = moverows._statements()
    held, _, _, c = rent_owed
    Game.objects.filter(pk=held.game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ActionRefused) as refused:
        _move(held, c, accept(c))
    assert refused.value.code == "finished"
    saved = Game.objects.get(pk=held.game.pk)
    assert saved.status == Game.Status.FINISHED and saved.version == held.game.version
    checked = stmts.definitions["chudopoly_checked_1"]
    assert '"state" = ' in checked and '"status" = ' not in checked


@on_postgresql
def test_a_move_inside_another_transaction_takes_the_locked_path(
        rent_owed: tuple[Move, int, int, int]) -> None:
    from django.db import transaction

    held, _, _, c = rent_owed
    with transaction.atomic():
        made, sent = _move(held, c, accept(c))
    assert any("chudopoly_lock" in sql for sql in sent), sent
    assert not any("chudopoly_checked" in sql for sql in sent), sent
    assert Game.objects.get(pk=held.game.pk).version == made.game.version


def test_a_move_with_the_rows_a_move_left_is_applied_once_on_either_database(
        rent_owed: tuple[Move, int, int, int]) -> None:
    held, _, b, c = rent_owed
    version = held.game.version
    made, _ = _move(held, c, accept(c))
    after, _ = _move(made, b, accept(b))
    saved = Game.objects.get(pk=held.game.pk)
    assert saved.version == after.game.version == version + 2
    assert [(v, s) for v, s, _ in _log(saved)][-2:] == [(version, c), (version + 1, b)]


@on_postgresql
def test_after_the_server_ended_the_connection_the_move_fails_and_the_next_goes_through(
        rent_owed: tuple[Move, int, int, int]) -> None:
    import psycopg
    from django.db import DatabaseError

    from chudopoly_site import held_connection

    held, _, _, c = rent_owed
    version = held.game.version
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    params = connection.get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:  # as a restarted server does
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])  # waits till it ended
    with pytest.raises(DatabaseError):
        _move(held, c, accept(c))
    held_connection.after()  # the handler's end closes the connection that saw an error
    made, _ = _move(held, c, accept(c))
    assert Game.objects.get(pk=held.game.pk).version == made.game.version == version + 1
    assert [(v, s) for v, s, _ in _log(made.game)][-1] == (version, c)
