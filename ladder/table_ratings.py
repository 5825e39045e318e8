"""What a table page shows of the ladder: the "Rated" badge, each player's rating by their
name, and at the end each seat's change, the replay link and where its charts are.

The table page is rendered on every push, so this is read once per game and finish (a small
per-process memo keyed by game and status): a running game's ratings are those it started with,
and a finished one's are the recorded results. Whole numbers add up: the change shown is the
difference of the rounded ratings before and after.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.platform.models import Game
from ladder.elo import START_RATING
from ladder.models import GameRecord, Match, Rating
from ladder.templatetags.ladder_tags import signed

_MEMO: dict[tuple[int, int, str], dict[str, Any]] = {}
MEMO_SIZE = 512


def _may_be_rated(game: Game) -> bool:
    """What the game row alone says: a first game of a private table, every seat an account
    (a ranked match's table; everything else is certainly unrated, without a query)."""
    players = game.players or []
    return (game.number == 1 and bool(players)
            and all(p.get("user_id") and not p.get("bot") for p in players))


def _is_ranked_match(game: Game) -> bool:
    return Match.objects.filter(table_id=game.table_id, ranked=True, with_bots=False).exists()


def table_ratings(game: Game) -> dict[str, Any]:
    """{"rated": bool, "seats": {engine seat: {"rating", "after", "change"}}, "replay_url",
    "charts_url"}."""
    key = (game.pk, game.seed, str(game.status))  # the seed: a reused id is another game
    found = _MEMO.get(key)
    if found is None:
        found = _read(game)
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = found
    return found


def forget(game_id: int) -> None:
    for key in [k for k in _MEMO if k[0] == game_id]:
        del _MEMO[key]


def _read(game: Game) -> dict[str, Any]:
    finished = game.status == Game.Status.FINISHED
    out: dict[str, Any] = {
        "rated": False, "seats": {},
        "replay_url": reverse("ladder:replay", args=[game.pk]) if finished else None,
        "charts_url": reverse("ladder:charts", args=[game.pk]) if finished else None,
    }
    if finished:
        record = GameRecord.objects.filter(game_id=game.pk).first()
        if record is None or not record.rated:
            return out
        out["rated"] = True
        for r in record.results.all():
            if r.rating_before is None or r.rating_after is None:
                continue
            out["seats"][r.seat] = {"rating": round(r.rating_before),
                                    "after": round(r.rating_after),
                                    "change": r.rating_change,
                                    "change_text": signed(r.rating_change)}
        return out
    if not _may_be_rated(game) or not _is_ranked_match(game):
        return out
    from ladder.services import stock_preset

    preset = stock_preset(game)
    if preset is None:
        return out
    out["rated"] = True
    user_ids = [p["user_id"] for p in game.players]
    ratings = dict(Rating.objects.filter(user_id__in=user_ids, game_kind=game.game_kind,
                                         ladder=preset)
                   .values_list("user_id", "rating"))
    for seat, uid in enumerate(user_ids):
        out["seats"][seat] = {"rating": round(ratings.get(uid, START_RATING)),
                              "after": None, "change": None}
    return out
