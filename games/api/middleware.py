"""/api/ reads no cookies: a request there is its bearer token or nobody."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.api.auth import API_PREFIX


class ApiIgnoresCookies:
    """Drop the cookies of an /api/ request before the session and CSRF middleware read
    them: a browser's session never signs a request in there, so a page elsewhere cannot make
    a signed-in visitor's browser play (no CSRF surface), and the views check tokens only."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            request.COOKIES = {}
        return self.get_response(request)
