"""Builders and checks shared by the UI tests: prepared positions, a browser that is a given
guest, and the layout, tap-target and accessibility checks every screenshot goes through."""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.db import connections
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.chudopoly.engine.scenario import card as card_id
from games.chudopoly.engine.scenario import scenario
from games.platform import services
from games.platform.consumers import RATE_LIMIT_FRAMES, RATE_LIMIT_SECONDS
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat, Table

ENGINE = get_game("chudopoly")


def off_loop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run database and service code on a worker thread: Playwright's sync API keeps an event
    loop on the test thread, where async_to_sync (broadcasts) refuses to run."""
    def call() -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def guest(name: str) -> Viewer:
    return Viewer(user_id=None, guest_key=f"ui-{name.lower()}-{secrets.token_hex(8)}")


def sign_in(page: Any, base_url: str, viewer: Viewer) -> None:
    """Make the browser this guest: a session holding its key, as the site's cookie."""
    def make() -> str:
        session = SessionStore()
        session[GUEST_SESSION_KEY] = viewer.guest_key
        session.create()
        return session.session_key

    page.context.add_cookies([{"name": "sessionid", "value": off_loop(make), "url": base_url}])


def my_seat(game: Game, viewer: Viewer) -> int:
    seat = next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))
    assert seat.game_seat is not None
    return seat.game_seat


def prepared_game(viewer: Viewer, **kwargs: Any) -> tuple[Game, int]:
    return off_loop(_prepared_game, viewer, **kwargs)


def two_guest_game(game_kind: str, ann: Viewer, other: Viewer,
                   other_name: str) -> tuple[Game, int, int]:
    """Ann's two-seat table of `game_kind`, the other guest joined, started: the game and
    the two guests' engine seats. Call off the loop (off_loop)."""
    table = services.table_create(viewer=ann, name="Ann", ruleset_spec={}, max_seats=2,
                                  game_kind=game_kind)
    services.seat_join(table_id=table.pk, viewer=other, name=other_name)
    game = services.game_start(table_id=table.pk, viewer=ann)
    seats = {s.name: s.game_seat for s in Seat.objects.filter(table_id=table.pk)}
    return game, seats["Ann"], seats[other_name]


def open_table(viewer: Viewer, *, bots: int = 1, preset: str = "chudopoly") -> Table:
    def make() -> Table:
        table = services.table_create(viewer=viewer, name="Ava", ruleset_spec={"preset": preset})
        for _ in range(bots):
            services.seat_add_bot(table_id=table.pk, viewer=viewer, level="easy")
        return table

    return off_loop(make)


def _prepared_game(viewer: Viewer, *, bots: int, build: Any, preset: str = "chudopoly",
                   turn_seconds: int = 300, response_seconds: int = 120) -> tuple[Game, int]:
    """A started table (viewer + easy bots) whose state is replaced by `build(me, others)`, a
    scenario state. Set up so the viewer (not a bot) owes the first decision; the live site's
    bots take over from the first move."""
    table = services.table_create(viewer=viewer, name="Ava", ruleset_spec={"preset": preset},
                                  max_seats=bots + 1, turn_seconds=turn_seconds,
                                  response_seconds=response_seconds)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=viewer, level="easy")
    game = services.game_start(table_id=table.pk, viewer=viewer)
    me = my_seat(game, viewer)
    others = [s for s in range(bots + 1) if s != me]
    state = build(me, others, ruleset=table.ruleset)
    state["version"] = game.version
    game.state = state
    game.deadlines = _deadlines(game, table)
    game.save()
    game.table_code = table.code
    return game, me


def _deadlines(game: Game, table: Table) -> dict[str, Any]:
    try:
        from games.platform.clocks import next_deadlines
    except ImportError:  # clocks arrive in another issue
        return {}
    return next_deadlines(ENGINE, game.state, table, {})


