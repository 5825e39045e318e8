"""The board presenter (games/commonwealth/board.py) and the log in words: every decision has
labelled options, the dice and the Fund are shown, an open deal's terms reach only its two
seats, and the table says when the Fund ran dry."""

from __future__ import annotations

import json
import random

from games.commonwealth import engine
from games.commonwealth.board import board_context, board_public, decision
from games.commonwealth.bots import choose_action
from games.commonwealth.describe import describe_event
from games.commonwealth.engine import scenario

NAMES = ["Ann", "Ben", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]


def _context(state: dict, seat: int | None) -> dict:
    return board_context(engine.view(state, seat), me=seat, names=NAMES, seats=SEATS)


def test_every_decision_of_a_bot_game_has_a_labelled_option_for_every_legal_action() -> None:
    rng = random.Random(5)
    kinds = set()
    for seed in range(6):
        st = engine.new_game(seats=3, seed=seed)
        for _ in range(400):
            if engine.result(st) is not None:
                break
            seat = engine.to_decide(st)[0]
            view = engine.view(st, seat)
            d = decision(view, seat, NAMES)
            kinds.add(d["kind"])
            shown = [json.loads(o["json"]) for group in ("buttons", "develops", "cards",
                                                         "rides", "amounts") for o in d[group]]
            def key(a: dict) -> str:
                return json.dumps(a, sort_keys=True)

            assert sorted(map(key, shown)) == sorted(map(key, view["legal"]))
            assert all(o["label"] for group in ("buttons", "develops", "cards", "rides",
                                                "amounts") for o in d[group])
            st = engine.apply(st, seat, choose_action(view, "medium", rng)).state
    assert {"pre_roll", "buy", "chip", "chance", "donate", "shuttle"} <= kinds


def test_the_board_has_forty_spaces_the_fund_and_both_dice() -> None:
    st = scenario(seats=3, dice=[[3, "x2"]])
    st = engine.apply(st, 0, {"type": "roll"}).state
    c = _context(st, 0)
    assert len(c["spaces"]) == 40 and c["fund"] == st["fund"]
    assert (c["dice"]["die"], c["dice"]["face"]) == (3, "×2")
    assert c["dice"]["meaning"] == ("×2: move twice 3, 6. It counts as a double: another turn "
                                    "(a third double in a row is Jail).")


def test_a_jail_roll_shows_no_action_die() -> None:
    st = scenario(seats=2, in_jail={0: 0}, dice=[[2]])
    st = engine.apply(st, 0, {"type": "jail_roll"}).state
    dice = _context(st, 0)["dice"]
    assert (dice["die"], dice["face"]) == (2, None)
    assert dice["meaning"] == "A Jail roll: the standard die alone, 2; a 6 gets you out."


def test_an_open_deals_terms_reach_only_its_two_seats() -> None:
    st = scenario(seats=3, cash={0: 40}, managers={1: 1})
    st = engine.apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 40},
                              "get": {"projects": [1]}}).state
    assert _context(st, 1)["deal"]["words"] == \
        "Ann gives you 40 in cash; you give Tool Lending Shed"
    assert _context(st, 0)["deal"]["words"] == \
        "you give Ben 40 in cash; Ben gives Tool Lending Shed"
    for outsider in (2, None):
        deal = _context(st, outsider)["deal"]
        assert deal["private"] and "words" not in deal
        assert engine.view(st, outsider)["deal"] == {"from": 0, "to": 1, "private": True}


def test_the_offer_in_the_log_names_its_terms_only_to_its_two_seats() -> None:
    st = scenario(seats=3, cash={0: 40}, managers={1: 1})
    applied = engine.apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 40},
                                   "get": {"projects": [1]}})
    lines = {seat: [describe_event(e, viewer=seat, names=NAMES)
                    for e in engine.events_for(applied.events, seat)] for seat in (0, 1, 2)}
    assert "Deal offered: you give Ben 40 in cash; Ben gives Tool Lending Shed." in lines[0]
    assert "Deal offered: Ann gives you 40 in cash; you give Tool Lending Shed." in lines[1]
    assert "Ann offered Ben a deal." in lines[2]


def test_a_fund_run_dry_is_said_as_everyone_lost() -> None:
    st = scenario(seats=2, fund=30, step={"kind": "shuttle", "from": 5})
    st = engine.apply(st, 0, {"type": "ride", "to": 6}).state
    c = _context(st, 0)
    assert c["fund_dry"] and st["result"]["winner"] is None


