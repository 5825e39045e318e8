"""The site's own pages at 390×844 (touch) and 1440×900: the home page with the three games,
a game's page, a leaderboard with ranked and provisional players, the rules index and the page
the old device gets after its seat moved. Each passes the UI checks (no sideways scroll, 44 px
targets, no overlaps, axe-core clean, no console errors) and is kept as a screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from ui_helpers import check_axe, check_layout, guest, off_loop, shot, sign_in

from games.platform import services
from games.platform.identity import Viewer
from ladder.models import Rating

pytestmark = pytest.mark.browser


def _ladder_with_new_and_old_players() -> None:
    for i, (name, rating, games) in enumerate([("marta", 1642, 14), ("olu", 1588, 6),
                                               ("kit", 1512.4, 2), ("ines", 1489, 1)]):
        user = get_user_model().objects.create_user(username=name)
        Rating.objects.create(user=user, game_kind="boardroom", ladder="standard",
                              rating=rating, games=games, wins=games // 2 + i % 2)


def _moved_seat(old: Viewer) -> str:
    """Old's seat at a private two-person table, moved to another browser: the table's code."""
    other = guest("Ben")
    table = services.table_create(viewer=old, name="Ann", ruleset_spec={}, max_seats=2,
                                  game_kind="boardroom")
    services.seat_join(table_id=table.pk, viewer=other, name="Ben")
    services.game_start(table_id=table.pk, viewer=old)
    token = services.seat_move_link_create(table_id=table.pk, viewer=old)
    services.seat_move_claim(code=table.code, token=token, viewer=guest("Phone"))
    return table.code


def _look(page: Any, axe: Path, artifacts: Path, where: str) -> None:
    shot(page, artifacts, where)
    check_layout(page, where)
    check_axe(page, axe, where)


def test_the_site_s_pages_pass_the_ui_checks(live_server_url: str, device: tuple[str, Any],
                                             axe_script: Path, artifacts: Path) -> None:
    size, page = device
    off_loop(_ladder_with_new_and_old_players)
    for name, path in (("home", "/"), ("game-boardroom", "/games/boardroom/"),
                       ("game-commonwealth", "/games/commonwealth/"), ("rules", "/rules"),
                       ("leaderboard", "/ladder/boardroom/standard/")):
        page.goto(live_server_url + path)
        _look(page, axe_script, artifacts, f"{size}-site-{name}")
    assert page.locator("#provisional tr").filter(has_text="kit").inner_text().count("1512?")

    page.goto(live_server_url + "/")
    # Each game's one start button is on the first screen, side by side on a desktop.
    buttons = [page.locator(f"#quick-play-{kind}").bounding_box()
               for kind in ("chudopoly", "boardroom", "commonwealth")]
    if size == "desktop":
        assert all(b is not None and b["y"] + b["height"] <= 900 for b in buttons), buttons
        assert len({round(b["y"]) for b in buttons}) == 1, buttons


def test_the_old_device_of_a_moved_seat_sees_the_moved_page(live_server_url: str,
                                                            device: tuple[str, Any],
                                                            axe_script: Path,
                                                            artifacts: Path) -> None:
    size, page = device
    ann = guest("Ann")
    code = off_loop(_moved_seat, ann)
    sign_in(page, live_server_url, ann)
    response = page.goto(f"{live_server_url}/t/{code}/")
    assert response is not None and response.status == 200
    assert "moved to another device" in page.locator("h1").inner_text()
    _look(page, axe_script, artifacts, f"{size}-site-seat-moved")
