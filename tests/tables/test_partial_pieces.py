"""A partial split into pieces: a push sends the changed pieces only, and the page they leave is
the page the whole partial would have made (games/platform/pieces.py)."""

from __future__ import annotations

import pytest
from oob_page import Page, fresh

from games.platform.pieces import Elements, NewestFirst, changes, reframe, split

OOB = ' hx-swap-oob="true"'


def players(*panels: tuple[int, str]) -> tuple[str, Elements]:
    """A players section holding one <details> panel per (seat, text), and its pieces."""
    items = [(f"seat-{seat}", f'<details class="player" id="seat-{seat}">{text}</details>')
             for seat, text in panels]
    html = (f'<section id="players"{OOB}>\n<div class="opponents">\n'
            + "\n".join(piece for _, piece in items) + "\n</div>\n</section>")
    return html, Elements(items=items)


def log(*keys: str, peek: int = 2) -> tuple[str, NewestFirst]:
    """A log section listing `keys` newest first, the newest `peek` with a card peek."""
    items = [(key, f'<li data-k="{key}"><span class="log-text">line {key}</span>'
                   + ('<span class="log-peek">card</span>' if n < peek else "") + "</li>")
             for n, key in enumerate(keys)]
    html = (f'<section id="log"{OOB}><h2>Game log</h2><ol class="game-log">'
            + "".join(piece for _, piece in items) + "</ol></section>")
    return html, NewestFirst(items=items, list_selector="#log ol.game-log",
                             item_selector='#log li[data-k="{key}"]')


def pushed(old: tuple[str, Elements | NewestFirst], new: tuple[str, Elements | NewestFirst]
           ) -> list[str] | None:
    was, now = split(*old), split(*new)
    assert was is not None and now is not None
    return changes(was, now)


def test_a_partial_is_its_frame_and_pieces_byte_for_byte() -> None:
    html, pieces = players((1, "Bob"), (2, "Carol"))
    cut = split(html, pieces)
    assert cut is not None
    assert cut.keys == ("seat-1", "seat-2")
    rebuilt = cut.frame[0] + "".join(p + f for p, f in zip(cut.html, cut.frame[1:],
                                                             strict=True))
    assert rebuilt == html


def test_new_pieces_in_the_frame_last_cut_make_the_partial_a_whole_render_would() -> None:
    cut = split(*players((1, "Bob 5M"), (2, "Carol")))
    assert cut is not None
    html, pieces = players((1, "Bob 7M"), (2, "Carol"))
    reframed = reframe(cut, pieces)
    assert reframed is not None and reframed.whole() == html
    assert changes(cut, reframed) == [f'<details{OOB} class="player" id="seat-1">Bob 7M</details>']
    older = split(*log("2.0", "1.0"))
    assert older is not None
    html, lines = log("3.0", "2.0", "1.0")
    reframed = reframe(older, lines)
    assert reframed is not None and reframed.whole() == html


def test_pieces_whose_keys_leave_the_frame_in_doubt_are_not_reframed() -> None:
    cut = split(*players((1, "Bob"), (2, "Carol")))
    assert cut is not None
    assert reframe(cut, players((1, "Bob"), (3, "Carol"))[1]) is None  # another seat
    assert reframe(cut, players((1, "Bob"),)[1]) is None  # one fewer
    assert reframe(cut, Elements(items=[("seat-1", '<details id="seat-9">Bob</details>'),
                                        ("seat-2", '<details id="seat-2">Carol</details>')]
                                 )) is None  # an id its root does not carry
    listed = split(*log("2.0", "1.0"))
    assert listed is not None
    assert reframe(listed, NewestFirst(items=[], list_selector="#log ol.game-log",
                                       item_selector='#log li[data-k="{key}"]')) is None
    assert reframe(listed, players((1, "Bob"),)[1]) is None  # not a list any more


def test_pieces_not_in_the_partial_in_their_order_leave_it_whole() -> None:
    html, _ = players((1, "Bob"), (2, "Carol"))
    _, other = players((2, "Carol"), (1, "Bob"))
    assert split(html, other) is None
    _, missing = players((1, "Bob"), (3, "Dave"))
    assert split(html, missing) is None
    # An element piece is swapped by its id: its root must carry it.
    assert split(html, Elements(items=[("seat-9", '<details class="player" id="seat-1">'
                                                  "Bob</details>")])) is None