def test_deal_forms_offer_each_rival_your_projects_and_theirs() -> None:
    st = scenario(seats=3, cash={0: 25}, managers={0: 0, 5: 2}, jail_card=2)
    deals = _context(st, 0)["deals"]
    forms = deals["forms"]
    assert [f["to"] for f in forms] == [1, 2]
    to_cy = forms[1]
    assert [p["id"] for p in to_cy["give_projects"]] == [0]
    assert [p["id"] for p in to_cy["get_projects"]] == [5]
    # Each side's cash limit is the page's (its players panel): the forms name whose it is.
    assert deals["me"] == 0 and to_cy["get_jail_card"] is True


def test_the_free_bid_field_spans_exactly_the_bids_the_engine_accepts() -> None:
    st = scenario(seats=3, turn=1, cash={0: 12}, fund=100)
    st["step"] = {"kind": "auction", "project": 9, "sender": 1, "high": 10, "leader": 2,
                  "to_act": 0, "bidders": [2, 0]}
    form = _context(st, 0)["decision"]["amount_form"]
    assert (form["low"], form["high"], form["step"]) == (15, 110, 5)
    for amount, ok in ((form["low"], True), (form["high"], True), (form["high"] + 5, False),
                       (form["low"] - 5, False)):
        assert (engine.legal.problem(st, 0, {"type": "bid", "amount": amount}) is None) is ok


def test_each_seats_money_is_labelled_as_cash_even_at_zero() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("commonwealth/_players.html",
                            {"game": True, "c": _context(engine.new_game(seats=3, seed=1), 0)})
    assert html.count('<small>cash</small> 0</span>') == 3


def test_cards_put_back_under_the_deck_are_counted_in_words_not_card_s() -> None:
    one = describe_event({"type": "return", "seat": 1, "count": 1}, viewer=0, names=NAMES)
    two = describe_event({"type": "return", "seat": 1, "count": 2}, viewer=0, names=NAMES)
    assert (one, two) == ("Ben put a card under the deck.", "Ben put 2 cards under the deck.")


def test_a_replay_marks_the_viewers_seat_as_the_you_its_project_list_names() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("commonwealth/_replay_board.html",
                            {"board": _context(engine.new_game(seats=3, seed=1), 0)})
    # The replay draws the table's players panel: the viewer's own seat reads "You" there.
    assert "<strong>You</strong>" in html and "<strong>Ann</strong>" not in html
    assert "<strong>Ben</strong>" in html


def test_no_deal_form_is_offered_where_neither_side_has_a_project_or_the_pardon_card() -> None:
    at_the_start = engine.new_game(seats=3, seed=1)
    assert _context(at_the_start, 0)["deals"]["forms"] == []
    cash_alone = _context(scenario(seats=3, cash={0: 40, 2: 30}), 0)["deals"]
    assert cash_alone["forms"] == []
    assert [(u["id"], u["reason"]) for u in cash_alone["unavailable"]] == [
        ("deal-1-unavailable", "A deal hands over at least one project or the Pardon card, "
                               "and neither you nor Ben has one."),
        ("deal-2-unavailable", "A deal hands over at least one project or the Pardon card, "
                               "and neither you nor Cy has one."),
    ]
    cy_has_a_project = scenario(seats=3, cash={0: 40}, managers={5: 2})
    d = _context(cy_has_a_project, 0)["deals"]
    assert [f["to"] for f in d["forms"]] == [2]
    assert [u["id"] for u in d["unavailable"]] == ["deal-1-unavailable"]


def test_a_deal_form_cannot_be_sent_until_a_project_or_the_card_is_ticked() -> None:
    from django.template.loader import render_to_string

    st = scenario(seats=3, cash={0: 40}, managers={5: 2})
    html = render_to_string("commonwealth/_deals.html",
                            {"c": _context(st, 0), "game": True, "me": 0})
    assert ('<button type="submit" class="offer-deal" disabled aria-describedby="deal-2-why">'
            'Offer the deal to Cy</button>') in html
    assert ('<small class="why-not" id="deal-2-why">Tick at least one project or the Pardon '
            'card: cash alone is not a deal.</small>') in html
    assert ('<button type="button" id="deal-1-unavailable" class="secondary" disabled '
            'aria-describedby="deal-1-unavailable-why">Offer a deal to Ben</button>') in html


