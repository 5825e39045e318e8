"""Pages: function-based and thin. Load with a permission check, validate, call one service,
redirect or render. Game moves do not come through here: they travel over the table socket."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from chudopoly_site.client_address import client_address
from chudopoly_site.errors import page_not_found
from games.platform import presenters, services
from games.platform.abandoned import bot_games_make_room
from games.platform.forms import JoinForm, PlayBotsForm, TableForm
from games.platform.game_pages import game_entries
from games.platform.identity import GUEST_NAME_SESSION_KEY, viewer_from_request
from games.platform.interface import default_game, get_game, registered_games
from games.platform.invites import (
    INVITE_PARAM,
    SeatMovedAway,
    TableHidden,
    seat_moved_away,
    table_for_visitor,
)
from games.platform.lobby import public_tables
from games.platform.models import Game, Seat, Table
from games.platform.services import TableError
from games.platform.watchers import watchers

QUICK_PLAY_NAME = "Player"  # a guest who never chose a call sign


def _invite_token(request: HttpRequest) -> str | None:
    return request.GET.get(INVITE_PARAM) or request.POST.get(INVITE_PARAM) or None


def _visitor_table(request: HttpRequest, code: str) -> Table:
    """The table at `code` if this browser may open it (games/platform/invites.py); raises
    TableHidden (or its SeatMovedAway) otherwise, and a 429 page (invites.TooManyMisses,
    chudopoly_site.middleware) after many misses."""
    return table_for_visitor(services.normalize_code(code), viewer_from_request(request),
                             _invite_token(request), client_address(request))


def _get_table(request: HttpRequest, code: str) -> Table:
    """The table at `code` if this browser may open it, else a 404."""
    try:
        return _visitor_table(request, code)
    except TableHidden:
        raise Http404("No table with that code") from None


def _back(request: HttpRequest, table: Table) -> HttpResponse:
    """Back to the table page, keeping the invite token this request came with (a visitor
    who is not seated yet needs it to see a private table)."""
    token = _invite_token(request)
    if token and token == table.invite_token:
        return redirect(table.invite_path)
    return redirect(table)


def _remember_name(request: HttpRequest, name: str | None) -> None:
    if name:
        request.session[GUEST_NAME_SESSION_KEY] = name


def _make_room_for_a_bot_game(request: HttpRequest, viewer) -> None:
    """A player keeps BOT_GAMES_PER_PLAYER bot games at most: the oldest closes, and says so."""
    for code in bot_games_make_room(viewer=viewer):
        messages.info(request, f"Your oldest game against bots (table {code}) was closed: "
                               f"you can keep {settings.BOT_GAMES_PER_PLAYER} running at once.")


def _chosen_game(request: HttpRequest) -> str:
    """The game a page or form names (`?game=` or a `game` field), else the default one."""
    kind = request.POST.get("game") or request.GET.get("game") or ""
    return kind if kind in registered_games() else default_game()


def _game_choices(current: str) -> list[dict[str, object]]:
    return [{"key": k, "name": get_game(k).name, "current": k == current}
            for k in registered_games()]


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    # Every game side by side (its picture, its pitch and one way to start: Quick Play),
    # "Continue game" (this browser's games against bots, a guest's by their session) and
    # every game's public tables.
    return render(request, "games/home.html", {
        "tables": public_tables(), "games": game_entries(),
        "continue_games": services.games_to_continue(viewer_from_request(request))})


@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    """One click: you and three bots, no turn clock, a 45 s response clock (RULINGS)."""
    viewer = viewer_from_request(request, create=True)
    name = None if viewer.user_id else (request.session.get(GUEST_NAME_SESSION_KEY)
                                        or QUICK_PLAY_NAME)
    _make_room_for_a_bot_game(request, viewer)
    try:
        kind = _chosen_game(request)
        levels = get_game(kind).quick_play_levels()
        table = services.table_play_vs_bots(viewer=viewer, name=name, levels=levels,
                                            game_kind=kind)
    except TableError as exc:
        messages.error(request, exc.message)
        return redirect("games:home")
    return redirect(table)


@require_http_methods(["GET", "HEAD", "POST"])
def play_bots(request: HttpRequest) -> HttpResponse:
    """Choose 1–4 bots, each one's level, the rules and the clocks; the game starts at once."""
    viewer = viewer_from_request(request, create=True)
    needs_name = viewer.user_id is None
    kind = _chosen_game(request)
    if request.method == "POST":
        form = PlayBotsForm(request.POST, needs_name=needs_name, game_kind=kind)
        if form.is_valid():
            data = form.cleaned_data
            _make_room_for_a_bot_game(request, viewer)
            try:
                table = services.table_play_vs_bots(
                    viewer=viewer, name=data.get("name"), levels=form.levels(),
                    ruleset_spec={"preset": data["preset"]},
                    # A game with its own clocks has no clock fields (forms.py).
                    turn_seconds=data.get("turn_seconds", services.QUICK_PLAY_TURN_SECONDS),
                    response_seconds=data.get("response_seconds",
                                              services.QUICK_PLAY_RESPONSE_SECONDS),
                    game_kind=kind)
            except TableError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                _remember_name(request, data.get("name"))
                return redirect(table)
    else:
        form = PlayBotsForm(needs_name=needs_name, game_kind=kind,
                            initial={"name": request.session.get(GUEST_NAME_SESSION_KEY, "")})
    return render(request, "games/play_bots.html", {"form": form, "game_kind": kind,
                                                    "games": _game_choices(kind),
                                                    "game_name": get_game(kind).name})


