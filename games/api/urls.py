"""Every /api/ endpoint (docs/api.md; their description: games/api/openapi.py)."""

from __future__ import annotations

from django.urls import path, re_path

from games.api import account, errors

app_name = "api"

urlpatterns = [
    path("account", account.account, name="account"),
    # Last: any other /api/ path is a JSON 404, not the site's page.
    re_path(r"^.*$", errors.not_found, name="not_found"),
]