def test_every_clock_default_has_words_in_the_log() -> None:
    rng = random.Random(11)
    defaults = set()
    for seed in range(4):
        st = engine.new_game(seats=3, seed=seed)
        for _ in range(300):
            if engine.result(st) is not None:
                break
            seat = engine.to_decide(st)[0]
            defaults.update(a["type"] for a in engine.timeout_actions(st, seat))
            action = choose_action(engine.view(st, seat), "easy", rng)
            st = engine.apply(st, seat, action).state
    assert {"roll", "donate"} <= defaults
    for kind in defaults:
        line = describe_event({"type": "clock_timeout", "seat": 1, "seconds": 300,
                               "decision": kind}, viewer=0, names=NAMES)
        assert line.startswith("Ben ran out of time (5:00) ") and len(line) > 30, kind


def test_the_clock_line_speaks_to_you_and_survives_an_unknown_decision() -> None:
    line = describe_event({"type": "clock_timeout", "seat": 0, "seconds": 60,
                           "decision": "pledge"}, viewer=0, names=NAMES)
    assert line == "You ran out of time (60 s) and pledged an even share of the Jail fee."
    assert describe_event({"type": "clock_timeout", "seat": 2, "seconds": None},
                          viewer=0, names=NAMES) == "Cy ran out of time (the clock)."


def _centre_card(state: dict, seat: int | None) -> str:
    """The space whose card the rendered board's centre shows to `seat` (None: a spectator)."""
    import re

    from django.template.loader import render_to_string

    inspect = render_to_string("commonwealth/_inspect.html",
                               {"game": True, "c": _context(state, seat), "me": seat})
    assert inspect.startswith('<div id="inspect"')
    return re.search(r'data-card="(\d+)"', inspect).group(1)


def test_during_an_auction_every_seat_and_a_spectator_see_the_projects_card_in_the_centre(
        ) -> None:
    from games.commonwealth.board import PROJECT_SPACE

    lot = PROJECT_SPACE[9]
    # Ben stands on project 9 and sends it to auction; Ann and Cy stand elsewhere.
    st = scenario(seats=3, turn=1, pos={0: 0, 1: lot, 2: lot + 1},
                  step={"kind": "buy", "project": 9})
    st = engine.apply(st, 1, {"type": "auction"}).state
    assert st["step"]["kind"] == "auction"
    assert [_centre_card(st, seat) for seat in (0, 1, 2, None)] == [str(lot)] * 4
    # Before it, each seat's centre showed where its own token stands.
    before = scenario(seats=3, turn=1, pos={0: 0, 1: lot, 2: lot + 1},
                      step={"kind": "buy", "project": 9})
    assert [_centre_card(before, seat) for seat in (0, 2)] == ["0", str(lot + 1)]


def test_the_spaces_read_alike_for_every_viewer_so_one_render_serves_them_all() -> None:
    # Projects managed, chips placed and tokens moved: "you" is the page's to mark
    # (data-seat), so the forty spaces and their cards are the same for every viewer.
    rng = random.Random(3)
    st = engine.new_game(seats=3, seed=3)
    for _ in range(300):
        if engine.result(st) is not None:
            break
        seat = engine.to_decide(st)[0]
        st = engine.apply(st, seat, choose_action(engine.view(st, seat), "medium", rng)).state
    spaces = [_context(st, seat)["spaces"] for seat in (0, 1, 2, None)]
    assert spaces[0] == spaces[1] == spaces[2] == spaces[3]
    assert any(s["card"].get("chips") for s in spaces[0])


def _render(template: str, st: dict, seat: int) -> str:
    from django.template.loader import render_to_string

    return render_to_string(template, {"c": _context(st, seat), "game": True, "me": seat})


def test_the_seats_that_wait_during_an_auction_read_one_decision_panel() -> None:
    # The sender and the leader wait while seat 0 bids: one render serves both, the page
    # showing "you" and "You" to each by its seat (.you-mark).
    st = scenario(seats=3, turn=1, cash={0: 12, 1: 30, 2: 50}, fund=100, managers={5: 1})
    st["step"] = {"kind": "auction", "project": 9, "sender": 1, "high": 10, "leader": 2,
                  "to_act": 0, "bidders": [2, 0]}
    sender, leader = (_render("commonwealth/_decision.html", st, s) for s in (1, 2))
    assert sender == leader
    assert ('<span class="you-mark" data-seat="1">you</span></span>'
            '<span class="lot-aside">, who cannot bid</span>') in sender
    assert _render("commonwealth/_decision.html", st, 0) != sender


