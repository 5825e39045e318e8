"""One screen for the board games, in real Chromium at 1440×900 and 390×844 (touch).

A whole game of Boardroom and one of Commonwealth against three bots, on a fixed seed and a
short turn limit, played by clicking. After every push that gives the player a decision, without
any scrolling: one of the decision's buttons, the player's cash and (Commonwealth) the Community
Fund are inside the window. Each kind of decision is photographed once (artifacts/ui/one-screen-*)
and passes the table's UI checks (no sideways scroll, 44 px targets, no overlaps, axe-core); the
page stays under 100 KB gzip; the whole log opens from under the table's log. At a buy and at
an auction, the card of the tile the decision is about shows wholly beside the decision's
choices, not under a phone's bar, with the auction's line of who sells the lot; on a phone the
two, the card condensed, leave the board most of the window, and "Full card" opens the whole
card."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from ui_helpers import (
    Wire,
    check_axe,
    check_layout,
    click_decision,
    guest,
    off_loop,
    settle,
    sign_in,
    wait_still,
)

from games.platform import services
from games.platform.models import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from page_weight import BUDGET, weigh

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Per game: the bots' levels, the turn limit and the seed of a game (found by playing the loop's
# choices offline over seeds 0-79) that asks the player for every kind of decision in KINDS.
DEALS = {"boardroom": (["medium", "medium", "easy"], 80, 32),
         "commonwealth": (["easy", "easy", "easy"], 40, 33)}
MAX_MOVES = 300
# The decisions each game's deal asks for (a decision's heading, then its first button's id).
KINDS = {
    "boardroom": {"your-decision-roll", "your-decision-buy", "auction-your-bid-bid",
                  "a-trade-offer-for-you-accept", "your-decision-pay-bail",
                  "raise-money-give-up", "your-decision-end-turn"},
    "commonwealth": {"your-turn-roll", "an-unmanaged-project-buy", "auction-your-bid-pass",
                     "place-a-chip-chip", "chance-keep-a-card", "chance-skip",
                     "go-give-to-the-fund", "move-or-draw-first-move-first"},
}
# The choice the loop makes when several are offered: what moves the game on, cheaply.
CHOICES = {
    "boardroom": ("#roll", "#pay-bail", "#use-release", "#buy", "#pass", "#refuse",
                  "#build", ".close-building", ".sell-bank", "#decline", "#end-turn",
                  "#give-up"),
    "commonwealth": ("#chip", ".develop", "#buy", "#play-card", "#move-first", ".ride",
                     ".amount-choice", "#roll", "#jail-roll", "#refuse", "#skip",
                     "form.cw-actions button"),
}

# Whether one of the elements is wholly in sight: inside the window and inside every box around
# it that clips (a scrolling panel), with nothing around it hidden.
IN_VIEW_JS = """sel => [...document.querySelectorAll(sel)].some(el => {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || el.closest('[hidden], .vh')) return false;
  let top = 0, left = 0, bottom = window.innerHeight, right = window.innerWidth;
  for (let n = el; n && n !== document.body; n = n.parentElement) {
    const cs = getComputedStyle(n);
    if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    if (n !== el && /auto|scroll|hidden|clip/.test(cs.overflowX + cs.overflowY)) {
      const b = n.getBoundingClientRect();
      top = Math.max(top, b.top); left = Math.max(left, b.left);
      bottom = Math.min(bottom, b.bottom); right = Math.min(right, b.right);
    }
  }
  return r.top >= top - 1 && r.left >= left - 1 && r.bottom <= bottom + 1 &&
         r.right <= right + 1;
})"""


def _start(game_kind: str, viewer: Any) -> Table:
    """Ann against three bots, dealt on the game's seed, with no turn clock and a short turn
    limit."""
    levels, turn_cap, seed = DEALS[game_kind]
    rules: dict[str, Any] = {"turnCap": turn_cap}
    if game_kind == "boardroom":
        rules["capPeople"] = True  # no cap ends a person's game unless a test asks for one
    with mock.patch.object(services.secrets, "randbits", return_value=seed):
        return services.table_play_vs_bots(
            viewer=viewer, name="Ann", levels=levels, game_kind=game_kind, turn_seconds=0,
            ruleset_spec=rules)


def _open_ann_against_bots(page: Any, base_url: str, game_kind: str) -> None:
    """Ann's table of _start open and settled on `page`, its socket watched (`page.wire`) and
    motion reduced, so that axe reads the final colours."""
    page.wire = Wire(page)
    page.emulate_media(reduced_motion="reduce")
    ann = guest("ann")
    table = off_loop(_start, game_kind, ann)
    sign_in(page, base_url, ann)
    page.goto(f"{base_url}/t/{table.code}/")
    settle(page)


def _in_view(page: Any, selector: str) -> bool:
    return page.evaluate(IN_VIEW_JS, selector)


def _kind(page: Any) -> str:
    """A decision's kind, for its one photograph: its heading and its first choice."""
    heading = page.locator("#decision-heading").inner_text()
    first = page.locator("#decision button:visible").first
    words = f"{heading} {first.get_attribute('id') or ''}".lower()
    return "-".join(re.findall(r"[a-z]+", words))[:60]


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    wait_still(page)
    # The window as the player sees it, not the whole page: the point is what needs no scroll.
    page.screenshot(path=str(artifacts / f"{name}.png"))
    check_layout(page, name)
    check_axe(page, axe, name)


