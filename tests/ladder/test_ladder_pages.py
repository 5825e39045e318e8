"""Ladder pages: the method, leaderboards with paging and your rank, history filters, the
profile's ratings and chart, and the quick-match page without a socket."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from ladder_helpers import ago, recorded_game, set_rating, ticket

from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Table
from ladder import queries
from ladder.models import QueueTicket, Rating

pytestmark = pytest.mark.django_db


def _client_for(viewer: Viewer) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=viewer.user_id))
    return client


def _players(n: int, ladder: str = "chudopoly") -> list:
    users = []
    for i in range(n):
        user = get_user_model().objects.create_user(username=f"p{i:02d}")
        Rating.objects.create(user=user, ladder=ladder, rating=2000 - i * 10, games=12)
        users.append(user)
    return users


def test_the_ladder_pages_explain_the_rating_method(client: Client) -> None:
    for url in (reverse("ladder:index"), reverse("ladder:leaderboard", args=["blitz"])):
        text = client.get(url).content.decode()
        assert "How ratings work" in text
        assert "K</var> / (<var>N</var> − 1)" in text and "1500" in text
        assert "shown with a “?”" in text


def test_an_unknown_ladder_is_404(client: Client) -> None:
    assert client.get(reverse("ladder:leaderboard", args=["custom"])).status_code == 404


def test_the_leaderboard_pages_through_players_with_enough_games(client: Client) -> None:
    _players(30)
    newcomer = get_user_model().objects.create_user(username="newbie")
    Rating.objects.create(user=newcomer, ladder="chudopoly", rating=2500, games=2)
    first = client.get(reverse("ladder:leaderboard", args=["chudopoly"])).content.decode()
    assert len(re.findall(r'<tr id="rank-\d+"', first)) == queries.LEADERBOARD_PAGE == 25
    assert 'id="rank-1"' in first and ">p00<" in first and "newbie" not in first
    second = client.get(reverse("ladder:leaderboard", args=["chudopoly"]) + "?page=2")
    ranks = re.findall(r'<tr id="rank-(\d+)"', second.content.decode())
    assert ranks == ["26", "27", "28", "29", "30"]
    assert "Page 2 of 2" in second.content.decode()


def test_your_own_rank_is_highlighted_and_findable(client: Client) -> None:
    users = _players(30)
    me = users[27]
    client.force_login(me)
    page = client.get(reverse("ladder:leaderboard", args=["chudopoly"])).content.decode()
    assert "rank <strong>#28</strong>" in page
    assert 'href="?page=2">show my page' in page and "is-me" not in page
    mine = client.get(reverse("ladder:leaderboard", args=["chudopoly"]) + "?me=1")
    row = re.search(r'<tr id="rank-28" class="is-me"', mine.content.decode())
    assert row is not None


def test_provisional_ratings_carry_a_question_mark(client: Client) -> None:
    user = get_user_model().objects.create_user(username="fresh")
    Rating.objects.create(user=user, ladder="blitz", rating=1562.4, games=6)
    page = client.get(reverse("ladder:leaderboard", args=["blitz"])).content.decode()
    assert "<td>1562?</td>" in page


def test_history_lists_every_finished_game_with_its_details(alice, bob) -> None:
    recorded_game([(alice, "alice", 1), (bob, "bob", 2), (None, "Bot Alpha", 3)],
                  ladder="blitz", ranked=True, rated=True,
                  changes={alice.user_id: 12.4, bob.user_id: -12.4})
    page = _client_for(alice).get(reverse("ladder:history")).content.decode()
    assert "Blitz" in page and "ranked" in page and "1st" in page
    assert "1512 <span class=\"delta\">(+12)</span>" in page
    assert ">bob</a>" in page and "Bot Alpha" in page and "(bot)" in page


def test_history_filters_by_preset_and_by_ranked_or_casual(alice, bob) -> None:
    recorded_game([(alice, "alice", 1), (bob, "bob", 2)], ladder="blitz", ranked=True)
    recorded_game([(alice, "alice", 2), (bob, "bob", 1)], ladder="blitz")
    recorded_game([(alice, "alice", 1), (bob, "bob", 2)], ladder="longGame")
    recorded_game([(alice, "alice", 1), (bob, "bob", 2)], ladder="custom")
    client = _client_for(alice)

    def rows(query: str) -> int:
        html = client.get(reverse("ladder:history") + query).content.decode()
        return len(re.findall(r'<tr id="result-\d+"', html))

    assert rows("") == 4
    assert rows("?preset=blitz") == 2
    assert rows("?preset=blitz&kind=ranked") == 1
    assert rows("?kind=casual") == 3
    assert rows("?preset=custom") == 1


def test_history_pages_keep_their_filters(alice, bob, monkeypatch) -> None:
    monkeypatch.setattr(queries, "HISTORY_PAGE", 2)
    start = timezone.now()
    for i in range(5):
        recorded_game([(alice, "alice", 1), (bob, "bob", 2)], ladder="blitz",
                      when=start - timedelta(minutes=i))
    client = _client_for(alice)
    first = client.get(reverse("ladder:history") + "?preset=blitz").content.decode()
    assert "Page 1 of 3" in first and 'href="?preset=blitz&amp;page=2"' in first
    last = client.get(reverse("ladder:history") + "?preset=blitz&page=3").content.decode()
    assert len(re.findall(r'<tr id="result-\d+"', last)) == 1


def test_anyone_can_read_a_players_history_by_name(alice, bob) -> None:
    recorded_game([(alice, "alice", 1), (bob, "bob", 2)])
    page = Client().get(reverse("ladder:history") + "?player=bob").content.decode()
    assert "bob’s games" in page and "2nd" in page


def test_a_guest_sees_the_games_of_their_browser(guest_gus) -> None:
    recorded_game([(guest_gus, "Gus", 1), (None, "Bot Bravo", 2)])
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = guest_gus.guest_key
    session.save()
    page = client.get(reverse("ladder:history")).content.decode()
    assert "Your games" in page and "Bot Bravo" in page


def test_the_profile_shows_ratings_ranks_chart_and_games_per_preset(alice, bob) -> None:
    for i, change in enumerate((10.0, -5.0, 20.0)):
        recorded_game([(alice, "alice", 1 if change > 0 else 2), (bob, "bob", 2)],
                      ladder="blitz", ranked=True, rated=True, changes={alice.user_id: change},
                      when=ago(300 - i))
    recorded_game([(alice, "alice", 1), (bob, "bob", 2)], ladder="longGame")
    set_rating(alice, "blitz", 1525, games=3)
    set_rating(bob, "blitz", 1400, games=8)
    page = Client().get(reverse("accounts:profile_detail", args=["alice"])).content.decode()
    blitz = page[page.index('id="standing-blitz"'):page.index('id="standing-longGame"')]
    assert "1525?" in blitz and "3 games · 2 wins" in blitz
    assert "<svg" in blitz and "<polyline" in blitz and "over 3 rated games" in blitz
    assert "not ranked yet (3 of 5 games)" in blitz
    long_game = page[page.index('id="standing-longGame"'):]
    assert "1 game · 1 win" in long_game and "No rated games yet." in long_game


def test_a_player_with_enough_games_sees_their_rank_on_the_profile(alice, bob) -> None:
    set_rating(alice, "chudopoly", 1600, games=12)
    set_rating(bob, "chudopoly", 1650, games=12)
    page = Client().get(reverse("accounts:profile_detail", args=["alice"])).content.decode()
    assert "rank <strong>#2</strong>" in page


def test_the_rating_chart_scales_points_into_the_box() -> None:
    now = timezone.now()
    chart = queries.rating_chart([(now, 1500.0), (now, 1520.0), (now, 1480.0)])
    assert chart is not None and chart["hi"] == 1520 and chart["lo"] == 1480
    xs = [float(p.split(",")[0]) for p in chart["points"].split()]
    ys = [float(p.split(",")[1]) for p in chart["points"].split()]
    assert xs[0] == chart["pad"] and xs[-1] == chart["right"]
    assert min(ys) == chart["pad"] and max(ys) == chart["bottom"]
    assert queries.rating_chart([(now, 1500.0)]) is None


def test_the_queue_page_joins_shows_the_wait_and_leaves(client: Client) -> None:
    form = client.get(reverse("ladder:queue")).content.decode()
    assert "Find a table" in form and 'name="name"' in form
    response = client.post(reverse("ladder:queue"), {"preset": "blitz", "seats": "3",
                                                      "mode": "casual", "name": "Gus"})
    assert response["Location"] == reverse("ladder:queue")
    page = client.get(reverse("ladder:queue")).content.decode()
    assert "Waiting in the Blitz 3-player casual queue" in page
    # A guest has no rating, so a casual queue shows no rating window.
    assert 'id="queue-count">1<' in page and "rating window" not in page
    assert 'ws-connect="/ws/queue/"' in page and "fill the table with bots in 30 s" in page
    client.post(reverse("ladder:queue_leave"))
    assert QueueTicket.objects.get().status == QueueTicket.Status.CANCELLED
    assert "Find a table" in client.get(reverse("ladder:queue")).content.decode()


def test_the_queue_page_refuses_ranked_to_guests_with_a_clear_message(client: Client) -> None:
    response = client.post(reverse("ladder:queue"), {"preset": "blitz", "seats": "2",
                                                      "mode": "ranked", "name": "Gus"})
    assert response.status_code == 200
    assert "Ranked queues need an account" in response.content.decode()
    assert not QueueTicket.objects.exists()


def test_a_signed_in_player_queues_without_typing_a_name(alice) -> None:
    client = _client_for(alice)
    assert 'name="name"' not in client.get(reverse("ladder:queue")).content.decode()
    client.post(reverse("ladder:queue"), {"preset": "chudopoly", "seats": "2",
                                          "mode": "ranked"})
    assert QueueTicket.objects.get().name == "alice"


def test_the_bots_button_takes_a_casual_player_straight_to_a_table(client: Client) -> None:
    client.post(reverse("ladder:queue"), {"preset": "blitz", "seats": "2", "mode": "casual",
                                          "name": "Gus"})
    QueueTicket.objects.update(joined_at=ago(40))
    page = client.get(reverse("ladder:queue")).content.decode()
    assert 'id="fill-bots"' in page
    response = client.post(reverse("ladder:queue_bots"))
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING


def test_the_match_button_goes_to_the_table_and_htmx_gets_a_client_redirect(alice, bob) -> None:
    from ladder.services import queue_pair

    ticket(alice)
    ticket(bob)
    (match,) = queue_pair()
    mine = match.tickets.get(user_id=alice.user_id)
    client = _client_for(alice)
    waiting = client.get(reverse("ladder:queue")).content.decode()
    assert "Your table is ready" in waiting
    assert f'action="{reverse("ladder:match_go", args=[mine.pk])}"' in waiting
    response = client.post(reverse("ladder:match_go", args=[mine.pk]), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == match.table.get_absolute_url()
    theirs = match.tickets.get(user_id=bob.user_id)
    response = _client_for(bob).post(reverse("ladder:match_go", args=[theirs.pk]))
    assert response["Location"] == match.table.get_absolute_url()
    assert Table.objects.get(pk=match.table_id).status == Table.Status.PLAYING


def test_a_new_ladder_lists_its_first_players_as_provisional_with_a_question_mark(
        client: Client) -> None:
    fresh = get_user_model().objects.create_user(username="fresh")
    Rating.objects.create(user=fresh, ladder="chudopoly", rating=1512.2, games=2)
    page = client.get(reverse("ladder:leaderboard", args=["chudopoly"])).content.decode()
    provisional = page[page.index('id="provisional"'):]
    assert "fewer than 5 rated games, not ranked yet" in provisional
    assert ">fresh<" in provisional and "<td>1512?</td>" in provisional
    assert 'id="rank-' not in page and "Nobody has" not in page


def test_provisional_players_come_after_every_ranked_player_however_high_their_rating(
        client: Client) -> None:
    _players(2)
    lucky = get_user_model().objects.create_user(username="lucky")
    Rating.objects.create(user=lucky, ladder="chudopoly", rating=2600, games=1)
    page = client.get(reverse("ladder:leaderboard", args=["chudopoly"])).content.decode()
    assert page.index('id="rank-2"') < page.index('id="provisional"') < page.index(">lucky<")
    index = client.get(reverse("ladder:index")).content.decode()
    board = index[index.index('id="board-chudopoly"'):]
    assert board.index(">p00<") < board.index(">p01<") < board.index(">lucky<")
    provisional = board[board.index('<ul class="top-list provisional">'):]
    assert '<li><a href="/accounts/u/lucky/">lucky</a> <strong>2600?' in provisional


def test_a_ladder_nobody_has_played_says_so_and_offers_the_queue(client: Client) -> None:
    page = client.get(reverse("ladder:leaderboard", args=["blitz"])).content.decode()
    assert "Nobody has played a rated game on this ladder yet" in page
    assert 'href="/ladder/play/?game=chudopoly">Play a ranked match</a> to be the first' in page


def test_a_provisional_player_finds_their_row_on_a_later_page(client: Client) -> None:
    _players(30)
    me = get_user_model().objects.create_user(username="newbie")
    Rating.objects.create(user=me, ladder="chudopoly", rating=1400, games=3)
    client.force_login(me)
    first = client.get(reverse("ladder:leaderboard", args=["chudopoly"])).content.decode()
    assert "(provisional: ranked after 5 rated games; you have 3)" in first
    assert 'href="?page=2">show my page' in first
    mine = client.get(reverse("ladder:leaderboard", args=["chudopoly"]) + "?me=1")
    assert '<tr class="is-me" aria-current="true">' in mine.content.decode()
    assert queries.position_of(Rating.objects.get(user=me)) == 31
