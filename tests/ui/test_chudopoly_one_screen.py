"""One screen for Chudopoly, in real Chromium at 1440×900 and 390×844 (touch), as the board
games have (test_board_games_one_screen.py): without any scrolling, a player sees the decision
they owe. On their turn: the turn line, every card of their hand with its play button, their own
board and "End turn" at 1440×900; on a phone the turn line, their hand's first cards and "End
turn". Paying: every card they may pay with and "Pay with these cards". A watcher and a seat
waiting on another see whose turn it is, and every player (on a phone, a seat waiting sees its
hand first and the players under it). Each screen is photographed
(artifacts/ui/one-screen-*-chudopoly-*) and passes the table's UI checks (no sideways scroll,
44 px targets, no overlaps, axe-core).

The other seats are guests who never move, so each screen holds still while it is looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_board_games_one_screen import IN_VIEW_JS
from ui_helpers import check_axe, check_layout, guest, off_loop, settle, sign_in, wait_still

from games.chudopoly.engine.scenario import card, scenario
from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGINE = get_game("chudopoly")


def _seats(game: Game) -> dict[str, int]:
    return {s.name: s.game_seat for s in Seat.objects.filter(table_id=game.table_id)}


def _table(host: Viewer, *others: tuple[Viewer, str]) -> Game:
    table = services.table_create(viewer=host, name="Ann", ruleset_spec={"preset": "chudopoly"},
                                  max_seats=len(others) + 1, turn_seconds=0, response_seconds=0)
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=host)


def _with_state(game: Game, state: dict[str, Any]) -> Game:
    state["version"] = game.version
    game.state = state
    game.save()
    return game


def full_table_on_anns_turn(ann: Viewer, bea: Viewer, cal: Viewer, dot: Viewer) -> Game:
    """Four players mid-game, each with sets on the table; Ann's turn, seven cards in hand
    (several to play more than one way) and a wild on her board she may move."""
    game = _table(ann, (bea, "Bea"), (cal, "Cal"), (dot, "Dot"))
    seats = _seats(game)
    me, b, c, d = (seats[n] for n in ("Ann", "Bea", "Cal", "Dot"))
    return _with_state(game, scenario(
        seats=4, turn=me, turn_number=9, plays_left=3,
        hands={me: ["F-35 Lightning II", "wild:red/yellow", "money:5", "rent:red/yellow",
                    "midnight_requisition", "opsec", "pcs_orders"],
               b: ["money:1", "pcs_orders", "property:pink"],
               c: ["money:1", "pcs_orders", "property:yellow", "money:2", "money:3"],
               d: ["money:2"]},
        boards={me: {"red": ["F-22 Raptor"], "darkblue": ["The Pentagon", "Air Force One"],
                     "lightblue": ["Lackland AFB (BMT)", "wild:brown/lightblue"]},
                b: {"green": ["Thunderbirds", "Weapons School"],
                    "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"]},
                c: {"base": ["Ramstein AB", "Kadena AB"], "intel": ["PAVE PAWS Radar"],
                    "yellow": ["KC-135 Stratotanker"]},
                d: {"brown": ["Creech AFB", "Cannon AFB"], "pink": ["Peterson SFB"]}},
        upgrades={b: {"orange": ["upgrade"]}},
        banks={me: ["money:3", "money:1", "roll_call"], b: ["money:2", "money:4"],
               c: ["money:10"], d: ["money:1", "money:1", "money:2"]},
        discard=["pcs_orders", "money:2"]))


def charge_against_ann(ann: Viewer, bea: Viewer) -> Game:
    """Bea has just called in 5M from Ann with Finance Office; Ann holds OPSEC."""
    game = _table(ann, (bea, "Bea"))
    seats = _seats(game)
    me, bot = seats["Ann"], seats["Bea"]
    state = scenario(
        seats=2, turn=bot, turn_number=4, plays_left=3,
        hands={bot: ["finance_office", "money:1"], me: ["money:1", "opsec", "property:pink"]},
        boards={me: {"red": ["F-22 Raptor", "F-15 Eagle"], "brown": ["Creech AFB"]},
                bot: {"green": ["Thunderbirds"]}},
        banks={me: ["money:2", "money:3", "pcs_orders"], bot: ["money:3"]})
    action = {"type": "action", "card": card(state, "finance_office", bot), "target": me}
    return _with_state(game, ENGINE.apply(state, bot, action).state)


def _open(page: Any, base: str, viewer: Viewer | None, game: Game) -> None:
    if viewer is not None:
        sign_in(page, base, viewer)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base}/t/{game.table.code}/?invite={game.table.invite_token}")
    settle(page)
    wait_still(page)


def _out_of_view(page: Any, selectors: list[str]) -> list[str]:
    """Those of the selectors none of whose elements is wholly in the window, unscrolled."""
    assert page.evaluate("() => [scrollX, scrollY]") == [0, 0]
    return [s for s in selectors if not page.evaluate(IN_VIEW_JS, s)]


def _each_in_view(page: Any, selector: str) -> list[str]:
    """Every element the selector finds (by id), for a check that each is in the window."""
    ids = page.locator(selector).evaluate_all("els => els.map(e => e.id)")
    assert ids, selector
    return [f"#{i}" for i in ids]


def _look(page: Any, axe: Path, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))
    check_layout(page, name)
    check_axe(page, axe, name)


def test_each_seat_sees_its_turn_and_a_watcher_sees_the_whole_table_without_scrolling(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann, bea, cal, dot = (guest(n) for n in ("ann", "bea", "cal", "dot"))
    game = off_loop(full_table_on_anns_turn, ann, bea, cal, dot)
    me = off_loop(_seats, game)["Ann"]

    _open(page, live_server_url, ann, game)
    _look(page, axe_script, artifacts, f"one-screen-{size}-chudopoly-your-turn")
    assert page.locator("#rearrange .move-form").count()  # her wild may move: offered in place
    must_see = ["#turn-name", "#end-turn", "#hand .play-form button"]
    if size == "desktop":  # the whole hand, her own board and every other player's sets
        must_see += [f"#seat-{me}-zones", "#rearrange .move-form button"]
        must_see += _each_in_view(page, "#hand .play-form button")
        must_see += _each_in_view(page, "#players .seat:not(.me) .zones")
    assert not _out_of_view(page, must_see), _out_of_view(page, must_see)

    page.context.clear_cookies()
    _open(page, live_server_url, bea, game)
    _look(page, axe_script, artifacts, f"one-screen-{size}-chudopoly-their-turn")
    assert not page.locator("#end-turn, #rearrange").count()
    waiting_sees = ["#turn-name", "#hand .hand-card"]
    if size == "desktop":
        waiting_sees += _summaries(page)
    assert not _out_of_view(page, waiting_sees), _out_of_view(page, waiting_sees)

    page.context.clear_cookies()
    _open(page, live_server_url, None, game)
    _look(page, axe_script, artifacts, f"one-screen-{size}-chudopoly-watcher")
    assert page.locator("#watching").count() and not page.locator("#hand .hand-card").count()
    assert not _out_of_view(page, ["#turn-name", *_summaries(page)])


def _summaries(page: Any) -> list[str]:
    """Every player's summary line (name, hand, bank, sets), by its seat's id."""
    return [f"#{i}" for i in page.locator("#players .seat .opp-name").evaluate_all(
        "els => els.map(e => e.id)")]


def test_a_payment_owed_is_answered_without_scrolling(
        live_server_url: str, device: tuple[str, Any], axe_script: Path,
        artifacts: Path) -> None:
    size, page = device
    ann, bea = guest("ann"), guest("bea")
    game = off_loop(charge_against_ann, ann, bea)
    _open(page, live_server_url, ann, game)
    page.wait_for_selector("#decision.active .pay-form")
    _look(page, axe_script, artifacts, f"one-screen-{size}-chudopoly-paying")
    must_see = ["#decision-heading", "#pay-confirm", "#opsec-1", "#pending-text",
                *[f"#decision .pay-card:nth-child({n})"
                  for n in range(1, page.locator("#decision .pay-card").count() + 1)]]
    assert not _out_of_view(page, must_see), _out_of_view(page, must_see)
