"""Words the games' sentences share, from one viewer's side (pure Python, no Django).

Every trade of every game reads in one fixed form, the proposer's side first, whoever looks:

    "Bot Alpha gives you Bakery Plant; you give Screen Assembly"   (you were offered it)
    "you give Bot Alpha 120 in cash; Bot Alpha gives Screen Assembly"   (you offered it)
    "Ann gives Bea Bakery Plant; Bea gives Screen Assembly"        (a spectator)

so "what do I get, what do I give" never depends on which game or which panel says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def person(seat: Any, viewer: int | None, names: Sequence[str], *, subject: bool = True,
           nobody: str = "someone") -> str:
    """A seat's name, "You"/"you" for the viewer; `nobody` when the seat is not a seat."""
    if seat is not None and seat == viewer:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return nobody.capitalize() if subject else nobody


def possessive(seat: Any, viewer: int | None, names: Sequence[str]) -> str:
    """"your", or "Ann’s"."""
    if seat is not None and seat == viewer:
        return "your"
    return f"{person(seat, viewer, names, subject=False)}’s"


def agrees(seat: Any, viewer: int | None, you_form: str, other_form: str) -> str:
    """The verb form for a seat as the subject: "you give", "Ann gives"."""
    return you_form if seat is not None and seat == viewer else other_form


def trade_sentence(proposer: int, other: int, proposer_gives: str, other_gives: str, *,
                   viewer: int | None, names: Sequence[str]) -> str:
    """The one form of a trade, to follow a label and a colon ("Trade offer: …"), with no
    closing full stop: the proposer gives the other party `proposer_gives`; the other party
    gives `other_gives`. "you" stays lower case there; a name keeps its capital."""
    first = person(proposer, viewer, names, subject=False)
    second_object = person(other, viewer, names, subject=False)
    second = person(other, viewer, names, subject=False)
    return (f"{first} {agrees(proposer, viewer, 'give', 'gives')} {second_object} "
            f"{proposer_gives}; {second} {agrees(other, viewer, 'give', 'gives')} "
            f"{other_gives}")


def joined(parts: Sequence[str], *, empty: str = "nothing") -> str:
    """"A", "A and B", "A, B and C"; `empty` for none."""
    parts = [p for p in parts if p]
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def counted(n: int, one: str, many: str | None = None) -> str:
    """"1 tile", "2 tiles", "0 tiles"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
