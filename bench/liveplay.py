"""Scripted players for a live Chudopoly site: the shared kit of the hardening tests and benches.

A `ScriptedSeat` is what a browser tab does, without the browser: it holds one table socket,
keeps the latest copy of every partial the server pushed, reads the legal moves from the forms
in them (the same JSON the page's buttons and <select>s carry), picks one with the random
player's weights, and sends it as htmx's `ws-send` would. It times each move from the frame
sent to the first frame that shows the new version, reconnects by itself when the socket drops
(as static/js/table.js does) and records every frame it ever received.

Also here: a cookie-keeping HTTP client for 127.0.0.1, and helpers that start, kill and watch
Daphne and Celery processes (only ever the ones the caller started).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pageforms
from livepage import ROOT_IDS, Screen, decision_in, error_in, fragments, version_in
from wsclient import ConnectionClosed, HandshakeRefused, WSClient

ROOT = Path(__file__).resolve().parent.parent
# The server allows 40 frames in 5 s per socket (games/platform/consumers.py); clients keep a
# margin.
PACE_FRAMES = 35
PACE_SECONDS = 5.0

# Only values that open a JSON object can be actions; starting with a literal lets the regex
# engine jump from one "value=" to the next instead of trying every position of the frame.
_VALUE_RE = re.compile(r"""value=(?:"(\{[^"]*)"|'(\{[^']*)')""")
_ACTIVE_RE = re.compile(r'class="decision-panel[^"]*\bactive\b')
_NEED_RE = re.compile(r'class="discard-form" data-need="(\d+)"')
_CHECKBOX_RE = re.compile(r'type="checkbox" name="cards" value="(\d+)"')

# The engine's random player weights (games/chudopoly/engine/random_player.py), scoop never;
# then Boardroom's decisions and Commonwealth's. A type missing here is never picked while
# a listed one is offered.
TYPE_WEIGHTS = {"place": 6.0, "action": 4.0, "bank": 2.5, "move": 0.25, "swap": 0.1,
                "end_turn": 1.5, "respond": 1.0, "pay": 1.0, "accept_pay": 1.0,
                "discard": 1.0,
                # Boardroom (trades and lots are composed from their forms: bench/pageforms.py)
                "roll": 3.0, "buy": 2.0, "decline": 0.5, "bid": 1.0, "pass": 1.0,
                "answer": 1.0, "pay_bail": 0.5, "use_release": 0.5, "build": 2.0,
                "close": 0.05, "sell_bank": 0.05, "propose": 0.3, "auction_own": 0.1,
                "give_up": 0.01, "lot_expired": 1.0, "forfeit": 0.01,
                # Commonwealth (deals and free amounts composed from their forms too)
                "jail_roll": 2.0, "pay_jail": 0.7, "jail_card": 0.7, "develop": 0.5,
                "play_card": 0.5, "order": 3.0, "auction": 0.7, "chip": 2.0, "no_chip": 0.5,
                "ride": 1.0, "stay": 1.0, "skip": 1.0, "keep": 1.0, "donate": 1.0,
                "pledge": 1.0, "accept": 1.0, "withdraw": 1.0, "offer": 0.2}
NEVER = {"scoop"}
# Moves a seat may make while it owes nothing (Commonwealth's deals "at any time", taking
# back its own offer): a player makes them now and then, not whenever the page allows.
OPTIONAL = {"withdraw"}
IDLE_MOVE_MEAN_S = 180.0  # the mean pause between one seat's optional moves


def split_partials(frame: str) -> dict[str, str]:
    """The whole partials in one pushed frame, by root element id (pieces left out)."""
    return {key: fragment for key, fragment in fragments(frame) if key in ROOT_IDS}


def apply_frame(partials: dict[str, str], frame: str) -> None:
    """Update a page's partials with one pushed frame, as htmx would (livepage.Screen.apply).
    A seat keeps a `Page`, which reads each partial's text once for many frames."""
    screen = Screen(partials)
    screen.apply(frame)
    partials.update(screen.partials)


def actions_in(fragment: str) -> list[dict[str, Any]]:
    """Every action (a JSON object with a type) the forms of a fragment offer."""
    return list(_actions_in(fragment))


