"""The statements of a move, written once instead of compiled by the ORM on every move.

A move reads the game and table rows (locked), reads the table's seats, appends one log row per
engine action and rewrites the game's changing columns. Through the ORM, building each
statement (filters, joins, select lists, save's list of every column) cost more CPU than the
database's own work; here each statement's text is made once per connection from the models'
own metadata, values go in through each field's own `get_db_prep_save` and come out through the
same converters the ORM applies, so the rows are the same model instances the ORM would build.

Each round trip to PostgreSQL costs the web process CPU of its own (psycopg sends, waits and
parses a result, and the kernel switches to the server and back), so on PostgreSQL a move makes
two: the transaction's BEGIN, the lock and the seats go in one query string (psycopg's
client-side binding sends it as one simple-protocol message, whose statements run in order, so
the seats are read after the lock is granted), and the log rows go in with the game row's update
and the COMMIT (`save_move(..., commit=True)`). SQLite runs one statement per execute and gets
them one by one.

A move made on rows a previous move left in this process (services._move_on_known: the table's
newest snapshot holds the game instance that move saved) makes one round trip on PostgreSQL
(`saved_alone`, `save_move_if_unchanged`): the same lock as the lock's, then the log rows and
the game row written only if the game, its table and its seats still have the fingerprint
that move's save read back (`_fingerprint`: the game's changing columns but its state, which
changes only with its version, and the table's and seats' whole rows), as one implicit
transaction (a simple query's statements with no BEGIN or COMMIT among them), committed before
the server answers. The lock comes first so that the check sees whatever a transaction holding
it committed (a seat's change, another process's move), as the locked path's seats do. A check
that fails writes nothing, and the move is made again on the locked path.

On PostgreSQL the statements are prepared on the server, once per connection, and each move
EXECUTEs them with its values: parsing and planning them again on every move was nearly half
of the server's CPU for a move (`_Prepared`).

On PostgreSQL the two messages go straight to psycopg's libpq connection (`_Lane`): the same
texts, with each value written as a literal by libpq's own escaping, the rows read by psycopg's
own loaders. Django's cursor wrapper, psycopg's cursor (its query parsing, per-execute
bookkeeping and parameter adaptation) and the Jsonb wrappers cost more CPU than the round
trips themselves. Django's guarantees are kept by hand: database errors come out as Django's,
a broken transaction is refused, execute wrappers and the query log see each message.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils import timezone

from games.platform.models import Game, GameAction, Seat, Table

# The game columns a move (or a clock's decision) may change; the rest are fixed at the start.
MOVE_COLUMNS = ("state", "version", "status", "result", "finished_at", "deadlines",
                "clock_due", "timeouts", "updated_at")
# Of those, what a move on the rows a previous move left writes (`save_move_if_unchanged`):
# such a move never ends its game (that takes the locked path), so the status, the result and
# `finished_at` stay as the previous save left them, which the fingerprint it checks covers.
KNOWN_MOVE_COLUMNS = tuple(name for name in MOVE_COLUMNS
                           if name not in ("status", "result", "finished_at"))
_LOG_COLUMNS = ("game", "version", "seat", "action", "events", "source", "created_at")

# libpq's "idle, outside a transaction" (psycopg.pq.TransactionStatus.IDLE), without importing
# psycopg where SQLite is the database.
_IDLE = 0

_Converter = Callable[[Any, Any, Any], Any]
_Saver = Callable[[Any], Any]

# The move's JSON columns (the state above all, a few KB a move) are written and read with
# orjson on PostgreSQL: the standard library's encoder and decoder were about a twentieth of a
# move's CPU. jsonb keeps the value, not the text, so the rows are the same; keys that are not
# strings become strings, as `json.dumps` makes them.
_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def _orjson_dumps(value: Any) -> bytes:
    """A JSON column's value as orjson writes it: without OPT_NON_STR_KEYS first, as every
    key of a game's state, log and clocks is a string and that option's slower path cost the
    state's dump about a third more; a value with a key that is not a string (orjson's
    refusal is a TypeError) is written again with it. Either way the text is the same."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=_JSON_OPTIONS)


def _json_literal(value: Any) -> bytes:
    """A JSON column's value as an SQL literal (PostgreSQL's lane): orjson's text as an E''
    string, each backslash and quote doubled, which the server reads alike whatever the
    session's standard_conforming_strings. libpq's PQescapeLiteral reads the text twice to
    check its encoding and find what to double; orjson writes valid UTF-8 with no NUL (it
    escapes control characters), so two `bytes.replace` passes, which copy nothing where
    nothing is found, do its work in about a fifth of the instructions."""
    text = _orjson_dumps(value).replace(b"\\", b"\\\\").replace(b"'", b"''")
    return b"E'" + text + b"'::jsonb"


def _load_json(value: Any, expression: Any, conn: Any) -> Any:
    """JSONField.from_db_value (no decoder) with orjson: text that is not JSON stays text."""
    if not isinstance(value, (str, bytes)):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return value


