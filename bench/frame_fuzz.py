"""Bad-frame fuzz against a live site: malformed, oversized, out-of-turn, stale, duplicated and
forged websocket frames, websocket protocol violations, and bad form posts.

    uv run python bench/frame_fuzz.py --frames 10000 --posts 1000     # figures in reliability.md
    uv run python bench/frame_fuzz.py --frames 500 --sqlite           # no PostgreSQL/Redis

It starts its own production-shaped stack (bench/livestack.py: DEBUG=0, a bench database, one
Daphne, a worker), opens a 3-seat table, lets the first seat make one real move (so there is a
move to duplicate), then fires frames from the seat owed a decision, from the seats that are
not, from a spectator and from browsers with no or forged sessions. Every frame that could be
legal is first tried against the engine in this process and dropped if it would be accepted, so
nothing sent may change the game. Afterwards it checks:
- the game's state, version, action log and chat are exactly as before;
- every frame got its answer: an error frame (never "ok") on an open socket, or, for a
  websocket protocol violation, the connection failed by the server (1002/1007/1009 or a drop);
- every form post got a 3xx/4xx answer, never a 5xx;
- the server is alive (healthz) and a fresh socket still gets the board, and its log holds no
  exception raised by our code.
`run_fuzz` is what the fast test in tests/hardening/test_bad_frames.py calls.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import liveplay
from wsclient import (
    OP_CONT,
    OP_PING,
    OP_TEXT,
    ConnectionClosed,
    HandshakeRefused,
    WSClient,
    frame_bytes,
)

FRAMES_PER_SOCKET = 35  # under the 40-in-5-seconds limit, so every frame is judged on its own
TOP_KEYS = ["kind", "action", "expected_version", "seat", "cards", "colour", "target", "take",
            "give", "answer", "text", "HEADERS"]
TYPES = ["bank", "place", "action", "respond", "pay", "move", "swap", "discard", "end_turn",
         "scoop", "draw", "", "BANK", "end turn"]


@dataclass
class Target:
    """What the fuzz needs to know about the table under attack (read once, before)."""

    ws_base: str
    http_base: str
    code: str
    game_id: int
    version: int
    state: dict[str, Any]
    cookies: dict[int, str]  # engine seat -> cookie
    decider: int
    last_move: dict[str, Any]  # the real move applied at version - 1, by last_seat
    last_seat: int
    invite: str = ""  # the private table's invite token: strangers come by the invite link


@dataclass
class Outcome:
    sent: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    closes: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    skipped_legal: int = 0
    posts: Counter[int] = field(default_factory=Counter)


# --- frame generation ---------------------------------------------------------------------------


def _junk_value(rng: random.Random) -> Any:
    return rng.choice([None, True, False, 0, -1, 1.5, 10**11, 10**40, float("nan"), "", "x",
                       "1", " 2 ", "٣", "\u202e", "\ud800", "a\x00b", [], [1, 2], {}, {"a": 1},
                       "<script>alert(1)</script>", "' OR 1=1 --", "9" * 30])


def _json(obj: Any) -> str:
    return json.dumps(obj, allow_nan=True)


def _action(rng: random.Random, size: int) -> dict[str, Any]:
    action: dict[str, Any] = {"type": rng.choice(TYPES)}
    for key in ("card", "colour", "target", "take", "give", "answer", "cards"):
        if rng.random() < 0.35:
            action[key] = rng.choice([
                rng.randint(-2, size + 2), rng.choice(["blue", "red", "purple", "wild"]),
                rng.choice(["accept", "opsec", "yes"]),
                [rng.randint(-1, size + 1) for _ in range(rng.randint(0, 4))],
                _junk_value(rng)])
    if rng.random() < 0.05:
        action[rng.choice(["evil", "__proto__", "seat", "version"])] = 1
    return action


def _wellformed(rng: random.Random, size: int) -> dict[str, Any]:
    """An action that parses: a known type with fields of the right types (rarely legal)."""
    action: dict[str, Any] = {"type": rng.choice(TYPES[:10])}
    for key in ("card", "colour", "target", "take", "give", "answer", "cards"):
        if rng.random() < 0.4:
            action[key] = {
                "card": rng.randint(-2, size + 2), "take": rng.randint(-2, size + 2),
                "give": rng.randint(-2, size + 2), "target": rng.randint(-1, 6),
                "colour": rng.choice(["blue", "red", "purple", "green", "brown", "x"]),
                "answer": rng.choice(["accept", "opsec", "yes"]),
                "cards": [rng.randint(-1, size + 1) for _ in range(rng.randint(0, 4))],
            }[key]
    return action


def malformed(rng: random.Random, version: int, size: int) -> str:
    pick = rng.randrange(16)
    if pick == 0:
        return rng.choice(["", " ", "{", "}", "[]", "null", "42", '"act"', "{'kind': 'act'}",
                           "{\"kind\": \"act\",}", "NaN", "\ufeff{}"])
    if pick == 1:
        return "[" * rng.randint(1000, 8000)  # nests past the recursion limit
    if pick == 2:
        return _json({"kind": "act", "action": "[" * rng.randint(1000, 7000),
                      "expected_version": version})
    if pick == 3:
        return _json({"kind": rng.choice(["move", "ACT", "", None, 1, ["act"], "chat "]),
                      "action": {"type": "end_turn"}, "expected_version": version})
    if pick == 4:
        return _json({"kind": "act", "expected_version": version})  # no action
    if pick == 5:
        return _json({"kind": "act", "action": {"type": "end_turn"}})  # no version
    if pick == 6:
        return _json({"kind": "act", "action": _junk_value(rng), "expected_version": version})
    if pick == 7:
        return _json({"kind": "act", "action": {"type": "end_turn"},
                      "expected_version": _junk_value(rng)})
    if pick == 8:
        return _json({"kind": "act", "action": {"card": 1}, "expected_version": version})
    if pick == 9:
        return _json({"kind": "act", "action": {"type": "end_turn", "x": 1},
                      "expected_version": version, "unknown": rng.random()})
    if pick == 10:
        return _json({"kind": "act", "action": "{not json", "expected_version": version})
    if pick == 11:
        return _json({"kind": "act", "action": {"type": "pay"}, "expected_version": version,
                      "cards": [rng.randint(0, size) for _ in range(rng.randint(65, 200))]})
    if pick == 12:
        return _json({"kind": "chat", "text": rng.choice([None, 5, [], {"t": 1}, "a\x00b",
                                                          "\ud800", "x\udfff"])})
    if pick == 13:
        return _json({"kind": "act", "action": {"type": rng.choice(TYPES),
                                                "colour": _junk_value(rng)},
                      "expected_version": version, "colour": ["red"]})
    if pick == 14:
        return _json({"kind": "act", "action": _json(_action(rng, size)) + "x",
                      "expected_version": version})
    keys = rng.sample(TOP_KEYS, rng.randint(0, len(TOP_KEYS)))
    return _json({k: _junk_value(rng) for k in keys})


def oversized(rng: random.Random, version: int) -> str:
    size = rng.choice([8 * 1024 + 1, 9000, 16 * 1024, 64 * 1024, 256 * 1024, 900 * 1024])
    body = {"kind": rng.choice(["act", "chat"]), "action": {"type": "end_turn"},
            "expected_version": version, "text": ""}
    body["text"] = "x" * max(0, size - len(_json(body)))
    return _json(body)


def act(action: dict[str, Any], version: Any, **extra: Any) -> str:
    return _json({"kind": "act", "action": _json(action), "expected_version": version,
                  "HEADERS": {"HX-Request": "true"}, **extra})


# --- checking that a frame cannot change anything -----------------------------------------------


def could_change_state(target: Target, seat: int | None, text: str) -> bool:
    """Would the server accept this frame from this seat? (Then the fuzz must not send it.)"""
    from games.chudopoly.engine import IllegalAction, apply
    from games.platform.frames import FrameError, parse_frame

    try:
        frame = parse_frame(text)
    except FrameError:
        return False
    if frame.kind == "chat":
        text_value = " ".join(frame.text.split())
        return seat is not None and 0 < len(text_value) <= 500
    if seat is None or frame.expected_version != target.version:
        return False
    if frame.seat is not None and frame.seat != seat:
        return False
    try:
        apply(target.state, seat, frame.action)
    except IllegalAction:
        return False
    except Exception:
        return True  # the engine would crash on it: worth knowing, but not by changing a game
    return True


# --- sending -------------------------------------------------------------------------------------


async def _answer(ws: WSClient, timeout: float) -> tuple[str, str | None]:
    """Wait for this frame's answer: ("error", code) or ("closed", close code)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout", None
        try:
            text = await ws.recv(timeout=remaining)
        except TimeoutError:
            return "timeout", None
        except ConnectionClosed as exc:
            return "closed", str(exc.code)
        err = liveplay.error_in(text)
        if err is not None:
            return "error", err[0]


