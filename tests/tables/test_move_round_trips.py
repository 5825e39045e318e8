"""A move's statements (games/platform/moverows.py): on PostgreSQL the BEGIN, the lock and the
seats go in one round trip and the log rows, the game row's update and the COMMIT in another,
each statement prepared on the server once per connection; on either database every engine
action of a move is logged, and the ladder reads a finished game's whole log."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from tables_helpers import ENGINE, play_one, play_to_the_end, started_game

from games.platform import broadcast, moverows, services
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="SQLite takes one statement per execute")


def _statements_of_one_move(game: Game) -> list[str]:
    """The SQL a move sent, savepoints (the test's own transaction) left out."""
    game.refresh_from_db()
    seat = ENGINE.to_decide(game.state)[0]
    action = ENGINE.legal_actions(game.state, seat)[0]
    with CaptureQueriesContext(connection) as queries:
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=game.version)
    return [q["sql"] for q in queries.captured_queries
            if "SAVEPOINT" not in q["sql"].upper()]


@on_postgresql
def test_a_move_makes_two_round_trips_the_lock_with_the_seats_and_the_save_with_the_log(
        alice: Viewer) -> None:
    lock, save = _statements_of_one_move(play_one(started_game(alice, bots=1)))
    assert lock.startswith("EXECUTE chudopoly_lock(") and "EXECUTE chudopoly_seats(" in lock
    assert save.startswith("EXECUTE chudopoly_save_1(")
    prepared = _prepared_on_the_server()
    assert "FOR UPDATE" in prepared["chudopoly_lock"]
    assert '"games_seat"' in prepared["chudopoly_seats"]
    assert 'AS WITH logged AS (INSERT INTO "games_gameaction"' in prepared["chudopoly_save_1"]
    assert 'UPDATE "games_game"' in prepared["chudopoly_save_1"]


def _prepared_on_the_server() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        return dict(cursor.fetchall())


def test_the_lock_brings_the_tables_seats_in_lobby_order(alice: Viewer) -> None:
    game = started_game(alice, bots=2)
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
    assert locked is not None
    game, seats = locked
    assert [s.pk for s in seats] == list(
        game.table.seats.order_by("position").values_list("pk", flat=True))
    assert len(seats) == 3


def test_the_locked_rows_are_the_instances_the_orm_reads_and_save_as_they_would(
        alice: Viewer) -> None:
    game = play_one(started_game(alice, bots=2))
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
    assert locked is not None
    mine, seats = locked

    def fields(row: Any) -> dict[str, Any]:
        return {k: v for k, v in vars(row).items() if k != "_state"}

    orm = Game.objects.get(pk=game.pk)
    assert fields(mine) == fields(orm)
    assert fields(mine.table) == fields(orm.table)
    assert [fields(s) for s in seats] == [fields(s) for s in
                                          orm.table.seats.order_by("position")]
    assert not mine._state.adding and mine._state.db == orm._state.db
    assert mine.started_at.tzinfo is orm.started_at.tzinfo  # the same zone object, too
    assert mine.table is mine.table and mine.table.pk == mine.table_id
    seats[0].name = "Renamed"
    seats[0].save(update_fields=["name"])  # an update of the row, not an insert
    assert orm.table.seats.get(pk=seats[0].pk).name == "Renamed"


def test_a_missing_game_locks_nothing() -> None:
    with transaction.atomic():
        assert moverows.lock_game_and_table(0) is None


