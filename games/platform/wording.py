"""Words the games' sentences share, from one viewer's side (pure Python, no Django).

Every trade of every game reads in one fixed form, the proposer's side first, whoever looks:

    "Bot Alpha gives you Bakery Plant; you give Screen Assembly"   (you were offered it)
    "you give Bot Alpha 120 in cash; Bot Alpha gives Screen Assembly"   (you offered it)
    "Ann gives Bea Bakery Plant; Bea gives Screen Assembly"        (a spectator)

so "what do I get, what do I give" never depends on which game or which panel says it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
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


# --- one line for every reader ------------------------------------------------------------------
# A table's log is rendered once for every seat and watcher (games/platform/presenters.py): a
# line reads as a watcher reads it ("Ann paid Bea 5M."), and where a seat reads it otherwise
# ("You paid Bea 5M.", "Ann paid you 5M.") the words that differ carry that seat's own words
# beside them, marked for it alone: a .them-mark (the watcher's words) hidden from that seat
# and a .you-mark (its own) shown to it alone, by the screen's data-me (static/css/site.css),
# to the eye and to a screen reader alike.


def _at_word_edge(text: str, i: int) -> bool:
    return i in (0, len(text)) or not (text[i - 1].isalnum() and text[i].isalnum())


def _differing_words(common: str, own: str) -> tuple[int, int, str]:
    """(start, end, words): `own` is `common` with common[start:end] said as `words`, whole
    words only ("Ann pays" / "You pay", not "Ann pay" / "You pay" + "s")."""
    shortest = min(len(common), len(own))
    start = 0
    while start < shortest and common[start] == own[start]:
        start += 1
    while start and not (_at_word_edge(common, start) and _at_word_edge(own, start)):
        start -= 1
    tail = 0
    while tail < shortest - start and common[-1 - tail] == own[-1 - tail]:
        tail += 1
    while tail and not (_at_word_edge(common, len(common) - tail)
                        and _at_word_edge(own, len(own) - tail)):
        tail -= 1
    return start, len(common) - tail, own[start:len(own) - tail]


def marked_line(common: str, own: Mapping[int, str]) -> str:
    """`common` as HTML (escaped), with each seat's own words (`own`: the whole line as that
    seat reads it, by seat) marked beside the words they replace. Two seats whose words
    overlap share one marked stretch, each mark saying the whole stretch its way."""
    stretches: list[tuple[int, int, list[tuple[int, int, int, str]]]] = []
    differing = sorted((*_differing_words(common, text), seat)
                       for seat, text in own.items() if text != common)
    for start, end, words, seat in differing:
        if stretches and start <= stretches[-1][1]:
            first, last, seats = stretches[-1]
            stretches[-1] = (first, max(last, end), [*seats, (seat, start, end, words)])
        else:
            stretches.append((start, end, [(seat, start, end, words)]))
    out: list[str] = []
    done = 0
    for first, last, seats in stretches:
        out.append(escape(common[done:first]))
        theirs = escape(common[first:last])
        for seat, *_ in seats:
            theirs = f'<span class="them-mark" data-seat="{int(seat)}">{theirs}</span>'
        out.append(theirs)
        for seat, start, end, words in seats:
            said = common[first:start] + words + common[end:last]
            out.append(f'<span class="you-mark" data-seat="{int(seat)}">'
                       f'{escape(said)}</span>')
        done = last
    out.append(escape(common[done:]))
    return "".join(out)
