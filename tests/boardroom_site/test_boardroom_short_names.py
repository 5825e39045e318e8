"""The short names a phone's board prints on its tiles (games/boardroom/engine/board.py
SHORT_NAMES): one per tile, short enough for a 29 px tile, telling the tiles for sale apart."""

from __future__ import annotations

import re

from games.boardroom import engine
from games.boardroom.board import board_context
from games.boardroom.engine import scenario
from games.boardroom.engine.board import SHORT_NAMES, TILES


def test_every_tile_has_a_short_name_of_words_a_phone_tile_can_hold() -> None:
    assert len(SHORT_NAMES) == len(TILES)
    for tile, short in zip(TILES, SHORT_NAMES, strict=True):
        pieces = re.split(r"[\s\u00ad]+", short)
        assert all(0 < len(p) <= 6 for p in pieces), (tile["name"], short)


def test_the_tiles_for_sale_have_short_names_of_their_own() -> None:
    for_sale = [SHORT_NAMES[t["pos"]] for t in TILES if "price" in t]
    assert len(set(for_sale)) == len(for_sale)


def test_the_board_carries_each_tiles_short_name_beside_its_full_one() -> None:
    ctx = board_context(engine.view(scenario(seats=2), 0), me=0, names=["Ann", "Bea"],
                        seats=[{"is_bot": False}, {"is_bot": True}])
    tile = ctx["tiles"][39]
    assert (tile["name"], tile["short"]) == ("Stock Exchange", "Stocks")
