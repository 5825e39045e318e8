"""Boardroom's board data (games/boardroom/board.py) from one seat's view: the portfolio by
industry with the actions possible now, the auction's bidders and clocks, the debt panel's
ways out, and the tile card."""

from __future__ import annotations

import json
import re

from games.boardroom import engine
from games.boardroom.board import board_context
from games.boardroom.engine import scenario

NAMES = ["Ann", "Bea", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]


def context(state: dict, me: int = 0, seats: list[dict] | None = None) -> dict:
    return board_context(engine.view(state, me), me=me, names=NAMES, seats=seats or SEATS)


def actions_on(ctx: dict, pos: int) -> list[str]:
    tile = next(t for g in ctx["portfolio"] for t in g["tiles"] if t["pos"] == pos)
    return [a["kind"] for a in tile["actions"]]


def test_the_portfolio_groups_tiles_by_industry_with_building_only_where_you_stand() -> None:
    st = scenario(seats=3, phase="act", pos={0: 3}, owners={1: 0, 3: 0, 4: 0, 5: 0})
    st["dice"] = [1, 2]
    ctx = context(st)
    groups = {g["name"]: [t["name"] for t in g["tiles"]] for g in ctx["portfolio"]}
    assert groups == {"Street stalls": ["Noodle Cart", "Pancake Kiosk", "Juice Stand"],
                      "Logistics": ["North Freight Depot"]}
    assert ctx["portfolio"][0]["complete"] is True
    assert "build" in actions_on(ctx, 3)
    assert "build" not in actions_on(ctx, 1)  # not where the token stands
    # Your own tiles can go to auction or be sold to a rival from Trade.
    assert {"auction", "sell"} <= set(actions_on(ctx, 5))


def test_the_portfolio_offers_closing_on_a_built_industry_and_no_auction_there() -> None:
    st = scenario(seats=3, phase="act", pos={0: 7}, owners={1: 0, 3: 0, 4: 0},
                  levels={1: 1, 3: 1, 4: 2})
    st["dice"] = [3, 4]
    ctx = context(st)
    assert actions_on(ctx, 4) == ["close"]  # evenly: the most developed first
    assert actions_on(ctx, 1) == []
    tile = next(t for t in ctx["portfolio"][0]["tiles"] if t["pos"] == 4)
    assert tile["level_words"] == "2 branches" and tile["rent_now"] == 240
    assert tile["buyback"] == 40 + 50  # half the price and half the two branches


def test_someone_elses_portfolio_is_not_built_for_a_spectator() -> None:
    st = scenario(seats=3, owners={1: 0})
    assert board_context(engine.view(st, None), me=None, names=NAMES,
                         seats=SEATS)["portfolio"] == []


def _auction() -> dict:
    st = scenario(seats=3, phase="buy", pos={0: 1})
    return engine.apply(st, 0, {"type": "decline", "tile": 1}).state


def test_the_auction_lists_every_bidder_with_the_current_bidders_clock_and_the_lot_deadline(
        ) -> None:
    st = _auction()
    seats = [dict(s) for s in SEATS]
    seats[0]["deadline"] = "2030-01-01T00:01:00+00:00"
    ctx = context(st, 0, seats)
    a = ctx["auction"]
    # Named alike for every seat (the seats that wait share one panel): the page says "You"
    # to each bidder by its seat (.you-mark).
    assert [(b["seat"], b["name"], b["state"]) for b in a["bidders"]] == [
        (0, "Ann", "bidding"), (1, "Bea", "waiting"), (2, "Cy", "waiting")]
    assert a["bidders"][0]["deadline"] == "2030-01-01T00:01:00+00:00"
    assert a["no_bid"] is True and a["next"] == 45
    st = engine.apply(st, 0, {"type": "bid", "amount": 45}).state
    st = engine.apply(st, 1, {"type": "pass"}).state
    a = context(st, 0)["auction"]
    assert a["no_bid"] is False and a["lot_deadline"] is None
    assert [(b["seat"], b["name"], b["state"], b["leads"]) for b in a["bidders"]] == [
        (0, "Ann", "waiting", True), (1, "Bea", "out", False), (2, "Cy", "bidding", False)]


