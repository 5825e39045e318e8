"""The partials a quick push sends (presenters.quick_parts) and every full push of a Chudopoly,
Boardroom or Commonwealth seat takes from its snapshot's first screen (the game's
`seat_free_templates`: status, players, log, and Boardroom's glance and waiting lines and its
auction's box) are rendered once a move, for whichever viewer's screen came first: a
watcher's, a seat that owes nothing, the seat deciding. So each must read alike for every
viewer: rendered for each seat and a watcher on a snapshot of its own (nothing shared between
them), every move of whole games, they are the same bytes. (test_seat_pushed_without_its_screen
compares a quick push with a full push of the same snapshot, which takes the same shared
render: it cannot see a difference here.)"""

from __future__ import annotations

import pytest
from board_game_screens import guests, started

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = pytest.mark.django_db

NAMES = ("Bea", "Cy", "Dee")
EXTRA = {"csrf_value": "", "invite_origin": "http://testserver"}


def _free_parts(snapshot: presenters.TableSnapshot, viewer: Viewer, free: list[str]
                ) -> dict[str, str]:
    own = presenters.TableSnapshot(table=snapshot.table, seats=snapshot.seats,
                                   game=snapshot.game, log_rows=snapshot.log_rows)
    screen = presenters.screen_from(own, viewer, {})
    parts = presenters.render_all(screen, oob=True, extra=EXTRA, memo={})
    assert "seat_free" in own.shared  # what the first screen of a snapshot leaves to the rest
    return {name: parts[name] for name in free}


# Boardroom on clocks too: its auction's box (a seat-free partial) shows the bidder's clock
# and the no-first-bid deadline, which must read alike for every viewer as well.
@pytest.mark.parametrize(("kind", "level", "clocks"), [
    ("chudopoly", "easy", False), ("chudopoly", "hard", False), ("boardroom", "easy", False),
    ("boardroom", "hard", False), ("boardroom", "medium", True), ("commonwealth", "easy", False),
    ("commonwealth", "medium", False)])
def test_the_seat_free_partials_read_alike_for_every_seat_and_a_watcher(
        kind: str, level: str, clocks: bool) -> None:
    players = guests(f"alike-{kind[:2]}-{level}")
    game = started(kind, players, NAMES, turn_seconds=120 if clocks else 0,
                   response_seconds=60 if clocks else 0)
    engine = get_game(kind)
    free = sorted(engine.seat_free_templates)
    viewers = [*players, Viewer(user_id=None,
                                guest_key=f"watching-{kind[:2]}-{level}-00000000000000")]
    snapshot = presenters.load_snapshot(game.table_id)
    moves = bid_clocks = 0
    for _ in range(200):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            break
        seat = engine.to_decide(game.state)[0]
        action = engine.bot_action(engine.view(game.state, seat), level)
        move = services.table_move(game_id=game.pk, seat=seat, action=action,
                                   expected_version=game.version)
        snapshot = presenters.snapshot_after_move(move, snapshot)
        if move.game.status != Game.Status.RUNNING:
            break
        first, *rest = (_free_parts(snapshot, viewer, free) for viewer in viewers)
        for other in rest:
            assert other == first, move.game.version
        moves += 1
        bid_clocks += "data-deadline" in first.get("lot", "")
    assert moves > 40
    assert bid_clocks > 0 or not clocks  # on clocks, the auction's were seen


def test_a_games_seat_free_partials_are_found_once_while_the_judged_partials_stay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get_game("chudopoly")
    found = presenters._seat_free_alone(engine)
    assert found == presenters._seat_free(engine, None)
    assert presenters._seat_free_alone(engine) is found
    # Partials judged anew (new template engines) are looked at again: none is shared yet.
    monkeypatch.setattr(presenters, "shared_partial", lambda template: None)
    monkeypatch.setattr(presenters, "_SHARED", {})
    assert presenters._seat_free_alone(engine) == ()