@pytest.mark.parametrize("game_kind", ["boardroom", "commonwealth"])
def test_every_decision_of_a_whole_game_is_in_view_without_scrolling(
        live_server_url: str, device: tuple[str, Any], game_kind: str, axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    _open_ann_against_bots(page, live_server_url, game_kind)
    must_see = ["#decision button", "[data-my-cash], #players .me [data-cash]"]
    if game_kind == "commonwealth":
        must_see.append("[data-glance-fund], #fund-amount")
    checked: set[str] = set()
    looked: set[str] = set()
    for _ in range(MAX_MOVES):
        page.wait_for_function(
            "() => document.querySelector('#result, #out-of-game, #decision.active button')",
            timeout=30_000)
        if page.locator("#result, #out-of-game").count():
            break
        version = page.locator("#table-version").input_value()
        if version not in checked:  # a push gave this decision: is it all in the window?
            checked.add(version)
            assert page.evaluate("() => [scrollX, scrollY]") == [0, 0]
            hidden = [s for s in must_see if not _in_view(page, s)]
            assert not hidden, (f"{size} {game_kind} v{version}: out of the window: {hidden}; "
                                f"{page.locator('#decision').inner_text()[:200]!r}")
        kind = _kind(page)
        if kind.startswith("auction"):  # the centre's card is the lot the bid is for
            lot = page.locator("#auction strong", has_text="Auction of").first.inner_text()
            assert lot == f"Auction of {page.locator('#inspect h3').inner_text()}", lot
        if kind not in looked:
            looked.add(kind)
            _look(page, axe_script, artifacts, f"one-screen-{size}-{game_kind}-{kind}")
        choice = next((s for s in CHOICES[game_kind]
                       if page.locator(f"#decision {s}:visible").count()), None)
        assert choice is not None, page.locator("#decision").inner_text()
        click_decision(page, choice)
    else:
        raise AssertionError(f"{game_kind}: no end after {MAX_MOVES} moves")
    assert len(checked) >= 20, checked
    assert looked >= KINDS[game_kind], sorted(KINDS[game_kind] - looked)
    page.wait_for_selector("#result", timeout=60_000)
    settle(page)
    if game_kind == "boardroom":  # ended by its turn limit: the dice keep the last roll
        assert page.locator("#dice").get_attribute("aria-label").startswith("Last roll ")
    _look(page, axe_script, artifacts, f"one-screen-{size}-{game_kind}-result")
    result = weigh(page.request.get(page.url).text())
    assert result["total_gzip"] < BUDGET, result
    # The table keeps 40 lines of the log; its link under them reads the whole game.
    page.locator("#whole-log-link").click()
    page.wait_for_selector("#whole-log")
    assert page.locator("#whole-log li").count() > 40
    _look(page, axe_script, artifacts, f"one-screen-{size}-{game_kind}-whole-log")


# A decision about one tile (the buy it offers, the auction of it) and the centre's card of that
# tile (#inspect): the card wholly inside the window and the decision's first two choices
# wholly in sight (inside the window and the panel, which scrolls), the decision's bar (fixed
# to a phone's foot, over the page) covering none of the card.
# (Boardroom's auction box is docked above the decision: #lot, a partial every seat reads alike.)
TILE_DECISIONS = {"buy": "#decision #buy",
                  "auction": ":is(#decision, #lot) :is(.br-auction, .cw-auction)"}
# The button that sends the tile on offer to auction.
TO_AUCTION = {"boardroom": "#decline", "commonwealth": "button#auction"}
SEEN_TOGETHER_JS = """() => {
  const box = el => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  // What of the window an element's clipping boxes (a scrolling panel) leave to it.
  const sight = el => { const s = {top: 0, left: 0, bottom: innerHeight, right: innerWidth};
    for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (/auto|scroll|hidden|clip/.test(cs.overflowX + cs.overflowY)) {
        const b = n.getBoundingClientRect();
        s.top = Math.max(s.top, b.top); s.left = Math.max(s.left, b.left);
        s.bottom = Math.min(s.bottom, b.bottom); s.right = Math.min(s.right, b.right);
      }
    }
    return s; };
  const card = document.querySelector('#inspect > *');
  const buttons = [...document.querySelectorAll('#decision form button')]
    .filter(b => b.getClientRects().length);
  const seen = b => ({name: b.textContent.trim(), box: box(b), sight: sight(b)});
  return {card: card && box(card), window: sight(card), height: innerHeight,
          inspect: box(document.querySelector('#inspect')),
          choices: buttons.slice(0, 2).map(seen), buttons: buttons.map(seen),
          bar: box(document.querySelector('#decision').closest('.decision-dock') ||
                   document.querySelector('#decision')),
          scroll: [scrollX, scrollY]};
}"""


def _inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["top"] >= outer["top"] - 1 and inner["left"] >= outer["left"] - 1
            and inner["bottom"] <= outer["bottom"] + 1 and inner["right"] <= outer["right"] + 1)


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["bottom"] <= b["top"] + 1 or b["bottom"] <= a["top"] + 1
            or a["right"] <= b["left"] + 1 or b["right"] <= a["left"] + 1)


