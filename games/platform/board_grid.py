"""Where the 40 spaces of a square board sit on an 11×11 CSS grid (any board game's page).

Space 0 (the start corner) is at the bottom right and play runs clockwise as on a printed
board: left along the bottom, up the left side, right along the top, down the right side.
"""

from __future__ import annotations


def grid_place(pos: int) -> tuple[int, int]:
    """(row, column), 1-based, of space `pos` (0..39) on the 11×11 grid."""
    if pos <= 10:
        return 11, 11 - pos
    if pos <= 20:
        return 11 - (pos - 10), 1
    if pos <= 30:
        return 1, 1 + (pos - 20)
    return 1 + (pos - 30), 11


def side(pos: int) -> str:
    """"corner", or the side of the board a space is on (bottom, left, top, right)."""
    if pos % 10 == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[pos // 10]
