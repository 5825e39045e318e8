"""Seed 004: "If the site was down for a while, that time is given back to everyone — both for
moves and for auctions." While any part players need is down nothing runs out, and once it is
back every running deadline of the three games moves forward by the outage, once.

Time is the clocks' own (the `clock` fixture); the web process is a heartbeat written by hand,
and the worker and beat are the sweeps the test calls, every two seconds as beat sends them.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from clocks_helpers import clock_actions, started_game
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.platform import clocks, outages
from games.platform.identity import Viewer
from games.platform.models import ClockSweep, Game, Outage, PartHeartbeat, Seat
from tests.boardroom_site import board_clock_helpers as boardroom
from tests.commonwealth_site import commonwealth_clock_helpers as commonwealth

pytestmark = pytest.mark.django_db

BEAT = 2.0  # the web process's heartbeat, as WEB_HEARTBEAT_SECONDS has it


def guest(name: str) -> Viewer:
    return Viewer(user_id=None, guest_key=f"guest-{name}".ljust(30, "0"))


class FrozenClock:
    """The clocks' time, still between two moves of the test's hand (exact seconds)."""

    def __init__(self) -> None:
        self.at = timezone.now()

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    frozen = FrozenClock()
    monkeypatch.setattr(clocks, "now", frozen.now)
    return frozen


@pytest.fixture
def site(clock: FrozenClock, settings: Any) -> Site:
    settings.CLOCKS_DOWNTIME_SECONDS = 15
    settings.WEB_HEARTBEAT_SECONDS = BEAT
    # Nothing left from another process's heartbeats or sweeps: this test keeps its own time.
    PartHeartbeat.objects.all().delete()
    Outage.objects.all().delete()
    ClockSweep.objects.all().delete()
    return Site(clock)


class Site:
    """The site's parts as the test runs them: the web heartbeat and the two sweeps."""

    def __init__(self, clock: FrozenClock) -> None:
        self.clock = clock
        self.web_up = True
        self.worker_up = True

    def web_beats(self) -> None:
        outages.beat(outages.WEB, self.clock.now(), BEAT)

    def sweep(self) -> None:
        clocks.expire_due()
        clocks.clocks_sweep()

    def run(self, seconds: float) -> None:
        """Let `seconds` pass two by two: each part that is up does what it does every two
        seconds (the web beats; beat has the worker run both sweeps)."""
        for _ in range(round(seconds / 2)):
            self.clock.advance(2)
            if self.web_up:
                self.web_beats()
            if self.worker_up:
                self.sweep()


def deadlines(game: Game) -> dict[str, datetime]:
    game.refresh_from_db()
    return {key: datetime.fromisoformat(entry["deadline"])
            for key, entry in game.deadlines.items() if isinstance(entry, dict)
            and entry.get("deadline")}


def moved(game: Game, before: dict[str, datetime]) -> dict[str, float]:
    return {key: (at - before[key]).total_seconds() for key, at in deadlines(game).items()}


def a_lot_open(a: Viewer, b: Viewer, c: Viewer) -> Game:
    """Boardroom: seat 0 sent tile 3 to auction; nobody has bid (the lot's minute runs)."""
    game = boardroom.online(a, (b, "Bob"), (c, "Carol"))
    game = boardroom.position(game, turn=0, dice=[(1, 2)], phase="roll")
    game = boardroom.act(game, 0, {"type": "roll"})
    game = boardroom.act(game, 0, {"type": "decline", "tile": 3})
    assert game.state["auction"] is not None and "lot" in game.deadlines
    return game


@pytest.fixture
def three_games(site: Site, alice: Viewer, bob: Viewer, carol: Viewer) -> list[Game]:
    """A Boardroom lot with no bid (60 s), a Chudopoly turn clock (60 s) and a Commonwealth
    move clock (5 min), all running; the web has beaten and the sweep has run."""
    games = [a_lot_open(alice, bob, carol),
             started_game(guest("dora"), (guest("eve"), "Eve")),
             commonwealth.online(guest("fay"), (guest("gus"), "Gus"))]
    assert all(game.clock_due is not None for game in games)
    site.web_beats()
    clocks.clocks_sweep()
    return games


def test_nothing_runs_out_while_the_web_is_down_and_the_outage_is_given_back_after(
        site: Site, three_games: list[Game]) -> None:
    lot = three_games[0]
    before = [deadlines(game) for game in three_games]
    site.web_up = False
    site.run(BEAT + 60)  # the lot's minute and the turn clock both pass meanwhile
    assert outages.parts_down(site.clock.now()) == ["web"]
    for game, was in zip(three_games, before, strict=True):
        assert clock_actions(game) == [] and deadlines(game) == was

    site.web_up = True
    site.web_beats()  # the web is back, 60 s after its next beat was due
    outage = Outage.objects.get()
    assert (outage.part, (outage.ended_at - outage.began_at).total_seconds()) == ("web", 60)
    site.run(2)

    for game, was in zip(three_games, before, strict=True):
        assert clock_actions(game) == []
        assert set(moved(game, was).values()) == {60.0}
        assert game.clock_due == min(deadlines(game).values())
    assert lot.state["auction"] is not None  # the lot is still open
    site.run(10)  # given back once
    assert set(moved(lot, before[0]).values()) == {60.0}
    assert Outage.objects.get().given_back == 60


