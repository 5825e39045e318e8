from __future__ import annotations

from django.urls import path

from games.platform import game_pages, log_page, rules_page, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<str:game_kind>/", game_pages.game_page, name="game"),
    path("rules", game_pages.rules_index, name="rules"),
    path("rules/<str:game_kind>", rules_page.rules, name="game_rules"),
    path("tables/new/", views.table_new, name="table_new"),
    path("play/quick/", views.quick_play, name="quick_play"),
    path("play/bots/", views.play_bots, name="play_bots"),
    path("t/<str:code>/", views.table_detail, name="table"),
    path("t/<str:code>/join/", views.table_join, name="table_join"),
    path("t/<str:code>/log/", log_page.table_log, name="table_log"),
    path("t/<str:code>/leave/", views.table_leave, name="table_leave"),
    path("t/<str:code>/return/", views.table_take_back, name="table_take_back"),
    path("t/<str:code>/bots/", views.table_bot_add, name="table_bot_add"),
    path("t/<str:code>/bots/<int:seat_id>/remove/", views.table_bot_remove,
         name="table_bot_remove"),
    path("t/<str:code>/start/", views.table_start, name="table_start"),
    path("t/<str:code>/rematch/", views.table_rematch, name="table_rematch"),
    path("t/<str:code>/rematch/answer/", views.table_rematch_answer,
         name="table_rematch_answer"),
    path("t/<str:code>/auto/", views.table_auto_move, name="table_auto_move"),
    path("t/<str:code>/continue/", views.continue_link, name="continue_link"),
    path("t/<str:code>/continue/here/", views.continue_here, name="continue_here"),
    path("t/<str:code>/move/", views.seat_move_link, name="seat_move_link"),
    path("t/<str:code>/move/<str:token>/", views.seat_move_claim, name="seat_move_claim"),
]