def act(game: Game, seat: int, action: Mapping[str, Any]) -> Game:
    """Make a seat's move in the test process, for a page loaded after it. Its broadcast goes
    to this process's channel layer: without a shared Redis (REDIS_URL) a live site's open page
    hears of it only at its socket's 15 s heartbeat (games/platform/heartbeat.py), so a move
    an open page must see pushed is made on the site, from a browser of its seat's."""
    def apply() -> Game:
        game.refresh_from_db()
        return services.table_apply_action(game_id=game.pk, seat=seat, action=dict(action),
                                           expected_version=game.version)

    return off_loop(apply)


# --- positions ---------------------------------------------------------------------------------


def mid_game(me: int, others: list[int], ruleset: Any = None) -> dict:
    a, b = others[0], others[1]
    return scenario(
        ruleset=ruleset,
        seats=3, turn=me, turn_number=7, plays_left=2,
        hands={me: ["F-35 Lightning II", "wild:red/yellow", "money:5", "rent:red/yellow",
                    "midnight_requisition", "opsec", "pcs_orders"],
               a: ["money:1", "money:1", "pcs_orders", "pcs_orders", "property:pink"],
               b: ["money:1", "pcs_orders", "property:yellow", "money:2"]},
        boards={me: {"red": ["F-22 Raptor"], "darkblue": ["The Pentagon", "Air Force One"],
                     "lightblue": ["Lackland AFB (BMT)", "wild:brown/lightblue"]},
                a: {"green": ["Thunderbirds", "Weapons School"],
                    "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"]},
                b: {"base": ["Ramstein AB", "Kadena AB"], "intel": ["PAVE PAWS Radar"],
                    "yellow": ["KC-135 Stratotanker"]}},
        upgrades={a: {"orange": ["upgrade"]}},
        banks={me: ["money:3", "money:1", "roll_call"], a: ["money:2", "money:4"],
               b: ["money:10"]},
        discard=["pcs_orders", "money:2"],
    )


def bot_charges_me(me: int, others: list[int], ruleset: Any = None) -> dict:
    """A bot's turn with Finance Office in hand; the test plays it against the viewer."""
    bot = others[0]
    return scenario(
        ruleset=ruleset,
        seats=2, turn=bot, turn_number=4, plays_left=3,
        hands={bot: ["finance_office", "money:1"], me: ["money:1", "pcs_orders", "property:pink"]},
        boards={me: {"red": ["F-22 Raptor", "F-15 Eagle"], "brown": ["Creech AFB"]},
                bot: {"green": ["Thunderbirds"]}},
        banks={me: ["money:2", "money:1", "pcs_orders"], bot: ["money:3"]},
    )


def about_to_arm(me: int, others: list[int], ruleset: Any = None) -> dict:
    """Two complete sets and two of three Fighters; the third is in hand."""
    return scenario(
        ruleset=ruleset,
        seats=2, turn=me, turn_number=9, plays_left=3,
        hands={me: ["F-15 Eagle", "money:2", "pcs_orders"],
               others[0]: ["money:1", "money:1", "pcs_orders"]},
        boards={me: {"darkblue": ["The Pentagon", "Air Force One"],
                     "brown": ["Creech AFB", "Cannon AFB"],
                     "red": ["F-22 Raptor", "F-35 Lightning II"]},
                others[0]: {"green": ["Thunderbirds", "Weapons School"], "pink": ["Peterson SFB"]}},
        banks={me: ["money:4"], others[0]: ["money:5", "money:2"]},
    )


def hand_card(game: Game, me: int, descriptor: str) -> int:
    def find() -> int:
        game.refresh_from_db()
        return card_id(game.state, descriptor, me)

    return off_loop(find)


# --- checks ------------------------------------------------------------------------------------

