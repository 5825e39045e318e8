"""The benches' scripted seat (bench/liveplay.py, bench/pageforms.py) fills in the board games'
composed forms as a player does, so every move it sends from them is legal: a Commonwealth
deal always hands over a project or the Pardon card (it once sent empty deals, thousands of
refused frames a run), a free amount is inside its bounds, and a Boardroom swap, sale or lot
goes with the fields its form asks for. Each is rendered by the game's own template, read off
the HTML, sent through the socket's frame parser and judged by the engine."""

from __future__ import annotations

import random
from typing import Any

import liveplay
import pageforms
from django.template.loader import render_to_string

from games.boardroom import engine as br_engine
from games.boardroom.board import board_context as br_context
from games.boardroom.engine.scenario import scenario as br_scenario
from games.commonwealth import engine as cw_engine
from games.commonwealth.board import board_context as cw_context
from games.commonwealth.engine import scenario as cw_scenario
from games.platform.frames import parse_frame
from games.platform.interface import get_game

NAMES = ["Ann", "Ben", "Cy"]
SEATS = [{"is_bot": False}] * 3


def _page(template: str, ctx: dict[str, Any], seat: int) -> dict[str, str]:
    context = {"game": True, "c": ctx, "me": seat}
    page = {"decision": render_to_string(template, context)}
    if template.startswith("commonwealth/"):
        # Its deal forms stand beside the decision, their cash limits in the players panel.
        page["deals"] = render_to_string("commonwealth/_deals.html", context)
        page["players"] = render_to_string("commonwealth/_players.html", context)
    return page


def _sent(move: dict[str, Any]) -> dict[str, Any]:
    """The action the server reads from the frame the seat sends."""
    return parse_frame(liveplay.act_frame(move, 0)).action


def test_a_commonwealth_deal_from_the_form_always_hands_over_a_project_or_the_card() -> None:
    st = cw_scenario(seats=3, cash={0: 120, 1: 0, 2: 40}, managers={0: 0, 5: 2})
    page = _page("commonwealth/_decision.html",
                 cw_context(cw_engine.view(st, 1), me=1, names=NAMES, seats=SEATS), 1)
    # Ben owes nothing now: the deal forms are his only moves, made now and then.
    assert liveplay.choose_move(page, random.Random(0)) is None
    rng = random.Random(1)
    for _ in range(60):
        move = liveplay.choose_move(page, rng, idle=True)
        assert move is not None and move["optional"]
        action = _sent(move)
        assert action["type"] == "offer"
        assert cw_engine.legal.offer_problem(st, 1, action) is None, action


def test_a_commonwealth_free_bid_is_inside_the_forms_bounds() -> None:
    st = cw_scenario(seats=3, cash={0: 100, 1: 100, 2: 100}, managers={})
    st["step"] = {"kind": "auction", "project": 3, "sender": 1, "high": 0, "leader": None,
                  "to_act": 0, "bidders": [2, 0]}
    page = _page("commonwealth/_decision.html",
                 cw_context(cw_engine.view(st, 0), me=0, names=NAMES, seats=SEATS), 0)
    (form,) = [f for f in pageforms.forms_in(page["decision"]) if f.base["type"] == "bid"]
    rng = random.Random(2)
    for _ in range(40):
        move = pageforms.compose(form, rng, pageforms.Memory())
        assert move is not None
        assert cw_engine.legal.problem(st, 0, _sent(move)) is None, move


def test_no_bare_base_of_a_composed_form_is_ever_chosen_as_a_move() -> None:
    st = cw_scenario(seats=3, cash={0: 120, 1: 50, 2: 40}, managers={0: 0})
    page = _page("commonwealth/_decision.html",
                 cw_context(cw_engine.view(st, 0), me=0, names=NAMES, seats=SEATS), 0)
    assert [f.base["type"] for f in pageforms.forms_in(page["deals"])] == ["offer", "offer"]
    offered = liveplay.actions_in(page["decision"])
    assert offered and all(a["type"] != "offer" for a in offered)


def _boardroom_after_the_roll() -> tuple[dict[str, Any], dict[str, str]]:
    """Ann (seat 0) has rolled; she and Ben each hold tiles nobody has built on."""
    st = br_scenario(seats=3, phase="act", cash={0: 900, 1: 700, 2: 600},
                     owners={1: 0, 3: 0, 6: 1, 8: 1, 11: 2})
    view = br_engine.view(st, 0)
    ctx = br_context(view, me=0, names=NAMES, seats=SEATS)
    return st, _page("boardroom/_decision.html", ctx, 0)


def test_boardroom_trades_and_lots_from_their_forms_are_legal_and_never_repeated() -> None:
    st, page = _boardroom_after_the_roll()
    forms = pageforms.forms_in(page["decision"])
    assert {tuple(sorted(f.classes & {"swap-form", "sell-form", "lot-form"})) for f in forms} \
        == {("swap-form",), ("sell-form",), ("lot-form",)}
    game = get_game("boardroom")
    memory = pageforms.Memory()
    rng = random.Random(3)
    sent = []
    for form in forms:
        while (move := pageforms.compose(form, rng, memory)) is not None:
            action = _sent(move)
            game.apply(st, 0, action)  # raises IllegalAction if the engine refuses it
            sent.append(action)
            if action["type"] == "auction_own":
                break
    kinds = [(a["type"], a.get("kind")) for a in sent]
    assert {("propose", "swap"), ("propose", "sell"), ("auction_own", None)} <= set(kinds)
    offers = [(a["kind"], a["to"], a.get("take"), a.get("give")) for a in sent
              if a["type"] == "propose"]
    assert len(offers) == len(set(offers)), "the same tiles were offered twice"


def _boardroom_page(st: dict[str, Any], seat: int) -> dict[str, str]:
    ctx = br_context(br_engine.view(st, seat), me=seat, names=NAMES, seats=SEATS)
    return {key: render_to_string(f"boardroom/_{name}.html", {"game": True, "c": ctx,
                                                              "me": seat})
            for key, name in (("decision", "decision"), ("hand", "portfolio"))}


def test_a_boardroom_seat_in_debt_raises_money_every_way_its_page_offers() -> None:
    # Excise duty (100) with 60 in cash, branches on the three tiles of an industry.
    rolled = br_scenario(seats=3, pos={0: 31}, dice=[(2, 4)], cash={0: 60, 1: 500, 2: 500},
                         owners={5: 0, 1: 0, 3: 0, 4: 0}, levels={1: 1, 3: 1, 4: 1})
    st = br_engine.apply(rolled, 0, {"type": "roll"}).state
    assert st["debts"][0]["seat"] == 0
    page = _boardroom_page(st, 0)
    game = get_game("boardroom")
    rng = random.Random(4)
    kinds = set()
    for _ in range(300):
        move = liveplay.choose_move(page, rng)
        assert move is not None
        action = _sent(move)
        game.apply(st, 0, action)  # raises IllegalAction if the engine refuses it
        kinds.add(action["type"] if action["type"] != "propose" else action["kind"])
    assert {"close", "auction_own", "sell", "give_up"} <= kinds, kinds


def test_a_boardroom_seat_in_debt_with_nothing_left_to_sell_gives_up() -> None:
    rolled = br_scenario(seats=3, pos={0: 31}, dice=[(2, 4)], cash={0: 60})
    st = br_engine.apply(rolled, 0, {"type": "roll"}).state
    move = liveplay.choose_move(_boardroom_page(st, 0), random.Random(5))
    assert move is not None and _sent(move) == {"type": "give_up"}
