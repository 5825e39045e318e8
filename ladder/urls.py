from __future__ import annotations

from django.urls import path

from ladder import views

app_name = "ladder"

urlpatterns = [
    path("", views.ladder_index, name="index"),
    path("play/", views.queue_page, name="queue"),
    path("play/status/", views.queue_status, name="queue_status"),
    path("play/leave/", views.queue_leave, name="queue_leave"),
    path("play/bots/", views.queue_bots, name="queue_bots"),
    path("match/<int:ticket_id>/go/", views.match_go, name="match_go"),
    path("games/", views.history, name="history"),
    path("games/<int:game_id>/replay/", views.replay_view, name="replay"),
    path("games/<int:game_id>/export.json", views.export_view, name="export"),
    path("games/<int:game_id>/charts/", views.chart_view, name="charts"),
    path("<str:preset>/", views.leaderboard, name="leaderboard"),
    path("<str:game_kind>/<str:preset>/", views.leaderboard, name="game_leaderboard"),
]
