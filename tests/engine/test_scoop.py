"""Scoop (REFERENCE §6): at any time; everything discarded; pending actions unwound."""

from __future__ import annotations

import pytest
from engine_helpers import refused

from games.chudopoly.engine import card, legal_actions, result, scenario, to_decide


def test_scoop_is_offered_to_every_active_seat_at_any_time() -> None:
    state = scenario(seats=3)
    for seat in range(3):
        assert {"type": "scoop"} in legal_actions(state, seat)


def test_scooping_discards_everything_and_eliminates_the_player(play) -> None:
    state = scenario(seats=3, hands={1: ["money:1"]}, banks={1: ["money:5"]},
                     boards={1: {"brown": ["Creech AFB", "Cannon AFB"]}},
                     upgrades={1: {"brown": ["upgrade"]}})
    before = len(state["discard"])
    state = play(state, 1, {"type": "scoop"})
    p = state["players"][1]
    assert not p["active"] and not (p["hand"] or p["bank"] or p["zones"] or p["upgrades"])
    assert len(state["discard"]) == before + 5
    assert state["turn"] == 0
    assert legal_actions(state, 1) == []
    refused(state, 1, {"type": "scoop"}, "You have scooped and are out of this game")


def test_scooping_on_your_own_turn_passes_play_to_the_next_active_seat(play) -> None:
    state = scenario(seats=4, scooped=[1])
    state = play(state, 0, {"type": "scoop"})
    assert state["turn"] == 2 and state["turn_number"] == 2
    assert "draw" in play.types()


def test_the_last_player_standing_wins(play) -> None:
    state = scenario(seats=3, scooped=[2])
    state = play(state, 1, {"type": "scoop"})
    res = result(state)
    assert (res["winner"], res["end_reason"], res["placements"]) == (0, "last_standing",
                                                                     [0, 1, 2])


def test_a_source_scooping_cancels_its_pending_action(play) -> None:
    state = scenario(seats=3, hands={0: ["roll_call"]}, banks={1: ["money:2"]})
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    state = play(state, 0, {"type": "scoop"})
    assert state["pending"] is None and state["turn"] == 1


def test_a_target_scooping_drops_only_its_own_chain(play) -> None:
    state = scenario(seats=3, hands={0: ["roll_call"]}, banks={1: ["money:2"], 2: ["money:2"]})
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    state = play(state, 1, {"type": "scoop"})
    assert [t["seat"] for t in state["pending"]["targets"]] == [2]
    assert to_decide(state) == [2]
    state = play(state, 2, {"type": "scoop"})
    assert result(state)["winner"] == 0


def test_scooping_while_armed_breaks_the_approach(play) -> None:
    state = scenario(seats=3, turn=1, armed={0: 1},
                     boards={0: {"brown": ["Creech AFB", "Cannon AFB"],
                                 "darkblue": ["The Pentagon", "Air Force One"],
                                 "intel": ["PAVE PAWS Radar", "GPS Constellation"]}})
    state = play(state, 0, {"type": "scoop"})
    assert "final_approach_broken" in play.types()
    assert state["turn"] == 1


def _positions() -> dict[str, dict]:
    """One state of each kind a game passes through, three seats, seat 0's turn."""
    from games.chudopoly.engine import apply

    def after(state: dict, *moves: tuple[int, dict]) -> dict:
        for seat, action in moves:
            state = apply(state, seat, action).state
        return state

    charge = scenario(seats=3, hands={0: ["roll_call"], 1: ["opsec"]},
                      banks={1: ["money:2"], 2: ["money:2"]})
    roll_call = {"type": "action", "card": card(charge, "roll_call")}
    accept = {"type": "respond", "answer": "accept", "target": 2}
    over = scenario(seats=3, hands={0: ["money:1"] * 4 + ["money:2"] * 4})
    return {
        "on turn": scenario(seats=3),
        "others owe answers": after(charge, (0, roll_call)),
        "one seat pays, one answers": after(charge, (0, roll_call), (2, accept)),
        "the source answers an OPSEC": after(
            charge, (0, roll_call), (1, {"type": "respond", "answer": "opsec", "target": 1})),
        "the turn holder discards": after(over, (0, {"type": "end_turn"})),
    }


@pytest.mark.parametrize("position", list(_positions()))
def test_every_active_seat_may_scoop_in_every_state_of_the_game(position: str) -> None:
    from games.chudopoly.engine import apply

    state = _positions()[position]
    for seat in range(3):
        assert {"type": "scoop"} in legal_actions(state, seat), (position, seat)
        after = apply(state, seat, {"type": "scoop"}).state
        assert not after["players"][seat]["active"]
        assert seat not in to_decide(after)
