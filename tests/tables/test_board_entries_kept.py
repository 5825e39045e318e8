"""The board games' owned tiles and project spaces are kept from snapshot to snapshot by all
they read (games/boardroom/board.py `_owned_tile`, games/commonwealth/board.py
`_project_space`): over played games, every kept entry is what building it anew gives."""

from __future__ import annotations

import random

from games.boardroom import board as boardroom_board
from games.boardroom.bots import choose_action as boardroom_bot
from games.boardroom.engine.apply import apply as boardroom_apply
from games.boardroom.engine.legal import to_decide as boardroom_to_decide
from games.boardroom.engine.state import new_game as boardroom_new_game
from games.boardroom.engine.view import view as boardroom_view
from games.commonwealth import board as commonwealth_board
from games.commonwealth.bots import choose_action as commonwealth_bot
from games.commonwealth.engine import apply as commonwealth_apply
from games.commonwealth.engine import new_game as commonwealth_new_game
from games.commonwealth.engine import to_decide as commonwealth_to_decide
from games.commonwealth.engine import view as commonwealth_view

NAMES = ["Ann", "Bea", "Cy", "Di"]
STEPS = 600


def test_boardroom_owned_tiles_kept_are_built_anew() -> None:
    checked = 0
    for seed in (3, 11):
        state = boardroom_new_game(seats=4, seed=seed, bots=[True] * 4)
        rng = random.Random(seed)
        for _ in range(STEPS):
            if state["phase"] == "finished":
                break
            view = boardroom_view(state, None)
            tiles = boardroom_board._tiles(view, NAMES)
            for pos, tile in enumerate(tiles):
                if view["owner"][pos] is None:
                    continue
                fresh = boardroom_board._tile(view, pos, NAMES, tile["tokens"])
                assert tile == fresh
                assert list(tile) == list(fresh)  # the same keys in the same order
                checked += 1
            seat = boardroom_to_decide(state)[0]
            action = boardroom_bot(boardroom_view(state, seat), "medium", rng)
            state = boardroom_apply(state, seat, action).state
    assert checked > 1000


def test_commonwealth_project_spaces_kept_are_built_anew() -> None:
    checked = 0
    for seed in (3, 11):
        state = commonwealth_new_game(seats=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(STEPS):
            if state["result"] is not None:
                break
            view = commonwealth_view(state, None)
            spaces = commonwealth_board._spaces(view, NAMES)
            for space in spaces:
                if space["kind"] != "project":
                    continue
                index = space["index"]
                card = commonwealth_board.space_card(view, index, NAMES, None)
                assert space["card"] == card
                assert space["chips"] == card["chips"]
                assert space["manager"] == card["manager"]
                assert space["manager_name"] == card["manager_name"]
                assert len(space["open_slots"]) == card["open"]
                checked += 1
            deciders = commonwealth_to_decide(state)
            seat = rng.choice(deciders)
            action = commonwealth_bot(commonwealth_view(state, seat), "medium", rng)
            state = commonwealth_apply(state, seat, action).state
    assert checked > 1000