async def _socket(target: Target, cookie: str) -> WSClient:
    for attempt in range(20):
        try:
            ws = await WSClient.connect(f"{target.ws_base}/ws/table/{target.code}/"
                                        f"?invite={target.invite}",
                                        cookie=cookie, timeout=10)
            await ws.recv(timeout=30)  # the board
            return ws
        except (OSError, HandshakeRefused, ConnectionClosed, TimeoutError):
            await asyncio.sleep(0.2 * (attempt + 1))
    raise RuntimeError("could not open a socket to the table")


async def _sender(target: Target, role: str, cookie: str, seat: int | None,
                  plan: list[tuple[str, str, Any]], out: Outcome, reply_timeout: float) -> None:
    ws: WSClient | None = None
    used = 0
    for category, kind, payload in plan:
        if ws is None or ws.closed is not None or used >= FRAMES_PER_SOCKET:
            if ws is not None:
                await ws.close()
            ws = await _socket(target, cookie)
            used = 0
        used += 1
        out.sent[category] += 1
        try:
            if kind == "text":
                await ws.send(payload)
            elif kind == "bytes":
                await ws.send_bytes(payload)
            else:  # raw protocol bytes
                await ws.send_raw(payload)
        except ConnectionClosed as exc:
            out.failures.append(f"{role}/{category}: the socket closed before sending ({exc})")
            ws = None
            continue
        how, code = await _answer(ws, reply_timeout)
        if how == "error" and code != "ok":
            out.answered[category] += 1
            out.codes[f"{category}:{code}"] += 1
        elif how == "closed" and kind == "raw":
            # A protocol violation: the server fails the connection (autobahn drops it, 1006,
            # or closes with 1002 / 1007 / 1009).
            out.answered[category] += 1
            out.closes[int(code) if code and code.isdigit() else 0] += 1
            ws = None
        elif how == "closed" and code == "1009" and category == "oversized":
            out.answered[category] += 1
            out.closes[1009] += 1
            ws = None
        else:
            out.failures.append(f"{role}/{category}: answer {how} {code} to "
                                f"{str(payload)[:120]!r}")
            if how == "closed":
                ws = None
    if ws is not None:
        await ws.close()


