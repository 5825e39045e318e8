"""The HTTP side of tables: start-a-table form, table page, lobby forms, public list, move link."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.platform.identity import GUEST_SESSION_KEY
from games.platform.models import Game, Seat, Table

pytestmark = pytest.mark.django_db

CUSTOM_DEFAULTS = {
    "winRule": "finalApproach", "setsToWin": "3", "suddenDeath": "off",
    "deck_inspector_general": "2", "deck_opsec": "3", "deck_midnight_requisition": "3",
    "deck_tdy_orders": "3", "deck_finance_office": "3", "deck_roll_call": "3",
    "deck_pcs_orders": "10", "deck_upgrade": "3", "deck_foc": "2", "deck_surge_ops": "2",
    "deck_chud": "2", "deck_wildAny": "2", "deck_wildPairs": "7",
}


def new_table(client: Client, **fields: str) -> Table:
    data = {"name": "Alice", "preset": "chudopoly", "max_seats": "4", "turn_seconds": "60",
            "response_seconds": "45", **CUSTOM_DEFAULTS, **fields}
    response = client.post("/tables/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(code=response["Location"].strip("/").split("/")[-1])


def test_the_form_offers_every_preset_toggle_and_deck_count(client: Client) -> None:
    html = client.get("/tables/new/").content.decode()
    for preset in ("Chudopoly", "MD Faithful", "Blitz", "Long Game", "Custom"):
        assert f">{preset}</option>" in html
    for toggle in ("winRule", "setsToWin", "pureSetRequired", "counterCostsPlay",
                   "passGoRestartsTurn", "suddenDeath"):
        assert f'name="{toggle}"' in html
    assert len(re.findall(r'name="deck_\w+"', html)) == 13


def test_starting_a_table_makes_the_guest_its_host_and_shows_the_invite_link(
        client: Client) -> None:
    table = new_table(client, preset="blitz", is_public="on")
    assert table.ruleset_label == "Blitz" and table.is_public
    seat = table.seats.get()
    assert seat.guest_key == client.session[GUEST_SESSION_KEY]
    html = client.get(f"/t/{table.code}/").content.decode()
    assert f"/t/{table.code}/" in html and 'ws-connect="/ws/table/' in html
    assert "Add a bot" in html and "Start the game" in html


def test_custom_rules_are_validated_by_the_engine_next_to_the_field(client: Client) -> None:
    response = client.post("/tables/new/", {
        "name": "Alice", "preset": "custom", "max_seats": "4", "turn_seconds": "60",
        "response_seconds": "45", **CUSTOM_DEFAULTS, "deck_chud": "13"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_deck_chud-error"' in html and "Invalid count" in html
    assert not Table.objects.exists()


def test_a_deck_of_the_wrong_size_is_refused_above_the_deck_counts(client: Client) -> None:
    zeros = {k: "0" for k in CUSTOM_DEFAULTS if k.startswith("deck_")}
    response = client.post("/tables/new/", {
        "name": "Alice", "preset": "custom", "max_seats": "4", "turn_seconds": "60",
        "response_seconds": "45", **CUSTOM_DEFAULTS, **zeros})
    assert "Deck must hold 80–130 cards (that one holds 61)" in response.content.decode()


def test_custom_rules_reach_the_table(client: Client) -> None:
    table = new_table(client, preset="custom", setsToWin="4", suddenDeath="escalate",
                      pureSetRequired="on", deck_chud="3")
    assert table.ruleset["setsToWin"] == 4 and table.ruleset["suddenDeath"] == "escalate"
    assert table.ruleset["pureSetRequired"] is True and table.ruleset["deck"]["chud"] == 3
    assert table.ruleset_label == "Custom"


def test_a_bad_call_sign_is_shown_next_to_the_name(client: Client) -> None:
    response = client.post("/tables/new/", {"name": "-x", "preset": "chudopoly",
                                            "max_seats": "4", "turn_seconds": "60",
                                            "response_seconds": "45"})
    assert response.status_code == 200
    assert 'id="id_name-error"' in response.content.decode()


def test_a_friend_with_the_link_takes_a_seat_and_the_host_starts(client: Client) -> None:
    table = new_table(client)
    invite = re.search(r'<code id="invite-url"[^>]*>([^<]+)<',
                       client.get(f"/t/{table.code}/").content.decode()).group(1)
    friend = Client()
    page = friend.get(invite.replace("&amp;", "&")).content.decode()
    assert "Take a seat" in page
    token = re.search(r'name="invite" value="([\w-]+)"', page).group(1)
    friend.post(f"/t/{table.code}/join/", {"name": "Bob", "invite": token})
    assert table.seats.count() == 2
    assert "Bob" in friend.get(f"/t/{table.code}/").content.decode()
    # Only the host sees the start button working; Bob's start is refused.
    friend.post(f"/t/{table.code}/start/")
    assert not Game.objects.exists()
    client.post(f"/t/{table.code}/start/")
    assert Game.objects.get().seat_count == 2
    html = friend.get(f"/t/{table.code}/").content.decode()
    assert 'id="hand"' in html and "Your hand" in html


def test_the_host_adds_and_removes_bots_from_the_page(client: Client) -> None:
    table = new_table(client)
    client.post(f"/t/{table.code}/bots/", {"level": "basic"})
    bot = table.seats.get(is_bot=True)
    client.post(f"/t/{table.code}/bots/{bot.pk}/remove/")
    assert not table.seats.filter(is_bot=True).exists()


def test_a_table_code_in_lower_case_redirects_to_the_real_one(client: Client) -> None:
    table = new_table(client)
    response = client.get(f"/t/{table.code.lower()}/")
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    assert client.get("/t/QQQQ/").status_code == 404


def test_public_tables_are_listed_on_the_home_page(client: Client) -> None:
    public = new_table(client, preset="longGame", is_public="on")
    private = new_table(Client())
    html = client.get("/").content.decode()
    assert public.code in html and "Long Game" in html and "1/4 seats" in html
    assert private.code not in html


def test_a_spectator_sees_the_public_view_only(client: Client) -> None:
    table = new_table(client)
    client.post(f"/t/{table.code}/bots/")
    client.post(f"/t/{table.code}/start/")
    game = Game.objects.get()
    html = Client().get(table.invite_path).content.decode()
    assert "Your hand" not in html
    shown = {int(x) for x in re.findall(r'data-card-id="(\d+)"', html)}
    hands = {c for p in game.state["players"] for c in p["hand"]}
    assert not shown & hands


def test_the_move_seat_link_moves_the_seat_to_the_browser_that_opens_it(client: Client) -> None:
    table = new_table(client)
    page = client.post(f"/t/{table.code}/move/").content.decode()
    link = re.search(r'(http://testserver/t/\w+/move/[\w-]+/)', page).group(1)
    phone = Client()
    path = link.replace("http://testserver", "")
    assert "Take my seat here" in phone.get(path).content.decode()
    assert Seat.objects.get().guest_key != phone.session.get(GUEST_SESSION_KEY)
    phone.post(path)
    assert Seat.objects.get().guest_key == phone.session[GUEST_SESSION_KEY]
    # The link worked once.
    other = Client()
    other.post(path)
    assert Seat.objects.get().guest_key == phone.session[GUEST_SESSION_KEY]


def test_a_signed_in_player_plays_as_themselves(client: Client, django_user_model) -> None:
    user = django_user_model.objects.create_user(username="bea", password="pw-1234-long")
    client.force_login(user)
    html = client.get("/tables/new/").content.decode()
    assert 'name="name"' not in html  # no call sign to pick
    table = new_table(client, name="")
    seat = table.seats.get()
    assert seat.user_id == user.pk and seat.name == "bea" and seat.guest_key is None
    assert "you</span>" in client.get(f"/t/{table.code}/").content.decode()


def test_the_invite_link_is_shown_whole_with_a_copy_button(client: Client) -> None:
    table = new_table(client)
    html = client.get(f"/t/{table.code}/").content.decode()
    shown = re.search(r'<code id="invite-url"[^>]*>([^<]*)</code>', html).group(1)
    assert shown == f"http://testserver{table.invite_path}"  # the whole link, as text
    assert 'data-copy="#invite-url"' in html and ">Copy</button>" in html


def test_the_move_seat_page_has_copy_and_a_qr_code(client: Client) -> None:
    table = new_table(client)
    html = client.post(f"/t/{table.code}/move/").content.decode()
    assert 'data-copy="#move-url"' in html
    qr = html[html.index('id="move-qr"'):]
    assert qr.index("<svg") < qr.index("</svg>") and "<path" in qr


def test_opening_the_move_seat_address_with_get_shows_a_page_not_a_405(client: Client) -> None:
    table = new_table(client)
    response = client.get(f"/t/{table.code}/move/")
    assert response.status_code == 200
    assert "Make a move-seat link" in response.content.decode()
    assert table.seats.get().move_token is None  # looking made no link


def test_a_used_move_link_says_so_when_opened(client: Client) -> None:
    table = new_table(client)
    page = client.post(f"/t/{table.code}/move/").content.decode()
    path = re.search(r'http://testserver(/t/\w+/move/[\w-]+/)', page).group(1)
    Client().post(path)
    html = Client().get(path).content.decode()
    assert "no longer works" in html and "Take my seat here" not in html


def test_the_home_page_lists_public_games_in_progress_to_watch(client: Client) -> None:
    playing = new_table(client, preset="blitz", is_public="on")
    client.post(f"/t/{playing.code}/bots/")
    client.post(f"/t/{playing.code}/start/")
    waiting = new_table(Client(), is_public="on")
    html = Client().get("/").content.decode()
    watch = html[html.index('id="watch-heading"'):]
    assert f"/t/{playing.code}/" in watch and "Watch Alice" in watch
    assert waiting.code not in watch and waiting.code in html


def test_a_player_is_not_told_they_are_watching(client: Client) -> None:
    table = new_table(client)
    assert 'id="watching"' not in client.get(f"/t/{table.code}/").content.decode()
    assert 'id="watching"' in Client().get(table.invite_path).content.decode()


def test_a_mistyped_invite_code_gets_the_sites_own_404_even_in_debug(client: Client,
                                                                   settings) -> None:
    settings.DEBUG = True
    response = client.get("/t/QQQQ/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "That page is not on the table" in html and "/t/QQQQ/" in html
    assert "Django" not in html  # not the technical 404 page


def test_a_private_table_opens_by_its_invite_link_not_by_its_code(client: Client) -> None:
    table = new_table(client)
    assert len(table.invite_token) >= 20
    stranger = Client()
    assert stranger.get(f"/t/{table.code}/").status_code == 404  # the same as no table at all
    assert stranger.get(f"/t/{table.code}/?invite=wrong").status_code == 404
    assert stranger.post(f"/t/{table.code}/join/", {"name": "Eve"}).status_code == 404
    assert table.seats.count() == 1
    assert stranger.get(table.invite_path).status_code == 200
    # The host, seated, opens it by its code alone, and sees the whole invite link.
    page = client.get(f"/t/{table.code}/").content.decode()
    assert f"?invite={table.invite_token}" in page


def test_a_public_table_keeps_its_short_code(client: Client) -> None:
    table = new_table(client, is_public="on")
    assert table.invite_token == "" and table.invite_path == f"/t/{table.code}/"
    assert Client().get(f"/t/{table.code}/").status_code == 200


def test_a_seated_friend_comes_back_without_the_link(client: Client) -> None:
    table = new_table(client)
    friend = Client()
    friend.post(f"/t/{table.code}/join/", {"name": "Bob", "invite": table.invite_token})
    assert table.seats.count() == 2
    assert friend.get(f"/t/{table.code}/").status_code == 200


def test_a_full_private_table_sends_a_visitor_back_with_the_link(client: Client) -> None:
    table = new_table(client, max_seats="2")
    Client().post(f"/t/{table.code}/join/", {"name": "Bob", "invite": table.invite_token})
    late = Client()
    response = late.post(f"/t/{table.code}/join/", {"name": "Cy", "invite": table.invite_token})
    assert response["Location"] == table.invite_path
    assert late.get(response["Location"]).status_code == 200


def test_guessing_codes_from_one_address_is_throttled(client: Client, settings) -> None:
    """Unknown codes and private codes without the token count alike; past the limit every
    table that address is not admitted to answers 429 with the site's page, whether the code
    exists or not, while the invite link and the seated players still work."""
    table = new_table(client)
    scanner = Client(REMOTE_ADDR="203.0.113.50")
    statuses = [scanner.get(f"/t/Z{n:03d}/").status_code
                for n in range(settings.TABLE_MISSES_PER_CLIENT)]
    assert set(statuses) == {404}
    refused = scanner.get(f"/t/{table.code}/")
    assert refused.status_code == 429 and "Too many tries" in refused.content.decode()
    assert scanner.get("/t/QQQQ/").status_code == 429
    assert scanner.get(table.invite_path).status_code == 200
    assert client.get(f"/t/{table.code}/").status_code == 200
    assert Client(REMOTE_ADDR="203.0.113.51").get("/t/QQQQ/").status_code == 404
