"""The JSON answer to an /api/ path that names no endpoint."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from games.api.auth import error_response


@csrf_exempt
def not_found(request: HttpRequest) -> HttpResponse:
    return error_response(404, "No such endpoint; see /api/openapi.json.")
