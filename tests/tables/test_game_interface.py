"""The game interface is the only thing tables need: a toy game plugs in without site changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.chudopoly.game import ChudopolyGame
from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import (
    Applied,
    GameEngine,
    IllegalAction,
    RuleField,
    RulesetInvalid,
    get_game,
    register_game,
)
from games.platform.models import Game


@pytest.fixture(autouse=True)
def _registry_restored() -> Any:
    """The toy game is registered for one test only: later tests see the site's games."""
    from games.platform import interface

    saved = dict(interface._REGISTRY), dict(interface._INSTANCES)
    yield
    interface._REGISTRY.clear()
    interface._REGISTRY.update(saved[0])
    interface._INSTANCES.clear()
    interface._INSTANCES.update(saved[1])


class Countdown:
    """Players take turns removing 1–3 tokens; whoever takes the last one wins."""

    key = "countdown"
    name = "Countdown"
    min_seats = 2
    max_seats = 4
    board_templates: dict[str, str] = {}

    def presets(self) -> dict[str, str]:
        return {"short": "Short", "long": "Long"}

    def resolve_ruleset(self, spec: Mapping[str, Any] | None) -> dict[str, Any]:
        preset = (spec or {}).get("preset", "short")
        if preset not in self.presets():
            raise RulesetInvalid("preset", "Unknown preset")
        return {"label": preset, "tokens": 7 if preset == "short" else 21}

    def ruleset_label(self, ruleset: Mapping[str, Any]) -> str:
        return self.presets()[ruleset["label"]]

    def create(self, *, ruleset: Mapping[str, Any], seats: int, seed: int) -> dict[str, Any]:
        return {"tokens": ruleset["tokens"], "turn": 0, "seats": seats, "winner": None,
                "turn_number": 1}

    def to_decide(self, state: dict[str, Any]) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_decide(state):
            return []
        return [{"type": "take", "card": n} for n in (1, 2, 3) if n <= state["tokens"]]

    def decision_key(self, state: dict[str, Any], seat: int) -> Any:
        return state["turn_number"] if seat in self.to_decide(state) else None

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Applied:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("You cannot take that many")
        tokens = state["tokens"] - action["card"]
        new = {**state, "tokens": tokens, "turn": (seat + 1) % state["seats"],
               "turn_number": state["turn_number"] + 1,
               "winner": seat if tokens == 0 else None}
        return Applied(new, [{"type": "take", "seat": seat, "count": action["card"]}])

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {**state, "viewer": seat, "version": state["turn_number"],
                "legal": self.legal_actions(state, seat) if seat is not None else []}

    def events_for(self, events: Sequence[dict[str, Any]], seat: int | None
                   ) -> list[dict[str, Any]]:
        return list(events)

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state["winner"] is None:
            return None
        return {"winner": state["winner"], "placements": [state["winner"]]}

    def replay(self, *, ruleset: Mapping[str, Any], seats: int, seed: int,
               actions: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        state = self.create(ruleset=ruleset, seats=seats, seed=seed)
        for seat, action in actions:
            state = self.apply(state, seat, action).state
        return state

    def timeout_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return self.legal_actions(state, seat)[:1]

    def clock_context(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {"turn_seat": view["turn"], "turn_number": view["turn_number"], "pending": False}

    def board_context(self, view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                      seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {"tokens": view["tokens"]}

    def describe_event(self, event: Mapping[str, Any], *, viewer: int | None,
                       names: Sequence[str], ruleset: Mapping[str, Any]) -> str | None:
        return f"{names[event['seat']]} took {event['count']}."

    def rule_fields(self) -> list[RuleField]:
        return []

    def preset_fields(self) -> dict[str, dict[str, Any]]:
        return {"short": {}, "long": {}}

    def custom_spec(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {"preset": "short"}

    def rule_field_for(self, error_field: str) -> str | None:
        return None

    def bot_levels(self) -> dict[str, str]:
        return {"greedy": "Greedy"}

    def bot_action(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        return view["legal"][-1]  # take as many as allowed

    def bot_standin_level(self) -> str:
        return "greedy"

    def quick_play_levels(self) -> list[str]:
        return ["greedy"]

    rules_template = "404.html"
    replay_template = "404.html"

    def rules_context(self) -> dict[str, Any]:
        return {}

    def replay_board(self, view: dict[str, Any], *, seat: int | None, names: Sequence[str],
                     hands: Mapping[int, Sequence[Any]], bots: Sequence[bool]
                     ) -> dict[str, Any]:
        return {"tokens": view["tokens"]}


def test_chudopoly_implements_the_game_interface() -> None:
    assert isinstance(ChudopolyGame(), GameEngine)
    assert isinstance(get_game("chudopoly"), ChudopolyGame)


@pytest.mark.django_db
def test_a_game_added_to_the_registry_gets_its_card_its_page_and_its_rules_entry(
        client: Any) -> None:
    register_game("countdown", Countdown)
    home = client.get("/").content.decode()
    card = home[home.index('id="home-countdown"'):]
    assert 'id="quick-play-countdown"' in card and 'href="/games/countdown/"' in card
    assert "Countdown: a game for 2 to 4 players." in card  # no pitch of its own
    assert "You and 1 bot (greedy)." in card
    page = client.get("/games/countdown/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="quick-match-countdown"' in html and 'href="/rules/countdown"' in html
    assert 'href="/rules/countdown"' in client.get("/rules").content.decode()


@pytest.mark.django_db
def test_a_second_game_runs_through_the_same_tables_seats_bots_and_log(alice: Viewer) -> None:
    register_game("countdown", Countdown)
    assert isinstance(get_game("countdown"), GameEngine)
    table = services.table_create(viewer=alice, name="Alice", ruleset_spec={"preset": "long"},
                                  max_seats=3, game_kind="countdown")
    assert table.ruleset == {"label": "long", "tokens": 21} and table.ruleset_label == "Long"
    services.seat_add_bot(table_id=table.pk, viewer=alice)
    game = services.game_start(table_id=table.pk, viewer=alice)
    engine = get_game("countdown")
    while game.status == Game.Status.RUNNING:
        seat = engine.to_decide(game.state)[0]
        if game.players[seat]["bot"]:
            game = services.game_bot_move(game_id=game.pk, seat=seat, version=game.version)
        else:
            game = services.table_apply_action(game_id=game.pk, seat=seat,
                                               action={"type": "take", "card": 1},
                                               expected_version=game.version)
    assert game.result["winner"] in (0, 1)
    actions = [(a.seat, a.action) for a in game.actions.all()]
    assert engine.replay(ruleset=game.ruleset, seats=2, seed=game.seed,
                         actions=actions) == game.state


@pytest.mark.django_db
def test_a_second_games_results_replay_and_export_are_filed_under_its_own_kind(
        alice: Viewer) -> None:
    from ladder.models import GameRecord, PlayerResult
    from ladder.queries import history_page
    from ladder.replay import export_game, replay_frame

    register_game("countdown", Countdown)
    table = services.table_create(viewer=alice, name="Alice", ruleset_spec={"preset": "long"},
                                  max_seats=2, game_kind="countdown")
    services.seat_add_bot(table_id=table.pk, viewer=alice)
    game = services.game_start(table_id=table.pk, viewer=alice)
    engine = get_game("countdown")
    while game.status == Game.Status.RUNNING:
        seat = engine.to_decide(game.state)[0]
        game = services.table_apply_action(game_id=game.pk, seat=seat,
                                           action=engine.legal_actions(game.state, seat)[0],
                                           expected_version=game.version)
    record = GameRecord.objects.get(game=game)
    assert (record.game_kind, record.ladder) == ("countdown", "long")
    assert set(PlayerResult.objects.filter(record=record).values_list("game_kind", flat=True)) \
        == {"countdown"}
    page = history_page(user_id=None, guest_key=alice.guest_key, game_kind="countdown")
    # Another game than the default one is named with its ladder (one history lists both).
    assert [row.ladder_name for row in page.object_list] == ["Countdown Long"]
    assert not history_page(user_id=None, guest_key=alice.guest_key,
                            game_kind="chudopoly").object_list
    frame = replay_frame(game, step=3, seat=None, open_hands=False)
    assert frame.board_template == Countdown.replay_template
    assert frame.board == {"tokens": 21 - 3}
    assert export_game(game)["game_kind"] == "countdown"


def test_chudopolys_clock_context_read_off_the_state_is_the_one_its_views_give() -> None:
    import random

    game = ChudopolyGame()
    rng = random.Random(7)
    for deal in range(5):
        state = game.create(ruleset=game.resolve_ruleset(None), seats=4, seed=deal)
        for _ in range(150):
            if game.result(state) is not None:
                break
            for viewer in (None, 0, 2):
                assert (game.state_clock_context(state)
                        == game.clock_context(game.view(state, viewer)))
            seat = rng.choice(game.to_decide(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