def test_a_seats_deal_forms_change_with_what_it_can_deal_not_with_anyones_cash() -> None:
    st = scenario(seats=3, cash={0: 40, 1: 10, 2: 0}, managers={0: 0, 5: 2})
    richer = scenario(seats=3, cash={0: 90, 1: 70, 2: 55}, managers={0: 0, 5: 2})
    forms = _render("commonwealth/_deals.html", st, 0)
    assert _render("commonwealth/_deals.html", richer, 0) == forms
    # Each cash field names whose cash limits it, for the page to read from the players panel.
    assert 'data-path="give.cash" data-cash-of="0"' in forms
    assert 'data-path="get.cash" data-cash-of="2"' in forms
    more = scenario(seats=3, cash={0: 40, 1: 10, 2: 0}, managers={0: 0, 5: 2, 7: 1})
    assert _render("commonwealth/_deals.html", more, 0) != forms


def test_the_players_panel_shows_what_each_seat_may_hand_over_in_a_deal() -> None:
    # The deal forms' cash limits (board.js reads data-deal-cash): the auction's leader keeps
    # its high bid, the others may hand over all their cash; the shared panel is every
    # viewer's alike.
    st = scenario(seats=3, turn=1, cash={0: 12, 1: 30, 2: 50}, fund=100, managers={5: 1})
    st["step"] = {"kind": "auction", "project": 9, "sender": 1, "high": 10, "leader": 2,
                  "to_act": 0, "bidders": [2, 0]}
    panel = _render("commonwealth/_players.html", st, 0)
    for seat, cash, deal_cash in ((0, 12, 12), (1, 30, 30), (2, 50, 40)):
        assert f'data-cash="{cash}" data-deal-cash="{deal_cash}"' in panel.split(
            f'id="player-{seat}"')[1].split("</li>")[0]
    shared = [board_public(engine.view(st, s), names=NAMES, seats=SEATS)["players"]
              for s in (None, 0, 1, 2)]
    assert all(players == shared[0] for players in shared)


def test_every_seats_deal_forms_read_alike_from_its_own_view_and_its_screen_view() -> None:
    # The screen views of one state share their projects list, whose seats' projects the
    # forms find once for all four seats: each seat's forms are still its own.
    rng = random.Random(11)
    st = engine.new_game(seats=4, seed=3)
    names = [*NAMES, "Dee"]
    seats = [*SEATS, {"is_bot": True}]
    checked = 0
    for _ in range(300):
        if engine.result(st) is not None:
            break
        for seat in range(4):
            own = board_context(engine.view(st, seat), me=seat, names=names, seats=seats)
            shown = board_context(engine.screen_view(st, seat), me=seat, names=names,
                                  seats=seats)
            assert shown["deals"] == own["deals"]
            checked += bool(own["deals"] and own["deals"]["forms"])
        seat = engine.to_decide(st)[0]
        st = engine.apply(st, seat, choose_action(engine.view(st, seat), "medium", rng)).state
    assert checked > 50


def test_whom_the_game_waits_for_is_one_line_for_every_viewer_under_the_decision() -> None:
    # The waiting line names the deciders alike for every seat and a spectator; which seats it
    # shows to (one that decides nothing) is the page's, by data-deciding against its seat
    # marker (commonwealth/board.css). A waiting seat's decision panel no longer names whom
    # the game waits for, so it reads as before when another seat comes to decide.
    from django.template.loader import render_to_string

    def waiting(st: dict, seat: int | None) -> str:
        return render_to_string("commonwealth/_waiting.html",
                                {"c": _context(st, seat), "game": True, "me": seat})

    st = scenario(seats=3, turn=1)
    line = waiting(st, 2)
    assert line == waiting(st, 1) == waiting(st, None)
    assert 'data-deciding="1"' in line and ">Waiting for Ben.</p>" in line
    assert "Waiting for" not in _render("commonwealth/_decision.html", st, 2)
    handed_on = scenario(seats=3, turn=0)
    assert (_render("commonwealth/_decision.html", handed_on, 2)
            == _render("commonwealth/_decision.html", st, 2))
    assert ">Waiting for Ann.</p>" in waiting(handed_on, 2)
