from __future__ import annotations

from django.urls import path

from challenges import views

app_name = "challenges"

urlpatterns = [
    path("", views.challenge_list, name="list"),
    path("to/<str:username>/", views.challenge_new, name="new"),
    path("invite/<str:code>/", views.table_invite, name="invite"),
    path("<int:challenge_id>/<str:answer>/", views.challenge_answer, name="answer"),
]
