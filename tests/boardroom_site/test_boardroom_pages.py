"""Choosing Boardroom on the site's pages, and its rules page drawn from the engine's data."""

from __future__ import annotations

import pytest
from django.test import Client

from games.boardroom.engine import board_table, card_table
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db


def test_the_home_page_offers_both_games_and_the_rules_and_boardroom_s_page_its_own(
        client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'id="quick-play-chudopoly"' in html and 'id="quick-play-boardroom"' in html
    assert 'href="/rules"' in html
    page = client.get("/games/boardroom/").content.decode()
    assert 'href="/rules/boardroom"' in page
    assert "/play/bots/?game=boardroom" in page and "/tables/new/?game=boardroom" in page


def test_the_rules_page_shows_every_price_rent_and_card_from_the_engine(client: Client) -> None:
    response = client.get("/rules/boardroom")
    assert response.status_code == 200
    html = response.content.decode()
    for tile in board_table():
        assert tile["name"] in html
        if tile["kind"] == "business":
            assert " · ".join(str(r) for r in tile["rents"]) in html
    for card in card_table():
        assert card["title"] in html
    assert "An auction with no first bid waits 60 seconds for the whole lot" in html
    assert "There is no limit on laps or time: while a person is still in the game" in html
    assert "Only a game of bots alone" in html and "reaches 1000 turns ends on net worth" in html


def test_quick_play_boardroom_starts_a_game_with_three_bots_and_you_first(
        client: Client) -> None:
    response = client.post("/play/quick/", {"game": "boardroom"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.game_kind == "boardroom"
    game = Game.objects.get(table=table)
    me = next(i for i, p in enumerate(game.players) if not p["bot"])
    assert game.seat_count == 4 and game.state["turn"] == me


def test_play_vs_bots_seats_up_to_five_bots_each_at_its_level(client: Client) -> None:
    page = client.get("/play/bots/?game=boardroom").content.decode()
    assert 'name="bot_5"' in page and 'name="game" value="boardroom"' in page
    response = client.post("/play/bots/", {
        "game": "boardroom", "name": "Ann", "preset": "standard", "turn_seconds": 0,
        "response_seconds": 60, **{f"bot_{i}": lvl for i, lvl in
                                   enumerate(["easy", "medium", "easy", "medium", "easy"], 1)}})
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get()
    assert game.game_kind == "boardroom" and game.seat_count == 6
    assert sorted(p["bot"] for p in game.players) == [False] + [True] * 5


def test_no_game_a_person_starts_from_the_site_can_end_at_a_turn_cap(client: Client) -> None:
    from games.boardroom.engine import apply, view
    from games.boardroom.engine.rules import cap_in_force

    # The seed: "There is no limit on laps or time." Fields a page never shows are ignored.
    extra = {"turnCap": 10, "capPeople": "true", "cap_people": "true"}
    client.post("/play/quick/", {"game": "boardroom", **extra})
    client.post("/play/bots/", {"game": "boardroom", "name": "Ann", "preset": "standard",
                                "turn_seconds": 0, "response_seconds": 60, "bot_1": "easy",
                                **extra})
    for game in Game.objects.all():
        me = next(i for i, p in enumerate(game.players) if not p["bot"])
        assert game.state["cap_people"] is False and not cap_in_force(game.state)
        assert view(game.state, me)["turn_cap"] is None
        # Far past the bots' cap, the person's turn passes and the game goes on.
        st = {**game.state, "turn_number": 5000, "dice_queue": [[4, 6]]}  # to the audit tile
        assert st["turn"] == me and st["pos"][me] == 0
        st = apply(apply(st, me, {"type": "roll"}).state, me, {"type": "end_turn"}).state
        assert st["result"] is None and st["turn"] != me and st["turn_number"] == 5001
    assert Game.objects.count() == 2


def test_start_a_table_opens_a_boardroom_table_of_up_to_six(client: Client) -> None:
    page = client.get("/tables/new/?game=boardroom").content.decode()
    assert '<option value="6"' in page and 'value="custom"' not in page
    response = client.post("/tables/new/", {
        "game": "boardroom", "name": "Ann", "preset": "standard", "max_seats": 6,
        "turn_seconds": 300, "response_seconds": 60})
    assert response.status_code == 302, response.content.decode()[:500]
    table = Table.objects.get()
    assert table.game_kind == "boardroom" and table.max_seats == 6


def test_a_finished_boardroom_game_has_a_replay_page_and_an_export(client: Client) -> None:
    from django.urls import reverse

    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.interface import get_game

    engine = get_game("boardroom")
    viewer = Viewer(user_id=None, guest_key="guest-replay-000000000000000000")
    table = services.table_play_vs_bots(viewer=viewer, name="Ann", levels=["easy", "easy"],
                                        game_kind="boardroom", turn_seconds=0,
                                        ruleset_spec={"turnCap": 10, "capPeople": True})
    game = services.current_game(table)
    while game.status == Game.Status.RUNNING:
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), "easy")
        game = services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                           expected_version=game.version)
    assert game.result["placements"]
    page = client.get(reverse("ladder:replay", args=[game.pk]))
    assert page.status_code == 200
    assert "br-replay" in page.content.decode()
    export = client.get(reverse("ladder:export", args=[game.pk])).json()
    assert export["game_kind"] == "boardroom"
    assert export["ruleset"]["bots"] == [p["bot"] for p in export["players"]]
    # The export replays to the same end (the bots and the human-first order travel with it).
    replayed = engine.replay(ruleset=export["ruleset"], seats=export["seats"],
                             seed=export["seed"], actions=export["actions"])
    assert engine.result(replayed)["placements"] == game.result["placements"]


def test_the_boardroom_table_page_mid_game_weighs_under_100_kb_gzip(client: Client) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from page_weight import BUDGET, weigh

    from games.platform import services
    from games.platform.interface import get_game

    engine = get_game("boardroom")
    client.post("/play/quick/", {"game": "boardroom"})
    game = Game.objects.get()
    for _ in range(60):  # a few rounds in: owners, buildings and a log
        game.refresh_from_db()
        seat = engine.to_decide(game.state)[0]
        services.table_apply_action(
            game_id=game.pk, seat=seat, expected_version=game.version,
            action=engine.bot_action(engine.view(game.state, seat), "medium"))
    html = client.get(f"/t/{game.table.code}/").content.decode()
    assert "boardroom/board.css" in html and "boardroom/board.js" in html
    result = weigh(html)
    print("boardroom table page, gzip bytes:", result["total_gzip"])
    assert result["total_gzip"] < BUDGET, result


def test_leaving_a_running_boardroom_game_goes_bankrupt_to_the_bank() -> None:
    from games.platform import services
    from games.platform.identity import Viewer
    from games.platform.models import GameAction

    ann = Viewer(user_id=None, guest_key="guest-leaver-00000000000000000")
    table = services.table_play_vs_bots(viewer=ann, name="Ann", levels=["easy", "easy"],
                                        game_kind="boardroom", turn_seconds=0)
    game = services.current_game(table)
    me = next(i for i, p in enumerate(game.players) if not p["bot"])
    services.seat_leave(table_id=table.pk, viewer=ann)
    game.refresh_from_db()
    assert game.state["active"][me] is False
    assert game.state["bankrupt"] == [me]
    row = GameAction.objects.get(game=game)
    assert row.source == "leave" and row.seat == me
    assert game.status == Game.Status.RUNNING  # two bots play on
