"""Rent and tax, branches and holdings: one test per rule of the guide."""

from __future__ import annotations

import pytest

from games.boardroom.engine import IllegalAction, apply, legal_actions, scenario
from games.boardroom.engine.board import RENTS

from .helpers import act, types

STALLS = (1, 3, 4)  # Noodle Cart 60, Pancake Kiosk 60, Juice Stand 80; branches cost 50
RIVAL_TILES = (6, 8, 9, 11, 13, 14, 16, 18, 19)  # repairs, printing, textiles


def _rival_levels(levels: tuple[int, ...]) -> dict[int, int]:
    return dict(zip(RIVAL_TILES, levels, strict=True))


# --- rent -------------------------------------------------------------------------------------
def test_a_business_with_nothing_built_earns_its_base_rent() -> None:
    st = act(scenario(owners={3: 1}, dice=[(1, 2)]), 0, "roll")
    assert st["cash"] == [1498, 1502]


def test_the_rent_doubles_when_the_owner_holds_the_whole_industry_and_this_business_has_no_branch(
) -> None:
    st = act(scenario(owners={1: 1, 3: 1, 4: 1}, dice=[(1, 2)]), 0, "roll")
    assert st["cash"] == [1496, 1504]
    st = act(scenario(owners={1: 1, 3: 1, 4: 1}, levels={1: 1}, dice=[(1, 2)]), 0, "roll")
    assert st["cash"] == [1496, 1504]  # branches elsewhere: this one still has none


def test_with_branches_or_a_holding_the_rent_follows_the_table_without_doubling() -> None:
    st = act(scenario(owners={1: 1, 3: 1, 4: 1}, levels={1: 2, 3: 2, 4: 2}, dice=[(1, 2)]),
             0, "roll")
    two = RENTS[3][2]  # Pancake Kiosk with two branches (the table, not doubled)
    assert st["cash"] == [1500 - two, 1500 + two]
    st = act(scenario(owners={1: 1, 3: 1, 4: 1}, levels={1: 5, 3: 5, 4: 5}, dice=[(1, 2)]),
             0, "roll")
    holding = RENTS[3][5]
    assert st["cash"] == [1500 - holding, 1500 + holding]


@pytest.mark.parametrize(("owned", "rent"), [((5,), 25), ((5, 15), 50), ((5, 15, 25), 120)])
def test_logistics_rent_is_25_50_or_120_by_how_many_the_owner_holds(owned: tuple, rent: int
                                                                     ) -> None:
    st = act(scenario(owners={t: 1 for t in owned}, dice=[(2, 3)]), 0, "roll")
    assert st["cash"] == [1500 - rent, 1500 + rent]


@pytest.mark.parametrize(("owned", "factor"), [((12,), 4), ((12, 28), 10)])
def test_utilities_rent_is_4_or_10_times_the_dice_total(owned: tuple, factor: int) -> None:
    st = act(scenario(pos={0: 7}, owners={t: 1 for t in owned}, dice=[(2, 3)]), 0, "roll")
    assert st["cash"] == [1500 - 5 * factor, 1500 + 5 * factor]


def test_excise_duty_is_100_to_the_bank() -> None:
    st = act(scenario(pos={0: 31}, dice=[(2, 4)]), 0, "roll")
    assert st["pos"][0] == 37 and st["cash"][0] == 1400 and st["bank"] == -100


def test_the_business_forum_is_free() -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)]), 0, "roll")
    assert st["pos"][0] == 20 and st["cash"] == [1500, 1500] and st["phase"] == "act"


def test_an_owner_under_audit_still_collects_rent() -> None:
    st = act(scenario(owners={3: 1}, audit={1: 1}, dice=[(1, 2)]), 0, "roll")
    assert st["cash"] == [1498, 1502]


# --- branches and holdings --------------------------------------------------------------------
def _on_stalls(**kw):
    """Seat 0 holds the street stalls and has just arrived on Pancake Kiosk (3)."""
    base = {"owners": {t: 0 for t in STALLS}, "dice": [(1, 2)]}
    base.update(kw)
    return act(scenario(**base), 0, "roll")


def test_a_branch_needs_the_whole_industry() -> None:
    st = act(scenario(owners={1: 0, 3: 0, 4: 1}, dice=[(1, 2)]), 0, "roll")
    assert "build" not in types(st, 0)
    with pytest.raises(IllegalAction, match="whole industry"):
        apply(st, 0, {"type": "build", "tile": 3})


def test_a_branch_opens_only_on_the_business_the_token_stands_on() -> None:
    st = _on_stalls()
    with pytest.raises(IllegalAction, match="stands on"):
        apply(st, 0, {"type": "build", "tile": 1})
    st = act(st, 0, "build", tile=3)
    assert st["level"][3] == 1 and st["cash"][0] == 1450 and st["stock"] == [31, 12]


