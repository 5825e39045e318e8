"""The simulator's lazy after-roll list (`legal_actions(..., lazy=True)`) is the generator's
list: the same actions in the same order however it is read, and never stale; and the shared
view the simulator's bots read is the copied view."""

from __future__ import annotations

import json
import random

import pytest

from games.boardroom.bots import choose_action
from games.boardroom.engine import legal_actions, new_game, step, to_decide, view
from games.boardroom.engine.legal import LazyLegal


def _positions(seats: int, seed: int, n: int = 4000):
    """(state, seat) at each decision of a seeded medium game, played in place."""
    st = new_game(seats=seats, seed=seed, bots=[True] * seats)
    rng = random.Random(seed)
    for _ in range(n):
        if st["phase"] == "finished":
            return
        seat = to_decide(st)[0]
        yield st, seat
        legal = legal_actions(st, seat)
        step(st, seat, choose_action(view(st, seat, copy=False, legal=legal), "medium", rng))


@pytest.mark.parametrize("seats,seed", [(2, 1), (4, 2), (6, 3)])
def test_a_lazy_list_reads_as_the_full_list_of_the_generator(seats: int, seed: int) -> None:
    lazy_seen = 0
    for st, seat in _positions(seats, seed):
        full = legal_actions(st, seat)
        lazy = legal_actions(st, seat, lazy=True)
        if type(lazy) is LazyLegal:
            lazy_seen += 1
            assert lazy[-1] == full[-1] == {"type": "end_turn"}
            assert lazy.pending
        assert len(lazy) == len(full)
        assert lazy == full and list(lazy) == full and [*lazy] == full
        assert json.loads(json.dumps(lazy)) == full
    assert lazy_seen > 0


def test_each_way_of_reading_a_lazy_list_generates_the_families() -> None:
    for st, seat in _positions(4, 5):
        full = legal_actions(st, seat)
        if type(legal_actions(st, seat, lazy=True)) is not LazyLegal or len(full) < 3:
            continue
        probe, last = full[1], full[-1]
        reads = (len, list, json.dumps, str, lambda x: x[1], lambda x: x[1:],
                 lambda x, p=probe: p in x, lambda x: list(reversed(x)),
                 lambda x, e=last: x.index(e), lambda x, p=probe: x.count(p),
                 lambda x: x.copy(), lambda x: sorted(x, key=str))
        for read in reads:
            lazy = legal_actions(st, seat, lazy=True)
            assert read(lazy) == read(full)
            assert not lazy.pending
        return
    pytest.fail("no after-roll position with families was reached")


def test_a_lazy_list_refuses_to_generate_families_for_a_state_that_moved_on() -> None:
    for st, seat in _positions(4, 7):
        lazy = legal_actions(st, seat, lazy=True)
        if type(lazy) is LazyLegal:
            step(st, seat, lazy[-1])
            with pytest.raises(RuntimeError):
                len(lazy)
            return
    pytest.fail("no after-roll position with families was reached")


def test_the_shared_view_a_bot_reads_equals_the_copied_view_for_every_seat() -> None:
    for st, seat in _positions(4, 11, n=1500):
        legal = legal_actions(st, seat)
        for who in (*range(4), None):
            mine = legal if who == seat else None
            copied = view(st, who, legal=mine)
            shared = view(st, who, copy=False, legal=mine)
            assert list(shared) == list(copied) and shared == copied
