"""Every write to tables, seats and games. Views, consumers and tasks all call these.

Services take keyword-only arguments, run under `transaction.atomic`, lock the row they change
(`select_for_update`) and announce changes only after the commit (games/platform/broadcast.py). They
know nothing about HTTP or websockets; they raise `TableError` with a sentence a player can read.
"""

from __future__ import annotations

import functools
import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games.platform import abandoned, broadcast, clocks, moverows, scheduler
from games.platform.identity import Viewer, call_sign_problem, identity_digest
from games.platform.interface import (
    GameEngine,
    IllegalAction,
    RulesetInvalid,
    default_game,
    expand_action,
    get_game,
)
from games.platform.invites import invite_token_new
from games.platform.jsontext import compact_json
from games.platform.lobby import lobby_changed_on_commit
from games.platform.models import ChatMessage, Game, Seat, Table

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # REFERENCE §7: no I, O, 0 or 1
CODE_LENGTH = 4

# RULINGS "Clocks": defaults, maximums, and the minimums once two or more humans sit down.
TURN_SECONDS_DEFAULT, TURN_SECONDS_MAX, TURN_SECONDS_MIN_HUMANS = 60, 300, 30
RESPONSE_SECONDS_DEFAULT, RESPONSE_SECONDS_MAX, RESPONSE_SECONDS_MIN_HUMANS = 45, 120, 15

# Quick Play (RULINGS, REFERENCE §7 "Quick Play bench"): you and three bots, the bench of
# aggressive, aggressive, conservative played by our medium, medium and easy levels.
QUICK_PLAY_TURN_SECONDS, QUICK_PLAY_RESPONSE_SECONDS = 0, 45

MOVE_LINK_MINUTES = 10
REMATCH_SECONDS = 60  # how long each player has to answer a rematch offer
CHAT_MAX_CHARS = 500
CHAT_BURST = 5  # messages ...
CHAT_BURST_SECONDS = 10  # ... per this many seconds, per author and table
CHAT_MIN_GAP_SECONDS = 1.0

BOT_MOVE_TASK = "tables.bot_move"
BOT_NAMES = ("Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel")


class TableError(Exception):
    """A refused request. `code` is stable for programs; `message` is for people."""

    def __init__(self, message: str, *, code: str = "refused", field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


class ActionRefused(TableError):
    pass


# --- helpers -----------------------------------------------------------------------------------


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    return (code or "").strip().upper()


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("That table does not exist.", code="not_found") from None


def _viewer_seat(table: Table, viewer: Viewer) -> Seat | None:
    if not viewer.known:
        return None
    return table.seats.filter(viewer.seat_filter()).first()


def _require_host(table: Table, viewer: Viewer) -> Seat:
    seat = _viewer_seat(table, viewer)
    if seat is None or table.host_id != seat.pk:
        raise TableError("Only the host can do that.", code="not_host")
    return seat


def _free_position(table: Table) -> int:
    taken = set(table.seats.values_list("position", flat=True))
    for position in range(table.max_seats):
        if position not in taken:
            return position
    raise TableError(f"The table is full (max {table.max_seats}).", code="full")


def _check_name_free(table: Table, name: str, *, exclude_seat: int | None = None) -> None:
    clash = table.seats.filter(name__iexact=name)
    if exclude_seat is not None:
        clash = clash.exclude(pk=exclude_seat)
    if clash.exists():
        raise TableError("That name is already taken at this table.", code="name_taken",
                         field="name")


def _player_name(viewer: Viewer, name: str | None) -> str:
    if viewer.user_id:
        # Signed-in users play as themselves; a bot account's name says it is one.
        from accounts.bots import is_bot_account, marked_name

        return marked_name((viewer.username or "Player")[:16],
                           is_bot=is_bot_account(viewer.user_id))
    name = (name or "").strip()
    problem = call_sign_problem(name)
    if problem:
        raise TableError(problem, code="bad_name", field="name")
    return name


def _pass_host(table: Table, leaving: Seat) -> None:
    """Hosting passes to the longest-seated human still here; bots never host."""
    if table.host_id != leaving.pk:
        return
    heir = (table.seats.filter(is_bot=False, away=False).exclude(pk=leaving.pk)
            .order_by("joined_at", "pk").first())
    table.host = heir
    table.save(update_fields=["host", "updated_at"])


def _humans(table: Table) -> int:
    return table.seats.filter(is_bot=False).count()


def validate_clocks(turn_seconds: int, response_seconds: int) -> None:
    if not 0 <= turn_seconds <= TURN_SECONDS_MAX:
        raise TableError(f"The turn clock is 0 (off) to {TURN_SECONDS_MAX} seconds.",
                         code="bad_clock", field="turn_seconds")
    if not 0 <= response_seconds <= RESPONSE_SECONDS_MAX:
        raise TableError(f"The response clock is 0 (off) to {RESPONSE_SECONDS_MAX} seconds.",
                         code="bad_clock", field="response_seconds")


def _announce(table: Table, *, version: int | None = None, lobby: bool = True) -> None:
    broadcast.table_changed_on_commit(table.code, version=version)
    if lobby and table.is_public:
        lobby_changed_on_commit(table.game_kind)


# --- tables and seats --------------------------------------------------------------------------


def table_create(*, viewer: Viewer, name: str | None, ruleset_spec: Mapping[str, Any] | None,
                 max_seats: int = 4, turn_seconds: int = TURN_SECONDS_DEFAULT,
                 response_seconds: int = RESPONSE_SECONDS_DEFAULT, is_public: bool = False,
                 game_kind: str | None = None) -> Table:
    """Open a table with the creator seated as host (of the default game unless named)."""
    if not viewer.known:
        raise TableError("Your browser has no session; enable cookies to play.", code="no_session")
    game_kind = game_kind or default_game()
    engine = get_game(game_kind)
    if not engine.min_seats <= max_seats <= engine.max_seats:
        raise TableError(f"A table seats {engine.min_seats}–{engine.max_seats} players.",
                         code="bad_seats", field="max_seats")
    validate_clocks(turn_seconds, response_seconds)
    try:
        ruleset = engine.resolve_ruleset(dict(ruleset_spec or {}))
    except RulesetInvalid as exc:
        raise TableError(exc.message, code="bad_ruleset", field=exc.field) from None
    player_name = _player_name(viewer, name)

    for _attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=_new_code(), game_kind=game_kind, ruleset_spec=dict(ruleset_spec or {}),
                    ruleset=ruleset, ruleset_label=engine.ruleset_label(ruleset),
                    max_seats=max_seats, turn_seconds=turn_seconds,
                    response_seconds=response_seconds, is_public=is_public,
                    invite_token="" if is_public else invite_token_new(),
                )
                seat = Seat.objects.create(table=table, position=0, name=player_name,
                                           user_id=viewer.user_id, guest_key=viewer.guest_key)
                table.host = seat
                table.save(update_fields=["host"])
                if is_public:
                    lobby_changed_on_commit(game_kind)
                return table
        except IntegrityError:
            continue  # the random code was taken; draw another
    raise TableError("Could not find a free table code; try again.", code="busy")


