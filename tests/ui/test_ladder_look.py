"""The ladder's pages for a second game, at 390×844 (touch) and 1440×900: Boardroom's quick
match page, its leaderboard, the ladders' index, a profile with a Boardroom rating and chart,
and a Boardroom replay all pass the UI checks (no sideways scroll, 44 px targets, no overlaps,
axe-core clean, no console errors)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from ui_helpers import check_axe, check_layout, off_loop, shot

from games.platform import services as tables
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game
from ladder import services as ladder
from ladder.models import QueueTicket

pytestmark = pytest.mark.browser


def _account(username: str) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


def _rated_boardroom_game() -> tuple[Game, str]:
    """A ranked two-seat Boardroom match: a few moves, then one player leaves (bankrupt to
    the bank), so the other wins and both get a rating and a chart point."""
    ann, ben = _account("ann_board"), _account("ben_board")
    tickets = [ladder.queue_join(viewer=viewer, preset="standard", seats=2, ranked=True,
                                 game_kind="boardroom") for viewer in (ann, ben)]
    ladder.queue_pair()
    # The live site's Celery beat sweeps the queues too, and may have paired them first.
    match = QueueTicket.objects.select_related("match__table").get(pk=tickets[0].pk).match
    assert match is not None
    for ticket in match.tickets.all():
        ladder.match_arrive(ticket_id=ticket.pk, viewer=ann if ticket.user_id == ann.user_id
                            else ben)
    game = tables.current_game(match.table)
    engine = get_game("boardroom")
    for _ in range(12):
        game.refresh_from_db()
        seat = engine.to_decide(game.state)[0]
        tables.table_apply_action(game_id=game.pk, seat=seat, expected_version=game.version,
                                  action=engine.bot_action(engine.view(game.state, seat),
                                                           "medium"))
    tables.seat_leave(table_id=game.table_id, viewer=ben)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, "ann_board"


def test_the_ladder_pages_of_boardroom_pass_the_ui_checks(live_server_url: str,
                                                         device: tuple[str, Any],
                                                         axe_script: Path,
                                                         artifacts: Path) -> None:
    size, page = device
    game, winner = off_loop(_rated_boardroom_game)
    for name, path in (("queue", "/ladder/play/?game=boardroom"),
                       ("leaderboard", "/ladder/boardroom/standard/"),
                       ("ladders", "/ladder/"),
                       ("profile", f"/accounts/u/{winner}/"),
                       ("replay", f"/ladder/games/{game.pk}/replay/")):
        page.goto(live_server_url + path)
        where = f"{size}-ladder-boardroom-{name}"
        shot(page, artifacts, where)
        check_layout(page, where)
        check_axe(page, axe_script, where)
    assert page.locator("#replay-step").inner_text().startswith("Step ")
    page.goto(live_server_url + f"/accounts/u/{winner}/")
    assert page.locator("#standing-boardroom-standard svg").count() == 1
