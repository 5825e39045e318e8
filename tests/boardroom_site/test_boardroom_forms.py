"""Boardroom's decision panel tells the truth as you edit it (games/boardroom/board.py and
_decision.html; board.js reads the same data attributes in the browser): each bound beside a
field is the chosen tile's own, a bot's refusal says why and what the next offer must beat,
and a move you cannot afford shows disabled with why."""

from __future__ import annotations

import json
import re

from django.template.loader import render_to_string

from games.boardroom import engine
from games.boardroom.board import board_context
from games.boardroom.engine import scenario
from games.boardroom.engine.board import BUYBACK, TILES

NAMES = ["Ann", "Bot Alpha", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]
KIOSK, EXCHANGE, SCREENS = 1, 39, 29  # the cheapest tile, the dearest, a rival's


def panel(state: dict, me: int = 0) -> tuple[dict, str]:
    c = board_context(engine.view(state, me), me=me, names=NAMES, seats=SEATS)
    return c, render_to_string("boardroom/_decision.html", {"c": c, "game": True, "me": me})


def _form(html: str, cls: str, to: int) -> str:
    start = html.index(f'class="br-trade-form {cls}" data-to="{to}"')
    return html[start:html.index("</form>", start)]


def _seller() -> dict:
    return scenario(seats=3, phase="act", owners={EXCHANGE: 0, KIOSK: 0, SCREENS: 1},
                    bots=[False, True, True], cash={0: 500, 1: 400})


def test_the_sell_forms_printed_minimum_is_the_chosen_tiles_buyback() -> None:
    _, html = panel(_seller())
    form = _form(html, "sell-form", 1)
    options = re.findall(r'<option value="(\d+)" data-min="(\d+)" data-max="(\d+)"', form)
    # Every tile carries its own bound for the page's script; the first is the one chosen.
    assert [(int(v), int(lo)) for v, lo, _ in options] == [(KIOSK, BUYBACK[KIOSK]),
                                                            (EXCHANGE, BUYBACK[EXCHANGE])]
    chosen = BUYBACK[KIOSK]
    assert f'<span class="sell-min">{chosen}</span>' in form
    assert f'min="{chosen}" max="400" step="1" value="{chosen}"' in form


def test_a_sell_form_opened_on_a_dearer_tile_prints_that_tiles_minimum() -> None:
    """The bug of issue 33: "at least 70" printed while a tile the bank buys for 100 was
    chosen. The printed bound is the first option's, never the least of all."""
    st = scenario(seats=2, phase="act", owners={EXCHANGE: 0}, bots=[False, True],
                  cash={1: 900})
    c, html = panel(st)
    sell = c["decision"]["sells"][0]
    assert sell["cash_min"] == BUYBACK[EXCHANGE] == sell["give"][0]["buyback"]
    assert f'<span class="sell-min">{BUYBACK[EXCHANGE]}</span>' in html


def _refused_swap() -> dict:
    st = _seller()
    st = engine.apply(st, 0, {"type": "propose", "kind": "swap", "to": 1, "take": SCREENS,
                              "give": None, "cash": 50}).state
    return engine.apply(st, 1, {"type": "answer", "accept": False}).state


def test_a_refused_bot_offer_says_why_and_what_the_next_must_beat() -> None:
    c, html = panel(_refused_swap())
    (refusal,) = c["decision"]["refusals"]
    assert refusal["words"] == "you give Bot Alpha 50 in cash; Bot Alpha gives Screen Assembly"
    assert refusal["why"] == "it values what it gives up above what it gets"
    assert refusal["next"] == "Next time, for these tiles: at least 60 in cash."
    banner = html[html.index('id="trade-refused"'):]
    assert ("<strong>Bot Alpha refused your offer</strong> (you give Bot Alpha 50 in cash; "
            "Bot Alpha gives Screen Assembly): it values what it gives up above what it gets. "
            "Next time, for these tiles: at least 60 in cash.") in banner


