"""Choosing Commonwealth on the site's pages, its rules page drawn from the engine's data
table, its table page, replay and export."""

from __future__ import annotations

import pytest
from commonwealth_site_helpers import ENGINE, play_to_the_end
from django.test import Client
from django.urls import reverse

from games.commonwealth.engine import data
from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction, Seat, Table

pytestmark = pytest.mark.django_db


def test_the_home_page_offers_commonwealth_and_its_page_links_its_rules_page(
        client: Client) -> None:
    assert 'id="quick-play-commonwealth"' in client.get("/").content.decode()
    html = client.get("/games/commonwealth/").content.decode()
    assert 'id="quick-play-commonwealth"' in html and 'href="/rules/commonwealth"' in html
    assert "/play/bots/?game=commonwealth" in html and "/tables/new/?game=commonwealth" in html


def test_the_commonwealth_page_offers_a_quick_match_like_boardroom_s(client: Client) -> None:
    html = client.get("/games/commonwealth/").content.decode()
    assert 'href="/ladder/play/?game=commonwealth" id="quick-match-commonwealth"' in html


def test_the_home_page_says_commonwealth_is_won_by_placing_all_ten_chips_first(
        client: Client) -> None:
    html = " ".join(client.get("/").content.decode().split())
    assert "be the first to place all 10 of your contribution chips" in html


def test_the_rules_page_shows_every_project_space_and_card_from_the_data_table(
        client: Client) -> None:
    response = client.get("/rules/commonwealth")
    assert response.status_code == 200
    html = response.content.decode()
    for p in data.PROJECTS:
        row = (f"<td>{p['space']}</td><td>{p['name']}</td>").replace("'", "&#x27;")
        assert row in html, p["name"]
        assert f"<td>{p['price']}</td><td>{p['slots']}</td><td>{p['fee']}</td>" \
               f"<td>{p['payout']}</td>" in html
    for card in data.CARDS:
        assert card["title"] in html
    assert "×8" in html and "×16" in html  # the keep-until-used split
    assert f"<strong>{data.FUND_START}</strong>" in html
    assert html.count("Community Shuttle ") >= 4


def test_the_rules_page_says_what_a_deal_is_and_that_the_fund_pays_the_jail_fee_last(
        client: Client) -> None:
    html = client.get("/rules/commonwealth").content.decode()
    assert ('<span id="deal-rule">A deal hands over at least one project or the Pardon card; '
            'cash alone is not a deal.</span>') in html
    assert "The Fund pays only what all the players together cannot" in html
    assert "cash moved in a deal meanwhile still pays the fee" in html


def test_the_rules_page_says_the_fund_pays_nothing_for_a_seat_that_handed_its_cash_away(
        client: Client) -> None:
    html = client.get("/rules/commonwealth").content.decode()
    assert ("nobody takes the Fund’s money through a deal: once you have handed more cash to "
            "others in deals than you got back, the Fund pays nothing for you until your turn "
            "passes on") in html


def test_quick_play_commonwealth_starts_a_four_seat_game_against_three_bots(
        client: Client) -> None:
    response = client.post("/play/quick/", {"game": "commonwealth"})
    assert response.status_code == 302
    table = Table.objects.get()
    game = Game.objects.get(table=table)
    assert table.game_kind == game.game_kind == "commonwealth"
    assert game.seat_count == 4 and sum(p["bot"] for p in game.players) == 3


def test_play_vs_bots_seats_one_to_three_bots_each_at_its_level(client: Client) -> None:
    page = client.get("/play/bots/?game=commonwealth").content.decode()
    assert 'name="bot_3"' in page and 'name="bot_4"' not in page
    response = client.post("/play/bots/", {
        "game": "commonwealth", "name": "Ann", "preset": "standard", "turn_seconds": 0,
        "response_seconds": 60, "bot_1": "hard", "bot_2": "easy", "bot_3": "medium"})
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get()
    assert game.game_kind == "commonwealth" and game.seat_count == 4


def test_start_a_table_opens_a_commonwealth_table_of_two_to_four(client: Client) -> None:
    page = client.get("/tables/new/?game=commonwealth").content.decode()
    assert '<option value="4"' in page and '<option value="5"' not in page
    assert 'value="custom"' not in page
    response = client.post("/tables/new/", {
        "game": "commonwealth", "name": "Ann", "preset": "standard", "max_seats": 4,
        "turn_seconds": 300, "response_seconds": 60})
    assert response.status_code == 302, response.content.decode()[:500]
    table = Table.objects.get()
    assert table.game_kind == "commonwealth" and table.max_seats == 4


