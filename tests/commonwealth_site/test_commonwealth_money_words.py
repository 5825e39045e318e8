"""Commonwealth says what the rules do (games/commonwealth/board.py): every button that spends
money says who pays what, you or the Fund (own money first, the Fund the rest); a Shuttle ride
costs the Fund its fare; the action die's faces are explained before and after a roll; and in
Jail each option not offered says why. Every amount comes from the engine's data."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.commonwealth import engine
from games.commonwealth.board import board_context
from games.commonwealth.engine import data, scenario

NAMES = ["Ann", "Ben", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]
CHIP = data.CHIP_COST


def labels(state: dict, me: int = 0) -> dict[str, str]:
    d = board_context(engine.view(state, me), me=me, names=NAMES, seats=SEATS)["decision"]
    return {o["json"]: o["label"] for group in ("buttons", "rides", "amounts", "develops")
            for o in d[group]}


def label(state: dict, action: str) -> str:
    return next(text for key, text in labels(state).items() if f'"type":"{action}"' in key)


def _chip(cash: int, fund: int = data.FUND_START) -> dict:
    return scenario(seats=3, cash={0: cash}, fund=fund, managers={1: 1},
                    step={"kind": "chip", "project": 1})


def test_a_chip_with_no_cash_says_the_fund_pays_all_of_it() -> None:
    assert label(_chip(0), "chip") == f"Place a chip for {CHIP} (the Fund pays {CHIP})"


def test_a_chip_with_some_cash_says_what_you_pay_and_what_the_fund_pays() -> None:
    assert label(_chip(4), "chip") == f"Place a chip for {CHIP} (you pay 4, the Fund {CHIP - 4})"
    assert label(_chip(50), "chip") == f"Place a chip for {CHIP} (you pay {CHIP})"


def test_a_chip_the_fund_cannot_cover_warns_that_everyone_loses() -> None:
    assert label(_chip(0, fund=CHIP), "chip").endswith(
        "(the Fund pays 10: the Fund runs dry and everyone loses)")


def test_buying_says_who_pays_the_price() -> None:
    st = scenario(seats=3, cash={0: 5}, step={"kind": "buy", "project": 1})
    price = data.PROJECTS[1]["price"]
    assert label(st, "buy") == \
        f"Buy Tool Lending Shed for {price} (you pay 5, the Fund {price - 5})"


def test_each_shuttle_ride_says_the_fund_pays_its_fare() -> None:
    st = scenario(seats=3, step={"kind": "shuttle", "from": 5})
    rides = [text for key, text in labels(st).items() if '"ride"' in key]
    assert rides and all(t.endswith(f"(the Fund pays {data.SHUTTLE_FARE})") for t in rides)
    d = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)["decision"]
    assert d["note"].startswith(f"Each ride costs the Fund {data.SHUTTLE_FARE}")


def test_plus_two_on_the_action_die_means_drawing_two_chance_cards() -> None:
    st = scenario(seats=3, step={"kind": "order", "draws": 2, "steps": 5})
    texts = set(labels(st).values())
    assert texts == {"Move 5 first, then draw 2 Chance cards",
                     "Draw 2 Chance cards first, then move 5"}


def test_the_last_roll_says_what_its_faces_do() -> None:
    def meaning(dice: list) -> str:
        st = engine.apply(scenario(seats=3, dice=[dice]), 0, {"type": "roll"}).state
        return board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)["dice"][
            "meaning"]

    assert meaning([3, "x2"]).startswith("×2: move twice 3, 6. It counts as a double")
    assert meaning([4, "+1"]) == "+1: move 4 and draw a Chance card, in the order you choose."
    assert meaning([3, "3"]) == "3 + 3: move 6. A double: another turn (a third in a row is Jail)."
    assert meaning([2, "4"]) == "2 + 4: move 6."


def test_before_the_roll_the_action_die_is_explained() -> None:
    d = board_context(engine.view(scenario(seats=3), 0), me=0, names=NAMES,
                      seats=SEATS)["decision"]
    assert "+1 and +2 draw that many Chance cards" in d["note"]
    assert "×2 doubles it and counts as a double" in d["note"]


def test_in_jail_a_fee_you_cannot_pay_and_a_card_you_lack_say_why() -> None:
    st = scenario(seats=3, in_jail={0: 1}, cash={0: 30})
    c = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)
    assert [(u["id"], u["reason"]) for u in c["decision"]["unavailable"]] == [
        ("pay-jail-unavailable",
         "You have 30; the fee is paid from your own money, never the Fund."),
        ("use-jail-card-unavailable",
         "You do not hold the Pardon card (it comes from the Chance deck or a deal)."),
    ]
    html = render_to_string("commonwealth/_decision.html", {"c": c, "game": True, "me": 0})
    assert (f'<button type="button" id="pay-jail-unavailable" class="secondary" disabled '
            f'aria-describedby="pay-jail-unavailable-why">Pay {data.JAIL_FEE} to leave Jail'
            ) in html


def test_in_jail_with_the_fee_in_hand_paying_is_offered_from_your_own_money() -> None:
    st = scenario(seats=3, in_jail={0: 1}, cash={0: 80})
    assert label(st, "pay_jail") == f"Pay {data.JAIL_FEE} of your own to leave Jail"
    d = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)["decision"]
    assert [u["id"] for u in d["unavailable"]] == ["use-jail-card-unavailable"]


def test_a_go_gift_says_it_goes_to_the_fund() -> None:
    st = scenario(seats=3, cash={0: 30, 1: 30, 2: 30},
                  step={"kind": "donate", "owed": [0, 1, 2]})
    assert f"Give {data.MIN_DONATION} to the Fund" in labels(st).values()


def test_each_bid_says_who_would_pay_it() -> None:
    st = scenario(seats=3, turn=1, cash={0: 10},
                  step={"kind": "auction", "project": 1, "sender": 1, "high": 0,
                        "leader": None, "bidders": [0, 2], "to_act": 0})
    bids = [text for key, text in labels(st).items() if '"bid"' in key]
    low = data.AUCTION_START
    assert bids[0] == f"Bid {low} (if you win, you pay {low})"
    assert f"Bid {low + 15} (if you win, you pay 10, the Fund {low + 5})" in bids
    d = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)["decision"]
    assert "if you win you pay up to your 10, the Fund the rest" in d["amount_form"]["label"]


def _gave_cash_away(step: dict, cash: int = 0) -> dict:
    """Ann handed cash to Ben in a deal this go: the Fund pays nothing for her meanwhile."""
    st = scenario(seats=3, cash={0: cash}, managers={1: 1, 3: 0}, step=step)
    st["players"][0]["dealt_away"] = 20
    return st


def test_after_handing_cash_away_a_purchase_the_fund_would_help_with_says_why_it_is_missing(
) -> None:
    st = _gave_cash_away({"kind": "buy", "project": 2}, cash=5)
    c = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)
    assert [b["id"] for b in c["decision"]["buttons"]] == ["auction"]
    [why] = c["decision"]["unavailable"]
    price = data.PROJECTS[2]["price"]
    assert why["id"] == "buy-unavailable" and why["label"] == f"Buy Bicycle Workshop for {price}"
    assert why["reason"].startswith("You handed cash to another player in a deal, so until "
                                    "your turn passes on the Fund pays nothing for you")
    assert why["reason"].endswith("you have 5.")
    html = render_to_string("commonwealth/_decision.html", {"c": c, "game": True, "me": 0})
    assert 'id="buy-unavailable" class="secondary" disabled' in html


def test_after_handing_cash_away_a_chip_or_a_self_development_says_why_it_is_missing() -> None:
    chip = board_context(engine.view(_gave_cash_away({"kind": "chip", "project": 1}), 0),
                         me=0, names=NAMES, seats=SEATS)["decision"]
    assert [u["id"] for u in chip["unavailable"]] == ["chip-unavailable"]
    roll = board_context(engine.view(_gave_cash_away({"kind": "pre_roll"}), 0),
                         me=0, names=NAMES, seats=SEATS)["decision"]
    assert [u["id"] for u in roll["unavailable"]] == ["develop-unavailable"]
    assert not roll["develops"]


def test_the_deal_form_says_handing_cash_over_stops_the_fund_paying_for_you() -> None:
    st = scenario(seats=3, managers={1: 1, 3: 0})
    c = board_context(engine.view(st, 0), me=0, names=NAMES, seats=SEATS)
    html = render_to_string("commonwealth/_deals.html", {"c": c, "game": True, "me": 0})
    assert ("once you have handed cash over the Fund pays nothing for you until your turn "
            "passes on") in html
