"""The table panel of a game against bots (templates/games/_lobby.html, presenters
.lobby_context): no invite link and no "private" (nobody else may join), and the same words at
game over as during the game (its clocks, "Continue on another device")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from tables_helpers import client_of

from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db


def panel(client: Client, table: Table) -> str:
    html = client.get(f"/t/{table.code}/").content.decode()
    found = re.search(r'<section id="lobby".*?</section>', html, re.S)
    assert found is not None
    return found.group(0)


def play_to_the_end(game: Game) -> None:
    engine = get_game(game.game_kind)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), "easy")
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=game.version)
    raise AssertionError("the game did not end")


def test_a_game_against_bots_shows_no_invite_and_keeps_its_words_at_game_over(
        alice: Viewer) -> None:
    table = services.table_play_vs_bots(viewer=alice, name="Ann", levels=["easy"],
                                        game_kind="boardroom",
                                        ruleset_spec={"turnCap": 10, "capPeople": True})
    client = client_of(alice)
    during = panel(client, table)
    assert 'id="invite-url"' not in during and "private" not in during
    assert "no clocks against bots" in during
    assert ">Continue on another device</button>" in during

    play_to_the_end(Game.objects.get(table=table))
    after = panel(client, table)
    assert 'id="invite-url"' not in after and "private" not in after
    assert "no clocks against bots" in after
    assert ">Continue on another device</button>" in after
    assert "Move seat to another device" not in after


def test_a_table_for_people_still_shows_its_invite_link(alice: Viewer) -> None:
    table = services.table_create(viewer=alice, name="Ann", ruleset_spec={},
                                  game_kind="boardroom")
    services.seat_add_bot(table_id=table.pk, viewer=alice, level="easy")
    client = client_of(alice)
    html = panel(client, table)
    assert 'id="invite-url"' in html and "private" in html
