"""The table as players see it, at 390×844 (touch) and 1440×900: the home page, the forms that
open a table, a lobby, a table mid-game, a payment decision, final approach, game over and the
rules page. Every page is screenshotted to artifacts/ui/ and must have no sideways scroll, no
overlapping controls, tap targets of at least 44 px, no console errors and no serious or critical
axe-core violations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import (
    about_to_arm,
    act,
    bot_charges_me,
    check_axe,
    check_layout,
    guest,
    hand_card,
    mid_game,
    open_table,
    prepared_game,
    settle,
    shot,
    sign_in,
    wait_version_change,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _look(page: Any, axe: Path | None, artifacts: Path, name: str) -> None:
    shot(page, artifacts, name)
    check_layout(page, name)
    if axe is not None:
        check_axe(page, axe, name)


def test_every_screen_at_phone_and_desktop_size(live_server_url: str, device: tuple[str, Any],
                                                axe_script: Path, artifacts: Path) -> None:
    size, page = device
    ava = guest("ava")
    sign_in(page, live_server_url, ava)

    # The home page, the forms that open a table, and a table's lobby before the start. Their
    # markup and colours do not change with the width: axe runs on them at phone size.
    once = axe_script if size == "phone" else None
    page.goto(live_server_url + "/")
    _look(page, once, artifacts, f"{size}-home")
    page.goto(live_server_url + "/tables/new/")
    _look(page, once, artifacts, f"{size}-new-table")
    page.goto(live_server_url + "/play/bots/")
    _look(page, once, artifacts, f"{size}-play-bots")
    table = open_table(ava)
    page.goto(f"{live_server_url}/t/{table.code}/")
    settle(page)
    assert page.locator("#lobby .seat-list li").count() >= 2
    _look(page, once, artifacts, f"{size}-lobby")

    # Mid-game with two opponents: cards, sets, banks, plays left.
    game, me = prepared_game(ava, bots=2, build=mid_game)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    assert page.locator("#hand .hand-card .card").count() == 7
    assert page.locator(f"#seat-{me} .zone.complete").count() == 1  # Command, 2/2
    assert "2 plays left" in page.locator(".turn-line").inner_text()
    opponents = page.locator("details.seat:not(.me)")
    assert opponents.count() == 2
    if size == "phone":
        # Opponents are summaries on a phone; a tap opens one, and it stays open after a push.
        assert not opponents.first.evaluate("d => d.open")
        opponents.first.locator("summary").tap()
        assert opponents.first.evaluate("d => d.open")
    else:
        assert opponents.first.evaluate("d => d.open")
    _look(page, axe_script, artifacts, f"{size}-table-mid-game")

    # A payment decision (a bot played Finance Office against us): tap cards to pay.
    game, me = prepared_game(ava, bots=1, build=bot_charges_me)
    bot = 1 - me
    act(game, bot, {"type": "action", "card": hand_card(game, bot, "finance_office"),
                    "target": me})
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    page.wait_for_selector(".respond-form button, .pay-form", timeout=10_000)
    if page.locator(".respond-form").count():
        before = page.locator("#table-version").get_attribute("value")
        page.locator(".respond-form button:not(.opsec)").first.click()
        wait_version_change(page, before)
    page.wait_for_selector(".pay-form")
    assert "5M" in page.locator(".pay-form legend").inner_text()
    boxes = page.locator(".pay-form input[name=cards]")
    tap = (lambda loc: loc.tap()) if size == "phone" else (lambda loc: loc.click())
    for i in range(boxes.count()):
        tap(page.locator(".pay-form label.pay-card").nth(i))
        if page.locator(".pay-confirm").is_enabled():
            break
    page.wait_for_timeout(300)
    _look(page, axe_script, artifacts, f"{size}-payment")
    before = page.locator("#table-version").get_attribute("value")
    tap(page.locator(".pay-confirm"))
    wait_version_change(page, before)
    page.wait_for_selector(".pay-form", state="detached")

    # Final approach: place the last Fighter.
    game, me = prepared_game(ava, bots=1, build=about_to_arm)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    # The hop's class comes off when the hop ends (.9 s): watch for it from before the tap, so
    # a slow turn between the push and the check below cannot miss it.
    page.evaluate("""id => { window.hopped = false;
      new MutationObserver(() => { const z = document.getElementById(id);
        if (z && z.classList.contains('just-completed')) { window.hopped = true; } })
        .observe(document.body, {subtree: true, childList: true, attributes: true,
                                 attributeFilter: ['class']}); }""", f"set-{me}-red")
    tap(page.locator(f"#play-btn-{hand_card(game, me, 'F-15 Eagle')}"))
    page.wait_for_selector(".final-approach", timeout=10_000)
    page.wait_for_selector(f"#set-{me}-red.complete")
    # The completed set celebrates without growing past its column, which on a phone would
    # scroll the page sideways while the animation runs: sample it frame by frame.
    zone = page.locator(f"#set-{me}-red")
    assert page.evaluate("() => window.hopped")
    growth = zone.evaluate("""z => new Promise(done => { const seen = [];
      const tick = () => { seen.push(z.getBoundingClientRect().width / z.offsetWidth);
        if (seen.length < 40) requestAnimationFrame(tick); else done(Math.max(...seen)); };
      tick(); })""")
    assert growth <= 1.001, f"the completed set grew to {growth:.3f}× its width"
    settle(page)
    assert "Final approach" in page.locator(".final-approach").text_content()
    _look(page, axe_script, artifacts, f"{size}-final-approach")

    # Game over (Blitz: the third set wins at once). At desktop size the whole game played by
    # clicking (test_full_game_by_tapping.py) ends on this screen and is checked there.
    if size == "phone":
        _game_over(page, ava, live_server_url, axe_script, artifacts, tap)

    # The rules page, with the card gallery drawn by the same component.
    page.goto(live_server_url + "/rules/chudopoly")
    assert page.locator("#card-gallery .card").count() >= 30
    _look(page, once, artifacts, f"{size}-rules")


def _game_over(page: Any, ava: Any, base: str, axe: Path, artifacts: Path, tap: Any) -> None:
    game, me = prepared_game(ava, bots=1, build=about_to_arm, preset="blitz")
    page.goto(f"{base}/t/{game.table_code}/")
    settle(page)
    tap(page.locator(f"#play-btn-{hand_card(game, me, 'F-15 Eagle')}"))
    page.wait_for_selector("#result", timeout=10_000)
    settle(page)
    assert "You won" in page.locator("#result").inner_text()
    _look(page, axe, artifacts, "phone-game-over")


FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  const zone = el.closest('#hand, #decision, #players, #status, #log, #lobby, .chat');
  return {id: el.id, tag: el.tagName, zone: zone && (zone.id || zone.className),
          outline: cs.outlineStyle !== 'none' ? parseFloat(cs.outlineWidth) : 0};
}"""


