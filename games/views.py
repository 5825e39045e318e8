"""Pages: function-based and thin."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.lobby import public_tables


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"tables": public_tables()})
