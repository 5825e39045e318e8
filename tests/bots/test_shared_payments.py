"""Shortcuts on the bots' path decide exactly as the full decision does: a shared view (the
arena's) lists a payer's payment selections only when its legal list is read, and the bots
decide from it as from the full, unshared view; the medium bot accepts a charge it has no
OPSEC for without weighing its picture."""

from __future__ import annotations

import json
import operator
from typing import Any

import pytest

from games.chudopoly import engine
from games.chudopoly.bots import choose_action, medium
from games.chudopoly.bots.observe import Obs
from games.chudopoly.engine.view import unlisted_payments


def decisions(seed: int, kind: str, limit: int = 40) -> list[tuple[dict, int]]:
    """(state, seat) at the first `limit` decisions of one kind in five-medium games from
    deal `seed` on: "pay" (a payment owed) or "accept" (charges to answer, no OPSEC listed)."""
    state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=5, seed=seed)
    out = []
    while len(out) < limit:
        if state["result"] is not None:
            seed += 1
            state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=5, seed=seed)
        seat = engine.to_decide(state)[0]
        legal = engine.legal_actions(state, seat)
        types = {a["type"] for a in legal}
        answers = [a for a in legal if a["type"] == "respond"]
        if (kind == "pay" and "pay" in types) or (
                kind == "accept" and answers and all(a["answer"] == "accept" for a in answers)):
            out.append((state, seat))
        action = choose_action(engine.view(state, seat, shared=True), level="medium")
        state = engine.apply(state, seat, action).state
    return out


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_bot_pays_from_a_shared_view_as_from_the_full_view(level: str) -> None:
    for state, seat in decisions(20010, "pay"):
        full = choose_action(engine.view(state, seat), level=level)
        assert choose_action(engine.view(state, seat, shared=True), level=level) == full


def test_the_hard_bot_pays_from_a_shared_view_as_from_the_full_view() -> None:
    from games.chudopoly.bots import hard

    for state, seat in decisions(20011, "pay", limit=6):
        full = hard.choose_action(engine.view(state, seat), budget=3600.0, steps=200)
        shared = engine.view(state, seat, shared=True)
        assert hard.choose_action(shared, budget=3600.0, steps=200) == full


def test_a_payers_shared_legal_list_reads_as_the_full_one_however_it_is_read() -> None:
    import copy
    import pickle

    for state, seat in decisions(20012, "pay", limit=5):
        want = engine.legal_actions(state, seat)
        reads: list[Any] = [
            list, len, bool, repr, json.dumps, copy.deepcopy, lambda x: x[-1], lambda x: x[:2],
            lambda x: pickle.loads(pickle.dumps(x)), lambda x: list(reversed(x)),
            lambda x: operator.add(x, [None]), lambda x: x * 2, lambda x: 2 * x,
            lambda x: x < [], lambda x: x >= [], lambda x, want=want: x == want,
            lambda x, want=want: want[0] in x, lambda x, want=want: x.index(want[-1])]
        for read in reads:
            legal = engine.view(state, seat, shared=True)["legal"]
            assert unlisted_payments(legal) is not None
            assert read(legal) == read(want)
            assert unlisted_payments(legal) is None  # listed now: read as it is


def test_a_shared_view_of_an_owed_payment_says_so_before_listing_it() -> None:
    for state, seat in decisions(20012, "pay", limit=5):
        legal = engine.view(state, seat, shared=True)["legal"]
        answers = [a for a in engine.legal_actions(state, seat) if a["type"] == "respond"]
        assert unlisted_payments(legal) == answers
    # Every other list is read as it is.
    assert unlisted_payments(engine.legal_actions(state, seat)) is None


def test_the_medium_bot_accepts_a_charge_without_opsec_as_its_full_decision_does() -> None:
    for state, seat in decisions(20013, "accept"):
        view = engine.view(state, seat)
        plain = medium.plain_move(view["legal"])
        assert plain is not None
        assert plain == medium.decide(Obs.from_view(view))


def test_the_medium_bot_ends_a_turn_with_nothing_else_listed_as_its_full_decision_does() -> None:
    seen = 0
    for seed in (20014, 20015, 20016):
        state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=5, seed=seed)
        while state["result"] is None:
            seat = engine.to_decide(state)[0]
            view = engine.view(state, seat)
            plain = medium.plain_move(view["legal"])
            if [a["type"] for a in view["legal"]] == ["end_turn", "scoop"]:
                seen += 1
                assert plain == {"type": "end_turn"} == medium.decide(Obs.from_view(view))
            elif plain is None or plain["type"] != "respond":
                assert plain is None  # anything else on one's turn is weighed
            state = engine.apply(state, seat, choose_action(view, level="medium")).state
    assert seen >= 10
