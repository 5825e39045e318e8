"""A state reloaded from PostgreSQL's JSONB (keys in another order) plays on identically."""

from __future__ import annotations

import json

from games.chudopoly.engine import apply
from games.chudopoly.engine.scenario import card, scenario


def _reversed_zone_keys(state: dict) -> dict:
    """What JSONB can hand back: the same state with each player's zone keys reordered."""
    clone = json.loads(json.dumps(state))
    for p in clone["players"]:
        p["zones"] = dict(reversed(list(p["zones"].items())))
        p["upgrades"] = dict(reversed(list(p["upgrades"].items())))
    return clone


def _canonical(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def test_a_scoop_discards_in_the_same_order_whatever_order_the_zone_keys_come_in() -> None:
    st = scenario(
        seats=3,
        boards={0: {"green": ["Thunderbirds"], "brown": ["Creech AFB"], "red": ["F-22 Raptor"]}},
        banks={0: ["money:5"]},
        turn=0,
    )
    as_stored = _reversed_zone_keys(st)
    assert list(as_stored["players"][0]["zones"]) != list(st["players"][0]["zones"])
    fresh = apply(st, 0, {"type": "scoop"})
    reloaded = apply(as_stored, 0, {"type": "scoop"})
    assert _canonical(fresh.state) == _canonical(reloaded.state)
    assert fresh.state["discard"] == reloaded.state["discard"]


def test_apply_never_reorders_the_state_it_was_given() -> None:
    st = scenario(seats=2, boards={0: {"red": ["F-22 Raptor"], "brown": ["Creech AFB"]}},
                  hands={0: ["money:1"]}, turn=0)
    as_stored = _reversed_zone_keys(st)
    before = list(as_stored["players"][0]["zones"])
    apply(as_stored, 0, {"type": "bank", "card": card(as_stored, "money:1")})
    assert list(as_stored["players"][0]["zones"]) == before


def test_legal_actions_and_timeouts_do_not_depend_on_stored_key_order() -> None:
    from games.chudopoly.engine import legal_actions, timeout_actions

    st = scenario(seats=2, hands={0: ["tdy_orders", "finance_office"]},
                  boards={0: {"red": ["F-22 Raptor"], "brown": ["Creech AFB"]},
                          1: {"green": ["Red Flag"], "pink": ["Peterson SFB"]}},
                  banks={1: ["money:1", "money:2"]}, turn=0)
    assert legal_actions(_reversed_zone_keys(st), 0) == legal_actions(st, 0)
    st = apply(st, 0, {"type": "action", "card": card(st, "finance_office"), "target": 1}).state
    assert timeout_actions(_reversed_zone_keys(st), 1) == timeout_actions(st, 1)
