"""Chudopoly's hand lists each card's piece as rendered once per its content (and the moves
offered for it), and a seat's panel takes its bank as rendered once per the bank's content:
the hand and the seat panel are rendered again nearly every move, their cards and banks far
less often changed (docs/performance.md, "How a push is made now")."""

from __future__ import annotations

from typing import Any

from games.chudopoly.templatetags.chudopoly import _PANEL_MEMO, bank_panel
from games.platform.rendering import render_unlocalized
from games.platform.templatetags.shared_includes import shared_renders, values_key

CARD_FLAGS = ("chudopoly/_hand_card.html", True, False, None)


def _card(cid: int, name: str, options: list[dict[str, str]]) -> dict[str, Any]:
    return {"id": cid, "kind": "money", "key": "money", "name": name, "value": 3,
            "colours": [], "colour": None, "options": options}


def _hand(cards: list[dict[str, Any]]) -> str:
    c = {"me": 0, "hand": cards, "view": {"hand_limit": 7}, "my_turn": True, "result": None,
         "my_plays_left": 2, "movable": [], "swaps": [], "rearranges_left": None}
    return render_unlocalized("chudopoly/_hand.html",
                              {"game": True, "oob": True, "c": c, "me": None})


def test_a_hand_lists_its_cards_in_order_each_with_the_moves_offered_for_it() -> None:
    bank = [{"label": "Bank it as 3M", "json": '{"type":"bank","card":5}'}]
    html = _hand([_card(5, "Cash <3>", bank), _card(9, "5M", [])])
    assert html.index('id="hand-card-5"') < html.index('id="hand-card-9"')
    assert 'id="play-btn-5"' in html and "Bank it as 3M" in html
    assert "(Cash &lt;3&gt;)" in html and 'id="play-btn-9"' not in html
    assert "No cards in hand." in _hand([])


def test_a_hand_card_is_rendered_once_for_its_content_and_served_again() -> None:
    shared_renders.clear()
    offered = [{"label": "Bank it as 3M", "json": '{"type":"bank","card":5}'}]
    first = _hand([_card(5, "3M", offered)])
    key = (*CARD_FLAGS, values_key({"card": _card(5, "3M", offered)}))
    assert shared_renders.get(key) is not None
    shared_renders.put(key, '<li id="hand-card-5">kept</li>')
    assert '<li id="hand-card-5">kept</li>' in _hand([_card(5, "3M", offered)])
    # Another offer is another piece, rendered for it.
    other = _hand([_card(5, "3M", [])])
    assert "kept" not in other and 'id="play-btn-5"' in first


def test_the_bank_panel_prints_what_the_seat_panel_s_include_printed_and_is_kept() -> None:
    _PANEL_MEMO.clear()
    p = {"seat": 1, "name": "Bea", "bank": [{"id": 49, "kind": "money", "key": "money",
                                             "name": "3M", "value": 3}],
         "bank_total": 3, "hand_count": 4, "is_turn": True}
    html = bank_panel(p)
    assert html == render_unlocalized("chudopoly/_bank.html", {"p": p})
    assert 'id="seat-1-bank"' in html and "Bea" in html
    # The same bank in a panel rendered again for another hand count: the kept render.
    assert bank_panel({**p, "hand_count": 5, "is_turn": False}) is not None
    assert len(_PANEL_MEMO) == 1
    assert bank_panel({**p, "bank_total": 4}) != html