def test_a_lot_deadline_given_by_the_site_is_shown_until_the_first_bid() -> None:
    seats = [dict(s) for s in SEATS]
    seats[1]["lot_deadline"] = "2030-01-01T00:01:00+00:00"
    assert context(_auction(), 0, seats)["auction"]["lot_deadline"] == \
        "2030-01-01T00:01:00+00:00"


def _in_debt() -> dict:
    """Ann, with 20, lands on Bea's Juice Stand with a branch (rent 80)."""
    st = scenario(seats=3, cash={0: 20}, pos={0: 1}, owners={1: 1, 3: 1, 4: 1, 5: 0},
                  levels={4: 1}, dice=[(1, 2)])
    return engine.apply(st, 0, {"type": "roll"}).state


def test_the_debt_panel_names_the_sum_the_creditor_and_the_ways_out() -> None:
    ctx = context(_in_debt())
    assert ctx["decision"]["kind"] == "debt"
    debt = ctx["my_debt"]
    assert (debt["amount"], debt["to"], debt["reason"], debt["tile"]) == (
        80, "Bea", "rent", "Juice Stand")  # the full rent: a debt is the whole sum
    d = ctx["decision"]
    assert d["give_up"] is not None and d["end_turn"] is None
    assert [lot["name"] for lot in d["lots"]] == ["North Freight Depot"]
    assert d["sells"] and all(json.loads(s["base"])["kind"] == "sell" for s in d["sells"])


def test_the_tile_card_has_the_rent_now_the_whole_table_and_the_bank_payback() -> None:
    st = scenario(seats=3, owners={1: 1, 3: 1, 4: 1}, levels={4: 1})
    card = next(t for t in context(st)["tiles"] if t["pos"] == 4)["card"]
    # The bank pays back half the price and half the branch: 40 + 25.
    assert (card["price"], card["buyback"], card["owner_name"], card["rent_now"]) == (
        80, 65, "Bea", 80)
    assert [r["amount"] for r in card["rows"]] == [4, 8, 80, 240, 430, 590, 710]
    assert [r["label"] for r in card["rows"] if r["now"]] == ["With 1 branch"]


def test_a_log_line_of_a_new_branch_asks_the_page_for_the_branch_sound() -> None:
    from django.template.loader import render_to_string

    from games.platform.presenters import LogLine

    lines = [LogLine("Bea opened a branch on Juice Stand.", 7, 0,
                     ({"type": "build", "seat": 1, "tile": 4, "level": 1},)),
             LogLine("Bea rolled 1 and 2.", 6, 0, ({"type": "roll", "seat": 1},))]
    html = render_to_string("boardroom/_log.html", {"game": True, "c": {"log": lines}})
    assert html.count('data-sound="branch"') == 1
    assert 'data-k="7.0" data-sound="branch"' in html


def test_a_seat_whose_turn_clock_waits_for_answers_shows_what_is_left() -> None:
    from django.template.loader import render_to_string

    seats = [dict(s) for s in SEATS]
    seats[0]["paused"] = "3:12"
    ctx = context(_auction(), 1, seats)
    html = render_to_string("boardroom/_players.html", {"game": True, "c": ctx})
    assert "turn clock paused at 3:12" in html


def test_each_seats_money_is_labelled_as_cash() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("boardroom/_players.html",
                            {"game": True, "c": context(engine.new_game(seats=3, seed=1))})
    assert html.count('<small>cash</small> 1500</span>') == 3


def test_a_replay_marks_the_viewers_seat_as_the_you_its_owner_list_names() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("boardroom/_replay_board.html",
                            {"board": context(engine.new_game(seats=3, seed=1))})
    # The replay draws the table's players panel: the viewer's own seat reads "You" there.
    assert "<strong>You</strong>" in html and "<strong>Ann</strong>" not in html
    assert "<strong>Bea</strong>" in html


