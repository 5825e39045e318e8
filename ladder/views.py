"""Ladder pages: leaderboards, quick match, match history, replays and exports.

Function-based and thin: load with a permission check, validate a form, call one service,
redirect or render. The queue page's live status comes over the queue socket (consumers.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from accounts.bots import marked_name
from games.platform.identity import GUEST_NAME_SESSION_KEY, Viewer, viewer_from_request
from games.platform.interface import default_game, get_game, ladder_placing, registered_games
from games.platform.models import Game
from ladder import elo, queries, replay, services
from ladder.forms import HistoryFilterForm, QueueForm
from ladder.models import GameRecord, QueueTicket, Rating
from ladder.services import LadderError

READY_TABLE_MINUTES = 10  # how long the queue page keeps pointing at a matched table


def _ladder_name(preset: str, game_kind: str | None) -> str:
    if game_kind is not None and game_kind not in registered_games():
        raise Http404("No such game")
    game_kind = game_kind or default_game()
    if preset not in services.all_ladders(game_kind):
        raise Http404("No such ladder")
    return services.ladder_title(game_kind, preset)


# --- leaderboards -----------------------------------------------------------------------------


def _method_context() -> dict[str, Any]:
    return {"start_rating": round(elo.START_RATING), "k_provisional": round(elo.K_PROVISIONAL),
            "k_established": round(elo.K_ESTABLISHED),
            "provisional_games": elo.PROVISIONAL_GAMES,
            "min_games": queries.LEADERBOARD_MIN_GAMES,
            "placing_rules": [ladder_placing(get_game(kind)) for kind in registered_games()]}


@require_safe
def ladder_index(request: HttpRequest) -> HttpResponse:
    boards = []
    for kind in registered_games():
        for key in services.all_ladders(kind):
            top = queries.ladder_top(key, kind, 5)
            boards.append({"key": key, "name": services.ladder_title(kind, key), "top": top,
                           "game_kind": kind, "anchor": services.ladder_anchor(kind, key),
                           "url": queries.leaderboard_url(kind, key),
                           "queue_url": (None if key == services.BOTS_LADDER
                                         else f"{reverse('ladder:queue')}?game={kind}")})
    return render(request, "ladder/index.html", {"boards": boards, **_method_context()})


@require_safe
def leaderboard(request: HttpRequest, preset: str, game_kind: str | None = None) -> HttpResponse:
    """One ladder: /ladder/<preset>/ is the default game's, /ladder/<game>/<preset>/ any."""
    name = _ladder_name(preset, game_kind)
    game_kind = game_kind or default_game()
    mine = None
    my_rank = my_position = None
    if request.user.is_authenticated:
        mine = Rating.objects.filter(user=request.user, game_kind=game_kind,
                                     ladder=preset).first()
        my_rank = queries.rank_of(mine)
        my_position = queries.position_of(mine)
    page_number = request.GET.get("page")
    if page_number is None and my_position is not None and request.GET.get("me"):
        page_number = queries.page_of_rank(my_position)
    page, first_row = queries.leaderboard_page(preset, page_number, game_kind)
    # Ranked rows carry their rank; provisional rows (too few rated games) come after them,
    # unranked, in a part of their own.
    rows = [{"rank": first_row + i if r.ranked else None, "rating": r,
             "name": marked_name(getattr(getattr(r.user, "profile", None), "display_name", "")
                                 or r.user.get_username(),
                                 is_bot=getattr(getattr(r.user, "profile", None), "is_bot",
                                                False)),
             "is_me": mine is not None and r.pk == mine.pk}
            for i, r in enumerate(page.object_list)]
    on_page = any(row["is_me"] for row in rows)
    return render(request, "ladder/leaderboard.html", {
        "preset": preset, "ladder_name": name, "page": page, "rows": rows, "mine": mine,
        "ranked_rows": [row for row in rows if row["rank"] is not None],
        "provisional_rows": [row for row in rows if row["rank"] is None],
        "my_rank": my_rank,
        "my_page": queries.page_of_rank(my_position) if my_position else None,
        "mine_on_page": on_page, "ladders": services.ladders(game_kind),
        # Every ladder of every game, this one marked.
        "tabs": [(services.ladder_anchor(kind, key), services.ladder_title(kind, key),
                  queries.leaderboard_url(kind, key))
                 for kind in registered_games() for key in services.all_ladders(kind)],
        "current_tab": services.ladder_anchor(game_kind, preset),
        "queue_url": f"{reverse('ladder:queue')}?game={game_kind}",
        "game_kind": game_kind, "is_bots": preset == services.BOTS_LADDER,
        **_method_context(),
    })