def build_plans(target: Target, frames: int, rng: random.Random, out: Outcome
                ) -> list[tuple[str, str, int | None, list[tuple[str, str, Any]]]]:
    """(role, cookie, seat, [(category, kind, payload)]) for each sender."""
    from games.chudopoly.engine import legal_actions

    size = sum(len(p["hand"]) + len(p["bank"]) for p in target.state["players"]) + len(
        target.state["deck"]) + len(target.state["discard"]) + 40
    v = target.version
    decider = target.decider
    idle = [s for s in target.cookies if s != decider]
    legal_now = [a for a in legal_actions(target.state, decider) if a["type"] != "scoop"]
    senders: dict[str, tuple[str, int | None, list[tuple[str, str, Any]]]] = {
        "decider": (target.cookies[decider], decider, []),
        "spectator": ("sessionid=" + "x" * 32, None, []),
        "no-session": ("", None, []),
    }
    for s in idle:
        senders[f"idle{s}"] = (target.cookies[s], s, [])
    protocol_raw = [
        lambda: frame_bytes(OP_TEXT, b'{"kind": "act", "text": "\xff\xfe"}'),  # bad UTF-8
        lambda: frame_bytes(OP_TEXT, b"{}", mask=False),  # clients must mask
        lambda: frame_bytes(OP_TEXT, b"{}", rsv=4),  # reserved bit
        lambda: frame_bytes(0x3, b"{}"),  # reserved opcode
        lambda: frame_bytes(OP_CONT, b"{}"),  # a continuation of nothing
        lambda: frame_bytes(OP_PING, b"x" * 200),  # control frames carry at most 125 bytes
        lambda: frame_bytes(OP_PING, b"x", fin=False),  # control frames cannot be fragmented
        lambda: frame_bytes(OP_TEXT, b"x" * (2 * 1024 * 1024)),  # over Daphne's 1 MiB cap
    ]
    categories = ["malformed"] * 30 + ["oversized"] * 4 + ["out_of_turn"] * 14 + \
        ["stale"] * 12 + ["duplicate"] * 10 + ["forged"] * 14 + ["illegal"] * 12 + \
        ["binary"] * 2 + ["protocol"] * 2
    made = 0
    while made < frames:
        category = rng.choice(categories)
        role, kind = "decider", "text"
        payload: Any
        if category == "malformed":
            role = rng.choice(list(senders))
            payload = malformed(rng, v, size)
        elif category == "oversized":
            role = rng.choice(list(senders))
            payload = oversized(rng, v)
        elif category == "binary":
            role, kind = rng.choice(list(senders)), "bytes"
            payload = rng.choice([b"", b"\x00" * 10, b'{"kind":"act"}', bytes(range(256))])
        elif category == "protocol":
            role, kind = rng.choice(list(senders)), "raw"
            payload = rng.choice(protocol_raw)()
        elif category == "out_of_turn":
            role = rng.choice([r for r in senders if r.startswith("idle")] or ["spectator"])
            action = rng.choice(legal_now) if legal_now and rng.random() < 0.7 \
                else _wellformed(rng, size)
            payload = act(action, v)
        elif category == "stale":
            role = rng.choice(["decider", *[r for r in senders if r.startswith("idle")]])
            action = rng.choice(legal_now) if legal_now and rng.random() < 0.7 \
                else _wellformed(rng, size)
            old = rng.choice([v - 1, v - 2, 0, -1, max(0, v - 10)]) if v > 1 else -1
            payload = act(action, rng.choice([old, str(old), v + 1, v + 100, 10**10]))
        elif category == "duplicate":
            role = "decider" if target.last_seat == decider else f"idle{target.last_seat}"
            payload = act(target.last_move, v - 1)
        elif category == "forged":
            role = rng.choice(list(senders))
            other = rng.choice([s for s in target.cookies if s != senders[role][1]]
                               + [-1, 7, 10**9])
            action = rng.choice(legal_now) if legal_now else {"type": "end_turn"}
            payload = act(action, v, seat=other)
        else:  # illegal: well-formed but not a legal move at the current version
            role = rng.choice(list(senders))
            payload = act(_wellformed(rng, size) if rng.random() < 0.8 else _action(rng, size),
                          v)
        _cookie, seat, plan = senders[role]
        if kind == "text" and could_change_state(target, seat, payload):
            out.skipped_legal += 1
            continue
        plan.append((category, kind, payload))
        made += 1
    return [(role, cookie, seat, plan) for role, (cookie, seat, plan) in senders.items()]


