"""Clocks: a deadline per seat owed a decision, the automatic decision when one runs out, and
the bot that takes a seat over when its owner is gone.

RULINGS "Clocks" and "Leaving and timing out", REFERENCE §7 "Timers" and "Bot takeover":

- Every seat owed a decision has its own deadline in `Game.deadlines` (so a restart keeps it):
  the turn clock for the turn holder's plays and discard, the response clock for answers and
  payments. One responder answering never resets another's. The turn clock pauses while
  responses are owed and resumes with what was left.
- When a deadline passes, the engine's `timeout_actions` are applied for that seat through the
  same locked path as a player's move (`services.apply_locked`), logged with source "clock",
  so replaying the log reproduces the state. A `response_timeout` / `turn_timeout` note is
  stored with the first action's events for the log line ("… ran out of time (45 s) …").
- Three expiries in a row, leaving, or staying disconnected past the grace period: a medium
  bot plays the seat until its owner comes back from their browser.
- Time the site was down is given back (seed 004: "both for moves and for auctions"), and
  nothing runs out while players cannot reach it (games/platform/outages.py): the sweep notes
  when it last ran (a long gap: the worker, beat, broker or database was down), the web
  processes keep a heartbeat; while a part is down the sweeps expire nothing, and once it is
  back every running deadline (seats' clocks, a lot's) and every disconnect grace moves
  forward by the outage, once.

Games with their own clocks (an engine `clock_seconds`, games/platform/interface.py; the board
games, whose guide fixes them): each seat owed a decision gets the game's seconds for it (5
minutes for one's own decisions, 60 s for a bid or a trade answer), starting over after each
move (the key is the seat's decision token, which every move of its own changes) and running
only for whoever must act. An auction with no first bid also has one deadline for the whole
lot (`lot_timeout`, entry "lot"), which passing does not restart. These clocks run only at
tables with two or more humans: a game against bots waits for its player. Such games may say
`bot_standins = False`: no bot ever plays a seat for its owner, so expiries in a row and lost
connections change nothing; only the clocks decide (a missed move clock: bankrupt to the bank).

How an expiry reaches a game: a move only stores its deadlines and their earliest,
`Game.clock_due`; it schedules nothing (publishing one Celery task per deadline cost the web
process about 1.6 ms of CPU on nearly half the moves, and the tasks waited in the worker's
memory). The periodic `tables.clocks_due` (every DUE_SWEEP_SECONDS, on Celery beat or the
in-process scheduler) finds the running games whose `clock_due` has passed, one query when none
has, and runs `game_clock_expire` for each: a clock runs out within about a second of its
deadline. The slower `tables.clocks_sweep` does the same and also the seats disconnected past
the grace, stale sockets, hosts and abandoned games. Every expiry locks the game row and looks
again at what is due under the lock, so it happens once however many sweeps (or a move at the
same instant) arrive.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.platform import abandoned, outages, scheduler
from games.platform.identity import Viewer
from games.platform.interface import GameEngine, get_game, registered_games
from games.platform.models import ClockSweep, Game, Seat, SeatSocket, Table
from games.platform.outages import downtime_seconds

log = logging.getLogger(__name__)

TAKEOVER_AFTER_TIMEOUTS = 3  # RULINGS: three decisions in a row timed out
DISCONNECT_GRACE_SECONDS = 30.0  # REFERENCE §7: a dropped player's room is kept 30 s
SWEEP_SECONDS = 2.0  # games/platform/apps.py runs the sweep this often
DUE_SWEEP_SECONDS = 1.0  # ...and the due-clock sweep this often: the most a clock runs over
SWEEP_LIMIT = 200

# A table socket checks in at least this often (games/platform/consumers.py); one silent for
# SOCKET_STALE_SECONDS belonged to a web process that died without closing it.
SOCKET_CHECK_IN_SECONDS = 20.0
SOCKET_STALE_SECONDS = 60.0

GRACE_TASK = "tables.seat_grace_check"
HOST_GRACE_TASK = "tables.host_grace_check"


def now() -> datetime:
    """The clocks' time (tests move it forward by patching this)."""
    return timezone.now()


def disconnect_grace_seconds() -> float:
    return float(getattr(settings, "SEAT_DISCONNECT_GRACE_SECONDS", DISCONNECT_GRACE_SECONDS))


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


LOT_KEY = "lot"  # the deadline of a whole lot (an auction with no first bid) in Game.deadlines
LOT_SECONDS = 60


