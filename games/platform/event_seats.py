"""The seats a log event names: what a game's optional `event_seats` hook answers
(games/platform/interface.py), so the log describes an event once for every seat it does not
concern, rather than once per seat (presenters._shared_action)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def seats_named(event: Mapping[str, Any], keys: Iterable[str]) -> set[int]:
    """Every integer held by `event` under `keys`, itself or in a list (of lists: pairs such as
    (seat, amount)). It may hold more than seats (a tile's number under "to"): a number that
    names no seat, or a seat the event does not concern after all, costs one more
    description, never a wrong one."""
    found: set[int] = set()
    for key in keys:
        value = event.get(key)
        if value is None:  # most keys, in most events
            continue
        if type(value) is int:
            found.add(value)
        else:
            _collect(value, found)
    return found


def _collect(value: Any, found: set[int]) -> None:
    if type(value) is int:
        found.add(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, found)
