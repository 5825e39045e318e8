"""The medium bot's heuristics (REFERENCE §8): break final approach first, never bank a
breaker while someone is armed, pay without breaking a complete set, save OPSEC for big hits,
discard what is least worth keeping."""

from __future__ import annotations

from bots_helpers import decide, decide_and_apply

from games.chudopoly.engine import apply, card, scenario

THREE_SETS = {"yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"],
              "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"],
              "brown": ["Creech AFB", "Cannon AFB"]}


def armed_table(hand: list, banks: dict | None = None) -> dict:
    """Seat 1 is armed on three sets; seat 2 has a richer board but only two sets."""
    return scenario(seats=3, hands={0: hand}, armed={1: 1},
                    boards={0: {"red": ["F-22 Raptor", "F-35 Lightning II"]}, 1: THREE_SETS,
                            2: {"green": ["Thunderbirds", "Weapons School", "Red Flag"],
                                "darkblue": ["The Pentagon", "Air Force One"]}},
                    banks=banks if banks is not None else {1: ["money:10"], 2: ["money:5"]})


def turn_actions(state: dict, seat: int = 0, limit: int = 30) -> list[dict]:
    """Every action the seat takes until its turn is over (opponents simply accept)."""
    out = []
    for _ in range(limit):
        if state["turn"] != seat or state["result"] is not None:
            break
        if state["phase"] == "respond":
            target = state["pending"]["targets"][0]
            state = apply(state, target["responder"], {"type": "respond", "answer": "accept",
                                                       "target": target["seat"]}).state
            continue
        action, state = decide_and_apply(state, seat, "medium")
        out.append(action)
    return out


def test_inspector_general_goes_to_the_armed_player_first() -> None:
    state = armed_table(["inspector_general", "F-15 Eagle", "money:3"])
    action = decide(state, 0, "medium")
    assert action["type"] == "action" and action["card"] == card(state, "inspector_general")
    assert action["target"] == 1


def test_chud_breaks_a_complete_set_of_the_armed_player() -> None:
    state = armed_table(["chud", "F-15 Eagle", "money:3"])
    action = decide(state, 0, "medium")
    assert action["type"] == "action" and action["card"] == card(state, "chud")
    assert action["target"] == 1
    colour = next(c for c, z in state["players"][1]["zones"].items() if action["take"] in z)
    assert colour in THREE_SETS


def test_a_charge_that_must_come_out_of_a_set_breaks_an_armed_player() -> None:
    """Seat 1 holds no bank: a 5M charge can only be paid out of its sets."""
    state = armed_table(["finance_office", "money:1"], banks={2: ["money:10"]})
    action = decide(state, 0, "medium")
    assert action == {"type": "action", "card": card(state, "finance_office"), "target": 1}


def test_breakers_are_never_banked_while_someone_is_armed() -> None:
    state = armed_table(["inspector_general", "chud", "money:1", "money:2", "pcs_orders",
                         "roll_call", "tdy_orders", "F-15 Eagle", "wild_any"])
    banked = {a["card"] for a in turn_actions(state) if a["type"] == "bank"}
    assert not banked & {card(state, "inspector_general"), card(state, "chud")}


def test_pays_from_the_bank_rather_than_break_a_complete_set() -> None:
    state = scenario(seats=2, hands={0: ["finance_office"]},
                     boards={1: {"green": ["Thunderbirds", "Weapons School", "Red Flag"],
                                 "red": ["F-22 Raptor"]}},
                     banks={1: ["money:1", "money:2", "money:3"]})
    state = apply(state, 0, {"type": "action", "card": card(state, "finance_office"),
                             "target": 1}).state
    state = apply(state, 1, {"type": "respond", "answer": "accept", "target": 1}).state
    action = decide(state, 1, "medium")
    assert sorted(action["cards"]) == sorted([card(state, "money:2"), card(state, "money:3")])


def test_pays_small_notes_first_and_keeps_sets_when_the_bank_falls_short() -> None:
    """5M owed, 4M in the bank: the loose F-22 (3M) makes it up, not a green card (4M)."""
    state = scenario(seats=2, hands={0: ["finance_office"]},
                     boards={1: {"green": ["Thunderbirds", "Weapons School", "Red Flag"],
                                 "red": ["F-22 Raptor"]}},
                     banks={1: ["money:1", "money:3"]})
    state = apply(state, 0, {"type": "action", "card": card(state, "finance_office"),
                             "target": 1}).state
    state = apply(state, 1, {"type": "respond", "answer": "accept", "target": 1}).state
    action = decide(state, 1, "medium")
    green = set(state["players"][1]["zones"]["green"])
    assert not green & set(action["cards"])
    assert card(state, "F-22 Raptor") in action["cards"]


def test_opsec_is_saved_for_inspector_general_not_spent_on_small_rent() -> None:
    board = {1: {"green": ["Thunderbirds", "Weapons School", "Red Flag"]},
             0: {"red": ["F-22 Raptor"], "yellow": ["KC-135 Stratotanker", "C-17 Globemaster III",
                                                    "C-130 Hercules"]}}
    rent = scenario(seats=2, hands={0: ["rent:red/yellow"], 1: ["opsec"]}, boards=board,
                    banks={1: ["money:5"]})
    rent = apply(rent, 0, {"type": "action", "card": card(rent, "rent:red/yellow"),
                           "colour": "red"}).state
    assert decide(rent, 1, "medium")["answer"] == "accept"

    ig = scenario(seats=2, hands={0: ["inspector_general"], 1: ["opsec"]}, boards=board,
                  banks={1: ["money:5"]})
    ig = apply(ig, 0, {"type": "action", "card": card(ig, "inspector_general"), "target": 1,
                       "colour": "green"}).state
    assert decide(ig, 1, "medium")["answer"] == "opsec"


def test_counters_a_block_of_its_own_inspector_general() -> None:
    state = scenario(seats=2, hands={0: ["inspector_general", "opsec"], 1: ["opsec"]},
                     boards={1: {"green": ["Thunderbirds", "Weapons School", "Red Flag"]}})
    state = apply(state, 0, {"type": "action", "card": card(state, "inspector_general"),
                             "target": 1, "colour": "green"}).state
    state = apply(state, 1, {"type": "respond", "answer": "opsec", "target": 1}).state
    assert decide(state, 0, "medium")["answer"] == "opsec"


def test_discards_keep_opsec_and_breakers_over_small_notes() -> None:
    hand = ["money:1", "money:1", "opsec", "inspector_general", "chud", "pcs_orders", "money:2",
            "Osan AB", "money:10"]
    state = scenario(seats=2, hands={0: hand}, plays_left=0,
                     boards={0: {"base": ["Ramstein AB", "Kadena AB", "Thule AB",
                                          "wild:base/intel"]}})
    state = apply(state, 0, {"type": "end_turn"}).state
    action = decide(state, 0, "medium")
    kept = set(state["players"][0]["hand"]) - set(action["cards"])
    assert {card(state, "opsec"), card(state, "inspector_general"), card(state, "chud"),
            card(state, "money:10")} <= kept


def test_free_rearranges_are_capped_per_turn() -> None:
    from games.chudopoly.bots.medium import STANDARD

    state = scenario(seats=2, hands={0: ["money:1"]},
                     boards={0: {"base": ["wild:base/green", "wild_any"],
                                 "intel": ["wild:base/intel"], "green": ["Thunderbirds"],
                                 "red": ["wild:red/yellow"]}})
    moves = [a for a in turn_actions(state) if a["type"] in ("move", "swap")]
    assert len(moves) <= STANDARD.move_cap
