"""Commonwealth's table tests share the table tests' fixtures: the cast (guests alice, bob,
carol) and background work that waits for the test (tests/tables/conftest.py)."""

from __future__ import annotations

from tests.tables.conftest import (  # noqa: F401 - fixtures, found by name
    _background_work_waits_for_the_test,
    alice,
    bob,
    carol,
)