def test_no_more_than_one_branch_per_visit() -> None:
    st = act(_on_stalls(levels={1: 1, 4: 1}), 0, "build", tile=3)
    with pytest.raises(IllegalAction, match="One branch per visit"):
        apply(st, 0, {"type": "build", "tile": 3})


def test_every_new_arrival_is_a_new_visit() -> None:
    # Doubles onto Pancake Kiosk (build), then the extra roll to the market whose card sends
    # the token back three steps onto Juice Stand: a new visit, so a new branch.
    st = scenario(owners={t: 0 for t in STALLS}, levels={1: 1}, pos={0: 1},
                  dice=[(1, 1), (2, 2)], market=[5])
    st = act(act(st, 0, "roll"), 0, "build", tile=3)
    assert "build" not in types(st, 0)
    st = act(act(st, 0, "end_turn"), 0, "roll")
    assert st["pos"][0] == 4 and "build" in types(st, 0)
    st = act(st, 0, "build", tile=4)
    assert st["level"][1:5] == [1, 0, 1, 1]


def test_an_industry_grows_evenly() -> None:
    st = act(_on_stalls(levels={1: 1}, pos={}), 0, "build", tile=3)
    assert st["level"][3] == 1
    st = _on_stalls(levels={3: 1})
    assert "build" not in types(st, 0)
    with pytest.raises(IllegalAction, match="evenly"):
        apply(st, 0, {"type": "build", "tile": 3})


def test_the_fifth_level_is_a_holding_and_its_four_branches_go_back_to_the_stock() -> None:
    st = _on_stalls(levels={1: 5, 3: 4, 4: 4})
    assert st["stock"] == [24, 11]
    st = act(st, 0, "build", tile=3)
    assert st["level"][3] == 5 and st["stock"] == [28, 10]


def test_the_stock_of_32_branches_and_12_holdings_is_shared_and_can_run_out() -> None:
    levels = _rival_levels((4, 4, 4, 4, 4, 4, 3, 3, 2))  # all 32 branches in use
    st = _on_stalls(owners={**{t: 0 for t in STALLS}, **{t: 1 for t in RIVAL_TILES}},
                    levels=levels)
    assert st["stock"] == [0, 12]
    assert "build" not in types(st, 0)
    with pytest.raises(IllegalAction, match="no branches or holdings left"):
        apply(st, 0, {"type": "build", "tile": 3})


def test_no_branch_without_the_cash() -> None:
    st = _on_stalls(cash={0: 40})
    assert "build" not in types(st, 0)


def test_closing_refunds_half_and_starts_from_the_most_developed() -> None:
    st = _on_stalls(levels={1: 2, 3: 1, 4: 2})
    with pytest.raises(IllegalAction, match="most developed"):
        apply(st, 0, {"type": "close", "tile": 3})
    st = act(st, 0, "close", tile=4)
    assert st["level"][4] == 1 and st["cash"][0] == 1525 and st["stock"][0] == 28


def test_a_building_may_be_closed_before_the_roll_too() -> None:
    st = scenario(owners={t: 0 for t in STALLS}, levels={1: 1, 3: 1, 4: 2}, dice=[(1, 1)])
    assert [a for a in legal_actions(st, 0) if a["type"] in ("close", "roll")] == [
        {"type": "close", "tile": 4}, {"type": "roll"}]
    st = act(st, 0, "close", tile=4)
    assert st["phase"] == "roll" and st["level"][4] == 1 and st["cash"][0] == 1525
    with pytest.raises(IllegalAction, match="nothing of yours to close"):
        apply(st, 0, {"type": "close", "tile": 6})
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(st, 1, {"type": "close", "tile": 4})


def test_a_holding_breaks_into_four_branches_only_if_the_stock_has_them() -> None:
    st = _on_stalls(levels={1: 5, 3: 5, 4: 5})
    st = act(st, 0, "close", tile=1)
    assert st["level"][1] == 4 and st["stock"] == [28, 10]
    st = _on_stalls(owners={**{t: 0 for t in STALLS}, **{t: 1 for t in RIVAL_TILES}},
                    levels={1: 5, 3: 5, 4: 5, **_rival_levels((4, 4, 4, 4, 4, 4, 2, 2, 1))})
    assert st["stock"] == [3, 9]
    with pytest.raises(IllegalAction, match="not enough branches"):
        apply(st, 0, {"type": "close", "tile": 1})


def test_there_are_no_mortgages() -> None:
    st = _on_stalls()
    assert not any("mortgage" in a["type"] for a in __import__(
        "games.boardroom.engine", fromlist=["legal_actions"]).legal_actions(st, 0))
