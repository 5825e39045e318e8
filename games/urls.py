from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
]
