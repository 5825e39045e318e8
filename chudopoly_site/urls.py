from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from chudopoly_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("accounts/", include("accounts.urls")),
    path("ladder/", include("ladder.urls")),
    path("challenges/", include("challenges.urls")),
    path("", include("games.platform.urls")),
]

handler404 = "chudopoly_site.errors.page_not_found"
handler500 = "chudopoly_site.errors.server_error"
