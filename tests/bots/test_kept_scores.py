"""The medium bot keeps a turn's card plays' scores with the lists a shared view lists them
as (`medium.play_scores`); whatever it finds kept must be what scoring them afresh gives."""

from __future__ import annotations

import pytest

from games.chudopoly import engine
from games.chudopoly.bots import medium
from games.chudopoly.bots.observe import Obs
from games.chudopoly.engine.legal import listed_runs


@pytest.mark.parametrize("preset", [None, {"pureSetRequired": True}])
def test_kept_scores_are_the_scores_made_afresh(preset: dict | None) -> None:
    kept_runs = 0
    for seed in (20000, 20001):
        for _replay in range(2):  # a deal played again finds every turn's plays kept
            state = engine.new_game(ruleset=preset, seats=5, seed=seed)
            while state["result"] is None:
                seat = engine.to_decide(state)[0]
                view = engine.view(state, seat, shared=True)
                runs = listed_runs(view["legal"])
                if runs is not None:
                    o = Obs.from_view(view)
                    scored = medium.play_scores(o)
                    afresh = medium._scores(Obs.from_view(view), view["legal"], True)
                    assert [(s, id(a)) for s, a in scored] == [(s, id(a)) for s, a in afresh]
                    kept_runs += sum(1 for run in runs if len(run) >= medium._KEPT_RUN)
                action = medium.choose_action(view)
                state = engine.apply(state, seat, action).state
    assert kept_runs
