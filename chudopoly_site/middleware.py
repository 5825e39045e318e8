"""Request guards that belong before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string

from chudopoly_site.client_address import from_trusted_proxy
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


class ForwardedHeadersFromTrustedProxiesOnly:
    """Every X-Forwarded-* header is dropped unless the connection comes from one of
    TRUSTED_PROXIES (chudopoly_site/client_address.py).

    Django reads X-Forwarded-Proto through SECURE_PROXY_SSL_HEADER from whoever sent it: a
    client reaching Daphne directly over plain HTTP could say "https" and be treated as on
    HTTPS (no redirect to it, absolute links and the CSRF referer check on https). Dropped
    here, before SecurityMiddleware and everything after it, no view or middleware can read
    a forwarded header a client wrote. X-Forwarded-For is read only by client_address.py,
    which applies the same rule itself (for the sockets too).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not from_trusted_proxy(request.META.get("REMOTE_ADDR")):
            for key in [k for k in request.META if k.startswith("HTTP_X_FORWARDED_")]:
                del request.META[key]
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
