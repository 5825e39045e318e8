"""Seeded playouts of random and bot players, with the invariants after every action, and
replay, the view's secrecy, refusals and the clocks."""

from __future__ import annotations

import json
import random

import pytest

from games.boardroom.bots import choose_action
from games.boardroom.bots.common import gives_away
from games.boardroom.engine import (
    IllegalAction,
    apply,
    auto_move,
    board_table,
    check_invariants,
    legal_actions,
    new_game,
    replay,
    scenario,
    timeout_actions,
    to_decide,
    view,
)
from games.boardroom.engine.random_player import choose as random_choose
from games.boardroom.simulate import play_game

from .helpers import act


def _playout(seats: int, seed: int, level: str, turn_cap: int = 400):
    st = new_game(seats=seats, seed=seed, bots=[True] * seats, turn_cap=turn_cap)
    rng = random.Random(seed)
    log = []
    accepted = []
    for _ in range(60_000):
        if st["phase"] == "finished":
            break
        deciders = to_decide(st)
        seat = deciders[0]
        if level == "random":
            a = random_choose(st, seat, legal_actions(st, seat), rng)
        else:
            v = view(st, seat)
            a = choose_action(v, level, rng)
            if a["type"] == "propose":
                assert not gives_away(v, seat, {**a, "from": seat}, answering=False)
            if a["type"] == "answer" and a["accept"]:
                accepted.append((v, seat))
        for other in range(seats):
            if other != seat and st["active"][other]:
                assert legal_actions(st, other) == []  # nobody else may act now
        log.append([seat, a])
        st = apply(st, seat, a).state
        assert check_invariants(st) == [], (seed, len(log), a)
    assert st["phase"] == "finished", "every game ends"
    for v, seat in accepted:
        assert not gives_away(v, seat, v["offer"], answering=True)
    return st, log


@pytest.mark.parametrize("seed", range(6))
def test_random_players_keep_every_invariant_and_every_game_ends(seed: int) -> None:
    _playout(2 + seed % 5, seed, "random", turn_cap=150)


@pytest.mark.parametrize(("seed", "level"), [(s, lv) for s in range(3)
                                             for lv in ("easy", "medium")])
def test_bots_keep_every_invariant_and_never_give_away_the_game(seed: int, level: str) -> None:
    _playout(4 if seed else 6, seed, level)


def test_replay_reproduces_the_state() -> None:
    st, log = _playout(3, 11, "medium", turn_cap=120)
    again = replay(seats=3, seed=11, actions=log, bots=[True] * 3, turn_cap=120)
    assert again == st
    assert json.loads(json.dumps(again)) == again  # plain JSON-able data


def test_the_simulator_plays_in_place_the_same_games_as_apply() -> None:
    a = play_game(4, 5, "medium")
    b = play_game(4, 5, "medium", check=True)
    assert a["state"] == b["state"] and b["violations"] == 0


def test_the_view_hides_the_deck_order_the_seed_and_other_seats_offers() -> None:
    st = scenario(seats=3, pos={0: 14}, dice=[(2, 4)], owners={15: 1})
    st = act(st, 0, "roll")
    st = act(st, 0, type_="propose", kind="swap", to=1, take=15, give=None, cash=300)
    for seat in (0, 1, 2, None):
        v = view(st, seat)
        text = json.dumps(v)
        assert "seed" not in v and "rng" not in v and "dice_queue" not in v
        assert "order" not in v["decks"]["market"] and str(st["seed"]) not in text.split(
            '"version"')[0]
    assert view(st, 1)["offer"]["cash"] == 300 and view(st, 0)["offer"]["cash"] == 300
    assert view(st, 2)["offer"] == {"from": 0, "to": 1, "private": True}


def test_apply_refuses_an_illegal_action_with_a_reason_and_leaves_the_state_unchanged() -> None:
    st = scenario(dice=[(1, 2)])
    before = json.dumps(st, sort_keys=True)
    for seat, action, reason in [
        (1, {"type": "roll"}, "not your turn"),
        (0, {"type": "end_turn"}, "Roll the dice first"),
        (0, {"type": "build", "tile": True}, "tile must be a number"),
        (0, {"type": "fly"}, "Roll the dice first"),
        (0, "roll", "An action is an object"),
        (0, {"type": "forfeit"}, "Only the table's clock"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            apply(st, seat, action)
    assert json.dumps(st, sort_keys=True) == before


def test_apply_never_edits_the_state_it_is_given() -> None:
    st = scenario(dice=[(1, 2)])
    before = json.dumps(st, sort_keys=True)
    apply(st, 0, {"type": "roll"})
    assert json.dumps(st, sort_keys=True) == before


def test_the_board_table_reads_as_json_with_40_tiles() -> None:
    table = json.loads(json.dumps(board_table()))
    assert len(table) == 40
    kinds = [t["kind"] for t in table]
    assert kinds.count("business") == 24 and kinds.count("logistics") == 3
    assert kinds.count("utility") == 2 and kinds.count("excise") == 1
    assert {kinds[0], kinds[10], kinds[20], kinds[30]} == {"start", "audit", "forum",
                                                             "tax_office"}
    for t in table:
        if t["kind"] == "business":
            assert len(t["rents"]) == 6 and t["buyback"] == t["price"] // 2
            assert t["rents"] == sorted(t["rents"])


# --- clocks and auto move ---------------------------------------------------------------------
def test_a_move_clock_running_out_puts_the_seat_out_bankrupt_to_the_bank() -> None:
    st = scenario(seats=3, owners={5: 0})
    assert timeout_actions(st, 0) == [{"type": "forfeit"}]
    st = apply(st, 0, {"type": "forfeit"}, clock=True).state
    assert not st["active"][0] and st["owner"][5] is None and st["turn"] == 1
    assert st["cash"][0] == 0 and st["bank"] == -1500  # the bank took its 1500


def test_a_bid_clock_running_out_is_a_pass() -> None:
    st = act(act(scenario(dice=[(1, 2)]), 0, "roll"), 0, "decline", tile=3)
    assert timeout_actions(st, 0) == [{"type": "pass"}]


def test_a_trade_answer_clock_running_out_is_a_refusal() -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={15: 1}), 0, "roll")
    st = act(st, 0, type_="propose", kind="swap", to=1, take=15, give=None, cash=300)
    assert timeout_actions(st, 1) == [{"type": "answer", "accept": False}]
    assert timeout_actions(st, 0) == []


