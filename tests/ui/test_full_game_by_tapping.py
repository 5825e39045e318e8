"""A whole game against an easy bot, from the start-a-table form to the result, played only by
tapping (phone, 390×844, touch) or clicking (desktop, 1440×900). Every decision (plays, answers,
payments, discards, ending the turn) arrives over the socket on the same page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from ui_helpers import check_axe, check_layout, shot, wait_version_change

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Which of a hand card's options a quick player prefers (first match wins).
PREFERENCE = ["Place in", "Play it: draw", "Seize", "Take ", "Swap your", "Add to your", "Charge",
              "Collect", "Play it: everyone", "Bank it"]
MOVE_LIMIT = 400
QUICK_DECK = {"midnight_requisition": 0, "tdy_orders": 0, "inspector_general": 0, "chud": 0,
              "pcs_orders": 12, "wildAny": 4, "wildPairs": 9}
RACES = ("stale", "not_your_turn", "duplicate")

# Read the page once and say what to tap: the pushes of bot moves keep replacing the partials,
# so the plan names elements by id and is carried out at once (or re-made).
PLAN_JS = """(prefs) => {
  const q = s => document.querySelector(s);
  // How close each of my sets is to complete, by set name: a place that completes a set comes
  // first, then one that adds to a set, then a new set (small sets first).
  const mine = {};
  for (const z of document.querySelectorAll('#players .seat.me .zone')) {
    const [have, size] = z.querySelector('.zone-count').textContent.split('/').map(Number);
    mine[z.querySelector('.zone-name').textContent.trim()] = [have, size];
  }
  const rank = label => {
    const i = prefs.findIndex(p => label.startsWith(p));
    if (i < 0) return prefs.length * 10;
    if (label.startsWith('Place in ')) {
      const zone = mine[label.slice(9).trim()];
      if (!zone) return i * 10 + 3;
      return i * 10 + (zone[0] + 1 >= zone[1] ? 0 : zone[0] + 1 > zone[1] ? 9 : 1);
    }
    return i * 10;
  };
  if (q('#result')) return {kind: 'over'};
  const answer = q('.respond-form button:not(.opsec)') || q('.respond-form button');
  if (answer) return {kind: 'answer', tap: [answer.id]};
  if (q('.pay-form')) {
    const quick = q('.pay-quick button');
    if (quick) return {kind: 'pay', tap: [quick.id]};
    return {kind: 'pay', ticks: '.pay-form', confirm: 'pay-confirm'};
  }
  const discard = q('.discard-form');
  if (discard) return {kind: 'discard', ticks: '.discard-form', confirm: 'discard-confirm',
                       need: +discard.dataset.need};
  if (!q(`#status[data-turn="${q('#table-me').dataset.me}"]`)) return {kind: 'wait'};
  const left = /(\\d+) plays? left/.exec(q('.turn-line').textContent);
  if (left && +left[1] > 0) {
    let best = null;
    for (const form of document.querySelectorAll('#hand .play-form')) {
      const button = form.querySelector('button');
      const select = form.querySelector('select');
      const options = select ? [...select.options].map(o => [o.textContent, o.value])
                             : [[button.textContent.trim(), null]];
      for (const [label, value] of options) {
        const r = rank(label);
        if (!best || r < best.r) best = {r, button: button.id, select: select && select.id, value};
      }
    }
    if (best) return {kind: 'play', tap: [best.button], select: best.select, value: best.value};
  }
  if (q('#end-turn')) return {kind: 'end', tap: ['end-turn']};
  return {kind: 'wait'};
}"""


def _press(page: Any, selector: Any, touch: bool) -> None:
    target = page.locator(selector) if isinstance(selector, str) else selector
    if touch:
        target.tap(timeout=1200)
    else:
        target.click(timeout=1200)


def _decide(page: Any, touch: bool) -> str | None:
    """Make the decision the page offers, by tapping; return what it was, or None."""
    plan = page.evaluate(PLAN_JS, PREFERENCE)
    kind = plan["kind"]
    if kind in ("over", "wait"):
        return None
    try:
        if plan.get("select"):
            page.select_option(f"#{plan['select']}", value=plan["value"], timeout=1200)
        if plan.get("ticks"):
            labels = page.locator(f"{plan['ticks']} label.pay-card")
            for i in range(plan.get("need") or labels.count()):
                (labels.nth(i).tap if touch else labels.nth(i).click)(timeout=1200)
                if not plan.get("need") and page.locator(f"#{plan['confirm']}").is_enabled():
                    break
            _press(page, f"#{plan['confirm']}", touch)
        for element_id in plan.get("tap") or []:
            _press(page, f"#{element_id}", touch)
    except PlaywrightTimeout:
        return None  # the page changed under the plan: look again
    return kind


def test_a_whole_game_against_an_easy_bot_by_tapping_then_clicking(
        live_server_url: str, phone: Any, artifacts: Path, axe_script: Path) -> None:
    """Phone first (390×844, taps); halfway the window becomes 1440×900 and play goes on by
    clicking, so one game covers both layouts (and the switch between them)."""
    page = phone
    touch = True
    page.goto(live_server_url + "/tables/new/")
    page.fill("input[name=name]", "Tapper")
    # Blitz rules on a quick deck (no steals; more draws and wilds) keep the game short.
    # Blitz fills the Custom fields; the panel shows once Custom is chosen, keeping them.
    page.select_option("select[name=preset]", "blitz")
    page.select_option("select[name=preset]", "custom")
    for key, count in QUICK_DECK.items():
        page.fill(f"input[name=deck_{key}]", str(count))
    _press(page, page.get_by_role("button", name="Open the table"), touch)
    page.wait_for_url("**/t/*/")
    page.wait_for_selector("#connection[data-state=open]")
    page.select_option("#bot-level", "easy")
    _press(page, page.get_by_role("button", name="Add a bot"), touch)
    page.wait_for_selector(".seat-list >> text=Bot")
    _press(page, page.get_by_role("button", name="Start the game"), touch)
    page.wait_for_selector("#hand .hand-card")
    page.wait_for_selector("#connection[data-state=open]")
    page.evaluate("() => { window.__samePage = true; }")

    made: dict[str, int] = {}
    started = time.monotonic()
    for _ in range(MOVE_LIMIT * 10):
        if page.locator("#result").count():
            break
        before = page.locator("#table-version").get_attribute("value")
        kind = _decide(page, touch)
        if kind is None:
            page.wait_for_timeout(50)
            continue
        made[kind] = made.get(kind, 0) + 1
        assert sum(made.values()) < MOVE_LIMIT, f"no result after {made}"
        wait_version_change(page, before)
        code, error = page.evaluate(
            "() => { const b = document.getElementById('frame-error');"
            " return [b.dataset.code || '', b.textContent.trim()]; }")
        # A bot may move between reading the page and the tap landing: the server refuses the
        # late move as stale and sends the fresh board; or the bot's move won the game, and the
        # page shows the result. Anything else is a bug.
        if code == "finished":
            page.wait_for_selector("#result")
            break
        assert not error or code in RACES, f"the server refused a tapped move: {code} {error}"
        # Switch early (a third decision): an unseeded blitz game can end within two turns.
        if touch and sum(made.values()) >= 3:
            shot(page, artifacts, "phone-full-game-mid")  # first, to see what a failure saw
            check_layout(page, "full game at phone size")
            page.set_viewport_size({"width": 1440, "height": 900})
            touch = False
            page.wait_for_timeout(100)
            check_layout(page, "full game at desktop size")
            # On a wide window the opponent is open without a tap.
            assert page.locator("details.seat:not(.me)").first.evaluate("d => d.open")

    page.wait_for_selector("#result")
    page.wait_for_timeout(400)
    shot(page, artifacts, "desktop-game-over")
    check_layout(page, "full game over")
    check_axe(page, axe_script, "full game over")
    # Every decision arrived over the socket: the page was never reloaded.
    assert page.evaluate("() => window.__samePage === true")
    assert made.get("play", 0) >= 3 and made.get("end", 0) >= 1, made
    assert not touch, f"the game ended before the switch to desktop: {made}"
    print(f"full game: {made} in {time.monotonic() - started:.1f}s")