def _saver(field: Any, conn: Any) -> _Saver:
    """How a column's value goes into a statement: the field's own `get_db_prep_save`, or on
    PostgreSQL a plain JSONField's value as psycopg's Jsonb dumped by orjson (None is SQL
    NULL, as the field saves it)."""
    if (conn.vendor == "postgresql" and isinstance(field, JSONField)
            and field.encoder is None):
        from psycopg.types.json import Jsonb

        return lambda value: None if value is None else Jsonb(value, dumps=_orjson_dumps)

    def slow(value: Any) -> Any:
        return field.get_db_prep_save(value, conn)

    if conn.vendor != "postgresql":
        return slow
    # On PostgreSQL a plain int, str or aware datetime goes in as it is (what the field's own
    # preparation returns for it, about 2 µs a value the long way); anything else, the field's.
    internal = (field.target_field if field.is_relation else field).get_internal_type()
    if internal == "DateTimeField":
        return lambda value: (value if type(value) is datetime and value.tzinfo is not None
                              else slow(value))
    plain = int if internal in _INTEGER_FIELDS else str if internal == "CharField" else None
    if plain is None:
        return slow
    return lambda value: value if type(value) is plain else slow(value)


_INTEGER_FIELDS = frozenset(("AutoField", "BigAutoField", "SmallAutoField", "IntegerField",
                             "BigIntegerField", "SmallIntegerField", "PositiveIntegerField",
                             "PositiveBigIntegerField", "PositiveSmallIntegerField"))

_Literal = Callable[["_Lane", Any], bytes]
# A UTC datetime as PostgreSQL reads it back: the same instant as its str() (which leaves out
# a zero fraction), at a third of the instructions.
_UTC_LITERAL = b"'%04d-%02d-%02d %02d:%02d:%02d.%06d+00:00'::timestamptz"


def _literal(field: Any, conn: Any) -> _Literal:
    """How a column's value is written into a statement's text on PostgreSQL's lane: what
    psycopg's client-side binding writes for what `_saver` passes it, with the common values
    written directly (an int as digits; a str quoted by libpq's PQescapeLiteral; a plain
    JSONField's value dumped by orjson and quoted by `_json_literal`; an aware datetime by
    psycopg's own dumper) and anything else as the field prepares it, quoted by psycopg."""
    def slow(lane: _Lane, value: Any) -> bytes:
        prepared = field.get_db_prep_save(value, conn)
        return b"NULL" if prepared is None else lane.tx.as_literal(prepared)

    if isinstance(field, JSONField) and field.encoder is None:
        def json(lane: _Lane, value: Any) -> bytes:
            if value is None:  # SQL NULL, as the field saves None
                return b"NULL"
            return _json_literal(value)

        return json
    internal = (field.target_field if field.is_relation else field).get_internal_type()
    # None is SQL NULL for each of these, as the field prepares it (without its five calls).
    if internal == "DateTimeField":
        def stamp(lane: _Lane, value: Any) -> bytes:
            if value is None:
                return b"NULL"
            if type(value) is datetime and value.tzinfo is not None:
                if value.tzinfo is UTC:  # timezone.now()'s: its fields written as text,
                    # not through str() (datetime's own formatting, several times dearer)
                    return _UTC_LITERAL % (value.year, value.month, value.day, value.hour,
                                           value.minute, value.second, value.microsecond)
                return lane.tx.as_literal(value)
            return slow(lane, value)

        return stamp
    if internal in _INTEGER_FIELDS:
        def number(lane: _Lane, value: Any) -> bytes:
            if type(value) is int:
                return b"%d" % value
            return b"NULL" if value is None else slow(lane, value)

        return number
    if internal == "CharField":
        def text(lane: _Lane, value: Any) -> bytes:
            # libpq's escaping would cut a str at a NUL; psycopg's refuses it, as it should.
            if type(value) is str and "\x00" not in value:
                return lane.escape(value.encode())
            return b"NULL" if value is None else slow(lane, value)

        return text
    return slow


