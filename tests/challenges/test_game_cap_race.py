"""Two accepts at the same moment cannot take a bot account past its cap on games at once:
the cap's count and the seating are one transaction holding the account's row."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from challenges import limits, services
from tests.challenges.challenge_helpers import account


def _accept_in_a_thread(challenge_id: int, user_id: int, outcome: dict[int, str]) -> None:
    try:
        services.challenge_accept(challenge_id=challenge_id, user_id=user_id)
        outcome[challenge_id] = "accepted"
    except services.ChallengeError as exc:
        outcome[challenge_id] = exc.code
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)  # each thread commits on its own connection
def test_two_accepts_at_once_leave_a_bot_account_at_its_cap_not_over(settings: Any) -> None:
    settings.BOT_CONCURRENT_GAMES = 1
    maia = account("maia", bot=True)
    first, second = (services.challenge_create(challenger_id=account(name, bot=True).user_id,
                                               username="maia", game_kind="chudopoly")
                     for name in ("zed", "ola"))
    counted, second_done = threading.Event(), threading.Event()
    count = limits.games_in_play

    def count_then_let_the_second_in(user_id: int) -> int:
        # The first accept, having counted, holds its transaction open while the second runs
        # (until the second ends, or 3 s if the second is waiting for the first's lock); it
        # counts each of the two accounts, and holding on after the first count is enough.
        games = count(user_id)
        if threading.current_thread().name == "first" and not counted.is_set():
            counted.set()
            second_done.wait(3)
        return games

    outcome: dict[int, str] = {}
    with mock.patch.object(limits, "games_in_play", count_then_let_the_second_in):
        one = threading.Thread(target=_accept_in_a_thread, name="first",
                               args=(first.pk, maia.user_id, outcome))
        one.start()
        assert counted.wait(30)
        two = threading.Thread(target=lambda: (
            _accept_in_a_thread(second.pk, maia.user_id, outcome), second_done.set()))
        two.start()
        one.join(60)
        two.join(60)

    assert outcome == {first.pk: "accepted", second.pk: "too_many_games"}
    assert limits.games_in_play(maia.user_id) == 1


@pytest.mark.django_db
def test_an_accept_locks_both_bot_accounts_rows_before_counting_their_games() -> None:
    """The lock the test above relies on, asked for on every database (SQLite ignores it and
    needs it not: its transactions take the write lock as they begin)."""
    maia, zed = account("maia", bot=True), account("zed", bot=True)
    challenge = services.challenge_create(challenger_id=zed.user_id, username="maia",
                                          game_kind="chudopoly")
    events: list[str] = []
    select_for_update, count = QuerySet.select_for_update, limits.games_in_play

    def lock(queryset: QuerySet, *args: Any, **kwargs: Any) -> QuerySet:
        events.append(f"lock {queryset.model._meta.label}")
        return select_for_update(queryset, *args, **kwargs)

    def counted(user_id: int) -> int:
        events.append(f"count {user_id}")
        return count(user_id)

    with (mock.patch.object(QuerySet, "select_for_update", lock),
          mock.patch.object(limits, "games_in_play", counted),
          CaptureQueriesContext(connection) as queries):
        services.challenge_accept(challenge_id=challenge.pk, user_id=maia.user_id)
    user_model = get_user_model()._meta.label
    first, second = sorted([maia.user_id, zed.user_id])
    assert events[events.index(f"lock {user_model}"):][:3] == [
        f"lock {user_model}", f"count {first}", f"count {second}"]
    if connection.features.has_select_for_update:
        table = get_user_model()._meta.db_table
        assert any(table in q["sql"] and "FOR UPDATE" in q["sql"] for q in queries)