def test_after_doubles_the_end_turn_button_says_the_roll_comes_again() -> None:
    from games.boardroom.board import decision

    doubled = scenario(seats=3, phase="act", again=True)
    plain = scenario(seats=3, phase="act")
    in_audit = scenario(seats=3, phase="act", again=True, audit={0: 1})
    labels = [decision(engine.view(st, 0), 0, NAMES)["end_turn"]["label"]
              for st in (doubled, plain, in_audit)]
    assert labels == ["End turn: roll again (doubles)", "End turn", "End turn"]


def _centre_card(state: dict, me: int | None) -> str:
    """The tile whose card the rendered board's centre shows to `me` (None: a spectator)."""
    import re

    from django.template.loader import render_to_string

    ctx = board_context(engine.view(state, me), me=me, names=NAMES, seats=SEATS)
    inspect = render_to_string("boardroom/_inspect.html", {"game": True, "c": ctx, "me": me})
    assert inspect.startswith('<div id="inspect"')
    return re.search(r'data-card="(\d+)"', inspect).group(1)


def test_during_an_auction_every_seat_and_a_spectator_see_the_lots_card_in_the_centre(
        ) -> None:
    # Ann, on Pancake Kiosk (3), puts her Juice Stand (4) up for auction; Bea and Cy stand on
    # other tiles.
    st = scenario(seats=3, phase="act", pos={0: 3, 1: 7, 2: 12}, owners={4: 0})
    st = engine.apply(st, 0, {"type": "auction_own", "tile": 4, "start": 40}).state
    assert st["auction"]["tile"] == 4
    assert [_centre_card(st, me) for me in (0, 1, 2, None)] == ["4"] * 4
    # Once the auction is over the centre goes back to where each one stands.
    while st["auction"] is not None:
        st = engine.apply(st, st["auction"]["at"], {"type": "pass"}).state
    assert [_centre_card(st, me) for me in (0, 1, 2)] == ["3", "7", "12"]


def test_a_tile_to_buy_and_an_offer_naming_one_tile_show_that_tiles_card() -> None:
    st = scenario(seats=3, phase="buy", pos={0: 1})
    assert _centre_card(st, 0) == "1"
    # Ann offers Bea 100 for Bea's Juice Stand: Bea's centre shows the tile asked for.
    st = scenario(seats=3, phase="act", pos={0: 3, 1: 7}, owners={4: 1})
    st = engine.apply(st, 0, {"type": "propose", "to": 1, "kind": "swap", "take": 4,
                              "give": None, "cash": 100}).state
    assert st["offer"] is not None
    assert _centre_card(st, 1) == "4"


def test_before_the_roll_the_decision_panel_offers_closing_a_building_beside_the_roll() -> None:
    from django.template.loader import render_to_string

    st = scenario(seats=3, owners={1: 0, 3: 0, 4: 0}, levels={1: 1, 3: 1, 4: 2})
    ctx = context(st)
    assert ctx["decision"]["kind"] == "roll"
    html = render_to_string("boardroom/_decision.html", {"game": True, "c": ctx, "me": 0})
    panel = html.split('id="trade"')[0]
    assert 'id="roll"' in panel
    assert "Close a building on Juice Stand (+25)" in panel
    assert actions_on(ctx, 4) == ["close"]


def test_the_tiles_read_alike_for_every_viewer_so_one_render_serves_them_all() -> None:
    # Each seat owns a tile and stands on one: "you" is the page's to mark (data-seat), so
    # the forty tiles and their cards are the same for the two seats and a spectator.
    st = scenario(seats=3, owners={1: 0, 3: 0, 4: 0, 5: 1}, levels={4: 1}, pos={0: 1, 1: 4, 2: 4})
    tiles = [board_context(engine.view(st, me), me=me, names=NAMES, seats=SEATS)["tiles"]
             for me in (0, 1, None)]
    assert tiles[0] == tiles[1] == tiles[2]
    assert tiles[0][1]["owner_name"] == "Ann" and tiles[0][1]["card"]["owner_name"] == "Ann"
    assert [p["seat"] for p in tiles[0][4]["tokens"]] == [1, 2]


