"""The board games' owned tiles and project spaces, and Chudopoly's players' public entries, are
kept from snapshot to snapshot by all they read (games/boardroom/board.py `_owned_tile`,
games/commonwealth/board.py `_project_space`, games/chudopoly/board.py `_PUBLIC_ENTRIES`): over
played games, every kept entry is what building it anew gives."""

from __future__ import annotations

import random

from games.boardroom import board as boardroom_board
from games.boardroom.bots import choose_action as boardroom_bot
from games.boardroom.engine.apply import apply as boardroom_apply
from games.boardroom.engine.legal import to_decide as boardroom_to_decide
from games.boardroom.engine.state import new_game as boardroom_new_game
from games.boardroom.engine.view import view as boardroom_view
from games.chudopoly import board as chudopoly_board
from games.chudopoly.bots import choose_action as chudopoly_bot
from games.chudopoly.engine import apply as chudopoly_apply
from games.chudopoly.engine import new_game as chudopoly_new_game
from games.chudopoly.engine import to_decide as chudopoly_to_decide
from games.chudopoly.engine import view as chudopoly_view
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


def _chudopoly_seats(state: dict, deadline: str) -> list[dict]:
    """The public facts the platform passes beside a view: the deciding seats' clocks."""
    deciding = chudopoly_to_decide(state)
    return [{"is_bot": seat == 3, "is_away": False, "rating": None,
             "deadline": deadline if seat in deciding else None, "paused": None}
            for seat in range(4)]


def test_chudopoly_public_entries_kept_are_built_anew_and_most_are_the_last_moves() -> None:
    checked = kept = 0
    for seed in (3, 11):
        state = chudopoly_new_game(ruleset={}, seats=4, seed=seed)
        before: list[dict] = []
        for step in range(STEPS):
            if state["result"] is not None:
                break
            # The clock of the seats that decide renews every few moves, as a table's does.
            seats = _chudopoly_seats(state, f"2026-12-07T03:{step // 5 % 60:02d}:00Z")
            public = chudopoly_board.board_public(chudopoly_view(state, None, shared=True),
                                                  names=NAMES, seats=seats)
            fresh = chudopoly_board.board_public(chudopoly_view(state, None), names=NAMES,
                                                 seats=seats)
            assert public == fresh
            assert [list(p) for p in public["players"]] == [list(p) for p in fresh["players"]]
            kept += sum(1 for p in public["players"] if any(p is b for b in before))
            checked += len(public["players"])
            before = public["players"]
            seat = chudopoly_to_decide(state)[0]
            action = chudopoly_bot(chudopoly_view(state, seat), level="easy")
            state = chudopoly_apply(state, seat, action).state
    assert checked > 1000
    assert kept > checked // 2  # a move changes one or two players' boards, not all four
