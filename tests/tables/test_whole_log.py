"""The whole log of a table's game (/t/<CODE>/log/, games/platform/log_page.py): every line,
where the table keeps 40, in the same per-viewer words as the table's log, for whoever may
open the table and nobody else."""

from __future__ import annotations

import re

import pytest
from tables_helpers import client_of, open_table, play_one, started_game

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table

# A seed whose game is still going after the 60 decisions below: with a fresh seed each run,
# a quick game sometimes ended first and left no seat to decide.
LONG_GAME_SEED = 5

pytestmark = pytest.mark.django_db


def lines_on(html: str) -> list[str]:
    listed = re.search(r'<ol class="whole-log" id="whole-log">(.*?)</ol>', html, re.S)
    assert listed is not None, html[:2000]
    return [re.sub(r"<[^>]+>", "", li).replace("&#x27;", "'").replace("&quot;", '"')
            .replace("&amp;", "&") for li in re.findall(r"<li>(.*?)</li>", listed.group(1))]


def table_log(game: Game, seat: int | None) -> list[str]:
    """The table's own log as this seat reads it (its last 40 lines: the lines every viewer
    shares, each in the words shown to this seat, and its own lines in their places)."""
    names = [p["name"] for p in game.players]
    actions = presenters._actions(game, get_game(game.game_kind), names, None, None)
    return [line for action in actions for line in action.read_by(seat)][-40:]


def test_each_seat_and_a_spectator_read_every_line_in_the_tables_own_words(
        alice: Viewer, bob: Viewer, carol: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: LONG_GAME_SEED)
    game = started_game(alice, (bob, "Bob"))
    for _ in range(60):
        game = play_one(game)
    assert game.status == Game.Status.RUNNING
    table = Table.objects.get(pk=game.table_id)
    seats = {s.guest_key: s.game_seat for s in table.seats.all()}
    whole = {}
    for viewer in (alice, bob, carol):  # Carol watches through the invite link
        seat = seats.get(viewer.guest_key)
        response = client_of(viewer).get(f"/t/{table.code}/log/?invite={table.invite_token}")
        assert response.status_code == 200
        whole[seat] = lines_on(response.content.decode())
        assert len(whole[seat]) > 40  # more than the table keeps
        assert whole[seat][-40:] == table_log(game, seat)[-40:]
    # Hidden stays hidden: a draw names its cards only to the seat that drew them.
    assert len(whole) == 3
    counted = re.compile(r"(?:dealt|drew) \d+ cards?[ .(]")
    for seat, lines in whole.items():
        draws = [line for line in lines if " drew " in line or " dealt " in line]
        assert draws, seat
        for line in draws:
            own = line.startswith("You ")
            assert bool(counted.search(line)) != own, (seat, line)


def test_a_private_tables_whole_log_is_hidden_from_a_stranger(alice: Viewer,
                                                                carol: Viewer) -> None:
    game = started_game(alice, bots=1)
    table = Table.objects.get(pk=game.table_id)
    stranger = client_of(carol)
    assert stranger.get(f"/t/{table.code}/log/").status_code == 404
    assert stranger.get(f"/t/{table.code}/log/?invite={table.invite_token}").status_code == 200
    html = client_of(alice).get(f"/t/{table.code}/").content.decode()
    assert f'href="/t/{table.code}/log/?invite={table.invite_token}"' in html


def test_a_table_without_a_game_has_no_log_to_read(alice: Viewer) -> None:
    table = open_table(alice)
    assert client_of(alice).get(f"/t/{table.code}/log/").status_code == 404
