"""Token authentication and JSON errors for every /api/ view: `api_view`.

/api/ knows no cookies (games/api/middleware.py drops them before the session is read): a
request is its bearer token's owner or nobody, so no page can make a browser act there and
there is no CSRF to check. Every refusal is JSON, `{"error": sentence, "code": word}`, with
the status saying what kind: 400 malformed, 401 no or bad token, 403 scope missing, 404, 405,
413 body too large (and 429 from the limits, with Retry-After).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable, Iterable
from inspect import iscoroutinefunction
from typing import Any

from asgiref.sync import markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.api_tokens import API_SCOPES, token_for_secret, token_used
from games.api.rate_limits import over_limit, requests_per_minute

API_PREFIX = "/api/"
MAX_BODY_BYTES = 8 * 1024  # a move, a chat line or a resignation is a few hundred bytes


class ApiError(Exception):
    """A refusal, answered as `{"error": message, "code": code}` with `status`."""

    def __init__(self, status: int, message: str, *, code: str = "",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or _CODES.get(status, "error")
        self.headers = headers or {}

    def response(self) -> HttpResponse:
        return error_response(self.status, self.message, code=self.code, headers=self.headers)


_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
          405: "method_not_allowed", 413: "too_large", 429: "rate_limited"}


def error_response(status: int, message: str, *, code: str = "",
                   headers: dict[str, str] | None = None) -> HttpResponse:
    response = JsonResponse({"error": message, "code": code or _CODES.get(status, "error")},
                            status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def json_response(data: Any, *, status: int = 200) -> HttpResponse:
    return JsonResponse(data, status=status, safe=False)


def bearer_secret(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


def authenticate(request: HttpRequest, scopes: Iterable[str]) -> None:
    """Find the request's token and check it holds every scope in `scopes`; sets
    `request.api_token` and `request.user` (its owner). Raises ApiError 401 / 403."""
    secret = bearer_secret(request)
    if secret is None:
        raise ApiError(401, "No token: send Authorization: Bearer <your API token>.",
                       code="no_token", headers={"WWW-Authenticate": "Bearer"})
    token = token_for_secret(secret)
    if token is None:
        raise ApiError(401, "That token is not valid.", code="bad_token",
                       headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    if token.revoked_at is not None:
        raise ApiError(401, "That token was revoked.", code="revoked_token",
                       headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    if not token.user.is_active:
        raise ApiError(401, "That token's account is closed.", code="bad_token")
    missing = [scope for scope in scopes if scope not in token.scopes]
    if missing:
        raise ApiError(403, f"This token lacks the scope {', '.join(missing)}.",
                       code="missing_scope",
                       headers={"WWW-Authenticate":
                                f'Bearer error="insufficient_scope", scope="{" ".join(missing)}"'})
    wait = over_limit(token.pk)
    if wait is not None:
        raise ApiError(429, f"At most {requests_per_minute()} requests a minute per token; "
                            f"wait {wait} s.", code="rate_limited",
                       headers={"Retry-After": str(wait)})
    token_used(token)
    request.api_token = token  # type: ignore[attr-defined]
    request.user = token.user


def answered(methods: tuple[str, ...]) -> tuple[str, ...]:
    """The methods an endpoint answers: its own, and HEAD wherever GET is (HEAD is GET
    without the body: a monitor's or a proxy's probe gets GET's status and headers)."""
    return (*methods, "HEAD") if "GET" in methods and "HEAD" not in methods else methods


def _check_request(request: HttpRequest, methods: tuple[str, ...]) -> None:
    if request.method not in answered(methods):
        raise ApiError(405, f"Use {' or '.join(methods)} here.",
                       headers={"Allow": ", ".join(answered(methods))})
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ApiError(400, "The Content-Length header is not a number.") from None
    if length > MAX_BODY_BYTES:
        raise ApiError(413, f"Bodies are at most {MAX_BODY_BYTES} bytes.")


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's body as a JSON object; ApiError 400 / 413 if it is not one."""
    try:
        raw = request.body
    except Exception:  # Django refuses a body over its own limit while reading it
        raise ApiError(413, f"Bodies are at most {MAX_BODY_BYTES} bytes.") from None
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError(413, f"Bodies are at most {MAX_BODY_BYTES} bytes.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ApiError(400, "The body is not JSON.", code="bad_json") from None
    if not isinstance(data, dict):
        raise ApiError(400, "The body must be a JSON object.", code="bad_json")
    if _holds_nul(data):
        # PostgreSQL refuses NUL inside text; no action, name or chat line holds one.
        raise ApiError(400, "The body holds a NUL character.", code="bad_json")
    return data


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


View = Callable[..., HttpResponse]
AsyncView = Callable[..., Awaitable[HttpResponse]]


def api_view(*, methods: Iterable[str] = ("GET",),
             scopes: Iterable[str] = ()) -> Callable[[Any], Any]:
    """Make a view an /api/ endpoint: the method is one of `methods`, the body no larger than
    MAX_BODY_BYTES, the request carries a live token holding every scope of `scopes`; a view
    (sync or async) may raise ApiError for any other refusal. `request.user` is the token's
    owner and `request.api_token` the token."""
    allowed = tuple(m.upper() for m in methods)
    needed = tuple(scopes)
    unknown = [s for s in needed if s not in API_SCOPES]
    if unknown:
        raise ValueError(f"unknown API scopes {unknown}")

    def wrap(view: Any) -> Any:
        if iscoroutinefunction(view):
            @functools.wraps(view)
            async def run_async(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
                try:
                    _check_request(request, allowed)
                    await sync_to_async(authenticate)(request, needed)
                    return await view(request, *args, **kwargs)
                except ApiError as exc:
                    return exc.response()

            markcoroutinefunction(run_async)
            wrapped: Any = run_async
        else:
            @functools.wraps(view)
            def run(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
                try:
                    _check_request(request, allowed)
                    authenticate(request, needed)
                    return view(request, *args, **kwargs)
                except ApiError as exc:
                    return exc.response()

            wrapped = run
        wrapped.api_methods = allowed
        wrapped.api_scopes = needed
        # No cookie is read on /api/ (middleware.py), so no page can forge a request here.
        return csrf_exempt(wrapped)

    return wrap