def test_a_refusal_is_still_said_with_its_bound_on_a_later_turn_when_trading_opens() -> None:
    st = _refused_swap()
    st = dict(st, turn_number=st["turn_number"] + 3, round=st["round"] + 1, phase="roll")
    c, html = panel(st)
    assert c["decision"]["refusals"] == []  # before the roll no offer can be made
    assert 'id="trade-refused"' not in html
    c, html = panel(dict(st, phase="act"))
    (refusal,) = c["decision"]["refusals"]
    assert refusal["next"] == "Next time, for these tiles: at least 60 in cash."
    assert json.loads(c["decision"]["swaps"][0]["refused"]) == {f"{SCREENS}:": 60}
    assert '<span class="swap-min">60</span>' in _form(html, "swap-form", 1)


def test_after_a_refusal_the_swap_form_asks_more_for_the_same_tiles() -> None:
    c, html = panel(_refused_swap())
    swap = c["decision"]["swaps"][0]
    assert json.loads(swap["refused"]) == {f"{SCREENS}:": 60}
    form = _form(html, "swap-form", 1)
    assert f'data-refused="{{&quot;{SCREENS}:&quot;:60}}"' in html
    # Their tile first, none of yours: the printed bound is that pair's.
    assert '<option value="29"' in form and '<span class="swap-min">60</span>' in form
    assert 'min="60"' in form


def test_a_swap_with_no_tile_of_yours_asks_for_some_cash() -> None:
    c, _ = panel(_seller())
    assert c["decision"]["swaps"][0]["cash_min"] == 1


def test_a_tile_you_cannot_afford_shows_buy_disabled_with_why() -> None:
    st = scenario(seats=2, phase="buy", pos={0: EXCHANGE}, cash={0: 100})
    c, html = panel(st)
    price = TILES[EXCHANGE]["price"]
    assert c["decision"]["unavailable"] == [{
        "label": f"Buy Stock Exchange for {price}", "id": "buy-unaffordable",
        "reason": f"You have 100; it costs {price}. Send it to auction, where you may bid."}]
    assert re.search(r'<button type="button" id="buy-unaffordable" class="secondary" disabled '
                     r'aria-describedby="buy-unaffordable-why">', html)
    assert 'id="decline"' in html and 'id="buy"' not in html


def test_a_bail_you_cannot_pay_shows_disabled_with_why() -> None:
    st = scenario(seats=2, audit={0: 0}, cash={0: 20})
    c, _ = panel(st)
    assert c["decision"]["unavailable"][0]["reason"] == "You have 20; leaving costs 50."


def test_a_branch_you_cannot_afford_on_your_tile_shows_disabled_with_why() -> None:
    pos = 1  # Noodle Cart, with the rest of its industry
    industry = {t["pos"]: 0 for t in TILES if t.get("industry") == TILES[pos]["industry"]}
    st = scenario(seats=2, phase="act", pos={0: pos}, owners=industry, cash={0: 10})
    c, _ = panel(st)
    cost = TILES[pos]["branch_cost"]
    assert c["decision"]["unavailable"] == [{
        "label": f"Open a branch on {TILES[pos]['name']} ({cost})", "id": "build-unaffordable",
        "reason": f"You have 10; a branch costs {cost}."}]
    rich = scenario(seats=2, phase="act", pos={0: pos}, owners=industry)
    assert panel(rich)[0]["decision"]["unavailable"] == []
    elsewhere = scenario(seats=2, phase="act", pos={0: pos}, owners={pos: 0}, cash={0: 10})
    assert panel(elsewhere)[0]["decision"]["unavailable"] == []  # no whole industry: no branch


def test_each_trade_form_reads_its_offer_as_the_rival_will() -> None:
    c, html = panel(_seller())
    swap, sell = c["decision"]["swaps"][0], c["decision"]["sells"][0]
    assert swap["sentence"] == "you give Bot Alpha {give}; Bot Alpha gives {get}"
    assert swap["preview"] == "you give Bot Alpha 1 in cash; Bot Alpha gives Screen Assembly"
    assert sell["preview"] == \
        f"you give Bot Alpha {TILES[KIOSK]['name']}; Bot Alpha gives {BUYBACK[KIOSK]} in cash"
    form = _form(html, "swap-form", 1)
    assert 'data-sentence="you give Bot Alpha {give}; Bot Alpha gives {get}"' in html
    assert f'<option value="{SCREENS}" data-name="Screen Assembly">' in form
