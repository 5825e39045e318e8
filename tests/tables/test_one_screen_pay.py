"""One screen to pay: answering a charge with "Pay with these cards" accepts and pays at once,
OPSEC stays beside it, and a blocked action's prompt says who played OPSEC."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.template.loader import render_to_string
from tables_helpers import ENGINE, seat_of, started_game

from games.chudopoly.board import board_context, describe_pending
from games.chudopoly.engine.scenario import card, scenario
from games.platform import services
from games.platform.frames import parse_frame
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction
from games.platform.services import ActionRefused

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea"]


def _charged(me: int, *, opsec: bool = True) -> dict[str, Any]:
    """Bea (the other seat) has just played Finance Office against `me`."""
    bot = 1 - me
    state = scenario(
        seats=2, turn=bot, turn_number=4, plays_left=3,
        hands={bot: ["finance_office", "money:1"],
               me: ["money:1", *(["opsec"] if opsec else []), "property:pink"]},
        boards={me: {"red": ["F-22 Raptor", "F-15 Eagle"]}, bot: {"green": ["Thunderbirds"]}},
        banks={me: ["money:2", "money:3"], bot: ["money:3"]},
    )
    action = {"type": "action", "card": card(state, "finance_office", bot), "target": me}
    return ENGINE.apply(state, bot, action).state


def _game_charging(viewer: Viewer, other: Viewer) -> tuple[Game, int]:
    game = started_game(viewer, (other, "Bea"))
    me = seat_of(game, viewer)
    game.state = _charged(me)
    game.save()
    return game, me


def _context(state: dict[str, Any], me: int) -> dict[str, Any]:
    return board_context(ENGINE.view(state, me), me=me, names=NAMES, seats=[{}, {}])


def test_a_charge_i_can_pay_shows_the_payment_form_with_opsec_beside_it() -> None:
    c = _context(_charged(0), 0)
    assert c["pays"] and c["accept_pay"] == '{"type":"accept_pay","target":0}'
    assert c["owed_amount"] == 5
    assert {x["value"] for x in c["payable"]} >= {2, 3}
    # Accepting is the payment itself: the only answer left as a button is OPSEC.
    assert [o["label"] for o in c["responds"]] == ["Play OPSEC to block it"]


def test_the_rendered_decision_pays_with_these_cards_and_offers_opsec_separately() -> None:
    c = _context(_charged(0), 0)
    html = render_to_string("chudopoly/_decision.html", {"game": True, "c": c})
    assert "Pay with these cards" in html
    assert "&quot;accept_pay&quot;" in html or '"accept_pay"' in html
    assert 'class="opsec-form"' in html and "Play OPSEC to block it" in html
    assert "respond-form" not in html  # no separate "Accept" step any more


def test_one_tap_payments_on_the_answer_screen_are_the_engines_own_payments() -> None:
    state = _charged(0)
    c = _context(state, 0)
    accepted = ENGINE.apply(state, 0, {"type": "respond", "answer": "accept", "target": 0})
    legal = [a["cards"] for a in ENGINE.legal_actions(accepted.state, 0) if a["type"] == "pay"]
    offered = [json.loads(o["json"]) for o in c["pay_suggestions"]]
    assert offered and all(o["type"] == "accept_pay" and o["target"] == 0 for o in offered)
    assert all(o["cards"] in legal for o in offered)
    assert c["pay_suggestions"][0]["label"].startswith("Pay 5M")
    # A watcher's view names no payment of Ann's.
    assert "accept_pay" not in ENGINE.view(state, None) and "accept_pay" not in ENGINE.view(
        state, 1)


def test_a_payer_with_nothing_on_the_table_still_just_accepts() -> None:
    state = scenario(seats=2, turn=1, plays_left=3, hands={1: ["finance_office"], 0: ["money:1"]})
    state = ENGINE.apply(state, 1, {"type": "action", "card": card(state, "finance_office", 1),
                                    "target": 0}).state
    c = _context(state, 0)
    assert c["accept_pay"] is None and not c["pays"]
    assert [o["label"] for o in c["responds"]] == ["Accept (you have nothing to pay with)"]


def test_a_combined_frame_keeps_its_ticked_cards() -> None:
    frame = parse_frame('{"kind":"act","action":"{\\"type\\":\\"accept_pay\\",\\"target\\":0}",'
                        '"cards":["4","7"],"expected_version":3}')
    assert frame.action == {"type": "accept_pay", "target": 0, "cards": [4, 7]}
    empty = parse_frame('{"kind":"act","action":{"type":"accept_pay"},"expected_version":3}')
    assert empty.action["cards"] == []


def test_accept_and_pay_is_applied_as_two_logged_engine_actions(alice: Viewer,
                                                                bob: Viewer) -> None:
    game, me = _game_charging(alice, bob)
    bank = [c["id"] for c in ENGINE.view(game.state, me)["players"][me]["bank"]]
    version = game.version
    move = services.table_move(game_id=game.pk, seat=me, viewer=alice,
                               action={"type": "accept_pay", "target": me, "cards": bank},
                               expected_version=version)
    assert move.game.version == version + 2
    rows = list(GameAction.objects.filter(game=game).order_by("version"))
    assert [r.action["type"] for r in rows] == ["respond", "pay"]
    assert rows[0].action == {"type": "respond", "answer": "accept", "target": me}
    assert rows[1].action == {"type": "pay", "cards": bank}
    assert move.game.state["pending"] is None  # the charge is settled
    assert [v for v, _ in move.logged] == [version, version + 1]


def test_a_refused_payment_undoes_the_accept_too(alice: Viewer, bob: Viewer) -> None:
    game, me = _game_charging(alice, bob)
    before = (game.version, game.state)
    too_little = [ENGINE.view(game.state, me)["players"][me]["bank"][0]["id"]]  # 2M of 5M
    with pytest.raises(ActionRefused) as refused:
        services.table_move(game_id=game.pk, seat=me, viewer=alice,
                            action={"type": "accept_pay", "target": me, "cards": too_little},
                            expected_version=game.version)
    assert refused.value.code == "illegal"
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert not GameAction.objects.filter(game=game).exists()


def test_a_blocked_charge_says_who_played_opsec() -> None:
    state = _charged(0)
    state = ENGINE.apply(state, 0, {"type": "respond", "answer": "opsec", "target": 0}).state
    pending = ENGINE.view(state, 1)["pending"]
    assert describe_pending(pending, names=NAMES, me=1, view={}) == (
        "You called in 5M with Finance Office against Ann. Ann blocked it with OPSEC."
        " Counter it with your own OPSEC, or let the block stand.")
    assert "Ann blocked it with OPSEC." in describe_pending(pending, names=NAMES, me=None,
                                                             view={})
    assert "You blocked it with OPSEC." in describe_pending(pending, names=NAMES, me=0, view={})
