"""A finished game of each game replayed in Chromium at 390×844 (touch) and 1440×900: the arrow
keys step the board (Home and End jump), the page passes the UI checks (no sideways scroll,
44 px targets, axe-core clean, no console errors) and its charts fit the screen; the table's
game-over banner links the replay and loads the same charts. Screenshots of each replay (its
start, and its end with the charts) and of each banner are kept in artifacts/ui/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import check_axe, check_layout, guest, off_loop, shot, sign_in, two_guest_game

from games.platform import services
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = pytest.mark.browser

MOVES_BEFORE_THE_END = {"boardroom": 40, "chudopoly": 30, "commonwealth": 2000}


def _finished(game_kind: str, ann: Any, ben: Any) -> Game:
    """Ann and Ben's game, both seats played by the medium bot: Commonwealth to its end,
    Boardroom until Ben leaves (bankrupt to the bank), Chudopoly until Ben scoops."""
    game, _, ben_seat = two_guest_game(game_kind, ann, ben, "Ben")
    engine = get_game(game_kind)
    for _ in range(MOVES_BEFORE_THE_END[game_kind]):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat = engine.to_decide(game.state)[0]
        services.table_apply_action(game_id=game.pk, seat=seat, expected_version=game.version,
                                    action=engine.bot_action(engine.view(game.state, seat),
                                                             "medium"))
    game.refresh_from_db()
    if game.status == Game.Status.RUNNING and game_kind == "boardroom":
        services.seat_leave(table_id=game.table_id, viewer=ben)
    elif game.status == Game.Status.RUNNING and game_kind == "chudopoly":
        services.table_apply_action(game_id=game.pk, seat=ben_seat, action={"type": "scoop"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, game_kind
    return game


def _step(page: Any) -> str:
    return page.locator("#replay-step").inner_text()


def _press(page: Any, key: str, before: str) -> None:
    page.keyboard.press(key)
    page.wait_for_function("t => document.getElementById('replay-step').innerText !== t",
                           arg=before)


@pytest.mark.parametrize("game_kind", ["boardroom", "commonwealth", "chudopoly"])
def test_a_replay_steps_by_the_arrow_keys_and_shows_the_games_charts(
        live_server_url: str, device: tuple[str, Any], axe_script: Path, artifacts: Path,
        game_kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    size, page = device
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 3)  # a game that ends
    ann, ben = guest("Ann"), guest("Ben")
    game = off_loop(_finished, game_kind, ann, ben)
    total = off_loop(lambda: game.actions.count())
    sign_in(page, live_server_url, ann)
    url = f"{live_server_url}/ladder/games/{game.pk}/replay/"
    page.goto(url + "?step=0")
    board = "#br-board" if game_kind == "boardroom" else "#cw-board" if \
        game_kind == "commonwealth" else ".replay-board"
    assert page.locator(board).is_visible()
    where = f"{size}-replay-{game_kind}"
    shot(page, artifacts, f"{where}-start")
    check_layout(page, f"{where}-start")
    check_axe(page, axe_script, f"{where}-start")
    start = page.locator("#replay-frame").inner_html()
    # The arrow keys press the step buttons: the board, the step and the address follow.
    _press(page, "ArrowRight", f"Step 0 of {total}")
    _press(page, "ArrowRight", f"Step 1 of {total}")
    assert _step(page) == f"Step 2 of {total}" and page.url.endswith("?step=2")
    assert page.locator("#replay-frame").inner_html() != start
    _press(page, "ArrowLeft", _step(page))
    assert _step(page) == f"Step 1 of {total}"
    _press(page, "End", _step(page))
    assert _step(page) == f"Step {total} of {total}"
    assert page.locator("#final-placings").is_visible()
    _press(page, "Home", _step(page))
    assert _step(page) == f"Step 0 of {total}"
    # The end, with the charts under the board: each fits the screen.
    page.goto(url)
    charts = page.locator("#charts .chart-svg")
    assert charts.count() == (2 if game_kind != "boardroom" else 1)
    width = page.viewport_size["width"]
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    shot(page, artifacts, f"{where}-end")
    check_layout(page, f"{where}-end")
    check_axe(page, axe_script, f"{where}-end")
    assert not page.console_errors, page.console_errors
    # The table's game-over banner: the replay's link, and the same charts loaded into it.
    page.goto(f"{live_server_url}/t/{off_loop(lambda: game.table.code)}/")
    page.wait_for_selector(".result-charts .chart-svg")
    assert page.locator("#replay-link").get_attribute("href") == \
        f"/ladder/games/{game.pk}/replay/"
    assert page.locator(".result-charts .chart-svg").count() == charts.count()
    # Ann's own line is "You" in the legend, as the log says.
    assert "You " in page.locator(".result-charts .chart-legend").first.inner_text()
    shot(page, artifacts, f"{size}-table-{game_kind}-game-over")
    check_layout(page, f"{size}-table-{game_kind}-game-over")
    assert not page.console_errors, page.console_errors
