"""GET /api/account: who the token acts for."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from games.api.auth import api_view, json_response


def account_json(user: Any, token: Any) -> dict[str, Any]:
    profile = getattr(user, "profile", None)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "display_name": (getattr(profile, "display_name", "") or user.get_username()),
        "created_at": user.date_joined.isoformat(),
        "url": f"/accounts/u/{user.get_username()}/",
        "token": {"description": token.description, "scopes": list(token.scopes)},
    }


@api_view(methods=("GET",))
def account(request: HttpRequest) -> HttpResponse:
    return json_response(account_json(request.user, request.api_token))  # type: ignore[attr-defined]