def test_keyboard_only_play_motion_and_sound_preferences(live_server_url: str, desktop: Any
                                                         ) -> None:
    page = desktop
    ava = guest("kay")
    sign_in(page, live_server_url, ava)
    game, me = prepared_game(ava, bots=2, build=mid_game)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    f35 = hand_card(game, me, "F-35 Lightning II")

    # Tab reaches the hand's first play button, with a visible focus ring.
    for _ in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_JS)
        if focused and focused["id"] == f"play-btn-{f35}":
            break
    else:
        raise AssertionError("Tab never reached the hand's first play button")
    assert focused["outline"] >= 2

    # Enter plays it; the card glides to its set; focus stays in the hand for the next play.
    before = page.locator("#table-version").get_attribute("value")
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    page.wait_for_function("document.getAnimations().length > 0", timeout=2000)
    focused = page.evaluate(FOCUSED_JS)
    assert focused and focused["zone"] == "hand", focused
    assert page.locator(f"#set-{me}-red [data-card-id='{f35}']").count() == 1
    # The log is announced through a live region that survives the pushes.
    page.wait_for_function(
        "document.getElementById('announcer').textContent.includes('placed F-35')")
    assert page.locator("#log [role=log]").count() == 1

    # Escape closes an opened opponent; Enter opens it again.
    summary = page.locator("details.seat:not(.me) summary").first
    summary.focus()
    assert summary.evaluate("s => s.parentElement.open")
    page.keyboard.press("Escape")
    assert not summary.evaluate("s => s.parentElement.open")
    page.keyboard.press("Enter")
    assert summary.evaluate("s => s.parentElement.open")

    # prefers-reduced-motion: a move makes no animation at all, and the F-35's glide, if still
    # under way when the preference turns on, stops at its end there and then.
    page.emulate_media(reduced_motion="reduce")
    bank = page.locator("#hand .play-form button", has_text="Bank it").first
    bank.focus()
    before = page.locator("#table-version").get_attribute("value")
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    page.wait_for_timeout(50)
    assert page.evaluate("document.getAnimations().length") == 0

    # Sound is on by default; the mute toggle is remembered by this browser.
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    settle(page)
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert page.locator("#sound-toggle").inner_text() == "Sound off"
