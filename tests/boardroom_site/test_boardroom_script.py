"""The acceptance game's seed still shows every part of Boardroom when the scripted player
plays it against the site's bots (the browser test, tests/ui/test_boardroom_in_browser.py,
plays the same choices by clicking)."""

from __future__ import annotations

import pytest
from boardroom_script import EVERYTHING, play_offline, seats_of, start_acceptance_table

from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import get_game

pytestmark = pytest.mark.django_db


def test_the_acceptance_seed_has_a_buy_an_auction_won_a_branch_two_trades_a_debt_and_the_audit(
        ) -> None:
    ann = Viewer(user_id=None, guest_key="guest-script-0000000000000000")
    game = services.current_game(start_acceptance_table(ann))
    engine = get_game("boardroom")
    me, levels = seats_of(game)
    script, end, mine = play_offline(engine, game.state, me, levels)
    assert script.seen >= EVERYTHING, sorted(EVERYTHING - script.seen)
    assert script.trades == ["refused", "accepted"]
    assert engine.result(end) is not None  # played to the end (the turn limit)
    assert mine < 140  # a browser can click through it in a couple of minutes
