"""Auto move at a Commonwealth table: the toggle by the dice rolls for the player on the
workers and gives the GO minimum, never buys; any move in the meantime cancels the one
scheduled; it never plays for another seat; the board shows the toggle and the glow."""

from __future__ import annotations

import re
from typing import Any

import pytest
from commonwealth_clock_helpers import act, online, position, run_due, seat_of, sources, vs_bots
from django.test import Client

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game, GameAction, Seat
from games.platform.scheduler import in_process_scheduler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _auto_moves_at_once(settings: Any) -> None:
    settings.AUTO_MOVE_SECONDS = 0


def auto_tasks() -> list[dict[str, Any]]:
    return [kw for _, task, kw in in_process_scheduler().pending() if task == "tables.auto_move"]


def toggle(game: Game, viewer: Viewer, on: bool) -> None:
    services.seat_auto_move_set(table_id=game.table_id, viewer=viewer, on=on)


def auto_rows(game: Game) -> list[str]:
    return [a for source, a in sources(game) if source == "auto"]


def test_turning_it_on_rolls_for_the_player_on_the_workers(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(4, "2")])
    in_process_scheduler().clear()
    toggle(game, alice, True)
    assert [t["seat"] for t in auto_tasks()] == [me]
    run_due()
    game.refresh_from_db()
    assert sources(game)[0] == ("auto", "roll")


def test_it_never_decides_a_purchase(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(4, "2")])  # lands on an unmanaged project
    in_process_scheduler().clear()
    toggle(game, alice, True)
    run_due()
    game.refresh_from_db()
    assert game.state["step"] == {"kind": "buy", "project": 2}
    assert auto_tasks() == []  # buying or an auction is the player's call
    assert sources(game) == [("auto", "roll")]


def test_at_go_it_gives_the_minimum_for_the_player(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, pos={me: 36}, dice=[(5, "2")])  # passes GO
    in_process_scheduler().clear()
    toggle(game, alice, True)
    run_due()
    rows = GameAction.objects.filter(game=game, seat=me, source="auto").order_by("version")
    assert [row.action for row in rows][:2] == [{"type": "roll"},
                                                {"type": "donate", "amount": 5}]


def test_a_button_pressed_meanwhile_cancels_the_scheduled_move(alice: Viewer,
                                                              settings: Any) -> None:
    settings.AUTO_MOVE_SECONDS = 60  # scheduled, not yet due
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(4, "2")])
    in_process_scheduler().clear()
    toggle(game, alice, True)
    scheduled = auto_tasks()
    game = act(game, me, {"type": "roll"})  # the player pressed Roll themselves
    assert services.game_auto_move(**scheduled[0]) is None
    game.refresh_from_db()
    assert sources(game) == [("player", "roll")]


def test_turned_off_nothing_more_is_played(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me)
    in_process_scheduler().clear()
    toggle(game, alice, True)
    toggle(game, alice, False)
    run_due()
    game.refresh_from_db()
    assert auto_rows(game) == []


def test_it_never_plays_for_another_seat(alice: Viewer, bob: Viewer) -> None:
    game = online(alice, (bob, "Bob"))
    mine = seat_of(game, alice)
    game = position(game, turn=1 - mine)
    in_process_scheduler().clear()
    toggle(game, alice, True)
    assert auto_tasks() == []


def test_the_page_shows_the_toggle_and_the_dice_glow_while_it_is_on(alice: Viewer) -> None:
    game = vs_bots(alice)
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = alice.guest_key
    session.save()
    page = client.get(f"/t/{game.table.code}/").content.decode()
    # The dice glow while the seat's own toggle is on (site.css: #auto-move.on lights #dice).
    assert 'id="auto-move"' in page and "never buys, bids, trades" in page
    assert 'class="cw-dice" id="dice"' in page and 'class="auto-move on"' not in page
    Seat.objects.filter(table_id=game.table_id, is_bot=False).update(auto_move=True)
    page = client.get(f"/t/{game.table.code}/").content.decode()
    assert 'id="auto-move" class="auto-move on"' in page and 'aria-pressed="true"' in page


def test_the_toggle_posts_with_the_pages_own_csrf_token_not_one_of_its_own(
        alice: Viewer) -> None:
    # The toggle sits on the board every seat's socket is pushed; the token each socket would
    # put in it is sent instead by htmx from the page (hx-headers on the body).
    game = vs_bots(alice)
    client = Client(enforce_csrf_checks=True)
    session = client.session
    session[GUEST_SESSION_KEY] = alice.guest_key
    session.save()
    page = client.get(f"/t/{game.table.code}/").content.decode()
    toggle_form = page[page.index('class="auto-move-form"'):]
    toggle_form = toggle_form[:toggle_form.index("</form>")]
    assert "csrfmiddlewaretoken" not in toggle_form
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)
    refused = client.post(f"/t/{game.table.code}/auto/", {"on": "1"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    client.post(f"/t/{game.table.code}/auto/", {"on": "1"}, HTTP_HX_REQUEST="true",
                HTTP_X_CSRFTOKEN=token)
    assert Seat.objects.get(table_id=game.table_id, is_bot=False).auto_move
