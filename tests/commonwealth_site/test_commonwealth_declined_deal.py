"""A deal a bot declines tells its proposer why and what the next offer must beat
(games/commonwealth/board.py `declined`, from the medium bot's own verdict), and nobody else:
the other seats and spectators still learn only that a deal was declined."""

from __future__ import annotations

import random

from django.template.loader import render_to_string

from games.commonwealth import engine
from games.commonwealth.board import board_context
from games.commonwealth.bots import choose_action
from games.commonwealth.describe import describe_event
from games.commonwealth.engine import scenario

NAMES = ["Ann", "Ben", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True}, {"is_bot": True}]
# Ben manages both brown projects: Tool Lending Shed (price 20, two open slots) is worth
# 20 + 2 × 10 + 2 × 20 (the pair's payout) = 80 to him.
SHED = 1


def _brown_pair() -> dict:
    return scenario(seats=3, cash={0: 100}, managers={0: 1, SHED: 1})


def _offer(st: dict, cash: int) -> dict:
    return engine.apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": cash},
                                "get": {"projects": [SHED]}}).state


def _bot_answers(st: dict) -> engine.Applied:
    action = choose_action(engine.view(st, 1), "medium", random.Random(0))
    return engine.apply(st, 1, action)


def _context(st: dict, seat: int | None) -> dict:
    return board_context(engine.view(st, seat), me=seat, names=NAMES, seats=SEATS)


def _panel(st: dict, seat: int | None) -> str:
    return render_to_string("commonwealth/_decision.html",
                            {"c": _context(st, seat), "game": True, "me": seat})


def test_a_declined_deal_tells_its_proposer_why_and_the_cash_the_next_must_reach() -> None:
    applied = _bot_answers(_offer(_brown_pair(), 40))
    declined = _context(applied.state, 0)["declined"]
    assert declined["words"] == "you give Ben 40 in cash; Ben gives Tool Lending Shed"
    assert declined["why"] == "Ben values what it gives up above what it gets, by 40"
    assert declined["next"] == "Next time, for these projects: at least 80 in cash."
    html = _panel(applied.state, 0)
    assert 'id="deal-declined" role="alert"' in html
    assert "Ben declined your deal" in html and "at least 80 in cash" in html


def test_the_amount_named_is_the_one_the_bot_then_accepts() -> None:
    st = _bot_answers(_offer(_brown_pair(), 40)).state
    assert _bot_answers(_offer(st, 79)).events[-1]["type"] == "decline"
    st = _bot_answers(_offer(_brown_pair(), 80)).state
    assert st["projects"][SHED]["manager"] == 0


def test_asking_for_its_cash_names_the_most_the_next_may_ask() -> None:
    st = scenario(seats=3, cash={0: 100, 1: 100}, managers={0: 1, SHED: 1})
    st = engine.apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 80},
                              "get": {"projects": [SHED], "cash": 50}}).state
    declined = _context(_bot_answers(st).state, 0)["declined"]
    assert declined["why"] == "Ben values what it gives up above what it gets, by 50"
    assert declined["next"] == "Next time, for these projects: ask none of its cash."


def test_a_rival_close_to_winning_is_told_no_offer_helps() -> None:
    st = scenario(seats=3, cash={0: 100}, managers={SHED: 1, 4: 0, 5: 0, 6: 0},
                  chips={4: [0, 0, 0], 5: [0, 0, 0], 6: [0]})
    declined = _context(_bot_answers(_offer(st, 100)).state, 0)["declined"]
    assert "helps no rival this close to winning (you have 7 of 10 chips" in declined["why"]
    assert declined["next"] == "No offer changes that while you lead it."


def test_the_other_seats_and_spectators_see_only_that_a_deal_was_declined() -> None:
    applied = _bot_answers(_offer(_brown_pair(), 40))
    for seat in (1, 2, None):
        assert engine.view(applied.state, seat)["declined"] is None
        assert _context(applied.state, seat)["declined"] is None
        html = _panel(applied.state, seat)
        assert "deal-declined" not in html and "80 in cash" not in html
    lines = {seat: [describe_event(e, viewer=seat, names=NAMES)
                    for e in engine.events_for(applied.events, seat)] for seat in (0, 2)}
    assert "Ben declined your deal." in lines[0]
    assert "Ben declined Ann’s deal." in lines[2]


def test_the_reason_lasts_until_the_next_offer_or_the_turns_end() -> None:
    st = _bot_answers(_offer(_brown_pair(), 40)).state
    assert _context(st, 0)["declined"] is not None
    assert _context(_offer(st, 60), 0)["declined"] is None
    st = engine.apply(st, 0, {"type": "roll"}).state
    while engine.to_decide(st) and st["turn"] == 0:
        seat = engine.to_decide(st)[0]
        st = engine.apply(st, seat, choose_action(engine.view(st, seat), "medium",
                                                  random.Random(1))).state
    assert st["turn"] != 0 and _context(st, 0)["declined"] is None


def test_a_human_who_declines_is_given_no_reason() -> None:
    st = engine.apply(_offer(_brown_pair(), 40), 1, {"type": "decline"}).state
    declined = board_context(engine.view(st, 0), me=0, names=NAMES,
                             seats=[{"is_bot": False}] * 3)["declined"]
    assert declined["why"] == "" and declined["next"] == ""
