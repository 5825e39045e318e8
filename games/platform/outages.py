"""Whether every part players need is up, and the times one was not.

Seed 004: "If the site was down for a while, that time is given back to everyone — both for
moves and for auctions." Players need the web processes (to reach the site at all), the worker
and beat (which run the clocks), the broker (Redis, which carries the tasks and the sockets'
messages) and the database.

- The clocks sweep itself proves the worker, beat, broker and database alive: beat sends it
  through the broker, the worker runs it, and it reads and writes the database. A long gap
  between two sweeps is an outage of one of them; the sweep records it
  (games/platform/clocks.py, `give_back_downtime`).
- The web processes are the part the sweep cannot see. Each one writes the "web" heartbeat
  (`PartHeartbeat`) every WEB_HEARTBEAT_SECONDS from a thread of its own; one row for all of
  them, so the site counts as reachable while any one is alive. A heartbeat written after a
  gap records the outage (`beat`), in the same transaction.
- While any part's heartbeat is stale (`parts_down`), nothing expires: no clock, lot or
  grace period runs out for players who cannot reach the site. Before anything expires again,
  every recorded outage is given back to every running deadline, once (`take_outages`): the
  sweep checks the heartbeats first, so a part that is back has recorded its outage by then.

CLOCKS_DOWNTIME_SECONDS = 0 turns all of this off (the clock tests, which move time by hand).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max

from games.platform.models import Outage, PartHeartbeat

log = logging.getLogger(__name__)

WEB = "web"
SWEEP = "sweep"  # the clocks sweep: the worker, beat, broker and database together

DOWNTIME_SECONDS = 15.0  # a longer gap between sweeps means the worker, beat or broker was down
WEB_HEARTBEAT_SECONDS = 2.0
MISSED_BEATS = 3  # a part whose heartbeat is this many beats late is down


def downtime_seconds() -> float:
    """A gap between sweeps longer than this is downtime given back (0: outages are neither
    recorded nor looked at)."""
    return float(getattr(settings, "CLOCKS_DOWNTIME_SECONDS", DOWNTIME_SECONDS))


def web_heartbeat_seconds() -> float:
    """How often each web process says it is alive (0: it does not)."""
    return float(getattr(settings, "WEB_HEARTBEAT_SECONDS", WEB_HEARTBEAT_SECONDS))


def _stale_after(every: float) -> timedelta:
    return timedelta(seconds=MISSED_BEATS * every)


def beat(part: str, at: datetime, every: float) -> Outage | None:
    """`part` is alive at `at` (it says so every `every` seconds). If its previous beat is
    stale, the part was down from when the next beat was due until now: that outage is
    recorded and returned."""
    if _beat_in_time(part, at, every):
        return None
    with transaction.atomic():
        row = PartHeartbeat.objects.select_for_update().filter(part=part).first()
        if row is None:  # the part's first beat on this database: nothing to compare with
            PartHeartbeat.objects.get_or_create(part=part,
                                                defaults={"beat_at": at, "every": every})
            return None
        last = row.beat_at
        if at <= last:
            return None  # another process of the part beat later (their clocks disagree)
        row.beat_at, row.every = at, every
        row.save(update_fields=["beat_at", "every"])
        if not downtime_seconds() or at - last <= _stale_after(every):
            return None
        return record(part, began_at=last + timedelta(seconds=every), ended_at=at)


def _beat_in_time(part: str, at: datetime, every: float) -> bool:
    """The usual beat, one statement committed on its own: the part's row set to `at` if its
    last beat is earlier and not stale, so that there is no outage to record. False when it
    set nothing (no row yet, a later beat of another process, a gap), which `beat` then
    handles under the row's lock. A web process beats every two seconds from a thread of its
    own, and the locked way (a transaction, the row read, then saved) cost it about four
    times the CPU of this, in round trips and the ORM's queries, taken from its sockets."""
    ops = connection.ops
    quote = ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(PartHeartbeat._meta.db_table)} "
            f"SET {quote('beat_at')} = %s, {quote('every')} = %s "
            f"WHERE {quote('part')} = %s AND {quote('beat_at')} < %s "
            f"AND {quote('beat_at')} >= %s",
            [ops.adapt_datetimefield_value(at), every, part, ops.adapt_datetimefield_value(at),
             ops.adapt_datetimefield_value(at - _stale_after(every))])
        return cursor.rowcount == 1


def record(part: str, *, began_at: datetime, ended_at: datetime) -> Outage:
    outage = Outage.objects.create(part=part, began_at=began_at, ended_at=ended_at)
    log.warning("outage: %s was down %.0f s (%s to %s); the clocks give it back", part,
                (ended_at - began_at).total_seconds(), began_at.isoformat(),
                ended_at.isoformat())
    return outage


def parts_down(at: datetime) -> list[str]:
    """The parts whose heartbeat is stale at `at`: while there is any, nothing may expire. A
    part that never beat on this database (no web process has served it yet) is not counted,
    nor the web on a site whose web processes are told not to beat (WEB_HEARTBEAT_SECONDS 0:
    a row left from before would otherwise hold every clock for ever)."""
    if not downtime_seconds():
        return []
    rows = PartHeartbeat.objects.all()
    if web_heartbeat_seconds() <= 0:
        rows = rows.exclude(part=WEB)
    return sorted(row.part for row in rows if at - row.beat_at > _stale_after(row.every))


def take_outages(at: datetime) -> list[tuple[datetime, datetime]]:
    """Every outage recorded and not yet given back, marked given at `at`; returns the spans
    to give back, earliest first and apart: their union, less what outages given back earlier
    already covered (the web and the worker down together give the time back once). The
    caller holds the sweep's lock."""
    pending = list(Outage.objects.select_for_update().filter(given_at__isnull=True)
                   .order_by("began_at", "pk"))
    if not pending:
        return []
    covered = Outage.objects.filter(given_at__isnull=False).aggregate(
        end=Max("ended_at"))["end"]
    spans: list[tuple[datetime, datetime]] = []
    for outage in pending:
        start = outage.began_at if covered is None else max(outage.began_at, covered)
        lost = max(timedelta(), outage.ended_at - start)
        outage.given_at, outage.given_back = at, lost.total_seconds()
        outage.save(update_fields=["given_at", "given_back"])
        if lost:
            spans.append((start, outage.ended_at))
        covered = outage.ended_at if covered is None else max(covered, outage.ended_at)
    return spans


def start_web_heartbeat(stop: threading.Event | None = None) -> threading.Thread | None:
    """Beat for the web from a daemon thread for as long as this process lives (called by
    chudopoly_site/asgi.py), or until `stop` is set. None when WEB_HEARTBEAT_SECONDS is 0."""
    every = web_heartbeat_seconds()
    if every <= 0:
        return None
    stopping = stop or threading.Event()

    def run() -> None:
        from games.platform.clocks import now

        while not stopping.is_set():
            try:
                beat(WEB, now(), every)
            except Exception as exc:  # the database is down or restarting: try again
                log.warning("web heartbeat not written: %s", exc)
            finally:
                # Back to the pool between beats: the thread must not hold a connection.
                with contextlib.suppress(Exception):  # a dead connection is closed anyway
                    connection.close()
            stopping.wait(every)

    thread = threading.Thread(target=run, name="web-heartbeat", daemon=True)
    thread.start()
    return thread
