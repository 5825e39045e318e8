"""Content keys (games/platform/rendering.content_key): two values share a key only if a
template prints them alike; the memos of partials, panels and sets are keyed by them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from django.utils.safestring import SafeString

from games.platform.rendering import content_key


def test_equal_plain_data_shares_one_key() -> None:
    value = {"seat": 1, "zones": [{"colour": "red", "cards": [3, 4]}], "armed": None}
    assert content_key(value) == content_key({**value})


def test_values_that_compare_equal_but_print_apart_key_apart() -> None:
    assert len({content_key(v) for v in (1, True, "1", 1.0)}) == 4
    assert content_key({"a": 1, "b": 2}) != content_key({"b": 2, "a": 1})


def test_what_orjson_would_write_alike_is_keyed_by_its_repr() -> None:
    when = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)
    assert content_key([when]) != content_key([when.isoformat()])
    # Text is escaped when printed, safe HTML is not.
    assert content_key(["<b>"]) != content_key([SafeString("<b>")])
    assert content_key({1: "a"}) != content_key({"1": "a"})

    @dataclasses.dataclass
    class Card:
        id: int

    assert content_key([Card(3)]) != content_key([{"id": 3}])


def test_a_list_subclass_that_prints_as_a_list_keys_as_the_list() -> None:
    class Shown(list):
        pass

    class Labelled(list):
        def __repr__(self) -> str:
            return "Labelled" + super().__repr__()

    assert content_key([Shown([1, 2])]) == content_key([[1, 2]])
    assert content_key([Labelled([1, 2])]) != content_key([[1, 2]])