# --- quick match ------------------------------------------------------------------------------


def _ready_ticket(viewer: Viewer) -> QueueTicket | None:
    """A recent match of this browser that it has not reached yet."""
    ticket = services.latest_ticket(viewer)
    if (ticket is None or ticket.status != QueueTicket.Status.MATCHED or ticket.match is None
            or ticket.arrived_at is not None):
        return None
    age = (timezone.now() - ticket.match.created_at).total_seconds()
    return ticket if age < READY_TABLE_MINUTES * 60 else None


def _queue_game(request: HttpRequest) -> str:
    """The game whose queues the page offers: ?game= (or the form's), else the default."""
    game_kind = request.POST.get("game") or request.GET.get("game") or default_game()
    if game_kind not in registered_games():
        raise Http404("No such game")
    return game_kind


@require_http_methods(["GET", "HEAD", "POST"])
def queue_page(request: HttpRequest) -> HttpResponse:
    viewer = viewer_from_request(request, create=True)
    needs_name = viewer.user_id is None
    game_kind = _queue_game(request)
    form = QueueForm(request.POST or None, needs_name=needs_name, game_kind=game_kind,
                     initial={"name": request.session.get(GUEST_NAME_SESSION_KEY, "")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.queue_join(viewer=viewer, preset=data["preset"], seats=data["seats"],
                                ranked=data["mode"] == "ranked", name=data.get("name"),
                                game_kind=data["game"])
        except LadderError as exc:
            form.add_error(None, exc.message)
        else:
            if data.get("name"):
                request.session[GUEST_NAME_SESSION_KEY] = data["name"]
            return redirect("ladder:queue")
    ticket = services.waiting_ticket(viewer)
    if ticket is not None:
        services.queue_seen(ticket_id=ticket.pk)
    ready = _ready_ticket(viewer) if ticket is None else None
    return render(request, "ladder/queue.html", {
        "form": form, "ticket": ticket, "ready": ready,
        "game_kind": game_kind,
        # A waiting page names the game of its queue, whatever ?game= says.
        "game_name": get_game(ticket.queue.game_kind if ticket else game_kind).name,
        "games": [(kind, get_game(kind).name, f"{reverse('ladder:queue')}?game={kind}")
                  for kind in registered_games()],
        "status": queries.queue_status_context(ticket) if ticket else None,
        "signed_in": viewer.user_id is not None,
        "bots_after": services.BOTS_AFTER_SECONDS, "arrival_seconds": services.ARRIVAL_SECONDS,
    })


@require_safe
def queue_status(request: HttpRequest) -> HttpResponse:
    """The status partial on its own (no-JavaScript refresh and tests)."""
    viewer = viewer_from_request(request)
    ticket = services.waiting_ticket(viewer) or _ready_ticket(viewer)
    if ticket is None:
        if request.htmx:
            return HttpResponseClientRedirect(reverse("ladder:queue"))
        return redirect("ladder:queue")
    services.queue_seen(ticket_id=ticket.pk)
    return render(request, "ladder/_queue_status.html", {"s": queries.queue_status_context(ticket)})


@require_POST
def queue_leave(request: HttpRequest) -> HttpResponse:
    viewer = viewer_from_request(request)
    if services.queue_leave(viewer=viewer):
        messages.success(request, "You left the queue.")
    return redirect("ladder:queue")


@require_POST
def queue_bots(request: HttpRequest) -> HttpResponse:
    viewer = viewer_from_request(request)
    try:
        match = services.queue_fill_with_bots(viewer=viewer)
    except LadderError as exc:
        messages.error(request, exc.message)
        return redirect("ladder:queue")
    return redirect(match.table)


@require_POST
def match_go(request: HttpRequest, ticket_id: int) -> HttpResponse:
    """Where a matched page goes (its button, or htmx as the match is shown): note the
    arrival, which may start the game, then go to the table."""
    viewer = viewer_from_request(request)
    try:
        table = services.match_arrive(ticket_id=ticket_id, viewer=viewer)
    except LadderError as exc:
        messages.error(request, exc.message)
        return redirect("ladder:queue")
    if request.htmx:
        return HttpResponseClientRedirect(table.get_absolute_url())
    return redirect(table)


# --- match history ----------------------------------------------------------------------------


@require_safe
def history(request: HttpRequest) -> HttpResponse:
    viewer = viewer_from_request(request)
    username = request.GET.get("player", "")
    if username:
        player = get_object_or_404(get_user_model(), username=username)
        user_id, guest_key = player.pk, None
    else:
        player = request.user if request.user.is_authenticated else None
        user_id, guest_key = viewer.user_id, viewer.guest_key
    # ?game=<kind> keeps one game's rows (every game's by default).
    game_kind = request.GET.get("game", "")
    if game_kind not in registered_games():
        game_kind = ""
    form = HistoryFilterForm(request.GET or None, game_kind=game_kind)
    preset = kind = ""
    if form.is_valid():
        preset, kind = form.cleaned_data["preset"], form.cleaned_data["kind"]
    page = queries.history_page(user_id=user_id, guest_key=guest_key, preset=preset, kind=kind,
                                page_number=request.GET.get("page"),
                                per_page=queries.HISTORY_PAGE, game_kind=game_kind)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "ladder/history.html", {
        "player": player, "own": player is None or (request.user.is_authenticated
                                                    and player.pk == request.user.pk),
        "form": form, "page": page, "rows": page.object_list, "query": query.urlencode(),
    })


# --- replays and exports ----------------------------------------------------------------------


def _finished_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).select_related("table").first()
    if game is None or game.status != Game.Status.FINISHED:
        # A running game has secrets (hands, the deck): nothing here until it ends.
        raise Http404("No finished game with that number")
    return game