def _split(plan: list[Any], parts: int) -> list[list[Any]]:
    return [plan[i::parts] for i in range(parts)]


async def fuzz_frames(target: Target, frames: int, *, seed: int = 1, concurrency: int = 6,
                      reply_timeout: float = 30.0) -> Outcome:
    rng = random.Random(seed)
    out = Outcome()
    plans = build_plans(target, frames, rng, out)
    # Every player keeps one quiet tab open throughout: a seat with no socket for 30 s would be
    # handed to a bot (games/platform/clocks.py), and a bot's move is a real change.
    anchors = [await _socket(target, cookie) for cookie in target.cookies.values()]
    jobs = []
    for role, cookie, seat, plan in plans:
        if not plan:
            continue
        share = max(1, round(concurrency * len(plan) / frames))
        for part in _split(plan, share):
            jobs.append(_sender(target, role, cookie, seat, part, out, reply_timeout))
    try:
        await asyncio.gather(*jobs)
    finally:
        for ws in anchors:
            await ws.close()
    return out


# --- form posts ---------------------------------------------------------------------------------


def fuzz_posts(target: Target, posts: int, *, seed: int = 1,
               server_errors: list[str] | None = None) -> Counter[int]:
    """Bad form posts: no token, wrong token, strangers, junk fields, huge bodies, bad codes."""
    rng = random.Random(seed)
    base = target.http_base
    statuses: Counter[int] = Counter()
    server_errors = server_errors if server_errors is not None else []
    stranger = liveplay.HttpSession(base)
    stranger.get(f"/t/{target.code}/?invite={target.invite}")
    seated = liveplay.HttpSession(base)
    key, _, value = target.cookies[target.decider].partition("=")
    seated.cookies[key] = value
    seated.get(f"/t/{target.code}/")
    paths = [f"/t/{target.code}/{p}/" for p in ("join", "leave", "bots", "start", "rematch",
                                               "move", "bots/1/remove", "move/bad-token")]
    paths += ["/tables/new/", "/accounts/login/", "/accounts/signup/", "/ladder/play/",
              "/ladder/play/leave/", "/ladder/play/bots/", "/t/ZZZZ/join/", "/t/%00%00/start/",
              "/accounts/logout/", "/ladder/play/status/"]
    for _ in range(posts):
        who = rng.choice([stranger, seated])
        path = rng.choice(paths)
        pick = rng.randrange(6)
        data: dict[str, Any] = {k: str(_junk_value(rng))[:200] for k in
                                rng.sample(["name", "level", "preset", "max_seats",
                                            "turn_seconds", "response_seconds", "username",
                                            "password", "seats", "mode", "text"],
                                           rng.randint(0, 5))}
        if path == "/tables/new/":
            data["max_seats"] = rng.choice(["9", "-1", "x", "1"])  # never a valid table
        headers: dict[str, str] = {}
        if pick == 0:
            status, _, _ = who.post(path, data, csrf=False)
        elif pick == 1:
            data["csrfmiddlewaretoken"] = "x" * 64
            status, _, _ = who.post(path, data, csrf=False)
        elif pick == 2:
            status, _, _ = who.request("POST", path, body=b"\xff" * rng.randint(1, 5000),
                                       headers={"Content-Type": rng.choice([
                                           "application/x-www-form-urlencoded",
                                           "multipart/form-data; boundary=x", "text/plain",
                                           "application/json"])})
        elif pick == 3:
            status, _, _ = who.request("POST", path, body=b"a=" + b"b" * (3 * 1024 * 1024),
                                       headers={"Content-Type":
                                                "application/x-www-form-urlencoded"})
        elif pick == 4:
            headers = {"Origin": "http://evil.example", "Referer": "http://evil.example/"}
            status, _, _ = who.post(path, data, headers=headers)
        else:
            if path.endswith(("/start/", "/rematch/", "/bots/", "/leave/", "/join/", "/move/")) \
                    and who is seated:
                path = "/t/ZZZZ/start/"  # the seated player's own lobby posts are real moves
            status, _, _ = who.post(path, data)
        statuses[status] += 1
        if status >= 500:
            server_errors.append(f"{status} POST {path} (case {pick})")
    return statuses


