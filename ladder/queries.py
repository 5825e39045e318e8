"""Read side of the ladder: leaderboards, ranks, history, per-preset stats, rating charts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, Case, Count, Q, QuerySet, Value, When
from django.urls import reverse
from django.utils import timezone

from accounts.bots import is_bot_account
from games.platform.identity import Viewer
from games.platform.interface import default_game, get_game, registered_games
from ladder import services
from ladder.elo import PROVISIONAL_GAMES
from ladder.models import PlayerResult, QueueTicket, Rating
from ladder.services import ladders

LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_PAGE = 25
HISTORY_PAGE = 20


def leaderboard_url(game_kind: str, preset: str) -> str:
    """/ladder/<preset>/ for the default game (the address it always had), else
    /ladder/<game>/<preset>/."""
    if game_kind == default_game():
        return reverse("ladder:leaderboard", args=[preset])
    return reverse("ladder:game_leaderboard", args=[game_kind, preset])


def leaderboard_queryset(ladder: str, game_kind: str | None = None) -> QuerySet[Rating]:
    """Everyone with a rated game on this ladder: first the ranked players (at least
    LEADERBOARD_MIN_GAMES rated games), then the provisional ones, each part by rating. A new
    ladder is not an empty board: its first players show, unranked, rating with "?"."""
    return (Rating.objects.filter(game_kind=game_kind or default_game(), ladder=ladder,
                                  games__gte=1)
            .annotate(ranked=Case(When(games__gte=LEADERBOARD_MIN_GAMES, then=Value(True)),
                                  default=Value(False), output_field=BooleanField()))
            .select_related("user", "user__profile").order_by("-ranked", "-rating", "user_id"))


@dataclass
class LadderTop:
    """A ladder's first players, as a short list shows them: the ranked ones numbered, then
    the provisional ones (when there are too few ranked players to fill it)."""

    ranked: list[Rating]
    provisional: list[Rating]


def ladder_top(ladder: str, game_kind: str, count: int) -> LadderTop:
    rows = list(leaderboard_queryset(ladder, game_kind)[:count])
    return LadderTop(ranked=[r for r in rows if r.ranked],
                     provisional=[r for r in rows if not r.ranked])


def _ahead(rating: Rating) -> Q:
    return Q(rating__gt=rating.rating) | Q(rating=rating.rating, user_id__lt=rating.user_id)


def rank_of(rating: Rating | None) -> int | None:
    """1-based leaderboard rank, or None while the player has too few games to be ranked."""
    if rating is None or rating.games < LEADERBOARD_MIN_GAMES:
        return None
    ahead = (Rating.objects.filter(game_kind=rating.game_kind, ladder=rating.ladder,
                                   games__gte=LEADERBOARD_MIN_GAMES)
             .filter(_ahead(rating)).count())
    return ahead + 1


def position_of(rating: Rating | None) -> int | None:
    """1-based row of the leaderboard's list (the ranked players, then the provisional ones),
    or None for a player with no rated game there."""
    if rating is None or rating.games < 1:
        return None
    rank = rank_of(rating)
    if rank is not None:
        return rank
    board = Rating.objects.filter(game_kind=rating.game_kind, ladder=rating.ladder)
    ranked = board.filter(games__gte=LEADERBOARD_MIN_GAMES).count()
    ahead = (board.filter(games__gte=1, games__lt=LEADERBOARD_MIN_GAMES)
             .filter(_ahead(rating)).count())
    return ranked + ahead + 1


def leaderboard_page(ladder: str, page_number: Any,
                     game_kind: str | None = None) -> tuple[Page, int]:
    """A page of the leaderboard and the rank of its first row."""
    paginator = Paginator(leaderboard_queryset(ladder, game_kind), LEADERBOARD_PAGE)
    page = paginator.get_page(page_number)
    return page, page.start_index()


def page_of_rank(rank: int) -> int:
    """The leaderboard page of a rank (or of a provisional player's row, `position_of`)."""
    return (rank - 1) // LEADERBOARD_PAGE + 1


@dataclass
class LadderStanding:
    game_kind: str
    game_name: str
    ladder: str
    name: str
    rating: Rating | None
    rank: int | None
    games: int
    wins: int
    chart: dict[str, Any] | None

    @property
    def url(self) -> str:
        return leaderboard_url(self.game_kind, self.ladder)

    @property
    def anchor(self) -> str:
        return services.ladder_anchor(self.game_kind, self.ladder)


def standings(user_id: int) -> list[LadderStanding]:
    """Every ladder of every game for one player: rating, rank, games and wins (all games on
    that preset, rated or not), and the rating chart. A bot account's are the Bots ladders
    (games and wins on every preset of the game)."""
    ratings = {(r.game_kind, r.ladder): r for r in Rating.objects.filter(user_id=user_id)}
    is_bot = is_bot_account(user_id)
    results = PlayerResult.objects.filter(user_id=user_id)
    wins = Count("pk", filter=Q(placement=1))
    if is_bot:  # one Bots ladder per game: every preset's games of that game
        counts = {(row["game_kind"], services.BOTS_LADDER): row for row in (
            results.exclude(ladder="custom").values("game_kind")
            .annotate(games=Count("pk"), wins=wins))}
    else:
        counts = {(row["game_kind"], row["ladder"]): row for row in (
            results.values("game_kind", "ladder").annotate(games=Count("pk"), wins=wins))}
    out = []
    for kind in registered_games():
        for key in ([services.BOTS_LADDER] if is_bot else ladders(kind)):
            rating = ratings.get((kind, key))
            row = counts.get((kind, key), {})
            out.append(LadderStanding(
                game_kind=kind, game_name=get_game(kind).name, ladder=key,
                name=services.ladder_title(kind, key),
                rating=rating, rank=rank_of(rating),
                games=row.get("games", 0), wins=row.get("wins", 0),
                chart=rating_chart(rating_series(user_id, key, kind)) if rating else None))
    return out


def custom_counts(user_id: int) -> tuple[int, int]:
    row = PlayerResult.objects.filter(user_id=user_id, ladder="custom").aggregate(
        games=Count("pk"), wins=Count("pk", filter=Q(placement=1)))
    return row["games"], row["wins"]


def rating_series(user_id: int, ladder: str,
                  game_kind: str | None = None) -> list[tuple[datetime, float]]:
    """(when, rating) from the start rating through every rated game, oldest first. A Bots
    ladder's games are every rated game of the bot account in that game (any preset)."""
    rows_qs = PlayerResult.objects.filter(user_id=user_id, game_kind=game_kind or default_game(),
                                          rated=True)
    if ladder != services.BOTS_LADDER:
        rows_qs = rows_qs.filter(ladder=ladder)
    rows = list(rows_qs
                .order_by("finished_at", "pk")
                .values_list("finished_at", "rating_before", "rating_after"))
    if not rows:
        return []
    series = [(rows[0][0], rows[0][1])]
    series += [(when, after) for when, _, after in rows]
    return series


def rating_chart(series: Sequence[tuple[datetime, float]], *, width: int = 320,
                 height: int = 120, pad: int = 24) -> dict[str, Any] | None:
    """Geometry for a server-rendered SVG line chart: one point per game, evenly spaced."""
    if len(series) < 2:
        return None
    values = [v for _, v in series]
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    span_x = width - 2 * pad
    span_y = height - 2 * pad
    points = []
    for i, v in enumerate(values):
        x = pad + span_x * i / (len(values) - 1)
        y = pad + span_y * (hi - v) / (hi - lo)
        points.append((round(x, 1), round(y, 1)))
    return {
        "width": width, "height": height, "pad": pad,
        "points": " ".join(f"{x},{y}" for x, y in points),
        "last": points[-1], "first": points[0],
        "hi": round(hi), "lo": round(lo), "games": len(values) - 1,
        "current": round(values[-1]), "start": round(values[0]),
        "right": width - pad, "bottom": height - pad,
    }


# --- match history ----------------------------------------------------------------------------


def _owner_q(user_id: int | None, guest_key: str | None) -> Q:
    if user_id:
        return Q(user_id=user_id)
    if guest_key:
        return Q(guest_key=guest_key, user__isnull=True)
    return Q(pk__in=[])


def viewer_results(viewer: Viewer) -> QuerySet[PlayerResult]:
    return PlayerResult.objects.filter(_owner_q(viewer.user_id, viewer.guest_key))


def history_page(*, user_id: int | None, guest_key: str | None, preset: str = "",
                 kind: str = "", page_number: Any = 1, per_page: int = HISTORY_PAGE,
                 game_kind: str = "") -> Page:
    """A page of one player's finished games (of one game kind, or of every one), newest
    first, with opponents attached as `row.opponents` (list of PlayerResult)."""
    qs = (PlayerResult.objects.filter(_owner_q(user_id, guest_key))
          .select_related("record").order_by("-finished_at", "-pk"))
    if game_kind:
        qs = qs.filter(game_kind=game_kind)
    if preset:
        qs = qs.filter(ladder=preset)
    if kind == "ranked":
        qs = qs.filter(ranked=True)
    elif kind == "casual":
        qs = qs.filter(ranked=False)
    page = Paginator(qs, per_page).get_page(page_number)
    rows = list(page.object_list)
    others: dict[int, list[PlayerResult]] = {}
    for other in (PlayerResult.objects.filter(record_id__in=[r.record_id for r in rows])
                  .select_related("user").order_by("placement", "seat")):
        others.setdefault(other.record_id, []).append(other)
    games = set(registered_games())
    for row in rows:
        row.opponents = [o for o in others.get(row.record_id, []) if o.seat != row.seat]
        row.ladder_name = (services.ladder_title(row.game_kind, row.ladder)
                           if row.game_kind in games else row.ladder)
    page.object_list = rows
    return page


def provisional_games() -> int:
    return PROVISIONAL_GAMES


# --- the queue page ---------------------------------------------------------------------------


def queue_status_context(ticket: QueueTicket) -> dict[str, Any]:
    """What the queue page shows for a ticket (the page and the socket render the same)."""
    now = timezone.now()
    if ticket.status == QueueTicket.Status.MATCHED:
        return {"ticket": ticket, "matched": True,
                "go_url": reverse("ladder:match_go", args=[ticket.pk])}
    waited = max(0, int((now - ticket.joined_at).total_seconds()))
    half = services.rating_window(waited_seconds=waited)
    queue = ticket.queue
    waiting = QueueTicket.objects.filter(queue=queue, status=QueueTicket.Status.WAITING).count()
    bots_in = max(0, services.BOTS_AFTER_SECONDS - waited)
    return {
        "ticket": ticket, "matched": False, "waiting": ticket.status == "waiting",
        "queue_label": services.queue_label(queue), "queue": queue,
        "waited": waited, "waited_text": f"{waited // 60}:{waited % 60:02d}",
        "queued": waiting, "window": half, "rating": round(ticket.rating),
        "window_lo": round(ticket.rating - half), "window_hi": round(ticket.rating + half),
        "window_max": half >= services.WINDOW_MAX,
        "has_window": services.has_window(ticket),
        "can_fill_bots": not queue.ranked and bots_in == 0, "bots_in": bots_in,
        "offers_bots": not queue.ranked,
    }
