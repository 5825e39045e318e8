"""Every game's replay shows its board at each step, and every finished game has charts of its
seats over the turns whose last values are the game's final state; a running game has
neither (404), and every game-over banner links both."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from ladder_helpers import matched_game, play_moves, private_game, scoop_out

from games.platform import presenters
from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game
from ladder import replay

pytestmark = pytest.mark.django_db

COMMONWEALTH_WON_BY_CHIPS = 3  # two seats: engine seat 0 places its tenth chip (56 moves)


@pytest.fixture
def boardroom_game(alice, bob) -> Game:
    """A Boardroom game played 60 moves by medium bots for both players, then bob leaves:
    his seat goes bankrupt and alice is the last one standing."""
    game = play_moves(matched_game(alice, bob, preset="standard", game_kind="boardroom"), 60)
    assert game.status == Game.Status.RUNNING
    tables.seat_leave(table_id=game.table_id, viewer=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def commonwealth_game(alice, bob, monkeypatch) -> Game:
    monkeypatch.setattr(tables.secrets, "randbits", lambda bits: COMMONWEALTH_WON_BY_CHIPS)
    game = play_moves(matched_game(alice, bob, preset="standard", game_kind="commonwealth"),
                      400)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def chudopoly_game(alice, bob) -> Game:
    return scoop_out(private_game(alice, bob), bob, warmup=12)


def _client(viewer: Viewer) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=viewer.user_id))
    return client


def _page(client: Client, game: Game, step: int, **headers: str) -> str:
    url = reverse("ladder:replay", args=[game.pk]) + f"?step={step}"
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def _spectator_view(game: Game, step: int) -> dict[str, Any]:
    engine = get_game(game.game_kind)
    state, reached = replay.state_at(game, replay.game_actions(game), step)
    assert reached == step
    return engine.view(state, None)


def _tile_of_token(html: str, seat: int) -> int:
    """The tile a Boardroom seat's token stands on in the page's board (its token element: a
    tile's owner mark carries the owner's `data-seat` too)."""
    tiles = re.findall(r'data-tile="(\d+)"(.*?)</div>', html, flags=re.S)
    token = re.compile(rf'<i class="token"[^>]*data-seat="{seat}"')
    return next(int(pos) for pos, body in tiles if token.search(body))


# --- a board in every replay ------------------------------------------------------------------


def test_a_boardroom_replay_shows_the_board_at_each_step(boardroom_game, alice) -> None:
    game = boardroom_game
    client = _client(alice)
    for step in (0, 1, 9, 30, game.actions.count()):
        html = _page(client, game, step)
        view = _spectator_view(game, step)
        assert 'id="br-board"' in html and html.count('class="br-tile ') == 40
        for seat in range(game.seat_count):
            if view["active"][seat]:
                assert f'data-cash="{view["cash"][seat]}"' in html
                assert _tile_of_token(html, seat) == view["pos"][seat]
        owned = [pos for pos, owner in enumerate(view["owner"]) if owner is not None]
        assert html.count(" owned\"") == len(owned)


def test_a_commonwealth_replay_shows_the_board_and_the_fund_at_each_step(
        commonwealth_game, alice) -> None:
    game = commonwealth_game
    client = _client(alice)
    for step in (0, 5, 20, game.actions.count()):
        html = _page(client, game, step)
        view = _spectator_view(game, step)
        assert 'id="cw-board"' in html and html.count('class="cw-space ') == 40
        assert f'data-fund="{view["fund"]}"' in html
        for p in view["players"]:
            assert f'data-cash="{p["cash"]}"' in html
            assert f'data-placed="{p["placed"]}"' in html
        chips = sum(len(p["chips"]) for p in view["projects"])
        assert html.count('<i style="--seat:') == chips


def test_a_step_button_swaps_in_the_next_board(boardroom_game, alice) -> None:
    game = boardroom_game
    client = _client(alice)
    first = _page(client, game, 0)
    url = reverse("ladder:replay", args=[game.pk])
    assert f'hx-get="{url}?step=1"' in first  # the Forward button asks for the next step
    frame = _page(client, game, 1, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="replay-frame")
    assert frame.startswith('<div id="replay-frame"') and "Step 1 of" in frame
    assert 'id="br-board"' in frame and "<html" not in frame
    assert frame.count('class="br-tile ') == 40


def test_a_replay_page_brings_the_boards_own_script_and_styles(boardroom_game) -> None:
    html = Client().get(reverse("ladder:replay", args=[boardroom_game.pk])).content.decode()
    assert "boardroom/board.css" in html and "boardroom/board.js" in html


# --- charts -----------------------------------------------------------------------------------


def _chart(game: Game, key: str) -> dict[str, Any]:
    return next(c for c in replay.game_charts(game) if c["key"] == key)


def _ends(drawing: dict[str, Any]) -> list[int]:
    return [line["end"] for line in drawing["lines"]]


def test_the_boardroom_chart_ends_at_each_seats_final_net_worth(boardroom_game) -> None:
    game = boardroom_game
    final = get_game("boardroom").view(game.state, None)
    worth = [final["cash"][s] + sum(
        t_price + level * branch for t_price, level, branch, owner in _tiles(final)
        if owner == s) for s in range(game.seat_count)]
    ends = _ends(_chart(game, "net_worth"))
    assert ends == worth
    winner = game.result["winner"]
    assert ends[winner] == game.result["net_worth"][str(winner)]


def _tiles(view: dict[str, Any]) -> list[tuple[int, int, int, Any]]:
    from games.boardroom.engine.board import TILES

    return [(t.get("price") or 0, view["level"][t["pos"]], t.get("branch_cost") or 0,
             view["owner"][t["pos"]]) for t in TILES]


def test_the_commonwealth_charts_end_at_the_chips_placed_and_the_fund_left(
        commonwealth_game) -> None:
    game = commonwealth_game
    assert _ends(_chart(game, "chips")) == game.result["chips"]
    assert _ends(_chart(game, "fund")) == [game.result["fund"]]
    assert _chart(game, "fund")["lines"][0]["name"] == "Community Fund"


def test_the_chudopoly_charts_end_at_each_seats_complete_sets_and_bank(chudopoly_game) -> None:
    game = chudopoly_game
    final = get_game("chudopoly").view(game.state, None)["players"]
    assert _ends(_chart(game, "sets")) == [p["sets"] for p in final]
    assert _ends(_chart(game, "bank")) == [p["bank_total"] for p in final]


def test_a_chart_has_a_point_per_turn_and_words_for_screen_readers(commonwealth_game) -> None:
    game = commonwealth_game
    chips = _chart(game, "chips")
    last_turn = get_game("commonwealth").view(game.state, None)["turn_number"]
    assert chips["x_labels"][-1]["label"] == last_turn
    names = [p["name"] for p in game.players]
    assert chips["description"].startswith("Chips placed by turn, turns ")
    assert chips["description"].endswith(
        f"At the end: {names[0]} {game.result['chips'][0]}; "
        f"{names[1]} {game.result['chips'][1]}.")
    # One point per turn (and the deal), however many moves a turn took.
    assert len(chips["lines"][0]["points"].split()) <= last_turn + 1 < game.actions.count()


@pytest.mark.parametrize("kind", ["boardroom", "commonwealth", "chudopoly"])
def test_the_replay_page_and_the_charts_page_draw_the_same_charts(
        kind, request: pytest.FixtureRequest) -> None:
    game = request.getfixturevalue(f"{kind}_game")
    page = Client().get(reverse("ladder:replay", args=[game.pk])).content.decode()
    alone = Client().get(reverse("ladder:charts", args=[game.pk])).content.decode()
    for drawing in replay.game_charts(game):
        for html in (page, alone):
            assert f'id="chart-{drawing["key"]}"' in html
            assert html.count("<svg class=\"chart-svg\"") == len(replay.game_charts(game))
            ends = re.findall(r'data-end="(-?\d+)"', html.split(f'id="chart-{drawing["key"]}"')[1]
                              .split("</figure>")[0])
            assert [int(e) for e in ends] == _ends(drawing)
    assert "<title id=\"chart-" in alone and "<desc id=\"chart-" in alone


def _legend(html: str, key: str) -> list[str]:
    figure = html.split(f'id="chart-{key}"')[1].split("</figure>")[0]
    return re.findall(r"</svg>([^<]+) <strong>", figure.split('class="chart-legend"')[1])


def test_a_players_own_line_is_named_you_in_the_charts_and_a_spectator_sees_every_name(
        commonwealth_game, alice) -> None:
    game = commonwealth_game
    names = [p["name"] for p in game.players]
    mine = next(i for i, p in enumerate(game.players) if p["user_id"] == alice.user_id)
    expected = ["You" if i == mine else name for i, name in enumerate(names)]
    for name in ("ladder:charts", "ladder:replay"):
        html = _client(alice).get(reverse(name, args=[game.pk])).content.decode()
        assert _legend(html, "chips") == expected
        assert f"You {game.result['chips'][mine]}" in html.split('<desc id="chart-chips-desc">')[1]
        assert _legend(html, "fund") == ["Community Fund"]  # one line for all: no "You"
        watcher = Client().get(reverse(name, args=[game.pk])).content.decode()
        assert _legend(watcher, "chips") == names


# --- nothing of a running game; the banner links both ---------------------------------------


@pytest.mark.parametrize("kind", ["boardroom", "commonwealth", "chudopoly"])
def test_a_running_game_has_no_replay_no_charts_and_no_export(kind, alice, bob) -> None:
    preset = "chudopoly" if kind == "chudopoly" else "standard"
    game = play_moves(matched_game(alice, bob, preset=preset, game_kind=kind), 6)
    assert game.status == Game.Status.RUNNING
    for name in ("ladder:replay", "ladder:charts", "ladder:export"):
        assert _client(alice).get(reverse(name, args=[game.pk])).status_code == 404


def _screen(game: Game, viewer: Viewer) -> str:
    """Every partial of the viewer's table page: the result banner stands in the board's status
    (Chudopoly) or in the seat's decision panel (the board games, whose board is shared)."""
    game.refresh_from_db()
    parts = presenters.render_all(presenters.load_screen(game.table, viewer), oob=False)
    return "".join(parts.values())


