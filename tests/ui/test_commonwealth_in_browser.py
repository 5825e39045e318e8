"""Commonwealth in real Chromium at 390×844 (touch) and 1440×900.

A game against a bot played to the end by clicking — roll, self-develop, buy or auction, bid,
place chips, ride a Shuttle, play or keep Chance cards, give at GO — and a two-guest online game
in which one guest offers the other a deal and the other accepts it. Every screen passes the
table's UI checks: no sideways scroll, tap targets of at least 44 px, no overlapping controls,
no console errors, axe-core clean, and the page under 100 KB gzip."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from ui_helpers import (
    Wire,
    check_axe,
    check_layout,
    click_decision,
    guest,
    off_loop,
    open_watched_commonwealth,
    settle,
    shot,
    sign_in,
    two_guest_game,
    wait_still,
)

from games.commonwealth.engine import scenario
from games.platform.models import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from page_weight import BUDGET, weigh

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# What a click means, in the order the loop prefers them: the moves that place chips first, so
# the game ends (by a seat's tenth chip, or the Fund running dry) in a bounded number of clicks.
PREFERRED = ("#chip", ".develop", "#buy", "#play-card", "#move-first", ".ride",
             ".amount-choice", "#roll", "#jail-roll", "#accept", "#skip")
MAX_CLICKS = 400
SIZES = (("phone", {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                    "has_touch": True}),
         ("desktop", {"viewport": {"width": 1440, "height": 900}}))

# The log's line once a deal is accepted ("Ben accepted your deal: …", "You accepted Ann’s deal").
DEAL_DONE = "() => /accepted (your|\\S+’s) deal/.test(document.querySelector('#log').innerText)"


def _context(browser: Any, options: dict[str, Any]) -> tuple[Any, Any]:
    """A browser context of one guest that records console errors (as tests/ui/conftest.py)."""
    context = browser.new_context(**options, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.console_errors = errors
    page.wire = Wire(page)
    return context, page


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    wait_still(page)
    shot(page, artifacts, name)
    check_layout(page, name)
    check_axe(page, axe, name)


def _weigh(page: Any, name: str) -> None:
    """What this browser downloads for the page now (its DOM holds the axe script we added)."""
    result = weigh(page.request.get(page.url).text())
    assert result["total_gzip"] < BUDGET, (name, result)


def _version(page: Any) -> str:
    return page.locator("#table-version").input_value()


def _visible(page: Any, selector: str) -> bool:
    loc = page.locator(f"#decision {selector}")
    return loc.count() > 0 and loc.first.is_visible()


def _fallback(page: Any) -> str | None:
    """Any other decision: its first button (a kept card, "keep none", a pledge...)."""
    loc = page.locator("#decision form.cw-actions button")
    return "form.cw-actions button" if loc.count() and loc.first.is_visible() else None


def test_commonwealth_against_a_bot_to_the_end_by_clicking(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    # Heads-up against one medium bot: a short game, still every kind of decision.
    open_watched_commonwealth(page, live_server_url, guest("cora"))
    assert page.locator(".cw-space").count() == 40
    assert 0 < int(page.locator("#fund-amount").inner_text()) <= 1848
    _look(page, axe_script, artifacts, f"{size}-commonwealth-start")

    # Tap a project: its card (price, fee, payout) shows in the centre, scrolled into sight
    # even when the board is taller than the window.
    page.locator('.cw-space[data-space="38"]').click()
    assert "Harbour Lighthouse" in page.locator("#inspect").inner_text()
    expect(page.locator("#inspect > *")).to_be_in_viewport()

    done: dict[str, int] = {}
    looked: set[str] = set()
    for _ in range(MAX_CLICKS):
        if page.locator("#result").count():
            break
        choice = next((s for s in PREFERRED if _visible(page, s)), None) or _fallback(page)
        if choice is None:
            page.wait_for_timeout(200)  # the bot is moving
            continue
        kind = page.locator("#decision-heading").inner_text()
        if "GO" in kind and "gift" not in done and _visible(page, "#amount-form"):
            # Once, a gift of an amount of my own choosing (the form builds the action).
            page.locator('#amount-form input[data-path="amount"]').fill("7")
            if click_decision(page, "#amount-form button"):
                done["gift"] = 1
                page.wait_for_function(
                    "() => document.querySelector('#log').innerText"
                    ".includes('received 7 as a GO donation')", timeout=15_000)
            continue
        if kind not in looked and ("Auction" in kind or "Chance" in kind or "GO" in kind):
            looked.add(kind)
            _look(page, axe_script, artifacts, f"{size}-commonwealth-{len(looked)}")
        if sum(done.values()) == 30:  # my decision: the bot waits, the page holds still
            _look(page, axe_script, artifacts, f"{size}-commonwealth-mid-game")
            _weigh(page, "mid game")
        if click_decision(page, choice):
            done[choice] = done.get(choice, 0) + 1
    page.wait_for_selector("#result", timeout=15_000)
    result = page.locator("#result").inner_text()
    assert "won" in result or "everyone lost" in result, result
    # The table's seed is its own, so the length varies (a medium bot may win in a few rounds).
    assert done.get("#roll", 0) >= 1 and sum(done.values()) >= 5, done
    assert page.locator("#log li.fund-line").count() > 0  # the Fund's history is in the log
    settle(page)
    _look(page, axe_script, artifacts, f"{size}-commonwealth-end")
    _weigh(page, "end")


def _two_guests(ann: Any, ben: Any) -> tuple[Game, int, int]:
    game, a, b = two_guest_game("commonwealth", ann, ben, "Ben")
    # A few rounds in: Ann manages both brown projects, Ben has saved some cash; it is Ben's
    # turn, so Ann's offer is made while she is not the one deciding.
    state = scenario(seats=2, turn=b, cash={a: 10, b: 80}, managers={0: a, 1: a},
                     chips={0: [a], 1: [b]}, pos={a: 3, b: 8}, dice=[[3, "2"]])
    state["version"] = game.state["version"]
    game.state = state
    game.save(update_fields=["state"])
    return game, a, b


def _offer_and_accept(proposer: Any, recipient: Any, project: str, field: str, cash: str,
                      axe: Path, artifacts: Path, size: str, meanwhile: Any = None) -> None:
    """The proposer ticks a project and asks for cash in the deal form (while `meanwhile`
    moves the game on, if given: the half-made offer survives the push); the recipient reads
    the terms on its own screen and accepts."""
    proposer.locator("#deal-panel summary").click()
    form = proposer.locator(".cw-deal-form").first
    form.get_by_label(project).check()
    # The cash field goes up to what that side may hand over now, as the players panel says.
    box = form.locator(f'input[data-path="{field}"]')
    side = proposer.locator(f'#player-{box.get_attribute("data-cash-of")} [data-deal-cash]')
    assert box.get_attribute("max") == side.get_attribute("data-deal-cash")
    box.fill(cash)
    if meanwhile is not None:
        changed = meanwhile()  # text that shows up in the proposer's deal form once redrawn
        proposer.wait_for_function(
            "t => document.querySelector('.cw-deal-form').innerText.includes(t)", arg=changed,
            timeout=15_000)
        form = proposer.locator(".cw-deal-form").first
        assert form.is_visible() and form.get_by_label(project).is_checked()
        assert form.locator(f'input[data-path="{field}"]').input_value() == cash
    _look(proposer, axe, artifacts, f"{size}-commonwealth-deal-form")
    before = _version(proposer)
    form.locator("button.offer-deal").click()
    proposer.wait_for_function(
        "v => document.getElementById('table-version').value !== v", arg=before,
        timeout=15_000)
    recipient.wait_for_selector("#decision #accept", timeout=15_000)
    terms = recipient.locator("#deal").inner_text()
    assert project in terms and f"{cash} in cash" in terms, terms
    _look(recipient, axe, artifacts, f"{size}-commonwealth-deal-answer")
    assert click_decision(recipient, "#accept")
    proposer.wait_for_function(
        DEAL_DONE,
        timeout=15_000)


def test_two_guests_make_a_deal_online(live_server_url: str, browser: Any,
                                       axe_script: Path, artifacts: Path) -> None:
    ann, ben = guest("ann"), guest("ben")
    game, a, b = off_loop(_two_guests, ann, ben)
    url = live_server_url + game.table.invite_path
    for size, options in SIZES:
        pages = {}
        contexts = []
        for who, viewer in (("ann", ann), ("ben", ben)):
            context, page = _context(browser, options)
            contexts.append(context)
            sign_in(page, live_server_url, viewer)
            page.goto(url)
            settle(page)
            pages[who] = page
        if size == "phone":
            # Ann offers Ben the Tool Lending Shed (with Ben's own chip on it) for 30 of his;
            # while she fills in the form, Ben rolls onto the Laundry Cooperative and buys it,
            # which redraws her deal form (his projects and cash changed).
            def ben_buys(ben: Any = pages["ben"]) -> str:
                assert click_decision(ben, "#roll")
                assert click_decision(ben, "#buy")
                return "Laundry Cooperative"

            _offer_and_accept(pages["ann"], pages["ben"], "Tool Lending Shed", "get.cash", "30",
                              axe_script, artifacts, size, meanwhile=ben_buys)
        else:
            # Ben sells it back to Ann for 20 of hers.
            _offer_and_accept(pages["ben"], pages["ann"], "Tool Lending Shed", "get.cash", "20",
                              axe_script, artifacts, size)
        state = off_loop(lambda: Game.objects.get(pk=game.pk).state)
        if size == "phone":
            assert state["projects"][1]["manager"] == b and state["players"][a]["cash"] == 40
        else:
            assert state["projects"][1]["manager"] == a and state["players"][a]["cash"] == 20
        assert state["projects"][1]["chips"] == [b]  # chips move with their project
        for who, page in pages.items():
            page.wait_for_function(
                DEAL_DONE,
                timeout=15_000)
            _look(page, axe_script, artifacts, f"{size}-commonwealth-after-deal-{who}")
            _weigh(page, f"{size} {who}")
            assert not page.console_errors, page.console_errors
        for context in contexts:
            context.close()