@functools.lru_cache(maxsize=2048)
def _actions_in(fragment: str) -> tuple[dict[str, Any], ...]:
    # Kept by the fragment's text: a seat looks at its page after every frame, and most
    # frames leave its hand and decision as they were. The measuring client plays hundreds
    # of seats in one process; parsing each page again was half its CPU, and a busy client
    # reads frames off its sockets late, which the latencies would count against the server.
    # A composed form's base (bench/pageforms.py) is not a move by itself.
    found: list[dict[str, Any]] = []
    for m in _VALUE_RE.finditer(pageforms.strip_composed(fragment)):
        raw = html.unescape(m.group(1) if m.group(1) is not None else m.group(2))
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict) and "type" in value:
            found.append(value)
    return tuple(found)


def choose_move(partials: Mapping[str, str], rng: random.Random, *,
                memory: pageforms.Memory | None = None,
                idle: bool = False) -> dict[str, Any] | None:
    """A move from what the page offers, or None if this seat owes nothing.

    Returns {"action": ..., "cards": [...]?, "fields": {...}?, "optional": bool}: a discard is
    composed from the form's checkboxes the way a player ticks them; a payment uses one of the
    page's one-click payments; a trade, deal or free amount is filled in from its form
    (bench/pageforms.py). `idle`: whether the seat may make an optional move now (OPTIONAL,
    and a deal offered while it owes nothing)."""
    decision = partials.get("decision", "")
    need = _NEED_RE.search(decision)
    if need:
        form = decision[need.start():]
        form = form[:form.find("</form>")]
        cards = [int(c) for c in _CHECKBOX_RE.findall(form)]
        rng.shuffle(cards)
        return {"action": {"type": "discard"}, "cards": cards[:int(need.group(1))],
                "optional": False}
    offered = [a for key in ("decision", "hand", "players")
               for a in actions_in(partials.get(key, ""))]
    forms = [f for key in ("decision", "deals", "hand")
             for f in pageforms.forms_in(partials.get(key, ""))]
    # A bare {"type": "pay"} (or "accept_pay", the answer screen's) is the tick-the-boxes
    # form; its one-click payments carry cards.
    offered = [a for a in offered if a["type"] not in NEVER
               and not (a["type"] in ("pay", "accept_pay") and "cards" not in a)]
    optional = OPTIONAL if _ACTIVE_RE.search(decision) else OPTIONAL | {"offer"}
    if not idle:
        offered = [a for a in offered if a["type"] not in optional]
        forms = [f for f in forms if f.base["type"] not in optional]
    memory = memory or pageforms.Memory()
    # What each seat may hand over in a deal now, as the players panel shows it: what a deal
    # form's cash field may ask (the page's board.js sets the field's limit from it).
    cash = pageforms.cash_by_seat(partials.get("players", "")) if forms else {}
    types = {a["type"] for a in offered} | {f.base["type"] for f in forms}
    while types:
        chosen = _weighted_type(types, rng)
        move = _one_of(chosen, offered, forms, rng, memory, cash)
        if move is not None:
            move["optional"] = chosen in optional
            return move
        types.discard(chosen)  # its forms had nothing left to offer
    return None


def _weighted_type(types: set[str], rng: random.Random) -> str:
    weights = [(w, t) for t, w in TYPE_WEIGHTS.items() if t in types]
    if not weights:
        return rng.choice(sorted(types))
    r = rng.random() * sum(w for w, _ in weights)
    chosen = weights[-1][1]
    for w, t in weights:
        r -= w
        if r < 0:
            chosen = t
            break
    return chosen


def _one_of(chosen: str, offered: list[dict[str, Any]], forms: list[pageforms.Form],
            rng: random.Random, memory: pageforms.Memory,
            cash: dict[int, int]) -> dict[str, Any] | None:
    group: list[Any] = [a for a in offered if a["type"] == chosen]
    if chosen == "respond":
        opsec = [a for a in group if a.get("answer") == "opsec"]
        if opsec and rng.random() < 0.4:
            return {"action": rng.choice(opsec)}
        group = [a for a in group if a.get("answer") == "accept"] or group
    group += [f for f in forms if f.base["type"] == chosen]
    rng.shuffle(group)
    for pick in group:
        if not isinstance(pick, pageforms.Form):
            return {"action": pick}
        move = pageforms.compose(pick, rng, memory, cash=cash)
        if move is not None:
            return move
    return None


def act_frame(move: dict[str, Any], version: int, decision: str = "") -> str:
    """The JSON text htmx's ws-send would post for that form: the action, the form's other
    fields, and the version and decision token of the page it was chosen on."""
    frame: dict[str, Any] = {"kind": "act", "action": json.dumps(move["action"]),
                             **move.get("fields", {}),
                             "expected_version": str(version), "decision": decision,
                             "HEADERS": {"HX-Request": "true", "HX-Trigger": None}}
    if "cards" in move:
        frame["cards"] = [str(c) for c in move["cards"]]
    return json.dumps(frame)