class _Statements:
    """One connection's statement texts and per-column converters."""

    def __init__(self, conn: Any) -> None:
        quote = connection.ops.quote_name
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        game_table = quote(Game._meta.db_table)
        game_cols = _select_list(Game, "g")
        table_cols = _select_list(Table, "t")
        self.game_and_table = (
            f"SELECT {game_cols}, {table_cols} FROM {game_table} g "
            f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('id')} = g.{quote('table_id')} "
            f"WHERE g.{quote('id')} = %s{lock}")
        self.seats = (f"SELECT {_select_list(Seat, 's')} FROM {quote(Seat._meta.db_table)} s "
                      f"WHERE s.{quote('table_id')} = (SELECT {quote('table_id')} "
                      f"FROM {game_table} WHERE {quote('id')} = %s) "
                      f"ORDER BY s.{quote('position')}")
        # Several statements in one execute: psycopg's ClientCursor (Django's default) sends
        # them as one message; with server-side binding, or on SQLite, each needs its own.
        # Batched, they are also prepared on the server (_Prepared).
        self.batched = (conn.vendor == "postgresql"
                        and not conn.settings_dict.get("OPTIONS", {}).get("server_side_binding"))
        # PostgreSQL inserts the log rows in the game row's UPDATE (a data-modifying WITH).
        self.log_with_update = conn.vendor == "postgresql"
        log_fields = [GameAction._meta.get_field(name) for name in _LOG_COLUMNS]
        self.log_fields = log_fields
        self.log_savers = [_saver(field, conn) for field in log_fields]
        self.log_literals = [_literal(field, conn) for field in log_fields]
        self._log_row = f"({', '.join(['%s'] * len(log_fields))})"
        self._insert_log = (f"INSERT INTO {quote(GameAction._meta.db_table)} "
                            f"({', '.join(quote(f.column) for f in log_fields)}) VALUES ")
        self.move_fields = [Game._meta.get_field(name) for name in MOVE_COLUMNS]
        self.move_savers = [(field.attname, _saver(field, conn)) for field in self.move_fields]
        self.move_literals = [(field.attname, _literal(field, conn))
                              for field in self.move_fields]
        self.known_literals = [(field.attname, _literal(field, conn))
                               for field in self.move_fields if field.name in KNOWN_MOVE_COLUMNS]
        self.pk_literal = _literal(Game._meta.pk, conn)
        known_set_list = ', '.join(f'{quote(f.column)} = %s' for f in self.move_fields
                                   if f.name in KNOWN_MOVE_COLUMNS)
        set_list = ', '.join(f'{quote(f.column)} = %s' for f in self.move_fields)
        # On PostgreSQL the save reads back the game's fingerprint (`_fingerprint`), which a
        # later move made on the same rows checks instead of locking and reading them again.
        returning = (f" RETURNING {_fingerprint('g')}" if conn.vendor == "postgresql" else "")
        alias = " g" if returning else ""
        self.update_game = (f"UPDATE {game_table}{alias} SET {set_list} "
                            f"WHERE {quote('id')} = %s{returning}")
        # A move made on the rows a previous move left (`save_move_if_unchanged`): in one
        # message, the same lock as the lock's (so that what follows sees every transaction
        # that held it), then the log rows and the game row written only if the game, its
        # table and its seats are still as that move left them.
        self.relock = (f"SELECT 1 FROM {game_table} g JOIN {quote(Table._meta.db_table)} t "
                       f"ON t.{quote('id')} = g.{quote('table_id')} "
                       f"WHERE g.{quote('id')} = %s{lock}")
        self._checked = (f"WITH unchanged AS (SELECT g.{quote('id')} FROM {game_table} g "
                         f"WHERE g.{quote('id')} = %s AND {_fingerprint('g')} = %s)")
        self._checked_update = (f"UPDATE {game_table} g SET {known_set_list} "
                                f"WHERE g.{quote('id')} = (SELECT {quote('id')} FROM unchanged)"
                                f"{returning}")
        # The log rows' values typed, for an INSERT ... SELECT (text for a CharField: a
        # cast to varchar(n) would cut a long value where the INSERT refuses it).
        self._typed_log_row = "(" + ", ".join(
            f"%s::{'text' if f.get_internal_type() == 'CharField' else f.db_type(conn)}"
            for f in log_fields) + ")"
        self._logged_updates: dict[int, str] = {0: self.update_game}
        # What each prepared statement is (see _Prepared), by name: the lock and the seats,
        # and one save per count of log rows, added as moves need them.
        self.definitions = {"chudopoly_lock": _numbered(self.game_and_table),
                            "chudopoly_seats": _numbered(self.seats),
                            "chudopoly_relock": _numbered(self.relock)}
        self.converters = {model: _converters(model, orjson_json=conn.vendor == "postgresql")
                           for model in (Game, Table, Seat)}
        self.attnames = {model: tuple(f.attname for f in model._meta.concrete_fields)
                         for model in (Game, Table, Seat)}
        # Whether a model's instances may skip __init__: nothing listens for its init signals
        # (asked once: asking is a walk of the receivers, twice a row).
        self.plain_init = {model: not (pre_init.has_listeners(model)
                                       or post_init.has_listeners(model))
                           for model in (Game, Table, Seat)}
        # Made on the first lock, once the connection is open (_timestamp_loader).
        self.timestamp_loader: tuple[int, type] | bool | None = False

    def insert_log_rows(self, count: int) -> str:
        """One INSERT of `count` log rows."""
        return self._insert_log + ", ".join([self._log_row] * count)

    def save_name(self, count: int) -> str:
        """The prepared statement of the save with `count` log rows (defined on first use)."""
        name = f"chudopoly_save_{count}"
        if name not in self.definitions:
            self.definitions[name] = _numbered(self.logged_update(count))
        return name

    def checked_save_name(self, count: int) -> str:
        """The prepared statement of the checked save with `count` log rows: its values are
        the game's id and fingerprint, the log rows' and the move columns' (PostgreSQL)."""
        name = f"chudopoly_checked_{count}"
        if name not in self.definitions:
            rows = ", ".join([self._typed_log_row] * count)
            columns = ", ".join(connection.ops.quote_name(f.column) for f in self.log_fields)
            text = (f"{self._checked}, logged AS ({self._insert_log.split(' VALUES ')[0]} "
                    f"SELECT * FROM (VALUES {rows}) AS v({columns}) "
                    f"WHERE EXISTS (SELECT 1 FROM unchanged)) {self._checked_update}"
                    if count else f"{self._checked} {self._checked_update}")
            self.definitions[name] = _numbered(text)
        return name

    def logged_update(self, count: int) -> str:
        """The game row's UPDATE, inserting `count` log rows first (PostgreSQL)."""
        text = self._logged_updates.get(count)
        if text is None:
            text = f"WITH logged AS ({self.insert_log_rows(count)}) {self.update_game}"
            self._logged_updates[count] = text
        return text