def test_the_table_page_shows_the_board_the_fund_both_dice_and_a_decision(
        client: Client) -> None:
    client.post("/play/quick/", {"game": "commonwealth"})
    game = Game.objects.get()
    html = client.get(f"/t/{game.table.code}/").content.decode()
    assert html.count('class="cw-space ') == 40
    assert 'id="fund-amount" data-fund="1848"' in html
    assert 'class="die action' in html and 'id="dice"' in html
    assert "commonwealth/board.css" in html and "commonwealth/board.js" in html


def test_a_finished_game_has_a_replay_page_and_an_export_that_replays_to_the_same_end(
        client: Client) -> None:
    viewer = Viewer(user_id=None, guest_key="guest-replay-000000000000000000")
    table = services.table_play_vs_bots(viewer=viewer, name="Ann", levels=["medium"],
                                        game_kind="commonwealth", turn_seconds=0)
    game = play_to_the_end(services.current_game(table), "medium")
    assert game.result["placements"]
    page = client.get(reverse("ladder:replay", args=[game.pk]))
    assert page.status_code == 200 and "cw-replay" in page.content.decode()
    export = client.get(reverse("ladder:export", args=[game.pk])).json()
    assert export["game_kind"] == "commonwealth"
    replayed = ENGINE.replay(ruleset=export["ruleset"], seats=export["seats"],
                             seed=export["seed"], actions=export["actions"])
    assert ENGINE.result(replayed)["placements"] == game.result["placements"]


def test_a_ruined_community_says_everyone_lost_on_the_table(client: Client) -> None:
    viewer = Viewer(user_id=None, guest_key="guest-ruined-000000000000000000")
    table = services.table_play_vs_bots(viewer=viewer, name="Ann", levels=["easy"],
                                        game_kind="commonwealth", turn_seconds=0)
    game = services.current_game(table)
    state = dict(game.state)
    state["bank"] += state["fund"] - 40
    state["fund"] = 40  # one Shuttle ride from ruin
    state["step"] = {"kind": "shuttle", "from": 5}
    game.state = state
    game.save(update_fields=["state"])
    seat = state["turn"]
    game = services.table_apply_action(game_id=game.pk, seat=seat, expected_version=game.version,
                                       action={"type": "ride", "to": 6})
    assert game.status == Game.Status.FINISHED and game.result["end_reason"] == "fund_dry"
    assert ENGINE.ladder_places(game.result).everyone_lost
    table.refresh_from_db()
    html = client.get(table.invite_path).content.decode()
    assert "The Community Fund ran dry: everyone lost" in html


def test_leaving_a_running_game_retires_nobody_a_bot_plays_the_seat() -> None:
    ann = Viewer(user_id=None, guest_key="guest-leaver-00000000000000000")
    table = services.table_play_vs_bots(viewer=ann, name="Ann", levels=["easy", "easy"],
                                        game_kind="commonwealth", turn_seconds=0)
    game = services.current_game(table)
    me = next(i for i, p in enumerate(game.players) if not p["bot"])
    services.seat_leave(table_id=table.pk, viewer=ann)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert not GameAction.objects.filter(game=game, source="leave").exists()
    assert Seat.objects.get(table=table, game_seat=me).away  # the stand-in bot plays it
    assert game.state["players"][me]["supply"] == 10


def test_the_table_page_mid_game_weighs_under_100_kb_gzip(client: Client) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from page_weight import BUDGET, weigh

    client.post("/play/quick/", {"game": "commonwealth"})
    game = Game.objects.get()
    for _ in range(120):  # a few rounds in: managers, chips and a long log
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        seat = ENGINE.to_decide(game.state)[0]
        services.table_apply_action(
            game_id=game.pk, seat=seat, expected_version=game.version,
            action=ENGINE.bot_action(ENGINE.view(game.state, seat), "medium"))
    html = client.get(f"/t/{game.table.code}/").content.decode()
    result = weigh(html)
    print("commonwealth table page, gzip bytes:", result["total_gzip"])
    assert result["total_gzip"] < BUDGET, result
