"""bench/live_latency.py names the seconds in which moves were slow, by web process."""

from __future__ import annotations

from live_latency import _slow_seconds, every_seat_latencies
from liveplay import Stats


def _seat_stats(sent_and_took: list[tuple[float, float]]) -> Stats:
    stats = Stats()
    for sent, took in sent_and_took:
        stats.sent_at.append(sent)
        stats.latencies.append(took)
    return stats


def test_slow_moves_are_counted_by_second_and_by_the_process_their_table_is_on() -> None:
    # Two tables of four seats, routed by table: seats 0-3 on web 0, seats 4-7 on web 1.
    stats = [_seat_stats([(100.0, 0.01)]) for _ in range(8)]
    stats[1] = _seat_stats([(100.0, 0.01), (105.2, 0.30)])  # web 0, second 5: slow
    stats[6] = _seat_stats([(105.7, 0.25), (107.0, 0.02)])  # web 1, second 5: slow
    stats[7] = _seat_stats([(103.1, 0.50)])  # web 1, second 3: slow
    worst = _slow_seconds(stats, route="table", webs=2)
    assert worst == [{"second": 5, "slow_moves_by_web": [1, 1]},
                     {"second": 3, "slow_moves_by_web": [0, 1]}]


def _seat(moves: list[tuple[float, int]], seen: dict[int, float]) -> Stats:
    stats = Stats()
    for sent, version in moves:
        stats.sent_at.append(sent)
        stats.made.append(version)
        stats.latencies.append(0.001)
    stats.seen = seen
    return stats


def test_a_move_counts_until_the_last_seat_of_its_table_shows_it() -> None:
    # Seat 0 made version 5 at t=10.0; its own screen had it at 10.01, the others later.
    table = [
        _seat([(10.0, 5)], {5: 10.01}),
        _seat([], {5: 10.05}),
        _seat([], {6: 10.30}),  # skipped 5: its first frame at or past 5 counts
        _seat([], {5: 10.02}),
    ]
    latencies, unseen = every_seat_latencies(table)
    assert unseen == 0
    assert [round(x, 3) for x in latencies] == [0.3]


def test_a_move_some_seat_never_showed_is_counted_apart_unless_its_game_ended() -> None:
    table = [_seat([(10.0, 5)], {5: 10.01}), _seat([], {}), _seat([], {5: 10.1}),
             _seat([], {5: 10.1})]
    assert every_seat_latencies(table) == ([], 1)
    latencies, unseen = every_seat_latencies(table, finished=[False, True, False, False])
    assert unseen == 0 and [round(x, 2) for x in latencies] == [0.1]