def _fingerprint(alias: str) -> str:
    """SQL for a digest of everything a move reads besides the game's state (which changes
    only with its version): the game's changing columns, its table's row and its seats' rows.
    Equal digests: a move made on rows that gave it would be made on the rows as they are."""
    quote = connection.ops.quote_name
    table_id = f"{alias}.{quote('table_id')}"
    columns = ", ".join(f"{alias}.{quote(Game._meta.get_field(name).column)}"
                        for name in MOVE_COLUMNS if name != "state")
    return (f"md5(ROW({columns}, "
            f"(SELECT t::text FROM {quote(Table._meta.db_table)} t "
            f"WHERE t.{quote('id')} = {table_id}), "
            f"(SELECT string_agg(s::text, ',' ORDER BY s.{quote('id')}) "
            f"FROM {quote(Seat._meta.db_table)} s WHERE s.{quote('table_id')} = {table_id})"
            f")::text)")


def _numbered(sql: str) -> str:
    """A statement with psycopg's %s placeholders as PREPARE's $1, $2, ..."""
    pieces = sql.split("%s")
    return "".join(f"{piece}${i}" for i, piece in enumerate(pieces[:-1], 1)) + pieces[-1]


@functools.cache
def _execute_calls(calls: tuple[tuple[str, int], ...]) -> str:
    """The EXECUTEs of the named statements, each with its count of values, in one text."""
    return "; ".join(f"EXECUTE {name}({', '.join(['%s'] * count)})" if count
                     else f"EXECUTE {name}" for name, count in calls)


class _Prepared:
    """Which of the move's statements the server holds prepared for one psycopg connection.

    PREPARE outlives the transaction it is sent in (a rollback keeps it), and lasts as long as
    the server's session; a pooled connection keeps it from one holder to the next. So the set
    is kept on the psycopg connection itself, and a statement not in it is prepared in the
    same message as its first EXECUTE. After a database error in one of these messages the
    set is not trusted: the next move asks the server which it holds and drops them, and
    starts again from none (two round trips, once)."""

    ATTRIBUTE = "_chudopoly_prepared"

    @classmethod
    def missing(cls, conn: BaseDatabaseWrapper, calls: tuple[tuple[str, int], ...]
                ) -> tuple[list[str], Any]:
        """Which of these statements the connection has not prepared, and the psycopg
        connection whose set holds them once sent."""
        raw = conn.connection
        held = getattr(raw, cls.ATTRIBUTE, cls)  # the class itself: a connection never seen
        if held is cls or held is None:
            if held is None:  # unknown since an error: forget what the server has of ours
                cls._deallocate_ours(conn)
            held = set()
            setattr(raw, cls.ATTRIBUTE, held)
        return [name for name, _ in calls if name not in held], raw

    @classmethod
    def sent(cls, raw: Any, names: Sequence[str]) -> None:
        getattr(raw, cls.ATTRIBUTE).update(names)

    @classmethod
    def unknown(cls, raw: Any) -> None:
        setattr(raw, cls.ATTRIBUTE, None)

    @staticmethod
    def _deallocate_ours(conn: BaseDatabaseWrapper) -> None:
        with conn.cursor() as cursor:
            cursor.execute("SELECT name FROM pg_prepared_statements "
                           "WHERE starts_with(name, 'chudopoly_')")
            names = [row[0] for row in cursor.fetchall()]
            if names:
                cursor.execute("; ".join(f"DEALLOCATE {name}" for name in names))


def _execute_prepared(conn: BaseDatabaseWrapper, cursor: Any, stmts: _Statements,
                      calls: tuple[tuple[str, int], ...], params: list[Any], *, first: bool,
                      tail: str = "") -> int:
    """EXECUTE the named prepared statements (each with its count of values) in one message,
    preparing first any this connection has not prepared; `first`: the transaction's first
    statement (its BEGIN rides along, `_execute_first`). Returns how many results precede the
    first EXECUTE's (the PREPAREs')."""
    missing, raw = _Prepared.missing(conn, calls)
    sql = _execute_calls(calls) + tail
    if missing:
        sql = "".join(f"PREPARE {name} AS {stmts.definitions[name]}; " for name in missing) + sql
    try:
        if first:
            _execute_first(conn, cursor, sql, params)
        else:
            cursor.execute(sql, params)
    except Exception:
        _Prepared.unknown(raw)
        raise
    if missing:
        _Prepared.sent(raw, missing)
    return len(missing)


