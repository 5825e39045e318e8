"""Winning (REFERENCE §6, RULINGS): arming, the checkpoint, the three win rules, contested
approaches and the points endings."""

from __future__ import annotations

from engine_helpers import refused

from games.chudopoly.engine import card, legal_actions, result, scenario, timeout_actions, view

THREE_SETS_BUT_ONE_CARD = {
    "brown": ["Creech AFB", "Cannon AFB"],
    "darkblue": ["The Pentagon", "Air Force One"],
    "red": ["F-22 Raptor", "F-35 Lightning II"],
}
TWO_SETS = {"brown": ["Creech AFB", "Cannon AFB"], "darkblue": ["The Pentagon", "Air Force One"]}


def end_turn(play, state):
    """End the current turn, discarding automatically if needed."""
    seat = state["turn"]
    for action in timeout_actions(state, seat):
        state = play(state, seat, action, listed=False)
    return state


def test_the_last_set_arms_final_approach_instead_of_winning(play) -> None:
    state = scenario(seats=3, hands={0: ["F-15 Eagle"]}, boards={0: THREE_SETS_BUT_ONE_CARD})
    state = play(state, 0, {"type": "place", "card": card(state, "F-15 Eagle"), "colour": "red"})
    armed = play.find("final_approach")
    assert armed["on_own_turn"] is True and armed["opponent_turns_remaining"] == 2
    assert state["phase"] == "play" and state["players"][0]["armed_at"] == 1
    me = view(state, 1)["players"][0]
    assert (me["armed"], me["checkpoint_turn"], me["opponent_turns_remaining"]) == (True, 4, 2)


def test_an_own_turn_arming_wins_at_the_next_own_turn_start_before_the_draw(play) -> None:
    state = scenario(seats=3, hands={0: ["F-15 Eagle"]}, boards={0: THREE_SETS_BUT_ONE_CARD})
    state = play(state, 0, {"type": "place", "card": card(state, "F-15 Eagle"), "colour": "red"})
    for _ in range(2):
        state = end_turn(play, state)
        assert state["phase"] != "finished"
    state = end_turn(play, state)
    assert play.types()[-2:] == ["turn_start", "game_over"]
    assert result(state)["winner"] == 0 and result(state)["end_reason"] == "sets"
    assert state["turn_number"] == 4


def off_turn_arming(ruleset=None):
    """4 seats; on turn 10 (seat 1's) seat 1's TDY Orders hands seat 0 its third set."""
    return scenario(
        seats=4, ruleset=ruleset, turn=1, turn_number=10,
        hands={1: ["tdy_orders"]},
        boards={0: {**THREE_SETS_BUT_ONE_CARD, "lightblue": ["Keesler AFB"]},
                1: {"red": ["F-15 Eagle"]}})


def arm_off_turn(play, state):
    state = play(state, 1, {"type": "action", "card": card(state, "tdy_orders"), "target": 0,
                            "take": card(state, "Keesler AFB"),
                            "give": card(state, "F-15 Eagle")})
    state = play(state, 0, {"type": "respond", "answer": "accept", "target": 0})
    assert play.find("final_approach")["on_own_turn"] is False
    assert state["players"][0]["armed_at"] == 10
    return state


def test_off_turn_arming_under_final_approach_waits_a_full_cycle(play) -> None:
    state = arm_off_turn(play, off_turn_arming())
    assert view(state, 0)["players"][0]["checkpoint_turn"] == 17
    assert view(state, 0)["players"][0]["opponent_turns_remaining"] == 5
    for _ in range(3):
        state = end_turn(play, state)
    assert state["turn_number"] == 13 and state["turn"] == 0
    assert "final_approach_pending" in play.types() and "draw" in play.types()
    assert play.find("final_approach_pending")["checkpoint_turn"] == 17
    for _ in range(4):
        state = end_turn(play, state)
    assert state["turn_number"] == 17
    assert result(state)["winner"] == 0


def test_off_turn_arming_under_md_faithful_wins_at_the_next_own_turn(play) -> None:
    state = arm_off_turn(play, off_turn_arming({"winRule": "mdFaithful"}))
    assert view(state, 0)["players"][0]["checkpoint_turn"] == 13
    for _ in range(3):
        state = end_turn(play, state)
    assert state["turn_number"] == 13 and result(state)["winner"] == 0


