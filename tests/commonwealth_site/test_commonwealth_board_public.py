"""What Commonwealth's board builds once a snapshot for every viewer (board.board_public: the
space cards, the dice, the open auction) is what each seat's own board would show, so nothing
of a viewer's is in it; and the space cards, a partial of their own (_cards.html), stay the
same entries while a move changes no project, so that partial keeps its render."""

from __future__ import annotations

import random
from typing import Any

from games.commonwealth import engine
from games.commonwealth.board import board_context, board_public
from games.commonwealth.engine import apply
from games.commonwealth.engine.random_player import choose

NAMES = ["Ann", "Ben", "Cy", "Di"]
SEATS = [{"is_bot": False, "deadline": "2026-12-07T06:00:00+00:00"}, {"is_bot": False},
         {"is_bot": True}, {"is_bot": False}]


def _played(seed: int, moves: int) -> list[dict[str, Any]]:
    """The states of a game of random moves, one a move."""
    rng = random.Random(seed)
    st = engine.new_game(seats=4, seed=seed)
    states = [st]
    for _ in range(moves):
        if st["result"] is not None:
            break
        seat = rng.choice(engine.to_decide(st))
        st = apply(st, seat, choose(st, seat, rng)).state
        states.append(st)
    return states


def _public(st: dict[str, Any]) -> dict[str, Any]:
    return board_public(engine.view(st, None), names=NAMES, seats=SEATS)


def test_what_the_board_builds_once_for_every_viewer_is_what_each_seat_would_build() -> None:
    auctions = 0
    for seed in (5, 6):
        for st in _played(seed, 150):
            public = _public(st)
            auctions += public["auction"] is not None
            for me in (0, 1, 2, 3, None):
                own = board_context(engine.view(st, me), me=me, names=NAMES, seats=SEATS)
                assert (own["cards"], own["dice"], own["auction"]) == \
                    (public["cards"], public["dice"], public["auction"]), (me, st["step"])
    assert auctions > 0


def test_the_space_cards_stay_the_same_entries_while_no_project_changes() -> None:
    kept = changed = 0
    for before, after in zip(*(lambda s: (s, s[1:]))(_played(7, 200)), strict=False):
        old, new = _public(before)["cards"], _public(after)["cards"]
        same_projects = before["projects"] == after["projects"]
        if same_projects:
            assert all(a is b for a, b in zip(old, new, strict=True))
            kept += 1
        else:
            changed += 1
    assert kept > 50 and changed > 5