class _LaneContext:
    """What psycopg's Transformer adapts by: the connection and an adapters map of its own."""

    def __init__(self, raw: Any, adapters: Any) -> None:
        self.connection = raw
        self.adapters = adapters


class _Lane:
    """A psycopg connection's own way of sending a move's messages (PostgreSQL): one simple
    query through libpq, answered by the results of each of its statements, with no cursor.

    Kept on the psycopg connection (a pooled connection keeps it from one holder to the
    next); `of` makes it on first use."""

    ATTRIBUTE = "_chudopoly_lane"

    def __init__(self, raw: Any, timestamp_loader: tuple[int, type] | None) -> None:
        from psycopg import errors, generators, pq
        from psycopg.adapt import AdaptersMap, Transformer

        self.raw = raw
        self.pgconn = raw.pgconn
        adapters = AdaptersMap(raw.adapters)
        if timestamp_loader:
            adapters.register_loader(*timestamp_loader)
        self.tx = Transformer(_LaneContext(raw, adapters))
        self.escape: Callable[[bytes], bytes] = pq.Escaping(raw.pgconn).escape_literal
        self.encoding: str = raw.info.encoding
        self.execute = generators.execute
        self.error_from_result = errors.error_from_result
        self.interface_error = errors.InterfaceError
        self.ok = (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK)
        self.fatal = pq.ExecStatus.FATAL_ERROR

    @classmethod
    def of(cls, conn: BaseDatabaseWrapper, stmts: _Statements) -> _Lane | None:
        """The lane of this connection, or None where the move's statements go through
        Django's cursor (SQLite; server-side binding; a connection not speaking UTF-8, which
        the literals are written in)."""
        if not stmts.batched:
            return None
        if conn.connection is None:
            conn.ensure_connection()
        loader = stmts.timestamp_loader
        if loader is False:
            loader = stmts.timestamp_loader = _timestamp_loader(conn)
        raw = conn.connection
        lane = getattr(raw, cls.ATTRIBUTE, None)
        if lane is None:
            lane = cls(raw, loader or None)
            setattr(raw, cls.ATTRIBUTE, lane)
        return lane if lane.encoding == "utf-8" else None

    def begin(self) -> bytes | None:
        """What a message must start with so that it runs in the transaction psycopg would
        have begun: b"BEGIN; " where psycopg would send a plain BEGIN first (Django's `atomic`,
        nothing sent yet), b"" in a transaction or in autocommit, None where psycopg's BEGIN
        would say more (an isolation level, an access mode): the cursor then sends it."""
        raw = self.raw
        if raw.autocommit or self.pgconn.transaction_status != _IDLE:
            return b""
        if raw.isolation_level is None and raw.read_only is None and raw.deferrable is None:
            return b"BEGIN; "
        return None

    def send(self, conn: BaseDatabaseWrapper, sql: bytes) -> list[Any]:
        """Send one simple query and return its statements' results, as Django's cursor would
        run it: refused in a transaction already doomed, database errors raised as Django's
        (and noted on the connection), seen by the connection's execute wrappers and logged
        where queries are logged."""
        conn.validate_no_broken_transaction()
        if conn.execute_wrappers or conn.queries_logged:
            return self._observed(conn, sql)
        return self._exchange(conn, sql)

    def _exchange(self, conn: BaseDatabaseWrapper, sql: bytes) -> list[Any]:
        raw = self.raw
        with conn.wrap_database_errors:
            with raw.lock:
                self.pgconn.send_query(sql)
                results = raw.wait(self.execute(self.pgconn))
            for result in results:
                if result.status not in self.ok:
                    if result.status == self.fatal:
                        raise self.error_from_result(result, encoding=self.encoding)
                    raise self.interface_error(f"unexpected result {result.status!r}")
        return results

    def _observed(self, conn: BaseDatabaseWrapper, sql: bytes) -> list[Any]:
        def run(text: str, params: Any, many: bool, context: Any) -> list[Any]:
            return self._exchange(conn, text.encode(self.encoding))

        executor: Callable[..., list[Any]] = run
        for wrapper in reversed(conn.execute_wrappers):
            executor = functools.partial(wrapper, executor)
        text = sql.decode(self.encoding)
        started = time.monotonic()
        try:
            return executor(text, None, False, {"connection": conn, "cursor": None})
        finally:
            if conn.queries_logged:
                conn.queries_log.append({"sql": text,
                                         "time": f"{time.monotonic() - started:.3f}"})