def test_a_move_of_several_engine_actions_logs_each_at_its_version(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    steps = [{"type": "accept"}, {"type": "pay", "cards": [3]}]
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
        assert locked is not None
        game = locked[0]
        for step in steps:
            moverows.append_action(game, seat=1, action=step, events=[{"at": game.version}],
                                   source="clock")
            game.version += 1
        moverows.save_move(game)
    rows = GameAction.objects.filter(game=game).values_list("version", "seat", "action",
                                                            "events", "source")
    assert list(rows) == [(0, 1, steps[0], [{"at": 0}], "clock"),
                          (1, 1, steps[1], [{"at": 1}], "clock")]
    assert Game.objects.get(pk=game.pk).version == 2


def test_the_ladder_reads_a_finished_games_whole_log_its_last_move_included(
        alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    import ladder.services

    seen: list[tuple[int, int]] = []
    real = ladder.services.ladder_game_finished

    def reading(*, game: Game, **kwargs: Any) -> Any:
        seen.append((GameAction.objects.filter(game=game).count(), game.version))
        return real(game=game, **kwargs)

    monkeypatch.setattr(ladder.services, "ladder_game_finished", reading)
    play_to_the_end(started_game(alice, bots=1))
    assert len(seen) == 1
    logged, moves = seen[0]
    assert logged == moves  # the finishing move's row is in, though the game row is not saved


@contextmanager
def _messages_sent() -> Iterator[list[str]]:
    """The simple-protocol queries this connection sends in the block, as libpq traces them:
    each is one round trip to the server."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    from psycopg import pq

    sent: list[str] = []
    with tempfile.TemporaryFile(mode="w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            yield sent
        finally:
            pgconn.untrace()
            trace.seek(0)
            sent += [line.split("\t", 3)[3].strip() for line in trace
                     if line.startswith("F\t") and "\tQuery\t" in line]


@on_postgresql
@pytest.mark.django_db(transaction=True)  # the move's own transaction, as at a table
def test_a_move_on_its_own_sends_begin_with_the_lock_and_commit_with_the_save(
        alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    game = started_game(alice, bots=1)
    seat = ENGINE.to_decide(game.state)[0]
    told: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "_deliver", lambda code, message: told.append((code, message)))
    with _messages_sent() as sent:
        services.table_move(game_id=game.pk, seat=seat, expected_version=game.version,
                            action=ENGINE.legal_actions(game.state, seat)[0])
    assert len(sent) == 2, sent
    assert sent[0].startswith('"BEGIN; ') and "EXECUTE chudopoly_lock(" in sent[0]
    assert "EXECUTE chudopoly_save_1(" in sent[1] and sent[1].endswith('; COMMIT"')
    # Committed, and the table heard of it after the commit, as from atomic's own.
    assert connection.connection.pgconn.transaction_status == 0  # idle
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert [m["version"] for _, m in told if m["type"] == "table.update"] == [game.version + 1]


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_refused_move_on_its_own_rolls_back_what_began_with_the_lock(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    seat = ENGINE.to_decide(game.state)[0]
    with _messages_sent() as sent, pytest.raises(services.ActionRefused):
        services.table_move(game_id=game.pk, seat=seat, expected_version=game.version,
                            action={"type": "discard", "cards": [999]})
    assert sent[0].startswith('"BEGIN; ') and sent[-1] == '"ROLLBACK"'
    assert connection.connection.pgconn.transaction_status == 0
    assert not connection.in_atomic_block
    assert Game.objects.get(pk=game.pk).version == game.version
    assert not GameAction.objects.filter(game=game).exists()


def _next_move(game: Game) -> dict[str, Any]:
    """table_move's arguments for a legal move in the game as it stands."""
    game = Game.objects.get(pk=game.pk)
    seat = ENGINE.to_decide(game.state)[0]
    return {"game_id": game.pk, "seat": seat, "expected_version": game.version,
            "action": ENGINE.legal_actions(game.state, seat)[0]}


def _version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


@pytest.fixture
def quiet_game(alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A started game whose moves tell no table (no event loop here to hear them)."""
    monkeypatch.setattr(broadcast, "_deliver", lambda code, message: None)
    return started_game(alice, bots=1)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_connection_prepares_each_statement_once_even_across_a_rolled_back_move(
        quiet_game: Game) -> None:
    game = quiet_game
    start = _version(game)
    move = _next_move(game)
    connection.close()
    connection.close_pool()  # a new server session: nothing prepared yet
    with _messages_sent() as first:
        services.table_move(**move)
    with pytest.raises(services.ActionRefused):
        services.table_move(**{**_next_move(game), "action": {"type": "discard",
                                                              "cards": [999]}})
    move = _next_move(game)
    with _messages_sent() as second:
        services.table_move(**move)
    assert len(first) == 2 and "PREPARE chudopoly_lock AS SELECT" in first[0], first
    assert "PREPARE chudopoly_save_1 AS WITH" in first[1]
    assert len(second) == 2 and not any("PREPARE" in message for message in second), second
    assert _version(game) == start + 2


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_after_the_server_forgot_the_statements_one_move_fails_and_the_next_prepares_them_again(
        quiet_game: Game) -> None:
    from django.db import DatabaseError

    game = quiet_game
    start = _version(game)
    services.table_move(**_next_move(game))
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    with pytest.raises(DatabaseError, match="chudopoly_lock"):
        services.table_move(**_next_move(game))
    services.table_move(**_next_move(game))
    assert _version(game) == start + 2
    assert set(_prepared_on_the_server()) == {"chudopoly_lock", "chudopoly_seats",
                                              "chudopoly_save_1"}


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_after_an_error_the_statements_the_server_holds_are_dropped_and_prepared_anew(
        quiet_game: Game) -> None:
    game = quiet_game
    start = _version(game)
    services.table_move(**_next_move(game))
    move = _next_move(game)
    moverows._Prepared.unknown(connection.connection)  # as an error in a move's message leaves it
    with _messages_sent() as sent:
        services.table_move(**move)
    assert any(message.startswith('"DEALLOCATE chudopoly_') for message in sent), sent
    assert any("PREPARE chudopoly_lock AS" in message for message in sent), sent
    assert _version(game) == start + 2


TRICKY_TEXT = "it's a \\ back'slash, a \"quote\", ünïcödé ♠ and a\nnew line; DROP TABLE x; --"


def test_a_saved_moves_values_are_read_back_as_written_quotes_backslashes_and_all(
        alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    tricky = {"text": TRICKY_TEXT, "nested": [TRICKY_TEXT, {"k'ey": None, "n": 1.5}]}
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
        assert locked is not None
        game = locked[0]
        moverows.append_action(game, seat=1, action={"type": "say", "what": TRICKY_TEXT},
                               events=[tricky], source=TRICKY_TEXT[:10])
        game.version += 1
        game.state = {**game.state, "note": tricky}
        game.result = None
        game.deadlines = {"0": TRICKY_TEXT}
        moverows.save_move(game)
    saved = Game.objects.get(pk=game.pk)
    assert saved.state["note"] == tricky and saved.deadlines == {"0": TRICKY_TEXT}
    assert saved.result is None and saved.version == game.version
    assert saved.updated_at == game.updated_at
    row = GameAction.objects.get(game=game)
    assert (row.action, row.events, row.source) == ({"type": "say", "what": TRICKY_TEXT},
                                                    [tricky], TRICKY_TEXT[:10])
    assert row.created_at.tzinfo is not None


def test_a_moves_statements_pass_through_the_connections_execute_wrappers(
        alice: Viewer) -> None:
    game = play_one(started_game(alice, bots=1))
    seen: list[str] = []

    def watching(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    seat = ENGINE.to_decide(game.state)[0]
    with connection.execute_wrapper(watching):
        services.table_apply_action(game_id=game.pk, seat=seat,
                                    action=ENGINE.legal_actions(game.state, seat)[0],
                                    expected_version=game.version)
    assert any("chudopoly_lock" in sql or "games_game" in sql for sql in seen), seen
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@on_postgresql
def test_a_database_error_in_a_moves_message_comes_out_as_djangos_and_the_next_move_goes_through(
        alice: Viewer) -> None:
    from django.db import DatabaseError

    game = started_game(alice, bots=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
        assert locked is not None
        game = locked[0]
        game.status = "x" * 50  # longer than the column allows
        moverows.save_move(game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert play_one(game).version == 1  # the statements prepared anew after the error


def test_a_moves_times_are_saved_as_the_same_instants_whole_seconds_too(
        alice: Viewer) -> None:
    from datetime import UTC, datetime

    game = started_game(alice, bots=1)
    for when in (datetime(2026, 12, 6, 23, 40, 1, 5, tzinfo=UTC),
                 datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)):  # str() leaves out its fraction
        with transaction.atomic():
            locked = moverows.lock_game_and_table(game.pk)
            assert locked is not None
            game = locked[0]
            game.clock_due = when
            game.finished_at = None
            moverows.save_move(game)
        saved = Game.objects.get(pk=game.pk)
        assert saved.clock_due == when and saved.finished_at is None


def _save_tricky_state(game: Game, note: Any) -> Game:
    """Save `note` in the game's state, log and deadlines the way a move saves them."""
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
        assert locked is not None
        game = locked[0]
        moverows.append_action(game, seat=1, action={"type": "say"}, events=[note],
                               source="player")
        game.version += 1
        game.state = {**game.state, "note": note}
        game.deadlines = {"0": note}
        moverows.save_move(game)
    return Game.objects.get(pk=game.pk)


def test_json_keys_that_are_not_strings_are_saved_as_strings_as_json_dumps_writes_them(
        alice: Viewer) -> None:
    note = {1: TRICKY_TEXT, "two": {3: [4.5, None]}}
    saved = _save_tricky_state(started_game(alice, bots=1), note)
    expected = {"1": TRICKY_TEXT, "two": {"3": [4.5, None]}}
    assert saved.state["note"] == expected and saved.deadlines == {"0": expected}
    assert GameAction.objects.get(game=saved).events == [expected]


@on_postgresql
def test_json_values_read_back_alike_whatever_the_sessions_standard_conforming_strings(
        alice: Viewer) -> None:
    note = {"text": TRICKY_TEXT, "k\\'ey": "\\\\'\\n"}
    with connection.cursor() as cursor:
        cursor.execute("SET standard_conforming_strings = off")
        try:
            saved = _save_tricky_state(started_game(alice, bots=1), note)
        finally:
            cursor.execute("SET standard_conforming_strings = on")
    assert saved.state["note"] == note and saved.deadlines == {"0": note}
    assert GameAction.objects.get(game=saved).events == [note]