LAYOUT_JS = """() => {
  const doc = document.documentElement;
  const visible = el => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    for (let n = el; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.visibility === 'hidden' || cs.display === 'none') return false;
    }
    return !el.closest('.vh, .visually-hidden');
  };
  const name = el => (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ' "' +
      (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 40) + '"';
  const targets = [...document.querySelectorAll(
      'button, select, input:not([type=hidden]), textarea, summary, a.button, label.pay-card,' +
      ' .site-header a, .rules-toc a')].filter(visible);
  const small = targets
    // A checkbox's target is its label when the label is big enough (tap the words).
    .filter(el => !(el.matches('input[type=checkbox], input[type=radio]') &&
                    [...(el.labels || [])].some(l => l.getBoundingClientRect().height >= 44)))
    .filter(el => { const r = el.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
    .map(el => { const r = el.getBoundingClientRect();
                 return name(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height); });
  // A bar fixed to the window (a board game's decision on a phone) lies over the page, which
  // scrolls beneath it: only controls in the same layer can collide.
  const layer = el => { for (let n = el; n; n = n.parentElement)
                          if (getComputedStyle(n).position === 'fixed') return n;
                        return null; };
  const boxes = targets.map(el => [el, el.getBoundingClientRect(), layer(el)]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra, la] = boxes[i], [b, rb, lb] = boxes[j];
      if (a.contains(b) || b.contains(a) || la !== lb) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 2 && h > 2) overlaps.push(name(a) + ' / ' + name(b));
    }
  }
  // What sticks out on the right (innermost first), to say where a sideways scroll comes from.
  const sticksOut = el => el.getBoundingClientRect().right > doc.clientWidth + 1;
  const wide = [...document.body.querySelectorAll('*')]
    .filter(el => sticksOut(el) && ![...el.children].some(sticksOut))
    .slice(0, 6).map(el => {
      const path = [];
      for (let n = el; n && n !== document.body; n = n.parentElement)
        path.unshift(n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') +
                     (n.classList.length ? '.' + [...n.classList].join('.') : ''));
      return path.join(' > ') + ' "' + (el.textContent || '').trim().slice(0, 30) + '" right=' +
             Math.round(el.getBoundingClientRect().right);
    });
  return {overflow: doc.scrollWidth - doc.clientWidth, small, overlaps, wide,
          width: doc.clientWidth};
}"""


# Every animation that ends has ended (a clock's blink or a nudge's glow never ends: ignored).
STILL_JS = """() => document.getAnimations().every(a => a.playState !== 'running' ||
    a.effect.getComputedTiming().endTime === Infinity)"""


def wait_still(page: Any) -> None:
    """Wait until no animation that ends is running. A box part-way through a transform measures
    off by a fraction of a pixel (a 44 px button 43.99 px tall while a decision panel rises) and
    one fading in reads paler to axe. A full-page screenshot plays a panel's entrance animation
    again, so a check right after one must wait too."""
    page.wait_for_function(STILL_JS, timeout=5_000)


def check_layout(page: Any, where: str) -> None:
    """No horizontal scroll, no overlapping controls, every tap target at least 44×44 px."""
    # Measured once the page's stylesheets are in: an element can be found before they load
    # (a form's answer page on a loaded box), and unstyled links are 17 px tall.
    page.wait_for_load_state("load")
    wait_still(page)
    got = page.evaluate(LAYOUT_JS)
    assert got["overflow"] <= 0, (
        f"{where}: the page scrolls sideways by {got['overflow']} px: {got['wide']}")
    assert not got["overlaps"], f"{where}: interactive elements overlap: {got['overlaps'][:8]}"
    assert not got["small"], f"{where}: tap targets under 44 px: {got['small'][:8]}"


