"""Template engines made anew (a setting such as DEBUG changed, as tests do) are the ones
rendering and sharing use from then on: CI saw a test that turned DEBUG on leave the Jinja2
engine of that moment, reloading its templates, in use for the rest of the run, and nothing
shared."""

from __future__ import annotations

import pytest

from games.platform import presenters

pytestmark = pytest.mark.django_db

PLAYERS = "chudopoly/_players.html"


def test_a_partial_is_not_shared_while_debug_reloads_templates_and_is_again_after(settings
                                                                                   ) -> None:
    settings.DEBUG = True
    assert presenters.shared_partial(PLAYERS) is None
    settings.DEBUG = False
    assert presenters.shared_partial(PLAYERS) is not None
