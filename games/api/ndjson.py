"""Newline-delimited JSON: one event a line, and an empty line to keep a quiet stream open."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from games.platform.jsontext import compact_json

CONTENT_TYPE = "application/x-ndjson"
KEEP_ALIVE = b"\n"


def stream_response(request: HttpRequest,
                    events: Callable[[], AsyncIterator[bytes]]) -> HttpResponseBase:
    """A stream's answer: `events()` streamed to a GET; to a HEAD the same status and headers
    with no body, and no stream opened (it would listen, unread, for as long as it lasts)."""
    response: HttpResponseBase
    if request.method == "HEAD":
        response = HttpResponse(content_type=CONTENT_TYPE)
    else:
        response = StreamingHttpResponse(events(), content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each line on at once
    return response


def line(event: dict[str, Any]) -> bytes:
    return (compact_json(event) + "\n").encode()