def check_axe(page: Any, axe: Path, where: str) -> list[str]:
    """axe-core on the page: no serious or critical violations. Returns the minor/moderate ones."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(axe))
    wait_still(page)
    result = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}});
      return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""")
    bad = [v for v in result if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: axe found:\n" + json.dumps(bad, indent=1)
    return [f"{v['impact']} {v['id']}" for v in result]


def shot(page: Any, artifacts: Path, name: str) -> Path:
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def settle(page: Any) -> None:
    """Wait for the socket and for animations to end, so screenshots are sharp."""
    page.wait_for_selector("#connection[data-state=open]")
    page.wait_for_timeout(300)


def start_heads_up_commonwealth(page: Any, base_url: str, viewer: Viewer) -> None:
    """Cora (signed in as `viewer`) starts Commonwealth against one medium bot from the
    play-vs-bots form, and her table's page has settled: a short game with every kind of
    decision."""
    sign_in(page, base_url, viewer)
    page.goto(base_url + "/play/bots/?game=commonwealth")
    if page.locator('#play-bots-form input[name="name"]').count():
        page.locator('#play-bots-form input[name="name"]').fill("Cora")
    page.locator('select[name="bot_1"]').select_option("medium")
    for slot in ("bot_2", "bot_3"):
        page.locator(f'select[name="{slot}"]').select_option("")
    page.locator("#play-bots-form button[type=submit]").click()
    page.wait_for_url("**/t/*/")
    settle(page)


def open_watched_commonwealth(page: Any, base_url: str, viewer: Viewer) -> None:
    """The page's socket watched (`page.wire`) and motion reduced — buttons fade their colour as
    a push swaps them in, and axe must read the final colours — then `viewer`'s heads-up game
    against a bot started as start_heads_up_commonwealth does."""
    page.wire = Wire(page)
    page.emulate_media(reduced_motion="reduce")
    start_heads_up_commonwealth(page, base_url, viewer)


def put_commonwealth_state(page: Any, viewer: Viewer,
                           build: Callable[[int], dict[str, Any]]) -> None:
    """Replace the state of the game on `page` with `build(viewer's seat)`, one version on (so
    it reads as news, not a stale copy), and reload the page to show it."""

    def put() -> None:
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        game = Game.objects.filter(table__code=code).get()
        state = build(my_seat(game, viewer))
        state["version"] = game.state["version"] + 1
        game.state = state
        game.save(update_fields=["state"])

    off_loop(put)
    page.reload()
    settle(page)


def wait_version_change(page: Any, before: str | None, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "v => document.getElementById('table-version').value !== v", arg=before, timeout=timeout)


# --- moves made by clicking, and the server's answers -------------------------------------------


class Wire:
    """What a page's table socket carried: the frames it sent, and the server's answers to them
    (the frames that swap in #frame-error: "ok" with the move, or why it was refused).

    A click need not send a move: a push that replaces the decision panel while the button is
    pressed takes the button away (Playwright then retries on the new panel, whose choices may
    differ). The server answers every move it gets."""

    def __init__(self, page: Any) -> None:
        self.sent = 0
        self.sent_at: deque[float] = deque()
        self.answers: list[str] = []
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, frame: Any) -> None:
        self.sent += 1
        self.sent_at.append(time.monotonic())

    def pace(self, page: Any) -> None:
        """Wait until one more frame keeps within the server's rate limit. A script clicking
        as soon as each answer lands sends faster than any person (a quick heads-up game has
        gone past 40 moves in 5 s), and the server rightly refuses it ("rate_limited")."""
        while True:
            now = time.monotonic()
            while self.sent_at and now - self.sent_at[0] > RATE_LIMIT_SECONDS:
                self.sent_at.popleft()
            if len(self.sent_at) < RATE_LIMIT_FRAMES - 2:  # room for a send a push retried
                return
            page.wait_for_timeout(100)

    def _received(self, frame: Any) -> None:
        answer = ANSWER.search(frame if isinstance(frame, str) else frame.decode())
        if answer:
            self.answers.append(answer.group(1))


ANSWER = re.compile(r'<div id="frame-error"[^>]*data-code="([^"]*)"')
# Refusals a race may bring: another seat's move changed this seat's decision first.
RACED = ("stale", "duplicate")


def click_decision(page: Any, selector: str) -> bool:
    """Click a choice in the decision panel; once its move went out, wait for the server's
    answer. True when the move was made, False when no move went out or a race refused it
    (the caller looks at the panel again)."""
    wire = page.wire
    wire.pace(page)
    sent, answered = wire.sent, len(wire.answers)
    # A timeout here: a push took the choice away, or it went out and the answer replaced it.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.locator(f"#decision {selector}").first.click(timeout=5_000)
    if wire.sent == sent:
        return False
    deadline = time.monotonic() + 15
    while len(wire.answers) == answered:
        assert time.monotonic() < deadline, f"no answer to the move of {selector}"
        page.wait_for_timeout(50)  # Playwright delivers the socket's events meanwhile
    code = wire.answers[answered]
    assert code in ("ok", *RACED), (selector, code, page.locator("#frame-error").inner_text())
    return code == "ok"
