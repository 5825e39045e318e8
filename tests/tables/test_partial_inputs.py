"""A partial with declared inputs (GameEngine.board_inputs) is shared by every socket whose
inputs are equal, so its template must read nothing else: another seat's screen would show."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import get_template

from games.platform.interface import get_game, registered_games
from games.platform.presenters import _inputs_key, shared_partials

KEYWORDS = {"if", "elif", "else", "endif", "for", "in", "endfor", "empty", "with", "endwith",
            "load", "not", "and", "or", "is", "None", "True", "False", "include",
            "none", "true", "false"}  # Jinja2's spelling
ALWAYS = {"game", "oob", "forloop", "loop"}
_TOKEN = re.compile(r"{[{%](.*?)[}%]}", re.S)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_NAME = re.compile(r"(?<![\w.|])([A-Za-z_]\w*(?:\.\w+)*)")


def _references(source: str) -> tuple[set[str], set[str]]:
    """(paths read, names the template defines itself: loop and `with` variables)."""
    read: set[str] = set()
    local: set[str] = set()
    for token in _TOKEN.findall(source):
        token = _QUOTED.sub("", token)
        words = token.split()
        if words and words[0] == "load":
            continue
        if words and words[0] == "for":
            local.update(w.strip(",") for w in words[1:words.index("in")])
        if words and words[0] == "with":
            local.update(w.split("=")[0] for w in words[1:] if "=" in w)
        for match in _NAME.finditer(token):
            read.add(match.group(1))  # a filter's name follows "|" and is not matched
    return read, local


def test_chudopoly_declares_the_inputs_of_its_status_hand_and_decision() -> None:
    assert set(get_game("chudopoly").board_inputs) == {"status", "hand", "decision"}


def test_every_shared_partial_reads_only_its_declared_inputs() -> None:
    for kind in registered_games():
        _check_declared_inputs(kind)


def _check_declared_inputs(kind: str) -> None:
    engine = get_game(kind)
    declared = getattr(engine, "board_inputs", {})
    for name, paths in declared.items():
        template = engine.board_templates[name]
        source = Path(get_template(template).origin.name).read_text()
        read, local = _references(source)
        # Template tags, and the helpers a Jinja2 template calls ({{ card_face(card) }}).
        tag_names = ({m.group(1) for m in re.finditer(r"{%\s*(\w+)", source)}
                     | {m.group(1) for m in re.finditer(r"(\w+)\(", source)})
        for ref in sorted(read):
            root, _, rest = ref.partition(".")
            if root in ALWAYS or root in local or root in KEYWORDS or ref in tag_names:
                continue
            assert root == "c", f"{template} reads {ref}, which is not in the board context"
            assert any(rest == p or rest.startswith(p + ".") for p in paths), (
                f"{template} reads c.{rest}, missing from {kind}'s board_inputs[{name!r}]")


def test_equal_inputs_give_one_key_and_a_changed_input_another() -> None:
    class Screen:
        game = object()
        ctx = {"hand": [{"id": 3}], "view": {"plays_left": 2}, "other": "ignored"}

    paths = ("hand", "view.plays_left")
    first = _inputs_key("t.html", True, Screen(), paths)  # type: ignore[arg-type]
    Screen.ctx = {**Screen.ctx, "other": "changed"}
    assert _inputs_key("t.html", True, Screen(), paths) == first  # type: ignore[arg-type]
    Screen.ctx = {**Screen.ctx, "view": {"plays_left": 1}}
    assert _inputs_key("t.html", True, Screen(), paths) != first  # type: ignore[arg-type]
    assert _inputs_key("t.html", False, Screen(), paths) != first  # type: ignore[arg-type]


def test_inputs_that_compare_equal_but_print_differently_key_differently() -> None:
    class Screen:
        game = object()
        ctx: dict[str, Any] = {"view": {"plays_left": 1}}

    first = _inputs_key("t.html", True, Screen(), ("view.plays_left",))  # type: ignore[arg-type]
    Screen.ctx = {"view": {"plays_left": True}}  # 1 == True, but prints "True"
    assert _inputs_key("t.html", True, Screen(), ("view.plays_left",)) != first  # type: ignore[arg-type]


def test_inputs_below_a_value_that_is_not_a_mapping_read_as_nothing() -> None:
    class Screen:
        game = object()
        ctx: dict[str, Any] = {"view": {"ruleset": {"setsToWin": 3}}, "hand": []}

    paths = ("hand", "view.ruleset.setsToWin", "view.plays_left", "view.ruleset.other")
    first = _inputs_key("t.html", True, Screen(), paths)  # type: ignore[arg-type]
    Screen.ctx = {"view": {"ruleset": {"setsToWin": 4}}, "hand": []}
    assert _inputs_key("t.html", True, Screen(), paths) != first  # type: ignore[arg-type]
    Screen.ctx = {"view": {"ruleset": None}, "hand": []}
    no_ruleset = _inputs_key("t.html", True, Screen(), paths)  # type: ignore[arg-type]
    Screen.ctx = {"view": {"ruleset": "3"}, "hand": []}
    assert _inputs_key("t.html", True, Screen(), paths) == no_ruleset  # type: ignore[arg-type]
    Screen.ctx = {"hand": []}
    assert _inputs_key("t.html", True, Screen(), paths) not in (first, no_ruleset)  # type: ignore[arg-type]


def test_the_shared_partials_keep_the_most_recent_entries_only() -> None:
    shared_partials.put("a-key-for-this-test", "<p>a</p>")
    assert shared_partials.get("a-key-for-this-test") == "<p>a</p>"
    for n in range(shared_partials.MAX_ENTRIES):
        shared_partials.put(f"filler-{n}", "")
    assert shared_partials.get("a-key-for-this-test") is None


def test_another_seats_play_leaves_a_seats_hand_and_decision_keys_as_they_were() -> None:
    from games.chudopoly import engine
    from games.chudopoly.board import board_context

    state = engine.new_game(ruleset=None, seats=3, seed=7)
    mover = state["turn"]
    watcher = (mover + 1) % 3
    play = next(a for a in engine.legal_actions(state, mover) if a["type"] == "bank")
    after = engine.apply(state, mover, play).state
    assert engine.view(after, mover)["plays_left"] < engine.view(state, mover)["plays_left"]
    inputs = get_game("chudopoly").board_inputs

    def keys(game_state: dict[str, Any], seat: int) -> tuple[Any, ...]:
        class Screen:
            game = object()
            ctx = board_context(engine.view(game_state, seat), me=seat, names=["A", "B", "C"],
                                seats=[{}, {}, {}])
        return tuple(_inputs_key(name, True, Screen(), inputs[name])  # type: ignore[arg-type]
                     for name in ("hand", "decision"))

    assert keys(after, watcher) == keys(state, watcher)
    assert keys(after, mover) != keys(state, mover)


@pytest.mark.django_db
def test_the_status_tells_the_host_and_only_the_host_to_start_a_rematch_once_the_game_ends(
        ) -> None:
    from tables_helpers import ENGINE, started_game

    from games.platform import presenters, services
    from games.platform.identity import Viewer

    host, guest = Viewer(user_id=None, guest_key="host-key"), Viewer(user_id=None,
                                                                     guest_key="guest-key")
    game = started_game(host, (guest, "Bea"), turn_seconds=0)
    playing = [presenters.load_screen(game.table, v).ctx for v in (host, guest)]
    assert [c["host_at_result"] for c in playing] == [None, None]
    seat = ENGINE.to_decide(game.state)[0]
    services.table_apply_action(game_id=game.pk, seat=seat, action={"type": "scoop"},
                                expected_version=game.version)
    host_status, guest_status = (
        presenters.render_all(presenters.load_screen(game.table, v))["status"]
        for v in (host, guest))
    assert "Start a rematch from the table panel." in host_status
    assert "The host can start a rematch." in guest_status