def _send_prepared(conn: BaseDatabaseWrapper, lane: _Lane, stmts: _Statements,
                   calls: Sequence[tuple[str, Sequence[bytes]]], *,
                   head: bytes = b"", tail: bytes = b"") -> list[Any]:
    """EXECUTE the named prepared statements with these literals in one message on the
    lane (after the BEGIN psycopg would send, `_Lane.begin`), preparing first any this
    connection has not prepared (`_Prepared`); the results of the EXECUTEs (and of the
    tail's statements) are the last of those returned. The caller has checked that
    `lane.begin()` is not None."""
    missing, raw = _Prepared.missing(conn, tuple((name, len(values)) for name, values in calls))
    begin = lane.begin() or b""  # asked after `missing`, which may have run a query
    sql = b"; ".join(b"EXECUTE %s(%s)" % (name.encode(), b", ".join(values)) if values
                     else b"EXECUTE " + name.encode() for name, values in calls)
    if missing:
        sql = b"".join(f"PREPARE {name} AS {stmts.definitions[name]}; ".encode()
                       for name in missing) + sql
    try:
        results = lane.send(conn, begin + head + sql + tail)
    except Exception:
        _Prepared.unknown(raw)
        raise
    if missing:
        _Prepared.sent(raw, missing)
    return results