def own_clocks(engine: GameEngine) -> bool:
    """Whether the game fixes its clocks itself (an engine `clock_seconds`)."""
    return callable(getattr(engine, "clock_seconds", None))


def standins(engine: GameEngine) -> bool:
    """Whether a bot may play a seat while its owner is away (the games' default)."""
    return bool(getattr(engine, "bot_standins", True))


def _humans(players: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for p in players if not p.get("bot"))


_AS_READ = (int, str, bool, type(None))  # read back from JSON as they are written


def _plain(value: Any) -> Any:
    """A decision key as it reads back from the JSON column (tuples become lists). The keys
    are lists of numbers and words, made on every move of a game with its own clocks: those
    are copied as they are, anything else written and read as JSON."""
    kind = type(value)
    if kind is list or kind is tuple:
        return [_plain(item) for item in value]
    if kind in _AS_READ:
        return value
    return json.loads(json.dumps(value))


def _seat_entries(deadlines: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    """Engine seat -> its deadline entry (other keys, such as "paused", are left out)."""
    return {int(key): entry for key, entry in (deadlines or {}).items()
            if key.isdigit() and isinstance(entry, Mapping) and entry.get("deadline")}


# --- computing deadlines -----------------------------------------------------------------------


def next_deadlines(engine: GameEngine, state: Mapping[str, Any], table: Table,
                   old: Mapping[str, Any], *,
                   players: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Per-seat deadlines for the decisions owed in `state`, given the previous ones.

    A seat keeps its deadline while it owes the same decision (answering and then paying one
    charge is one decision); the turn clock pauses (time left kept under "paused") whenever the
    turn holder does not owe the turn, and resumes with that time; a clock of 0 is off.
    A game with its own clocks gets `own_deadlines` instead (`players`: the game's, to tell a
    game against bots).
    """
    if own_clocks(engine):
        return own_deadlines(engine, state, old, players=players)
    at = now()
    from_state = getattr(engine, "state_clock_context", None)
    clock = (from_state(state) if callable(from_state)
             else engine.clock_context(engine.view(dict(state), None)))
    turn_seat, turn_number = clock["turn_seat"], clock["turn_number"]
    turn_key = f"turn:{turn_number}"
    owed = engine.to_decide(dict(state))
    paused = old.get("paused") if isinstance(old.get("paused"), Mapping) else None
    out: dict[str, Any] = {}
    for seat in owed:
        kind = "turn" if seat == turn_seat and not clock["pending"] else "response"
        key = turn_key if kind == "turn" else "response"
        prev = old.get(str(seat))
        if isinstance(prev, Mapping) and prev.get("key") == key:
            out[str(seat)] = dict(prev)
            continue
        seconds = table.turn_seconds if kind == "turn" else table.response_seconds
        if not seconds:
            continue
        left = float(seconds)
        if kind == "turn" and paused and paused.get("key") == key:
            left = float(paused["remaining"])
        out[str(seat)] = {"kind": kind, "key": key, "seconds": seconds,
                          "deadline": (at + timedelta(seconds=left)).isoformat()}
    turn_entry = out.get(str(turn_seat)) if turn_seat is not None else None
    if turn_seat is not None and not (turn_entry and turn_entry.get("key") == turn_key):
        # The turn holder owes no turn decision now (responses are owed): pause its clock.
        prev = old.get(str(turn_seat))
        if isinstance(prev, Mapping) and prev.get("key") == turn_key:
            left = (_when(prev["deadline"]) - at).total_seconds()
            out["paused"] = {"key": turn_key, "remaining": max(0.0, left),
                             "seconds": prev.get("seconds")}
        elif paused and paused.get("key") == turn_key:
            out["paused"] = dict(paused)
    return out


def own_deadlines(engine: GameEngine, state: Mapping[str, Any], old: Mapping[str, Any], *,
                  players: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Deadlines of a game with its own clocks (see the module's docstring): none against
    bots; a seat's clock kept while its decision token holds, else started over; the lot's
    deadline kept for as long as the lot waits for a first bid."""
    if players is not None and _humans(players) < 2:
        return {}
    at = now()
    st = dict(state)
    out: dict[str, Any] = {}
    seconds = int(engine.clock_seconds(st))  # type: ignore[attr-defined]
    for seat in engine.to_decide(st):
        key = ["decision", _plain(engine.decision_key(st, seat))]
        prev = old.get(str(seat))
        if isinstance(prev, Mapping) and prev.get("key") == key:
            out[str(seat)] = dict(prev)
        elif seconds:
            out[str(seat)] = {"kind": "decision", "key": key, "seconds": seconds,
                              "deadline": (at + timedelta(seconds=seconds)).isoformat()}
    lot_timeout = getattr(engine, "lot_timeout", None)
    if lot_timeout is not None and lot_timeout(st) is not None:
        prev = old.get(LOT_KEY)
        if isinstance(prev, Mapping) and prev.get("deadline"):
            out[LOT_KEY] = dict(prev)  # passing (a new bidder asked) does not restart it
        else:
            lot_seconds = int(getattr(engine, "lot_seconds", LOT_SECONDS))
            out[LOT_KEY] = {"kind": "lot", "seconds": lot_seconds,
                            "deadline": (at + timedelta(seconds=lot_seconds)).isoformat()}
    return out


def _lot_entry(deadlines: Mapping[str, Any]) -> Mapping[str, Any] | None:
    entry = (deadlines or {}).get(LOT_KEY)
    return entry if isinstance(entry, Mapping) and entry.get("deadline") else None


def lot_deadline(deadlines: Mapping[str, Any]) -> str | None:
    """When the waiting lot is cancelled (ISO), or None: for the page."""
    entry = _lot_entry(deadlines)
    return entry["deadline"] if entry else None


def earliest(deadlines: Mapping[str, Any]) -> datetime | None:
    entries = list(_seat_entries(deadlines).values())
    lot = _lot_entry(deadlines)
    if lot is not None:
        entries.append(lot)
    return min((_when(e["deadline"]) for e in entries), default=None)


def shift_deadlines(deadlines: Mapping[str, Any], by: timedelta) -> dict[str, Any]:
    """Every running clock moved `by` later (time the site was down, or a paused game)."""
    return {key: ({**entry, "deadline": (_when(entry["deadline"]) + by).isoformat()}
                  if isinstance(entry, Mapping) and entry.get("deadline") else entry)
            for key, entry in (deadlines or {}).items()}


def due_seats(deadlines: Mapping[str, Any], at: datetime) -> list[int]:
    """Seats whose clock has run out at `at`, in seat order."""
    return sorted(seat for seat, e in _seat_entries(deadlines).items()
                  if _when(e["deadline"]) <= at)


def reset_timeouts(game: Game, seat: int) -> None:
    """The seat's run of expiries starts again (the caller saves the game)."""
    if str(seat) in (game.timeouts or {}):
        game.timeouts = {k: v for k, v in game.timeouts.items() if k != str(seat)}


# --- when a clock runs out ---------------------------------------------------------------------


def _note(engine: GameEngine, game: Game, seat: int, entry: Mapping[str, Any],
          actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The event that says the clock decided (REFERENCE §7 `response_timeout`)."""
    seconds = entry.get("seconds")
    if entry.get("kind") == "decision":  # a game's own clock: what the rules did for the seat
        return {"type": "clock_timeout", "seat": seat, "seconds": seconds,
                "decision": actions[0].get("type") if actions else None}
    if entry.get("kind") == "turn":
        return {"type": "turn_timeout", "seat": seat, "seconds": seconds,
                "decision": actions[0].get("type") if actions else None}
    pending = engine.view(game.state, None).get("pending") or {}
    answers = [a for a in actions if a.get("answer") == "accept"]
    return {"type": "response_timeout", "seat": seat, "seconds": seconds,
            "decision": "accept" if answers else (actions[0].get("type") if actions else None),
            "kind": pending.get("kind"), "amount": pending.get("amount"),
            "source": pending.get("source"),
            "against": [a.get("target") for a in answers if a.get("target") is not None]}


def _time_out(game: Game, table: Table, engine: GameEngine, seat: int,
              entry: Mapping[str, Any]) -> bool:
    """Apply the automatic decision for one seat (the caller holds the locks). True if the
    clock decided anything."""
    from games.platform.services import ActionRefused, apply_locked

    actions = engine.timeout_actions(game.state, seat)
    note = _note(engine, game, seat, entry, actions)
    done = 0
    try:
        for action in actions:
            if game.status != Game.Status.RUNNING or seat not in engine.to_decide(game.state):
                break
            apply_locked(game, table, engine, seat, action, source="clock",
                         note=None if done else note)
            done += 1
    except ActionRefused:
        log.exception("game %s: the automatic decision for seat %s was refused", game.pk, seat)
    if not done and game.status == Game.Status.RUNNING and seat in engine.to_decide(game.state):
        # Never leave a table stuck on a refused timeout: the weakest bot decides instead.
        weakest = next(iter(engine.bot_levels()))
        apply_locked(game, table, engine, seat,
                     engine.bot_action(engine.view(game.state, seat), weakest),
                     source="clock", note=note)
        done += 1
    return done > 0


def game_clock_expire(*, game_id: int, due: str | None = None,
                      version: int | None = None) -> int:
    """Make the automatic decision for every seat whose clock has run out; returns how many.

    The sweeps pass neither `due` nor `version`: whatever is due now. Those are what the
    `tables.clock_expire` tasks of older releases carry (one was scheduled per deadline, and
    some may still wait in a broker during an upgrade): such a task does nothing if the game's
    earliest deadline is no longer `due`, or its move count no longer `version`, so a late or
    duplicated one is harmless; an early one leaves the deadline to the sweeps.
    """
    from games.platform.services import settle_locked

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return 0
        if version is not None and version != game.version:
            return 0
        if due is not None and game.clock_due is not None and game.clock_due != _when(due):
            return 0
        if not abandoned.someone_plays(game.table_id):
            return 0  # nobody plays it: no automatic decisions either (games/platform/abandoned.py)
        at = now()
        if outages.parts_down(at):
            return 0  # players cannot reach the site: the time comes back once it is up
        due_now = due_seats(game.deadlines, at)
        lot = _lot_entry(game.deadlines)
        lot_due = lot is not None and _when(lot["deadline"]) <= at
        if not due_now and not lot_due:
            return 0  # early (a task of an older release, hosts' clocks disagreeing)
        engine = get_game(game.game_kind)
        table = Table.objects.select_for_update().get(pk=game.table_id)
        if table.paused_at is not None:
            return 0  # waiting to be continued elsewhere: the clocks move on when it resumes
        old = dict(game.deadlines or {})
        if lot_due and lot is not None:
            # The whole lot's minute is up: it is cancelled, and every clock starts from the
            # position after it (a bidder's clock that ran out with it was about that lot).
            expired = int(_lot_expire(game, table, engine, lot))
            settle_locked(game, table, engine, old)
            return expired
        entries = _seat_entries(old)
        humans = {s.game_seat: s for s in Seat.objects.filter(
            table_id=table.pk, game_seat__isnull=False, is_bot=False)}
        expired = 0
        for seat in due_now:
            if game.status != Game.Status.RUNNING:
                break
            if seat not in engine.to_decide(game.state):
                continue
            key = entries[seat].get("key")
            if (entries[seat].get("kind") == "decision"
                    and key != ["decision", _plain(engine.decision_key(game.state, seat))]):
                continue  # another seat's timeout just now changed this seat's decision
            if not _time_out(game, table, engine, seat, entries[seat]):
                continue
            expired += 1
            human = humans.get(seat)
            if (human is not None and not human.away and _in_game(game, human)
                    and standins(engine)):
                count = int((game.timeouts or {}).get(str(seat), 0)) + 1
                game.timeouts = {**(game.timeouts or {}), str(seat): count}
                if count >= TAKEOVER_AFTER_TIMEOUTS:
                    _mark_away(human, "timeouts")
                    reset_timeouts(game, seat)  # a fresh run once the owner is back
        settle_locked(game, table, engine, old)
        return expired


def _lot_expire(game: Game, table: Table, engine: GameEngine,
                entry: Mapping[str, Any]) -> bool:
    """Apply the game's action for a lot whose deadline passed (the caller holds the locks)."""
    from games.platform.services import ActionRefused, apply_locked

    lot_timeout = getattr(engine, "lot_timeout", None)
    timeout = lot_timeout(game.state) if lot_timeout is not None else None
    if timeout is None:
        return False  # the first bid came in the meantime
    seat, action = timeout
    note = {"type": "lot_timeout", "seat": seat, "seconds": entry.get("seconds")}
    try:
        apply_locked(game, table, engine, seat, action, source="clock", note=note,
                     any_time=True)
    except ActionRefused:
        log.exception("game %s: the lot's deadline action was refused", game.pk)
        return False
    return True


def _in_game(game: Game, seat: Seat) -> bool:
    players = game.players or []
    return (seat.game_seat is not None and seat.game_seat < len(players)
            and players[seat.game_seat].get("seat_id") == seat.pk)


def _mark_away(seat: Seat, reason: str) -> None:
    seat.away = True
    seat.away_reason = reason
    seat.save(update_fields=["away", "away_reason"])


# --- presence: sockets opening and closing -----------------------------------------------------


def _owned_seat(table_id: int, viewer: Viewer) -> Seat | None:
    if not viewer.known:
        return None
    return (Seat.objects.select_for_update().filter(table_id=table_id)
            .filter(viewer.seat_filter()).first())


def seat_connected(*, table_id: int, viewer: Viewer, channel: str | None = None) -> Seat | None:
    """A table socket of this seat's owner opened (`channel`: its channel-layer name): count it,
    and give the seat back from the bot if it was away (the owner came back from their
    browser)."""
    from games.platform.services import seat_return

    with transaction.atomic():
        seat = _owned_seat(table_id, viewer)
        if seat is None:
            return None
        SeatSocket.objects.update_or_create(
            channel=channel or f"local-{uuid.uuid4().hex}",
            defaults={"seat": seat, "seen_at": now()})
        seat.connections = seat.sockets.count()
        seat.disconnected_at = None
        seat.save(update_fields=["connections", "disconnected_at"])
    if seat.away:
        return seat_return(table_id=table_id, viewer=viewer)
    return seat


def sockets_checked_in(channels: Sequence[str]) -> int:
    """These table sockets are still open: one statement for all of them. Each web process
    checks its own in every SOCKET_CHECK_IN_SECONDS or so (games/platform/checkins.py)."""
    return SeatSocket.objects.filter(channel__in=list(channels)).update(seen_at=now())


def seat_disconnected(*, table_id: int, viewer: Viewer, channel: str | None = None) -> None:
    """A table socket closed (`channel`; without one, the seat's oldest). When the owner's last
    one closes during a game, a bot takes the seat if they are not back within the grace
    period."""
    with transaction.atomic():
        seat = _owned_seat(table_id, viewer)
        if seat is None:
            return
        sockets = seat.sockets.filter(channel=channel) if channel else seat.sockets.order_by(
            "seen_at")[:1]
        SeatSocket.objects.filter(pk__in=list(sockets.values_list("pk", flat=True))).delete()
        _recount(seat, closed_at=now())


def _recount(seat: Seat, *, closed_at: datetime) -> None:
    """Count the seat's sockets again (the caller holds its row); when none is left during a
    game, the grace period starts from `closed_at`."""
    was = seat.connections
    seat.connections = seat.sockets.count()
    if seat.connections == 0 and (was or seat.disconnected_at is None):
        seat.disconnected_at = closed_at
    seat.save(update_fields=["connections", "disconnected_at"])
    if seat.connections or seat.is_bot or seat.away or not was:
        return
    status, host_id = Table.objects.filter(pk=seat.table_id).values_list(
        "status", "host_id").first() or (None, None)
    seat_id, since = seat.pk, seat.disconnected_at.isoformat()
    wait = max(0.0, disconnect_grace_seconds() - (now() - closed_at).total_seconds())
    if status == Table.Status.OPEN and host_id == seat.pk:
        # The creator gone before the start: the right to start passes on after the grace.
        transaction.on_commit(lambda: scheduler.run_after(
            wait, HOST_GRACE_TASK, seat_id=seat_id, since=since))
        return
    if status != Table.Status.PLAYING:
        return
    transaction.on_commit(lambda: scheduler.run_after(wait, GRACE_TASK, seat_id=seat_id,
                                                      since=since))


def drop_stale_sockets(at: datetime, *, limit: int = SWEEP_LIMIT) -> int:
    """Forget sockets that stopped checking in (their web process was killed): each such seat
    counts as disconnected since the socket was last seen. Returns how many were dropped."""
    cutoff = at - timedelta(seconds=SOCKET_STALE_SECONDS)
    stale = list(SeatSocket.objects.filter(seen_at__lt=cutoff).order_by("seen_at")
                 .values_list("pk", "seat_id", "seen_at")[:limit])
    for seat_id in sorted({seat_id for _, seat_id, _ in stale}):
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
            if seat is None:
                continue
            mine = [(pk, seen) for pk, sid, seen in stale if sid == seat_id]
            SeatSocket.objects.filter(pk__in=[pk for pk, _ in mine],
                                      seen_at__lt=cutoff).delete()
            _recount(seat, closed_at=max(seen for _, seen in mine))
    return len(stale)


def seat_takeover_if_gone(*, seat_id: int, since: str | None = None) -> bool:
    """Hand a seat to the bot if its owner has had no socket open for the grace period.

    `since` is the disconnect the grace task was scheduled for: a seat that came back and left
    again in between waits for its own, later task."""
    from games.platform.services import _announce, schedule_bot_moves

    table_id = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_id is None or outages.parts_down(now()):
        return False  # (while the site is down the grace waits: the sweep looks again after)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
        if (seat is None or seat.is_bot or seat.away or seat.connections
                or seat.disconnected_at is None or table.status != Table.Status.PLAYING):
            return False
        if since is not None and seat.disconnected_at.isoformat() != since:
            return False
        if (now() - seat.disconnected_at).total_seconds() < disconnect_grace_seconds():
            return False
        game = table.games.order_by("-number").first()
        if game is None or game.status != Game.Status.RUNNING or not _in_game(game, seat):
            return False
        if not standins(get_game(game.game_kind)):
            return False  # the seat's clocks keep running for its owner instead
        _mark_away(seat, "disconnected")
        _announce(table, lobby=False)
        game_id = game.pk
        transaction.on_commit(lambda: schedule_bot_moves(game_id=game_id))
        return True


def host_pass_if_gone(*, seat_id: int, since: str | None = None) -> bool:
    """Before the start, a host with no socket open for the grace period (they closed the
    page, lost their connection) hands the right to start to the longest-seated human who is
    here (the guide: "if the creator disappears before the start, that right passes on")."""
    from games.platform.services import _announce

    table_id = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_id is None or outages.parts_down(now()):
        return False  # (while the site is down the grace waits: the sweep looks again after)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
        if (seat is None or table.host_id != seat.pk or table.status != Table.Status.OPEN
                or seat.connections or seat.disconnected_at is None):
            return False
        if since is not None and seat.disconnected_at.isoformat() != since:
            return False
        if (now() - seat.disconnected_at).total_seconds() < disconnect_grace_seconds():
            return False
        heir = (table.seats.filter(is_bot=False, connections__gt=0).exclude(pk=seat.pk)
                .order_by("joined_at", "pk").first())
        if heir is None:
            return False  # nobody else is here: the creator keeps it until someone is
        table.host = heir
        table.save(update_fields=["host", "updated_at"])
        _announce(table)
        return True


# --- the sweep ---------------------------------------------------------------------------------


def give_back_downtime(at: datetime) -> float:
    """Note that the sweep runs at `at` (a long gap since the last sweep is an outage of the
    worker, beat, broker or database, recorded here), then give every outage recorded and not
    yet given back (games/platform/outages.py) to every running clock of the games, and to the
    disconnect grace of the seats. Returns the seconds given back."""
    from games.platform.services import _announce

    with transaction.atomic():
        mark = ClockSweep.objects.select_for_update().filter(pk=1).first()
        if mark is None:
            mark, _ = ClockSweep.objects.get_or_create(pk=1, defaults={"ran_at": at})
        last = mark.ran_at
        if at < last:
            return 0.0  # a sweep with a later time has run (clocks of two hosts disagree)
        mark.ran_at = at
        mark.save(update_fields=["ran_at"])
        if not downtime_seconds():
            return 0.0
        if (at - last).total_seconds() > downtime_seconds():
            outages.record(outages.SWEEP, began_at=last + timedelta(seconds=SWEEP_SECONDS),
                           ended_at=at)
        spans = outages.take_outages(at)
        if not spans:
            return 0.0
        lost = sum((end - start for start, end in spans), timedelta())
        games = (Game.objects.select_for_update().select_related("table")
                 .filter(status=Game.Status.RUNNING, clock_due__isnull=False,
                         table__paused_at__isnull=True).order_by("pk"))
        for game in games:
            game.deadlines = shift_deadlines(game.deadlines, lost)
            game.clock_due = earliest(game.deadlines)
            game.save(update_fields=["deadlines", "clock_due", "updated_at"])
            # No version: the move count is unchanged but every clock on the page moved.
            _announce(game.table, lobby=False)
        for start, end in spans:
            _pause_presence(start, end)
        log.warning("clocks: gave %.0f s of downtime back to every running clock",
                    lost.total_seconds())
        return lost.total_seconds()


def _pause_presence(start: datetime, end: datetime) -> None:
    """The span start..end does not count towards a disconnect's grace or a socket's silence:
    what began before it moves later by its length, what began within it starts at its end.
    Applied span by span, earliest first (each moves only times before its own end)."""
    length = end - start
    seats = Seat.objects.filter(disconnected_at__isnull=False,
                                table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
    seats.filter(disconnected_at__gte=start, disconnected_at__lte=end).update(
        disconnected_at=end)
    seats.filter(disconnected_at__lt=start).update(disconnected_at=F("disconnected_at") + length)
    SeatSocket.objects.filter(seen_at__gte=start, seen_at__lte=end).update(seen_at=end)
    SeatSocket.objects.filter(seen_at__lt=start).update(seen_at=F("seen_at") + length)


def _due_games(at: datetime, limit: int) -> list[int]:
    """Running games whose earliest deadline has passed by `at`, the longest overdue first.

    One query. `clock_due` has no index of its own on purpose (models.Game.Meta: a move that
    changed an indexed column could not update its row in place): the partial index of running
    games finds the few rows to compare. Paused games wait; abandoned ones are left out, so
    they cannot fill the batch (their clocks wait, games/platform/abandoned.py)."""
    return list(Game.objects.filter(abandoned.played(), status=Game.Status.RUNNING,
                                    clock_due__lte=at, table__paused_at__isnull=True)
                .order_by("clock_due").values_list("pk", flat=True)[:limit])


def _expire_games(game_ids: Sequence[int]) -> int:
    acted = 0
    for game_id in game_ids:
        try:
            acted += game_clock_expire(game_id=game_id)
        except Exception:
            # One broken game must not stop the others; the next sweep tries it again.
            log.exception("clocks sweep: game %s", game_id)
    return acted


def expire_due(*, limit: int = SWEEP_LIMIT) -> int:
    """The due-clock sweep (`tables.clocks_due`, every DUE_SWEEP_SECONDS): the automatic
    decisions of every running game whose clock has run out. Returns how many seats it acted
    on. When nothing is due, which is nearly always, it is one read and nothing else."""
    at = now()
    due = _due_games(at, limit)
    if not due:
        return 0
    # Something is due. While a part players need is down, nothing runs out; once it is back
    # (checked first: a part that is back has recorded its outage by then), the time lost is
    # given back first, as the slower sweep would, and the due games looked up again.
    if outages.parts_down(at):
        return 0
    if give_back_downtime(at):
        due = _due_games(now(), limit)
    return _expire_games(due)


def clocks_sweep(*, limit: int = SWEEP_LIMIT) -> int:
    """After giving back any time the site was down, and unless a part players need is down
    now: act on every running game whose clock has run out (as `expire_due` does, in case
    that sweep is behind), on every seat gone past the grace, on stale sockets, hosts gone
    before the start and abandoned games. Returns how many seats it acted on."""
    at = now()
    down = outages.parts_down(at)  # before the give-back, for the reason `expire_due` gives
    if give_back_downtime(at):
        at = now()
    if down:
        log.info("clocks sweep: %s down; nothing expires", ", ".join(down))
        return 0
    acted = _expire_games(_due_games(at, limit))
    drop_stale_sockets(at)
    cutoff = at - timedelta(seconds=disconnect_grace_seconds())
    no_standins = [k for k in registered_games() if not standins(get_game(k))]
    gone = (Seat.objects.filter(is_bot=False, away=False, connections=0,
                                disconnected_at__lte=cutoff, table__status=Table.Status.PLAYING)
            .exclude(table__game_kind__in=no_standins)
            .values_list("pk", flat=True)[:limit])
    for seat_id in list(gone):
        acted += int(seat_takeover_if_gone(seat_id=seat_id))
    someone_here = Exists(Seat.objects.filter(table_id=OuterRef("pk"), is_bot=False,
                                              connections__gt=0))
    hosts_gone = (Table.objects.filter(someone_here, status=Table.Status.OPEN,
                                       host__is_bot=False, host__connections=0,
                                       host__disconnected_at__lte=cutoff)
                  .values_list("host_id", flat=True)[:limit])
    for seat_id in list(hosts_gone):
        acted += int(host_pass_if_gone(seat_id=seat_id))
    abandoned.close_abandoned(at, limit=limit)
    return acted