# --- the whole run ------------------------------------------------------------------------------


def prepare_target(ws_base: str, http_base: str) -> Target:
    """A started 3-seat table whose first decider has made one real move (to duplicate)."""
    import livesetup

    from games.chudopoly.engine import legal_actions
    from games.platform import services
    from games.platform.models import Game, Table

    table = livesetup.guest_table(3, preset="chudopoly")
    game = Game.objects.get(pk=table.game_id)
    seat = game.state["turn"]
    move = next(a for a in legal_actions(game.state, seat) if a["type"] in ("bank", "place"))
    services.table_apply_action(game_id=game.pk, seat=seat, action=move, expected_version=0)
    # Two humans raise the clocks to 30 s / 15 s; the fuzz takes longer than that and no clock
    # may move this game while it runs, so its deadlines are cleared (nothing else sets them).
    Game.objects.filter(pk=game.pk).update(deadlines={}, clock_due=None)
    game.refresh_from_db()
    cookies = {table.seats[name]: cookie for name, cookie in table.cookies.items()}
    from games.chudopoly.engine import to_decide

    return Target(ws_base=ws_base, http_base=http_base, code=table.code, game_id=game.pk,
                  version=game.version, state=game.state, cookies=cookies,
                  decider=to_decide(game.state)[0], last_move=move, last_seat=seat,
                  invite=Table.objects.get(pk=table.table_id).invite_token)


