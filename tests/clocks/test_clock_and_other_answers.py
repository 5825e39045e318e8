"""The clock answering one seat's chain does not make another seat's answer stale."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clocks_helpers import ENGINE, act, clock_actions, seat_of, set_position, started_game

from games.chudopoly.engine import card
from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.models import Game
from games.platform.services import decision_token

pytestmark = pytest.mark.django_db


def test_an_answer_a_version_behind_is_applied_after_the_clock_answered_another_chain(
        alice: Viewer, bob: Viewer, carol: Viewer, clock) -> None:
    game = started_game(alice, (bob, "Bob"), (carol, "Carol"))
    a, b, c = (seat_of(game, v) for v in (alice, bob, carol))
    game = set_position(game, turn=a, hands={a: ["rent:red/yellow"]},
                        boards={a: {"red": ["F-22 Raptor"]}},
                        banks={b: ["money:5"], c: ["money:5"]})
    game = act(game, a, {"type": "action", "card": card(game.state, "rent:red/yellow"),
                         "colour": "red"})
    page_version, page_decision = game.version, decision_token(ENGINE, game.state, b)
    # Carol's clock runs out first (her deadline is ten seconds earlier than Bob's).
    early = clocks._when(game.deadlines[str(c)]["deadline"]) - timedelta(seconds=10)
    deadlines = {**game.deadlines, str(c): {**game.deadlines[str(c)],
                                            "deadline": early.isoformat()}}
    Game.objects.filter(pk=game.pk).update(deadlines=deadlines, clock_due=early)
    clock.advance(40)
    assert clocks.game_clock_expire(game_id=game.pk) == 1
    game.refresh_from_db()
    assert {x.seat for x in clock_actions(game)} == {c}
    assert game.version == page_version + 2  # accepted and paid for Carol

    after = services.table_apply_action(
        game_id=game.pk, seat=b, action={"type": "respond", "answer": "accept", "target": b},
        expected_version=page_version, expected_decision=page_decision)
    assert after.version == page_version + 3 and b in ENGINE.to_decide(after.state)
