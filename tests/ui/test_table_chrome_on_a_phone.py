"""A live table's chrome on a phone, in real Chromium at 390×844 (touch): the site's header and
the connection line are one slim row, as on lichess or Board Game Arena, so the board and the
decision get the window. The navigation folds behind a menu button (a real button with
aria-expanded, opened and shut from the keyboard); the connection is a small dot while it is
up and grows to its words, clearly, when it is lost. At 1440×900 the header is as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import check_layout, guest, off_loop, settle, sign_in

from games.platform import services
from games.platform.models import Table

pytestmark = [pytest.mark.browser]

GAMES = ["chudopoly", "boardroom", "commonwealth"]
# Header and connection line together, while connected, on a 390×844 phone.
SLIM = 64

# Stands in for the network: window.__dropSockets() closes the table's socket and makes every
# attempt to reconnect fail as a lost network does (a socket that never opens, closed as 1006,
# without a console error), until window.__allowSockets().
FLAKY_NETWORK_JS = """(() => {
  const Real = window.WebSocket, made = [];
  let blocked = false;
  function Flaky(url, protocols) {
    if (!blocked) { const s = new Real(url, protocols); made.push(s); return s; }
    const fake = {readyState: 0, OPEN: 1, CLOSED: 3, send() {}, close() {},
                  addEventListener() {}, removeEventListener() {}};
    setTimeout(() => { fake.readyState = 3;
                       if (fake.onclose) fake.onclose(new CloseEvent('close', {code: 1006})); },
               200);
    return fake;
  }
  Flaky.prototype = Real.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Flaky[k] = Real[k];
  window.WebSocket = Flaky;
  window.__dropSockets = () => { blocked = true; made.forEach(s => s.close(4000)); };
  window.__allowSockets = () => { blocked = false; };
})();"""

CHROME_JS = """() => {
  const box = sel => { const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) return null;
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            width: r.width, height: r.height}; };
  const header = box('.site-header'), bar = box('.table-topbar'), conn = box('#connection');
  return {header, bar, conn,
          chrome: Math.max(header.bottom, bar ? bar.bottom : 0),
          text: document.querySelector('#connection').textContent.trim(),
          navShown: !!box('.site-header nav')};
}"""


# Watches the connection line from the page's start: on every frame after #connection exists,
# how long since it first did, its state and words, and whether the amber pill is drawn (it is
# not drawn while transparent) and still in the accessibility tree (not display:none/hidden).
WATCH_CONNECTION_JS = """(() => {
  const seen = window.__connectionFrames = [];
  let first = null;
  function look(now) {
    const el = document.getElementById('connection');
    if (el) {
      if (first === null) first = now;
      const css = getComputedStyle(el);
      seen.push({since: now - first, state: el.dataset.state, text: el.textContent.trim(),
                 pill: el.dataset.state !== 'open' && css.opacity !== '0',
                 inTree: css.display !== 'none' && css.visibility !== 'hidden'});
    }
    if (seen.length < 2000) requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();"""
# Of a normal load, the frames looked at: the first ~300 ms of the connection line's life.
EARLY_MS = 300


def _table(game_kind: str, viewer: Any) -> Table:
    """The viewer against one easy bot, no turn clock."""
    return services.table_play_vs_bots(viewer=viewer, name="Ann", levels=["easy"],
                                       game_kind=game_kind, turn_seconds=0)


def _open(page: Any, base_url: str, game_kind: str, *, network_down: bool = False) -> None:
    page.add_init_script(FLAKY_NETWORK_JS)
    if network_down:  # even the page's first socket never opens
        page.add_init_script("window.__dropSockets();")
    page.add_init_script(WATCH_CONNECTION_JS)
    page.emulate_media(reduced_motion="reduce")
    ann = guest("ann")
    table = off_loop(_table, game_kind, ann)
    sign_in(page, base_url, ann)
    page.goto(f"{base_url}/t/{table.code}/")
    if not network_down:
        settle(page)


@pytest.mark.parametrize("game_kind", GAMES)
def test_on_a_phone_the_tables_chrome_is_one_slim_row(live_server_url: str, phone: Any,
                                                      game_kind: str,
                                                      artifacts: Path) -> None:
    page = phone
    _open(page, live_server_url, game_kind)
    got = page.evaluate(CHROME_JS)
    page.screenshot(path=str(artifacts / f"chrome-phone-{game_kind}-connected.png"))
    assert got["chrome"] <= SLIM, got
    # Connected: a small dot in the header's row; its words are still read out.
    assert got["conn"]["height"] <= 44 and got["conn"]["width"] <= 44, got
    assert got["text"] == "Connected"
    assert not got["navShown"], got
    check_layout(page, f"phone {game_kind} table")

    # The navigation is behind the menu button, which the keyboard opens and shuts.
    menu = page.locator(".site-header .nav-menu")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate("""() => document.getElementById(document.querySelector('.nav-menu')
      .getAttribute('aria-controls')).matches('.site-header nav')""")
    menu.focus()
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true"
    nav = page.locator(".site-header nav")
    nav.get_by_role("link", name="Rules").wait_for(state="visible")
    page.screenshot(path=str(artifacts / f"chrome-phone-{game_kind}-menu.png"))
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('.site-header nav') !== null")
    page.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.classList.contains('nav-menu')")
    assert not nav.is_visible()

    # A lost connection shows, in words, in the header's row, until it is back.
    page.evaluate("() => window.__dropSockets()")
    page.wait_for_selector("#connection:not([data-state=open])")
    got = page.evaluate(CHROME_JS)
    page.screenshot(path=str(artifacts / f"chrome-phone-{game_kind}-lost.png"))
    assert got["text"] in ("Reconnecting…", "Connection trouble; retrying…"), got
    assert got["conn"]["width"] >= 80 and got["conn"]["right"] <= 390, got
    assert page.locator("#connection").is_visible()
    page.evaluate("() => window.__allowSockets()")
    page.wait_for_selector("#connection[data-state=open]", timeout=30_000)


@pytest.mark.parametrize("game_kind", GAMES)
def test_on_a_desktop_the_tables_header_keeps_its_navigation(live_server_url: str,
                                                             desktop: Any, game_kind: str,
                                                             artifacts: Path) -> None:
    page = desktop
    _open(page, live_server_url, game_kind)
    page.screenshot(path=str(artifacts / f"chrome-desktop-{game_kind}.png"))
    got = page.evaluate(CHROME_JS)
    assert got["navShown"], got
    assert not page.locator(".site-header .nav-menu").is_visible()
    assert got["text"] == "Connected"


@pytest.mark.parametrize("game_kind", ["boardroom", "commonwealth"])
def test_a_normal_load_shows_no_connecting_line(live_server_url: str, device: tuple[str, Any],
                                                game_kind: str) -> None:
    """Neither a phone's amber pill nor a desktop's grey "Connecting…" flashes up while a first
    connection opens: the page came with the current state."""
    _size, page = device
    _open(page, live_server_url, game_kind)
    page.wait_for_selector("#connection[data-state=open]")
    assert page.locator("#connection").text_content() == "Connected"
    frames = page.evaluate("() => window.__connectionFrames")
    early = [f for f in frames if f["since"] < EARLY_MS]
    assert early, frames[:5]
    # While it connects, "Connecting…" is not drawn, yet the line stays in the accessibility
    # tree (its words are read out as they change).
    assert not [f for f in early if f["pill"]], early
    assert all(f["inTree"] for f in early), early


@pytest.mark.parametrize("game_kind", ["boardroom", "commonwealth"])
def test_a_first_connection_that_keeps_failing_shows_its_words(
        live_server_url: str, device: tuple[str, Any], game_kind: str,
        artifacts: Path) -> None:
    size, page = device
    _open(page, live_server_url, game_kind, network_down=True)
    page.wait_for_function("""() => { const el = document.getElementById('connection');
      return el.dataset.state !== 'open' && getComputedStyle(el).opacity === '1'; }""")
    got = page.evaluate(CHROME_JS)
    page.screenshot(path=str(artifacts / f"chrome-{size}-{game_kind}-never-connected.png"))
    assert got["text"] in ("Connecting…", "Reconnecting…", "Connection trouble; retrying…"), got
    width = page.viewport_size["width"]
    assert got["conn"]["width"] >= 80 and got["conn"]["right"] <= width, got
    assert page.locator("#connection").is_visible()
    page.evaluate("() => window.__allowSockets()")
    page.wait_for_selector("#connection[data-state=open]", timeout=30_000)
    assert page.locator("#connection").text_content() == "Connected"