# What only the whole card shows, not the one condensed on a phone's decision bar.
WHOLE_CARD_ONLY = {"boardroom": "#inspect .br-flip",
                   "commonwealth": "#inspect .cw-card > p:nth-of-type(3)"}


def _leaves_the_board_in_sight(page: Any, got: dict[str, Any], game_kind: str,
                               where: str) -> None:
    """On a phone: every one of the decision's buttons in the window, the bar and the tile's
    card (condensed) on at most 40 % of it, so the board stays readable; "Full card" opens the
    whole card and shuts it again."""
    assert all(_inside(b["box"], b["sight"]) for b in got["buttons"]), where
    covered = got["bar"]["bottom"] - min(got["inspect"]["top"], got["bar"]["top"])
    assert covered <= 0.4 * got["height"], f"covers {covered} px: {where}"
    more = page.locator("#card-more")
    assert not page.locator(WHOLE_CARD_ONLY[game_kind]).is_visible(), where
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    page.locator(WHOLE_CARD_ONLY[game_kind]).wait_for(state="visible")
    more.click()
    assert more.get_attribute("aria-expanded") == "false"
    page.locator(WHOLE_CARD_ONLY[game_kind]).wait_for(state="hidden")


QUICK_BIDS_JS = """() => [...document.querySelectorAll('#decision .amount-choice')].map(b => {
  const r = b.getBoundingClientRect(), why = b.querySelector('.amount-why');
  return {centre: r.left + r.width / 2, why: why && why.getBoundingClientRect().left}; })"""