def _my_seat(game: Game, viewer: Viewer) -> int | None:
    from games.platform.models import Seat

    seat_ids = {p.get("seat_id"): i for i, p in enumerate(game.players)}
    for seat in Seat.objects.filter(pk__in=[k for k in seat_ids if k]):
        if viewer.owns(seat):
            return seat_ids[seat.pk]
    if viewer.user_id:
        for i, p in enumerate(game.players):
            if p.get("user_id") == viewer.user_id and not p.get("bot"):
                return i
    return None


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@require_safe
def replay_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _finished_game(game_id)
    engine = get_game(game.game_kind)
    viewer = viewer_from_request(request)
    seat = _my_seat(game, viewer)
    actions = replay.game_actions(game)
    step = _int(request.GET.get("step"), len(actions))
    open_hands = request.GET.get("open") == "1"
    frame = replay.replay_frame(game, step=step, seat=seat, open_hands=open_hands,
                                actions=actions)
    record = GameRecord.objects.filter(game=game).first()
    context = {"game": game, "frame": frame, "record": record,
               "ladder_name": services.ladder_title(game.game_kind,
                                                    services.stock_preset(game) or "custom"),
               "open_q": "&open=1" if open_hands else "",
               # The board is drawn by the game's own template: its styles come with it, and
               # the scripts it names for replays (its others drive a live table).
               "game_styles": getattr(engine, "page_styles", ()),
               "game_scripts": getattr(engine, "replay_scripts", ()),
               # Each step's charts mark its turn, so they step with the board.
               "charts": replay.game_charts(game, actions, at_step=frame.step, seat=seat)}
    if request.htmx and request.htmx.target == "replay-frame":
        return render(request, "ladder/_replay_frame.html", context)
    return render(request, "ladder/replay.html", context)


@require_safe
def chart_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's charts alone: the table's game-over banner loads them."""
    game = _finished_game(game_id)
    seat = _my_seat(game, viewer_from_request(request))
    return render(request, "games/_charts.html",
                  {"charts": replay.game_charts(game, seat=seat)})


@require_safe
def export_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _finished_game(game_id)
    response = JsonResponse(replay.export_game(game), json_dumps_params={"indent": 1})
    name = f"{game.game_kind}-game-{game.pk}.json"  # chudopoly-game-12.json
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
