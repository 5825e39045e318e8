"""Boardroom's turn cap ends a game of programs alone: a bot account over the API is one, as
our bots are; a person at the table keeps the game uncapped (the guide: no limit on laps or
time for people)."""

from __future__ import annotations

import pytest
from api_helpers import engine_seat_of, make_account, seated_game

from accounts import bots as bot_accounts
from games.boardroom.engine import view
from games.boardroom.engine.rules import cap_in_force

pytestmark = pytest.mark.django_db


def test_a_bot_account_playing_our_bots_is_dealt_a_game_the_turn_cap_can_end() -> None:
    maia = make_account("maia")
    bot_accounts.account_upgrade_to_bot(user_id=maia.pk)
    game = seated_game(maia, kind="boardroom", bots=1)
    seat = engine_seat_of(game, maia)
    assert game.ruleset["programs"][seat] is True and game.ruleset["bots"][seat] is False
    assert cap_in_force(game.state) and view(game.state, seat)["turn_cap"] == 1000


def test_a_person_at_the_table_with_a_bot_account_keeps_the_game_uncapped() -> None:
    maia, ann = make_account("maia"), make_account("ann")
    bot_accounts.account_upgrade_to_bot(user_id=maia.pk)
    game = seated_game(maia, kind="boardroom", bots=1, others=[ann])
    assert game.ruleset["programs"][engine_seat_of(game, ann)] is False
    assert not cap_in_force(game.state)
    assert view(game.state, engine_seat_of(game, ann))["turn_cap"] is None


def test_a_person_s_account_alone_with_our_bots_is_never_capped() -> None:
    game = seated_game(make_account("ann"), kind="boardroom", bots=1)
    assert game.ruleset["programs"] == [False, False] and not cap_in_force(game.state)