def test_md_faithful_own_turn_completion_wins_on_the_spot(play) -> None:
    state = scenario(ruleset={"preset": "mdFaithful"}, hands={0: ["F-15 Eagle"]},
                     boards={0: THREE_SETS_BUT_ONE_CARD})
    state = play(state, 0, {"type": "place", "card": card(state, "F-15 Eagle"), "colour": "red"})
    assert result(state)["winner"] == 0 and state["turn_number"] == 1
    refused(state, 0, {"type": "end_turn"}, "Game is already finished")
    assert legal_actions(state, 0) == [] and legal_actions(state, 1) == []


def test_instant_wins_the_moment_the_set_lands_even_off_turn(play) -> None:
    state = arm_off_turn_instant = off_turn_arming({"preset": "blitz"})
    state = play(arm_off_turn_instant, 1, {
        "type": "action", "card": card(state, "tdy_orders"), "target": 0,
        "take": card(state, "Keesler AFB"), "give": card(state, "F-15 Eagle")})
    state = play(state, 0, {"type": "respond", "answer": "accept", "target": 0})
    assert result(state)["winner"] == 0 and state["turn"] == 1
    assert "final_approach" not in play.types()


def test_instant_wins_through_a_payment_received(play) -> None:
    state = scenario(ruleset={"preset": "blitz"}, hands={0: ["finance_office"]},
                     boards={0: THREE_SETS_BUT_ONE_CARD, 1: {"red": ["F-15 Eagle"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "finance_office"),
                            "target": 1})
    state = play(state, 1, {"type": "respond", "answer": "accept", "target": 1})
    state = play(state, 1, {"type": "pay", "cards": [card(state, "F-15 Eagle")]})
    assert result(state)["winner"] == 0


def test_two_sets_of_the_same_colour_cannot_exist_so_three_sets_are_three_colours() -> None:
    state = scenario(boards={0: TWO_SETS}, hands={0: ["wild_any", "wild_any"]})
    rainbow = card(state, "wild_any", 0)
    offered = {a["colour"] for a in legal_actions(state, 0) if a.get("card") == rainbow}
    assert "brown" not in offered and "darkblue" not in offered


def test_breaking_an_armed_set_disarms_and_names_the_breaker(play) -> None:
    state = scenario(seats=3, hands={1: ["chud"]}, turn=1, turn_number=2,
                     boards={0: {**TWO_SETS, "red": ["F-22 Raptor", "F-35 Lightning II",
                                                     "F-15 Eagle"]}}, armed={0: 1})
    state = play(state, 1, {"type": "action", "card": card(state, "chud"), "target": 0,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 0, {"type": "respond", "answer": "accept", "target": 0})
    broken = play.find("final_approach_broken")
    assert broken == {"type": "final_approach_broken", "seat": 0, "by": 1}
    assert state["players"][0]["armed_at"] is None
    assert view(state, None)["players"][0]["checkpoint_turn"] is None


def test_rearming_restarts_the_clock(play) -> None:
    state = scenario(seats=3, hands={0: ["wild_any"]}, turn_number=7,
                     boards={0: {**TWO_SETS, "red": ["F-22 Raptor", "F-35 Lightning II"],
                                 "green": ["wild:green/darkblue"]}})
    state = play(state, 0, {"type": "place", "card": card(state, "wild_any"), "colour": "red"})
    assert state["players"][0]["armed_at"] == 7
    state = play(state, 0, {"type": "move", "card": card(state, "wild_any"), "colour": "green"})
    assert state["players"][0]["armed_at"] is None
    state = {**state, "turn_number": 8}
    state = play(state, 0, {"type": "move", "card": card(state, "wild_any"), "colour": "red"})
    assert state["players"][0]["armed_at"] == 8


def test_long_game_needs_five_sets(play) -> None:
    state = scenario(ruleset={"preset": "longGame"}, hands={0: ["F-15 Eagle"]},
                     boards={0: THREE_SETS_BUT_ONE_CARD})
    state = play(state, 0, {"type": "place", "card": card(state, "F-15 Eagle"), "colour": "red"})
    assert "final_approach" not in play.types()
    assert "set_completed" in play.types()


# ---- contested approach ----------------------------------------------------------------------

def two_armed(mode, turn_number=3, **kw):
    """3 seats; seats 1 and 2 armed on turn 1, seat 0 about to end `turn_number`."""
    return scenario(
        seats=3, ruleset={"suddenDeath": mode} if mode else None, turn=0,
        turn_number=turn_number,
        boards={1: {"brown": ["Creech AFB", "Cannon AFB"], "darkblue": ["The Pentagon",
                                                                     "Air Force One"],
                    "intel": ["PAVE PAWS Radar", "GPS Constellation"]},
                2: {"red": ["F-22 Raptor", "F-35 Lightning II", "F-15 Eagle"],
                    "yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"],
                    "green": ["Red Flag", "Thunderbirds", "Weapons School"],
                    **kw.pop("extra_board", {})}},
        armed={1: 1, 2: 1}, contested_since=None if mode is None else 3, **kw)


def test_without_sudden_death_the_first_checkpoint_in_turn_order_wins(play) -> None:
    state = end_turn(play, two_armed(None))
    assert result(state)["winner"] == 1


def test_one_lap_holds_conversions_for_one_lap_of_contest(play) -> None:
    state = end_turn(play, two_armed("oneLap"))
    assert play.find("contest_held")["reason"] == "oneLap"
    state = end_turn(play, state)  # seat 2, turn 5: still held
    assert state["phase"] != "finished"
    state = end_turn(play, state)  # seat 0, turn 6
    state = end_turn(play, state)  # seat 1, turn 7: a full lap served, turn order resolves
    assert result(state)["winner"] == 1


def test_escalate_lets_a_player_who_reaches_the_raised_bar_alone_convert(play) -> None:
    state = two_armed("escalate", extra_board={"orange": ["Nellis AFB", "Eglin AFB",
                                                          "Edwards AFB"]})
    assert view(state, None)["contest_bar"] == 4
    state = end_turn(play, state)  # seat 1 has 3 < 4
    assert play.find("contest_held")["bar"] == 4
    state = end_turn(play, state)  # seat 2 has 4 sets alone
    assert result(state)["winner"] == 2


def test_escalate_drops_the_bar_after_two_laps(play) -> None:
    state = two_armed("escalate", turn_number=9)
    state = {**state, "contested_since": 3}
    assert view(state, None)["contest_bar"] == 3
    state = end_turn(play, state)
    assert result(state)["winner"] == 1


def test_points_mode_ends_the_game_on_points_after_two_laps(play) -> None:
    state = two_armed("points", turn_number=9)
    state = end_turn(play, {**state, "contested_since": 4})
    assert state["phase"] != "finished"  # 5 turns < 2 laps of 3
    state = two_armed("points", turn_number=9)
    state = end_turn(play, {**state, "contested_since": 3})
    assert result(state)["end_reason"] == "stalemate"
    assert result(state)["stalemate_reason"] == "contested"


def test_a_second_arming_opens_the_contest(play) -> None:
    state = scenario(seats=3, ruleset={"suddenDeath": "oneLap"}, hands={0: ["F-15 Eagle"]},
                     boards={0: THREE_SETS_BUT_ONE_CARD,
                             1: {"yellow": ["KC-135 Stratotanker", "C-17 Globemaster III",
                                            "C-130 Hercules"],
                                 "green": ["Red Flag", "Thunderbirds", "Weapons School"],
                                 "intel": ["PAVE PAWS Radar", "GPS Constellation"]}},
                     armed={1: 1}, turn_number=2)
    state = play(state, 0, {"type": "place", "card": card(state, "F-15 Eagle"), "colour": "red"})
    assert play.find("contest_open")["seats"] == [0, 1]
    assert view(state, None)["contested"] is True and state["contested_since"] == 2


# ---- points endings -------------------------------------------------------------------------

def test_a_dead_table_ends_on_points_after_a_full_idle_round(play) -> None:
    state = scenario(rest="bank:1")
    assert state["deck"] == [] and state["discard"] == []
    state = end_turn(play, state)
    assert state["phase"] == "play" and state["idle_turns"] == 1
    state = end_turn(play, state)
    res = result(state)
    assert (res["end_reason"], res["stalemate_reason"], res["winner"], res["basis"]) == (
        "stalemate", "deck_dry", 1, "net_worth")


def test_sixteen_deck_cycles_end_the_game_on_points(play) -> None:
    state = scenario(boards={1: TWO_SETS}, shuffle_count=15)
    state = end_turn(play, state)
    assert state["phase"] == "play"
    state = end_turn(play, {**state, "shuffle_count": 16})
    res = result(state)
    assert (res["stalemate_reason"], res["winner"], res["basis"]) == ("deck_cycles", 1, "sets")


def test_a_full_tie_is_decided_by_turn_order(play) -> None:
    state = scenario(seats=3, shuffle_count=16, order=[2, 0, 1], turn=2)
    state = end_turn(play, state)
    res = result(state)
    assert (res["winner"], res["basis"], res["placements"]) == (2, "turn_order", [2, 0, 1])
