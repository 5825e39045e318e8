"""A tap survives another seat's move arriving while the finger is down (static/js/table.js).

Both guests owe a GO gift at once. Ann presses "Give 5 to the Fund"; before she lets go, Ben
gives 10, and the push that tells her so would redraw her decision panel (Ben's cash shows in
her deal form). The button under her finger stays put until her tap has been handled, and her
gift goes out from what she saw: Ben's move did not change her own decision, so it is applied."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from ui_helpers import guest, off_loop, settle, sign_in, two_guest_game

from games.commonwealth.engine import scenario
from games.platform.models import Game

pytestmark = [pytest.mark.browser]

GIVE_5 = '#decision .amount-choice:text-is("Give 5 to the Fund")'
GIVE_10 = '#decision .amount-choice:text-is("Give 10 to the Fund")'
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


@pytest.fixture
def other_device(browser: Any) -> Iterator[Any]:
    """A second browser of its own (its own cookies): the other guest's device."""
    context = browser.new_context(**DESKTOP)
    yield context.new_page()
    context.close()


def _both_owe_a_gift(ann: Any, ben: Any) -> tuple[Game, int, int]:
    game, a, b = two_guest_game("commonwealth", ann, ben, "Ben")
    # Ann has just passed GO: everyone collected their wage and owes the Fund a gift.
    state = scenario(seats=2, turn=a, cash={a: 60, b: 60}, pos={a: 2},
                     step={"kind": "donate", "owed": [a, b]}, agenda=[{"t": "land"}])
    state["version"] = game.state["version"]
    game.state = state
    game.save(update_fields=["state"])
    return game, a, b


def _log_says(page: Any, text: str) -> None:
    page.wait_for_function("t => document.querySelector('#log').innerText.includes(t)",
                           arg=text, timeout=15_000)


def _press(page: Any) -> Any:
    button = page.locator(GIVE_5)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return button.element_handle()


def _open_table(page: Any, base_url: str, game: Game, viewer: Any) -> None:
    sign_in(page, base_url, viewer)
    page.goto(base_url + game.table.invite_path)
    settle(page)


def _ben_gives_10(page: Any) -> None:
    """Ben's tap on his own device: the move goes through the live site, whose socket for
    Ann's page shows it to her at once."""
    page.locator(GIVE_10).click()


def test_a_tap_lands_though_another_seats_move_arrives_while_the_finger_is_down(
        live_server_url: str, phone: Any, other_device: Any) -> None:
    ann, ben = guest("ann"), guest("ben")
    game, a, b = off_loop(_both_owe_a_gift, ann, ben)
    _open_table(other_device, live_server_url, game, ben)
    _open_table(phone, live_server_url, game, ann)
    before = phone.locator("#table-version").input_value()

    pressed = _press(phone)
    _ben_gives_10(other_device)
    _log_says(phone, "received 10 as a GO donation")
    # The log moved on; the panel under the finger, and the version the move goes with, wait.
    assert pressed.evaluate("el => el.isConnected")
    assert phone.locator("#table-version").input_value() == before
    phone.mouse.up()

    _log_says(phone, "received 5 as a GO donation")
    state = off_loop(lambda: Game.objects.get(pk=game.pk).state)
    assert state["players"][a]["cash"] == 55 and state["players"][b]["cash"] == 50
    assert phone.locator("#frame-error").inner_text() == ""
    # The held swaps came in after the tap: the page is at the game's version.
    version = off_loop(lambda: Game.objects.get(pk=game.pk).version)
    phone.wait_for_function("v => document.getElementById('table-version').value === v",
                            arg=str(version), timeout=5_000)


def test_a_press_let_go_off_the_button_lets_the_held_push_in(
        live_server_url: str, phone: Any, other_device: Any) -> None:
    ann, ben = guest("ann"), guest("ben")
    game, a, _ = off_loop(_both_owe_a_gift, ann, ben)
    _open_table(other_device, live_server_url, game, ben)
    _open_table(phone, live_server_url, game, ann)

    _press(phone)
    _ben_gives_10(other_device)
    _log_says(phone, "received 10 as a GO donation")
    phone.mouse.move(5, 5)  # dragged off: no click
    phone.mouse.up()

    version = off_loop(lambda: Game.objects.get(pk=game.pk).version)
    phone.wait_for_function("v => document.getElementById('table-version').value === v",
                            arg=str(version), timeout=5_000)
    # Ann still owes her gift, and gives it with a plain tap on the redrawn panel.
    phone.locator(GIVE_5).click()
    _log_says(phone, "received 5 as a GO donation")
    assert off_loop(lambda: Game.objects.get(pk=game.pk).state)["players"][a]["cash"] == 55
