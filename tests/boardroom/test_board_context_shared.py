"""What every seat's screen reads alike is built once a snapshot (`board_public`), and what a
seat's portfolio reads of the board is kept from screen to screen: over seeded playouts, each
seat's context reads as one built without the shared parts."""

from __future__ import annotations

import random
from typing import Any

from games.boardroom import board
from games.boardroom.bots import choose_action
from games.boardroom.engine import apply, new_game, to_decide, view
from games.boardroom.engine.board import TILES
from games.boardroom.engine.rules import bank_price, owns_industry, rent

NAMES = ("Ann", "Bea", "Cy", "Dee")
SEATS: list[dict[str, Any]] = [{"is_bot": True, "lot_deadline": "2026-12-07T16:00:00+00:00"}
                               for _ in NAMES]


def _states(seed: int, moves: int = 400) -> list[dict[str, Any]]:
    st = new_game(seats=4, seed=seed, bots=[True] * 4)
    rng = random.Random(seed)
    states = [st]
    for _ in range(moves):
        if st["phase"] == "finished":
            break
        seat = to_decide(st)[0]
        st = apply(st, seat, choose_action(view(st, seat), "medium", rng)).state
        states.append(st)
    return states


def test_every_seat_reads_the_one_auction_of_its_snapshot() -> None:
    auctions = 0
    for st in _states(5):
        public = board.board_public(view(st, None), names=NAMES, seats=SEATS)
        for seat in range(4):
            ctx = board.board_context(view(st, seat), me=seat, names=NAMES, seats=SEATS,
                                      public=public)
            alone = board.board_context(view(st, seat), me=seat, names=NAMES, seats=SEATS)
            assert ctx["auction"] is public["auction"]
            assert ctx["auction"] == alone["auction"]
            assert ctx["lot_deadline"] == alone["lot_deadline"]
        auctions += st["auction"] is not None
    assert auctions > 10


def test_a_kept_portfolio_line_reads_what_the_board_says_of_that_tile_now() -> None:
    lines = 0
    for st in _states(11):
        for seat in range(4):
            v = view(st, seat)
            for group in board.portfolio(v, seat, board.decision(v, seat, NAMES)):
                for line in group["tiles"]:
                    pos = line["pos"]
                    assert st["owner"][pos] == seat and line["level"] == st["level"][pos]
                    assert line["buyback"] == bank_price(st, pos)
                    assert line["here"] == (st["pos"][seat] == pos)
                    assert line["rent_now"] == (rent(st, pos, 0) if TILES[pos]["kind"]
                                                != "utility" else None)
                    lines += 1
                assert group["complete"] == (bool(TILES[group["tiles"][0]["pos"]].get(
                    "industry")) and owns_industry(st, seat, group["tiles"][0]["pos"]))
    assert lines > 100