def test_the_auction_box_is_one_render_for_every_viewer_and_a_waiting_panel_holds_through_bids(
        ) -> None:
    # The box (the lot, the bid, the bidders and their clocks) is a partial of its own,
    # _lot.html, which reads alike for every seat and a spectator: "You" is shown to each by
    # the page (.you-mark). The decision panel keeps the bidder's bid and pass only, so the
    # panel of a seat that does not bid now reads the same, bid after bid.
    from django.template.loader import render_to_string

    def render(name: str, st: dict, seat: int | None) -> str:
        return render_to_string(f"boardroom/{name}.html",
                                {"game": True, "c": context(st, seat), "me": seat})

    opened = _auction()
    assert opened["auction"]["at"] == 0
    box = render("_lot", opened, 0)
    assert box == render("_lot", opened, 1) == render("_lot", opened, None)
    assert 'id="auction"' in box and 'id="auction"' not in render("_decision", opened, 0)
    assert 'id="bid"' in render("_decision", opened, 0)
    assert render("_decision", opened, 1) == render("_decision", opened, 2)
    bid = engine.apply(opened, 0, {"type": "bid", "amount": 45}).state
    assert render("_decision", bid, 2) == render("_decision", opened, 2)
    assert render("_lot", bid, 2) != box
    passed = engine.apply(bid, 1, {"type": "pass"}).state
    assert render("_decision", passed, 0) == render("_decision", passed, 1)
    assert ('<span class="them-mark" data-seat="0">Ann</span>'
            '<span class="you-mark" data-seat="0">You</span>') in render("_lot", passed, 1)
    # No auction, no box: only its empty element, which a push swaps.
    assert render("_lot", scenario(seats=3), 1).strip() == '<div id="lot" class="br-lot"></div>'


def test_the_auction_box_names_the_lot_and_its_seller_and_says_the_first_bid_once() -> None:
    # A tile declined at a buy goes to the bank's auction: the box's first line names the lot
    # and "the bank" as its seller (a phone draws it too: static/css/site.css). Before any bid,
    # the first bid is the next bid: it is said once, not "the first bid is 45 · next bid 45".
    from django.template.loader import render_to_string

    def lines(st: dict, seat: int) -> list[str]:
        html = render_to_string("boardroom/_lot.html",
                                {"game": True, "c": context(st, seat), "me": seat})
        auction = html[html.index('id="auction"'):html.index('id="bidders"')]
        return [" ".join(re.sub(r"<[^>]+>", "", p).split())
                for p in re.findall(r"<p[^>]*>(.*?)</p>", auction, re.S)]

    opened = _auction()
    first = opened["auction"]["start"]
    assert lines(opened, 1)[:2] == ["Auction of Noodle Cart (price 60, sold by the bank)",
                                    f"No bid yet: the first bid is {first}"]
    bid = engine.apply(opened, 0, {"type": "bid", "amount": first}).state
    # Ann leads: her name and "You" both stand in the HTML; the page shows the one for its seat.
    assert lines(bid, 1)[1] == f"Current bid {first} by AnnYou · next bid {first + 10}"


def test_whom_the_game_waits_for_is_one_line_for_every_viewer_under_the_decision() -> None:
    # The waiting line names the deciders alike for every seat and a spectator; which seats
    # it shows to (one that plays and decides nothing) is the page's, by data-deciding and
    # data-out against its seat marker (boardroom/board.css). The decision panel of a seat
    # that waits no longer names the turn holder, so it reads as before when the turn passes.
    from django.template.loader import render_to_string

    def render(name: str, st: dict, seat: int | None) -> str:
        view = engine.view(st, seat)
        c = board_context(view, me=seat, names=NAMES, seats=SEATS)
        return render_to_string(f"boardroom/{name}.html", {"game": True, "c": c, "me": seat})

    st = scenario(seats=3, pos={0: 1})
    st["active"][2] = False
    line = render("_waiting", st, 1)
    assert line == render("_waiting", st, 0) == render("_waiting", st, None)
    assert 'data-deciding="0" data-out="2"' in line and ">Waiting for Ann.</p>" in line
    assert "Waiting for" not in render("_decision", st, 1)
    st["active"][2] = True
    handed_on = {**st, "turn": 2}
    assert render("_decision", handed_on, 1) == render("_decision", st, 1)
    assert ">Waiting for Cy.</p>" in render("_waiting", {**st, "turn": 2}, 1)