@pytest.mark.parametrize("kind", ["boardroom", "commonwealth", "chudopoly"])
def test_every_game_over_banner_links_its_replay_and_loads_its_charts(
        kind, alice, request: pytest.FixtureRequest) -> None:
    game = request.getfixturevalue(f"{kind}_game")
    screen = _screen(game, alice)
    banner = screen[screen.index('id="result"'):]
    assert f'href="/ladder/games/{game.pk}/replay/">Watch the replay</a>' in banner
    assert f'hx-get="/ladder/games/{game.pk}/charts/" hx-trigger="load"' in banner


@pytest.mark.parametrize("kind", ["boardroom", "commonwealth"])
def test_a_player_of_a_game_without_hands_is_offered_no_open_hands(
        kind, alice, request: pytest.FixtureRequest) -> None:
    # A seat's own (empty) hand used to count as a hand to open.
    game = request.getfixturevalue(f"{kind}_game")
    assert 'id="open-hands"' not in _page(_client(alice), game, 3)


def test_a_player_of_the_card_game_may_still_open_every_hand(chudopoly_game, alice) -> None:
    assert 'id="open-hands"' in _page(_client(alice), chudopoly_game, 3)


def test_the_replays_charts_step_with_the_board(commonwealth_game, alice) -> None:
    game = commonwealth_game
    client = _client(alice)
    marks = []
    for step in (0, game.actions.count()):
        frame = _page(client, game, step, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="replay-frame")
        marks.append(re.findall(r'class="chart-now" x1="([\d.]+)"', frame))
    chips = _chart(game, "chips")
    assert marks[0] == [f"{chips['left']:.1f}"] * 2  # the deal: both charts' left edge
    assert marks[1] == [chips["lines"][0]["end_x"]] * 2  # the end: the last point
