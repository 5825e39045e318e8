"""A Jinja2 board partial is shared by every screen whose values it reads are equal, and what
it reads is found from its source (games/platform/partial_reads.py): no game declares it, and
a partial that reads a seat's own field is keyed by it, so no screen is served another's."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
from django.utils.safestring import SafeString
from test_screen_swaps import guests, move, started

from games.platform import presenters
from games.platform.identity import Viewer
from games.platform.interface import get_game, registered_games
from games.platform.jinja import environment
from games.platform.models import Game, Table
from games.platform.partial_reads import Reads, Unreadable, reads_of
from games.platform.presenters import shared_partials
from games.platform.rendering import SharedList, render_unlocalized


@pytest.fixture(autouse=True)
def _templates_kept_and_partials_unjudged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sharing is off while templates reload, and what a partial's keys were judged worth is
    the process's: a test elsewhere that turns DEBUG on (test_table_pages) before the site's
    Jinja2 engine is first made leaves that engine reloading for the rest of the run (CI saw
    these tests find no shared partial). Each test here starts from kept templates and
    partials not yet judged."""
    from django.template import engines

    from games.platform import rendering

    # Which engine holds a template is kept by name (rendering._JINJA_ENGINE), and may be one
    # made while DEBUG was on: looked up afresh from the engines now.
    monkeypatch.setattr(rendering, "_JINJA_ENGINE", {})
    for engine in engines.all():
        env = getattr(engine, "env", None)
        if isinstance(env, jinja2.Environment):
            monkeypatch.setattr(env, "auto_reload", False)
    monkeypatch.setattr(presenters, "_SHARED", {})


def _env(**templates: str) -> jinja2.Environment:
    env = environment(loader=jinja2.DictLoader(templates))
    env.globals["helper"] = lambda *args: "|".join(map(str, args))
    return env


def _reads(source: str, **others: str) -> Reads:
    return reads_of(_env(partial=source, **others), "partial")


def _render(reads: Reads, context: dict[str, Any]) -> str:
    return reads.env.get_template("partial").render(context)


# --- what a template reads ------------------------------------------------------------------

def test_a_new_template_is_read_path_by_path_with_no_declaration() -> None:
    reads = _reads('<p>{{ c.view.turn_number }} {{ c["deck"].count }}'
                   '{% if c.my_turn %}Your turn{% endif %}</p>')
    assert reads.paths() == ["c.my_turn?", "c.view.turn_number", "c['deck'].count"]
    first = {"c": {"view": {"turn_number": 3, "secret": 1}, "deck": {"count": 9},
                   "my_turn": "yes", "hand": [1, 2]}}
    other = {"c": {"view": {"turn_number": 3, "secret": 2}, "deck": {"count": 9},
                   "my_turn": True, "hand": [3]}}
    assert reads.key(first) == reads.key(other)
    assert _render(reads, first) == _render(reads, other)
    later = {"c": {**other["c"], "view": {"turn_number": 4}}}
    assert reads.key(later) != reads.key(first)


def test_a_value_looped_over_filtered_tested_indexed_or_passed_is_read_whole() -> None:
    for source in ("{% for x in c.hand %}{{ x.id }}{% endfor %}", "{{ c.hand|length }}",
                   "{% if c.hand is divisibleby(2) %}{% endif %}", "{{ c.hand[c.pick] }}",
                   "{{ helper(c.hand) }}", "{{ c.hand }}", "{{ c.hand.items() }}"):
        assert "c.hand" in _reads(source).paths(), source


def test_a_test_without_arguments_is_keyed_by_its_answer_alone() -> None:
    class Seat:
        pass

    reads = _reads("{% if me is not none %}<p>Yours</p>{% endif %}")
    assert reads.paths() == ["me is none"]
    assert reads.key({"me": Seat()}) == reads.key({"me": Seat()}) != reads.key({"me": None})


def test_includes_imports_and_macros_are_followed() -> None:
    reads = _reads('{% import "macros" as m %}{% include "inner" %}{{ m.show(c.shown) }}',
                   inner="{{ c.included }}",
                   macros="{% macro show(x) %}{{ x }}{{ c.in_macro }}{% endmacro %}")
    assert {"c.included", "c.in_macro", "c.shown"} <= set(reads.paths())


def test_what_the_analysis_cannot_follow_makes_the_template_unreadable() -> None:
    with pytest.raises(Unreadable):
        _reads("{% include c.name %}")
    env = _env(partial="{{ c.x|peek }}")
    env.filters["peek"] = jinja2.pass_context(lambda context, value: context.get("secret"))
    with pytest.raises(Unreadable):
        reads_of(env, "partial")


# --- the key --------------------------------------------------------------------------------

def test_values_a_template_prints_apart_key_apart() -> None:
    reads = _reads("{{ c.v }}")
    keys = [reads.key({"c": {"v": v}}) for v in
            (1, True, "1", 1.0, "<b>", SafeString("<b>"), None, [1], (1,), {"a": 1})]
    assert len(set(keys[:7])) == 7
    assert reads.key({"c": {}}) != reads.key({"c": {"v": None}})  # missing: printed as ""


def test_a_value_that_is_not_plain_data_gives_no_key() -> None:
    class Seat:
        name = "Ann"

    reads = _reads("{{ c.seat }}")
    assert reads.key({"c": {"seat": Seat()}}) is None
    assert _reads("{{ c.seat.name }}").key({"c": {"seat": Seat()}}) is not None


def test_a_shared_list_is_keyed_by_its_content() -> None:
    reads = _reads("{% for t in c.tiles %}{{ t }}{% endfor %}")
    tiles = SharedList(["a", "b"])
    assert reads.key({"c": {"tiles": tiles}}) == reads.key({"c": {"tiles": tiles}})
    assert reads.key({"c": {"tiles": tiles}}) != reads.key({"c": {"tiles": SharedList(["a"])}})


