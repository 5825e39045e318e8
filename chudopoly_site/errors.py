"""Friendly error pages that do not depend on the database or the session being healthy."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # Without the request's context processors (they may need the session): the games are
    # named from the registry alone, for the footer.
    from games.platform.context import games_nav

    return HttpResponse(render_to_string("404.html", {"path": request.path,
                                                      **games_nav(request)}), status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponse(render_to_string("500.html"), status=500)