RACES = ("stale", "finished", "duplicate")  # refused because the page was out of date
# The partials choose_move reads (the players panel only for the cash a deal may ask, on a page
# with deal forms: see Page), and where a game's result shows (Chudopoly's in its status, a
# board game's in the seat's decision panel).
READ = ("decision", "hand", "deals")
CASH_IN = "players"
RESULT_IN = ("status", "decision")
_RESULT = 'id="result"'


class Page:
    """One tab's screen as htmx keeps it, read only when its seat looks at its forms.

    Each frame's version and decision token are read as it comes (the timings and the move
    sent need them); its swaps are kept as they came and applied to the partials when the
    page is read. A seat whose page still carries the decision token under which it last
    found nothing to do has nothing to do still: equal tokens are the same decision
    (games/platform/interface.py, decision_key), so `choose` does not read the page again.
    Three seats of four wait at any moment; reading their pages on every frame was most of
    what the measuring client spent, on the cores it shares with the server it measures.
    Of the partials, it keeps those it reads its moves from (READ; the board, the status and
    the log it never reads: of them only their ids, see livepage.Screen's `keep`)."""

    # Frames kept unread at most: a page nobody reads (a watcher's) is read now and then.
    MAX_PENDING = 64

    def __init__(self) -> None:
        self.screen: Screen | None = None  # made by the first frame
        self._pending: list[str] = []
        self.version = -1
        self.decision = ""  # the page's decision token, sent back with a move
        self._nothing_under: str | None = None  # the token of the last look that found nothing
        self._result = False  # a frame named the game's result

    def take(self, frame: str) -> int | None:
        """Keep one pushed frame; the version it shows, if any."""
        self._pending.append(frame)
        if len(self._pending) > self.MAX_PENDING:
            self._read()
        version = version_in(frame)
        if version is not None:
            self.version = version
        token = decision_in(frame)
        if token is not None:
            self.decision = token
        if _RESULT in frame:
            self._result = True
        return version

    @property
    def partials(self) -> Mapping[str, str]:
        """The partials as the page shows them now, by root id."""
        if self._pending or self.screen is None:
            self._read()
        assert self.screen is not None
        return self.screen.partials

    def _read(self) -> None:
        if self.screen is None:
            # A page with deal forms (a "deals" partial) keeps the players panel too: a
            # deal's cash field takes its limit from it. Any other page never reads it.
            first = self._pending[0] if self._pending else ""
            deals = any(key == "deals" for key, _ in fragments(first))
            self.screen = Screen(keep=READ + ((CASH_IN,) if deals else ()), follow=_RESULT)
        for frame in self._pending:
            self.screen.apply(frame)
        self._pending.clear()

    @property
    def finished(self) -> bool:
        """Whether the page shows the game's result (Chudopoly's in its status, a board
        game's in the seat's decision panel)."""
        if not self._result:
            return False
        partials = self.partials
        return any(_RESULT in partials.get(key, "") if key in READ
                   else self.screen is not None and self.screen.dropped_holding(key)
                   for key in RESULT_IN)

    def choose(self, rng: random.Random, *, memory: pageforms.Memory,
               idle: bool = False) -> dict[str, Any] | None:
        """choose_move on this page, unless its decision token says nothing changed for its
        seat since it last found nothing to do (an optional move, `idle`, is always looked
        for: the page may offer one under any token)."""
        if not idle and self.decision == self._nothing_under:
            return None
        move = choose_move(self.partials, rng, memory=memory, idle=idle)
        if not idle:
            self._nothing_under = self.decision if move is None else None
        return move


@dataclass
class Stats:
    """What one scripted seat saw."""

    latencies: list[float] = field(default_factory=list)  # seconds, frame sent -> own update
    # The same, to the moment this client handled the update rather than read it off the
    # socket: adds the client's own queueing (one process plays every seat).
    handled: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter() of each one's frame
    # The version each of this seat's moves made, beside sent_at: the other seats' `seen`
    # tells when their screens showed it.
    made: list[int] = field(default_factory=list)
    # Version -> when this seat's socket brought the first frame showing it (perf_counter()).
    seen: dict[int, float] = field(default_factory=dict)
    sent: int = 0
    acked: int = 0
    races: int = 0  # "stale"/"finished"/"duplicate": refused because our view was behind
    refused: dict[str, int] = field(default_factory=dict)  # refused frames by reason (code)
    errors: list[str] = field(default_factory=list)  # anything unexpected
    reconnects: int = 0
    frames_in: int = 0
    bytes_in: int = 0


