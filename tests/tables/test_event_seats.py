"""A game's `event_seats` names every seat an event concerns: any other seat reads the event
as a watcher does, redacted alike and in the same words. So the log describes each event once
for all the seats it does not concern (presenters._shared_action), and their lines are the
ones they read when each is described on its own.

Checked on every event type of every game (test_every_event_sentence's samples: the engines'
bot games and the variants made by hand), for every seat of a four-seat table."""

from __future__ import annotations

from typing import Any

import pytest
from test_every_event_sentence import NAMES, game_samples

from games.platform import presenters
from games.platform.interface import get_game

GAMES = ["chudopoly", "boardroom", "commonwealth"]


class _Game:
    """What _shared_action reads of a game row: its ruleset."""

    def __init__(self, game: str) -> None:
        self.ruleset = get_game(game).resolve_ruleset({})


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_no_event_names_reads_it_as_a_watcher(game: str) -> None:
    engine = get_game(game)
    ruleset = _Game(game).ruleset
    for events in game_samples(game).values():
        for event in events:
            named = engine.event_seats(event)
            public = engine.events_for([event], None)[0]
            watcher = engine.describe_event(public, viewer=None, names=NAMES, ruleset=ruleset)
            for seat in range(len(NAMES)):
                if seat in named:
                    continue
                seen = engine.events_for([event], seat)[0]
                assert seen == public, (event, seat)
                assert engine.describe_event(public, viewer=seat, names=NAMES,
                                             ruleset=ruleset) == watcher, (event, seat)


class _EveryoneConcerned:
    """A game as it would be without `event_seats`: every event described for every seat."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        if name == "event_seats":
            raise AttributeError(name)
        return getattr(self._engine, name)


@pytest.mark.parametrize("game", GAMES)
def test_an_actions_lines_are_those_each_seat_described_on_its_own_gives(game: str) -> None:
    engine = get_game(game)
    row = _Game(game)
    samples = [event for events in game_samples(game).values() for event in events]
    for start in range(0, len(samples), 7):  # actions of a few events each
        events = samples[start:start + 7]
        quick = presenters._shared_action(row, engine, NAMES, 1, events)
        slow = presenters._shared_action(row, _EveryoneConcerned(engine), NAMES, 1, events)
        assert [(line.text, dict(line.own)) for line in quick.shared] == [
            (line.text, dict(line.own)) for line in slow.shared]
        assert {seat: [line.text for line in lines] for seat, lines in quick.private.items()} \
            == {seat: [line.text for line in lines] for seat, lines in slow.private.items()}
