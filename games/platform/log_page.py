"""/t/<CODE>/log/: the whole log of a table's current game (the table keeps its last 40 lines),
for whoever may open the table, as that browser's seat or a spectator reads it there."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from chudopoly_site.client_address import client_address
from chudopoly_site.errors import page_not_found
from games.platform import presenters, services
from games.platform.identity import viewer_from_request
from games.platform.interface import get_game
from games.platform.invites import INVITE_PARAM, TableHidden, table_for_visitor
from games.platform.whole_log import whole_log


@require_safe
def table_log(request: HttpRequest, code: str) -> HttpResponse:
    token = request.GET.get(INVITE_PARAM) or None
    viewer = viewer_from_request(request)
    try:
        table = table_for_visitor(services.normalize_code(code), viewer, token,
                                  client_address(request))
    except TableHidden:
        return page_not_found(request)
    screen = presenters.load_screen(table, viewer)
    if screen.game is None:
        raise Http404("This table has no game yet")
    back = table.invite_path if token and token == table.invite_token else table.get_absolute_url()
    return render(request, "games/table_log.html", {
        "table": table, "game_name": get_game(table.game_kind).name, "back": back,
        "lines": whole_log(screen), "finished": screen.game.status != "running",
        "seat": screen.seat})
