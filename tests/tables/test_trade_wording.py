"""Offers read one way everywhere (games/platform/wording.py): the proposer's side first,
"X gives you A; you give B", in Boardroom's and Commonwealth's panels and logs alike; and the
wording slips issue 33 found ("you sells", "swapped for … of you", "1 tiles") stay fixed."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.boardroom import engine as br
from games.boardroom.board import board_context as br_board
from games.boardroom.describe import describe_event as br_line
from games.commonwealth import engine as cw
from games.commonwealth.board import board_context as cw_board
from games.commonwealth.describe import describe_event as cw_line
from games.platform.wording import trade_sentence

BAKERY, SCREENS = 21, 29  # Boardroom tiles: Bakery Plant, Screen Assembly
NAMES = ["Ann", "Bot Alpha", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]


def test_a_trade_names_the_proposers_side_first_from_every_viewers_side() -> None:
    def said(viewer: int | None) -> str:
        return trade_sentence(1, 0, "Bakery Plant", "Screen Assembly", viewer=viewer,
                              names=NAMES)

    assert said(0) == "Bot Alpha gives you Bakery Plant; you give Screen Assembly"
    assert said(1) == "you give Ann Bakery Plant; Ann gives Screen Assembly"
    assert said(None) == "Bot Alpha gives Ann Bakery Plant; Ann gives Screen Assembly"


def _bot_swap() -> dict:
    """Bot Alpha (seat 1) asks Ann for her Screen Assembly and gives its Bakery Plant."""
    st = br.scenario(seats=3, turn=1, phase="main", owners={BAKERY: 1, SCREENS: 0},
                     bots=[False, True, True], dice=[(1, 2)])
    return br.apply(st, 1, {"type": "propose", "kind": "swap", "to": 0, "take": SCREENS,
                            "give": BAKERY, "cash": 0})


def test_a_boardroom_swap_says_what_the_bot_gives_and_what_it_takes() -> None:
    applied = _bot_swap()
    line = br_line(applied.events[-1], viewer=0, names=NAMES)
    assert line == "Trade offer: Bot Alpha gives you Bakery Plant; you give Screen Assembly."
    panel = br_board(br.view(applied.state, 0), me=0, names=NAMES, seats=SEATS)["offer"]
    assert panel["words"] == "Bot Alpha gives you Bakery Plant; you give Screen Assembly"


def test_a_boardroom_sale_and_a_cash_swap_read_in_the_same_form() -> None:
    sale = {"type": "offer", "from": 0, "to": 1, "kind": "sell", "take": None, "give": BAKERY,
            "cash": 150}
    assert br_line(sale, viewer=1, names=NAMES) == \
        "Trade offer: Ann gives you Bakery Plant; you give 150 in cash."
    cash = {"type": "offer", "from": 0, "to": 1, "kind": "swap", "take": BAKERY, "give": None,
            "cash": 120}
    assert br_line(cash, viewer=0, names=NAMES) == \
        "Trade offer: you give Bot Alpha 120 in cash; Bot Alpha gives Bakery Plant."


def test_a_commonwealth_deal_reads_in_the_form_of_a_boardroom_trade() -> None:
    st = cw.scenario(seats=3, cash={1: 40}, managers={1: 0})
    applied = cw.apply(st, 1, {"type": "offer", "to": 0, "give": {"cash": 40},
                               "get": {"projects": [1]}})
    line = cw_line(applied.events[-1], viewer=0, names=NAMES)
    assert line == "Deal offered: Bot Alpha gives you 40 in cash; you give Tool Lending Shed."
    panel = cw_board(cw.view(applied.state, 0), me=0, names=NAMES, seats=SEATS)["deal"]
    assert panel["words"] == "Bot Alpha gives you 40 in cash; you give Tool Lending Shed"


def test_your_own_auction_is_sold_by_you_not_you_sells() -> None:
    lot = {"type": "auction", "tile": BAKERY, "seller": 0, "start": 80}
    assert br_line(lot, viewer=0, names=NAMES) == \
        "Auction of Bakery Plant (sold by you): first bid 80."
    assert br_line(lot, viewer=1, names=NAMES) == \
        "Auction of Bakery Plant (sold by Ann): first bid 80."


def test_a_swap_card_says_who_gives_which_project_not_of_you() -> None:
    card = next(c["id"] for c in cw.data.CARDS if c["kind"] == "swap")
    event = {"type": "play_card", "seat": 1, "card": card, "kind": "swap", "mine": 3,
             "theirs": 0, "rival": 0}
    line = cw_line(event, viewer=0, names=NAMES)
    assert line.endswith(": Bot Alpha gives you Reading Room; you give Seed Library.")
    assert "of you" not in line


def test_a_removed_chip_is_yours_not_a_chip_of_you() -> None:
    card = next(c["id"] for c in cw.data.CARDS if c["kind"] == "remove_chip")
    event = {"type": "play_card", "seat": 1, "card": card, "kind": "remove_chip",
             "project": 0, "rival": 0}
    assert cw_line(event, viewer=0, names=NAMES).endswith(": your chip comes off Seed Library.")


def test_the_jail_split_says_your_fee_and_you_choose() -> None:
    st = cw.scenario(seats=3, in_jail={1: 2}, cash={0: 30, 1: 0, 2: 30}, dice=[[2]], turn=1)
    st = cw.apply(st, 1, {"type": "jail_roll"}).state
    words = cw_board(cw.view(st, 0), me=0, names=NAMES, seats=SEATS)["jail_split"]["words"]
    assert words.startswith("50 of Bot Alpha’s Jail fee is still owed: Cy and you choose")
    mine = cw_board(cw.view(st, 1), me=1, names=NAMES, seats=SEATS)["jail_split"]["words"]
    assert mine.startswith("50 of your Jail fee is still owed: Cy and Ann choose")


def test_one_tile_in_the_replay_is_one_tile() -> None:
    st = br.scenario(seats=2, owners={BAKERY: 0})
    board = br_board(br.view(st, 0), me=0, names=NAMES[:2], seats=SEATS[:2])
    html = render_to_string("boardroom/_replay_board.html", {"board": board})
    assert "1 tile ·" in html and "1 tiles" not in html


def test_one_branch_left_in_the_stock_is_one_branch() -> None:
    st = br.scenario(seats=2)
    st["stock"] = [1, 1]
    c = br_board(br.view(st, 0), me=0, names=NAMES[:2], seats=SEATS[:2])
    html = render_to_string("boardroom/_status.html", {"c": c, "game": True})
    assert "Bank stock: 1 branch, 1 holding" in html