def snapshot(target: Target) -> tuple[Any, ...]:
    from games.platform.models import ChatMessage, Game, GameAction, Seat

    game = Game.objects.get(pk=target.game_id)
    seats = list(Seat.objects.filter(table_id=game.table_id).order_by("pk")
                 .values_list("pk", "name", "away", "game_seat"))
    return (game.version, json.dumps(game.state, sort_keys=True), game.status,
            GameAction.objects.filter(game=game).count(),
            ChatMessage.objects.filter(table_id=game.table_id).count(), seats)


async def board_after(target: Target) -> bool:
    ws = await _socket(target, target.cookies[target.decider])
    await ws.close()
    return True


def run_fuzz(ws_base: str, http_base: str, *, frames: int, posts: int, seed: int = 1,
             concurrency: int = 6) -> dict[str, Any]:
    target = prepare_target(ws_base, http_base)
    before = snapshot(target)
    started = time.monotonic()
    out = asyncio.run(fuzz_frames(target, frames, seed=seed, concurrency=concurrency))
    frame_seconds = time.monotonic() - started
    post_errors: list[str] = []
    out.posts = fuzz_posts(target, posts, seed=seed, server_errors=post_errors)
    after = snapshot(target)
    alive = asyncio.run(board_after(target))
    status, _, _ = liveplay.HttpSession(http_base).get("/healthz")
    return {
        "frames_sent": sum(out.sent.values()),
        "frames_answered": sum(out.answered.values()),
        "by_category": dict(sorted(out.sent.items())),
        "answers": dict(sorted(out.codes.items())),
        "closes": dict(sorted(out.closes.items())),
        "skipped_because_legal": out.skipped_legal,
        "failures": out.failures[:20],
        "failure_count": len(out.failures),
        "posts": dict(sorted(out.posts.items())),
        "posts_5xx": sum(n for s, n in out.posts.items() if s >= 500),
        "posts_5xx_samples": post_errors[:10],
        "unchanged": before == after,
        "healthz": status,
        "socket_after": alive,
        "frame_seconds": round(frame_seconds, 1),
    }


def application_errors(log_text: str) -> list[str]:
    """Exceptions our code raised, from a Daphne log (the disconnect race is Daphne's own)."""
    benign = ("Attempt to send on a closed protocol", "ClientDisconnected")
    found = []
    for block in log_text.split("Exception inside application")[1:]:
        head = block.strip().splitlines()[0] if block.strip() else ""
        if not any(b in head for b in benign):
            tail = [line for line in block.splitlines() if line and not line.startswith(" ")]
            found.append(f"{head} | {tail[-1] if tail else ''}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--sqlite", action="store_true",
                        help="SQLite + in-process layer instead of PostgreSQL + Redis")
    args = parser.parse_args(argv)
    import livestack

    stack = livestack.LiveStack(web=1, database="chudopoly_fuzz", redis_db=12,
                                sqlite=args.sqlite)
    stack.prepare()
    stack.setup_django()
    stack.start()
    try:
        out = run_fuzz(stack.ws_base(0), stack.http_base(0), frames=args.frames,
                       posts=args.posts, seed=args.seed, concurrency=args.concurrency)
        alive = stack.web[0].poll() is None
    finally:
        stack.stop()
    log = (livestack.LOGS / "daphne-0.log").read_text(errors="replace")
    out["server_alive_at_end"] = alive
    out["application_errors"] = application_errors(log)[:10]
    print(json.dumps(out, indent=1))
    ok = (out["unchanged"] and not out["failure_count"] and not out["posts_5xx"]
          and out["healthz"] == 200 and alive and not out["application_errors"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
