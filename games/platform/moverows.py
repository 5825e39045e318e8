"""The four statements of a move, written once instead of compiled by the ORM on every move.

A move reads the game and table rows (locked), reads the table's seats, appends one log row per
engine action and rewrites the game's changing columns. Through the ORM, building each
statement (filters, joins, select lists, save's list of every column) cost more CPU than the
database's own work; here each statement's text is made once per connection from the models'
own metadata, values go in through each field's own `get_db_prep_save` and come out through the
same converters the ORM applies, so the rows are the same model instances the ORM would build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model
from django.utils import timezone

from games.platform.models import Game, GameAction, Seat, Table

# The game columns a move (or a clock's decision) may change; the rest are fixed at the start.
MOVE_COLUMNS = ("state", "version", "status", "result", "finished_at", "deadlines",
                "clock_due", "timeouts", "updated_at")
_LOG_COLUMNS = ("game", "version", "seat", "action", "events", "source", "created_at")

_Converter = Callable[[Any, Any, Any], Any]


class _Statements:
    """One connection's statement texts and per-column converters."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        game_cols = _select_list(Game, "g")
        table_cols = _select_list(Table, "t")
        self.game_and_table = (
            f"SELECT {game_cols}, {table_cols} FROM {quote(Game._meta.db_table)} g "
            f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('id')} = g.{quote('table_id')} "
            f"WHERE g.{quote('id')} = %s{lock}")
        self.seats = (f"SELECT {_select_list(Seat, 's')} FROM {quote(Seat._meta.db_table)} s "
                      f"WHERE s.{quote('table_id')} = %s ORDER BY s.{quote('position')}")
        log_fields = [GameAction._meta.get_field(name) for name in _LOG_COLUMNS]
        self.log_fields = log_fields
        self.insert_log = (
            f"INSERT INTO {quote(GameAction._meta.db_table)} "
            f"({', '.join(quote(f.column) for f in log_fields)}) "
            f"VALUES ({', '.join(['%s'] * len(log_fields))})")
        self.move_fields = [Game._meta.get_field(name) for name in MOVE_COLUMNS]
        self.update_game = (
            f"UPDATE {quote(Game._meta.db_table)} SET "
            f"{', '.join(f'{quote(f.column)} = %s' for f in self.move_fields)} "
            f"WHERE {quote('id')} = %s")
        self.converters = {model: _converters(model) for model in (Game, Table, Seat)}


def _select_list(model: type[Model], alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def _converters(model: type[Model]) -> list[tuple[int, list[_Converter], Any]]:
    """For each column that needs one, the converters the ORM would run on its value."""
    out = []
    for index, field in enumerate(model._meta.concrete_fields):
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if found:
            out.append((index, found, col))
    return out


def _statements() -> tuple[Any, _Statements]:
    """This thread's connection (looked up once: `connection` is a proxy that looks it up on
    every attribute) and its statements, made on first use."""
    conn = connections[DEFAULT_DB_ALIAS]
    made = getattr(conn, "_move_statements", None)
    if made is None:
        made = _Statements()
        conn._move_statements = made
    return conn, made


def _instance(model: type[Model], values: Sequence[Any], conn: Any, stmts: _Statements) -> Any:
    row = list(values)
    for index, converters, col in stmts.converters[model]:
        for convert in converters:
            row[index] = convert(row[index], col, conn)
    return model.from_db(conn.alias, None, row)


def lock_game_and_table(game_id: int) -> Game | None:
    """The game row, with its table row as `game.table`, both locked until the commit."""
    conn, stmts = _statements()
    with conn.cursor() as cursor:
        cursor.execute(stmts.game_and_table, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(Game._meta.concrete_fields)
    game = _instance(Game, row[:width], conn, stmts)
    table = _instance(Table, row[width:], conn, stmts)
    Game._meta.get_field("table").set_cached_value(game, table)
    return game


def table_seats(table_id: int) -> tuple[Seat, ...]:
    """The table's seats in lobby order."""
    conn, stmts = _statements()
    with conn.cursor() as cursor:
        cursor.execute(stmts.seats, [table_id])
        rows = cursor.fetchall()
    return tuple(_instance(Seat, row, conn, stmts) for row in rows)


def append_action(game: Game, *, seat: int, action: dict[str, Any], events: list[Any],
                  source: str) -> None:
    """Append one row to the game's log at its current version (append-only, as
    GameAction.save keeps it)."""
    conn, stmts = _statements()
    values = (game.pk, game.version, seat, action, events, source, timezone.now())
    params = [field.get_db_prep_save(value, conn)
              for field, value in zip(stmts.log_fields, values, strict=True)]
    with conn.cursor() as cursor:
        cursor.execute(stmts.insert_log, params)


def save_move(game: Game) -> None:
    """Write the columns a move changes (MOVE_COLUMNS); `updated_at` is set to now, as
    auto_now would."""
    conn, stmts = _statements()
    game.updated_at = timezone.now()
    params = [field.get_db_prep_save(getattr(game, field.attname), conn)
              for field in stmts.move_fields]
    params.append(game.pk)
    with conn.cursor() as cursor:
        cursor.execute(stmts.update_game, params)
