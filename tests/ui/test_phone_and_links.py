"""At 390×844: whose turn it is and your clock stay in view while you scroll your hand, no card
header breaks inside a word, the navigation is one row and "My games" fits. And in the browser:
the invite link shown whole with Copy, the Custom panel only for Custom, arrow keys in replays."""

from __future__ import annotations

from typing import Any

import pytest
from ui_helpers import (
    check_layout,
    guest,
    mid_game,
    off_loop,
    open_table,
    prepared_game,
    settle,
    sign_in,
)

from games.platform import services
from games.platform.models import Game

pytestmark = pytest.mark.browser

# Every word of a card's header and name on one line: a word whose letters sit on two lines
# ("FIGHT|ERS") was broken inside. Hyphenated breaks are allowed (the hyphen shows).
BROKEN_WORDS_JS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const re = /[^\\s\\/]+/g;  // a slash is a place a line may break
      let m;
      while ((m = re.exec(text))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1 && getComputedStyle(el).hyphens !== 'auto') broken.push(m[0]);
        else if (tops.size > 1) {
          // hyphens:auto may break a word only where the browser shows a hyphen; a break
          // with no hyphen (overflow-wrap) leaves the first piece ending in a letter flush.
          const rects = [...range.getClientRects()].filter(r => r.width > 0);
          const first = rects[0], box = el.getBoundingClientRect();
          if (box.right - first.right > 6) broken.push(m[0]);
        }
      }
    }
  }
  return [...new Set(broken)];
}"""


def _finished_against_a_bot(viewer: Any, preset: str, name: str) -> Game:
    """A game against one bot that the viewer resigns on their own turn (the bot, if it
    starts, ends its first turn)."""
    table = services.table_create(viewer=viewer, name=name, ruleset_spec={"preset": preset})
    services.seat_add_bot(table_id=table.pk, viewer=viewer, level="easy")
    game = services.game_start(table_id=table.pk, viewer=viewer)
    seat = next(s for s in table.seats.all() if viewer.owns(s)).game_seat
    if game.state["turn"] != seat:
        game = services.table_apply_action(game_id=game.pk, seat=1 - seat,
                                           action={"type": "end_turn"},
                                           expected_version=game.version)
    return services.table_apply_action(game_id=game.pk, seat=seat, action={"type": "scoop"},
                                       expected_version=game.version)


def _phone(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.console_errors = errors
    return context, page


def test_on_a_phone_the_turn_and_clock_stay_in_view_while_scrolling_the_hand(
        live_server_url: str, browser: Any) -> None:
    context, page = _phone(browser)
    ava = guest("Ava")
    sign_in(page, live_server_url, ava)
    game, _me = prepared_game(ava, bots=2, build=mid_game, turn_seconds=120)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    # Scroll until the end of the hand reaches the bottom of the screen.
    page.evaluate("""() => { const hand = document.getElementById('hand');
      window.scrollTo(0, hand.getBoundingClientRect().bottom + window.scrollY - innerHeight); }""")
    page.wait_for_timeout(200)
    for selector in ("#turn-name", ".clock.mine"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)
    assert not page.console_errors
    context.close()


def test_no_card_header_breaks_inside_a_word_on_a_phone(live_server_url: str,
                                                        browser: Any) -> None:
    context, page = _phone(browser)
    page.goto(f"{live_server_url}/rules/chudopoly#cards")
    broken = page.evaluate(BROKEN_WORDS_JS, ".card-set, .card-name")
    assert broken == [], broken
    ava = guest("Ava")
    sign_in(page, live_server_url, ava)
    game, _me = prepared_game(ava, bots=2, build=mid_game)
    page.goto(f"{live_server_url}/t/{game.table_code}/")
    settle(page)
    page.evaluate(
        "() => document.querySelectorAll('details.seat:not(.me)').forEach(d => d.open = true)")
    broken = page.evaluate(BROKEN_WORDS_JS, ".card-set, .card-name, .zone-name")
    assert broken == [], broken
    context.close()


NAV_ROWS_JS = """() => {
  const items = [...document.querySelectorAll('.site-header nav > a, .site-header nav > form')]
    .filter(el => el.getClientRects().length);
  return new Set(items.map(el => Math.round(el.getBoundingClientRect().top))).size;
}"""


@pytest.mark.parametrize("path", ["/", "/ladder/games/", "/rules"])
def test_on_a_phone_the_navigation_is_one_row_and_the_page_fits(live_server_url: str,
                                                                browser: Any,
                                                                path: str) -> None:
    context, page = _phone(browser)
    page.goto(live_server_url + path)
    assert page.evaluate(NAV_ROWS_JS) == 1
    check_layout(page, f"phone {path}")
    context.close()


def test_my_games_fits_a_phone_with_games_in_it(live_server_url: str, browser: Any) -> None:
    context, page = _phone(browser)
    ava = guest("Ava")
    sign_in(page, live_server_url, ava)

    off_loop(_finished_against_a_bot, ava, "longGame", "Ava Longfellow")
    page.goto(live_server_url + "/ladder/games/")
    assert page.locator(".history-table tbody tr").count() == 1
    check_layout(page, "phone my games")
    # Nothing scrolls sideways inside the page either (the table of games included).
    assert page.evaluate("""() => [...document.querySelectorAll('.table-scroll, table')]
      .every(el => el.scrollWidth <= el.clientWidth + 1 &&
                   el.getBoundingClientRect().right <= innerWidth + 1)""")
    context.close()


def test_the_invite_link_is_whole_and_copies(live_server_url: str, page: Any) -> None:
    ava = guest("Ava")
    sign_in(page, live_server_url, ava)
    table = open_table(ava, bots=1)
    page.goto(f"{live_server_url}/t/{table.code}/")
    settle(page)
    link = page.locator("#invite-url")
    table.refresh_from_db()
    assert link.inner_text() == f"{live_server_url}{table.invite_path}"
    box = link.bounding_box()  # the whole of it on screen, not cut off inside a box
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]
    assert link.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    page.locator("#invite-copy").click()
    page.wait_for_function(
        "() => document.querySelector('#invite-copy ~ .copy-status').textContent.length > 0")


def test_the_custom_panel_shows_only_when_custom_is_chosen(live_server_url: str,
                                                           page: Any) -> None:
    page.goto(live_server_url + "/tables/new/")
    assert not page.locator("#custom-rules").is_visible()
    page.select_option("select[name=preset]", "custom")
    assert page.locator("#custom-rules").is_visible()
    page.select_option("select[name=preset]", "blitz")
    assert not page.locator("#custom-rules").is_visible()


def test_the_arrow_keys_step_the_replay(live_server_url: str, page: Any) -> None:
    ava = guest("Ava")

    game = off_loop(_finished_against_a_bot, ava, "blitz", "Ava")
    page.goto(f"{live_server_url}/ladder/games/{game.pk}/replay/")
    total = game.version
    step = page.locator("#replay-step")
    assert step.inner_text() == f"Step {total} of {total}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('#replay-step').textContent"
                           f" === 'Step {total - 1} of {total}'")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector('#replay-step').textContent"
                           f" === 'Step 0 of {total}'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('#replay-step').textContent"
                           f" === 'Step 1 of {total}'")
