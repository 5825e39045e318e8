"""The short names a phone's board prints on its spaces (games/commonwealth/engine/data.py
SHORT_NAMES): one per space, short enough for a 29 px space, telling the projects apart."""

from __future__ import annotations

import re

from games.commonwealth import engine
from games.commonwealth.board import board_context
from games.commonwealth.engine import scenario
from games.commonwealth.engine.data import SHORT_NAMES, SPACES


def test_every_space_has_a_short_name_of_words_a_phone_space_can_hold() -> None:
    assert len(SHORT_NAMES) == len(SPACES)
    for space, short in zip(SPACES, SHORT_NAMES, strict=True):
        pieces = re.split(r"[\s\u00ad]+", short)
        assert all(0 < len(p) <= 6 for p in pieces), (space["name"], short)


def test_the_projects_have_short_names_of_their_own() -> None:
    projects = [SHORT_NAMES[s["index"]] for s in SPACES if s["kind"] == "project"]
    assert len(set(projects)) == len(projects) == 16


def test_the_board_carries_each_spaces_short_name_beside_its_full_one() -> None:
    ctx = board_context(engine.view(scenario(seats=2), 0), me=0, names=["Ann", "Ben"],
                        seats=[{"is_bot": False}, {"is_bot": True}])
    space = ctx["spaces"][38]
    assert (space["name"], space["short"]) == ("Harbour Lighthouse", "Light\u00adhouse")