@require_http_methods(["GET", "HEAD", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    viewer = viewer_from_request(request, create=True)
    needs_name = viewer.user_id is None
    kind = _chosen_game(request)
    if request.method == "POST":
        form = TableForm(request.POST, needs_name=needs_name, game_kind=kind)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = services.table_create(
                    viewer=viewer, name=data.get("name"), ruleset_spec=form.ruleset_spec(),
                    max_seats=data["max_seats"],
                    turn_seconds=data.get("turn_seconds", services.TURN_SECONDS_DEFAULT),
                    response_seconds=data.get("response_seconds",
                                              services.RESPONSE_SECONDS_DEFAULT),
                    is_public=data["is_public"],
                    game_kind=kind)
            except TableError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                _remember_name(request, data.get("name"))
                return redirect(table)
    else:
        form = TableForm(needs_name=needs_name, game_kind=kind,
                         initial={"name": request.session.get(GUEST_NAME_SESSION_KEY, "")})
    return render(request, "games/table_new.html", {"form": form, "game_kind": kind,
                                                    "games": _game_choices(kind),
                                                    "game_name": get_game(kind).name})


@require_safe
def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    try:
        table = _visitor_table(request, code)
    except SeatMovedAway as moved:
        return _seat_moved_page(request, moved.table, moved.seat)
    except TableHidden:
        # A mistyped invite code is an everyday mistake: the site's own page, not Django's
        # debug page, even with DEBUG on.
        return page_not_found(request)
    if table.code != code:
        return _back(request, table)
    viewer = viewer_from_request(request, create=True)
    screen = presenters.load_screen(table, viewer)
    extra = {"csrf_value": get_token(request),
             "remembered_name": request.session.get(GUEST_NAME_SESSION_KEY, ""),
             "invite_origin": request.build_absolute_uri("/").rstrip("/")}
    parts = presenters.render_all(screen, oob=False, extra=extra)
    engine = get_game(table.game_kind)
    join_form = JoinForm(initial={"name": request.session.get(GUEST_NAME_SESSION_KEY, "")})
    return render(request, "games/table.html", {
        "table": table, "screen": screen, "parts": parts, "join_form": join_form,
        "chat": presenters.render_chat(table, oob=False),
        "invite_url": request.build_absolute_uri(table.invite_path),
        "watchers": watchers(table.code),
        # A public table opens for the browser a seat moved away from: it says so there.
        "seat_moved": (moved := None if table.invite_token else seat_moved_away(table, viewer)),
        "seat_moved_ago": _ago(moved.moved_at) if moved is not None else "",
        **presenters.lobby_context(screen), **extra,
        # A game's own static files for its board (optional: `page_styles`, `page_scripts`).
        "game_styles": getattr(engine, "page_styles", ()),
        "game_scripts": getattr(engine, "page_scripts", ()),
    })


def _ago(when) -> str:
    """"just now", "3 minutes ago": how long ago a seat moved, as a person says it."""
    if (timezone.now() - when).total_seconds() < 60:
        return "just now"
    return f"{timesince(when)} ago"


def _seat_moved_page(request: HttpRequest, table: Table, seat: Seat) -> HttpResponse:
    """The browser a seat moved away from: when it moved and how to bring it back. Nothing of
    the game or the other device. A page like any other (200): the browser has done nothing
    wrong, and an error status would read as one (a console error, a failed load)."""
    game = services.current_game(table)
    return render(request, "games/seat_moved.html", {
        "table": table, "moved_at": seat.moved_at, "moved_ago": _ago(seat.moved_at),
        "continued": services.is_bot_game(table),
        "running": game is not None and game.status == Game.Status.RUNNING,
        "minutes": services.MOVE_LINK_MINUTES, "hours": services.CONTINUE_LINK_HOURS,
    })


def _act(request: HttpRequest, code: str, fn, **kwargs) -> HttpResponse:
    """Run one lobby service for this browser and come back to the table page."""
    table = _get_table(request, code)
    viewer = viewer_from_request(request, create=True)
    try:
        fn(table_id=table.pk, viewer=viewer, **kwargs)
    except TableError as exc:
        messages.error(request, exc.message)
    return _back(request, table)


@require_POST
def table_join(request: HttpRequest, code: str) -> HttpResponse:
    viewer = viewer_from_request(request, create=True)
    form = JoinForm(request.POST)
    if viewer.user_id is None and not form.is_valid():
        messages.error(request, " ".join(form.errors.get("name", ["Pick a name."])))
        return _back(request, _get_table(request, code))
    name = form.cleaned_data.get("name") if form.is_valid() else None
    _remember_name(request, name)
    return _act(request, code, services.seat_join, name=name)


@require_POST
def table_leave(request: HttpRequest, code: str) -> HttpResponse:
    table = _get_table(request, code)
    if table.status != Table.Status.PLAYING:
        _act(request, code, services.seat_leave)
        # No longer seated: a private table opens for them again through its invite link.
        return redirect(table.invite_path)
    # Leaving a running game goes home: the table page would open a socket, and an open socket
    # is the owner coming back (the bot plays until the invite link is opened again).
    viewer = viewer_from_request(request, create=True)
    me = table.seats.filter(viewer.seat_filter()).first() if viewer.known else None
    was_out = services.out_place(services.current_game(table),
                                 me.game_seat if me is not None else None) is not None
    try:
        services.seat_leave(table_id=table.pk, viewer=viewer)
    except TableError as exc:
        messages.error(request, exc.message)
        return redirect(table)
    if was_out:
        messages.info(request, f"You left table {table.code}.")
    elif getattr(get_game(table.game_kind), "leave_actions", None) is not None:
        # The game's rules (Boardroom's guide): leaving is going bankrupt to the bank.
        messages.info(request, f"You left table {table.code}; leaving put you out of that "
                               "game (bankrupt to the bank).")
    else:
        messages.info(request, f"You left table {table.code}; a bot plays your seat until you "
                               "open the table again.")
    return redirect("games:home")


def _hx_or_back(request: HttpRequest, table: Table) -> HttpResponse:
    """An htmx button needs no page: the table's socket shows the change. A plain form post
    (no script) comes back to the table page."""
    if request.headers.get("HX-Request"):
        return HttpResponse(status=204)
    return _back(request, table)


@require_POST
def table_auto_move(request: HttpRequest, code: str) -> HttpResponse:
    """The auto move toggle by the dice: on=1 turns it on, anything else off."""
    table = _get_table(request, code)
    try:
        services.seat_auto_move_set(table_id=table.pk,
                                    viewer=viewer_from_request(request, create=True),
                                    on=request.POST.get("on") == "1")
    except TableError as exc:
        if request.headers.get("HX-Request"):
            return HttpResponse(exc.message, status=409)
        messages.error(request, exc.message)
    return _hx_or_back(request, table)


@require_http_methods(["GET", "HEAD", "POST"])
def continue_link(request: HttpRequest, code: str) -> HttpResponse:
    """"Continue on another device": pause this game against bots and show a one-time link,
    valid for 24 hours, that moves it to the browser opening it."""
    table = _get_table(request, code)
    context = {"table": table, "hours": services.CONTINUE_LINK_HOURS, "link": None}
    if request.method != "POST":
        # Making a link pauses the game, so it takes a button (POST).
        return render(request, "games/continue_link.html", context)
    try:
        token = services.continue_link_create(table_id=table.pk,
                                              viewer=viewer_from_request(request, create=True))
    except TableError as exc:
        messages.error(request, exc.message)
        return redirect(table)
    link = request.build_absolute_uri(f"/t/{table.code}/move/{token}/")
    return render(request, "games/continue_link.html",
                  {**context, "link": link, "qr": _qr_svg(link)})


@require_POST
def continue_here(request: HttpRequest, code: str) -> HttpResponse:
    """Play a paused game on in this browser; the link made for another device stops working."""
    return _act(request, code, services.continue_here)


@require_POST
def table_take_back(request: HttpRequest, code: str) -> HttpResponse:
    """The owner of a seat a bot is playing takes it back (also done by reconnecting)."""
    return _act(request, code, services.seat_return)


@require_POST
def table_bot_add(request: HttpRequest, code: str) -> HttpResponse:
    return _act(request, code, services.seat_add_bot, level=request.POST.get("level", "basic"))


@require_POST
def table_bot_remove(request: HttpRequest, code: str, seat_id: int) -> HttpResponse:
    return _act(request, code, services.seat_remove_bot, seat_id=seat_id)


@require_POST
def table_start(request: HttpRequest, code: str) -> HttpResponse:
    return _act(request, code, services.game_start)


@require_POST
def table_rematch(request: HttpRequest, code: str) -> HttpResponse:
    return _act(request, code, services.game_rematch)


def _qr_svg(link: str) -> str:
    """The link as an inline SVG QR code, for a phone's camera (segno draws it)."""
    import segno

    # segno writes the whole SVG itself (paths only, no text of the link): safe as it is.
    return mark_safe(segno.make(link, error="m").svg_inline(
        scale=5, border=2, title="QR code of the move-seat link", dark="#111827"))


@require_POST
def table_rematch_answer(request: HttpRequest, code: str) -> HttpResponse:
    """A player asked to a rematch accepts or declines it (a decline gives up the seat)."""
    return _act(request, code, services.rematch_answer,
                accept=request.POST.get("answer") == "yes")


@require_http_methods(["GET", "HEAD", "POST"])
def seat_move_link(request: HttpRequest, code: str) -> HttpResponse:
    table = _get_table(request, code)
    if request.method != "POST":
        # Reloaded or typed in: making a link changes the seat, so it takes a button (POST).
        return render(request, "games/move_link.html", {
            "table": table, "link": None, "minutes": services.MOVE_LINK_MINUTES})
    viewer = viewer_from_request(request, create=True)
    try:
        token = services.seat_move_link_create(table_id=table.pk, viewer=viewer)
    except TableError as exc:
        messages.error(request, exc.message)
        return redirect(table)
    link = request.build_absolute_uri(f"/t/{table.code}/move/{token}/")
    return render(request, "games/move_link.html", {"table": table, "link": link,
                                                    "qr": _qr_svg(link),
                                                    "minutes": services.MOVE_LINK_MINUTES})


@require_http_methods(["GET", "HEAD", "POST"])
def seat_move_claim(request: HttpRequest, code: str, token: str) -> HttpResponse:
    # GET only asks; POST takes the seat, so a link preview cannot use the link up. The move
    # token is the permission here (the new device is not seated yet and has no invite link).
    table = Table.objects.filter(code=services.normalize_code(code)).first()
    if table is None:
        raise Http404("No table with that code")
    if request.method == "POST":
        viewer = viewer_from_request(request, create=True)
        try:
            services.seat_move_claim(code=table.code, token=token, viewer=viewer)
        except TableError as exc:
            messages.error(request, exc.message)
            return redirect("games:home")  # not seated: a private table would be a 404
        messages.success(request, "This device now has your seat.")
        return redirect(table)
    seat = table.seats.filter(move_token=token).only("move_token_expires").first()
    usable = bool(seat and seat.move_token_expires and seat.move_token_expires > timezone.now())
    return render(request, "games/move_claim.html", {
        "table": table, "token": token, "usable": usable,
        "expired": seat is not None and not usable,
        # A link made by "Continue on another device" (the game waits paused for it).
        "continuing": table.paused_at is not None})
