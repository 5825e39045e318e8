"""Multiplayer Elo: pure arithmetic, no Django.

A finished game of N players is scored as the N·(N−1)/2 pairwise results of the final
placements: the better-placed player of a pair scores 1, the other 0, and a shared placement
scores 0.5 each. Each pair's expected score is the textbook Elo expectation

    E(a beats b) = 1 / (1 + 10 ** ((R_b − R_a) / 400))

and a player's change is K / (N − 1) times the sum over their opponents of (score − expected).
With two players that is exactly the classic formula K · (S − E). K is higher while a player is
provisional (their first `PROVISIONAL_GAMES` rated games on that ladder).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

START_RATING = 1500.0
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Entrant:
    """One player of a finished game: rating and games played before it, and placement
    (1 = first; equal placements are a tie)."""

    rating: float
    games: int
    placement: int


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation that a player rated `rating` beats one rated `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pair_score(placement: int, opponent_placement: int) -> float:
    if placement < opponent_placement:
        return 1.0
    if placement > opponent_placement:
        return 0.0
    return 0.5


def k_factor(games: int) -> float:
    return K_PROVISIONAL if games < PROVISIONAL_GAMES else K_ESTABLISHED


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rating_changes(entrants: Sequence[Entrant]) -> list[float]:
    """The rating change of each entrant, in the order given (not rounded)."""
    n = len(entrants)
    if n < 2:
        return [0.0] * n
    changes = []
    for i, me in enumerate(entrants):
        total = 0.0
        for j, other in enumerate(entrants):
            if i == j:
                continue
            total += (pair_score(me.placement, other.placement)
                      - expected_score(me.rating, other.rating))
        changes.append(k_factor(me.games) / (n - 1) * total)
    return changes
