"""Request guards that belong before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string

from chudopoly_site.throttle import Throttled


class RefuseNulBytes:
    """A NUL byte in the path or query string is refused with 400 before any view runs.

    URL converters such as `<str:code>` accept it, and PostgreSQL refuses a string holding NUL
    in a query (psycopg raises DataError), so `/t/%00%00/` was a 500 (found by
    bench/frame_fuzz.py). No real URL of the site contains one.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return HttpResponseBadRequest("Bad request.")
        return self.get_response(request)


class ThrottledPage:
    """A view that raised `Throttled` answers 429 with the site's own page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Throttled):
            return None
        response = HttpResponse(render_to_string("429.html", request=request), status=429)
        response["Retry-After"] = "600"
        return response
