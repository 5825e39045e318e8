"""Shortcuts on the bots' path decide exactly as the full decision does."""

from __future__ import annotations

from games.chudopoly import engine
from games.chudopoly.bots import choose_action, medium
from games.chudopoly.bots.observe import Obs


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


def test_the_medium_bot_accepts_a_charge_without_opsec_as_its_full_decision_does() -> None:
    for state, seat in decisions(20013, "accept"):
        view = engine.view(state, seat)
        plain = medium.plain_accept(view["legal"])
        assert plain is not None
        assert plain == medium.decide(Obs.from_view(view))
