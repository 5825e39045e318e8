"""A seat's screen is built from a view whose unchanged parts are shared with other views
(`screen_view`), and its board context and log skip work the partials never read: what every
seat is shown stays exactly what it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils.html import escape
from tables_helpers import ENGINE

from games.chudopoly import board
from games.chudopoly.bots import choose_action
from games.chudopoly.engine import apply, build_deck, card_dict, new_game, to_decide
from games.chudopoly.templatetags.chudopoly import log_items
from games.platform.jsontext import compact_json
from games.platform.presenters import LogLine

NAMES = ["Alice", "Bob", "Carol", "Dan"]


def _states(seats: int, actions: int, seed: int) -> list[dict[str, Any]]:
    """The states of one bot-played game, from the deal on."""
    state = new_game(ruleset={}, seats=seats, seed=seed)
    states = [state]
    while state["result"] is None and len(states) <= actions:
        seat = to_decide(state)[0]
        state = apply(state, seat, choose_action(ENGINE.view(state, seat), level="easy")).state
        states.append(state)
    return states


def test_a_screen_view_reads_as_the_seats_own_view_for_every_seat_and_a_spectator() -> None:
    for state in _states(4, 250, seed=3):
        for seat in (0, 1, 2, 3, None):
            shared, own = ENGINE.screen_view(state, seat), ENGINE.view(state, seat)
            assert json.dumps(shared) == json.dumps(own)


def test_a_seat_that_can_only_scoop_or_answer_builds_its_board_without_looking_up_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    looked_up: list[int | None] = []
    real = board._cards_by_id

    def counted(view: Any) -> Any:
        looked_up.append(view.get("viewer"))
        return real(view)

    monkeypatch.setattr(board, "_cards_by_id", counted)
    checked = 0
    for state in _states(4, 120, seed=5):
        for seat in range(4):
            view = ENGINE.view(state, seat)
            plain = all(a["type"] in ("scoop", "end_turn", "respond") for a in view["legal"])
            if not plain or view.get("accept_pay"):
                continue
            ctx = board.board_context(view, me=seat, names=NAMES, seats=[{}] * 4)
            assert looked_up == []
            assert ctx["scoop"]["label"] == "Scoop (resign)"
            checked += 1
    assert checked > 100


def test_a_seat_with_cards_to_play_still_gets_them_labelled() -> None:
    state = _states(4, 0, seed=7)[0]
    seat = state["turn"]
    ctx = board.board_context(ENGINE.view(state, seat), me=seat, names=NAMES, seats=[{}] * 4)
    banked = [o["label"] for c in ctx["hand"] for o in c["options"]
              if '"bank"' in o["json"]]
    assert banked and all(label.startswith("Bank it as ") and label.endswith("M")
                          for label in banked)


def test_a_log_line_is_escaped_exactly_as_django_escapes_it() -> None:
    text = """Bob <b>"the & best"</b> drew 'two'"""
    html = log_items([LogLine(text, 4, 1)])
    assert html == (f'<li data-k="4.1" id="line-4-1"><span class="log-text">{escape(text)}'
                    "</span></li>")


def test_the_log_lists_newest_first_with_card_peeks_only_on_the_newest_lines() -> None:
    card = card_dict(build_deck()[0])
    lines = [LogLine(f"line {n}", n, 0, ({"type": "bank", "card": card},)) for n in range(20)]
    html = str(log_items(lines))
    items = html.split("</li>")[:-1]
    assert [item.split('data-k="')[1].split('"')[0] for item in items] == [
        f"{n}.0" for n in reversed(range(20))]
    assert ["log-peek" in item for item in items] == [True] * 12 + [False] * 8


def test_an_options_json_reads_as_compact_json_dumps_for_every_legal_action() -> None:
    compact = {"separators": (",", ":")}
    for state in _states(4, 150, seed=5):
        for seat in range(4):
            for action in ENGINE.view(state, seat)["legal"]:
                assert compact_json(dict(action)) == json.dumps(dict(action), **compact)


@pytest.mark.parametrize("value", [{"name": "Zoë"}, {1: "a"}, {"big": 2**70}, [1.5, None, True],
                                   {"b": [2, {"z": 1, "a": None}], "a": "x"}])
@pytest.mark.parametrize("sort_keys", [False, True])
def test_compact_json_writes_what_orjson_would_write_apart_as_json_does(
        value: Any, sort_keys: bool) -> None:
    assert compact_json(value, sort_keys=sort_keys) == json.dumps(
        value, separators=(",", ":"), sort_keys=sort_keys)


def _bot_played_states(kind: str, actions: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """A game's engine and the states of one of its games, each decision made by the
    game's stand-in bot from the seat's view."""
    import random

    from games.platform.interface import get_game

    engine = get_game(kind)
    state = engine.create(ruleset=engine.resolve_ruleset(None), seats=4, seed=seed)
    rng = random.Random(seed)  # who of several deciding seats acts
    states = [state]
    while engine.result(state) is None and len(states) <= actions:
        seat = rng.choice(engine.to_decide(state))
        action = engine.bot_action(engine.view(state, seat), engine.bot_standin_level())
        state = engine.apply(state, seat, action).state
        states.append(state)
    return engine, states


@pytest.mark.parametrize("kind", ["chudopoly", "boardroom", "commonwealth"])
def test_every_games_screen_view_reads_as_its_view_and_leaves_the_state_as_it_was(
        kind: str) -> None:
    engine, states = _bot_played_states(kind, 300, seed=11)
    assert len(states) > 40
    for state in states:
        before = json.dumps(state, sort_keys=True)
        screen_view = getattr(engine, "screen_view", engine.view)
        for seat in (0, 1, 2, 3, None):
            assert json.dumps(screen_view(state, seat)) == json.dumps(engine.view(state, seat))
        assert json.dumps(state, sort_keys=True) == before


def test_a_seats_screen_key_and_its_screen_read_one_view_of_a_state() -> None:
    # A seat whose key changed has its screen built next, from the same state: the view the
    # key was read from serves the screen too, and reads as the seat's own view.
    keyed = 0
    for state in _states(4, 200, seed=7):
        for seat in range(4):
            if state["turn"] == seat or state["pending"] is None:
                continue
            ENGINE.seat_screen_key(state, seat)
            screen = ENGINE.screen_view(state, seat)
            assert ENGINE.screen_view(state, seat) is screen
            assert json.dumps(screen) == json.dumps(ENGINE.view(state, seat))
            keyed += 1
    assert keyed


def test_a_screen_view_of_another_state_or_seat_is_its_own() -> None:
    states = [s for s in _states(4, 200, seed=7) if s["pending"] is not None]
    first, later = states[0], states[-1]
    seat = next(s for s in range(4) if s != first["turn"])
    ENGINE.seat_screen_key(first, seat)
    other = (seat + 1) % 4
    assert json.dumps(ENGINE.screen_view(first, other)) == json.dumps(ENGINE.view(first, other))
    assert json.dumps(ENGINE.screen_view(later, seat)) == json.dumps(ENGINE.view(later, seat))


def test_a_deck_is_described_from_the_counts_of_the_ruleset_it_is_given() -> None:
    # Each move's game row brings a ruleset of its own: the same counts, the same deck; other
    # counts, their own deck.
    stock = {"deck": {}}
    event = {"type": "bank", "seat": 0, "card": 0, "value": 1}
    said = ENGINE.describe_event(event, viewer=None, names=NAMES, ruleset=stock)
    assert ENGINE.describe_event(event, viewer=None, names=NAMES,
                                 ruleset={"deck": {}}) == said
    fewer = {"deck": {"wildAny": 0, "wildPairs": 1}}
    assert len(ENGINE._deck_of(fewer)) == len(build_deck({})) - 8
    assert ENGINE._deck_of(fewer) == build_deck(fewer["deck"])
    assert ENGINE._deck_of({"deck": {}}) == build_deck({})