def test_only_the_changed_panel_is_pushed_swapped_by_its_id() -> None:
    swaps = pushed(players((1, "Bob 5M"), (2, "Carol")), players((1, "Bob 7M"), (2, "Carol")))
    assert swaps == [f'<details{OOB} class="player" id="seat-1">Bob 7M</details>']


def test_panels_of_other_seats_or_in_another_frame_are_pushed_whole() -> None:
    assert pushed(players((1, "Bob"), (2, "Carol")), players((1, "Bob"), (3, "Carol"))) is None
    assert pushed(players((1, "Bob"),), players((1, "Bob 7M"), (2, "Carol"))) is None
    html, pieces = players((1, "Bob 7M"))
    assert pushed(players((1, "Bob"),), (html.replace("opponents", "opponents done"),
                                         pieces)) is None


def test_the_logs_new_lines_go_on_top_aged_ones_lose_their_peek_and_old_ones_drop_off() -> None:
    old = log(*(f"{n}.0" for n in range(11, -1, -1)))
    new = log(*(f"{n}.0" for n in range(13, 1, -1)))  # two new lines; 0.0 and 1.0 fell off
    swaps = pushed(old, new)
    assert swaps is not None
    assert swaps[0].startswith('<ol hx-swap-oob="afterbegin:#log ol.game-log">'
                               '<li data-k="13.0">')
    assert sum('hx-swap-oob="outerHTML:' in s for s in swaps) == 2  # 11.0 and 10.0 aged
    assert sum('hx-swap-oob="delete:' in s for s in swaps) == 2
    page = Page(old[0])
    for swap in swaps:
        page.apply(swap)
    assert page.element("log") == fresh(new[0], "log")


def test_a_log_with_lines_missing_between_or_none_kept_is_pushed_whole() -> None:
    assert pushed(log("3.0", "2.0"), log("5.0", "4.0")) is None  # nothing on screen stays
    assert pushed(log("3.0", "2.0", "1.0"), log("4.0", "3.0", "1.0")) is None  # 2.0 gone
    assert pushed(log("3.0", "2.0"), log("2.0", "3.0")) is None  # another order
    assert pushed(log("3.0", "2.0", "1.0"), log("1.0", "3.0", "2.0")) is None
    # A log with no lines yet has no place to put the first: it comes whole.
    empty = '<section id="log"><h2>Game log</h2><ol class="game-log"></ol></section>'
    assert split(empty, NewestFirst(items=[], list_selector="#log ol",
                                    item_selector="{key}")) is None


def test_pieces_that_would_weigh_more_than_the_whole_partial_are_not_sent() -> None:
    # A tiny log whose one line aged as one came: the swaps' selectors outweigh it.
    assert pushed(log("1.0", peek=1), log("2.0", "1.0", peek=1)) is None
    swaps = pushed(log(*(f"{n}.0" for n in range(20, 0, -1)), peek=0),
                   log(*(f"{n}.0" for n in range(21, 1, -1)), peek=0))
    assert swaps is not None and len(swaps) == 2  # a line on top, one off the end


@pytest.mark.django_db
def test_a_socket_sends_a_partial_whole_first_and_for_another_game_or_seat() -> None:
    """Pieces are only ever sent against pieces this socket sent for the same game and seat:
    the page then holds those very elements."""
    from tables_helpers import play_one, started_game

    from games.platform import presenters
    from games.platform.consumers import TableConsumer
    from games.platform.identity import Viewer
    from games.platform.models import Table

    bob = Viewer(user_id=None, guest_key="bob-key")
    game = started_game(Viewer(user_id=None, guest_key="alice-key"), (bob, "Bob"),
                        turn_seconds=0)
    socket = TableConsumer()
    socket.splits = {}

    def sent(mine: tuple[int | None, int | None]) -> str:
        screen = presenters.load_screen(Table.objects.get(pk=game.table_id), bob)
        socket.mine = mine
        return socket._as_sent("players", presenters.render_all(screen)["players"], screen)

    seat = 1 if game.players[1]["name"] == "Bob" else 0
    assert 'id="players"' in sent((game.pk, seat))  # the first push of the game
    game = play_one(game)
    assert 'id="players"' not in sent((game.pk, seat))
    game = play_one(game)
    assert 'id="players"' in sent((game.pk + 1, seat))  # a new game: new panels
    game = play_one(game)
    assert 'id="players"' in sent((game.pk, None))  # the seat was taken from this device
