"""The registry of a web process's table sockets: who else shows a table's update here, and
which socket takes an update on for the rest."""

from __future__ import annotations

from games.platform.table_sockets import CLAIMS_KEPT, TableSockets


def test_a_socket_finds_the_other_sockets_of_its_own_table_only() -> None:
    sockets = TableSockets()
    for name, table in (("a", 1), ("b", 1), ("c", 1), ("elsewhere", 2)):
        sockets.add(table, name)
    assert sockets.others(1, "b") == ["a", "c"]
    sockets.remove(1, "a")
    assert sockets.others(1, "b") == ["c"]
    assert sockets.others(2, "elsewhere") == []


def test_adding_a_socket_twice_keeps_it_once() -> None:
    sockets = TableSockets()
    sockets.add(1, "a")
    sockets.add(1, "a")
    assert sockets.others(1, "someone") == ["a"]


def test_the_first_socket_to_claim_an_update_shows_it_and_the_others_leave_it() -> None:
    sockets = TableSockets()
    sockets.add(1, "a")
    sockets.add(1, "b")
    assert sockets.claim(1, "token-1")
    assert not sockets.claim(1, "token-1")
    assert sockets.claim(1, "token-2")  # a new update is anyone's again
    assert sockets.claim(2, "token-1")  # tokens are per table


def test_a_table_with_no_registered_socket_leaves_every_update_to_each_socket() -> None:
    sockets = TableSockets()
    assert sockets.claim(1, "token-1")
    assert sockets.claim(1, "token-1")


def test_a_tables_claims_are_forgotten_with_its_last_socket_and_beyond_a_few() -> None:
    sockets = TableSockets()
    sockets.add(1, "a")
    assert sockets.claim(1, "old")
    for n in range(CLAIMS_KEPT):
        sockets.claim(1, f"newer-{n}")
    assert sockets.claim(1, "old")  # long past: a late copy is handled, never lost
    sockets.remove(1, "a")
    sockets.add(1, "b")
    assert sockets.claim(1, "newer-0")