def test_a_lot_given_its_time_back_still_runs_out_after_it(
        site: Site, three_games: list[Game]) -> None:
    lot = three_games[0]
    site.web_up = False
    site.run(BEAT + 60)
    site.web_up = True
    site.web_beats()  # the lot had 58 s left when the web went down
    site.run(56)
    lot.refresh_from_db()
    assert lot.state["auction"] is not None
    site.run(2)
    lot.refresh_from_db()
    assert lot.state["auction"] is None  # cancelled once those 58 s are over
    assert [row.action["type"] for row in clock_actions(lot)] == ["lot_expired"]


def test_a_worker_or_broker_outage_is_given_back(site: Site, three_games: list[Game]) -> None:
    """No sweep ran for a minute (the worker, beat or Redis was down) while the web was up."""
    lot = three_games[0]
    before = [deadlines(game) for game in three_games]
    site.worker_up = False
    site.run(clocks.SWEEP_SECONDS + 60)
    site.worker_up = True
    site.sweep()  # the first sweep back, 60 s after the next was due
    for game, was in zip(three_games, before, strict=True):
        assert clock_actions(game) == []
        assert set(moved(game, was).values()) == {60.0}
    assert lot.state["auction"] is not None
    assert [(o.part, o.given_back) for o in Outage.objects.all()] == [("sweep", 60)]


def test_the_web_and_the_worker_down_together_give_the_time_back_once(
        site: Site, three_games: list[Game]) -> None:
    before = [deadlines(game) for game in three_games]
    site.web_up = site.worker_up = False
    site.run(40)
    site.worker_up = True  # the worker is back first: the web is still down, nothing expires
    site.sweep()
    site.run(22)
    assert all(clock_actions(game) == [] for game in three_games)
    site.web_up = True
    site.web_beats()
    site.run(2)
    for game, was in zip(three_games, before, strict=True):
        assert clock_actions(game) == []
        assert set(moved(game, was).values()) == {60.0}
    assert sorted((o.part, o.given_back) for o in Outage.objects.all()) == [
        ("sweep", 38), ("web", 22)]


def test_a_disconnect_grace_does_not_run_during_an_outage(
        site: Site, alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    seat = Seat.objects.get(table_id=game.table_id, guest_key=bob.guest_key)
    gone = site.clock.now() - timedelta(seconds=10)  # 20 s of the 30 s grace left
    Seat.objects.filter(pk=seat.pk).update(connections=0, disconnected_at=gone)
    site.web_beats()
    clocks.clocks_sweep()
    site.web_up = False
    site.run(BEAT + 60)
    site.web_up = True
    site.web_beats()
    site.run(2)
    seat.refresh_from_db()
    assert not seat.away and seat.disconnected_at == gone + timedelta(seconds=60)


def test_a_heartbeat_one_beat_late_is_no_outage(site: Site) -> None:
    site.web_beats()
    site.clock.advance(BEAT * outages.MISSED_BEATS)
    assert outages.parts_down(site.clock.now()) == []
    site.web_beats()
    site.clock.advance(BEAT * outages.MISSED_BEATS + 1)
    assert outages.parts_down(site.clock.now()) == ["web"]
    assert Outage.objects.count() == 0


def test_a_beat_in_time_is_one_statement(site: Site) -> None:
    site.web_beats()
    site.clock.advance(BEAT)
    with CaptureQueriesContext(connection) as queries:
        site.web_beats()
    assert len(queries) == 1
    assert PartHeartbeat.objects.get(part="web").beat_at == site.clock.now()


def test_a_beat_older_than_another_process_s_changes_nothing(site: Site) -> None:
    site.web_beats()
    latest = site.clock.now()
    assert outages.beat(outages.WEB, latest - timedelta(seconds=1), BEAT) is None
    assert outages.beat(outages.WEB, latest, BEAT) is None
    assert PartHeartbeat.objects.get(part="web").beat_at == latest
    assert Outage.objects.count() == 0


def test_a_beat_after_a_gap_records_the_outage_with_the_beat(site: Site) -> None:
    site.web_beats()
    site.clock.advance(BEAT * outages.MISSED_BEATS + 1)
    outage = outages.beat(outages.WEB, site.clock.now(), BEAT)
    assert outage is not None and outage.ended_at == site.clock.now()
    assert PartHeartbeat.objects.get(part="web").beat_at == site.clock.now()


@pytest.mark.parametrize("kind", ["boardroom", "commonwealth", "chudopoly"])
def test_each_rules_page_says_downtime_is_given_back(client: Any, kind: str) -> None:
    from django.urls import reverse

    page = client.get(reverse("games:game_rules", args=[kind])).content.decode()
    assert 'id="downtime"' in page and "that time is given back to everyone" in page


@pytest.mark.django_db(transaction=True)
def test_a_web_process_beats_from_a_thread_of_its_own(settings: Any) -> None:
    settings.WEB_HEARTBEAT_SECONDS = 0.05
    stop = threading.Event()
    thread = outages.start_web_heartbeat(stop)
    assert thread is not None
    try:
        limit = time.monotonic() + 30  # a bound for a loaded machine, not a timing
        while not PartHeartbeat.objects.filter(part="web").exists():
            assert time.monotonic() < limit, "the web heartbeat was never written"
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive()
    assert PartHeartbeat.objects.get(part="web").every == 0.05


def test_a_site_whose_web_does_not_beat_never_counts_the_web_down(
        site: Site, settings: Any) -> None:
    site.web_beats()
    site.clock.advance(600)
    assert outages.parts_down(site.clock.now()) == ["web"]
    settings.WEB_HEARTBEAT_SECONDS = 0
    assert outages.parts_down(site.clock.now()) == []