class ScriptedSeat:
    """One tab at one table, playing from what its page shows."""

    def __init__(self, base_ws: str, code: str, cookie: str, *, rng: random.Random,
                 think: float = 0.0, record: bool = False, name: str = "",
                 reply_timeout: float = 20.0, reconnect_for: float = 60.0,
                 origin: str | None = "auto", invite: str = "") -> None:
        # A private table's watcher needs its invite token, as the page's socket has it.
        self.url = f"{base_ws}/ws/table/{code}/" + (f"?invite={invite}" if invite else "")
        self.cookie = cookie
        self.rng = rng
        self.think = think
        self.record = record
        self.name = name
        self.reply_timeout = reply_timeout
        self.reconnect_for = reconnect_for
        self.origin = origin
        self.page = Page()
        self.memory = pageforms.Memory()
        self.idle_at = time.monotonic() + rng.uniform(0, 2 * IDLE_MOVE_MEAN_S)
        self.frames: list[str] = []
        self.stats = Stats()
        self.sent_moves: list[tuple[int, dict[str, Any]]] = []  # (expected version, move)
        self.acked_moves: list[tuple[int, dict[str, Any]]] = []
        self.ws: WSClient | None = None
        self.watching = False  # True for a spectator: it only listens
        self.sent_at: deque[float] = deque()  # for pacing under the server's frame limit

    @property
    def finished(self) -> bool:
        return self.page.finished

    @property
    def partials(self) -> Mapping[str, str]:
        return self.page.partials

    @property
    def version(self) -> int:
        return self.page.version

    @property
    def decision(self) -> str:
        return self.page.decision

    def _take(self, frame: str) -> None:
        self.stats.frames_in += 1
        self.stats.bytes_in += len(frame)
        if self.record:
            self.frames.append(frame)
        shown = self.page.version
        v = self.page.take(frame)
        if v is not None and v > shown and self.ws is not None:
            self.stats.seen[v] = self.ws.arrived_at

    async def connect(self) -> None:
        """Open the socket (retrying with backoff, as the page does) and read the board."""
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.1
        while True:
            try:
                self.ws = await WSClient.connect(self.url, cookie=self.cookie,
                                                 origin=self.origin, timeout=5)
                self._take(await self.ws.recv(timeout=self.reply_timeout))
                return
            except (OSError, HandshakeRefused, ConnectionClosed, TimeoutError) as exc:
                if self.ws is not None:
                    self.ws.abort()
                    self.ws = None
                if time.monotonic() > deadline:
                    raise ConnectionClosed(None, f"could not reconnect: {exc!r}") from exc
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 1.6)

    async def reconnect(self) -> None:
        self.stats.reconnects += 1
        if self.ws is not None:
            self.ws.abort()
        self.ws = None
        await self.connect()

    async def drain(self, quiet: float = 0.05) -> None:
        """Take every frame already on its way."""
        assert self.ws is not None
        while True:
            try:
                self._take(await self.ws.recv(timeout=quiet))
            except TimeoutError:
                return

    async def play(self, *, max_moves: int = 100_000, until: float | None = None) -> None:
        """Play until the game ends (or the time runs out), reconnecting through failures."""
        if self.ws is None:
            await self.connect()
        moves = 0
        while not self.finished and moves < max_moves:
            if until is not None and time.monotonic() > until:
                self.stats.errors.append("time ran out before the game ended")
                return
            try:
                move = None if self.watching else self._choose()
                if move is None:
                    assert self.ws is not None
                    with contextlib.suppress(TimeoutError):
                        self._take(await self.ws.recv(timeout=1.0))
                    continue
                if self.think:
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                    await self.drain(quiet=0)
                    fresh = None if self.watching else self._choose()
                    if fresh is None:
                        continue
                    move = fresh
                if move["optional"]:
                    self.idle_at = time.monotonic() + self.rng.expovariate(1 / IDLE_MOVE_MEAN_S)
                await self._send_move(move)
                moves += 1
            except ConnectionClosed:
                await self.reconnect()

    def _choose(self) -> dict[str, Any] | None:
        return self.page.choose(self.rng, memory=self.memory,
                                idle=time.monotonic() >= self.idle_at)

    async def _pace(self) -> None:
        """Stay under the server's frame limit (40 per 5 s) as a polite client does: a script
        answering at machine speed would otherwise be told to wait, or be cut off."""
        now = time.monotonic()
        while self.sent_at and now - self.sent_at[0] > PACE_SECONDS:
            self.sent_at.popleft()
        if len(self.sent_at) >= PACE_FRAMES:
            await asyncio.sleep(PACE_SECONDS - (now - self.sent_at[0]) + 0.01)
            await self.drain(quiet=0)
        self.sent_at.append(time.monotonic())

    async def _send_move(self, move: dict[str, Any]) -> None:
        await self._pace()
        assert self.ws is not None
        sent_version = self.version
        self.sent_moves.append((sent_version, move))
        started = time.perf_counter()
        await self.ws.send(act_frame(move, sent_version, self.decision))
        self.stats.sent += 1
        got_update = got_reply = False
        deadline = time.monotonic() + self.reply_timeout
        while not (got_update and got_reply):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stats.errors.append(f"no reply within {self.reply_timeout}s "
                                         f"to a move at version {sent_version}")
                return
            try:
                frame = await self.ws.recv(timeout=remaining)
            except TimeoutError:
                continue
            self._take(frame)
            err = error_in(frame)
            if err is not None:
                code, message = err
                got_reply = True
                if code != "ok":
                    self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
                if code == "ok":
                    self.stats.acked += 1
                    self.acked_moves.append((sent_version, move))
                elif code in RACES:
                    # Another seat (or a clock) moved first, or our own update had not reached
                    # us when we chose again: the server rightly refused a move made from a
                    # view that was already out of date.
                    self.stats.races += 1
                    return
                else:
                    self.stats.errors.append(f"{code}: {message} ({move})")
                    return
            v = version_in(frame)
            if v is not None and v > sent_version and not got_update:
                got_update = True
                self.stats.latencies.append(self.ws.arrived_at - started)
                self.stats.handled.append(time.perf_counter() - started)
                self.stats.sent_at.append(started)
                self.stats.made.append(v)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


