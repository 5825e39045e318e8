"""The site reads as one site of three games: a home page with the games side by side (each
its picture, its pitch and one way to start), a page per game, one rules entry in the
navigation, and a footer and README that describe the site rather than one game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import registered_games
from ladder.models import Rating

pytestmark = pytest.mark.django_db

GAMES = ("chudopoly", "boardroom", "commonwealth")


def _between(html: str, start: str, end: str) -> str:
    return html[html.index(start):html.index(end, html.index(start))]


def _card(html: str, kind: str) -> str:
    return _between(html, f'<article class="game-card" id="home-{kind}"', "</article>")


def test_the_site_has_the_three_games_in_this_order() -> None:
    assert tuple(registered_games()) == GAMES


def test_the_home_page_offers_the_three_games_each_with_a_picture_and_one_way_to_start(
        client: Client) -> None:
    html = client.get("/").content.decode()
    positions = [html.index(f'id="home-{kind}"') for kind in GAMES]
    assert positions == sorted(positions)
    for kind in GAMES:
        card = _card(html, kind)
        assert '<svg class="game-picture"' in card
        assert len(re.findall(r"<button\b", card)) == 1 and card.count("<form") == 1
        assert 'class="button' not in card  # no second, competing start
        assert f'id="quick-play-{kind}">Play vs bots' in card
        assert f'<input type="hidden" name="game" value="{kind}">' in card
        assert f'href="/games/{kind}/"' in card


def test_each_game_s_page_has_its_quick_match_tables_ladder_and_rules(client: Client) -> None:
    for kind in GAMES:
        response = client.get(f"/games/{kind}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert f'id="quick-play-{kind}"' in html
        assert f'href="/play/bots/?game={kind}"' in html
        assert f'href="/tables/new/?game={kind}"' in html
        assert f'href="/ladder/play/?game={kind}" id="quick-match-{kind}"' in html
        assert 'id="game-tables"' in html and 'id="public-tables"' in html
        assert 'id="game-ladder"' in _between(html, 'id="game-ladder"', "</section>")
        assert f'href="/rules/{kind}" id="game-rules"' in html
    assert client.get("/games/no-such-game/").status_code == 404


def test_a_game_s_page_shows_its_ladder_s_first_players(client: Client,
                                                       django_user_model) -> None:
    user = django_user_model.objects.create_user(username="bea")
    Rating.objects.create(user=user, game_kind="boardroom", ladder="standard", rating=1531.6,
                          games=2)
    ladder = _between(client.get("/games/boardroom/").content.decode(), 'id="game-ladder"',
                      "</section>")
    assert 'href="/ladder/boardroom/standard/"' in ladder
    assert ">bea</a> <strong>1532?</strong>" in ladder
    chudopoly = client.get("/games/chudopoly/").content.decode()
    assert "Nobody has played a rated game here yet." in chudopoly and ">bea<" not in chudopoly


def test_a_game_s_page_lists_only_its_own_public_tables_and_the_home_page_names_the_game(
        client: Client) -> None:
    ann = Viewer(user_id=None, guest_key="guest-ann-000000000000000000")
    ben = Viewer(user_id=None, guest_key="guest-ben-000000000000000000")
    board = services.table_create(viewer=ann, name="Ann", ruleset_spec={}, is_public=True,
                                  game_kind="boardroom")
    cards = services.table_create(viewer=ben, name="Ben", ruleset_spec={}, is_public=True,
                                  game_kind="chudopoly")
    page = client.get("/games/boardroom/").content.decode()
    assert board.code in page and cards.code not in page
    home = client.get("/").content.decode()
    listed = _between(home, 'id="open-tables"', "</ul>")
    assert f"{board.code}</span> · Boardroom ·" in listed
    assert f"{cards.code}</span> · Chudopoly ·" in listed


def test_a_game_s_page_offers_to_continue_its_own_games_against_bots(client: Client) -> None:
    session = client.session
    session[GUEST_SESSION_KEY] = "guest-cal-000000000000000000"
    session.save()
    me = Viewer(user_id=None, guest_key="guest-cal-000000000000000000")
    table = services.table_play_vs_bots(viewer=me, name="Cal", levels=["easy"],
                                        game_kind="commonwealth")
    assert f'href="/t/{table.code}/"' in client.get("/").content.decode()
    mine = client.get("/games/commonwealth/").content.decode()
    assert 'id="continue-games"' in mine and f'href="/t/{table.code}/"' in mine
    assert 'id="continue-games"' not in client.get("/games/boardroom/").content.decode()


@pytest.mark.parametrize("path", ["/", "/games/boardroom/", "/rules", "/rules/commonwealth",
                                  "/ladder/", "/no-such-page/"])
def test_the_navigation_has_one_rules_entry_and_the_footer_describes_the_site(
        client: Client, path: str) -> None:
    html = client.get(path).content.decode()
    nav = _between(html, '<nav aria-label="Main">', "</nav>")
    assert re.findall(r'href="(/rules[^"]*)"', nav) == ["/rules"]
    footer = _between(html, '<footer class="site-footer">', "</footer>")
    assert "a free site of three games of the Monopoly family" in footer
    assert "Chudopoly, Boardroom and Commonwealth" in footer
    assert "same kind as Monopoly Deal" not in footer


def test_the_rules_index_links_every_game_s_rules_page(client: Client) -> None:
    html = client.get("/rules").content.decode()
    for kind in GAMES:
        entry = _between(html, f'id="rules-{kind}"', "</li>")
        assert f'href="/rules/{kind}"' in entry and '<svg class="game-picture"' in entry


def test_the_readme_opens_with_the_site_of_three_games() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    opening = readme.split("\n\n")[1]
    for name in ("Chudopoly", "Boardroom", "Commonwealth"):
        assert name in opening
    assert "three games" in opening