def _select_list(model: type[Model], alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def _converters(model: type[Model], *, orjson_json: bool = False
                ) -> list[tuple[int, list[_Converter], Any]]:
    """For each column that needs one, the converters the ORM would run on its value (a plain
    JSONField's decoding done by orjson with `orjson_json`)."""
    out = []
    for index, field in enumerate(model._meta.concrete_fields):
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if orjson_json and isinstance(field, JSONField) and field.decoder is None:
            found = [_load_json if convert == field.from_db_value else convert
                     for convert in found]
        if found:
            out.append((index, found, col))
    return out


def _timestamp_loader(conn: Any) -> tuple[int, type] | None:
    """psycopg's own compiled timestamptz loader, for the lock's rows, where it reads every
    value as Django's would: Django's loader (psycopg's pure-Python parser, then the tzinfo
    replaced by the connection's) cost about 10 µs a value, nine values a move, and the
    compiled one half a microsecond. Checked on a value read both ways: same datetime, same
    tzinfo object (the session's TimeZone is UTC, as Django sets it). None where it is not
    so, or not PostgreSQL: the rows are read as the ORM reads them."""
    if conn.vendor != "postgresql":
        return None
    import psycopg

    raw = conn.connection
    oid = raw.adapters.types["timestamptz"].oid
    django_loader = raw.adapters.get_loader(oid, psycopg.pq.Format.TEXT)
    compiled = psycopg.adapters.get_loader(oid, psycopg.pq.Format.TEXT)
    if django_loader is None or compiled is None or django_loader is compiled:
        return None
    sample = b"2026-12-05 21:29:15.123456+00"
    theirs = django_loader(oid, raw).load(sample)
    ours = compiled(oid, raw).load(sample)
    if theirs != ours or theirs.tzinfo is not ours.tzinfo:
        return None
    return oid, compiled


def _statements() -> tuple[Any, _Statements]:
    """This thread's connection (looked up once: `connection` is a proxy that looks it up on
    every attribute) and its statements, made on first use."""
    conn = connections[DEFAULT_DB_ALIAS]
    made = getattr(conn, "_move_statements", None)
    if made is None:
        made = _Statements(conn)
        conn._move_statements = made
    return conn, made


def _instance(model: type[Model], values: Sequence[Any], conn: Any, stmts: _Statements) -> Any:
    """The model instance `Model.from_db` would build from a row of every concrete column:
    its attributes set straight in its `__dict__` (what `Model.__init__` does field by field
    through `setattr`, a sixth of the lock's CPU for six rows), unless something listens
    for the model's init signals, which then get them as ever."""
    row = list(values)
    for index, converters, col in stmts.converters[model]:
        for convert in converters:
            row[index] = convert(row[index], col, conn)
    if not stmts.plain_init[model]:
        return model.from_db(conn.alias, None, row)
    obj = model.__new__(model)
    obj.__dict__.update(zip(stmts.attnames[model], row, strict=True))
    state = obj._state = ModelState()
    state.adding = False
    state.db = conn.alias
    return obj


def lock_game_and_table(game_id: int) -> tuple[Game, tuple[Seat, ...]] | None:
    """The game row, with its table row as `game.table`, both locked until the commit, and the
    table's seats in lobby order, read once the lock is held."""
    conn, stmts = _statements()
    lane = _Lane.of(conn, stmts)
    if lane is not None and lane.begin() is not None:
        key = [stmts.pk_literal(lane, game_id)]
        *_, game_result, seat_result = _send_prepared(
            conn, lane, stmts, (("chudopoly_lock", key), ("chudopoly_seats", key)))
        if not game_result.ntuples:
            return None
        tx = lane.tx
        tx.set_pgresult(game_result)
        row = tx.load_row(0, tuple)
        tx.set_pgresult(seat_result)
        seat_rows = tx.load_rows(0, seat_result.ntuples, tuple)
        tx.set_pgresult(None)  # hold no result past the move
    else:
        found = _lock_through_cursor(conn, stmts, game_id)
        if found is None:
            return None
        row, seat_rows = found
    width = len(Game._meta.concrete_fields)
    game = _instance(Game, row[:width], conn, stmts)
    table = _instance(Table, row[width:], conn, stmts)
    Game._meta.get_field("table").set_cached_value(game, table)
    return game, tuple(_instance(Seat, seat, conn, stmts) for seat in seat_rows)


def _lock_through_cursor(conn: Any, stmts: _Statements, game_id: int
                         ) -> tuple[Sequence[Any], Sequence[Sequence[Any]]] | None:
    """The lock's rows read through Django's cursor (SQLite; PostgreSQL where the lane does
    not serve): the game and table row, and the seats' rows."""
    with conn.cursor() as cursor:
        loader = stmts.timestamp_loader
        if loader is False:
            loader = stmts.timestamp_loader = _timestamp_loader(conn)
        if loader:
            cursor.cursor.adapters.register_loader(*loader)
        if stmts.batched:
            skip = _execute_prepared(conn, cursor, stmts,
                                     (("chudopoly_lock", 1), ("chudopoly_seats", 1)),
                                     [game_id, game_id], first=True)
            for _ in range(skip):  # past the PREPAREs' empty results
                cursor.nextset()
            row = cursor.fetchone()
            cursor.nextset()
        else:
            cursor.execute(stmts.game_and_table, [game_id])
            row = cursor.fetchone()
            if row is not None:
                cursor.execute(stmts.seats, [game_id])
        if row is None:
            return None
        return row, cursor.fetchall()


# Log rows appended to a game and not yet written: its instance's attribute, written by the
# next `save_move` (or `write_log`) in the same transaction.
_PENDING = "_pending_log_rows"


def append_action(game: Game, *, seat: int, action: dict[str, Any], events: list[Any],
                  source: str) -> None:
    """Append one row to the game's log at its current version (append-only, as
    GameAction.save keeps it). The row is written with the game row by `save_move`, in the
    same round trip; a reader of the log before then calls `write_log` first."""
    values = (game.pk, game.version, seat, action, events, source, timezone.now())
    game.__dict__.setdefault(_PENDING, []).append(values)


def write_log(game: Game) -> None:
    """Write the game's appended log rows now, for a reader of the log in this transaction."""
    pending = game.__dict__.pop(_PENDING, None)
    if not pending:
        return
    conn, stmts = _statements()
    with conn.cursor() as cursor:
        cursor.execute(stmts.insert_log_rows(len(pending)), _log_params(stmts, pending))


def _log_params(stmts: _Statements, pending: Sequence[Sequence[Any]]) -> list[Any]:
    """The appended log rows' values as the cursor takes them."""
    return [save(value) for values in pending
            for save, value in zip(stmts.log_savers, values, strict=True)]


def save_move(game: Game, *, commit: bool = False) -> None:
    """Write the appended log rows and the columns a move changes (MOVE_COLUMNS); `updated_at`
    is set to now, as auto_now would.

    `commit`: the caller's transaction has nothing left to do, so on PostgreSQL the COMMIT of
    its outermost `atomic` goes in the same message (the atomic's own commit then finds the
    transaction ended and sends nothing; its on-commit hooks run as ever). Inside another
    transaction (a savepoint: the tests' own) the save is sent alone."""
    conn, stmts = _statements()
    if not stmts.log_with_update:
        write_log(game)
    pending = game.__dict__.pop(_PENDING, ())
    game.updated_at = timezone.now()
    lane = _Lane.of(conn, stmts)
    if lane is not None and lane.begin() is not None:
        values = [literal(lane, value) for row in pending
                  for literal, value in zip(stmts.log_literals, row, strict=True)]
        values.extend(literal(lane, getattr(game, attname))
                      for attname, literal in stmts.move_literals)
        values.append(stmts.pk_literal(lane, game.pk))
        tail = b"; COMMIT" if commit and _outermost_atomic(conn) else b""
        results = _send_prepared(conn, lane, stmts, ((stmts.save_name(len(pending)), values),),
                                 tail=tail)
        _keep_fingerprint(game, results[-2] if tail else results[-1])
        return
    game.__dict__.pop(_FINGERPRINT, None)
    params = _log_params(stmts, pending)
    params.extend(save(getattr(game, attname)) for attname, save in stmts.move_savers)
    params.append(game.pk)
    tail = "; COMMIT" if commit and stmts.batched and _outermost_atomic(conn) else ""
    with conn.cursor() as cursor:
        if stmts.batched:
            _execute_prepared(conn, cursor, stmts, ((stmts.save_name(len(pending)), len(params)),),
                              params, first=False, tail=tail)
        else:  # SQLite, or server-side binding: the save alone, as `atomic` commits apart
            cursor.execute(stmts.logged_update(len(pending)), params)


# The game's fingerprint as its last save read it back (PostgreSQL's lane): its instance's
# attribute, which a later move on the same instance (`save_move_if_unchanged`) checks.
_FINGERPRINT = "_move_fingerprint"


def _keep_fingerprint(game: Game, result: Any) -> None:
    if result.ntuples == 1:
        game.__dict__[_FINGERPRINT] = result.get_value(0, 0)
    else:
        game.__dict__.pop(_FINGERPRINT, None)


def saved_alone(game: Game) -> Game | None:
    """A copy of a game instance that a move may be made on and saved alone
    (`save_move_if_unchanged`): the instance its last save left, read back as written
    (its fingerprint known), on a connection that is in no transaction and speaks to
    PostgreSQL through the lane. None otherwise: the move takes the locked path."""
    if _FINGERPRINT not in game.__dict__ or _PENDING in game.__dict__:
        return None
    conn, stmts = _statements()
    if conn.in_atomic_block or not stmts.batched or conn.connection is None:
        return None
    raw = conn.connection
    if not raw.autocommit or raw.pgconn.transaction_status != _IDLE:
        return None
    copy = Game.__new__(Game)
    copy.__dict__.update(game.__dict__)
    state = copy._state = ModelState()
    state.adding = False
    state.db = game._state.db
    state.fields_cache = dict(game._state.fields_cache)
    return copy


def save_move_if_unchanged(game: Game) -> bool:
    """Save a move made on a copy from `saved_alone` in one round trip, in a transaction of
    its own: the game and table rows locked as the lock locks them, then the log rows and the
    game row's KNOWN_MOVE_COLUMNS written only if the game, its table and its seats are as its
    last save left them (their fingerprint), committed before the answer comes back. False
    when they were not (another move, a clock, a seat's change came first): nothing was
    written, and the move is to be made again on the locked path. A database error rolls
    the transaction back and is raised."""
    conn, stmts = _statements()
    lane = _Lane.of(conn, stmts)
    if lane is None or lane.begin() != b"":
        return False
    pending = game.__dict__.pop(_PENDING, ())
    fingerprint = game.__dict__.pop(_FINGERPRINT)
    game.updated_at = timezone.now()
    key = stmts.pk_literal(lane, game.pk)
    values = [key, lane.escape(fingerprint)]
    values.extend(literal(lane, value) for row in pending
                  for literal, value in zip(stmts.log_literals, row, strict=True))
    values.extend(literal(lane, getattr(game, attname))
                  for attname, literal in stmts.known_literals)
    try:
        # No BEGIN or COMMIT: the statements of one simple query with neither run as one
        # transaction of their own (PostgreSQL's implicit transaction block), committed after
        # the last and before the server says it is ready, which the results are read up to;
        # an error rolls it all back. Each statement still takes its own snapshot, so the
        # check sees whatever committed before the lock was granted.
        results = _send_prepared(conn, lane, stmts,
                                 (("chudopoly_relock", [key]),
                                  (stmts.checked_save_name(len(pending)), values)))
    except BaseException:
        if lane.pgconn.transaction_status != _IDLE:  # not expected: roll back what is open
            # A connection gone cannot: Django closes it as unusable.
            with contextlib.suppress(Exception):
                lane.pgconn.exec_(b"ROLLBACK")
        raise
    _keep_fingerprint(game, results[-1])
    return _FINGERPRINT in game.__dict__


def _outermost_atomic(conn: BaseDatabaseWrapper) -> bool:
    """Whether the running transaction is one `atomic` block's own, committed when it ends:
    not a savepoint within another, not already doomed to roll back."""
    return (conn.in_atomic_block and conn.commit_on_exit and not conn.savepoint_ids
            and not conn.needs_rollback)


def _execute_first(conn: BaseDatabaseWrapper, cursor: Any, sql: str, params: list[Any]) -> None:
    """Execute a transaction's first statement, with its BEGIN in the same message.

    psycopg, out of autocommit (Django's `atomic`), sends the BEGIN of each transaction on its
    own round trip just before the first statement. When it would send a plain BEGIN now,
    this sends "BEGIN; <sql>" as one simple-protocol message instead, with psycopg's
    autocommit flag up for that one execute so that it adds none; the cursor is left on the
    statement's own result. Anything else (a transaction already open, an isolation level or
    access mode that makes psycopg's BEGIN longer) goes as psycopg would send it."""
    raw = conn.connection
    pgconn = getattr(raw, "pgconn", None)
    if (pgconn is None or getattr(raw, "_autocommit", None) is not False
            or pgconn.transaction_status != _IDLE or raw.isolation_level is not None
            or raw.read_only is not None or raw.deferrable is not None):
        cursor.execute(sql, params)
        return
    raw._autocommit = True  # psycopg's own flag: its public setter refuses inside a transaction
    try:
        cursor.execute("BEGIN; " + sql, params)
    finally:
        raw._autocommit = False
    cursor.nextset()  # past BEGIN's empty result