def seat_join(*, table_id: int, viewer: Viewer, name: str | None) -> Seat:
    """Take a free seat (before the start, or between games)."""
    if not viewer.known:
        raise TableError("Your browser has no session; enable cookies to play.", code="no_session")
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status == Table.Status.PLAYING:
            raise TableError("The game is in progress; you can watch until it ends.",
                             code="in_progress")
        if table.status == Table.Status.CLOSED:
            raise TableError("That table is closed.", code="closed")
        existing = _viewer_seat(table, viewer)
        if existing is not None:
            return existing
        player_name = _player_name(viewer, name)
        _check_name_free(table, player_name)
        seat = Seat.objects.create(table=table, position=_free_position(table), name=player_name,
                                   user_id=viewer.user_id, guest_key=viewer.guest_key)
        if table.host_id is None:
            table.host = seat
            table.save(update_fields=["host", "updated_at"])
        if table.rematch:
            # Sitting down while a rematch is proposed is saying yes to it.
            answers = {**table.rematch.get("answers", {}), str(seat.pk): "yes"}
            table.rematch = {**table.rematch, "answers": answers}
            table.save(update_fields=["rematch", "updated_at"])
        _announce(table)
        return seat


def seat_leave(*, table_id: int, viewer: Viewer) -> None:
    """Leave the table. Before the start (or between games) the seat is freed; during a game a
    bot plays it until its owner comes back (RULINGS "Leaving and timing out")."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None:
            return
        if table.status == Table.Status.PLAYING:
            seat.away = True
            seat.away_reason = "left"
            # A game paused for another device is not continued anywhere once its player left.
            seat.move_token = None
            seat.move_token_expires = None
            seat.save(update_fields=["away", "away_reason", "move_token", "move_token_expires"])
            _unpause_locked(table)
            _pass_host(table, seat)
            game = _current_game(table)
            if game is not None and _leave_game_locked(game, table, seat):
                return  # the game applied what leaving means in it (and announced it)
            if game is not None:
                transaction.on_commit(lambda: schedule_bot_moves(game_id=game.pk))
            _announce(table)
            return
        _pass_host(table, seat)
        seat.delete()
        if not table.seats.filter(is_bot=False).exists():
            table.status = Table.Status.CLOSED
            table.host = None
            table.rematch = {}
            table.save(update_fields=["status", "host", "rematch", "updated_at"])
        elif table.rematch:
            _settle_rematch(table, force=False)  # the one still to answer may have left
        _announce(table)


def _leave_game_locked(game: Game, table: Table, seat: Seat) -> bool:
    """A game whose rules say what leaving does (optional `leave_actions(state, seat)`:
    Boardroom's "anyone who leaves goes bankrupt to the bank") gets those actions applied for
    the leaver, whoever owes the decision now, logged with source "leave". False when the game
    has no such rule (a bot then plays the seat until its owner returns)."""
    engine = get_game(game.game_kind)
    leave_actions = getattr(engine, "leave_actions", None)
    if leave_actions is None or seat.game_seat is None:
        return False
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.RUNNING:
        return False
    actions = leave_actions(game.state, seat.game_seat)
    if not actions:
        return False
    old_deadlines = dict(game.deadlines or {})
    for action in actions:
        apply_locked(game, table, engine, seat.game_seat, action, source="leave",
                     any_time=True)
        if game.status != Game.Status.RUNNING:
            break
    settle_locked(game, table, engine, old_deadlines)
    return True


def seat_return(*, table_id: int, viewer: Viewer) -> Seat | None:
    """A human whose seat a bot was playing (they left, timed out three times in a row, or
    lost their connection) takes it back."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None or not seat.away:
            return seat
        seat.away = False
        seat.away_reason = ""
        seat.save(update_fields=["away", "away_reason"])
        if table.host_id is None:
            table.host = seat
            table.save(update_fields=["host", "updated_at"])
        _announce(table, lobby=False)
        # The bots stopped if nobody else was playing (games/platform/abandoned.py): they go on now.
        game = _current_game(table)
        if game is not None and game.status == Game.Status.RUNNING:
            game_id = game.pk
            transaction.on_commit(lambda: schedule_bot_moves(game_id=game_id))
        return seat


def seat_add_bot(*, table_id: int, viewer: Viewer, level: str = "") -> Seat:
    """Seat a bot at `level`, one of the game's `bot_levels` (anything else: the weakest)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        _require_host(table, viewer)
        if table.status not in (Table.Status.OPEN, Table.Status.FINISHED):
            raise TableError("Bots can only be added before the game starts.", code="in_progress")
        if ranked_table(table):
            raise TableError("Ranked tables are for people only: no bots.", code="ranked")
        levels = get_game(table.game_kind).bot_levels()
        if level not in levels:
            level = next(iter(levels))
        taken = {n.lower() for n in table.seats.values_list("name", flat=True)}
        name = next((f"Bot {n}" for n in BOT_NAMES if f"bot {n.lower()}" not in taken), None)
        if name is None:
            name = f"Bot {secrets.token_hex(2)}"
        seat = Seat.objects.create(table=table, position=_free_position(table), name=name,
                                   is_bot=True, bot_level=level)
        _announce(table)
        return seat


def ranked_table(table: Table) -> bool:
    """Whether the ladder paired this table for a ranked game (a host seats no bots there)."""
    return Table.objects.filter(pk=table.pk, ladder_match__ranked=True).exists()


def seat_remove_bot(*, table_id: int, viewer: Viewer, seat_id: int) -> None:
    with transaction.atomic():
        table = _locked_table(table_id)
        _require_host(table, viewer)
        if table.status not in (Table.Status.OPEN, Table.Status.FINISHED):
            raise TableError("Bots can only be removed before the game starts.",
                             code="in_progress")
        deleted, _ = table.seats.filter(pk=seat_id, is_bot=True).delete()
        if not deleted:
            raise TableError("That seat is not a bot.", code="not_bot")
        _announce(table)


# --- games -------------------------------------------------------------------------------------


def _current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def current_game(table: Table) -> Game | None:
    return _current_game(table)


def _deal(table: Table, engine: GameEngine, *, number: int) -> Game:
    seats = list(table.seats.order_by("position"))
    if len(seats) < engine.min_seats:
        raise TableError(f"Need at least {engine.min_seats} players.", code="too_few")
    seed = secrets.randbits(62)
    # RULINGS: seat order is shuffled at the start with the game's seeded generator.
    order = list(seats)
    random.Random(seed).shuffle(order)
    # A game may need to know who is a bot at the deal (Boardroom: bots answer trades at once,
    # against bots the one human moves first, and a turn cap ends a game of programs alone:
    # our bots and bot accounts); the game stores it in its own ruleset.
    deal_ruleset = getattr(engine, "deal_ruleset", None)
    if deal_ruleset is not None:
        from accounts.bots import bot_account_ids

        accounts = bot_account_ids({s.user_id for s in order if s.user_id})
        ruleset = deal_ruleset(table.ruleset, bots=[s.is_bot for s in order],
                               programs=[s.user_id in accounts for s in order])
    else:
        ruleset = table.ruleset
    state = engine.create(ruleset=ruleset, seats=len(order), seed=seed)
    players = []
    for game_seat, seat in enumerate(order):
        seat.game_seat = game_seat
        seat.away = False
        seat.away_reason = ""
        seat.auto_move = False  # each game starts with the player deciding (a rematch too)
        seat.save(update_fields=["game_seat", "away", "away_reason", "auto_move"])
        players.append({"seat_id": seat.pk, "name": seat.name, "bot": seat.is_bot,
                        "user_id": seat.user_id})
    humans = sum(1 for s in seats if not s.is_bot)
    if humans >= 2:
        # RULINGS: with two or more humans the clocks may not be off or shorter than the minimum.
        table.turn_seconds = max(table.turn_seconds, TURN_SECONDS_MIN_HUMANS)
        table.response_seconds = max(table.response_seconds, RESPONSE_SECONDS_MIN_HUMANS)
    game = Game.objects.create(table=table, number=number, game_kind=table.game_kind,
                               ruleset=ruleset, seed=seed, seat_count=len(order),
                               players=players, state=state, version=0)
    game.deadlines = clocks.next_deadlines(engine, state, table, {}, players=players)
    game.clock_due = clocks.earliest(game.deadlines)
    game.save(update_fields=["deadlines", "clock_due"])
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "turn_seconds", "response_seconds", "updated_at"])
    _announce(table, version=0)
    from challenges.events import game_started_on_commit  # the accounts' event streams

    game_started_on_commit(game, table.code)
    transaction.on_commit(lambda: schedule_bot_moves(game_id=game.pk))
    return game


def game_start(*, table_id: int, viewer: Viewer) -> Game:
    with transaction.atomic():
        table = _locked_table(table_id)
        _require_host(table, viewer)
        if table.status != Table.Status.OPEN:
            raise TableError("This table has already started.", code="started")
        return _deal(table, get_game(table.game_kind), number=1)


def game_rematch(*, table_id: int, viewer: Viewer) -> Game | None:
    """The host proposes a rematch: same rules and clocks, a new seed, the seats reshuffled
    (RULINGS). With no other human at the table it starts at once. Otherwise every other human
    is asked (`rematch_answer`); the game starts when all have answered, or at the deadline
    with those who accepted (bots stay). Asked again after the deadline, it starts then.
    Returns the new game, or None while answers are awaited."""
    with transaction.atomic():
        table = _locked_table(table_id)
        host = _require_host(table, viewer)
        if table.status != Table.Status.FINISHED:
            raise TableError("A rematch can start only after the game has ended.",
                             code="not_finished")
        if table.rematch:
            answers = table.rematch.get("answers", {})
            waiting = [s.name for s in table.seats.filter(is_bot=False)
                       if str(s.pk) not in answers]
            if waiting and not _rematch_overdue(table):
                raise TableError(f"Waiting for {', '.join(waiting)} to answer (a minute at "
                                 "most).", code="waiting")
            return _settle_rematch(table, force=True)
        others = table.seats.filter(is_bot=False).exclude(pk=host.pk)
        if not others.exists():
            return _rematch_deal(table)
        deadline = clocks.now() + timedelta(seconds=REMATCH_SECONDS)
        table.rematch = {"deadline": deadline.isoformat(), "answers": {str(host.pk): "yes"}}
        table.save(update_fields=["rematch", "updated_at"])
        _announce(table)
        table_id = table.pk
        transaction.on_commit(lambda: scheduler.run_at(
            deadline, "tables.rematch_due", table_id=table_id))
        return None


def rematch_answer(*, table_id: int, viewer: Viewer, accept: bool) -> Game | None:
    """A human asked to a rematch says yes or no; the last answer starts it."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if not table.rematch or table.status != Table.Status.FINISHED:
            raise TableError("No rematch is being proposed.", code="no_rematch")
        if seat is None or seat.is_bot:
            raise TableError("Only the players at the table are asked.", code="no_seat")
        answers = {**table.rematch.get("answers", {}), str(seat.pk): "yes" if accept else "no"}
        table.rematch = {**table.rematch, "answers": answers}
        table.save(update_fields=["rematch", "updated_at"])
        return _settle_rematch(table, force=False)


def rematch_due(*, table_id: int) -> Game | None:
    """The rematch deadline came: start with those who accepted (nothing if none is open)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.rematch or table.status != Table.Status.FINISHED:
            return None
        if not _rematch_overdue(table):
            return None  # a newer offer with a later deadline; its own task comes
        return _settle_rematch(table, force=True)


def _rematch_overdue(table: Table) -> bool:
    deadline = table.rematch.get("deadline")
    return bool(deadline) and datetime.fromisoformat(deadline) <= clocks.now()


def _settle_rematch(table: Table, *, force: bool) -> Game | None:
    """Start the offered rematch once every human has answered (or `force`: the deadline).

    Humans who declined or did not answer give up their seats (they can watch, and sit down
    again before the next game); bots stay. With fewer than the game's minimum left, the offer
    lapses and the table waits, as after any game."""
    answers = table.rematch.get("answers", {})
    humans = list(table.seats.filter(is_bot=False))
    if not force and any(str(s.pk) not in answers for s in humans):
        _announce(table)
        return None
    keep = {s.pk for s in humans if answers.get(str(s.pk)) == "yes" or s.pk == table.host_id}
    for seat in humans:
        if seat.pk not in keep:
            seat.delete()
    table.rematch = {}
    engine = get_game(table.game_kind)
    if table.seats.count() < engine.min_seats or not keep:
        table.save(update_fields=["rematch", "updated_at"])
        _announce(table)
        return None
    table.save(update_fields=["rematch", "updated_at"])
    return _rematch_deal(table)


def _rematch_deal(table: Table) -> Game:
    last = table.games.aggregate(n=Max("number"))["n"] or 0
    return _deal(table, get_game(table.game_kind), number=last + 1)


def table_play_vs_bots(*, viewer: Viewer, name: str | None, levels: Sequence[str],
                       ruleset_spec: Mapping[str, Any] | None = None,
                       turn_seconds: int = QUICK_PLAY_TURN_SECONDS,
                       response_seconds: int = QUICK_PLAY_RESPONSE_SECONDS,
                       game_kind: str | None = None) -> Table:
    """A private table with this player and one bot per level in `levels`, already started.

    Quick Play is the game's `quick_play_levels` with no turn clock and a 45 s response clock
    (RULINGS); the "play vs bots" form picks 1–4 bots, their levels, the rules and the clocks.
    """
    levels = list(levels)
    game_kind = game_kind or default_game()
    engine = get_game(game_kind)
    if not 1 <= len(levels) <= engine.max_seats - 1:
        raise TableError(f"Choose 1–{engine.max_seats - 1} bots.", code="bad_bots",
                         field="bots")
    if any(level not in engine.bot_levels() for level in levels):
        raise TableError("Choose a level for each bot.", code="bad_bots", field="bots")
    abandoned.bot_games_make_room(viewer=viewer)  # at most BOT_GAMES_PER_PLAYER at once
    with transaction.atomic():
        table = table_create(viewer=viewer, name=name, ruleset_spec=ruleset_spec,
                             max_seats=len(levels) + 1, turn_seconds=turn_seconds,
                             response_seconds=response_seconds, is_public=False,
                             game_kind=game_kind)
        for level in levels:
            seat_add_bot(table_id=table.pk, viewer=viewer, level=level)
        game_start(table_id=table.pk, viewer=viewer)
    table.refresh_from_db()
    return table


@dataclass(frozen=True)
class Move:
    """What one applied move left behind, for the mover's own push: the game and table rows
    as committed, the table's seats as read under the game's lock (None when the move ended
    the game, which changes seats), and the (version, events) log rows it appended."""

    game: Game
    table: Table
    seats: tuple[Seat, ...] | None
    logged: tuple[tuple[int, list[Any]], ...]


class KnownRows(Protocol):
    """Rows of a table a process holds from an earlier move (a `Move`, or the snapshot a
    push made of one)."""

    game: Game | None
    table: Table
    seats: Sequence[Seat] | None


def decision_token(engine: GameEngine, state: Mapping[str, Any], seat: int | None) -> str:
    """A short token for what `seat` is deciding in `state` (the engine's `decision_key`),
    carried by the page beside the version ("" for nothing to decide, or a spectator). A move
    sent from an older page is still applied when this token has not changed: what changed
    was someone else's business (another chain answered, paid or timed out)."""
    if seat is None:
        return ""
    key = engine.decision_key(state if type(state) is dict else dict(state), seat)
    if key is None:
        return ""
    return _token_of(compact_json(key, sort_keys=True))


@functools.lru_cache(maxsize=1024)
def _token_of(raw: str) -> str:
    """The token of a decision key's JSON text. A table's seats that wait share one key
    (["wait"]) move after move, and a charge's key holds for its answers: every push of a
    move asks for each seat's token, and a look-up costs a fifth of a digest."""
    return hashlib.blake2s(raw.encode(), digest_size=8).hexdigest()


def table_apply_action(*, game_id: int, seat: int, action: Mapping[str, Any],
                       expected_version: int, source: str = "player",
                       expected_decision: str | None = None) -> Game:
    """Apply one engine action for one engine seat, or refuse and change nothing.

    Locks the game row, checks version and seat, applies through the engine, appends to the
    log, and after the commit tells the table's sockets the new version and wakes the bots and
    the clocks.
    """
    return table_move(game_id=game_id, seat=seat, action=action,
                      expected_version=expected_version, source=source,
                      expected_decision=expected_decision).game


def table_move(*, game_id: int, seat: int, action: Mapping[str, Any], expected_version: int,
               viewer: Viewer | None = None, source: str = "player",
               expected_decision: str | None = None, known: KnownRows | None = None) -> Move:
    """`table_apply_action`, returning the rows the mover's push renders from. With `viewer`,
    the seat must still be theirs (checked under the lock): a socket may act on the seat it
    last saw without looking it up again, and a seat moved away in between is refused.

    A move made on an older version is applied when `expected_decision` (the page's
    `decision_token` for this seat) is still the seat's token: the table moved on, but not
    this seat's decision. The engine judges the move itself, as always.

    `known`: the rows this process last saw of the table (a previous move's, or the snapshot
    it left), on which the move is made first and saved in one round trip if they are still
    the database's (`_move_on_known`); otherwise, or when the move is refused there, it is
    made on the rows read under the lock."""
    if known is not None:
        made = _move_on_known(known, game_id=game_id, seat=seat, action=action,
                              expected_version=expected_version, viewer=viewer, source=source)
        if made is not None:
            return made
    with transaction.atomic():
        # The table row is locked in the same statement (FOR UPDATE covers the join), and the
        # seats come in the same round trip once it is held (games/platform/moverows.py).
        locked = moverows.lock_game_and_table(game_id)
        if locked is None:
            raise ActionRefused("That game does not exist.", code="not_found")
        game, seats = locked
        if viewer is not None and not _owns_game_seat(game, seats, seat, viewer):
            raise ActionRefused("That is not your seat.", code="forged")
        if game.status != Game.Status.RUNNING:
            raise ActionRefused("The game is already finished.", code="finished")
        if game.table.paused_at is not None:
            raise ActionRefused(PAUSED_MESSAGE, code="paused")
        engine = get_game(game.game_kind)
        if expected_version != game.version:
            if _already_made(game, seat, action, expected_version):
                raise ActionRefused("That move was already made.", code="duplicate")
            if not (expected_decision and 0 <= expected_version < game.version
                    and expected_decision == decision_token(engine, game.state, seat)):
                raise ActionRefused("The table moved on before your move arrived; look again.",
                                    code="stale")
        table = game.table
        old_deadlines = dict(game.deadlines or {})
        # One page action may stand for several engine actions (accept and pay); all or none.
        try:
            steps = expand_action(engine, game.state, seat, dict(action))
        except IllegalAction as exc:
            raise ActionRefused(exc.reason, code="illegal") from None
        rows = tuple(apply_locked(game, table, engine, seat, step, source=source)
                     for step in steps)
        # A decision the clock did not make ends the seat's run of expiries.
        clocks.reset_timeouts(game, seat)
        settle_locked(game, table, engine, old_deadlines, seats=seats, last=True)
        running = game.status == Game.Status.RUNNING
        return Move(game=game, table=table, seats=seats if running else None,
                    logged=rows)


def _move_on_known(known: KnownRows, *, game_id: int, seat: int, action: Mapping[str, Any],
                   expected_version: int, viewer: Viewer | None, source: str) -> Move | None:
    """A move made on rows this process already holds, saved in one round trip with its
    COMMIT (moverows.save_move_if_unchanged), or None for the locked path: the rows are not
    a save's own (read by a page, not left by a move), not of this game, not the version the
    move was made on, of a game over or paused; the move is refused here, ends the game, or
    the database's rows changed meanwhile (another process's move, a clock, a seat). The
    locked path then makes it, or refuses it, on the rows as they are; nothing was written.
    The tables' sockets hear of it and the bots owed are scheduled after the commit, as
    there."""
    basis, table, seats = known.game, known.table, known.seats
    if (basis is None or seats is None or basis.pk != game_id or basis.version != expected_version
            or basis.status != Game.Status.RUNNING or table.paused_at is not None):
        return None
    game = moverows.saved_alone(basis)
    if game is None:
        return None
    seats = tuple(seats)
    if viewer is not None and not _owns_game_seat(game, seats, seat, viewer):
        return None
    engine = get_game(game.game_kind)
    old_deadlines = dict(game.deadlines or {})
    try:
        steps = expand_action(engine, game.state, seat, dict(action))
        rows = []
        for step in steps:
            rows.append(_apply_step(game, engine, seat, step, source=source))
            if engine.result(game.state) is not None:
                return None  # the end of a game writes more than the game row
    except (IllegalAction, ActionRefused):
        return None
    clocks.reset_timeouts(game, seat)
    game.deadlines = clocks.next_deadlines(engine, game.state, table, old_deadlines,
                                           players=game.players)
    game.clock_due = clocks.earliest(game.deadlines)
    owed = _owed_work(game, engine, seats)
    if not moverows.save_move_if_unchanged(game):
        return None
    broadcast.table_changed(table.code, version=game.version)
    for work in owed:
        broadcast.after_push(work)
    return Move(game=game, table=table, seats=seats, logged=tuple(rows))


DUPLICATE_LOOKBACK = 20  # log rows searched for a move sent again from an older page


def _already_made(game: Game, seat: int, action: Mapping[str, Any],
                  expected_version: int) -> bool:
    """Whether this seat already made this very move since `expected_version` (the same frame
    sent twice, perhaps with other seats' moves in between)."""
    if not 0 <= expected_version < game.version:
        return False
    wanted = dict(action)
    rows = (game.actions.filter(version__gte=expected_version, seat=seat)
            .order_by("-version").values_list("action", flat=True)[:DUPLICATE_LOOKBACK])
    return any(row == wanted for row in rows)


def _owns_game_seat(game: Game, seats: Sequence[Seat], seat: int, viewer: Viewer) -> bool:
    """Whether engine seat `seat` of `game` belongs to the table seat `viewer` owns."""
    players = game.players or []
    if not 0 <= seat < len(players):
        return False
    seat_id = players[seat].get("seat_id")
    row = next((s for s in seats if s.pk == seat_id), None)
    return row is not None and row.game_seat == seat and viewer.owns(row)


def _acts_any_time(engine: GameEngine, state: Mapping[str, Any], seat: int,
                   action: Mapping[str, Any]) -> bool:
    """A move the game allows out of turn that its legal list cannot enumerate (Commonwealth's
    deal offers, made "at any time"): the optional `acts_any_time(state, seat, action)`. The
    engine still judges the move itself."""
    check = getattr(engine, "acts_any_time", None)
    return bool(check is not None and check(dict(state), seat, dict(action)))


def apply_locked(game: Game, table: Table, engine: GameEngine, seat: int,
                 action: Mapping[str, Any], *, source: str,
                 note: Mapping[str, Any] | None = None,
                 any_time: bool = False) -> tuple[int, list[Any]]:
    """One action on a game whose row and table row the caller holds locked (a player's move,
    a bot's, or the clock's): apply it, append it to the log, finish the game if it ended.
    `note` is a site event stored before the engine's (the clock's "ran out of time").
    Returns the log row it appended (version, events). The caller saves with
    `settle_locked` after its last action, which writes the log rows with the game row."""
    # `to_decide` says who must act; the engine's legal actions say who may (a seat may
    # scoop at any time, owed a decision or not). `any_time`: an action the game allows out
    # of turn (leaving), never a player's frame.
    logged = _apply_step(game, engine, seat, action, source=source, note=note,
                         any_time=any_time)
    result = engine.result(game.state)
    if result is None:
        return logged
    game.status = Game.Status.FINISHED
    game.result = result
    game.finished_at = timezone.now()
    from ladder.services import ladder_game_finished  # results and ratings, same transaction

    moverows.write_log(game)  # the ladder reads the whole log (who left), this row included
    ladder_game_finished(game=game)
    from challenges.events import game_finished_on_commit  # the accounts' event streams

    game_finished_on_commit(game, table.code)
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status", "updated_at"])
    for s in table.seats.filter(away=True):
        s.away = False
        s.away_reason = ""
        s.save(update_fields=["away", "away_reason"])
    return logged


def _apply_step(game: Game, engine: GameEngine, seat: int, action: Mapping[str, Any], *,
                source: str, note: Mapping[str, Any] | None = None,
                any_time: bool = False) -> tuple[int, list[Any]]:
    """One action applied to the game instance and appended to its log (`apply_locked`
    without the end of the game)."""
    if (not any_time and seat not in engine.to_decide(game.state)
            and dict(action) not in engine.legal_actions(game.state, seat)
            and not _acts_any_time(engine, game.state, seat, action)):
        raise ActionRefused("It is not your decision right now.", code="not_your_turn")
    try:
        applied = engine.apply(game.state, seat, dict(action))
    except IllegalAction as exc:
        raise ActionRefused(exc.reason, code="illegal") from None
    events = [dict(note), *applied.events] if note else applied.events
    moverows.append_action(game, seat=seat, action=dict(action), events=events, source=source)
    logged = (game.version, events)
    game.state = applied.state
    game.version += 1
    return logged


def _owed_work(game: Game, engine: GameEngine, seats: Sequence[Seat] | None) -> list[Any]:
    """What a running game's save owes once committed and pushed: a task per bot seat and per
    seat on automatic moves owed a decision now. Known here, under the lock (or on rows the
    save checks): scheduling them needs no second read of the game (the task checks the
    version anyway)."""
    game_id, version = game.pk, game.version
    deciding = engine.to_decide(game.state)
    if not deciding:
        bots: set[int] = set()
    elif seats is not None:
        bots = {s.game_seat for s in seats if s.bot_controlled and s.game_seat is not None}
    else:
        bots = _bot_seat_numbers(game)
    owed = {seat: decision_token(engine, game.state, seat)
            for seat in deciding if seat in bots}
    work = []
    if owed:
        work.append(lambda: _schedule_bot_tasks(game_id, version, owed))
    autos = _auto_moves_owed(game, engine, deciding, seats)
    if autos:
        work.append(lambda: _schedule_auto_tasks(game_id, version, autos))
    return work


def settle_locked(game: Game, table: Table, engine: GameEngine,
                  old_deadlines: Mapping[str, Any], *,
                  seats: Sequence[Seat] | None = None, last: bool = False) -> None:
    """Save a game after its actions: the deadlines now owed, then (after the commit) the
    table's sockets hear the new version and the bots are scheduled. The clocks need nothing
    scheduled: the due-clock sweep finds the saved `clock_due` (games/platform/clocks.py).
    `seats` are the table's seats if the caller read them under the lock (no second read).
    `last`: the caller's transaction ends with this save, so its COMMIT may ride with it
    (moverows.save_move); the save is then the last statement sent here."""
    running = game.status == Game.Status.RUNNING
    game.deadlines = clocks.next_deadlines(engine, game.state, table, old_deadlines,
                                           players=game.players) if running else {}
    game.clock_due = clocks.earliest(game.deadlines)
    _announce(table, version=game.version, lobby=not running)
    if running:
        for work in _owed_work(game, engine, seats):
            transaction.on_commit(functools.partial(broadcast.after_push, work))
    moverows.save_move(game, commit=last)


# --- bots --------------------------------------------------------------------------------------


def _bot_seats(game: Game) -> dict[int, Seat]:
    return {s.game_seat: s for s in Seat.objects.filter(table_id=game.table_id,
                                                        game_seat__isnull=False)
            if s.bot_controlled and s.game_seat is not None}


def _bot_seat_numbers(game: Game) -> set[int]:
    return {s.game_seat for s in Seat.objects.filter(table_id=game.table_id,
                                                     game_seat__isnull=False)
            .only("game_seat", "is_bot", "away")
            if s.bot_controlled and s.game_seat is not None}


def _schedule_bot_tasks(game_id: int, version: int, seats: Mapping[int, str]) -> None:
    """One task per bot seat owed a decision, with the seat's decision token at `version`."""
    delay = bot_pause_seconds()
    for seat, decision in seats.items():
        scheduler.run_after(delay, BOT_MOVE_TASK, game_id=game_id, seat=seat,
                            version=version, decision=decision)


def bot_pause_seconds() -> float:
    """How long a bot waits before it acts (BOT_PAUSE_SECONDS; 0 in tests)."""
    return settings.BOT_PAUSE_SECONDS


def schedule_bot_moves(*, game_id: int, version: int | None = None) -> int:
    """Ask the scheduler for one move per bot-controlled seat owed a decision at `version`.

    Tasks carry the version, so a late or duplicate task finds the table moved on and does
    nothing. Returns how many were scheduled.
    """
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.table.paused_at is not None:
        return 0
    if version is not None and version != game.version:
        return 0
    if not abandoned.someone_plays(game.table_id):
        return 0  # nobody plays it: the bots wait (games/platform/abandoned.py)
    engine = get_game(game.game_kind)
    bots = _bot_seat_numbers(game)
    deciding = engine.to_decide(game.state)
    owed = {seat: decision_token(engine, game.state, seat) for seat in deciding if seat in bots}
    _schedule_bot_tasks(game.pk, game.version, owed)
    # The seats whose auto move is on are the same kind of background work (a restart or a
    # player coming back finds them going again).
    autos = _auto_moves_owed(game, engine, deciding, None)
    _schedule_auto_tasks(game.pk, game.version, autos)
    return len(owed) + len(autos)


def game_bot_move(*, game_id: int, seat: int, version: int,
                  decision: str | None = None) -> Game | None:
    """One bot decision, if the game is still where the task expected it: at `version`, or
    later with the seat's decision unchanged (`decision`, its token when the task was made:
    another seat's move does not hold this bot up)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    engine = get_game(game.game_kind)
    if game.version != version and not (
            decision and version < game.version
            and decision == decision_token(engine, game.state, seat)):
        return None
    if not abandoned.someone_plays(game.table_id):
        return None  # every human left or is gone past the grace (games/platform/abandoned.py)
    bots = _bot_seats(game)
    if seat not in bots:
        return None
    if seat not in engine.to_decide(game.state):
        return None
    view = engine.view(game.state, seat)
    level = bots[seat].bot_level if bots[seat].is_bot else engine.bot_standin_level()
    action = engine.bot_action(view, level)
    try:
        # The bot chose from the game as read now; its token lets the move through if another
        # seat's independent move lands first.
        return table_apply_action(game_id=game.pk, seat=seat, action=action,
                                  expected_version=game.version, source="bot",
                                  expected_decision=decision_token(engine, game.state, seat))
    except ActionRefused as exc:
        if exc.code in ("stale", "finished", "not_your_turn", "duplicate", "paused"):
            return None
        raise


# --- auto move ---------------------------------------------------------------------------------

AUTO_MOVE_TASK = "tables.auto_move"


def auto_move_seconds() -> float:
    """How long a scheduled auto move waits (AUTO_MOVE_SECONDS): the player sees the position
    first, and any button they press meanwhile cancels it (the move changes the version)."""
    return float(getattr(settings, "AUTO_MOVE_SECONDS", 2.0))


def _has_auto_move(engine: GameEngine) -> bool:
    return callable(getattr(engine, "auto_move", None))


def _auto_moves_owed(game: Game, engine: GameEngine, deciding: Sequence[int],
                     seats: Sequence[Seat] | None) -> dict[int, str]:
    """Seat -> decision token, for the seats owed a decision whose auto move is on and has a
    move to make now (the caller holds the game, or schedules from a fresh read)."""
    if not deciding or not _has_auto_move(engine):
        return {}
    if seats is None:
        seats = tuple(Seat.objects.filter(table_id=game.table_id, auto_move=True,
                                          is_bot=False))
    players = game.players or []
    on = {s.game_seat for s in seats
          if s.auto_move and not s.is_bot and s.game_seat is not None
          and s.game_seat < len(players) and players[s.game_seat].get("seat_id") == s.pk}
    return {seat: decision_token(engine, game.state, seat) for seat in deciding
            if seat in on and engine.auto_move(dict(game.state), seat) is not None}


def _schedule_auto_tasks(game_id: int, version: int, seats: Mapping[int, str]) -> None:
    for seat, decision in seats.items():
        scheduler.run_after(auto_move_seconds(), AUTO_MOVE_TASK, game_id=game_id, seat=seat,
                            version=version, decision=decision)


def game_auto_move(*, game_id: int, seat: int, version: int,
                   decision: str | None = None) -> Game | None:
    """The scheduled auto move of one seat, if nothing happened since it was scheduled: the
    game still at `version` (any move, a button the player pressed included, cancels it; the
    move's own settling schedules the next one), the toggle still on, the game not paused."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if (game is None or game.status != Game.Status.RUNNING or game.version != version
            or game.table.paused_at is not None):
        return None
    engine = get_game(game.game_kind)
    if not _has_auto_move(engine):
        return None
    players = game.players or []
    row = Seat.objects.filter(table_id=game.table_id, game_seat=seat, is_bot=False).first()
    if (row is None or not row.auto_move or seat >= len(players)
            or players[seat].get("seat_id") != row.pk):
        return None
    if decision is not None and decision != decision_token(engine, game.state, seat):
        return None
    action = engine.auto_move(dict(game.state), seat)
    if action is None:
        return None
    try:
        return table_apply_action(game_id=game.pk, seat=seat, action=action,
                                  expected_version=version, source="auto")
    except ActionRefused as exc:
        if exc.code in ("stale", "finished", "not_your_turn", "duplicate", "paused"):
            return None
        raise


def seat_auto_move_set(*, table_id: int, viewer: Viewer, on: bool) -> Seat:
    """The player turns their auto move on or off (the toggle by the dice). Turning it on
    schedules a move at once if there is one to make."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None:
            raise TableError("Take a seat to use auto move.", code="no_seat")
        if not _has_auto_move(get_game(table.game_kind)):
            raise TableError("This game has no auto move.", code="no_auto_move")
        if seat.auto_move != on:
            seat.auto_move = on
            seat.save(update_fields=["auto_move"])
            _announce(table, lobby=False)
        game = _current_game(table)
        if on and game is not None and game.status == Game.Status.RUNNING:
            game_id = game.pk
            transaction.on_commit(lambda: schedule_auto_moves(game_id=game_id))
        return seat


def schedule_auto_moves(*, game_id: int) -> int:
    """Schedule the auto moves owed now (the toggle just turned on); returns how many."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.table.paused_at is not None:
        return 0
    engine = get_game(game.game_kind)
    autos = _auto_moves_owed(game, engine, engine.to_decide(game.state), None)
    _schedule_auto_tasks(game.pk, game.version, autos)
    return len(autos)


# --- continue a game against bots on another device ---------------------------------------------

CONTINUE_LINK_HOURS = 24
PAUSED_MESSAGE = ("This game is paused until it is continued on another device; "
                  "press “Resume here” to play on this one.")


def out_place(game: Game | None, seat: int | None) -> int | None:
    """The place of a seat that is out of a game still running (an engine `out_place`:
    Boardroom's bankrupt seats while the others play on), or None."""
    if game is None or seat is None or game.status != Game.Status.RUNNING:
        return None
    place = getattr(get_game(game.game_kind), "out_place", None)
    return place(game.state, seat) if place is not None else None


def is_bot_game(table: Table) -> bool:
    """One human and the rest bots: a game saved for its player ("Continue game")."""
    return table.seats.filter(is_bot=False).count() == 1 and table.seats.filter(
        is_bot=True).exists()


def continue_link_create(*, table_id: int, viewer: Viewer) -> str:
    """Pause this game against bots and make a one-time link, valid for 24 hours, that moves
    it to the browser that opens it (the move-seat link's machinery, with a longer life)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None:
            raise TableError("You have no seat at this table.", code="no_seat")
        game = _current_game(table)
        if (table.status != Table.Status.PLAYING or game is None
                or game.status != Game.Status.RUNNING):
            raise TableError("Only a running game can be continued elsewhere.",
                             code="not_running")
        if not is_bot_game(table):
            raise TableError("Only a game against bots is continued this way; at a table "
                             "with other people, use “Move seat”.", code="not_bot_game")
        seat.move_token = secrets.token_urlsafe(32)
        seat.move_token_expires = timezone.now() + timedelta(hours=CONTINUE_LINK_HOURS)
        seat.save(update_fields=["move_token", "move_token_expires"])
        if table.paused_at is None:
            table.paused_at = clocks.now()
            table.save(update_fields=["paused_at", "updated_at"])
        _announce(table, lobby=False)
        return seat.move_token


def _unpause_locked(table: Table) -> None:
    """Resume a paused game (the caller holds the table): every clock gets the paused time
    back, and the bots and auto moves go on after the commit."""
    if table.paused_at is None:
        return
    game = _current_game(table)
    if game is not None and game.status == Game.Status.RUNNING:
        game = Game.objects.select_for_update().get(pk=game.pk)
        held = clocks.now() - table.paused_at
        if game.deadlines and held.total_seconds() > 0:
            game.deadlines = clocks.shift_deadlines(game.deadlines, held)
            game.clock_due = clocks.earliest(game.deadlines)
            game.save(update_fields=["deadlines", "clock_due", "updated_at"])
        game_id = game.pk
        transaction.on_commit(lambda: schedule_bot_moves(game_id=game_id))
    table.paused_at = None
    table.save(update_fields=["paused_at", "updated_at"])


def continue_here(*, table_id: int, viewer: Viewer) -> None:
    """The player of a paused game plays on in this browser: the link stops working."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None:
            raise TableError("You have no seat at this table.", code="no_seat")
        seat.move_token = None
        seat.move_token_expires = None
        seat.save(update_fields=["move_token", "move_token_expires"])
        _unpause_locked(table)
        _announce(table, lobby=False)


def games_to_continue(viewer: Viewer) -> list[dict[str, Any]]:
    """This browser's running games against bots, newest first, for the home page's
    "Continue game"."""
    if not viewer.known:
        return []
    mine = Seat.objects.filter(viewer.seat_filter(), table__status=Table.Status.PLAYING)
    out = []
    for seat in mine.select_related("table").order_by("-table__updated_at")[:20]:
        table = seat.table
        if not is_bot_game(table):
            continue
        game = _current_game(table)
        if game is None or game.status != Game.Status.RUNNING:
            continue
        if seat.away and out_place(game, seat.game_seat) is not None:
            continue  # out of it and gone: nothing of theirs is left to continue
        out.append({"table": table, "game_name": get_game(table.game_kind).name,
                    "bots": table.seats.filter(is_bot=True).count(),
                    "moves": game.version, "paused": table.paused_at is not None})
    return out


# --- move a seat to another device --------------------------------------------------------------


def seat_move_link_create(*, table_id: int, viewer: Viewer) -> str:
    """A single-use token, valid for 10 minutes, that hands this seat to whoever opens it."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        if seat is None:
            raise TableError("You have no seat at this table.", code="no_seat")
        seat.move_token = secrets.token_urlsafe(32)
        seat.move_token_expires = timezone.now() + timedelta(minutes=MOVE_LINK_MINUTES)
        seat.save(update_fields=["move_token", "move_token_expires"])
        return seat.move_token


def seat_move_claim(*, code: str, token: str, viewer: Viewer) -> Seat:
    if not viewer.known:
        raise TableError("Your browser has no session; enable cookies to play.", code="no_session")
    with transaction.atomic():
        # The table first, then the seat: the order every other service locks them in.
        found = (Seat.objects.filter(table__code=normalize_code(code), move_token=token)
                 .values_list("pk", "table_id").first())
        seat = None
        if found is not None:
            _locked_table(found[1])
            seat = (Seat.objects.select_for_update().select_related("table")
                    .filter(pk=found[0], move_token=token).first())
        if seat is None or seat.move_token_expires is None:
            raise TableError("That link was already used or never existed.", code="bad_token")
        if seat.move_token_expires < timezone.now():
            raise TableError("That link has expired; make a new one on the other device.",
                             code="expired")
        if seat.table.seats.filter(viewer.seat_filter()).exclude(pk=seat.pk).exists():
            raise TableError("This browser already has a seat at that table.", code="has_seat")
        # Remembered (as a digest) so the device it leaves is told where its seat went.
        seat.moved_from = identity_digest(Viewer(user_id=seat.user_id,
                                                 guest_key=seat.guest_key))
        seat.moved_at = timezone.now()
        seat.user_id = viewer.user_id
        seat.guest_key = viewer.guest_key
        seat.away = False
        seat.away_reason = ""
        # The old device's sockets no longer count as this seat's (they only watch now).
        seat.sockets.all().delete()
        seat.connections = 0
        seat.move_token = None
        seat.move_token_expires = None
        seat.save(update_fields=["user", "guest_key", "away", "away_reason", "connections",
                                 "move_token", "move_token_expires", "moved_at",
                                 "moved_from"])
        # A game paused to be continued here goes on now, in this browser.
        _unpause_locked(seat.table)
        broadcast.seat_moved_on_commit(seat.table.code, seat.pk)
        return seat


# --- chat --------------------------------------------------------------------------------------


def chat_post(*, table_id: int, viewer: Viewer, text: str) -> ChatMessage:
    """Post a line of table chat (plain text, rendered escaped), rate-limited per author."""
    text = " ".join((text or "").split())
    if not text:
        raise TableError("Write something first.", code="empty", field="text")
    if len(text) > CHAT_MAX_CHARS:
        raise TableError(f"Messages are at most {CHAT_MAX_CHARS} characters.", code="too_long",
                         field="text")
    if not viewer.known:
        raise TableError("Your browser has no session; enable cookies to chat.",
                         code="no_session")
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _viewer_seat(table, viewer)
        name = seat.name if seat is not None else None
        if name is None:
            raise TableError("Take a seat to chat at this table.", code="no_seat")
        now = timezone.now()
        recent = list(ChatMessage.objects.filter(
            table=table, author_key=viewer.author_key,
            created_at__gte=now - timedelta(seconds=CHAT_BURST_SECONDS),
        ).order_by("-created_at").values_list("created_at", flat=True))
        if recent and (now - recent[0]).total_seconds() < CHAT_MIN_GAP_SECONDS:
            raise TableError("Slow down a little.", code="rate_limited", field="text")
        if len(recent) >= CHAT_BURST:
            raise TableError("Slow down a little.", code="rate_limited", field="text")
        message = ChatMessage.objects.create(table=table, name=name, text=text,
                                             author_key=viewer.author_key)
        broadcast.chat_posted_on_commit(table.code, message.pk)
        return message