def test_auto_move_rolls_ends_eligible_turns_and_uses_a_release_card_under_audit() -> None:
    st = scenario(releases={0: [4]}, audit={0: 0}, dice=[(1, 2), (2, 3)])
    assert auto_move(st, 0) == {"type": "use_release"}
    st = act(st, 0, "use_release")
    assert auto_move(st, 0) == {"type": "roll"}
    st = act(st, 0, "roll")  # 13: free business: buying is the seat's own call
    assert auto_move(st, 0) is None
    st = scenario(pos={0: 14}, dice=[(2, 4)])
    st = act(st, 0, "roll")
    assert auto_move(st, 0) == {"type": "end_turn"}
    assert auto_move(scenario(audit={0: 0}), 0) == {"type": "roll"}


def test_endless_games_of_bots_alone_end_at_the_turn_cap_on_net_worth() -> None:
    st = scenario(turn_cap=1, pos={0: 14}, dice=[(2, 4)], owners={5: 1}, bots=[True, True])
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["phase"] == "finished" and st["result"]["end_reason"] == "turn_cap"
    assert st["result"]["winner"] == 1  # 1500 cash and a 200 logistics beat 1500


def test_a_game_ended_by_the_turn_cap_still_shows_its_last_roll() -> None:
    st = scenario(turn_cap=1, pos={0: 14}, dice=[(2, 4)], bots=[True, True])
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["result"]["end_reason"] == "turn_cap"
    assert view(st, None)["dice"] == [2, 4]


def test_no_turn_cap_ends_a_game_while_a_person_is_still_in() -> None:
    # The guide: "There is no limit on laps or time."
    st = scenario(turn_cap=1, pos={0: 14}, dice=[(2, 4)], owners={5: 1}, bots=[False, True])
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["phase"] == "roll" and st["result"] is None and st["turn"] == 1
    assert view(st, 1)["turn_cap"] is None and view(st, 1, copy=False)["turn_cap"] is None
    # Once the person is out (bankrupt, or gone), the bots left alone are capped again.
    st = apply(st, 0, {"type": "forfeit"}, clock=True).state
    assert st["result"]["end_reason"] == "last_standing"  # two seats: one left
    three = scenario(seats=3, turn_cap=2, pos={0: 14, 1: 14}, dice=[(2, 4)],
                     bots=[False, True, True])
    assert view(three, 1)["turn_cap"] is None
    three = apply(three, 0, {"type": "forfeit"}, clock=True).state
    assert three["phase"] == "roll" and view(three, 1)["turn_cap"] == 2
    three = act(act(three, 1, "roll"), 1, "end_turn")
    assert three["result"]["end_reason"] == "turn_cap"


def test_a_bot_account_s_program_counts_as_a_bot_for_the_turn_cap_but_a_person_beside_it_does_not(
) -> None:
    # Seat 0 is a bot account over the API: a person for trades, a program for the cap.
    st = scenario(turn_cap=1, pos={0: 14}, dice=[(2, 4)], bots=[False, True],
                  programs=[True, False])
    assert view(st, 1)["turn_cap"] == 1
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["result"]["end_reason"] == "turn_cap"
    three = scenario(seats=3, turn_cap=1, pos={0: 14}, dice=[(2, 4)],
                     bots=[False, True, False], programs=[True, False, False])
    three = act(act(three, 0, "roll"), 0, "end_turn")
    assert three["result"] is None and three["turn"] == 1


def test_a_test_may_cap_a_game_with_a_person_by_its_own_option() -> None:
    st = scenario(turn_cap=1, pos={0: 14}, dice=[(2, 4)], bots=[False, True],
                  cap_people=True)
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["result"]["end_reason"] == "turn_cap"


def test_a_state_stored_as_json_with_its_keys_reordered_plays_on_the_same() -> None:
    # PostgreSQL's JSONB hands object keys back in its own order: nothing may depend on it.
    st, log = _playout(4, 21, "medium", turn_cap=80)
    again = new_game(seats=4, seed=21, bots=[True] * 4, turn_cap=80)
    for seat, action in log:
        stored = json.loads(json.dumps(again, sort_keys=True))
        again = apply(stored, seat, action).state
    assert json.dumps(again, sort_keys=True) == json.dumps(st, sort_keys=True)