# --- HTTP ---------------------------------------------------------------------------------------


class HttpSession:
    """A cookie-keeping HTTP/1.1 client for a site on this machine (one connection a request)."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            raise ValueError("refusing to talk to anything but this machine")
        self.host, self.port = parts.hostname, parts.port or 80
        self.cookies: dict[str, str] = {}

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def request(self, method: str, path: str, *, data: dict[str, Any] | None = None,
                body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 15) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        hdrs = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            hdrs["Cookie"] = self.cookie_header
        if data is not None:
            body = urllib.parse.urlencode(data, doseq=True, errors="surrogatepass").encode()
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        hdrs.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=hdrs)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    morsel = value.split(";", 1)[0]
                    key, _, val = morsel.partition("=")
                    if val in ('""', ""):
                        self.cookies.pop(key.strip(), None)
                    else:
                        self.cookies[key.strip()] = val.strip()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, text
        finally:
            conn.close()

    def get(self, path: str, **kw: Any) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, **kw)

    def post(self, path: str, data: dict[str, Any], *, csrf: bool = True,
             **kw: Any) -> tuple[int, dict[str, str], str]:
        data = dict(data)
        if csrf and "csrftoken" in self.cookies:
            data.setdefault("csrfmiddlewaretoken", self.cookies["csrftoken"])
        return self.request("POST", path, data=data, **kw)


# --- processes ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, process: subprocess.Popen[Any] | None = None,
              seconds: float = 40) -> None:
    parts = urllib.parse.urlsplit(url)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process exited early with code {process.returncode}")
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
            conn.request("GET", parts.path or "/")
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds}s")


def start_daphne(port: int, env: dict[str, str], log_path: Path) -> subprocess.Popen[Any]:
    log = open(log_path, "a")  # noqa: SIM115 - the child owns it
    daphne = os.environ.get("BENCH_DAPHNE_WRAPPER")
    return subprocess.Popen(
        [sys.executable, *([daphne] if daphne else ["-m", "daphne"]), "-b", "127.0.0.1",
         "-p", str(port), "chudopoly_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def start_worker(env: dict[str, str], log_path: Path, *, beat: bool = True,
                 schedule: Path | None = None) -> subprocess.Popen[Any]:
    log = open(log_path, "a")  # noqa: SIM115 - the child owns it
    cmd = [sys.executable, "-m", "celery", "-A", "chudopoly_site", "worker", "--pool", "solo",
           "--loglevel", "INFO", "--without-gossip", "--without-mingle"]
    if beat:
        cmd += ["--beat", "--schedule",
                str(schedule or (ROOT / ".bench-logs" / f"celerybeat-{os.getpid()}"))]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def kill9(process: subprocess.Popen[Any]) -> None:
    """SIGKILL one process we started (and the session it leads), then reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill9(process)


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def proc_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]