def _quick_bids_read_down_and_are_in_sight(got: dict[str, Any], page: Any, where: str) -> None:
    """Commonwealth's quick bids on a desktop: each one's amount over what the Fund would pay
    (not the two side by side as narrow columns, the aside starting right of the middle), and
    every quick bid in sight without scrolling the decision's panel."""
    bids = page.evaluate(QUICK_BIDS_JS)
    assert bids, where
    assert all(b["why"] is None or b["why"] < b["centre"] for b in bids), f"{bids}: {where}"
    quick = [b for b in got["buttons"] if b["name"].startswith("Bid ")]
    assert len(quick) == len(bids), where
    assert all(_inside(b["box"], b["sight"]) for b in quick), where


@pytest.mark.parametrize("game_kind", ["boardroom", "commonwealth"])
def test_a_decision_about_a_tile_and_that_tiles_card_are_both_in_the_window(
        live_server_url: str, device: tuple[str, Any], game_kind: str,
        artifacts: Path) -> None:
    """A buy, and the auction the player sends the tile to by passing: the decision's buttons
    and the card of the tile it is about, without a scroll, the one not covering the other."""
    size, page = device
    _open_ann_against_bots(page, live_server_url, game_kind)
    seen: set[str] = set()
    for _ in range(MAX_MOVES):
        page.wait_for_function(
            "() => document.querySelector('#result, #out-of-game, #decision.active button')",
            timeout=30_000)
        assert not page.locator("#result, #out-of-game").count(), f"saw only {seen}"
        about = next((k for k, s in TILE_DECISIONS.items() if k not in seen
                      and page.locator(f"{s}:visible").count()), None)
        if about is not None:
            seen.add(about)
            wait_still(page)
            page.screenshot(path=str(artifacts / f"tile-decision-{size}-{game_kind}-{about}.png"))
            got = page.evaluate(SEEN_TOGETHER_JS)
            where = f"{size} {game_kind} {about}: {got}"
            assert got["scroll"] == [0, 0], where
            assert got["card"] and _inside(got["card"], got["window"]), where
            assert len(got["choices"]) == 2, where
            assert all(_inside(c["box"], c["sight"]) for c in got["choices"]), where
            if about == "auction":  # the lot and who sells it (the card does not say), drawn
                lot = page.locator("#auction-lot")
                assert _in_view(page, "#auction-lot") and _in_view(page, "#auction-seller"), where
                assert page.locator("#auction-seller").bounding_box()["width"] > 20, where
                assert re.search(r"Auction of .+(sold|sent) by \S", lot.inner_text(), re.S), where
                if size == "desktop" and game_kind == "commonwealth":
                    _quick_bids_read_down_and_are_in_sight(got, page, where)
            if size == "phone":  # the bar lies over the page: it must leave the card clear
                assert _apart(got["card"], got["bar"]), where
                _leaves_the_board_in_sight(page, got, game_kind, where)
                if about == "buy" and game_kind == "boardroom":  # buy and to auction: one row
                    buy, sell = (page.locator(f"#decision {s}").bounding_box()
                                 for s in ("#buy", TO_AUCTION[game_kind]))
                    assert abs(buy["y"] - sell["y"]) <= 1 and buy["height"] == sell["height"], (
                        where)
            if seen == set(TILE_DECISIONS):
                return
        # A tile on offer goes to auction, to see its auction; otherwise what moves the game on.
        choices = ((TO_AUCTION[game_kind], *CHOICES[game_kind]) if about == "buy"
                   else CHOICES[game_kind])
        choice = next((s for s in choices if page.locator(f"#decision {s}:visible").count()), None)
        assert choice is not None, page.locator("#decision").inner_text()
        click_decision(page, choice)
    raise AssertionError(f"{game_kind}: saw only {seen} in {MAX_MOVES} moves")
