"""OPSEC chains (REFERENCE §4): per target, with depth; counterCostsPlay."""

from __future__ import annotations

from engine_helpers import refused

from games.chudopoly.engine import card, legal_actions, scenario, to_decide


def opsec(seat, target):
    return {"type": "respond", "answer": "opsec", "target": target}


def accept(target):
    return {"type": "respond", "answer": "accept", "target": target}


def test_opsec_blocks_the_action_when_the_source_accepts(play) -> None:
    state = scenario(hands={0: ["midnight_requisition"], 1: ["opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    mr, shield = card(state, "midnight_requisition"), card(state, "opsec", 1)
    state = play(state, 0, {"type": "action", "card": mr, "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    assert state["pending"]["targets"] == [{"seat": 1, "depth": 1, "responder": 0,
                                            "state": "respond"}]
    assert to_decide(state) == [0]
    state = play(state, 0, accept(1))
    assert "blocked" in play.types()
    assert state["players"][1]["zones"] == {"red": [card(state, "F-22 Raptor")]}
    # the played card stays discarded, and so does the OPSEC
    assert mr in state["discard"] and shield in state["discard"]
    assert state["phase"] == "play"


def test_a_counter_opsec_makes_the_target_answer_again(play) -> None:
    state = scenario(hands={0: ["chud", "opsec"], 1: ["opsec", "opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    state = play(state, 0, opsec(0, 1))
    assert state["pending"]["targets"][0]["depth"] == 2
    assert to_decide(state) == [1]
    state = play(state, 1, opsec(1, 1))
    assert state["pending"]["targets"][0]["depth"] == 3
    refused(state, 0, opsec(0, 1), "No OPSEC card in hand")
    state = play(state, 0, accept(1))
    assert "blocked" in play.types()


def test_accepting_at_an_even_depth_lets_the_action_happen(play) -> None:
    state = scenario(hands={0: ["chud", "opsec"], 1: ["opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    state = play(state, 0, opsec(0, 1))
    assert [a["answer"] for a in legal_actions(state, 1) if a["type"] == "respond"] == ["accept"]
    state = play(state, 1, accept(1))
    assert state["players"][0]["zones"] == {"red": [card(state, "F-22 Raptor")]}


def test_opsec_blocks_rent_for_that_target_only(play) -> None:
    state = scenario(seats=3, hands={0: ["rent:red/yellow"], 1: ["opsec"]},
                     boards={0: {"red": ["F-22 Raptor"]}},
                     banks={1: ["money:2"], 2: ["money:2"]})
    state = play(state, 0, {"type": "action", "card": card(state, "rent:red/yellow"),
                            "colour": "red"})
    state = play(state, 1, opsec(1, 1))
    state = play(state, 0, accept(1))
    assert [t["seat"] for t in state["pending"]["targets"]] == [2]
    state = play(state, 2, accept(2))
    state = play(state, 2, {"type": "pay", "cards": [card(state, "money:2", 2)]})
    assert state["players"][1]["bank"] == [card(state, "money:2", 1)]
    assert len(state["players"][0]["bank"]) == 1


def test_the_source_answers_each_chain_separately(play) -> None:
    state = scenario(seats=3, hands={0: ["roll_call"], 1: ["opsec"], 2: ["opsec"]},
                     banks={1: ["money:2"], 2: ["money:2"]})
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    state = play(state, 1, opsec(1, 1))
    state = play(state, 2, opsec(2, 2))
    assert to_decide(state) == [0]
    answers = [a for a in legal_actions(state, 0) if a["type"] == "respond"]
    assert answers == [accept(1), accept(2)]
    refused(state, 0, {"type": "respond", "answer": "accept"},
            "Say which player's charge you are answering")
    state = play(state, 0, accept(2))
    assert [t["seat"] for t in state["pending"]["targets"]] == [1]


def test_only_the_current_responder_may_answer() -> None:
    state = scenario(hands={0: ["chud"], 1: ["opsec"]}, boards={1: {"red": ["F-22 Raptor"]}})
    from games.chudopoly.engine import apply

    state = apply(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                             "take": card(state, "F-22 Raptor")}).state
    refused(state, 0, accept(1), "Not your turn to respond")
    refused(state, 1, {"type": "respond", "answer": "maybe", "target": 1}, "Invalid response")
    refused(state, 0, {"type": "end_turn"}, "Resolve pending action first")
    refused(state, 0, {"type": "bank", "card": 0}, "Resolve pending action first")


def test_no_opsec_in_hand_cannot_counter() -> None:
    state = scenario(hands={0: ["chud"]}, boards={1: {"red": ["F-22 Raptor"]}})
    from games.chudopoly.engine import apply

    state = apply(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                             "take": card(state, "F-22 Raptor")}).state
    refused(state, 1, opsec(1, 1), "No OPSEC card in hand")


def test_an_opsec_costs_no_play_by_default(play) -> None:
    state = scenario(hands={0: ["chud", "opsec"], 1: ["opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    state = play(state, 0, opsec(0, 1))
    assert state["plays_left"] == 2


def test_counter_costs_play_spends_the_turn_owners_play(play) -> None:
    rules = {"counterCostsPlay": True}
    state = scenario(ruleset=rules, hands={0: ["chud", "opsec"], 1: ["opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    assert state["plays_left"] == 2  # the defender counters for free
    state = play(state, 0, opsec(0, 1))
    assert state["plays_left"] == 1


def test_counter_costs_play_refuses_a_counter_with_no_plays_left(play) -> None:
    rules = {"counterCostsPlay": True}
    state = scenario(ruleset=rules, hands={0: ["chud", "opsec"], 1: ["opsec"]},
                     boards={1: {"red": ["F-22 Raptor"]}}, plays_left=1)
    state = play(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                            "take": card(state, "F-22 Raptor")})
    state = play(state, 1, opsec(1, 1))
    refused(state, 0, opsec(0, 1), "No plays left this turn to counter with OPSEC")