def test_a_partial_that_reads_a_seats_private_field_is_keyed_by_it() -> None:
    reads = _reads("<p>Turn {{ c.turn }}</p>{% for card in c.my_hand %}{{ card }}{% endfor %}")
    ann = {"c": {"turn": 5, "my_hand": ["Rent"], "me": 0}}
    ben = {"c": {"turn": 5, "my_hand": ["Deal Breaker"], "me": 1}}
    assert reads.key(ann) != reads.key(ben)
    public = _reads("<p>Turn {{ c.turn }}</p>")
    assert public.key(ann) == public.key(ben)


# --- the games' partials --------------------------------------------------------------------

def _full_context(screen: presenters.TableScreen) -> dict[str, Any]:
    return {"screen": screen, "table": screen.table, "oob": True, "c": screen.ctx,
            "version": screen.version, "game": screen.game,
            **presenters.lobby_context(screen)}


@pytest.mark.django_db
def test_the_lobby_names_are_those_the_lobby_context_gives(alice: Viewer) -> None:
    from tables_helpers import started_game

    game = started_game(alice, bots=1)
    screen = presenters.load_screen(Table.objects.get(pk=game.table_id), alice)
    lobby = presenters.lobby_context(screen)
    assert lobby["table"] is screen.table
    assert set(lobby) == presenters.LOBBY_NAMES | {"table"}


def test_chudopolys_status_hand_and_decision_are_shared_with_no_declaration() -> None:
    engine = get_game("chudopoly")
    assert not hasattr(engine, "board_inputs")
    for name in ("status", "hand", "decision"):
        assert presenters.shared_partial(engine.board_templates[name]) is not None, name


def test_a_django_partial_is_rendered_per_screen() -> None:
    assert presenters.shared_partial("games/_lobby.html") is None


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(registered_games()))
def test_every_screen_of_a_scripted_game_is_served_what_its_own_render_shows(kind: str) -> None:
    """Four seats and a spectator watch a game move by move: each partial render_all serves
    (shared by its key, or the screen's own) is what this screen's own render of the partial
    with its whole context shows, and equal keys, from any screen and move, go with equal
    HTML."""
    players = guests(4)
    game = started(kind, players)
    table = Table.objects.get(pk=game.table_id)
    viewers = [*players, Viewer(user_id=None, guest_key=None)]
    templates = {name: template for name, template in get_game(kind).board_templates.items()
                 if presenters.shared_partial(template) is not None}
    if not templates:
        pytest.skip(f"{kind} has no Jinja2 board partial")
    by_key: dict[tuple[str, bytes], str] = {}
    shared = 0
    for n in range(60):
        for viewer in viewers:
            screen = presenters.load_screen(table, viewer)
            served = presenters.render_all(screen)
            context = _full_context(screen)
            for name, template in templates.items():
                own = render_unlocalized(template, context)
                assert served[name] == own, (n, name)
                key = presenters.shared_partial(template).reads.key(context)  # type: ignore[union-attr]
                if key is not None:
                    shared += (template, key) in by_key
                    assert by_key.setdefault((template, key), own) == own, (n, name)
        game = move(game, n)
        if game.status != Game.Status.RUNNING:
            break
    assert shared, "no two screens read alike"


@pytest.mark.django_db
def test_two_seats_waiting_on_a_third_are_served_one_render_of_the_status() -> None:
    players = guests(3)
    game = started("chudopoly", players)
    table = Table.objects.get(pk=game.table_id)
    waiting = [v for v in players
               if presenters.load_screen(table, v).seat not in
               get_game("chudopoly").to_decide(game.state)]
    status = presenters.shared_partial("chudopoly/_status.html")
    assert status is not None
    status.tried = status.served = status.resting = 0  # a fresh window
    first, second = (presenters.render_all(presenters.load_screen(table, v))["status"]
                     for v in waiting[:2])
    assert first == second and "Waiting on" in first
    assert status.served == 1


@pytest.mark.django_db
def test_the_sockets_of_a_move_are_pushed_the_one_kept_string_of_a_shared_partial() -> None:
    # Its hash worked out once and its tree found by identity; the page's is safe HTML.
    players = guests(3)
    game = started("chudopoly", players)
    table = Table.objects.get(pk=game.table_id)
    pushed = [presenters.render_all(presenters.load_screen(table, v), oob=True)["status"]
              for v in players]
    assert pushed[0] is pushed[1] is pushed[2] and type(pushed[0]) is str
    page = presenters.render_all(presenters.load_screen(table, players[0]), oob=False)
    assert isinstance(page["status"], SafeString)


# --- carried over from the declared inputs --------------------------------------------------

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
    templates = get_game("chudopoly").board_templates

    def keys(game_state: dict[str, Any], seat: int) -> tuple[Any, ...]:
        ctx = board_context(engine.view(game_state, seat), me=seat, names=["A", "B", "C"],
                            seats=[{}, {}, {}])
        context = {"c": ctx, "oob": True, "game": object()}
        return tuple(presenters.shared_partial(templates[name]).reads.key(context)  # type: ignore[union-attr]
                     for name in ("hand", "decision"))

    assert None not in keys(state, watcher)
    assert keys(after, watcher) == keys(state, watcher)
    assert keys(after, mover) != keys(state, mover)


@pytest.mark.django_db
def test_the_status_tells_the_host_and_only_the_host_to_start_a_rematch_once_the_game_ends(
        ) -> None:
    from tables_helpers import ENGINE, started_game

    from games.platform import services

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
